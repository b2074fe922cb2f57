//! The IR's image list sets laid out as the flat tables the FILA kernels read
//! (`runtime::fila::SetTable` over one `List`): one layout, which the code emitter spells
//! as Rust and the run-time engine ([`crate::fila`]) builds in memory.

use crate::lower::{EStage, FTable, Ir, Mask, Word};

/// A [`runtime::fila::SetTable`] as plain numbers: every set's entries one after another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetLayout {
    /// For each cell, the cells whose occupancy chooses its set (bit k of the index is
    /// the k-th lowest).
    pub context: Vec<Mask>,
    /// The first set of each cell, sized like `context`.
    pub set_base: Vec<u32>,
    /// Set t's entries are `entries[index[t]..index[t + 1]]`.
    pub index: Vec<u32>,
    /// The image of every entry.
    pub entries: Vec<u16>,
    /// Entries past the last set that never fit (their mask fills every cell), so that a
    /// walk by blocks of eight can load its last block whole.
    pub pad: usize,
}

/// The entries past the end of a list that a walk in `word` needs: seven for 64-bit
/// words, walked eight images at a time; none for wider ones, walked one at a time.
pub fn block_pad(word: Word) -> usize {
    if word == Word::U64 {
        7
    } else {
        0
    }
}

/// The F stage's flat tables. `context` and `set_base` have an entry for every cell
/// number the word can hold, so that the first open cell needs no bounds check (cells
/// past the box have no context and one empty set).
pub fn f_table(ir: &Ir, ft: &FTable) -> SetLayout {
    let mut context = ft.context.clone();
    context.resize(ir.word.bits(), Mask::ZERO);
    let mut set_base = ft.set_base[..ft.context.len()].to_vec();
    set_base.resize(ir.word.bits(), 0);
    SetLayout {
        context,
        set_base,
        index: ft.index.clone(),
        entries: ft.entries.clone(),
        pad: block_pad(ir.word),
    }
}

/// The E stage's tables: each cell's sets, one per state of all its neighbours.
pub fn e_table(ir: &Ir, e: &EStage) -> SetLayout {
    SetLayout {
        context: e
            .neighbours
            .iter()
            .map(|n| n.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize)))
            .collect(),
        set_base: e.set_base.clone(),
        index: e.index.clone(),
        entries: e.entries.clone(),
        pad: block_pad(ir.word),
    }
}

/// The three columns of an image list: each entry's mask (from `masks`, by image),
/// image number and shape, with `pad` entries past the end whose mask is `full` (so
/// that they never fit).
pub fn list<M: Copy>(
    ir: &Ir,
    masks: &[M],
    full: M,
    images: &[u16],
    pad: usize,
) -> (Vec<M>, Vec<u16>, Vec<u8>) {
    let masks = images
        .iter()
        .map(|&i| masks[i as usize])
        .chain(std::iter::repeat_n(full, pad))
        .collect();
    let numbers = images
        .iter()
        .copied()
        .chain(std::iter::repeat_n(0, pad))
        .collect();
    let shapes = images
        .iter()
        .map(|&i| ir.image_shapes[i as usize] as u8)
        .chain(std::iter::repeat_n(0, pad))
        .collect();
    (masks, numbers, shapes)
}
