//! The FILA search, written once: the kernels every generated solver (and the run-time
//! engine) instantiates with its own tables.
//!
//! A solver is [`Solver<T>`] over a puzzle's [`Tables`]: the words it tests in
//! ([`bits`]), the levels that give each depth its own copy ([`level`]), the tables
//! ([`tables`]), the pruning tests ([`prune`]) and the search ([`search`]: F and E
//! heuristics, placing, the hand-over to a narrower word). A generated file holds only
//! what is particular to its puzzle: the constants, the index functions of its cells
//! where it has them, and the `Tables` impl that hands them over.

pub mod bits;
pub mod data;
pub mod isa;
pub mod level;
pub mod memo;
pub mod prune;
pub mod search;
pub mod tables;

pub use bits::{Block, Word};
pub use isa::{Isa, Kernels};
pub use level::*;
pub use search::Solver;
pub use tables::{
    Constant, FStage, Fillable, Handover, Isolation, List, NoTail, Pruning, PuzzleTables, Reach,
    SetTable, Shared, Shift, Span, Static, Tables,
};
