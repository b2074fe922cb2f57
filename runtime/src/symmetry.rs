//! The canonical check: is a solution the least of its images under some group elements?
//!
//! A solution is compared as a vector over cells of (shape, least cell of the piece), so
//! copies of one shape are interchangeable and the partition into pieces still counts.

use crate::info::{Element, PuzzleInfo};

/// Scratch space for canonical checks, reused between solutions.
#[derive(Default)]
pub struct Canonical {
    base: Vec<(u16, u16)>,
    moved: Vec<(u16, u16)>,
    cells: Vec<u16>,
}

impl Canonical {
    fn key(
        info: &PuzzleInfo,
        placed: &[u16],
        element: Option<&Element>,
        out: &mut Vec<(u16, u16)>,
        cells: &mut Vec<u16>,
    ) {
        out.clear();
        out.resize(info.cells(), (u16::MAX, u16::MAX));
        for &i in placed {
            let image = &info.images[i as usize];
            cells.clear();
            let shape = match element {
                Some(e) => {
                    cells.extend(image.cells.iter().map(|&c| e.cell_map[c as usize]));
                    e.shape_map[image.shape as usize]
                }
                None => {
                    cells.extend_from_slice(&image.cells);
                    image.shape
                }
            };
            let least = cells.iter().copied().min().unwrap_or(0);
            for &c in cells.iter() {
                out[c as usize] = (shape, least);
            }
        }
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
        let Canonical { base, moved, cells } = self;
        Self::key(info, placed, None, base, cells);
        for k in elements {
            Self::key(info, placed, Some(&group[k]), moved, cells);
            if *moved < *base {
                return false;
            }
        }
        true
    }
}
