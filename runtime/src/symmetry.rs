//! The canonical check: is a solution the least of its images under some group elements?
//!
//! A solution is compared as a vector over cells of (shape, least cell of the piece), so
//! copies of one shape are interchangeable and the partition into pieces still counts.

use crate::info::{Element, PuzzleInfo};

/// Scratch space for canonical checks, reused between solutions.
pub struct Canonical {
    /// The puzzle's number of cells: the length of a key.
    cells: usize,
    base: Vec<(u16, u16)>,
    moved: Vec<(u16, u16)>,
    /// For each element [`Canonical::undecided`] left undecided, the open cell whose
    /// covering can decide it.
    awaited: Vec<u16>,
}

impl Canonical {
    /// The scratch space for a puzzle of `cells` cells ([`PuzzleInfo::cells`]).
    pub fn new(cells: usize) -> Canonical {
        Canonical {
            cells,
            base: Vec::new(),
            moved: Vec::new(),
            awaited: Vec::new(),
        }
    }

    /// The vector over cells that solutions are compared as: (shape, least cell of the
    /// piece) for each covered cell, `u16::MAX` twice for an open one; of `placed`
    /// moved by `element`, or as it stands. (Knuth's walks judge a node at every step,
    /// so this runs some two million times in the one-sided 18x5's walks: the image's
    /// cells are read twice rather than copied aside, and the length is kept rather
    /// than counted from the grid.)
    fn key(
        info: &PuzzleInfo,
        cells: usize,
        placed: &[u16],
        element: Option<&Element>,
        out: &mut Vec<(u16, u16)>,
    ) {
        out.clear();
        out.resize(cells, (u16::MAX, u16::MAX));
        for &i in placed {
            let image = &info.images[i as usize];
            match element {
                Some(e) => {
                    let shape = e.shape_map[image.shape as usize];
                    let moved = image.cells.iter().map(|&c| e.cell_map[c as usize]);
                    let least = moved.clone().min().unwrap_or(0);
                    for c in moved {
                        out[c as usize] = (shape, least);
                    }
                }
                None => {
                    let least = image.cells.iter().copied().min().unwrap_or(0);
                    for &c in &image.cells {
                        out[c as usize] = (image.shape, least);
                    }
                }
            }
        }
    }

