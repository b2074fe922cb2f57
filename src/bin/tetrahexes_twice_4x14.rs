//! The generated solver for puzzles/tetrahexes_twice_4x14.txt, built as the executable `tetrahexes_twice_4x14`.
//! Written by `cargo xtask gen`; the solver itself is generated/tetrahexes_twice_4x14.rs.

include!("../../generated/tetrahexes_twice_4x14.rs");
