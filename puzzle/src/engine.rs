//! `fila solve`'s search: the dancing-links engine driven through the runtime's
//! [`Search`] contract, so that it shares the driver, filter and output with generated
//! solvers.

use std::sync::Arc;

use runtime::{Capabilities, Context, Pruning, PuzzleInfo, RunShare, Search, Slot};

use crate::dlx::{Dlx, Flow, Node};
use crate::geometry::BoxGrid;
use crate::lattice;

/// The generic engine for one puzzle: one exact-cover row per image, numbered as the images.
pub struct DlxSearch {
    dlx: Dlx,
    backtracks: Backtracks,
}

impl DlxSearch {
    pub fn new(info: &PuzzleInfo) -> DlxSearch {
        let counts: Vec<usize> = info.shape_pieces.iter().map(Vec::len).collect();
        let mut dlx = Dlx::new(info.cells(), &counts);
        for image in &info.images {
            dlx.add_row(image.shape as usize, &image.cells);
        }
        DlxSearch {
            dlx,
            backtracks: Backtracks::new(info),
        }
    }
}

impl Search for DlxSearch {
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>) {
        let mut placed: Vec<u16> = Vec::new();
        self.dlx.counts.attempts.iter_mut().for_each(|a| *a = 0);
        self.dlx.counts.fits.iter_mut().for_each(|a| *a = 0);
        self.backtracks.set(ctx.pruning());
        let rows: Vec<usize> = prefix.iter().map(|&r| r as usize).collect();
        let backtracks = &mut self.backtracks;
        self.dlx.solve_prefix(
            &rows,
            ctx.floor(),
            &mut |node| backtracks.allow(node),
            &mut |rows, complete| {
                placed.clear();
                placed.extend(rows.iter().map(|&r| r as u16));
                let more = if complete {
                    ctx.report(&placed)
                } else {
                    ctx.cut(&placed)
                };
                if more {
                    Flow::Continue
                } else {
                    Flow::Stop
                }
            },
        );
        ctx.stats
            .add(&self.dlx.counts.attempts, &self.dlx.counts.fits);
    }

    fn fork(&self) -> Box<dyn Search> {
        Box::new(DlxSearch {
            dlx: self.dlx.clone(),
            backtracks: self.backtracks.clone(),
        })
    }

    fn join(&mut self, _: &Arc<RunShare>) {
        // Dancing links keeps no table of dead states.
    }

    fn capabilities(&self) -> Capabilities {
        // No kernels, and every replay covers the prefix's rows anew.
        Capabilities::default()
    }
}

/// The volume and parity backtracks (polycube's `-v N` and `-p`), checked after each
/// placement that leaves more than N pieces to place. Simple rather than fast: every
/// open region is measured, the sums the remaining pieces make are counted afresh.
#[derive(Clone)]
struct Backtracks {
    volume_above: Option<usize>,
    parity_above: Option<usize>,
    /// Each open cell's neighbours among the open cells.
    neighbours: Vec<Vec<u16>>,
    /// Whether every piece is connected: the volume backtrack judges regions by the sizes
    /// of whole pieces, which a piece in parts does not respect, so it stands aside.
    connected: bool,
    /// Each cell's colour in the lattice's parity colouring (the checkerboard on cubes).
    black: Vec<bool>,
    /// For each shape: its size, and the distinct colour balances (black cells minus
    /// white cells) of its images.
    sizes: Vec<usize>,
    balances: Vec<Vec<i32>>,
    /// Scratch space.
    seen: Vec<bool>,
    stack: Vec<u16>,
    sums: Vec<bool>,
    next: Vec<bool>,
}

