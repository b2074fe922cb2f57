//! Fletcher's 1965 pentomino program, transliterated to Rust.
//!
//! Source: J. G. Fletcher, "A program to solve the pentomino problem by the
//! recursive use of macros", Communications of the ACM 8(10):621-623, 1965.
//! The original was written in FAP for the IBM 7094. This example is one of the
//! two classic baselines that the generated FILA solver is measured against; the
//! other is `examples/debruijn.rs`.
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
//!   has exactly one member with X in this quadrant, and nothing else is needed
//!   to remove rotated copies.
//! * The search keeps filling the first empty cell. The scan goes down a column
//!   (6 cells) and then on to the next column to the right. So every cell above
//!   the target in its column, and every cell in the columns to its left, is
//!   already filled.
//! * To fill the target, the program walks a fixed exploration tree over nearby
//!   cells. The root is the target. Each root-to-leaf path names 4 more cells, and
//!   together with the target they make one of the 63 oriented pentominoes.
//!   A branch is dropped as soon as it reaches an occupied cell or the border.
//!   Only at a leaf does the program check whether that piece is still unused
//!   (Fletcher checks availability only at the leaves). If it is, the program
//!   places the piece, recurses and then removes the piece.
//!
//! # What is faithful
//!
//! * The tree is written out as nested straight-line `if`s, in the way
//!   Fletcher's macro expansion produced it. Each tree node is one occupancy
//!   test with a constant offset. The sifting uses no tables, loops or
//!   indirection.
//! * The board is a padded array with a sentinel border, so a pentomino that
//!   sticks out of the box fails the ordinary occupancy test. Fletcher likewise
//!   treated the box as part of a larger 16x32 "arena" of storage locations.
//!
//! # What is reconstructed
//!
//! Fletcher's own tree (the list argument to his `TEST` macro) was not
//! available to us. The tree used here is rebuilt from Matt Busche's published
//! walk-through of it, in his article on the Fixed Image List Algorithm (FILA)
//! at mattbusche.org. Each node's children are the cells next to the cells
//! already on the path, taken in scan order, and each image goes under the
//! first child that it contains. The result matches every figure Busche gives:
//! * 90 cell tests and 63 leaves, every leaf 4 tests below the target;
//! * the cell below the target is tested first, and if it is occupied the
//!   29 images under it are skipped and the cell to the right (34 images) is
//!   tested next;
//! * the cell to the right of the target is tested again deeper in the tree,
//!   and those tests skip 1, 4, 10 and 34 images. Here they are pre-order steps
//!   5, 9, 20 and 43; Busche gives 5, 9, 20 and 44.
//!
//! So at most the order of a node or two may differ from Fletcher's. The shape
//! of the tree never changes which partial packings are visited. It affects
//! only the order of the search and the number of cell tests.
//!
//! # What is adapted
//!
//! * Fletcher numbered his arena row by row, 16 squares to a row. Here the box
//!   is stored column by column, with 10 cells per column: 6 board cells and
//!   then 4 border cells. There is 1 border column on the left and 4 on the
//!   right. So "next cell" is `+1` and "next column" is `+10`. This is the
//!   same scan drawn transposed, the way Busche describes both programs. Four
//!   border cells between columns are enough, because no tree path goes more
//!   than 3 rows above or 4 rows below the target, or more than 4 columns to
//!   its right.
//! * The 7094's macro-generated control flow becomes one recursive function.
//!   The call stack holds the state of each level.
//! * A cell holds 0 when it is empty, `#` when it is border, and otherwise the
//!   letter of the piece that covers it, so that `--print` can show a solution.
//!
//! # Usage
//!
//! `cargo run --release --example fletcher [-- --print]`
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
/// Padded array: border column, 10 board columns, 4 border columns.
const LEN: usize = (COLS + 5) * S;
/// Marks a border cell. Any non-zero value means "occupied".
const BORDER: u8 = b'#';

/// Offset from the target of the cell `x` columns to the right and `y` rows
/// down. Every tree cell comes after the target in scan order, so the offset
/// is positive.
const fn o(x: usize, y: isize) -> usize {
    let v = x as isize * S as isize + y;
    assert!(v > 0);
    v as usize
}

/// Piece numbers. Their letters are in `LETTER`.
const F: usize = 0;
const I: usize = 1;
const L: usize = 2;
const N: usize = 3;
const P: usize = 4;
const T: usize = 5;
const U: usize = 6;
const V: usize = 7;
const W: usize = 8;
const X: usize = 9;
const Y: usize = 10;
const Z: usize = 11;
const LETTER: [u8; 12] = *b"FILNPTUVWXYZ";

