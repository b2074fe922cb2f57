//! Lowering: from the model to the IR the emitter prints. Every decision about a
//! generated solver is made here and recorded in the [`Ir`]: its word, the F stage's
//! backend (flat tables or one index function per cell), which cells choose each cell's
//! image list set and the set for every state of them, the E stage and the default
//! switch to F, the test for regions too small for any piece, the forms of the pruning
//! tests, and the narrower solver a wide one hands over to; so that emission is a plain
//! function of the IR. The measurements behind the choices are beside them.
//!
//! The search is FILA with the F heuristic: the target is always the first open cell in
//! fill order. Priority occupancy filtering (POF) follows: when cell `c` is the target
//! every cell before it is filled, so only images whose least cell is `c` can fill it.
//! Neighbour occupancy filtering (NOF) indexes each cell's lists by the state of the
//! neighbours that can still be open then (those after `c`), so no listed image meets
//! an occupied neighbour.

use std::collections::HashMap;

use crate::geometry::{offset, Coord};
use crate::model::Puzzle;
pub use runtime::fila::Isolation;

/// A set of cells: the generator's masks, for boxes of up to 512 open cells.
pub type Mask = runtime::word::Wide<8>;
const _: () = assert!(Mask::BITS == crate::limits::FILA_MAX_CELLS);

/// The occupancy word of a generated solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Word {
    U64,
    U128,
    /// `runtime::word::Wide` with this many 64-bit limbs.
    Wide(usize),
}

impl Word {
    pub fn bits(self) -> usize {
        match self {
            Word::U64 => 64,
            Word::U128 => 128,
            Word::Wide(limbs) => 64 * limbs,
        }
    }
}

/// A neighbour that can be open when its cell is the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Neighbour {
    pub cell: u16,
    pub direction: &'static str,
}

/// The images of one shape in one image list set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShapeList {
    pub shape: usize,
    /// Image numbers, in the model's order.
    pub images: Vec<usize>,
}

/// Everything the generated code does when one cell is the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellPlan {
    pub cell: u16,
    pub coord: Coord,
    /// The neighbours read by this cell's index function; bit k of the ILSI is the
    /// occupancy of `open_neighbours[k]`.
    pub open_neighbours: Vec<Neighbour>,
    /// One image list set per ILSI value: the non-empty lists, by shape.
    pub sets: Vec<Vec<ShapeList>>,
}

impl CellPlan {
    /// Neighbour state `ilsi` in words: `+x open, +y filled` (empty with no neighbour).
    pub fn state(&self, ilsi: usize) -> String {
        let words: Vec<String> = self
            .open_neighbours
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let filled = ilsi >> k & 1 == 1;
                format!("{} {}", n.direction, if filled { "filled" } else { "open" })
            })
            .collect();
        words.join(", ")
    }
}

/// The IR of one generated solver: every decision about the code is made here, and the
/// emitter only spells it.
#[derive(Clone, Debug)]
pub struct Ir {
    pub word: Word,
    pub cells: usize,
    /// The coordinates of each cell, in fill order (for the comments).
    pub coords: Vec<Coord>,
    /// Pieces to place in every solution.
    pub pieces: usize,
    /// Copies of each shape.
    pub shape_counts: Vec<usize>,
    /// The occupancy mask of every image.
    pub masks: Vec<Mask>,
    /// The shape of every image.
    pub image_shapes: Vec<usize>,
    /// How the F stage finds the image list set of the first open cell.
    pub f_stage: FStage,
    /// The neighbour relations as shifts of the occupancy word, when every one is (no
    /// stationary cell breaks the numbering): for each direction, the distance and the
    /// cells that have a neighbour there. Bit-parallel neighbour tests use them. Those
    /// toward lower cell numbers (`by < 0`) come first, so that a kernel knows each
    /// shift's way from its place in the list.
    pub shifts: Option<Vec<Shift>>,
    /// The test for open regions too small for any piece, run on every image that fits.
    pub isolation: Isolation,
    /// The default switch from E to F: the F heuristic when this many pieces or fewer
    /// are left (all of them when the solver has no E stage).
    pub f_from: usize,
    /// The E stage, when the solver has one: while more than `--f-from` pieces are left
    /// the target is chosen by the E heuristic, then by F.
    pub e_stage: Option<EStage>,
    /// The tables of the volume and parity backtracks.
    pub pruning: PruningTables,
    /// The solver of the last cells in a narrower word, which the search hands over to
    /// once every cell before them is filled.
    pub tail: Option<Box<Tail>>,
}

