//! The reader for polycube's puzzle definition format (`D`, `C`, `L` … `~L`, `~D`).
//!
//! It turns text into [`PuzzleDef`]s and reports every error it can find as a
//! [`Diagnostic`] naming `file:line:col`. It knows nothing of rotations or
//! symmetry: that is the model's job.

use std::collections::{HashMap, HashSet};

use crate::diag::Diagnostic;
use crate::lattice::{self, Lattice};

/// The largest box the tool accepts, in cells; cell numbers are `u16` everywhere.
pub const MAX_CELLS: usize = 65_535;

/// One puzzle, `D` … `~D`, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleDef {
    /// Line of the `D` directive.
    pub line: usize,
    /// The lattice (`lattice=`, cubic when not given).
    pub lattice: Lattice,
    /// `xDim`, `yDim`, `zDim`.
    pub dims: [usize; 3],
    pub one_side: bool,
    /// Pieces in the order they were defined.
    pub pieces: Vec<PieceDef>,
}

/// One piece: its name, kind and cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    pub name: String,
    pub stationary: bool,
    /// Cells as written (absolute coordinates; for mobile pieces only the shape matters).
    /// No duplicates; in the order first written.
    pub cells: Vec<[i32; 3]>,
    /// Line where the piece is defined: its `C` line, or its first row in an `L` block.
    pub line: usize,
}

/// Parses a whole stream (any number of puzzles). `file` is the display name used in diagnostics.
///
/// Returns every puzzle in the stream when the whole stream is free of errors, and otherwise
/// every error found, in the order found. Empty input (or input holding only comments) is an
/// empty list of puzzles. Whatever the input, this function returns: it never panics.
///
/// Recovery, so that one run reports as much as it can:
/// - a directive with an error is skipped (a `C` with a usable name and layout still defines its
///   piece, so that later duplicate names are still caught);
/// - a `D` with unusable dimensions still opens its puzzle; the checks that need the box (cells
///   inside it, the volume) are skipped, the others still run;
/// - a puzzle that already had an error gets no volume check at its `~D`, since a skipped piece
///   would make that check report a second, misleading error;
/// - a `D`, `C`, `L` directive (with a `:`) or a `~D` inside an `L` block is taken as a missing
///   `~L`; a second `D` before `~D` is taken as a missing `~D`.
pub fn parse(file: &str, text: &str) -> Result<Vec<PuzzleDef>, Vec<Diagnostic>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut parser = Parser {
        diags: Diags {
            file,
            list: Vec::new(),
        },
        puzzles: Vec::new(),
        open: None,
        block: None,
    };
    for (index, raw) in text.lines().enumerate() {
        parser.line(Line::new(index + 1, raw));
    }
    parser.finish()
}

/// One line of input, with what is needed to turn byte offsets into columns.
#[derive(Clone, Copy)]
struct Line<'a> {
    /// 1-based line number.
    no: usize,
    raw: &'a str,
    /// Most lines are ASCII, where a column is just a byte offset; checking once keeps long
    /// lines linear.
    ascii: bool,
}

impl<'a> Line<'a> {
    fn new(no: usize, raw: &'a str) -> Self {
        Line {
            no,
            raw,
            ascii: raw.is_ascii(),
        }
    }

    /// The 1-based column (in characters) where `span` starts.
    fn col(&self, span: Span<'_>) -> usize {
        if self.ascii {
            span.start + 1
        } else {
            self.raw[..span.start].chars().count() + 1
        }
    }
}

/// A slice of a line together with the byte offset where it starts in that line, so that
/// every token can be reported at its own column.
#[derive(Clone, Copy, Debug)]
struct Span<'a> {
    text: &'a str,
    start: usize,
}

impl<'a> Span<'a> {
    fn trim(self) -> Span<'a> {
        let trimmed_start = self.text.trim_start();
        let start = self.start + (self.text.len() - trimmed_start.len());
        Span {
            text: trimmed_start.trim_end(),
            start,
        }
    }

    fn split(self, separator: char) -> Vec<Span<'a>> {
        let mut start = self.start;
        self.text
            .split(separator)
            .map(|part| {
                let span = Span { text: part, start };
                start += part.len() + separator.len_utf8();
                span
            })
            .collect()
    }

    /// The whitespace-separated words, each with its own offset.
    fn words(self) -> Vec<Span<'a>> {
        let mut words = Vec::new();
        let mut begin = None;
        for (i, c) in self.text.char_indices() {
            if c.is_whitespace() {
                if let Some(b) = begin.take() {
                    words.push(Span {
                        text: &self.text[b..i],
                        start: self.start + b,
                    });
                }
            } else if begin.is_none() {
                begin = Some(i);
            }
        }
        if let Some(b) = begin {
            words.push(Span {
                text: &self.text[b..],
                start: self.start + b,
            });
        }
        words
    }
}

/// The part of a line before its `#` comment.
fn strip_comment(raw: &str) -> &str {
    raw.find('#').map_or(raw, |i| &raw[..i])
}

/// A directive line split on `:`: the directive itself and its raw fields.
struct Directive<'a> {
    line: Line<'a>,
    kind: Span<'a>,
    fields: Vec<Span<'a>>,
}

impl Directive<'_> {
    fn col(&self) -> usize {
        self.line.col(self.kind)
    }
}

/// One `tag` or `tag=value` field of a directive.
#[derive(Clone, Copy)]
struct Field<'a> {
    tag: Span<'a>,
    value: Option<Span<'a>>,
}

/// The diagnostics found so far.
struct Diags<'f> {
    file: &'f str,
    list: Vec<Diagnostic>,
}

