//! polycube's brief solution layout, and the counts per level that `-i` reports.

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::info::{Lattice, PuzzleInfo, Slot};
use crate::options::PieceForm;
use crate::text;

/// What to say of a write to standard output that failed with `e`: nothing where the
/// reader went away (a closed pipe, as `fila solve FILE | head` closes it: the run stops
/// quietly, as a Unix filter does), the error where the output is lost (a full disk).
pub fn write_failure(e: &std::io::Error) -> Option<String> {
    (e.kind() != std::io::ErrorKind::BrokenPipe)
        .then(|| format!("cannot write to standard output: {e}"))
}

/// Writes solution `n` (the images in `placed`) in polycube's brief layout: a blank line,
/// `# --- SOLUTION n ---`, then one row per y from the top, z layers side by side. On a
/// lattice whose rows are staggered (hexagons), each row is drawn half a cell to the
/// right of the row below it.
pub fn format_solution(info: &PuzzleInfo, n: u64, placed: &[u16], out: &mut String) {
    let owner = owners(info, placed);
    let _ = write!(out, "\n# --- SOLUTION {n} ---\n");
    draw_rows(info, &owner, (0..info.dims[1]).rev(), out);
}

/// The width of a name in the layout: the longest name and one space before it.
fn name_width(info: &PuzzleInfo) -> usize {
    info.piece_names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(1)
        + 1
}

/// Draws the rows `ys` (from the top) of `owner` as the brief layout does, each name
/// right-aligned, `.` where no piece is; every row ends with a newline.
fn draw_rows(info: &PuzzleInfo, owner: &[u16], ys: impl Iterator<Item = usize>, out: &mut String) {
    let [xd, yd, zd] = info.dims;
    let width = name_width(info);
    let stagger = info.lattice.row_stagger();
    for y in ys {
        // Half a cell is half the width of a name, rounded down: enough to show the offset.
        let indent = y * stagger * width / 2;
        let _ = write!(out, "{:indent$}", "");
        for z in 0..zd {
            if z > 0 {
                out.push_str(", ");
            }
            for x in 0..xd {
                let piece = owner[x + xd * (y + yd * z)];
                let name = info
                    .piece_names
                    .get(piece as usize)
                    .map(String::as_str)
                    .unwrap_or(".");
                let _ = write!(out, "{name:>width$}");
            }
        }
        out.push('\n');
    }
}

/// Writes solution `n` as a puzzle definition (`-f F` and `-f S`, polycube's full and
/// sub-puzzle formats): a blank line, `# --- SOLUTION n ---`, then `D` ... `~D` with every
/// placed piece and every stationary piece of the puzzle as a stationary piece where it
/// lies, and the pieces not placed (a partial solution of `-g`) as mobile pieces, each by
/// one of its images. The pieces are drawn in `L` blocks, or given as `C` lines of
/// coordinates, as `pieces` says. The text reads back as a puzzle: for a complete
/// solution, one whose only solution is this one; for a partial one, the sub-puzzle that
/// holds every solution below it.
pub fn format_definition(
    info: &PuzzleInfo,
    n: u64,
    placed: &[u16],
    pieces: PieceForm,
    out: &mut String,
) {
    let [xd, yd, zd] = info.dims;
    let owner = owners(info, placed);
    let mut placed_piece = vec![false; info.piece_names.len()];
    for &p in &owner {
        if let Some(flag) = placed_piece.get_mut(p as usize) {
            *flag = true;
        }
    }
    // The pieces left, each with the cells of one image of its shape: the copies of a
    // shape are placed in definition order (as `owners` names them), so the last ones
    // are left.
    let mut left: Vec<(usize, &[u16])> = Vec::new();
    for (shape, copies) in info.shape_pieces.iter().enumerate() {
        let image = info.images.iter().find(|i| i.shape as usize == shape);
        for &p in copies {
            if !placed_piece[p as usize] {
                if let Some(image) = image {
                    left.push((p as usize, &image.cells));
                }
            }
        }
    }
    let position_of: Vec<usize> = {
        let mut at = vec![0; info.cells()];
        for (g, slot) in info.grid.iter().enumerate() {
            if let Slot::Open(c) = *slot {
                at[c as usize] = g;
            }
        }
        at
    };
    let _ = write!(out, "\n# --- SOLUTION {n} ---\n");
    if !left.is_empty() {
        let _ = writeln!(
            out,
            "# {}: {} pieces placed, {} left",
            info.name,
            info.pieces_to_place() - left.len(),
            left.len()
        );
    }
    let _ = write!(out, "D:xDim={xd}:yDim={yd}:zDim={zd}");
    if info.one_side {
        out.push_str(":oneSide");
    }
    if info.lattice != Lattice::Cubic {
        let _ = write!(out, ":lattice={}", info.lattice.name());
    }
    out.push('\n');
    let coordinates = |g: usize| -> [usize; 3] { [g % xd, (g / xd) % yd, g / (xd * yd)] };
    match pieces {
        PieceForm::Drawn => {
            let stationary: Vec<&str> = info
                .piece_names
                .iter()
                .enumerate()
                .filter(|&(p, _)| placed_piece[p])
                .map(|(_, name)| name.as_str())
                .collect();
            let _ = writeln!(out, "L:stationary={}", stationary.join(" "));
            draw_rows(info, &owner, (0..yd).rev(), out);
            out.push_str("~L\n");
            for &(p, cells) in &left {
                // The block's first row is the top of the box; it ends at the image's
                // lowest row.
                let mut drawn = vec![NOBODY; info.grid.len()];
                let mut lowest = yd;
                for &c in cells {
                    let g = position_of[c as usize];
                    drawn[g] = p as u16;
                    lowest = lowest.min(coordinates(g)[1]);
                }
                out.push_str("L\n");
                draw_rows(info, &drawn, (lowest..yd).rev(), out);
                out.push_str("~L\n");
            }
        }
        PieceForm::Coordinates => {
            let layout = |positions: &mut dyn Iterator<Item = usize>| -> String {
                let triples: Vec<String> = positions
                    .map(|g| {
                        let [x, y, z] = coordinates(g);
                        format!("{x} {y} {z}")
                    })
                    .collect();
                triples.join(", ")
            };
            for (p, name) in info.piece_names.iter().enumerate() {
                if placed_piece[p] {
                    let mut cells = (0..owner.len()).filter(|&g| owner[g] as usize == p);
                    let _ = writeln!(out, "C:name={name}:type=S:layout={}", layout(&mut cells));
                }
            }
            for &(p, cells) in &left {
                let mut cells = cells.iter().map(|&c| position_of[c as usize]);
                let name = &info.piece_names[p];
                let _ = writeln!(out, "C:name={name}:layout={}", layout(&mut cells));
            }
        }
    }
    out.push_str("~D\n");
}