/// How the F stage finds the image list set of the first open cell.
#[derive(Clone, Debug)]
pub enum FStage {
    /// Flat tables indexed by the occupancy of chosen context cells, gathered with
    /// `pext`, and walked eight images at a time (64-bit words).
    Table(FTable),
    /// One index function per cell, reading the neighbours that can be open there, with a
    /// constant image list set per neighbour state (wider words, whose lists are walked
    /// one image at a time).
    Cells(Vec<CellPlan>),
}

/// The tables of the volume and parity backtracks (`-v N`, `-p`).
#[derive(Clone, Debug)]
pub struct PruningTables {
    /// The open cells around each image: a region its placement closes off touches it.
    pub halo: Vec<Mask>,
    /// Each cell's neighbours, for growing regions; empty where `shifts` do it.
    pub neighbours: Vec<Mask>,
    pub fillable: Fillable,
    /// The cells of one colour of the checkerboard (x + y + z even).
    pub black: Mask,
    /// For each shape, the distinct colour balances (black cells minus white cells) of
    /// its images, ascending; `None` when the pieces together range beyond +-63, past the
    /// parity test's 128-bit set of sums (never so in the literature).
    pub balances: Option<Vec<Vec<i32>>>,
}

/// Which region sizes the pieces left can fill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fillable {
    /// Every piece has this many cells.
    Multiple(u32),
    /// Sums of these sizes, one per shape, with the copies left.
    Sums(Vec<u32>),
}

/// A narrower solver for the cells `from..` of a wider one, in its own numbering (cell
/// `c` there is cell `from + c` here) but with this solver's image numbers.
#[derive(Clone, Debug)]
pub struct Tail {
    pub from: usize,
    pub ir: Ir,
}

/// Which narrower solvers a wide one hands over to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Tails {
    /// The widest each narrower word holds: a 128-bit solver's last 64 cells, a wider
    /// one's last 128 (and their last 64).
    #[default]
    Auto,
    /// None: the one word throughout.
    Off,
    /// Tails of these many cells, each in the narrowest word that holds it, each
    /// narrower than the last (for tests on small boxes).
    Cells(Vec<usize>),
}

impl Tails {
    /// Reads `--tails`: `none`, or the tails' sizes as `N[,M]`.
    pub fn parse(text: &str) -> Option<Tails> {
        if text == "none" {
            return Some(Tails::Off);
        }
        let sizes: Option<Vec<usize>> = text.split(',').map(|n| n.parse().ok()).collect();
        sizes.filter(|s| !s.is_empty()).map(Tails::Cells)
    }
}

/// How to lower a puzzle.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Use the F heuristic when this many pieces or fewer are left, E before.
    pub f_from: usize,
    /// Build the E stage even when F is used throughout.
    pub e_stage: bool,
    /// A word at least this many bits wide.
    pub word_bits: usize,
    pub tails: Tails,
    /// The F stage as flat tables whatever the word (the run-time engine, which has no
    /// per-cell code); else flat tables for 64-bit words and per-cell index functions
    /// for wider ones.
    pub flat: bool,
}

/// The narrowest word that holds `cells` cells, if one does.
fn word_for(cells: usize) -> Option<Word> {
    match cells {
        0..=64 => Some(Word::U64),
        65..=128 => Some(Word::U128),
        129..=Mask::BITS => Some(Word::Wide(cells.div_ceil(64))),
        _ => None,
    }
}

/// The most cells whose occupancy selects a cell's image list set in an [`FTable`].
/// Measured on 10x6 (interleaved runs, minimum): the two open neighbours of the FILA
/// article's index took 32.2 ms, the 6 to 7 cells after the target 29.3 to 28.9 ms, 4
/// chosen cells 29.3 ms and 6 chosen cells (3,444 sets) 28.0 ms; with the AVX-512 test, 5,
/// 6, 7 and 8 chosen cells all took 23.0 to 23.4 ms (Tetris Cube 2.53 to 2.57 s).
pub const CONTEXT_CELLS: usize = 6;

/// The F stage's image list sets as tables. NOF with a wider context than the open
/// neighbours of `CellPlan`: each cell's sets are indexed by the occupancy of the (at
/// most [`CONTEXT_CELLS`]) later cells that the most of its images (POF: those whose
/// least cell it is) cover, so that a set holds few images that cannot fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FTable {
    /// For each cell, its context cells as a mask; bit k of a set's index is the
    /// occupancy of the k-th lowest of them.
    pub context: Vec<Mask>,
    /// The first set of each cell (a cell with a context of k cells has 2^k), and one
    /// past the last cell's.
    pub set_base: Vec<u32>,
    /// Set t's images are `entries[index[t] .. index[t + 1]]`, by shape.
    pub index: Vec<u32>,
    /// The image numbers of the entries.
    pub entries: Vec<u16>,
}

