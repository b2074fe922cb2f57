//! How big a puzzle fila takes, and what it does with a bigger one: the hard limits of its
//! numbering, and the memory limit (`fila solve --max-memory`), checked against an
//! estimate made before anything big is built.
//!
//! A box has at most [`crate::parse::MAX_CELLS`] cells (the reader refuses more), so a
//! puzzle has at most that many pieces too (their volume is the box's). What grows past
//! any box is the images, the placements of the pieces: a piece of a thousand cells in a
//! long box has thousands of placements of a thousand cells each. So the model counts the
//! images and their cells before it builds them ([`Footprint`]), and refuses more than
//! [`MAX_IMAGES`] images, or more memory than the limit, without allocating them.

use std::fmt;

/// Images are numbered with 16 bits in every engine.
pub const MAX_IMAGES: usize = u16::MAX as usize;

/// The most open cells the FILA engine and the generated solvers take (their widest word;
/// `lower` checks that its masks are this wide).
pub const FILA_MAX_CELLS: usize = 512;
/// The most pieces they place (the levels of their search).
pub const FILA_MAX_PIECES: usize = runtime::fila::MAX_PIECES;
/// The most shapes they tell apart (a bit each in a 64-bit word).
pub const FILA_MAX_SHAPES: usize = 64;

/// The memory a puzzle may need unless `--max-memory` says otherwise.
pub const DEFAULT_MAX_MEMORY: u64 = 8 << 30;

/// The limits a puzzle is checked against before it is built and solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Bytes the model and the engine's tables of one puzzle may take.
    pub max_memory: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

/// The size of a puzzle's model, counted before the images are built.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Footprint {
    /// Open cells of the box.
    pub cells: u64,
    /// Images (placements of the shapes).
    pub images: u64,
    /// Cells of all the images together.
    pub image_cells: u64,
    /// Mobile pieces.
    pub pieces: u64,
    /// Shapes (the mobile pieces up to congruence).
    pub shapes: u64,
}

/// Bytes per image and per image cell of the model (the images with their index, and
/// the runtime's description), measured with `VmHWM` on boxes of 2 x N filled by long
/// rectangles and on random 12-cell pieces (README, "How big a puzzle"), with room to spare.
const MODEL_PER_IMAGE: u64 = 160;
const MODEL_PER_IMAGE_CELL: u64 = 16;
/// Bytes per open cell: the grid, and the cell maps of up to 48 symmetries, twice.
const MODEL_PER_CELL: u64 = 256;
/// What every run takes before the puzzle: the executable, the allocator, the threads.
const BASE: u64 = 16 << 20;
/// Dancing links: one node of six 32-bit links per image cell, the runtime's copy of the
/// images, and the growth of the vectors as they are built (75 bytes measured).
const DLX_PER_IMAGE_CELL: u64 = 80;
const DLX_PER_IMAGE: u64 = 64;
/// The FILA engine (at most 512 cells): each image's 64-byte mask in the lowering, and
/// in the lists of the cells it can be placed from, one per neighbour pattern it fits.
const FILA_PER_IMAGE: u64 = 1024;
const FILA_PER_CELL: u64 = 64 << 10;

/// An engine: the one a run uses (`fila solve --engine`), and whose tables are estimated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Dancing links.
    Dlx,
    /// The run-time FILA engine.
    Fila,
}

impl Footprint {
    /// Bytes the model takes once its images are built.
    pub fn model_bytes(&self) -> u64 {
        BASE.saturating_add(self.images.saturating_mul(MODEL_PER_IMAGE))
            .saturating_add(self.image_cells.saturating_mul(MODEL_PER_IMAGE_CELL))
            .saturating_add(self.cells.saturating_mul(MODEL_PER_CELL))
    }

    /// Bytes a run of `engine` takes at its peak: the model, the runtime's description
    /// and the engine's tables.
    pub fn run_bytes(&self, engine: Engine) -> u64 {
        let tables = match engine {
            Engine::Dlx => self
                .image_cells
                .saturating_mul(DLX_PER_IMAGE_CELL)
                .saturating_add(self.images.saturating_mul(DLX_PER_IMAGE)),
            // Each image's mask, in the lists of the cells it can be placed from (one
            // per neighbour pattern it fits), and in the E stage's lists.
            Engine::Fila => self
                .images
                .saturating_mul(FILA_PER_IMAGE)
                .saturating_add(self.cells.saturating_mul(FILA_PER_CELL)),
        };
        self.model_bytes().saturating_add(tables)
    }

