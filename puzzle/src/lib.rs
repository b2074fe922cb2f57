//! The fila puzzle library: the reader of polycube's definition format, the model of a
//! puzzle (cells, shapes, images, symmetry), its runtime description, the IR a FILA
//! solver is lowered to and its tables' layout, the run-time FILA engine (`fila`), and the
//! dancing-links engine, which is the oracle every FILA solver is checked against.
//!
//! The pipeline is `parse` → `model` → `info` (for the runtime) and `lower` → `layout`
//! (for the code emitter, which lives in the `generator` crate so that the `fila`
//! executable does not link it, and for the run-time engine). Nothing here does I/O.

pub mod diag;
pub mod dlx;
pub mod engine;
pub mod fila;
pub mod geometry;
pub mod info;
pub mod lattice;
pub mod layout;
pub mod limits;
pub mod lower;
pub mod model;
pub mod parse;
pub mod solve;

use diag::Diagnostic;
use limits::Limits;
use model::Puzzle;

/// Reads every puzzle in `text` and builds its model, within the default [`Limits`].
/// `file` names the input in diagnostics and, by its stem, the puzzles (`NAME`, or
/// `NAME.2`, `NAME.3`, ... after the first when the stream holds several).
pub fn load(file: &str, text: &str) -> Result<Vec<Puzzle>, Vec<Diagnostic>> {
    load_with(file, text, &Limits::default())
}

/// [`load`] within `limits`.
pub fn load_with(file: &str, text: &str, limits: &Limits) -> Result<Vec<Puzzle>, Vec<Diagnostic>> {
    let defs = parse::parse(file, text)?;
    let stem = std::path::Path::new(file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("stdin")
        .to_string();
    let mut puzzles = Vec::new();
    let mut errors = Vec::new();
    for (k, def) in defs.iter().enumerate() {
        let name = if k == 0 {
            stem.clone()
        } else {
            format!("{stem}.{}", k + 1)
        };
        match Puzzle::build(def, &name, file, limits) {
            Ok(p) => puzzles.push(p),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(puzzles)
    } else {
        Err(errors)
    }
}
