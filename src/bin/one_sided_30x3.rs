//! The generated solver for puzzles/one_sided_30x3.txt, built as the executable `one_sided_30x3`.
//! Written by `cargo xtask gen`; the solver itself is generated/one_sided_30x3.rs.

include!("../../generated/one_sided_30x3.rs");
