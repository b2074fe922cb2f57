//! Emission: the IR and the runtime description as Rust tokens, formatted by
//! prettyplease. A plain function of its inputs: it reads no puzzle text and makes no
//! decisions, lowering has made them all; it only spells them.
//!
//! A generated file holds the puzzle's constants and what is particular to it; the
//! search is the runtime's (`runtime::fila`), instantiated with them. In reading order:
//! `main`, the word and constants, `TABLES` (a `runtime::fila::PuzzleTables`) with the
//! types that name it and the solver over it, the cells' index functions (wider words),
//! the F and E stages' tables, the pruning tables, a narrower solver's module, and last
//! `INFO`, the runtime's description of the puzzle.

mod data;
mod e_stage;
mod f_stage;
mod info;
mod literal;
mod tables;

use proc_macro2::Literal;
use quote::quote;
use runtime::PuzzleInfo;

use crate::lower::Ir;

pub use data::{DataFile, LITERAL_ENTRIES};
pub use f_stage::offset;

/// A generated solver: its Rust, and the files of bytes it includes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Emitted {
    /// The whole file, without its stamp, formatted.
    pub code: String,
    /// The tables written as bytes, to be stored beside the file (`name/TABLE.bin`).
    pub data: Vec<DataFile>,
}

/// The generated file for a solver called `name` (the stem of its file, which names the
/// directory of its tables).
pub fn emit(ir: &Ir, info: &PuzzleInfo, name: &str, description: &str) -> Emitted {
    let mut data = data::Data::new(name);
    let solver = tables::solver(ir, &mut data, "");
    let (info_static, info_tables) = info::info_static(info, &mut data);
    let doc = format!(" {description}");
    let f_from = Literal::usize_unsuffixed(ir.f_from);
    let f_from_doc = if ir.e_stage.is_some() {
        " Use the F heuristic when this many pieces or fewer are left, E before (the default of `--f-from`)."
    } else {
        " The F heuristic throughout: this solver has no E stage."
    };
    let file = quote! {
        #[doc = #doc]
        pub fn main() {
            ::runtime::main_for(INFO.to_info(), &mut Solver::new());
        }

        #[doc = #f_from_doc]
        const F_FROM: usize = #f_from;

        #solver

        #info_static

        #info_tables
    };
    let syntax: syn::File = syn::parse2(file).expect("the emitter writes valid Rust");
    Emitted {
        code: prettyplease::unparse(&syntax),
        data: data.files,
    }
}