struct Fletcher {
    board: [u8; LEN],
    used: [bool; 12],
    solutions: u64,
    print: bool,
}

impl Fletcher {
    #[inline(always)]
    fn free(&self, i: usize) -> bool {
        self.board[i] == 0
    }

    /// A leaf of the tree: every cell of the image is free. Check whether the
    /// piece is still available, then place it, recurse and remove it.
    #[inline(always)]
    fn leaf(&mut self, t: usize, piece: usize, cells: [usize; 4], left: u32) {
        if self.used[piece] {
            return;
        }
        let c = LETTER[piece];
        self.used[piece] = true;
        self.board[t] = c;
        self.board[t + cells[0]] = c;
        self.board[t + cells[1]] = c;
        self.board[t + cells[2]] = c;
        self.board[t + cells[3]] = c;
        if left == 1 {
            self.solution();
        } else {
            self.fill(t + 1, left - 1);
        }
        self.board[t] = 0;
        self.board[t + cells[0]] = 0;
        self.board[t + cells[1]] = 0;
        self.board[t + cells[2]] = 0;
        self.board[t + cells[3]] = 0;
        self.used[piece] = false;
    }

    /// Fill the first empty cell at or after `from` with each piece that fits,
    /// `left` pieces still to place.
    fn fill(&mut self, from: usize, left: u32) {
        let mut t = from;
        while self.board[t] != 0 {
            t += 1;
        }
        // Fletcher's exploration tree, written out in full.
        if self.free(t + o(0, 1)) {
            if self.free(t + o(0, 2)) {
                if self.free(t + o(0, 3)) {
                    if self.free(t + o(0, 4)) {
                        self.leaf(t, I, [o(0, 1), o(0, 2), o(0, 3), o(0, 4)], left);
                    }
                    if self.free(t + o(1, 0)) {
                        self.leaf(t, L, [o(0, 1), o(0, 2), o(0, 3), o(1, 0)], left);
                    }
                    if self.free(t + o(1, 1)) {
                        self.leaf(t, Y, [o(0, 1), o(0, 2), o(0, 3), o(1, 1)], left);
                    }
                    if self.free(t + o(1, 2)) {
                        self.leaf(t, Y, [o(0, 1), o(0, 2), o(0, 3), o(1, 2)], left);
                    }
                    if self.free(t + o(1, 3)) {
                        self.leaf(t, L, [o(0, 1), o(0, 2), o(0, 3), o(1, 3)], left);
                    }
                }
                if self.free(t + o(1, 0)) {
                    if self.free(t + o(1, -1)) {
                        self.leaf(t, N, [o(0, 1), o(0, 2), o(1, 0), o(1, -1)], left);
                    }
                    if self.free(t + o(1, 1)) {
                        self.leaf(t, P, [o(0, 1), o(0, 2), o(1, 0), o(1, 1)], left);
                    }
                    if self.free(t + o(1, 2)) {
                        self.leaf(t, U, [o(0, 1), o(0, 2), o(1, 0), o(1, 2)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, V, [o(0, 1), o(0, 2), o(1, 0), o(2, 0)], left);
                    }
                }
                if self.free(t + o(1, 1)) {
                    if self.free(t + o(1, 2)) {
                        self.leaf(t, P, [o(0, 1), o(0, 2), o(1, 1), o(1, 2)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, T, [o(0, 1), o(0, 2), o(1, 1), o(2, 1)], left);
                    }
                }
                if self.free(t + o(1, 2)) {
                    if self.free(t + o(1, 3)) {
                        self.leaf(t, N, [o(0, 1), o(0, 2), o(1, 2), o(1, 3)], left);
                    }
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, V, [o(0, 1), o(0, 2), o(1, 2), o(2, 2)], left);
                    }
                }
            }
            if self.free(t + o(1, 0)) {
                if self.free(t + o(1, -1)) {
                    if self.free(t + o(1, -2)) {
                        self.leaf(t, N, [o(0, 1), o(1, 0), o(1, -1), o(1, -2)], left);
                    }
                    if self.free(t + o(1, 1)) {
                        self.leaf(t, P, [o(0, 1), o(1, 0), o(1, -1), o(1, 1)], left);
                    }
                    if self.free(t + o(2, -1)) {
                        self.leaf(t, W, [o(0, 1), o(1, 0), o(1, -1), o(2, -1)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, F, [o(0, 1), o(1, 0), o(1, -1), o(2, 0)], left);
                    }
                }
                if self.free(t + o(1, 1)) {
                    if self.free(t + o(1, 2)) {
                        self.leaf(t, P, [o(0, 1), o(1, 0), o(1, 1), o(1, 2)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, P, [o(0, 1), o(1, 0), o(1, 1), o(2, 0)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, P, [o(0, 1), o(1, 0), o(1, 1), o(2, 1)], left);
                    }
                }
                if self.free(t + o(2, 0)) {
                    if self.free(t + o(2, -1)) {
                        self.leaf(t, Z, [o(0, 1), o(1, 0), o(2, 0), o(2, -1)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, U, [o(0, 1), o(1, 0), o(2, 0), o(2, 1)], left);
                    }
                    if self.free(t + o(3, 0)) {
                        self.leaf(t, L, [o(0, 1), o(1, 0), o(2, 0), o(3, 0)], left);
                    }
                }
            }
            if self.free(t + o(1, 1)) {
                if self.free(t + o(1, 2)) {
                    if self.free(t + o(1, 3)) {
                        self.leaf(t, N, [o(0, 1), o(1, 1), o(1, 2), o(1, 3)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, F, [o(0, 1), o(1, 1), o(1, 2), o(2, 1)], left);
                    }
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, W, [o(0, 1), o(1, 1), o(1, 2), o(2, 2)], left);
                    }
                }
                if self.free(t + o(2, 1)) {
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, U, [o(0, 1), o(1, 1), o(2, 1), o(2, 0)], left);
                    }
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, Z, [o(0, 1), o(1, 1), o(2, 1), o(2, 2)], left);
                    }
                    if self.free(t + o(3, 1)) {
                        self.leaf(t, L, [o(0, 1), o(1, 1), o(2, 1), o(3, 1)], left);
                    }
                }
            }
        }
        if self.free(t + o(1, 0)) {
            if self.free(t + o(1, -1)) {
                if self.free(t + o(1, -2)) {
                    if self.free(t + o(1, -3)) {
                        self.leaf(t, L, [o(1, 0), o(1, -1), o(1, -2), o(1, -3)], left);
                    }
                    if self.free(t + o(1, 1)) {
                        self.leaf(t, Y, [o(1, 0), o(1, -1), o(1, -2), o(1, 1)], left);
                    }
                    if self.free(t + o(2, -2)) {
                        self.leaf(t, Z, [o(1, 0), o(1, -1), o(1, -2), o(2, -2)], left);
                    }
                    if self.free(t + o(2, -1)) {
                        self.leaf(t, F, [o(1, 0), o(1, -1), o(1, -2), o(2, -1)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, T, [o(1, 0), o(1, -1), o(1, -2), o(2, 0)], left);
                    }
                }
                if self.free(t + o(1, 1)) {
                    if self.free(t + o(1, 2)) {
                        self.leaf(t, Y, [o(1, 0), o(1, -1), o(1, 1), o(1, 2)], left);
                    }
                    if self.free(t + o(2, -1)) {
                        self.leaf(t, F, [o(1, 0), o(1, -1), o(1, 1), o(2, -1)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, X, [o(1, 0), o(1, -1), o(1, 1), o(2, 0)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, F, [o(1, 0), o(1, -1), o(1, 1), o(2, 1)], left);
                    }
                }
                if self.free(t + o(2, -1)) {
                    if self.free(t + o(2, -2)) {
                        self.leaf(t, W, [o(1, 0), o(1, -1), o(2, -1), o(2, -2)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, P, [o(1, 0), o(1, -1), o(2, -1), o(2, 0)], left);
                    }
                    if self.free(t + o(3, -1)) {
                        self.leaf(t, N, [o(1, 0), o(1, -1), o(2, -1), o(3, -1)], left);
                    }
                }
                if self.free(t + o(2, 0)) {
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, F, [o(1, 0), o(1, -1), o(2, 0), o(2, 1)], left);
                    }
                    if self.free(t + o(3, 0)) {
                        self.leaf(t, Y, [o(1, 0), o(1, -1), o(2, 0), o(3, 0)], left);
                    }
                }
            }
            if self.free(t + o(1, 1)) {
                if self.free(t + o(1, 2)) {
                    if self.free(t + o(0, 2)) {
                        self.leaf(t, U, [o(1, 0), o(1, 1), o(1, 2), o(0, 2)], left);
                    }
                    if self.free(t + o(1, 3)) {
                        self.leaf(t, L, [o(1, 0), o(1, 1), o(1, 2), o(1, 3)], left);
                    }
                    if self.free(t + o(2, 0)) {
                        self.leaf(t, T, [o(1, 0), o(1, 1), o(1, 2), o(2, 0)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, F, [o(1, 0), o(1, 1), o(1, 2), o(2, 1)], left);
                    }
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, Z, [o(1, 0), o(1, 1), o(1, 2), o(2, 2)], left);
                    }
                }
                if self.free(t + o(2, 0)) {
                    if self.free(t + o(2, -1)) {
                        self.leaf(t, F, [o(1, 0), o(1, 1), o(2, 0), o(2, -1)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, P, [o(1, 0), o(1, 1), o(2, 0), o(2, 1)], left);
                    }
                    if self.free(t + o(3, 0)) {
                        self.leaf(t, Y, [o(1, 0), o(1, 1), o(2, 0), o(3, 0)], left);
                    }
                }
                if self.free(t + o(2, 1)) {
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, W, [o(1, 0), o(1, 1), o(2, 1), o(2, 2)], left);
                    }
                    if self.free(t + o(3, 1)) {
                        self.leaf(t, N, [o(1, 0), o(1, 1), o(2, 1), o(3, 1)], left);
                    }
                }
            }
            if self.free(t + o(2, 0)) {
                if self.free(t + o(2, -1)) {
                    if self.free(t + o(2, -2)) {
                        self.leaf(t, V, [o(1, 0), o(2, 0), o(2, -1), o(2, -2)], left);
                    }
                    if self.free(t + o(2, 1)) {
                        self.leaf(t, T, [o(1, 0), o(2, 0), o(2, -1), o(2, 1)], left);
                    }
                    if self.free(t + o(3, -1)) {
                        self.leaf(t, N, [o(1, 0), o(2, 0), o(2, -1), o(3, -1)], left);
                    }
                    if self.free(t + o(3, 0)) {
                        self.leaf(t, Y, [o(1, 0), o(2, 0), o(2, -1), o(3, 0)], left);
                    }
                }
                if self.free(t + o(2, 1)) {
                    if self.free(t + o(2, 2)) {
                        self.leaf(t, V, [o(1, 0), o(2, 0), o(2, 1), o(2, 2)], left);
                    }
                    if self.free(t + o(3, 0)) {
                        self.leaf(t, Y, [o(1, 0), o(2, 0), o(2, 1), o(3, 0)], left);
                    }
                    if self.free(t + o(3, 1)) {
                        self.leaf(t, N, [o(1, 0), o(2, 0), o(2, 1), o(3, 1)], left);
                    }
                }
                if self.free(t + o(3, 0)) {
                    if self.free(t + o(3, -1)) {
                        self.leaf(t, L, [o(1, 0), o(2, 0), o(3, 0), o(3, -1)], left);
                    }
                    if self.free(t + o(3, 1)) {
                        self.leaf(t, L, [o(1, 0), o(2, 0), o(3, 0), o(3, 1)], left);
                    }
                    if self.free(t + o(4, 0)) {
                        self.leaf(t, I, [o(1, 0), o(2, 0), o(3, 0), o(4, 0)], left);
                    }
                }
            }
        }
    }

    #[cold]
    fn solution(&mut self) {
        self.solutions += 1;
        if self.print {
            let mut out = String::with_capacity((COLS + 1) * ROWS + 1);
            for row in 0..ROWS {
                for col in 0..COLS {
                    out.push(self.board[ORIGIN + col * S + row] as char);
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
    let mut f = Fletcher {
        board: [BORDER; LEN],
        used: [false; 12],
        solutions: 0,
        print,
    };
    for col in 0..COLS {
        for row in 0..ROWS {
            f.board[ORIGIN + col * S + row] = 0;
        }
    }
    // The 7 positions of X's centre in the upper-left quadrant (columns 0-4,
    // rows 0-2). (1, 1) is left out: it jams X into the corner.
    f.used[X] = true;
    for cx in 1..=4 {
        for cy in 1..=2 {
            if (cx, cy) == (1, 1) {
                continue;
            }
            let c = ORIGIN + cx * S + cy;
            let cells = [c, c - S, c + S, c - 1, c + 1];
            for &i in &cells {
                f.board[i] = b'X';
            }
            f.fill(ORIGIN, 11);
            for &i in &cells {
                f.board[i] = 0;
            }
        }
    }
    let _ = writeln!(
        std::io::stdout(),
        "PUZZLE=pentomino_10x6\nENGINE=Fletcher 1965, transliterated\nSOLUTIONS={}",
        f.solutions
    );
}