impl Diags<'_> {
    fn error(&mut self, line: usize, col: usize, message: impl Into<String>) {
        self.list
            .push(Diagnostic::new(self.file, line, col, message));
    }

    fn len(&self) -> usize {
        self.list.len()
    }
}

/// A cell of a piece with the place it was written, so that errors about it point there.
#[derive(Clone, Copy)]
struct CellAt {
    cell: [i32; 3],
    line: usize,
    col: usize,
}

fn show(cell: [i32; 3]) -> String {
    format!("({}, {}, {})", cell[0], cell[1], cell[2])
}

/// A piece read from a `C` line or an `L` block, before the puzzle-level checks.
struct NewPiece {
    name: String,
    stationary: bool,
    cells: Vec<CellAt>,
    /// Where the name is written: the `name=` value, or the piece's first cell in an `L` block.
    line: usize,
    name_col: usize,
}

/// The puzzle between its `D` and its `~D`.
struct OpenPuzzle {
    line: usize,
    col: usize,
    /// `None` when the `D` line had an error: the checks that need the box are then skipped.
    dims: Option<[usize; 3]>,
    lattice: Lattice,
    one_side: bool,
    pieces: Vec<PieceDef>,
    /// The line where each name was defined (also names whose piece was dropped for an error).
    names: HashMap<String, usize>,
    /// Each cell of a stationary piece, with the index of the first piece that covers it.
    occupied: HashMap<[i32; 3], usize>,
    /// The number of diagnostics before the `D`: more than that at `~D` means this puzzle is broken.
    diags_before: usize,
}

impl OpenPuzzle {
    /// Checks a piece against the puzzle (unique name, flatness, box and overlap for stationary
    /// pieces) and adds it.
    fn add(&mut self, diags: &mut Diags<'_>, piece: NewPiece) {
        if let Some(first) = self.names.get(&piece.name) {
            diags.error(
                piece.line,
                piece.name_col,
                format!(
                    "piece '{}' is defined twice (first at line {first})",
                    piece.name
                ),
            );
            return;
        }
        let planar = lattice::geometry(self.lattice).planar();
        if self.one_side || planar {
            if let Some(c) = piece.cells.iter().find(|c| c.cell[2] != 0) {
                let why = if planar {
                    format!("the {} lattice is a plane", self.lattice.name())
                } else {
                    "a oneSide puzzle is flat".to_string()
                };
                diags.error(
                    c.line,
                    c.col,
                    format!(
                        "piece '{}' cell {} has z = {}, but {why} (z must be 0)",
                        piece.name,
                        show(c.cell),
                        c.cell[2]
                    ),
                );
            }
        }
        if piece.stationary {
            if let Some(dims) = self.dims {
                let inside = |c: &&CellAt| {
                    c.cell
                        .iter()
                        .zip(dims)
                        .all(|(&v, d)| v >= 0 && (v as usize) < d)
                };
                if let Some(c) = piece.cells.iter().find(|c| !inside(c)) {
                    diags.error(
                        c.line,
                        c.col,
                        format!(
                            "stationary piece '{}' cell {} lies outside the {}x{}x{} box",
                            piece.name,
                            show(c.cell),
                            dims[0],
                            dims[1],
                            dims[2]
                        ),
                    );
                }
            }
            // Only the first overlap of a piece is reported: one is enough to fix the file.
            let mut overlap_reported = false;
            for c in &piece.cells {
                match self.occupied.get(&c.cell) {
                    Some(&other) if !overlap_reported => {
                        overlap_reported = true;
                        diags.error(
                            c.line,
                            c.col,
                            format!(
                                "stationary piece '{}' cell {} overlaps stationary piece '{}'",
                                piece.name,
                                show(c.cell),
                                self.pieces[other].name
                            ),
                        );
                    }
                    Some(_) => {}
                    None => {
                        self.occupied.insert(c.cell, self.pieces.len());
                    }
                }
            }
        }
        self.names.insert(piece.name.clone(), piece.line);
        self.pieces.push(PieceDef {
            name: piece.name,
            stationary: piece.stationary,
            cells: piece.cells.iter().map(|c| c.cell).collect(),
            line: piece.line,
        });
    }
}

/// The cells drawn with one name in an `L` block so far.
struct DrawnPiece {
    name: String,
    cells: Vec<CellAt>,
}

/// An `L` block between its `L` and its `~L`.
struct OpenBlock {
    line: usize,
    col: usize,
    /// The names listed in `stationary=`, with their columns on the `L` line.
    stationary: Vec<(String, usize)>,
    /// Rows read so far: the next row is this many rows below the top.
    rows: usize,
    pieces: Vec<DrawnPiece>,
    /// Index into `pieces` by name.
    index: HashMap<String, usize>,
}

struct Parser<'f> {
    diags: Diags<'f>,
    puzzles: Vec<PuzzleDef>,
    open: Option<OpenPuzzle>,
    /// An open `L` block; it may exist without a puzzle (an `L` before any `D`), and then its
    /// rows are only skipped.
    block: Option<OpenBlock>,
}