impl Backtracks {
    fn new(info: &PuzzleInfo) -> Backtracks {
        let cells = info.cells();
        let grid = BoxGrid::new(info.dims);
        let geometry = lattice::geometry(info.lattice);
        let open = |g: usize| match info.grid.get(g) {
            Some(&Slot::Open(c)) if usize::from(c) < cells => Some(c),
            _ => None,
        };
        let mut neighbours = vec![Vec::new(); cells];
        let mut black = vec![false; cells];
        for g in 0..info.grid.len() {
            let Some(c) = open(g) else {
                continue;
            };
            let coord = grid.coord(g);
            black[usize::from(c)] = geometry.black(coord);
            neighbours[usize::from(c)] = lattice::neighbours(geometry, coord)
                .filter_map(|n| open(grid.index(n)?))
                .collect();
        }
        let shapes = info.shape_pieces.len();
        let mut sizes = vec![0; shapes];
        let mut balances: Vec<Vec<i32>> = vec![Vec::new(); shapes];
        for image in &info.images {
            let s = image.shape as usize;
            let Some(size) = sizes.get_mut(s) else {
                continue;
            };
            *size = image.cells.len();
            let b = image
                .cells
                .iter()
                .map(|&c| {
                    if black.get(c as usize).copied().unwrap_or(false) {
                        1
                    } else {
                        -1
                    }
                })
                .sum();
            if !balances[s].contains(&b) {
                balances[s].push(b);
            }
        }
        // Each shape's first image, grown from its first cell through its own cells.
        let mut first_seen = vec![false; shapes];
        let mut connected = true;
        for image in &info.images {
            let s = image.shape as usize;
            let Some(&first) = image.cells.first() else {
                continue;
            };
            if s >= shapes || std::mem::replace(&mut first_seen[s], true) {
                continue;
            }
            let mut reached = vec![first];
            let mut next = 0;
            while let Some(&c) = reached.get(next) {
                next += 1;
                for &n in &neighbours[usize::from(c)] {
                    if image.cells.contains(&n) && !reached.contains(&n) {
                        reached.push(n);
                    }
                }
            }
            connected &= reached.len() == image.cells.len();
        }
        Backtracks {
            volume_above: None,
            parity_above: None,
            connected,
            neighbours,
            black,
            sizes,
            balances,
            seen: vec![false; cells],
            stack: Vec::new(),
            sums: Vec::new(),
            next: Vec::new(),
        }
    }

    fn set(&mut self, pruning: Pruning) {
        self.volume_above = pruning.volume_backtrack;
        self.parity_above = pruning.parity_backtrack;
    }

    /// Whether the search may go on below a node.
    fn allow(&mut self, node: &Node<'_>) -> bool {
        let volume = self.volume_above.is_some_and(|n| node.left > n);
        let parity = self.parity_above.is_some_and(|n| node.left > n);
        (!volume || !self.connected || self.volume_ok(node)) && (!parity || self.parity_ok(node))
    }

    /// Every open region has a size that some of the pieces left make together.
    fn volume_ok(&mut self, node: &Node<'_>) -> bool {
        let open = node.open.iter().filter(|&&o| o).count();
        // sums[v]: some of the pieces left cover v cells.
        self.sums.clear();
        self.sums.resize(open + 1, false);
        self.sums[0] = true;
        for (s, &n) in node.to_place.iter().enumerate() {
            let size = self.sizes.get(s).copied().unwrap_or(0);
            for _ in 0..n {
                for v in (size..=open).rev() {
                    self.sums[v] |= self.sums[v - size];
                }
            }
        }
        self.seen.iter_mut().for_each(|s| *s = false);
        for start in 0..node.open.len().min(self.seen.len()) {
            if !node.open[start] || self.seen[start] {
                continue;
            }
            self.seen[start] = true;
            self.stack.push(start as u16);
            let mut size = 0;
            while let Some(c) = self.stack.pop() {
                size += 1;
                for &n in &self.neighbours[c as usize] {
                    let n = n as usize;
                    if node.open.get(n) == Some(&true) && !self.seen[n] {
                        self.seen[n] = true;
                        self.stack.push(n as u16);
                    }
                }
            }
            if !self.sums.get(size).copied().unwrap_or(false) {
                self.stack.clear();
                return false;
            }
        }
        true
    }

    /// The open cells' colour balance is a sum of one balance of each piece left.
    fn parity_ok(&mut self, node: &Node<'_>) -> bool {
        let balance: i64 = node
            .open
            .iter()
            .zip(&self.black)
            .filter(|(&o, _)| o)
            .map(|(_, &b)| if b { 1 } else { -1 })
            .sum();
        // Balances from -range to range, stored at offset range.
        let range: usize = node
            .to_place
            .iter()
            .enumerate()
            .map(|(s, &n)| n as usize * self.sizes.get(s).copied().unwrap_or(0))
            .sum();
        if balance.unsigned_abs() as usize > range {
            return false;
        }
        self.sums.clear();
        self.sums.resize(2 * range + 1, false);
        self.sums[range] = true;
        for (s, &n) in node.to_place.iter().enumerate() {
            let Some(options) = self.balances.get(s) else {
                continue;
            };
            for _ in 0..n {
                self.next.clear();
                self.next.resize(2 * range + 1, false);
                for (v, _) in self.sums.iter().enumerate().filter(|(_, &r)| r) {
                    for &b in options {
                        let w = v as i64 + i64::from(b);
                        if (0..=2 * range as i64).contains(&w) {
                            self.next[w as usize] = true;
                        }
                    }
                }
                std::mem::swap(&mut self.sums, &mut self.next);
            }
        }
        self.sums[(balance + range as i64) as usize]
    }
}
