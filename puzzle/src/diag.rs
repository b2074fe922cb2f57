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

/// Renders a list of diagnostics one per line, in the order they were found.
pub fn render(diagnostics: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diagnostics {
        out.push_str(&d.to_string());
        out.push('\n');
    }
    out
}