impl<'f> Parser<'f> {
    fn line(&mut self, line: Line<'_>) {
        let content = Span {
            text: strip_comment(line.raw),
            start: 0,
        };
        if let Some(block) = &self.block {
            let kind = content.split(':')[0].trim();
            // A row may hold the names `D`, `C` or `L`, so those end a block only when written
            // as directives, with a `:`.
            let is_directive = matches!(kind.text, "~L" | "~D")
                || (content.text.contains(':') && matches!(kind.text, "D" | "C" | "L"));
            if !is_directive {
                self.row(line, content);
                return;
            }
            if kind.text != "~L" {
                // The block is closed first, so that its own errors (on earlier lines) come
                // before this one.
                let block_line = block.line;
                self.close_block();
                self.diags.error(
                    line.no,
                    line.col(kind),
                    format!(
                        "missing ~L: the L block opened at line {block_line} is not closed before this {}",
                        kind.text
                    ),
                );
            }
        }
        if content.trim().text.is_empty() {
            return;
        }
        let mut fields = content.split(':');
        let kind = fields.remove(0).trim();
        let directive = Directive { line, kind, fields };
        match kind.text {
            "D" => self.begin_puzzle(&directive),
            "C" => self.coordinate_piece(&directive),
            "L" => self.begin_block(&directive),
            "~L" => self.end_block(&directive),
            "~D" => self.end_puzzle(&directive),
            other => self.diags.error(
                line.no,
                directive.col(),
                format!("unknown directive '{other}'"),
            ),
        }
    }

