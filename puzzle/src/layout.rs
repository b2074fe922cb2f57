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
    /// The image of every entry, or [`PAD`]: each set is padded to whole blocks of the
    /// walk ([`block`]), so that the walk loads every block whole and needs no mask of
    /// the lanes past a set's end.
    pub entries: Vec<u16>,
}

/// An entry that pads a set to whole blocks: it never fits (its mask fills every cell)
/// and its shape is never available ([`NEVER`]).
pub const PAD: u16 = u16::MAX;

/// The shape of a [`PAD`] entry: past every shape a puzzle can have (at most 64), so that
/// no availability test finds it (`runtime::fila::Block::available`).
pub const NEVER: u8 = u8::MAX;

/// The entries a list walk in `word` tests at a time: eight for 64-bit words (one vector
/// register), one for wider ones.
pub fn block(word: Word) -> usize {
    if word == Word::U64 {
        8
    } else {
        1
    }
}

/// `entries`, whose set t is `index[t]..index[t + 1]`, with each set padded by [`PAD`]
/// to a multiple of `block` entries: the padded index and entries.
fn padded(index: &[u32], entries: &[u16], block: usize) -> (Vec<u32>, Vec<u16>) {
    let mut padded = Vec::with_capacity(entries.len() + index.len() * (block - 1));
    let mut starts = Vec::with_capacity(index.len());
    starts.push(0);
    for set in index.windows(2) {
        padded.extend_from_slice(&entries[set[0] as usize..set[1] as usize]);
        padded.resize(padded.len().next_multiple_of(block), PAD);
        starts.push(padded.len() as u32);
    }
    (starts, padded)
}

/// The F stage's flat tables. `context` and `set_base` have an entry for every cell
/// number the word can hold, so that the first open cell needs no bounds check (cells
/// past the box have no context and one empty set).
pub fn f_table(ir: &Ir, ft: &FTable) -> SetLayout {
    let mut context = ft.context.clone();
    context.resize(ir.word.bits(), Mask::ZERO);
    let mut set_base = ft.set_base[..ft.context.len()].to_vec();
    set_base.resize(ir.word.bits(), 0);
    let (index, entries) = padded(&ft.index, &ft.entries, block(ir.word));
    SetLayout {
        context,
        set_base,
        index,
        entries,
    }
}

/// The E stage's tables: each cell's sets, one per state of all its neighbours.
pub fn e_table(ir: &Ir, e: &EStage) -> SetLayout {
    let (index, entries) = padded(&e.index, &e.entries, block(ir.word));
    SetLayout {
        context: e
            .neighbours
            .iter()
            .map(|n| n.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize)))
            .collect(),
        set_base: e.set_base.clone(),
        index,
        entries,
    }
}

/// The three columns of an image list: each entry's mask (from `masks`, by image),
/// image number and shape; a [`PAD`] entry's mask is `full`, its image 0 and its shape
/// [`NEVER`]. The masks come as they are read, for the caller to lay out.
pub fn list<'a, M: Copy>(
    ir: &Ir,
    masks: &'a [M],
    full: M,
    entries: &'a [u16],
) -> (impl ExactSizeIterator<Item = M> + 'a, Vec<u16>, Vec<u8>) {
    let masks = entries
        .iter()
        .map(move |&i| if i == PAD { full } else { masks[i as usize] });
    let numbers = entries
        .iter()
        .map(|&i| if i == PAD { 0 } else { i })
        .collect();
    let shapes = entries
        .iter()
        .map(|&i| {
            if i == PAD {
                NEVER
            } else {
                ir.image_shapes[i as usize] as u8
            }
        })
        .collect();
    (masks, numbers, shapes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each set keeps its entries in order and is padded by `PAD` to whole blocks; an
    /// empty set stays empty, and blocks of one leave the sets as they are.
    #[test]
    fn sets_are_padded_to_whole_blocks() {
        let entries: Vec<u16> = (0..20).collect();
        let index = [0, 3, 3, 11, 20];
        let (starts, padded_entries) = padded(&index, &entries, 8);
        assert_eq!(starts, [0, 8, 8, 16, 32]);
        for (set, (was, now)) in index.windows(2).zip(starts.windows(2)).enumerate() {
            let (a, b) = (was[0] as usize, was[1] as usize);
            let (c, d) = (now[0] as usize, now[1] as usize);
            assert_eq!(padded_entries[c..c + (b - a)], entries[a..b], "set {set}");
            assert!(
                padded_entries[c + (b - a)..d].iter().all(|&e| e == PAD),
                "set {set}"
            );
        }
        assert_eq!(padded(&index, &entries, 1), (index.to_vec(), entries));
        assert_eq!((block(Word::U64), block(Word::U128)), (8, 1));
    }
}