impl FTable {
    /// Cell `c`'s sets, one per state of its context.
    pub fn sets(&self, c: usize) -> impl Iterator<Item = &[u16]> + '_ {
        (self.set_base[c]..self.set_base[c + 1]).map(|t| {
            let t = t as usize;
            &self.entries[self.index[t] as usize..self.index[t + 1] as usize]
        })
    }
}

/// The tables of the E heuristic of the FILA article: the target is, among the open cells
/// with the fewest open neighbours, the one where the fewest images fit. With no fixed
/// order there is no POF; NOF indexes each cell's lists by the state of all its
/// neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EStage {
    /// Use F when this many pieces or fewer are left.
    pub f_from: usize,
    /// Each cell's context: its neighbours (at most [`E_CONTEXT_CELLS`] of them), in
    /// ascending order (so that the index can be gathered from the word at once); bit k
    /// of the cell's index is the occupancy of `neighbours[c][k]`.
    pub neighbours: Vec<Vec<u16>>,
    /// The first image list set of each cell (a cell with a context of k has 2^k).
    pub set_base: Vec<u32>,
    /// Set t's images are `entries[index[t] .. index[t + 1]]`, by shape.
    pub index: Vec<u32>,
    /// The image numbers of the entries.
    pub entries: Vec<u16>,
}

/// A neighbour relation as a shift of the occupancy word: cell `c` in `from` has its
/// neighbour at `c + by`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shift {
    pub by: i32,
    pub from: Mask,
}

/// Why a puzzle cannot be generated (yet).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// The default heuristic switch: E while more than 3 pieces are left for boxes with depth
/// (the FILA article's best Tetris Cube setting), F throughout for flat ones, where
/// Fletcher's order is hard to beat.
pub fn default_f_from(puzzle: &Puzzle) -> usize {
    if puzzle.dims.iter().filter(|&&d| d > 1).count() == 3 {
        3
    } else {
        puzzle.mobile_pieces()
    }
}

/// Why `puzzle` is beyond the FILA solvers whatever the images (which the volume filter
/// may thin): the rule of [`crate::limits::Footprint::fila_refusal`].
pub fn beyond_limits(puzzle: &Puzzle) -> Option<Unsupported> {
    puzzle.footprint().fila_refusal().map(Unsupported)
}

/// Lowers `puzzle` to the IR of a FILA solver with POF and NOF that uses the F heuristic
/// when `options.f_from` or fewer pieces are left, and the E heuristic before. The E
/// stage is built when it is used, or always with `options.e_stage` (so that `--f-from`
/// can choose it at run time). The word is the narrowest that holds the box, or at least
/// `options.word_bits` wide; the search hands over to the narrower solvers of
/// `options.tails`.
pub fn lower(puzzle: &Puzzle, options: &Options) -> Result<Ir, Unsupported> {
    if let Some(why) = beyond_limits(puzzle) {
        return Err(why);
    }
    let cells = puzzle.cells.len();
    let word_bits = options.word_bits;
    // Wider boxes use several 64-bit limbs, up to the generator's own masks.
    let Some(word) = word_for(cells.max(word_bits)) else {
        return Err(Unsupported(format!(
            "--word-bits {word_bits}: words are at most {} bits wide",
            Mask::BITS
        )));
    };
    if puzzle.images.len() > u16::MAX as usize {
        return Err(Unsupported(format!(
            "the puzzle has {} images; FILA solvers handle at most 65535",
            puzzle.images.len()
        )));
    }
    let masks: Vec<Mask> = puzzle
        .images
        .iter()
        .map(|im| {
            im.cells
                .iter()
                .fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize))
        })
        .collect();
    // Images whose least cell is c: the only ones that can fill c when it is the first
    // open cell (POF).
    let mut by_first: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, im) in puzzle.images.iter().enumerate() {
        by_first[im.cells[0] as usize].push(i);
    }
    let shifts = neighbour_shifts(puzzle);
    let min_piece_size = puzzle.shapes.iter().map(|s| s.size).min().unwrap_or(0);
    let isolation = match &shifts {
        None => Isolation::None,
        Some(_) if min_piece_size < 2 || !puzzle.pieces_connected() => Isolation::None,
        // The pair test pays in the plane (10x6: 34.2 -> 32.0 ms) but not in 3-space,
        // where regions rarely close and the test has six directions (Tetris Cube: 3.3 ->
        // 3.8 s).
        Some(shifts) if min_piece_size >= 3 && shifts.len() <= 4 => Isolation::Pairs,
        Some(_) => Isolation::Cells,
    };
    let pieces = puzzle.mobile_pieces();
    let f_from = options.f_from.min(pieces);
    let e_stage =
        (options.e_stage || f_from < pieces).then(|| build_e_stage(puzzle, &masks, f_from));
    let f_stage = match word {
        Word::U64 => FStage::Table(f_table(puzzle, &by_first, &masks)),
        Word::U128 | Word::Wide(_) if options.flat => {
            FStage::Table(f_table(puzzle, &by_first, &masks))
        }
        Word::U128 | Word::Wide(_) => FStage::Cells(cell_plans(puzzle, &by_first, &masks)),
    };
    let pruning = pruning_tables(puzzle, &masks, shifts.is_some());
    let tail = tail(puzzle, options, word, e_stage.is_some())?;
    Ok(Ir {
        word,
        cells,
        coords: puzzle.cells.clone(),
        pieces,
        shape_counts: puzzle.shapes.iter().map(|s| s.count()).collect(),
        masks,
        image_shapes: puzzle.images.iter().map(|im| im.shape).collect(),
        f_stage,
        shifts,
        isolation,
        f_from: if e_stage.is_some() { f_from } else { pieces },
        e_stage,
        pruning,
        tail,
    })
}