    /// Splits the fields of a directive into tags and values, reporting malformed, unknown and
    /// repeated tags. Returns the good fields in the order written, and every allowed tag that
    /// was written at all (also in a malformed field, so that it is not reported missing too).
    fn fields<'a>(
        &mut self,
        directive: &Directive<'a>,
        allowed: &[&str],
    ) -> (Vec<Field<'a>>, Vec<&'a str>) {
        let line = directive.line;
        let mut good: Vec<Field<'a>> = Vec::new();
        let mut mentioned: Vec<&'a str> = Vec::new();
        for raw in &directive.fields {
            let field = raw.trim();
            let col = line.col(field);
            if field.text.is_empty() {
                self.diags.error(
                    line.no,
                    col,
                    "empty field: two ':' in a row or a ':' at the end",
                );
                continue;
            }
            let parsed = match field.text.match_indices('=').count() {
                0 => Field {
                    tag: field,
                    value: None,
                },
                1 => {
                    let i = field.text.find('=').unwrap_or(0);
                    Field {
                        tag: Span {
                            text: &field.text[..i],
                            start: field.start,
                        }
                        .trim(),
                        value: Some(
                            Span {
                                text: &field.text[i + 1..],
                                start: field.start + i + 1,
                            }
                            .trim(),
                        ),
                    }
                }
                _ => {
                    self.diags.error(
                        line.no,
                        col,
                        format!("field '{}' has more than one '='", field.text),
                    );
                    let tag = field.text.split('=').next().unwrap_or("").trim();
                    if allowed.contains(&tag) {
                        mentioned.push(tag);
                    }
                    continue;
                }
            };
            let tag = parsed.tag.text;
            if allowed.contains(&tag) {
                mentioned.push(tag);
            }
            if tag.is_empty() {
                self.diags.error(
                    line.no,
                    col,
                    format!("field '{}' has no tag before '='", field.text),
                );
            } else if !allowed.contains(&tag) {
                self.diags.error(
                    line.no,
                    col,
                    format!("unknown tag '{tag}' in {}", directive.kind.text),
                );
            } else if good.iter().any(|f| f.tag.text == tag) {
                self.diags
                    .error(line.no, col, format!("tag '{tag}' is given twice"));
            } else {
                good.push(parsed);
            }
        }
        (good, mentioned)
    }

    /// `D:xDim=..:yDim=..:zDim=..[:oneSide[=1|0|true|false]][:lattice=NAME]`
    fn begin_puzzle(&mut self, directive: &Directive<'_>) {
        let line = directive.line;
        if let Some(open) = self.open.take() {
            // Most likely the `~D` of the puzzle before was forgotten, so this `D` starts a new
            // puzzle; the unclosed one is dropped.
            self.diags.error(
                line.no,
                directive.col(),
                format!(
                    "a second D before ~D: the puzzle opened at line {} is not closed",
                    open.line
                ),
            );
        }
        let diags_before = self.diags.len();
        const AXES: [&str; 3] = ["xDim", "yDim", "zDim"];
        let mut dims: [Option<u64>; 3] = [None; 3];
        let mut one_side = None;
        let mut lattice = Lattice::Cubic;
        let (fields, mentioned) =
            self.fields(directive, &["xDim", "yDim", "zDim", "oneSide", "lattice"]);
        for field in fields {
            let col = line.col(field.tag);
            if field.tag.text == "lattice" {
                match field.value.map(|v| (v.text, line.col(v))) {
                    None => self.diags.error(line.no, col, "lattice needs a value"),
                    Some((name, value_col)) => match Lattice::from_name(name) {
                        Some(l) => lattice = l,
                        None => {
                            let known: Vec<&str> = Lattice::ALL.iter().map(|l| l.name()).collect();
                            self.diags.error(
                                line.no,
                                value_col,
                                format!(
                                    "unknown lattice '{name}' (known: {}; square means cubic, fcc spheres)",
                                    known.join(", ")
                                ),
                            );
                        }
                    },
                }
            } else if field.tag.text == "oneSide" {
                let value = match field.value.map(|v| (v.text, line.col(v))) {
                    None | Some(("1" | "true", _)) => true,
                    Some(("0" | "false", _)) => false,
                    Some((other, value_col)) => {
                        self.diags.error(
                            line.no,
                            value_col,
                            format!("oneSide must be 1, 0, true or false, not '{other}'"),
                        );
                        false
                    }
                };
                one_side = Some((value, col));
            } else if let Some(axis) = AXES.iter().position(|&a| a == field.tag.text) {
                dims[axis] = self.dim(line, field);
            }
        }
        for axis in AXES {
            if !mentioned.contains(&axis) {
                self.diags
                    .error(line.no, directive.col(), format!("D needs {axis}"));
            }
        }
        let mut box_dims = None;
        if let [Some(x), Some(y), Some(z)] = dims {
            let cells = u128::from(x)
                .checked_mul(u128::from(y))
                .and_then(|xy| xy.checked_mul(u128::from(z)));
            match cells {
                Some(n) if n <= MAX_CELLS as u128 => {
                    // Each dimension is at most the product, so these conversions are exact.
                    box_dims = Some([x as usize, y as usize, z as usize]);
                }
                Some(n) => self.diags.error(
                    line.no,
                    directive.col(),
                    format!("the {x}x{y}x{z} box has {n} cells, more than the {MAX_CELLS} allowed"),
                ),
                None => self.diags.error(
                    line.no,
                    directive.col(),
                    format!("the {x}x{y}x{z} box has far more than the {MAX_CELLS} cells allowed"),
                ),
            }
        }
        if let Some(z) = dims[2].filter(|&z| z != 1 && lattice::geometry(lattice).planar()) {
            self.diags.error(
                line.no,
                directive.col(),
                format!(
                    "the {} lattice is a plane: it needs zDim=1, not zDim={z}",
                    lattice.name()
                ),
            );
            box_dims = None;
        }
        if let (Some((true, col)), Some(z)) = (one_side, dims[2]) {
            if z != 1 {
                self.diags
                    .error(line.no, col, format!("oneSide needs zDim=1, not zDim={z}"));
                // Dropped, so that every piece with a cell at z > 0 does not repeat the error.
                one_side = None;
            }
        }
        self.open = Some(OpenPuzzle {
            line: line.no,
            col: directive.col(),
            dims: box_dims,
            lattice,
            one_side: one_side.is_some_and(|(value, _)| value),
            pieces: Vec::new(),
            names: HashMap::new(),
            occupied: HashMap::new(),
            diags_before,
        });
    }

    /// One of `xDim`, `yDim`, `zDim`: a positive integer.
    fn dim(&mut self, line: Line<'_>, field: Field<'_>) -> Option<u64> {
        let tag = field.tag.text;
        let Some(value) = field.value else {
            self.diags
                .error(line.no, line.col(field.tag), format!("{tag} needs a value"));
            return None;
        };
        let text = value.text;
        let col = line.col(value);
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            self.diags.error(
                line.no,
                col,
                format!("{tag} must be a positive integer, not '{text}'"),
            );
            return None;
        }
        match text.parse::<u64>() {
            Ok(0) => {
                self.diags
                    .error(line.no, col, format!("{tag} must be at least 1, not 0"));
                None
            }
            Ok(n) => Some(n),
            Err(_) => {
                self.diags.error(
                    line.no,
                    col,
                    format!("{tag} {text} is too large (a box may have at most {MAX_CELLS} cells)"),
                );
                None
            }
        }
    }

    /// `C:name=<name>[:type=M|S]:layout=x y z, x y z, ...`
    fn coordinate_piece(&mut self, directive: &Directive<'_>) {
        let line = directive.line;
        if self.open.is_none() {
            self.diags.error(
                line.no,
                directive.col(),
                "C outside a puzzle: a D must open one first",
            );
            return;
        }
        let mut name: Option<Span<'_>> = None;
        let mut stationary = false;
        let mut cells = None;
        let (fields, mentioned) = self.fields(directive, &["name", "type", "layout"]);
        for field in fields {
            let tag = field.tag.text;
            let Some(value) = field.value else {
                self.diags
                    .error(line.no, line.col(field.tag), format!("{tag} needs a value"));
                continue;
            };
            let col = line.col(value);
            match tag {
                "name" => {
                    if value.text.is_empty() {
                        self.diags
                            .error(line.no, col, "piece name must not be empty");
                    } else if value.text.contains(char::is_whitespace) {
                        self.diags.error(
                            line.no,
                            col,
                            format!("piece name '{}' must not contain whitespace", value.text),
                        );
                    } else if value.text == "." {
                        self.diags.error(
                            line.no,
                            col,
                            "a piece may not be named '.', which marks an open cell (in L blocks and in the listings)",
                        );
                    } else {
                        name = Some(value);
                    }
                }
                "type" => match value.text {
                    "M" => stationary = false,
                    "S" => stationary = true,
                    other => self.diags.error(
                        line.no,
                        col,
                        format!("type must be M or S, not '{other}'"),
                    ),
                },
                _ => cells = self.layout(line, value),
            }
        }
        for tag in ["name", "layout"] {
            if !mentioned.contains(&tag) {
                self.diags
                    .error(line.no, directive.col(), format!("C needs {tag}"));
            }
        }
        let (Some(name), Some(cells), Some(open)) = (name, cells, self.open.as_mut()) else {
            return;
        };
        let piece = NewPiece {
            name: name.text.to_string(),
            stationary,
            cells,
            line: line.no,
            name_col: line.col(name),
        };
        open.add(&mut self.diags, piece);
    }

    /// The value of `layout=`: comma-separated triples. `None` when an entry is unreadable;
    /// a repeated cell is reported and dropped.
    fn layout(&mut self, line: Line<'_>, value: Span<'_>) -> Option<Vec<CellAt>> {
        if value.text.is_empty() {
            self.diags.error(
                line.no,
                line.col(value),
                "layout must list at least one cell",
            );
            return None;
        }
        let mut cells = Vec::new();
        let mut seen = HashSet::new();
        let mut readable = true;
        for entry in value.split(',') {
            let entry = entry.trim();
            let col = line.col(entry);
            if entry.text.is_empty() {
                self.diags.error(
                    line.no,
                    col,
                    "empty entry in layout: two ',' in a row or a ',' at the end",
                );
                readable = false;
                continue;
            }
            let words = entry.words();
            if words.len() != 3 {
                self.diags.error(
                    line.no,
                    col,
                    format!(
                        "layout entry '{}' must be three integers 'x y z'",
                        entry.text
                    ),
                );
                readable = false;
                continue;
            }
            let mut cell = [0; 3];
            let mut entry_readable = true;
            for (axis, word) in words.iter().enumerate() {
                match parse_coordinate(word.text) {
                    Ok(v) => cell[axis] = v,
                    Err(message) => {
                        self.diags.error(line.no, line.col(*word), message);
                        entry_readable = false;
                    }
                }
            }
            if !entry_readable {
                readable = false;
            } else if !seen.insert(cell) {
                self.diags.error(
                    line.no,
                    col,
                    format!("cell {} appears twice in the layout", show(cell)),
                );
            } else {
                cells.push(CellAt {
                    cell,
                    line: line.no,
                    col,
                });
            }
        }
        readable.then_some(cells)
    }

    /// `L[:stationary=<name> <name> ...]`
    fn begin_block(&mut self, directive: &Directive<'_>) {
        let line = directive.line;
        if self.open.is_none() {
            // The block is still opened, so that its rows are skipped rather than each taken
            // for an unknown directive.
            self.diags.error(
                line.no,
                directive.col(),
                "L outside a puzzle: a D must open one first",
            );
        }
        let mut stationary: Vec<(String, usize)> = Vec::new();
        for field in self.fields(directive, &["stationary"]).0 {
            let names = field.value.map(Span::words).unwrap_or_default();
            if names.is_empty() {
                self.diags.error(
                    line.no,
                    line.col(field.tag),
                    "stationary needs a value: the names of the stationary pieces",
                );
            }
            for name in names {
                if stationary.iter().any(|(listed, _)| listed == name.text) {
                    self.diags.error(
                        line.no,
                        line.col(name),
                        format!("'{}' is listed twice in stationary", name.text),
                    );
                } else {
                    stationary.push((name.text.to_string(), line.col(name)));
                }
            }
        }
        self.block = Some(OpenBlock {
            line: line.no,
            col: directive.col(),
            stationary,
            rows: 0,
            pieces: Vec::new(),
            index: HashMap::new(),
        });
    }

    /// One row of an `L` block: `,` separates z layers, whitespace separates x positions.
    fn row(&mut self, line: Line<'_>, content: Span<'_>) {
        let Some(block) = self.block.as_mut() else {
            return;
        };
        let row = block.rows;
        block.rows += 1;
        let Some(open) = &self.open else {
            return;
        };
        // Without a usable box the rows are counted from 0: only relative positions matter then.
        let top = open.dims.map_or(0, |dims| dims[1] as i64 - 1);
        let Some(y) = i64::try_from(row)
            .ok()
            .and_then(|r| i32::try_from(top - r).ok())
        else {
            self.diags
                .error(line.no, 1, "this row lies too far below the box");
            return;
        };
        for (z, segment) in content.split(',').into_iter().enumerate() {
            for (x, token) in segment.words().into_iter().enumerate() {
                if token.text == "." {
                    continue;
                }
                let (Ok(x), Ok(z)) = (i32::try_from(x), i32::try_from(z)) else {
                    self.diags
                        .error(line.no, line.col(token), "this row is too long");
                    return;
                };
                let at = CellAt {
                    cell: [x, y, z],
                    line: line.no,
                    col: line.col(token),
                };
                match block.index.get(token.text) {
                    Some(&i) => block.pieces[i].cells.push(at),
                    None => {
                        block
                            .index
                            .insert(token.text.to_string(), block.pieces.len());
                        block.pieces.push(DrawnPiece {
                            name: token.text.to_string(),
                            cells: vec![at],
                        });
                    }
                }
            }
        }
    }

    /// `~L`
    fn end_block(&mut self, directive: &Directive<'_>) {
        self.fields(directive, &[]);
        if self.block.is_some() {
            self.close_block();
        } else {
            self.diags.error(
                directive.line.no,
                directive.col(),
                "~L without an open L block",
            );
        }
    }

    /// Turns the open `L` block into pieces of the open puzzle.
    fn close_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let Some(open) = self.open.as_mut() else {
            return;
        };
        for (name, col) in &block.stationary {
            if !block.index.contains_key(name) {
                self.diags.error(
                    block.line,
                    *col,
                    format!("stationary piece '{name}' is listed but never drawn in this L block"),
                );
            }
        }
        for drawn in block.pieces {
            let stationary = block.stationary.iter().any(|(name, _)| *name == drawn.name);
            // Every drawn piece has at least one cell: it exists because a cell named it.
            let Some(&first) = drawn.cells.first() else {
                continue;
            };
            let piece = NewPiece {
                name: drawn.name,
                stationary,
                cells: drawn.cells,
                line: first.line,
                name_col: first.col,
            };
            open.add(&mut self.diags, piece);
        }
    }

    /// `~D`: the pieces must fill the box exactly.
    fn end_puzzle(&mut self, directive: &Directive<'_>) {
        let line = directive.line;
        let Some(open) = self.open.take() else {
            self.fields(directive, &[]);
            self.diags.error(
                line.no,
                directive.col(),
                "~D outside a puzzle: there is no open D to close",
            );
            return;
        };
        let broken = self.diags.len() > open.diags_before;
        self.fields(directive, &[]);
        let Some(dims) = open.dims.filter(|_| !broken) else {
            return;
        };
        if open.pieces.is_empty() {
            self.diags
                .error(open.line, open.col, "the puzzle has no pieces");
            return;
        }
        let volume = open
            .pieces
            .iter()
            .fold(0usize, |sum, p| sum.saturating_add(p.cells.len()));
        let box_volume = dims[0] * dims[1] * dims[2];
        if volume != box_volume {
            self.diags.error(
                line.no,
                directive.col(),
                format!(
                    "pieces cover {} but the {}x{}x{} box has {box_volume}",
                    runtime::text::count(volume, "cell"),
                    dims[0],
                    dims[1],
                    dims[2]
                ),
            );
            return;
        }
        self.puzzles.push(PuzzleDef {
            line: open.line,
            lattice: open.lattice,
            dims,
            one_side: open.one_side,
            pieces: open.pieces,
        });
    }

    /// End of input: whatever is still open is an error, reported at the directive that opened
    /// it (the puzzle first, then its block, so that the diagnostics stay in line order). An
    /// unclosed block is not turned into pieces: its end is unknown, so its rows may be anything.
    fn finish(mut self) -> Result<Vec<PuzzleDef>, Vec<Diagnostic>> {
        if let Some(open) = self.open.take() {
            self.diags.error(
                open.line,
                open.col,
                "unexpected end of file: this puzzle has no ~D",
            );
        }
        if let Some(block) = self.block.take() {
            self.diags.error(
                block.line,
                block.col,
                "unexpected end of file: this L block has no ~L",
            );
        }
        if self.diags.list.is_empty() {
            Ok(self.puzzles)
        } else {
            Err(self.diags.list)
        }
    }
}

