//! The generated solver for puzzles/kanoodle_pyramid.txt, built as the executable `kanoodle_pyramid`.
//! Written by `cargo xtask gen`; the solver itself is generated/kanoodle_pyramid.rs.

include!("../../generated/kanoodle_pyramid.rs");