/// The F stage as one index function per cell: the neighbours that can be open when the
/// cell is the target, and an image list set per state of them.
fn cell_plans(puzzle: &Puzzle, by_first: &[Vec<usize>], masks: &[Mask]) -> Vec<CellPlan> {
    let cells = puzzle.cells.len();
    let mut plans = Vec::with_capacity(cells);
    let geometry = puzzle.geometry();
    for (c, &coord) in puzzle.cells.iter().enumerate() {
        // In the order of the lattice's directions: on the cubic lattice -x, -y, -z, +x,
        // +y, +z, the order of the ILSI bits of the FILA article.
        let open_neighbours: Vec<Neighbour> = geometry
            .steps(coord)
            .iter()
            .zip(geometry.direction_names())
            .filter_map(|(&d, name)| {
                let n = puzzle.cell_of(offset(coord, d))?;
                // Cells before the target are filled (POF): their state is known.
                (n as usize > c).then_some(Neighbour {
                    cell: n,
                    direction: name,
                })
            })
            .collect();
        let mut sets = Vec::with_capacity(1 << open_neighbours.len());
        for ilsi in 0..1usize << open_neighbours.len() {
            let occupied: Mask = open_neighbours
                .iter()
                .enumerate()
                .filter(|(k, _)| ilsi >> k & 1 == 1)
                .fold(Mask::ZERO, |m, (_, n)| m | Mask::bit(n.cell as usize));
            let mut lists: Vec<ShapeList> = Vec::new();
            for &i in &by_first[c] {
                if masks[i] & occupied != Mask::ZERO {
                    continue;
                }
                let shape = puzzle.images[i].shape;
                match lists.iter_mut().find(|l| l.shape == shape) {
                    Some(l) => l.images.push(i),
                    None => lists.push(ShapeList {
                        shape,
                        images: vec![i],
                    }),
                }
            }
            lists.sort_by_key(|l| l.shape);
            sets.push(lists);
        }
        plans.push(CellPlan {
            cell: c as u16,
            coord,
            open_neighbours,
            sets,
        });
    }
    plans
}

/// The tables of the volume and parity backtracks.
fn pruning_tables(puzzle: &Puzzle, masks: &[Mask], shifts: bool) -> PruningTables {
    let neighbour_masks: Vec<Mask> = puzzle
        .neighbours()
        .iter()
        .map(|n| n.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize)))
        .collect();
    let halo = masks
        .iter()
        .zip(&puzzle.images)
        .map(|(&m, im)| {
            let around = im
                .cells
                .iter()
                .fold(Mask::ZERO, |h, &c| h | neighbour_masks[c as usize]);
            around & !m
        })
        .collect();
    let black = puzzle
        .cells
        .iter()
        .enumerate()
        .filter(|(_, &c)| puzzle.geometry().black(c))
        .fold(Mask::ZERO, |m, (k, _)| m | Mask::bit(k));
    let mut balances: Vec<Vec<i32>> = vec![Vec::new(); puzzle.shapes.len()];
    for (i, im) in puzzle.images.iter().enumerate() {
        let b = (masks[i] & black).count_ones() as i32;
        let balance = 2 * b - im.cells.len() as i32;
        if !balances[im.shape].contains(&balance) {
            balances[im.shape].push(balance);
        }
    }
    balances.iter_mut().for_each(|v| v.sort_unstable());
    // Colour balances must stay within +-63 for the 128-bit set of sums.
    let range: i32 = balances
        .iter()
        .zip(&puzzle.shapes)
        .map(|(b, s)| b.iter().map(|v| v.abs()).max().unwrap_or(0) * s.count() as i32)
        .sum();
    let sizes: Vec<u32> = puzzle.shapes.iter().map(|s| s.size as u32).collect();
    let fillable = match sizes.first() {
        // Every region is fillable as far as the backtrack can tell.
        _ if !puzzle.pieces_connected() => Fillable::Multiple(1),
        Some(&size) if sizes.iter().all(|&z| z == size) => Fillable::Multiple(size),
        None => Fillable::Multiple(1),
        Some(_) => Fillable::Sums(sizes),
    };
    PruningTables {
        halo,
        neighbours: if shifts { Vec::new() } else { neighbour_masks },
        fillable,
        black,
        balances: (range <= 63).then_some(balances),
    }
}