/// One coordinate of a `layout=` entry.
fn parse_coordinate(text: &str) -> Result<i32, String> {
    text.parse::<i32>().map_err(|_| {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
            format!("coordinate {text} is out of range")
        } else {
            format!("coordinate '{text}' is not an integer")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::render;
    use runtime::rng::SplitMix64;
    use std::path::{Path, PathBuf};

    fn parse_ok(text: &str) -> Vec<PuzzleDef> {
        match parse("test.txt", text) {
            Ok(puzzles) => puzzles,
            Err(errors) => panic!("unexpected errors:\n{}", render(&errors, text)),
        }
    }

    fn parse_err(text: &str) -> String {
        match parse("test.txt", text) {
            Ok(puzzles) => panic!("expected errors, got {puzzles:?}"),
            Err(errors) => render(&errors, text),
        }
    }

    fn repo_root() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
    }

    fn puzzle_file(name: &str) -> String {
        let path = repo_root().join("puzzles").join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn piece<'a>(puzzle: &'a PuzzleDef, name: &str) -> &'a PieceDef {
        puzzle
            .pieces
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no piece {name}"))
    }

    fn names(puzzle: &PuzzleDef) -> Vec<&str> {
        puzzle.pieces.iter().map(|p| p.name.as_str()).collect()
    }

    #[test]
    fn pentomino_10x6() {
        let puzzles = parse_ok(&puzzle_file("pentomino_10x6.txt"));
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!((p.line, p.dims, p.one_side), (3, [10, 6, 1], false));
        assert_eq!(
            names(p),
            ["F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z"]
        );
        for piece in &p.pieces {
            assert_eq!(piece.cells.len(), 5, "piece {}", piece.name);
            assert!(!piece.stationary);
            assert_eq!(piece.line, 5, "piece {}", piece.name);
        }
        // X is drawn at x = 31..33 on the picture's first three rows, y = 5, 4, 3.
        assert_eq!(
            piece(p, "X").cells,
            [[32, 5, 0], [31, 4, 0], [32, 4, 0], [33, 4, 0], [32, 3, 0]]
        );
        // I is the only piece reaching the fifth row, y = 1.
        assert_eq!(
            piece(p, "I").cells,
            [[4, 5, 0], [4, 4, 0], [4, 3, 0], [4, 2, 0], [4, 1, 0]]
        );
    }

    #[test]
    fn soma() {
        let puzzles = parse_ok(&puzzle_file("soma.txt"));
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!((p.line, p.dims, p.one_side), (2, [3, 3, 3], false));
        assert_eq!(names(p), ["V", "L", "T", "Z", "A", "B", "P"]);
        let sizes: Vec<usize> = p.pieces.iter().map(|p| p.cells.len()).collect();
        assert_eq!(sizes, [3, 4, 4, 4, 4, 4, 4]);
        assert!(p.pieces.iter().all(|p| !p.stationary));
        assert_eq!(piece(p, "V").cells, [[0, 0, 0], [1, 0, 0], [0, 1, 0]]);
        assert_eq!(piece(p, "P").line, 9);
    }

    #[test]
    fn tetriscube() {
        let puzzles = parse_ok(&puzzle_file("tetriscube.txt"));
        assert_eq!(puzzles.len(), 1);
        let p = &puzzles[0];
        assert_eq!((p.line, p.dims, p.one_side), (2, [4, 4, 4], false));
        assert_eq!(
            names(p),
            ["A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"]
        );
        let sizes: Vec<usize> = p.pieces.iter().map(|p| p.cells.len()).collect();
        assert_eq!(sizes, [6, 6, 5, 5, 6, 5, 5, 5, 5, 5, 5, 6]);
        assert_eq!(sizes.iter().sum::<usize>(), 64);
        assert!(p.pieces.iter().all(|p| !p.stationary));
        assert_eq!(
            piece(p, "A").cells,
            [
                [0, 0, 2],
                [1, 0, 2],
                [2, 0, 2],
                [2, 0, 1],
                [2, 0, 0],
                [2, 1, 0]
            ]
        );
    }

    #[test]
    fn every_line_of_an_l_block_is_a_row() {
        // The blank line and the comment-only line are rows y = 2 and y = 1.
        let text = "D:xDim=2:yDim=4:zDim=1\nL\nA A\n\n# a comment row\nB B\n~L\nC:name=C:layout=0 0 0, 1 0 0\nC:name=D:layout=0 0 0, 1 0 0\n~D\n";
        let p = &parse_ok(text)[0];
        assert_eq!(piece(p, "A").cells, [[0, 3, 0], [1, 3, 0]]);
        assert_eq!(piece(p, "B").cells, [[0, 0, 0], [1, 0, 0]]);
        assert_eq!(piece(p, "B").line, 6);
    }

    #[test]
    fn rows_may_go_below_the_box_for_mobile_pieces() {
        let text = "D:xDim=1:yDim=1:zDim=1\nL\n\n\nA\n~L\n~D\n";
        assert_eq!(piece(&parse_ok(text)[0], "A").cells, [[0, -2, 0]]);
    }

    #[test]
    fn commas_separate_z_layers() {
        let text = "D:xDim=2:yDim=2:zDim=2\nL\nA A , B .\nA . , B B\n~L\nC:name=C:layout=0 0 0, 1 0 0\n~D\n";
        let p = &parse_ok(text)[0];
        assert_eq!(piece(p, "A").cells, [[0, 1, 0], [1, 1, 0], [0, 0, 0]]);
        assert_eq!(piece(p, "B").cells, [[0, 1, 1], [0, 0, 1], [1, 0, 1]]);
        assert_eq!(names(p), ["A", "B", "C"]);
    }

    #[test]
    fn several_puzzles_in_one_stream() {
        let text = format!(
            "{}\n{}\n{}",
            puzzle_file("soma.txt"),
            puzzle_file("pentomino_10x6.txt"),
            puzzle_file("tetriscube.txt")
        );
        let puzzles = parse_ok(&text);
        let dims: Vec<[usize; 3]> = puzzles.iter().map(|p| p.dims).collect();
        assert_eq!(dims, [[3, 3, 3], [10, 6, 1], [4, 4, 4]]);
        // Lines count through the whole stream; soma.txt has 10 lines, then a blank one.
        assert_eq!(puzzles[1].line, 14);
        // The same names may be used again in another puzzle.
        assert_eq!(piece(&puzzles[2], "L").cells.len(), 6);
    }

    #[test]
    fn comments_everywhere() {
        let text = "# heading\n  D:xDim=2:yDim=2:zDim=1 # the box\n\
                    C:name=A:layout=0 0 0, 1 0 0  # comment after fields\n\
                    # between\n\
                    L # the picture\n\
                    B B # first row\n\
                    ~L # end of block\n\
                    ~D # end\n# trailer";
        let p = &parse_ok(text)[0];
        assert_eq!(piece(p, "A").cells, [[0, 0, 0], [1, 0, 0]]);
        assert_eq!(piece(p, "B").cells, [[0, 1, 0], [1, 1, 0]]);
    }

    #[test]
    fn crlf_line_ends() {
        // The polycube article's files have CRLF line ends, and a comment after a C line.
        let text = "# Tetris\r\nD:xDim=2:yDim=1:zDim=1\r\nC:name=A:type=M:layout=0 0 0  # left\r\nL\r\n. B\r\n~L\r\n~D\r\n";
        let p = &parse_ok(text)[0];
        assert_eq!(p.dims, [2, 1, 1]);
        assert_eq!(piece(p, "B").cells, [[1, 0, 0]]);
    }

    #[test]
    fn stationary_pieces() {
        // A 3x3 box with its centre blocked by an L piece and a corner by a C piece.
        let text = "D:xDim=3:yDim=3:zDim=1\n\
                    C:name=K:type=S:layout=2 2 0\n\
                    L:stationary=*\n\
                    . . .\n\
                    . * .\n\
                    ~L\n\
                    L\n\
                    A A .\n\
                    A . B\n\
                    A B B\n\
                    ~L\n\
                    ~D\n";
        let p = &parse_ok(text)[0];
        assert_eq!(names(p), ["K", "*", "A", "B"]);
        let stationary: Vec<bool> = p.pieces.iter().map(|p| p.stationary).collect();
        assert_eq!(stationary, [true, true, false, false]);
        assert_eq!(piece(p, "*").cells, [[1, 1, 0]]);
        assert_eq!(piece(p, "*").line, 5);
        assert_eq!(piece(p, "K").cells, [[2, 2, 0]]);
    }

    #[test]
    fn one_side() {
        for (tag, expected) in [
            ("oneSide", true),
            ("oneSide=1", true),
            ("oneSide=true", true),
            ("oneSide=0", false),
            ("oneSide=false", false),
        ] {
            let text = format!("D:xDim=2:yDim=1:zDim=1:{tag}\nC:name=A:layout=0 0 0, 1 0 0\n~D\n");
            assert_eq!(parse_ok(&text)[0].one_side, expected, "{tag}");
        }
        // Without oneSide, a flat box may still hold a piece drawn with z = 1: only its shape
        // counts.
        let flat = parse_ok("D:xDim=2:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 0 0 1\n~D\n");
        assert!(!flat[0].one_side);
    }

    #[test]
    fn tags_in_any_order_with_spaces() {
        let text =
            "D : zDim = 1 : yDim=1 : xDim=2\nC: layout = 5 5 5 , 6 5 5 : type = M : name = A \n~D";
        let p = &parse_ok(text)[0];
        assert_eq!(p.dims, [2, 1, 1]);
        assert_eq!(piece(p, "A").cells, [[5, 5, 5], [6, 5, 5]]);
    }

    #[test]
    fn disconnected_pieces_and_ordinary_star() {
        let text =
            "D:xDim=3:yDim=1:zDim=1\nC:name=*:layout=0 0 0, 2 0 0\nC:name=B:layout=7 -3 2\n~D\n";
        let p = &parse_ok(text)[0];
        assert_eq!(piece(p, "*").cells, [[0, 0, 0], [2, 0, 0]]);
        assert_eq!(piece(p, "B").cells, [[7, -3, 2]]);
    }

    #[test]
    fn empty_input() {
        assert_eq!(parse("x", ""), Ok(vec![]));
        assert_eq!(parse("x", "\n\n  # only comments\n\r\n"), Ok(vec![]));
    }

    #[test]
    fn columns_count_characters() {
        // 'é' takes two bytes, but one column, and the caret stands under the 'x'.
        let errors = parse_err("D:xDim=2:yDim=1:zDim=1\nC:name=é:layout=0 0 0, 1 x 0\n~D\n");
        assert_eq!(
            errors,
            "test.txt:2:26: error: coordinate 'x' is not an integer\n   \
             2 | C:name=é:layout=0 0 0, 1 x 0\n     \
             |                          ^\n"
        );
    }

    /// Each `tests/errors/NAME.txt`, read and modelled, must give exactly the diagnostics
    /// in `NAME.stderr`.
    /// With `FILA_BLESS=1` the `.stderr` files are written instead.
    #[test]
    fn error_corpus() {
        let dir = repo_root().join("tests/errors");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        assert!(
            files.len() >= 20,
            "only {} files in {}",
            files.len(),
            dir.display()
        );
        let bless = std::env::var_os("FILA_BLESS").is_some();
        let mut failures = Vec::new();
        for path in &files {
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("UTF-8 file name");
            let display = format!("tests/errors/{stem}.txt");
            let text = std::fs::read_to_string(path).expect("readable corpus file");
            // The reader and the model: some limits are found only by counting the images.
            let actual = match crate::load(&display, &text) {
                Ok(_) => String::new(),
                Err(errors) => render(&errors, &text),
            };
            let expected_path = path.with_extension("stderr");
            if bless {
                std::fs::write(&expected_path, &actual).expect("writable .stderr file");
                continue;
            }
            let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
            if actual.is_empty() || actual != expected {
                failures.push(format!(
                    "{display}\n--- expected\n{expected}--- actual\n{actual}"
                ));
            }
        }
        assert!(
            failures.is_empty(),
            "{} mismatches:\n{}",
            failures.len(),
            failures.join("\n")
        );
    }

    /// Pieces of text that matter to the grammar, to be spliced in at random.
    const SNIPPETS: &[&str] = &[
        ":",
        "=",
        "#",
        ",",
        ".",
        "~",
        "\n",
        " ",
        "D",
        "C",
        "L",
        "~L",
        "~D",
        "S",
        "*",
        "0",
        "-",
        "9999999999999999999999",
        "-2147483649",
        "2147483647",
        "65535",
        "oneSide",
        "type=S",
        "stationary=",
        "xDim=",
        "layout=",
        "\r\n",
        "é",
        "\t",
        "L:stationary=A *\n",
    ];

    fn mutate(rng: &mut SplitMix64, text: &str) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(chars.len() + 1);
            match rng.below(6) {
                0 if !chars.is_empty() => {
                    let len = 1 + rng.below(8);
                    let end = (at + len).min(chars.len());
                    chars.drain(at.min(end)..end);
                }
                1 | 2 => {
                    let snippet = SNIPPETS[rng.below(SNIPPETS.len())];
                    chars.splice(at..at, snippet.chars());
                }
                3 => chars.truncate(at),
                4 => {
                    // Repeat a random stretch, which duplicates directives and rows.
                    let end = (at + rng.below(80)).min(chars.len());
                    let copy: Vec<char> = chars[at..end].to_vec();
                    chars.splice(end..end, copy);
                }
                _ if at < chars.len() => {
                    chars[at] = char::from(b' ' + rng.below(95) as u8);
                }
                _ => {}
            }
        }
        chars.into_iter().collect()
    }

    #[test]
    fn mutations_never_panic() {
        let sources = [
            puzzle_file("pentomino_10x6.txt"),
            puzzle_file("soma.txt"),
            puzzle_file("tetriscube.txt"),
            "D:xDim=3:yDim=3:zDim=1:oneSide\nC:name=K:type=S:layout=2 2 0\nL:stationary=*\n. . .\n. * .\n~L\nL\nA A .\nA . B\nA B B\n~L\n~D\n".to_string(),
        ];
        // A fixed seed: every run sees the same mutations.
        let mut rng = SplitMix64::new(0x9e37_79b9_7f4a_7c15);
        let mut rejected = 0;
        for round in 0..600 {
            let text = mutate(&mut rng, &sources[round % sources.len()]);
            let lines = text.lines().count().max(1);
            match parse("fuzz.txt", &text) {
                Ok(puzzles) => {
                    for p in &puzzles {
                        let volume: usize = p.pieces.iter().map(|p| p.cells.len()).sum();
                        assert_eq!(volume, p.dims.iter().product::<usize>(), "{text}");
                    }
                }
                Err(errors) => {
                    rejected += 1;
                    assert!(!errors.is_empty());
                    for e in &errors {
                        assert!(
                            e.line >= 1 && e.line <= lines && e.col >= 1,
                            "{e} in:\n{text}"
                        );
                        assert!(!e.message.is_empty() && !e.message.ends_with('.'), "{e}");
                    }
                }
            }
        }
        // Most mutations break something; if none did, the mutator is not doing its job.
        assert!(rejected > 100, "only {rejected} mutations were rejected");
    }
}