/// The owner of a position no piece covers.
pub const NOBODY: u16 = u16::MAX;

/// The piece covering each position of the box (`x + X*(y + Y*z)`) in the solution
/// `placed`, an index into `info.piece_names` ([`NOBODY`] where no piece is placed).
/// Copies of a shape are named in definition order, by the least cell of each image, so
/// that the listing does not depend on the search's order.
pub fn owners(info: &PuzzleInfo, placed: &[u16]) -> Vec<u16> {
    let mut by_shape: Vec<Vec<u16>> = vec![Vec::new(); info.shape_pieces.len()];
    for &i in placed {
        by_shape[info.images[i as usize].shape as usize].push(i);
    }
    let mut of_cell = vec![NOBODY; info.cells()];
    for (s, images) in by_shape.iter_mut().enumerate() {
        images.sort_by_key(|&i| info.images[i as usize].cells[0]);
        for (k, &i) in images.iter().enumerate() {
            let piece = info.shape_pieces[s].get(k).copied().unwrap_or(NOBODY);
            for &c in &info.images[i as usize].cells {
                of_cell[c as usize] = piece;
            }
        }
    }
    info.grid
        .iter()
        .map(|slot| match *slot {
            Slot::Open(c) => of_cell[c as usize],
            Slot::Stationary(p) => p,
        })
        .collect()
}

/// Statistics per number of pieces left to place (index 0 unused).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub attempts: Vec<u64>,
    pub fits: Vec<u64>,
}

impl Stats {
    pub fn new(pieces: usize) -> Stats {
        Stats {
            attempts: vec![0; pieces + 1],
            fits: vec![0; pieces + 1],
        }
    }

    pub fn add(&mut self, attempts: &[u64], fits: &[u64]) {
        for (a, b) in self.attempts.iter_mut().zip(attempts) {
            *a += b;
        }
        for (a, b) in self.fits.iter_mut().zip(fits) {
            *a += b;
        }
    }
}

/// A listing that does not fit its puzzle: the line (from 1) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingError {
    pub line: usize,
    pub message: String,
}

