//! The generated solver for puzzles/one_sided_10x9.txt, built as the executable `one_sided_10x9`.
//! Written by `cargo xtask gen`; the solver itself is generated/one_sided_10x9.rs.

include!("../../generated/one_sided_10x9.rs");