    /// Judges a partial solution `placed` (image numbers) against the elements of the
    /// group in `undecided` (bit `k` for `group[k]`), comparing the two vectors only as
    /// far as both are known (cells covered): `None` when an element maps it to a smaller
    /// one there, so that [`Canonical::is_least`] rejects every solution below it;
    /// otherwise the elements still undecided, without those known to map it to a larger
    /// one (the search's early form of the check, in symmetric subtrees). For each element
    /// left undecided, [`Canonical::awaited`] then holds the open cell where the
    /// comparison stopped: nothing can change before a piece covers it.
    pub fn undecided(
        &mut self,
        info: &PuzzleInfo,
        placed: &[u16],
        group: &[Element],
        undecided: u64,
    ) -> Option<u64> {
        let Canonical {
            cells,
            base,
            moved,
            awaited,
        } = self;
        Self::key(info, *cells, placed, None, base);
        awaited.clear();
        let mut left = undecided;
        let mut rest = undecided;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let element = &group[k];
            Self::key(info, *cells, placed, Some(element), moved);
            for (c, (b, m)) in base.iter().zip(moved.iter()).enumerate() {
                if b.0 == u16::MAX {
                    // A cell not yet covered: the rest of the order is unknown.
                    awaited.push(c as u16);
                    break;
                }
                if m.0 == u16::MAX {
                    // Likewise for the cell that the element maps here (found by a
                    // search as long as building the key, so no inverse map is kept).
                    let from = element.cell_map.iter().position(|&d| d as usize == c);
                    awaited.push(from.unwrap_or(c) as u16);
                    break;
                }
                if m != b {
                    if m < b {
                        return None;
                    }
                    left &= !(1u64 << k);
                    break;
                }
            }
        }
        Some(left)
    }

    /// The cells awaited by the elements the last [`Canonical::undecided`] left undecided.
    pub fn awaited(&self) -> &[u16] {
        &self.awaited
    }

    /// Whether no element of `elements` maps the solution `placed` (image numbers) to a
    /// smaller one.
    pub fn is_least(
        &mut self,
        info: &PuzzleInfo,
        placed: &[u16],
        group: &[Element],
        elements: impl IntoIterator<Item = usize>,
    ) -> bool {
        let Canonical {
            cells, base, moved, ..
        } = self;
        Self::key(info, *cells, placed, None, base);
        for k in elements {
            Self::key(info, *cells, placed, Some(&group[k]), moved);
            if *moved < *base {
                return false;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::testing::example;
    use crate::info::{elements_from, ImageInfo, Slot};

    /// A 3x2 box filled column by column (cells 2x and 2x+1 in column x), turned upside
    /// down by element 1: monominoes of shapes 0 (images 0 to 5, by cell) and 1 (6 to
    /// 11), and a vertical domino of shape 2 (12 to 14, by column).
    fn columns() -> (PuzzleInfo, Vec<Element>) {
        let mut info = example();
        info.dims = [3, 2, 1];
        info.grid = (0..6).map(Slot::Open).collect();
        info.images = (0..2)
            .flat_map(|shape| (0..6).map(move |c| (shape, vec![c])))
            .chain((0..3).map(|x| (2, vec![2 * x, 2 * x + 1])))
            .map(|(shape, cells)| ImageInfo { shape, cells })
            .collect();
        let group = elements_from(
            6,
            &[0, 1, 2, 3, 4, 5, 1, 0, 3, 2, 5, 4],
            3,
            &[0, 1, 2, 0, 1, 2],
        );
        (info, group)
    }

    #[test]
    fn a_partial_solution_is_judged_as_far_as_both_orders_are_known() {
        let (info, group) = columns();
        let mut c = Canonical::new(info.cells());
        let mut judge = |placed: &[u16]| {
            let judged = c.undecided(&info, placed, &group, 0b10);
            (judged, c.awaited().to_vec())
        };
        // Cell 1, the image of cell 0, is open: nothing is known until it is covered.
        assert_eq!(judge(&[0]), (Some(0b10), vec![1]));
        assert_eq!(judge(&[1]), (Some(0b10), vec![0]));
        // Column 0 holds shapes 0 then 1: turned, 1 then 0, larger; every solution below
        // is least.
        assert_eq!(judge(&[0, 7]), (Some(0), vec![]));
        // Shapes 1 then 0: turned, smaller; no solution below is least.
        assert_eq!(judge(&[6, 1]).0, None);
        // A domino fills column 0 alike both ways, and column 1 is half known.
        assert_eq!(judge(&[12, 2]), (Some(0b10), vec![3]));
        assert_eq!(judge(&[12, 2, 9, 14]), (Some(0), vec![]));
        assert_eq!(judge(&[12, 8, 3, 14]).0, None);
        // A solution its own image stays undecided, and is least.
        assert_eq!(judge(&[12, 13, 14]).0, Some(0b10));
    }

    #[test]
    fn the_early_check_agrees_with_the_check_of_a_whole_solution() {
        let (info, group) = columns();
        let mut c = Canonical::new(info.cells());
        // Every filling of the three columns by a domino or two monominoes of shapes 0 and
        // 1, and every prefix of its placements: a prefix judged smaller has only
        // solutions that are not least, and a whole solution is judged as `is_least` does.
        let column = |x: u16| {
            [
                vec![12 + x],
                vec![2 * x, 7 + 2 * x],
                vec![6 + 2 * x, 1 + 2 * x],
            ]
        };
        let mut cut = 0;
        for a in column(0) {
            for b in column(1) {
                for d in column(2) {
                    let placed: Vec<u16> = [a.clone(), b.clone(), d].concat();
                    let least = c.is_least(&info, &placed, &group, [1]);
                    for len in 1..=placed.len() {
                        let judged = c.undecided(&info, &placed[..len], &group, 0b10);
                        if judged.is_none() {
                            assert!(!least, "{placed:?} cut at {len}");
                            cut += 1;
                        }
                    }
                    let whole = c.undecided(&info, &placed, &group, 0b10);
                    assert_eq!(whole.is_some(), least, "{placed:?}");
                }
            }
        }
        assert!(cut > 0);
    }
}
