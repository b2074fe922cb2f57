//! The E stage's tables in a generated file: for every cell, every image covering it, per
//! state of all its neighbours (the E heuristic has no fixed order, so no POF).

use proc_macro2::TokenStream;
use quote::quote;

use super::data::{Data, Values};
use super::literal::word_list;
use crate::lower::{EStage, Ir, Mask, Word};

/// The E stage's tables, as `E_TABLE`.
pub fn tables(ir: &Ir, e: &EStage, data: &mut Data, module: &str) -> TokenStream {
    let neighbour_masks = word_list(
        ir.word,
        e.neighbours
            .iter()
            .map(|n| n.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize))),
    );
    // 64-bit words walk the lists eight at a time: seven entries past the last set
    // (never counted) let its last eight be loaded at once.
    let pad = if ir.word == Word::U64 { 7 } else { 0 };
    let entries = || e.entries.iter().map(|&i| i as usize);
    let set_base = data.table(
        module,
        "E_SET_BASE",
        "The first image list set of each cell.",
        Values::U32(e.set_base.clone()),
    );
    let index = data.table(
        module,
        "E_INDEX",
        "Set t's images are `E_IMAGES[E_INDEX[t]..E_INDEX[t + 1]]`, by shape.",
        Values::U32(e.index.clone()),
    );
    let images = data.table(
        module,
        "E_IMAGES",
        "The images of every E image list set.",
        Values::U16(
            entries()
                .map(|i| i as u16)
                .chain(std::iter::repeat_n(0, pad))
                .collect(),
        ),
    );
    let masks = data.table(
        module,
        "E_MASKS",
        "Their occupancy masks.",
        Values::Words(
            ir.word,
            entries()
                .map(|i| ir.masks[i])
                .chain(std::iter::repeat_n(Mask::low_bits(ir.cells), pad))
                .collect(),
        ),
    );
    let shapes = data.table(
        module,
        "E_SHAPES",
        "Their shapes.",
        Values::U8(
            entries()
                .map(|i| ir.image_shapes[i] as u8)
                .chain(std::iter::repeat_n(0, pad))
                .collect(),
        ),
    );
    quote! {
        /// The E stage's image list sets: each cell's, per state of its neighbours.
        static E_TABLE: ::runtime::fila::ETable<'static, Word> = ::runtime::fila::ETable {
            neighbour_masks: &[#neighbour_masks],
            set_base: E_SET_BASE,
            index: E_INDEX,
            list: ::runtime::fila::List { masks: E_MASKS, images: E_IMAGES, shapes: E_SHAPES },
        };
        #set_base
        #index
        #images
        #masks
        #shapes
    }
}
