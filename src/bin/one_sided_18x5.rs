//! The generated solver for puzzles/one_sided_18x5.txt, built as the executable `one_sided_18x5`.
//! Written by `cargo xtask gen`; the solver itself is generated/one_sided_18x5.rs.

include!("../../generated/one_sided_18x5.rs");
