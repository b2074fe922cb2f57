//! The solver generated from tests/ui/puzzles/tiny.txt builds as a program of its own
//! and runs (it defines `main`).

include!("../generated/tiny.rs");