    /// Why the FILA engine and the generated solvers do not take the puzzle, if they do
    /// not: more than [`FILA_MAX_CELLS`] open cells, [`FILA_MAX_PIECES`] pieces or
    /// [`FILA_MAX_SHAPES`] shapes, or no piece to place. The one statement of the rule.
    pub fn fila_refusal(&self) -> Option<String> {
        let Footprint {
            cells,
            pieces,
            shapes,
            ..
        } = *self;
        if pieces == 0 {
            // A solution written as a definition (`-f F`) places every piece: there is
            // nothing to search, and `fila solve` lists it from dancing links' empty search.
            Some("the puzzle has no mobile pieces: its stationary pieces are its one solution (`fila solve` lists it)".to_string())
        } else if cells > FILA_MAX_CELLS as u64 {
            Some(format!("the puzzle has {cells} open cells; FILA solvers handle at most {FILA_MAX_CELLS} (`fila solve` solves it by dancing links)"))
        } else if pieces > FILA_MAX_PIECES as u64 {
            Some(format!(
                "the puzzle has {pieces} pieces; FILA solvers place at most {FILA_MAX_PIECES}"
            ))
        } else if shapes > FILA_MAX_SHAPES as u64 {
            Some(format!("the puzzle has {shapes} distinct shapes; FILA solvers handle at most {FILA_MAX_SHAPES}"))
        } else {
            None
        }
    }

    /// Whether the FILA engine takes the puzzle ([`Footprint::fila_refusal`]).
    pub fn fila_takes(&self) -> bool {
        self.fila_refusal().is_none()
    }

    /// The least memory any engine that can take the puzzle needs: dancing links takes
    /// every puzzle, the FILA engine those it takes ([`Footprint::fila_takes`]).
    pub fn least_run_bytes(&self) -> u64 {
        let dlx = self.run_bytes(Engine::Dlx);
        if self.fila_takes() {
            dlx.min(self.run_bytes(Engine::Fila))
        } else {
            dlx
        }
    }
}

/// A size for people: `1.5 GiB`, `640 MiB`, `12 KiB`, `100 bytes`.
pub struct Bytes(pub u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let units = [
            (1u64 << 40, "TiB"),
            (1 << 30, "GiB"),
            (1 << 20, "MiB"),
            (1 << 10, "KiB"),
        ];
        for (unit, name) in units {
            if self.0 >= unit {
                let value = self.0 as f64 / unit as f64;
                return if value >= 100.0 {
                    write!(f, "{value:.0} {name}")
                } else {
                    write!(f, "{value:.1} {name}")
                };
            }
        }
        write!(f, "{} bytes", self.0)
    }
}

pub use runtime::options::parse_size;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_written_for_people() {
        assert_eq!(Bytes(100).to_string(), "100 bytes");
        assert_eq!(Bytes(1536).to_string(), "1.5 KiB");
        assert_eq!(Bytes(640 << 20).to_string(), "640 MiB");
        assert_eq!(Bytes(3 << 29).to_string(), "1.5 GiB");
    }

    #[test]
    fn estimates_grow_with_the_images_and_saturate() {
        let small = Footprint {
            cells: 60,
            images: 2056,
            image_cells: 10280,
            pieces: 12,
            shapes: 12,
        };
        let big = Footprint {
            image_cells: 400_000_000,
            ..small
        };
        assert!(small.run_bytes(Engine::Dlx) < 64 << 20);
        assert!(big.run_bytes(Engine::Dlx) > 16 << 30);
        assert!(big.model_bytes() < big.run_bytes(Engine::Dlx));
        let huge = Footprint {
            images: u64::MAX,
            ..big
        };
        assert_eq!(huge.run_bytes(Engine::Fila), u64::MAX);
    }

    /// Where the FILA engine would need less than dancing links, the least counts it only
    /// for a puzzle it takes.
    #[test]
    fn the_least_counts_only_an_engine_that_takes_the_puzzle() {
        let long = Footprint {
            cells: 64,
            images: 10_000,
            image_cells: 100_000_000,
            pieces: 60,
            shapes: 1,
        };
        assert!(long.run_bytes(Engine::Fila) < long.run_bytes(Engine::Dlx));
        assert_eq!(long.least_run_bytes(), long.run_bytes(Engine::Fila));
        for beyond in [
            Footprint { cells: 513, ..long },
            Footprint { pieces: 64, ..long },
            Footprint { shapes: 65, ..long },
            Footprint { pieces: 0, ..long },
        ] {
            assert!(!beyond.fila_takes());
            assert_eq!(beyond.least_run_bytes(), beyond.run_bytes(Engine::Dlx));
        }
    }
}
