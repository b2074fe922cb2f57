//! polycube's brief solution layout, and the counts per level that `-i` reports.

use std::fmt::Write as _;

use crate::info::{PuzzleInfo, Slot};

/// Writes solution `n` (the images in `placed`) in polycube's brief layout: a blank line,
/// `# --- SOLUTION n ---`, then one row per y from the top, z layers side by side. On a
/// lattice whose rows are staggered (hexagons), each row is drawn half a cell to the
/// right of the row below it.
pub fn format_solution(info: &PuzzleInfo, n: u64, placed: &[u16], out: &mut String) {
    let [xd, yd, zd] = info.dims;
    let owner = owners(info, placed);
    let width = info
        .piece_names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(1)
        + 1;
    let _ = write!(out, "\n# --- SOLUTION {n} ---\n");
    let stagger = info.lattice.row_stagger();
    for y in (0..yd).rev() {
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