/// The narrower solver that a solver in `word` hands over to, as `options.tails` asks.
fn tail(
    puzzle: &Puzzle,
    options: &Options,
    word: Word,
    e_stage: bool,
) -> Result<Option<Box<Tail>>, Unsupported> {
    let cells = puzzle.cells.len();
    let (size, rest) = match &options.tails {
        Tails::Off => return Ok(None),
        // A box that a narrower word holds whole (in a wider word for measurement) keeps
        // its word.
        Tails::Auto => match word {
            Word::U128 if cells > 64 => (64, Tails::Auto),
            Word::Wide(_) if cells > 128 => (128, Tails::Auto),
            _ => return Ok(None),
        },
        Tails::Cells(sizes) => match sizes.split_first() {
            None => return Ok(None),
            Some((&size, rest)) => (size, Tails::Cells(rest.to_vec())),
        },
    };
    let narrower = word_for(size).filter(|w| w.bits() < word.bits());
    if size == 0 || size >= cells || narrower.is_none() {
        return Err(Unsupported(format!(
            "a tail of {size} cells: a tail must have fewer cells than the {cells} of the box and a narrower word than its {} bits",
            word.bits()
        )));
    }
    let from = cells - size;
    let (sub, numbers) = puzzle.tail(from);
    let mut ir = lower(
        &sub,
        &Options {
            f_from: options.f_from,
            e_stage,
            word_bits: 0,
            tails: rest,
            flat: options.flat,
        },
    )?;
    ir.renumber(&numbers, puzzle.images.len());
    Ok(Some(Box::new(Tail { from, ir })))
}

impl Ir {
    /// Gives image `i` the number `numbers[i]` of `total`, in this solver and its tails.
    fn renumber(&mut self, numbers: &[usize], total: usize) {
        let mut masks = vec![Mask::ZERO; total];
        let mut shapes = vec![0; total];
        // Images that never lie in the tail have no mask and no halo here.
        let mut halo = vec![Mask::ZERO; total];
        for (i, &n) in numbers.iter().enumerate() {
            masks[n] = self.masks[i];
            shapes[n] = self.image_shapes[i];
            halo[n] = self.pruning.halo[i];
        }
        self.masks = masks;
        self.image_shapes = shapes;
        self.pruning.halo = halo;
        match &mut self.f_stage {
            FStage::Cells(plans) => {
                for list in plans.iter_mut().flat_map(|p| p.sets.iter_mut().flatten()) {
                    list.images.iter_mut().for_each(|i| *i = numbers[*i]);
                }
            }
            FStage::Table(ft) => {
                for i in &mut ft.entries {
                    *i = numbers[*i as usize] as u16;
                }
            }
        }
        if let Some(e) = &mut self.e_stage {
            e.entries
                .iter_mut()
                .for_each(|i| *i = numbers[*i as usize] as u16);
        }
        if let Some(tail) = &mut self.tail {
            tail.ir.renumber(numbers, total);
        }
    }
}

/// The neighbour relation as shifts of the cell numbers: for each direction and each kind
/// of cell, the cells with a neighbour that way must all find it the same distance along
/// (else `None`: the numbering is broken by stationary cells). Directions at the same
/// distance share one shift; on the cubic lattice that is one shift per direction. Those
/// toward lower numbers come first, each way in the order of the directions.
fn neighbour_shifts(puzzle: &Puzzle) -> Option<Vec<Shift>> {
    let geometry = puzzle.geometry();
    let directions = geometry.direction_names().len();
    let mut shifts: Vec<Shift> = Vec::new();
    for d in 0..directions {
        // The distance for each kind of cell (up and down triangles differ).
        let mut by: HashMap<usize, i32> = HashMap::new();
        for (c, &coord) in puzzle.cells.iter().enumerate() {
            let Some(n) = puzzle.cell_of(offset(coord, geometry.steps(coord)[d])) else {
                continue;
            };
            let delta = n as i32 - c as i32;
            if *by.entry(geometry.kind(coord)).or_insert(delta) != delta {
                return None;
            }
            match shifts.iter_mut().find(|s| s.by == delta) {
                Some(s) => s.from |= Mask::bit(c),
                None => shifts.push(Shift {
                    by: delta,
                    from: Mask::bit(c),
                }),
            }
        }
    }
    shifts.sort_by_key(|s| s.by > 0);
    Some(shifts)
}