/// Reads the solutions of a listing in polycube's brief layout (fila's, or polycube's
/// own) back into owners, as [`owners`] gives them: for each `# --- SOLUTION n ---`, its
/// number and the piece at each position. The rows that follow a header are checked
/// against the puzzle: one row per y, one segment per z layer, one name per x (leading
/// spaces, the stagger of hexagons and triangles, are skipped), each a piece of the
/// puzzle or `.` for an open cell no piece covers, stationary pieces where they stand and
/// nowhere else, and each mobile piece either nowhere or on the cells of one of its
/// images (the piece turned as the puzzle allows it, and moved). Every other line
/// (comments, the `-i` block) is skipped.
pub fn read_solutions(info: &PuzzleInfo, text: &str) -> Result<Vec<(u64, Vec<u16>)>, ListingError> {
    let [xd, yd, zd] = info.dims;
    let mut size = vec![0usize; info.piece_names.len()];
    let mut shape_of = vec![0u16; info.piece_names.len()];
    for image in &info.images {
        for &piece in &info.shape_pieces[image.shape as usize] {
            size[piece as usize] = image.cells.len();
            shape_of[piece as usize] = image.shape;
        }
    }
    // Every image, by its shape and its cells in order: a piece listed must lie as one.
    let images: HashSet<(u16, Vec<u16>)> = info
        .images
        .iter()
        .map(|image| {
            let mut cells = image.cells.clone();
            cells.sort_unstable();
            (image.shape, cells)
        })
        .collect();
    let mut solutions = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((at, line)) = lines.next() {
        let Some(rest) = line.trim().strip_prefix("# --- SOLUTION ") else {
            continue;
        };
        let error = |line: usize, message: String| ListingError {
            line: line + 1,
            message,
        };
        let n: u64 = rest
            .strip_suffix(" ---")
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| error(at, format!("not a solution header: '{}'", line.trim())))?;
        let mut owner = vec![NOBODY; info.grid.len()];
        let mut count = vec![0usize; info.piece_names.len()];
        let mut cells: Vec<Vec<u16>> = vec![Vec::new(); info.piece_names.len()];
        for (read, y) in (0..yd).rev().enumerate() {
            let (at, row) = lines.next().ok_or_else(|| {
                error(
                    at,
                    format!("solution {n} ends before its {}", text::count(yd, "row")),
                )
            })?;
            if y + 1 == yd && (row.starts_with("D:") || row.starts_with("# ")) {
                return Err(error(
                    at,
                    format!(
                        "solution {n} is written as a puzzle definition (-f F or -f S), \
                         and only the brief layout (-f B, the default) is read"
                    ),
                ));
            }
            if row.trim().is_empty() || row.starts_with('#') {
                return Err(error(
                    at,
                    format!(
                        "solution {n} ends after {read} of its {} (a {xd}x{yd}x{zd} box)",
                        text::count(yd, "row")
                    ),
                ));
            }
            let layers: Vec<&str> = row.split(',').collect();
            if layers.len() != zd {
                return Err(error(
                    at,
                    format!(
                        "{} in a row of a {xd}x{yd}x{zd} box",
                        text::count(layers.len(), "layer")
                    ),
                ));
            }
            for (z, layer) in layers.iter().enumerate() {
                let names: Vec<&str> = layer.split_whitespace().collect();
                if names.len() != xd {
                    return Err(error(
                        at,
                        format!(
                            "{} in a row of a {xd}x{yd}x{zd} box",
                            text::count(names.len(), "cell")
                        ),
                    ));
                }
                for (x, name) in names.into_iter().enumerate() {
                    let position = x + xd * (y + yd * z);
                    let piece = match name {
                        "." => NOBODY,
                        _ => info
                            .piece_names
                            .iter()
                            .position(|p| p == name)
                            .ok_or_else(|| error(at, format!("no piece is named '{name}'")))?
                            as u16,
                    };
                    let fits = match info.grid[position] {
                        Slot::Stationary(p) => piece == p,
                        Slot::Open(_) => piece == NOBODY || size[piece as usize] > 0,
                    };
                    if !fits {
                        let what = match info.grid[position] {
                            Slot::Stationary(p) => {
                                format!("the stationary piece '{}'", info.piece_names[p as usize])
                            }
                            Slot::Open(_) => "an open cell".to_string(),
                        };
                        return Err(error(
                            at,
                            format!("'{name}' at ({x}, {y}, {z}), where the puzzle has {what}"),
                        ));
                    }
                    if piece != NOBODY {
                        count[piece as usize] += 1;
                        if let Slot::Open(cell) = info.grid[position] {
                            cells[piece as usize].push(cell);
                        }
                    }
                    owner[position] = piece;
                }
            }
        }
        for (piece, (&c, &s)) in count.iter().zip(&size).enumerate() {
            if s > 0 && c != 0 && c != s {
                return Err(error(
                    at,
                    format!(
                        "solution {n}: piece '{}' covers {c} cells, but it has {s}",
                        info.piece_names[piece]
                    ),
                ));
            }
        }
        for (piece, mut mine) in cells.into_iter().enumerate() {
            if mine.is_empty() {
                continue;
            }
            mine.sort_unstable();
            if !images.contains(&(shape_of[piece], mine)) {
                return Err(error(
                    at,
                    format!(
                        "solution {n}: piece '{}' is not in one of its own orientations",
                        info.piece_names[piece]
                    ),
                ));
            }
        }
        solutions.push((n, owner));
    }
    Ok(solutions)
}
