//! Lowering: from the model to the IR the emitter prints. Every specialisation decision
//! is made here — the fill order, which neighbours each cell's index function reads,
//! and the image list set for every cell and neighbour state — so that emission is a
//! plain function of the IR.
//!
//! The search is FILA with the F heuristic: the target is always the first open cell in
//! fill order. Priority occupancy filtering (POF) follows: when cell `c` is the target
//! every cell before it is filled, so only images whose least cell is `c` can fill it.
//! Neighbour occupancy filtering (NOF) indexes each cell's lists by the state of the
//! neighbours that can still be open then (those after `c`), so no listed image meets
//! an occupied neighbour.

use crate::geometry::Coord;
use crate::model::Puzzle;

/// A set of cells: the generator's masks, for boxes of up to 512 open cells.
pub type Mask = runtime::word::Wide<8>;

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

/// The six axis directions, in the order of the ILSI bits of the FILA article
/// (-x, -y, -z, +x, +y, +z); the names are used in comments.
pub const DIRECTIONS: [(Coord, &str); 6] = [
    ([-1, 0, 0], "-x"),
    ([0, -1, 0], "-y"),
    ([0, 0, -1], "-z"),
    ([1, 0, 0], "+x"),
    ([0, 1, 0], "+y"),
    ([0, 0, 1], "+z"),
];

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

/// The IR of one generated solver.
#[derive(Clone, Debug)]
pub struct Ir {
    pub word: Word,
    pub cells: usize,
    /// Copies of each shape.
    pub shape_counts: Vec<usize>,
    /// The occupancy mask of every image.
    pub masks: Vec<Mask>,
    /// The shape of every image.
    pub image_shapes: Vec<usize>,
    /// The size of the smallest piece.
    pub min_piece_size: usize,
    pub plans: Vec<CellPlan>,
    /// The neighbour relations as shifts of the occupancy word, when every one is (no
    /// stationary cell breaks the numbering): for each direction, the distance and the
    /// cells that have a neighbour there. Bit-parallel neighbour tests use them.
    pub shifts: Option<Vec<Shift>>,
    /// Whether an open cell with no open neighbour ends the branch (no shape is a single
    /// cell). Tested after each placement, with `shifts`.
    pub isolation_check: bool,
    /// The E stage, when the puzzle uses it: while more than `f_from` pieces are left the
    /// target is chosen by the E heuristic, then by F.
    pub e_stage: Option<EStage>,
    /// Each cell's neighbours, as a mask (for the volume backtrack's flood fill).
    pub neighbour_masks: Vec<Mask>,
    /// The size of each shape.
    pub shape_sizes: Vec<usize>,
    /// The cells of one colour of the checkerboard (x + y + z even).
    pub black: Mask,
    /// For each shape, the distinct colour balances (black cells minus white cells) of
    /// its images, ascending.
    pub shape_balances: Vec<Vec<i32>>,
    /// The F stage as flat tables, for 64-bit words (else `plans` are emitted as one
    /// function per cell).
    pub f_table: Option<FTable>,
    /// The solver of the last cells in a narrower word, which the search hands over to
    /// once every cell before them is filled.
    pub tail: Option<Box<Tail>>,
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
    /// For each cell, one set per context state: image numbers, by shape.
    pub sets: Vec<Vec<Vec<usize>>>,
}

/// The tables of the E heuristic of the FILA article: the target is, among the open cells
/// with the fewest open neighbours, the one where the fewest images fit. With no fixed
/// order there is no POF; NOF indexes each cell's lists by the state of all its
/// neighbours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EStage {
    /// Use F when this many pieces or fewer are left.
    pub f_from: usize,
    /// Each cell's neighbours, in ascending order (so that the index can be gathered
    /// from the word at once); bit k of the cell's index is the occupancy of
    /// `neighbours[c][k]`.
    pub neighbours: Vec<Vec<u16>>,
    /// The first image list set of each cell (a cell with k neighbours has 2^k).
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