/// Which of `cells` the image of `mask` covers, as bits in their order: the states of a
/// set's context in which the image is in the set are those with none of these bits.
fn context_bits(mask: &Mask, cells: &[u16]) -> usize {
    cells
        .iter()
        .enumerate()
        .fold(0, |bits, (k, &d)| bits | mask.bit_at(d as u32) << k)
}

/// The most neighbours an E set's index reads. A cell with more (12 on the packed
/// spheres) would need 4096 sets; its context is the neighbours covered by the most of
/// its images, which tell the most about which of them can fit, and the fit test does
/// the rest.
pub const E_CONTEXT_CELLS: usize = 8;

/// Appends the sets of a cell whose context has `k` cells, one per state, to `entries`
/// (each set's start to `index`): the set of a state holds the images of `order` (image,
/// bits) whose bits meet none of the state's, in `order`'s order. Each set is its
/// parent's (the state less its highest bit) less the images that meet that bit, so the
/// work is about the size of the sets rather than `order`'s length for every state;
/// `scratch` keeps the bits of the cell's entries.
fn state_sets(
    order: &[(u16, u16)],
    k: usize,
    index: &mut Vec<u32>,
    entries: &mut Vec<u16>,
    scratch: &mut Vec<u16>,
) {
    let first = entries.len();
    let bits = scratch;
    bits.clear();
    // Each image is in the sets of the states that meet none of its bits.
    let total: usize = order
        .iter()
        .map(|&(_, b)| 1 << (k - b.count_ones() as usize))
        .sum();
    entries.reserve(total);
    bits.reserve(total);
    entries.extend(order.iter().map(|&(i, _)| i));
    bits.extend(order.iter().map(|&(_, b)| b));
    let mut starts = Vec::with_capacity((1 << k) + 1);
    starts.push(first);
    starts.push(entries.len());
    for state in 1..1usize << k {
        let high = 1u16 << state.ilog2();
        let parent = state ^ usize::from(high);
        let (from, to) = (starts[parent] - first, starts[parent + 1] - first);
        let start = entries.len() - first;
        entries.resize(first + start + (to - from), 0);
        bits.resize(start + (to - from), 0);
        let (done, fresh) = entries[first..].split_at_mut(start);
        let (done_bits, fresh_bits) = bits.split_at_mut(start);
        // Without a branch to mispredict: each entry is copied, and kept by moving on.
        let mut n = 0;
        for (&image, &b) in done[from..to].iter().zip(&done_bits[from..to]) {
            fresh[n] = image;
            fresh_bits[n] = b;
            n += usize::from(b & high == 0);
        }
        entries.truncate(first + start + n);
        bits.truncate(start + n);
        starts.push(first + start + n);
    }
    index.extend(starts[..1 << k].iter().map(|&s| s as u32));
}

fn build_e_stage(puzzle: &Puzzle, masks: &[Mask], f_from: usize) -> EStage {
    let cells = puzzle.cells.len();
    // The images covering each cell.
    let mut covering: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, im) in puzzle.images.iter().enumerate() {
        for &c in &im.cells {
            covering[c as usize].push(i);
        }
    }
    let neighbours: Vec<Vec<u16>> = puzzle
        .neighbours()
        .into_iter()
        .enumerate()
        .map(|(c, mut n)| {
            if n.len() > E_CONTEXT_CELLS {
                // Most covered first, then nearest in cell order.
                let covered = |d: u16| {
                    covering[c]
                        .iter()
                        .filter(|&&i| masks[i].bit_at(u32::from(d)) != 0)
                        .count()
                };
                n.sort_by_cached_key(|&d| (std::cmp::Reverse(covered(d)), d.abs_diff(c as u16)));
                n.truncate(E_CONTEXT_CELLS);
            }
            n.sort_unstable();
            n
        })
        .collect();
    let mut set_base = Vec::with_capacity(cells + 1);
    let mut total = 0u32;
    for n in &neighbours {
        set_base.push(total);
        total += 1 << n.len();
    }
    set_base.push(total);
    let mut index = Vec::with_capacity(total as usize + 1);
    let mut entries = Vec::new();
    let mut scratch = Vec::new();
    for c in 0..cells {
        // Each covering image's state bits: bit k when it covers neighbour k. An image is
        // in the set of a state when it covers none of the cells the state fills.
        // By shape, then image number.
        let mut covers: Vec<(u16, u16)> = covering[c]
            .iter()
            .map(|&i| (i as u16, context_bits(&masks[i], &neighbours[c]) as u16))
            .collect();
        covers.sort_by_key(|&(i, _)| (puzzle.images[i as usize].shape, i));
        state_sets(
            &covers,
            neighbours[c].len(),
            &mut index,
            &mut entries,
            &mut scratch,
        );
    }
    index.push(entries.len() as u32);
    EStage {
        f_from,
        neighbours,
        set_base,
        index,
        entries,
    }
}

