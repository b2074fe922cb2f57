//! The generated solver for puzzles/hexiamonds_hexagon.txt, built as the executable `hexiamonds_hexagon`.
//! Written by `cargo xtask gen`; the solver itself is generated/hexiamonds_hexagon.rs.

include!("../../generated/hexiamonds_hexagon.rs");
