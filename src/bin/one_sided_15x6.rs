//! The generated solver for puzzles/one_sided_15x6.txt, built as the executable `one_sided_15x6`.
//! Written by `cargo xtask gen`; the solver itself is generated/one_sided_15x6.rs.

include!("../../generated/one_sided_15x6.rs");