fn f_table(puzzle: &Puzzle, by_first: &[Vec<usize>], masks: &[Mask]) -> FTable {
    let cells = puzzle.cells.len();
    let mut context = Vec::with_capacity(cells);
    let mut set_base = Vec::with_capacity(cells + 1);
    let mut index = Vec::new();
    let mut entries = Vec::new();
    let (mut covered, mut scratch) = (vec![0usize; cells], Vec::new());
    for (c, images) in by_first.iter().enumerate() {
        // The later cells by how many of the cell's images cover them, most first.
        covered.iter_mut().for_each(|n| *n = 0);
        for &i in images {
            for &d in &puzzle.images[i].cells {
                covered[d as usize] += 1;
            }
        }
        let mut counts: Vec<(usize, usize)> = ((c + 1)..cells)
            .map(|d| (covered[d], d))
            .filter(|&(n, _)| n > 0)
            .collect();
        counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut chosen: Vec<u16> = counts
            .iter()
            .take(CONTEXT_CELLS)
            .map(|&(_, d)| d as u16)
            .collect();
        chosen.sort_unstable();
        let mut order: Vec<(u16, u16)> = images
            .iter()
            .map(|&i| (i as u16, context_bits(&masks[i], &chosen) as u16))
            .collect();
        order.sort_by_key(|&(i, _)| (puzzle.images[i as usize].shape, i));
        set_base.push(index.len() as u32);
        state_sets(&order, chosen.len(), &mut index, &mut entries, &mut scratch);
        context.push(
            chosen
                .iter()
                .fold(Mask::ZERO, |m, &d| m | Mask::bit(d as usize)),
        );
    }
    set_base.push(index.len() as u32);
    index.push(entries.len() as u32);
    FTable {
        context,
        set_base,
        index,
        entries,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every puzzle of the repository (those that generate), by file name.
    fn puzzles() -> Vec<(String, Puzzle)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut out = Vec::new();
        for dir in ["puzzles", "tests/puzzles", "tests/ui/puzzles"] {
            let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
                .unwrap()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect();
            files.sort();
            for file in files {
                let text = std::fs::read_to_string(&file).unwrap();
                let label = file.display().to_string();
                if let Ok(mut loaded) = crate::load(&label, &text) {
                    if loaded.len() == 1 {
                        out.push((label, loaded.remove(0)));
                    }
                }
            }
        }
        assert!(out.len() >= 10, "the puzzles of the repository load");
        out
    }

    fn mask_of(puzzle: &Puzzle, i: usize) -> Mask {
        puzzle.images[i]
            .cells
            .iter()
            .fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize))
    }

    /// The images whose first cell is `c` (POF), in the order the sets keep: by shape.
    fn pof(puzzle: &Puzzle, c: usize) -> Vec<usize> {
        let mut images: Vec<usize> = (0..puzzle.images.len())
            .filter(|&i| puzzle.images[i].cells[0] as usize == c)
            .collect();
        images.sort_by_key(|&i| (puzzle.images[i].shape, i));
        images
    }

    /// Each set holds exactly the images of POF that meet no context cell its state
    /// fills (NOF): state 0 is the whole POF list.
    fn check_sets(puzzle: &Puzzle, c: usize, context: &[usize], sets: &[Vec<usize>]) {
        assert_eq!(sets.len(), 1 << context.len());
        let all = pof(puzzle, c);
        assert_eq!(sets[0], all, "cell {c}: state 0 is the POF list");
        for (state, set) in sets.iter().enumerate() {
            let occupied = context
                .iter()
                .enumerate()
                .filter(|(k, _)| state >> k & 1 == 1)
                .fold(Mask::ZERO, |m, (_, &d)| m | Mask::bit(d));
            let expected: Vec<usize> = all
                .iter()
                .copied()
                .filter(|&i| mask_of(puzzle, i) & occupied == Mask::ZERO)
                .collect();
            assert_eq!(set, &expected, "cell {c} state {state}");
        }
    }

    fn lowered(puzzle: &Puzzle, word_bits: usize, tails: Tails, flat: bool) -> Ir {
        lower(
            puzzle,
            &Options {
                f_from: puzzle.mobile_pieces(),
                e_stage: false,
                word_bits,
                tails,
                flat,
            },
        )
        .unwrap()
    }

    /// Every puzzle's shifts come in opposite pairs, those toward lower cell numbers
    /// first: the kernels take the first half to shift up and the second down
    /// (`runtime::fila::lower_first`). The cells with a neighbour `by` along are those
    /// `by` along from the cells with one `-by` along.
    #[test]
    fn shifts_come_in_opposite_pairs_the_lower_first() {
        let mut seen = 0;
        for (label, puzzle) in puzzles() {
            let Some(shifts) = neighbour_shifts(&puzzle) else {
                continue;
            };
            seen += 1;
            let half = shifts.len() / 2;
            assert_eq!(shifts.len(), 2 * half, "{label}");
            for (k, s) in shifts.iter().enumerate() {
                assert_eq!(s.by < 0, k < half, "{label}: shift {k} ({})", s.by);
                let opposite = shifts.iter().find(|o| o.by == -s.by);
                let opposite = opposite.unwrap_or_else(|| panic!("{label}: no shift {}", -s.by));
                let moved = (0..puzzle.cells.len())
                    .filter(|&c| opposite.from.bit_at(c as u32) == 1)
                    .fold(Mask::ZERO, |m, c| m | Mask::bit((c as i32 - s.by) as usize));
                assert_eq!(moved, s.from, "{label}: shift {}", s.by);
            }
        }
        assert!(seen >= 10, "the puzzles with shifts");
    }

    /// The F stage of every puzzle, in its own word and in a 128-bit one (per-cell
    /// functions, or flat tables as the run-time engine has them): every set avoids the
    /// cells its state fills and misses no image.
    #[test]
    fn every_set_is_its_cell_s_pof_list_less_what_its_state_fills() {
        for (label, puzzle) in puzzles() {
            for (word_bits, flat) in [(0, false), (128, false), (128, true)] {
                if puzzle.cells.len() > 128 && word_bits == 128 {
                    continue;
                }
                let ir = lowered(&puzzle, word_bits, Tails::Off, flat);
                match &ir.f_stage {
                    FStage::Table(ft) => {
                        for c in 0..ir.cells {
                            let sets: Vec<Vec<usize>> = ft
                                .sets(c)
                                .map(|set| set.iter().map(|&i| i as usize).collect())
                                .collect();
                            let context: Vec<usize> = (0..ir.cells)
                                .filter(|&d| ft.context[c].bit_at(d as u32) == 1)
                                .collect();
                            assert!(context.len() <= CONTEXT_CELLS, "{label}");
                            assert!(context.iter().all(|&d| d > c), "{label}: later cells");
                            check_sets(&puzzle, c, &context, &sets);
                        }
                    }
                    FStage::Cells(plans) => {
                        for plan in plans {
                            let c = plan.cell as usize;
                            let context: Vec<usize> = plan
                                .open_neighbours
                                .iter()
                                .map(|n| n.cell as usize)
                                .collect();
                            let sets: Vec<Vec<usize>> = plan
                                .sets
                                .iter()
                                .map(|lists| {
                                    lists
                                        .iter()
                                        .flat_map(|l| l.images.iter().copied())
                                        .collect()
                                })
                                .collect();
                            check_sets(&puzzle, c, &context, &sets);
                        }
                    }
                }
            }
        }
    }

    /// A tail's images are renumbered one to one onto the images that lie in its cells,
    /// with the same cells (shifted) and shapes. `ir`'s cell 0 is the puzzle's `offset`.
    fn check_tail(puzzle: &Puzzle, ir: &Ir, offset: usize) {
        let Some(tail) = &ir.tail else { return };
        let from = offset + tail.from;
        let mut seen = vec![false; puzzle.images.len()];
        for (i, image) in puzzle.images.iter().enumerate() {
            let inside = image.cells[0] as usize >= from;
            let shifted = if inside {
                image
                    .cells
                    .iter()
                    .fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize - from))
            } else {
                Mask::ZERO
            };
            assert_eq!(tail.ir.masks[i], shifted, "{}: image {i}", puzzle.name);
            if inside {
                assert_eq!(tail.ir.image_shapes[i], image.shape);
                seen[i] = true;
            }
        }
        if let FStage::Table(ft) = &tail.ir.f_stage {
            for &i in &ft.entries {
                assert!(
                    seen[i as usize],
                    "the tail lists only images that lie in it"
                );
            }
        }
        check_tail(puzzle, &tail.ir, from);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Tails of any size renumber their images one to one, on every puzzle wide
        /// enough to have one.
        #[test]
        fn tails_renumber_their_images_one_to_one(k in 0usize..100, size in 8usize..64) {
            let puzzles: Vec<(String, Puzzle)> =
                puzzles().into_iter().filter(|(_, p)| p.cells.len() > 64).collect();
            let (_, puzzle) = &puzzles[k % puzzles.len()];
            let size = size.min(puzzle.cells.len() - 1);
            let ir = lowered(puzzle, 0, Tails::Cells(vec![size]), false);
            check_tail(puzzle, &ir, 0);
            let auto = lowered(puzzle, 0, Tails::Auto, true);
            check_tail(puzzle, &auto, 0);
        }
    }
}