/// Lowers `puzzle` to the IR of a FILA solver with POF and NOF that uses the F heuristic
/// when `options.f_from` or fewer pieces are left, and the E heuristic before. The E
/// stage is built when it is used, or always with `options.e_stage` (so that `--f-from`
/// can choose it at run time). The word is the narrowest that holds the box, or at least
/// `options.word_bits` wide; the search hands over to the narrower solvers of
/// `options.tails`.
pub fn lower(puzzle: &Puzzle, options: &Options) -> Result<Ir, Unsupported> {
    let cells = puzzle.cells.len();
    let word_bits = options.word_bits;
    // Wider boxes use several 64-bit limbs, up to the generator's own masks.
    let word = match word_for(cells.max(word_bits)) {
        Some(word) => word,
        None if cells <= Mask::BITS => {
            return Err(Unsupported(format!(
                "--word-bits {word_bits}: words are at most {} bits wide",
                Mask::BITS
            )))
        }
        None => {
            return Err(Unsupported(format!(
                "the puzzle has {cells} open cells; generated solvers handle at most {} (use `fila solve`)",
                Mask::BITS
            )))
        }
    };
    let f_from = options.f_from;
    if puzzle.mobile_pieces() > 63 {
        return Err(Unsupported(format!(
            "the puzzle has {} pieces; generated solvers place at most 63",
            puzzle.mobile_pieces()
        )));
    }
    if puzzle.images.len() > u16::MAX as usize {
        return Err(Unsupported(format!(
            "the puzzle has {} images; generated solvers handle at most 65535",
            puzzle.images.len()
        )));
    }
    if puzzle.shapes.len() > 64 {
        return Err(Unsupported(format!(
            "the puzzle has {} distinct shapes; generated solvers handle at most 64",
            puzzle.shapes.len()
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
    let dims = puzzle.dims;
    let cell_of = |c: Coord| -> Option<u16> {
        if (0..3).all(|i| c[i] >= 0 && (c[i] as usize) < dims[i]) {
            puzzle.cell_at[c[0] as usize + dims[0] * (c[1] as usize + dims[1] * c[2] as usize)]
        } else {
            None
        }
    };
    // Images whose least cell is c: the only ones that can fill c when it is the first
    // open cell (POF).
    let mut by_first: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, im) in puzzle.images.iter().enumerate() {
        by_first[im.cells[0] as usize].push(i);
    }
    let mut plans = Vec::with_capacity(cells);
    for (c, &coord) in puzzle.cells.iter().enumerate() {
        let open_neighbours: Vec<Neighbour> = DIRECTIONS
            .iter()
            .filter_map(|&(d, name)| {
                let n = cell_of([coord[0] + d[0], coord[1] + d[1], coord[2] + d[2]])?;
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
    let shifts = neighbour_shifts(puzzle, &cell_of);
    let isolation_check = shifts.is_some() && puzzle.shapes.iter().all(|s| s.size > 1);
    let f_from = f_from.min(puzzle.mobile_pieces());
    let e_stage = (options.e_stage || f_from < puzzle.mobile_pieces())
        .then(|| build_e_stage(puzzle, &cell_of, &masks, f_from));
    let neighbour_masks: Vec<Mask> = puzzle
        .cells
        .iter()
        .map(|&coord| {
            DIRECTIONS
                .iter()
                .filter_map(|&(d, _)| cell_of([coord[0] + d[0], coord[1] + d[1], coord[2] + d[2]]))
                .fold(Mask::ZERO, |m, n| m | Mask::bit(n as usize))
        })
        .collect();
    let black = puzzle
        .cells
        .iter()
        .enumerate()
        .filter(|(_, c)| (c[0] + c[1] + c[2]).rem_euclid(2) == 0)
        .fold(Mask::ZERO, |m, (k, _)| m | Mask::bit(k));
    let mut shape_balances: Vec<Vec<i32>> = vec![Vec::new(); puzzle.shapes.len()];
    for (i, im) in puzzle.images.iter().enumerate() {
        let b = (masks[i] & black).count_ones() as i32;
        let balance = 2 * b - im.cells.len() as i32;
        if !shape_balances[im.shape].contains(&balance) {
            shape_balances[im.shape].push(balance);
        }
    }
    shape_balances.iter_mut().for_each(|v| v.sort_unstable());
    let f_table = (word == Word::U64).then(|| f_table(puzzle, &by_first, &masks));
    let tail = tail(puzzle, options, word, e_stage.is_some())?;
    Ok(Ir {
        tail,
        f_table,
        word,
        cells,
        shape_counts: puzzle.shapes.iter().map(|s| s.count()).collect(),
        masks,
        image_shapes: puzzle.images.iter().map(|im| im.shape).collect(),
        min_piece_size: puzzle.shapes.iter().map(|s| s.size).min().unwrap_or(0),
        plans,
        shifts,
        isolation_check,
        e_stage,
        neighbour_masks,
        shape_sizes: puzzle.shapes.iter().map(|s| s.size).collect(),
        black,
        shape_balances,
    })
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
        for (i, &n) in numbers.iter().enumerate() {
            masks[n] = self.masks[i];
            shapes[n] = self.image_shapes[i];
        }
        self.masks = masks;
        self.image_shapes = shapes;
        for plan in &mut self.plans {
            for list in plan.sets.iter_mut().flatten() {
                list.images.iter_mut().for_each(|i| *i = numbers[*i]);
            }
        }
        if let Some(ft) = &mut self.f_table {
            for set in ft.sets.iter_mut().flatten() {
                set.iter_mut().for_each(|i| *i = numbers[*i]);
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

fn neighbour_shifts(puzzle: &Puzzle, cell_of: &dyn Fn(Coord) -> Option<u16>) -> Option<Vec<Shift>> {
    let mut shifts = Vec::new();
    for &(d, _) in &DIRECTIONS {
        let mut by = None;
        let mut from = Mask::ZERO;
        for (c, &coord) in puzzle.cells.iter().enumerate() {
            let Some(n) = cell_of([coord[0] + d[0], coord[1] + d[1], coord[2] + d[2]]) else {
                continue;
            };
            let delta = n as i32 - c as i32;
            if *by.get_or_insert(delta) != delta {
                return None;
            }
            from |= Mask::bit(c);
        }
        if let Some(by) = by {
            shifts.push(Shift { by, from });
        }
    }
    Some(shifts)
}

fn build_e_stage(
    puzzle: &Puzzle,
    cell_of: &dyn Fn(Coord) -> Option<u16>,
    masks: &[Mask],
    f_from: usize,
) -> EStage {
    let cells = puzzle.cells.len();
    let shapes = puzzle.shapes.len();
    let neighbours: Vec<Vec<u16>> = puzzle
        .cells
        .iter()
        .map(|&c| {
            let mut n: Vec<u16> = DIRECTIONS
                .iter()
                .filter_map(|&(d, _)| cell_of([c[0] + d[0], c[1] + d[1], c[2] + d[2]]))
                .collect();
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
    // The images covering each cell, by shape.
    let mut covering: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (i, im) in puzzle.images.iter().enumerate() {
        for &c in &im.cells {
            covering[c as usize].push(i);
        }
    }
    let mut index = Vec::with_capacity(total as usize + 1);
    let mut entries = Vec::new();
    for c in 0..cells {
        for ilsi in 0..1usize << neighbours[c].len() {
            let occupied: Mask = neighbours[c]
                .iter()
                .enumerate()
                .filter(|(k, _)| ilsi >> k & 1 == 1)
                .fold(Mask::ZERO, |m, (_, &n)| m | Mask::bit(n as usize));
            index.push(entries.len() as u32);
            for s in 0..shapes {
                for &i in &covering[c] {
                    if puzzle.images[i].shape == s && masks[i] & occupied == Mask::ZERO {
                        entries.push(i as u16);
                    }
                }
            }
        }
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
    let mut sets = Vec::with_capacity(cells);
    for (c, images) in by_first.iter().enumerate() {
        // The later cells by how many of the cell's images cover them, most first.
        let mut counts: Vec<(usize, usize)> = ((c + 1)..cells)
            .map(|d| {
                (
                    images
                        .iter()
                        .filter(|&&i| masks[i].bit_at(d as u32) == 1)
                        .count(),
                    d,
                )
            })
            .filter(|&(n, _)| n > 0)
            .collect();
        counts.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut chosen: Vec<usize> = counts.iter().take(CONTEXT_CELLS).map(|&(_, d)| d).collect();
        chosen.sort_unstable();
        let mut order = images.clone();
        order.sort_by_key(|&i| (puzzle.images[i].shape, i));
        let cell_sets = (0..1usize << chosen.len())
            .map(|state| {
                let occupied = chosen
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| state >> k & 1 == 1)
                    .fold(Mask::ZERO, |m, (_, &d)| m | Mask::bit(d));
                order
                    .iter()
                    .copied()
                    .filter(|&i| masks[i] & occupied == Mask::ZERO)
                    .collect()
            })
            .collect();
        context.push(chosen.iter().fold(Mask::ZERO, |m, &d| m | Mask::bit(d)));
        sets.push(cell_sets);
    }
    FTable { context, sets }
}
