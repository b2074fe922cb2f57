//! De Bruijn's 1971/72 pentomino program, transliterated to Rust.
//!
//! Source: N. G. de Bruijn, "Programmeren van de pentomino puzzle", Euclides 47
//! (1971/72), 90-104. The original was written in Algol 60. This example is one
//! of the two classic baselines that the generated FILA solver is measured
//! against; the other is `examples/fletcher.rs`.
//!
//! # What the program does
//!
//! It counts the 2339 ways to pack the twelve pentominoes into a 10x6 box,
//! counting rotations and reflections of a packing once.
//!
//! * X goes in first, in each of its 7 useful positions in the upper-left
//!   quadrant. The position jammed into the corner is left out because it has no
//!   solution. Because 10 and 6 are both even, no centre of X lies on a symmetry
//!   axis of the box. So each class of solutions under the box's four symmetries
//!   has exactly one member with X in this quadrant.
//! * The search keeps filling the first empty cell `cell`. The scan goes down a
//!   column (6 cells) and then on to the next column to the right. So every cell
//!   above the target in its column, and every cell in the columns to its left,
//!   is already filled. Each of the 63 oriented pentominoes ("slices") can
//!   therefore cover `cell` in only one way: with its own first cell in scan
//!   order.
//! * For each `cell`, the program makes one linear pass over all 63 slices. For
//!   each slice it first checks the warehouse: `warehouse[piece_num[slice]]` must
//!   be non-zero. Only then does it test the slice's other four cells,
//!   `occupied[cell + relpos[slice][i]]` for i = 1..=4, and it stops at the first
//!   occupied one. If the slice fits, the program takes the piece out of the
//!   warehouse, marks the five cells occupied, recurses, and then undoes all of
//!   that.
//!
//! # What is faithful
//!
//! The data layout and the inner loop follow de Bruijn's Algol, as excerpted
//! and translated in Matt Busche's article on his Fixed Image List Algorithm
//! (FILA, mattbusche.org):
//! * a table `relpos[slice][1..=4]` of relative cell offsets;
//! * a table `piece_num[slice]`;
//! * a `warehouse` of piece counts (1 or 0);
//! * an `occupied` array of 0/1 cells with a sentinel border of 1s, so that
//!   pieces sticking out of the box are rejected by the ordinary occupancy test;
//! * the availability check before the cell checks;
//! * the cell checks in `relpos` order, with an early exit;
//! * all 63 slices tried at every cell, X included. X is never in the warehouse
//!   after the first move.
//!
//! # What is adapted
//!
//! * Cells are numbered column by column, 10 per column: 6 board rows and 4
//!   border rows. There is a border column on the left and 4 on the right. So
//!   a relative position `(x, y)` is the number `10x + y`. De Bruijn's own
//!   numbering of the cells is not reproduced. Only the scan order matters, and
//!   that is the same.
//! * Slices are indexed from 0 and are grouped by piece in the order
//!   F I L N P T U V W X Y Z. De Bruijn's own slice order is not known to us. It
//!   changes only the order in which solutions are found.
//! * Algol's labels and `goto`s become a recursive function, with labelled
//!   `continue` standing in for `goto nextSlice`.
//! * `relpos` entries are bytes, since every offset is below 256. This keeps
//!   the whole table in four cache lines.
//! * Occupancy tests index `occupied[i & MASK]` with a 256-entry array. This is a
//!   safe way to avoid bounds checks; the mask never changes an index.
//! * For `--print`, each level also records the `(cell, slice)` it placed in a
//!   fixed array of 12 entries. The board itself stays 0/1, as in the original.
//!
//! # Usage
//!
//! `cargo run --release --example debruijn [-- --print]`
//!
//! The program prints a short `-i` block ending `SOLUTIONS=2339`. With `--print` it first prints each
//! solution as 6 rows of 10 piece letters, with a blank line after each one.

use std::io::Write;

/// Cells per stored column: 6 board rows followed by 4 border rows.
const S: usize = 10;
/// Board width (columns) and height (rows).
const COLS: usize = 10;
const ROWS: usize = 6;
/// Index of board cell (column 0, row 0). Column -1 is a border column.
const ORIGIN: usize = S;
/// Padded array: border column, 10 board columns, 4 border columns. That is
/// 150 cells, but the array has 256, so that `occupied[i & 0xFF]` is in bounds
/// by construction and the compiler drops the bounds checks from the inner
/// loop. Every index actually used is below 150, so the mask never changes it.
const LEN: usize = 256;
const MASK: usize = LEN - 1;

/// Relative position of the cell `x` columns to the right and `y` rows down.
/// Every slice cell comes after `cell` in scan order, so this is positive.
const fn o(x: usize, y: isize) -> u8 {
    let v = x as isize * S as isize + y;
    assert!(v > 0 && v < 256);
    v as u8
}

/// Piece numbers. Their letters are in `LETTER`.
const F: u8 = 0;
const I: u8 = 1;
const L: u8 = 2;
const N: u8 = 3;
const P: u8 = 4;
const T: u8 = 5;
const U: u8 = 6;
const V: u8 = 7;
const W: u8 = 8;
const X: u8 = 9;
const Y: u8 = 10;
const Z: u8 = 11;
const LETTER: [u8; 12] = *b"FILNPTUVWXYZ";

