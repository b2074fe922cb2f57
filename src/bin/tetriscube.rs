//! The generated solver for puzzles/tetriscube.txt, built as the executable `tetriscube`.
//! Written by `cargo xtask gen`; the solver itself is generated/tetriscube.rs.

include!("../../generated/tetriscube.rs");
