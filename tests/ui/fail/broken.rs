//! A definition with errors still gives a Rust file, and building it fails with one
//! error per diagnostic, each naming tests/ui/puzzles/broken.txt with line and column.

include!("../generated/broken.rs");
