//! Diagnostics: errors in a puzzle definition, as data, with the place they point at.

use std::fmt;

/// One error found in a definition file, pointing at `file:line:col` (both 1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The name the input is known by: the path as given, or `<stdin>`.
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &str, line: usize, col: usize, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line,
            col,
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error: {}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// Renders a list of diagnostics in the order they were found, each followed, as a
/// compiler shows it, by the line of `text` (the input they were found in) it points at
/// and a caret under its column; one whose line `text` does not hold (an end of file) is
/// shown alone.
///
/// ```text
/// puzzle.txt:2:15: error: type must be M or S, not 'Q'
///    2 | C:name=A:type=Q:layout=0 0 0
///      |               ^
/// ```
pub fn render(diagnostics: &[Diagnostic], text: &str) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&d.to_string());
        out.push('\n');
        if let Some(source) = d.line.checked_sub(1).and_then(|n| text.lines().nth(n)) {
            let (shown, caret) = excerpt(source, d.col);
            let number = d.line.to_string();
            let gutter = " ".repeat(number.len().max(4));
            out.push_str(&format!("{number:>4} | {shown}\n{gutter} | {caret}^\n"));
        }
    }
    out
}

/// The widest excerpt of a line shown, in characters.
const EXCERPT: usize = 100;

/// What is shown of `line` and the blanks before the caret under column `col` (1-based,
/// in characters): the whole line where it is short, else a stretch around the column
/// with `...` where it is cut; control characters (a tab among them) shown as blanks, so
/// that nothing in the input can move the terminal's cursor and the caret stands under
/// its character.
fn excerpt(line: &str, col: usize) -> (String, String) {
    let chars: Vec<char> = line
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let at = col.saturating_sub(1).min(chars.len());
    let (start, end) = if chars.len() <= EXCERPT {
        (0, chars.len())
    } else {
        let start = at.saturating_sub(EXCERPT / 2).min(chars.len() - EXCERPT);
        (start, start + EXCERPT)
    };
    let mut shown = String::new();
    if start > 0 {
        shown.push_str("...");
    }
    shown.extend(&chars[start..end]);
    if end < chars.len() {
        shown.push_str("...");
    }
    let lead = at - start + if start > 0 { 3 } else { 0 };
    (shown.trim_end().to_string(), " ".repeat(lead))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(line: usize, col: usize) -> Diagnostic {
        Diagnostic::new("f.txt", line, col, "m")
    }

    #[test]
    fn each_diagnostic_shows_its_line_with_a_caret_under_its_column() {
        let text = "D:xDim=1\nC:name=A:type=Q\n";
        assert_eq!(
            render(&[at(2, 15), at(1, 1)], text),
            "f.txt:2:15: error: m\n   2 | C:name=A:type=Q\n     |               ^\n\
             f.txt:1:1: error: m\n   1 | D:xDim=1\n     | ^\n"
        );
        // A line past the end (an end of file) is shown alone; so is line 0.
        assert_eq!(render(&[at(3, 1)], text), "f.txt:3:1: error: m\n");
        assert_eq!(render(&[at(0, 1)], text), "f.txt:0:1: error: m\n");
        // Wide line numbers widen the gutter.
        let long = "\n".repeat(12344) + "x";
        assert_eq!(
            render(&[at(12345, 1)], &long),
            "f.txt:12345:1: error: m\n12345 | x\n      | ^\n"
        );
    }

    #[test]
    fn control_characters_are_blanks_and_long_lines_are_cut_around_the_column() {
        // A tab, an escape and a carriage return (a Windows line end) are blanks.
        assert_eq!(
            excerpt("\tA\x1b[2Jé B\r", 8),
            (" A [2Jé B".to_string(), " ".repeat(7))
        );
        // A column past the end (the line's end) is just after its last character.
        assert_eq!(excerpt("ab", 9), ("ab".to_string(), "  ".to_string()));
        let line: String = (0..300)
            .map(|k| char::from(b'a' + (k % 26) as u8))
            .collect();
        let (shown, caret) = excerpt(&line, 200);
        assert_eq!(shown.chars().count(), EXCERPT + 6);
        assert!(shown.starts_with("...") && shown.ends_with("..."));
        assert_eq!(shown.chars().nth(caret.len()), line.chars().nth(199));
        let (shown, caret) = excerpt(&line, 2);
        assert!(!shown.starts_with("...") && shown.ends_with("..."));
        assert_eq!(caret.len(), 1);
        let (shown, caret) = excerpt(&line, 300);
        assert!(shown.starts_with("...") && !shown.ends_with("..."));
        assert_eq!(shown.chars().nth(caret.len()), line.chars().nth(299));
    }
}
