//! `fila solve`'s search: the dancing-links engine driven through the runtime's
//! [`Search`] contract, so that it shares the driver, filter and output with generated
//! solvers.

use runtime::{Context, PuzzleInfo, Search};

use crate::dlx::{Dlx, Flow};

/// The generic engine for one puzzle: one exact-cover row per image, numbered as the images.
pub struct DlxSearch {
    dlx: Dlx,
}

impl DlxSearch {
    pub fn new(info: &PuzzleInfo) -> DlxSearch {
        let counts: Vec<usize> = info.shape_pieces.iter().map(Vec::len).collect();
        let mut dlx = Dlx::new(info.cells(), &counts);
        for image in &info.images {
            dlx.add_row(image.shape as usize, &image.cells);
        }
        DlxSearch { dlx }
    }
}

impl Search for DlxSearch {
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>) {
        let mut placed: Vec<u16> = Vec::new();
        self.dlx.counts.attempts.iter_mut().for_each(|a| *a = 0);
        self.dlx.counts.fits.iter_mut().for_each(|a| *a = 0);
        let rows: Vec<usize> = prefix.iter().map(|&r| r as usize).collect();
        self.dlx
            .solve_prefix(&rows, ctx.floor(), &mut |rows, complete| {
                placed.clear();
                placed.extend(rows.iter().map(|&r| r as u16));
                if !complete {
                    ctx.cut(&placed);
                    Flow::Continue
                } else if ctx.report(&placed) {
                    Flow::Continue
                } else {
                    Flow::Stop
                }
            });
        ctx.stats
            .add(&self.dlx.counts.attempts, &self.dlx.counts.fits);
    }

    fn fork(&self) -> Box<dyn Search> {
        Box::new(DlxSearch {
            dlx: self.dlx.clone(),
        })
    }
}
