//! The generated solver for puzzles/pentomino_10x6.txt, built as the executable `pentomino_10x6`.
//! Written by `cargo xtask gen`; the solver itself is generated/pentomino_10x6.rs.

include!("../../generated/pentomino_10x6.rs");
