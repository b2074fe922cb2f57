//! The generated solver for puzzles/bedlam.txt, built as the executable `bedlam`.
//! Written by `cargo xtask gen`; the solver itself is generated/bedlam.rs.

include!("../../generated/bedlam.rs");
