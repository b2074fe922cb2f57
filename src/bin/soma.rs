//! The generated solver for puzzles/soma.txt, built as the executable `soma`.
//! Written by `cargo xtask gen`; the solver itself is generated/soma.rs.

include!("../../generated/soma.rs");