/// The 63 slices: the relative positions of the four cells other than the
/// first one in scan order, which goes on `cell`.
#[rustfmt::skip]
const RELPOS: [[u8; 4]; 63] = [
    [o(0, 1), o(1, -1), o(1, 0), o(2, 0)], // F
    [o(0, 1), o(1, 1), o(1, 2), o(2, 1)], // F
    [o(1, -2), o(1, -1), o(1, 0), o(2, -1)], // F
    [o(1, -1), o(1, 0), o(1, 1), o(2, -1)], // F
    [o(1, -1), o(1, 0), o(1, 1), o(2, 1)], // F
    [o(1, -1), o(1, 0), o(2, 0), o(2, 1)], // F
    [o(1, 0), o(1, 1), o(1, 2), o(2, 1)], // F
    [o(1, 0), o(1, 1), o(2, -1), o(2, 0)], // F
    [o(0, 1), o(0, 2), o(0, 3), o(0, 4)], // I
    [o(1, 0), o(2, 0), o(3, 0), o(4, 0)], // I
    [o(0, 1), o(0, 2), o(0, 3), o(1, 0)], // L
    [o(0, 1), o(0, 2), o(0, 3), o(1, 3)], // L
    [o(0, 1), o(1, 0), o(2, 0), o(3, 0)], // L
    [o(0, 1), o(1, 1), o(2, 1), o(3, 1)], // L
    [o(1, -3), o(1, -2), o(1, -1), o(1, 0)], // L
    [o(1, 0), o(1, 1), o(1, 2), o(1, 3)], // L
    [o(1, 0), o(2, 0), o(3, -1), o(3, 0)], // L
    [o(1, 0), o(2, 0), o(3, 0), o(3, 1)], // L
    [o(0, 1), o(0, 2), o(1, -1), o(1, 0)], // N
    [o(0, 1), o(0, 2), o(1, 2), o(1, 3)], // N
    [o(0, 1), o(1, -2), o(1, -1), o(1, 0)], // N
    [o(0, 1), o(1, 1), o(1, 2), o(1, 3)], // N
    [o(1, -1), o(1, 0), o(2, -1), o(3, -1)], // N
    [o(1, 0), o(1, 1), o(2, 1), o(3, 1)], // N
    [o(1, 0), o(2, -1), o(2, 0), o(3, -1)], // N
    [o(1, 0), o(2, 0), o(2, 1), o(3, 1)], // N
    [o(0, 1), o(0, 2), o(1, 0), o(1, 1)], // P
    [o(0, 1), o(0, 2), o(1, 1), o(1, 2)], // P
    [o(0, 1), o(1, -1), o(1, 0), o(1, 1)], // P
    [o(0, 1), o(1, 0), o(1, 1), o(1, 2)], // P
    [o(0, 1), o(1, 0), o(1, 1), o(2, 0)], // P
    [o(0, 1), o(1, 0), o(1, 1), o(2, 1)], // P
    [o(1, -1), o(1, 0), o(2, -1), o(2, 0)], // P
    [o(1, 0), o(1, 1), o(2, 0), o(2, 1)], // P
    [o(0, 1), o(0, 2), o(1, 1), o(2, 1)], // T
    [o(1, -2), o(1, -1), o(1, 0), o(2, 0)], // T
    [o(1, 0), o(1, 1), o(1, 2), o(2, 0)], // T
    [o(1, 0), o(2, -1), o(2, 0), o(2, 1)], // T
    [o(0, 1), o(0, 2), o(1, 0), o(1, 2)], // U
    [o(0, 1), o(1, 0), o(2, 0), o(2, 1)], // U
    [o(0, 1), o(1, 1), o(2, 0), o(2, 1)], // U
    [o(0, 2), o(1, 0), o(1, 1), o(1, 2)], // U
    [o(0, 1), o(0, 2), o(1, 0), o(2, 0)], // V
    [o(0, 1), o(0, 2), o(1, 2), o(2, 2)], // V
    [o(1, 0), o(2, -2), o(2, -1), o(2, 0)], // V
    [o(1, 0), o(2, 0), o(2, 1), o(2, 2)], // V
    [o(0, 1), o(1, -1), o(1, 0), o(2, -1)], // W
    [o(0, 1), o(1, 1), o(1, 2), o(2, 2)], // W
    [o(1, -1), o(1, 0), o(2, -2), o(2, -1)], // W
    [o(1, 0), o(1, 1), o(2, 1), o(2, 2)], // W
    [o(1, -1), o(1, 0), o(1, 1), o(2, 0)], // X
    [o(0, 1), o(0, 2), o(0, 3), o(1, 1)], // Y
    [o(0, 1), o(0, 2), o(0, 3), o(1, 2)], // Y
    [o(1, -2), o(1, -1), o(1, 0), o(1, 1)], // Y
    [o(1, -1), o(1, 0), o(1, 1), o(1, 2)], // Y
    [o(1, -1), o(1, 0), o(2, 0), o(3, 0)], // Y
    [o(1, 0), o(1, 1), o(2, 0), o(3, 0)], // Y
    [o(1, 0), o(2, -1), o(2, 0), o(3, 0)], // Y
    [o(1, 0), o(2, 0), o(2, 1), o(3, 0)], // Y
    [o(0, 1), o(1, 0), o(2, -1), o(2, 0)], // Z
    [o(0, 1), o(1, 1), o(2, 1), o(2, 2)], // Z
    [o(1, -2), o(1, -1), o(1, 0), o(2, -2)], // Z
    [o(1, 0), o(1, 1), o(1, 2), o(2, 2)], // Z
];

