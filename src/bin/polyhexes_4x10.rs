//! The generated solver for puzzles/polyhexes_4x10.txt, built as the executable `polyhexes_4x10`.
//! Written by `cargo xtask gen`; the solver itself is generated/polyhexes_4x10.rs.

include!("../../generated/polyhexes_4x10.rs");
