//! The E stage's tables in a generated file: for every cell, every image covering it, per
//! state of all its neighbours (the E heuristic has no fixed order, so no POF).

use proc_macro2::TokenStream;
use quote::quote;

use super::data::{Data, Values};
use super::literal::word_list;
use crate::lower::{EStage, Ir};

/// The E stage's tables, as `E_TABLE`.
pub fn tables(ir: &Ir, e: &EStage, data: &mut Data, module: &str) -> TokenStream {
    let layout = crate::layout::e_table(ir, e);
    let neighbour_masks = word_list(ir.word, layout.context.iter().copied());
    let set_base = data.table(
        module,
        "E_SET_BASE",
        "The first image list set of each cell.",
        Values::U32(layout.set_base),
    );
    let index = data.table(
        module,
        "E_INDEX",
        "Set t's images are `E_IMAGES[E_INDEX[t]..E_INDEX[t + 1]]`, by shape, padded to whole blocks.",
        Values::U32(layout.index),
    );
    let (list_tables, list) = data.list(ir, module, "E", "every E image list set", &layout.entries);
    quote! {
        /// The E stage's image list sets: each cell's, per state of its neighbours.
        static E_TABLE: ::runtime::fila::SetTable<'static, Word> = ::runtime::fila::SetTable {
            context: &[#neighbour_masks],
            set_base: E_SET_BASE,
            index: E_INDEX,
            list: #list,
        };
        #set_base
        #index
        #list_tables
    }
}
