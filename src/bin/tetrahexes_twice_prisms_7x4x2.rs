//! The generated solver for puzzles/tetrahexes_twice_prisms_7x4x2.txt, built as the executable `tetrahexes_twice_prisms_7x4x2`.
//! Written by `cargo xtask gen`; the solver itself is generated/tetrahexes_twice_prisms_7x4x2.rs.

include!("../../generated/tetrahexes_twice_prisms_7x4x2.rs");