/// The piece that each slice is an orientation of.
#[rustfmt::skip]
const PIECE_NUM: [u8; 63] = [
    F, F, F, F, F, F, F, F, I, I, L, L,
    L, L, L, L, L, L, N, N, N, N, N, N,
    N, N, P, P, P, P, P, P, P, P, T, T,
    T, T, U, U, U, U, V, V, V, V, W, W,
    W, W, X, Y, Y, Y, Y, Y, Y, Y, Y, Z,
    Z, Z, Z,
];

struct DeBruijn {
    occupied: [u8; LEN],
    warehouse: [u8; 12],
    /// `(cell, slice)` placed at each level, indexed by pieces still to place.
    /// Only read by `--print`.
    placed: [(usize, usize); 12],
    solutions: u64,
    print: bool,
}

impl DeBruijn {
    /// Fill the first empty cell at or after `from`, with `left` pieces still
    /// to place.
    fn fill(&mut self, from: usize, left: usize) {
        let mut cell = from;
        while self.occupied[cell & MASK] == 1 {
            cell += 1;
        }
        'next_slice: for slice in 0..63 {
            // refilling attempt
            let p = PIECE_NUM[slice] as usize;
            if self.warehouse[p] == 0 {
                continue 'next_slice;
            }
            let rel = &RELPOS[slice];
            for &r in rel {
                if self.occupied[(cell + r as usize) & MASK] == 1 {
                    continue 'next_slice;
                }
            }
            self.warehouse[p] = 0;
            self.occupied[cell & MASK] = 1;
            for &r in rel {
                self.occupied[(cell + r as usize) & MASK] = 1;
            }
            self.placed[left - 1] = (cell, slice);
            if left == 1 {
                self.solution();
            } else {
                self.fill(cell + 1, left - 1);
            }
            self.occupied[cell & MASK] = 0;
            for &r in rel {
                self.occupied[(cell + r as usize) & MASK] = 0;
            }
            self.warehouse[p] = 1;
        }
    }

    #[cold]
    fn solution(&mut self) {
        self.solutions += 1;
        if self.print {
            let mut grid = [b'.'; LEN];
            for &(cell, slice) in &self.placed {
                let c = LETTER[PIECE_NUM[slice] as usize];
                grid[cell] = c;
                for &r in &RELPOS[slice] {
                    grid[cell + r as usize] = c;
                }
            }
            let mut out = String::with_capacity((COLS + 1) * ROWS + 1);
            for row in 0..ROWS {
                for col in 0..COLS {
                    out.push(grid[ORIGIN + col * S + row] as char);
                }
                out.push('\n');
            }
            out.push('\n');
            if std::io::stdout().lock().write_all(out.as_bytes()).is_err() {
                self.print = false; // e.g. piped into `head`
            }
        }
    }
}

fn main() {
    let print = std::env::args().skip(1).any(|a| a == "--print");
    let mut d = DeBruijn {
        occupied: [1; LEN],
        warehouse: [1; 12],
        placed: [(0, 0); 12],
        solutions: 0,
        print,
    };
    for col in 0..COLS {
        for row in 0..ROWS {
            d.occupied[ORIGIN + col * S + row] = 0;
        }
    }
    // The slice of X, whose first cell in scan order is its left arm.
    let x_slice = PIECE_NUM.iter().position(|&p| p == X).unwrap();
    // The 7 positions of X's centre in the upper-left quadrant (columns 0-4,
    // rows 0-2). (1, 1) is left out: it jams X into the corner.
    d.warehouse[X as usize] = 0;
    for cx in 1..=4 {
        for cy in 1..=2 {
            if (cx, cy) == (1, 1) {
                continue;
            }
            let cell = ORIGIN + (cx - 1) * S + cy; // X's left arm
            d.occupied[cell] = 1;
            for &r in &RELPOS[x_slice] {
                d.occupied[cell + r as usize] = 1;
            }
            d.placed[11] = (cell, x_slice);
            d.fill(ORIGIN, 11);
            d.occupied[cell] = 0;
            for &r in &RELPOS[x_slice] {
                d.occupied[cell + r as usize] = 0;
            }
        }
    }
    let _ = writeln!(
        std::io::stdout(),
        "PUZZLE=pentomino_10x6\nENGINE=de Bruijn, transliterated\nSOLUTIONS={}",
        d.solutions
    );
}
