//! What a FILA solver knows of its puzzle: the [`Tables`] trait, and the tables it hands
//! to the kernels. A generated solver implements it on a unit struct whose methods return
//! constants and statics, so that the compiler specialises every kernel with them; the
//! run-time engine implements it on tables built when it starts.

use super::bits::Word;
use super::isa::Isa;
use super::level::{Level, L63};

/// An image list: image numbers with their occupancy masks and shapes, side by side.
/// A walk reads a block of entries at a time (eight for 64-bit words, one for wider
/// ones), so every set of a list fills whole blocks: lowering pads each with entries
/// that never fit and whose shape (255) is never available.
pub struct List<'a, W> {
    pub masks: &'a [W],
    pub images: &'a [u16],
    pub shapes: &'a [u8],
}

/// Part of a list: the entries `start..end` of `list`.
#[derive(Clone, Copy)]
pub struct Span<'a, W> {
    pub list: &'a List<'a, W>,
    pub start: usize,
    pub end: usize,
}

impl<'a, W> Span<'a, W> {
    /// The whole of `list`.
    #[inline(always)]
    pub fn all(list: &'a List<'a, W>) -> Span<'a, W> {
        Span {
            list,
            start: 0,
            end: list.images.len(),
        }
    }
}

/// Image list sets by cell and by the state of a few other cells: the F stage's flat
/// tables (each cell's POF list, indexed by the occupancy of the later cells most of its
/// images cover: NOF) and the E stage's (every image covering a cell, indexed by the
/// occupancy of all its neighbours). A set's index is gathered from the word (`pext`).
pub struct SetTable<'a, W> {
    /// For each cell, the cells whose occupancy chooses its set; bit k of the index is
    /// the occupancy of the k-th lowest. The F stage's has one entry per cell number a
    /// first open cell can have (64 for 64-bit words, so that `c & 63` needs no check).
    pub context: &'a [W],
    /// The first set of each cell, sized like `context`.
    pub set_base: &'a [u32],
    /// Set t's entries are `index[t]..index[t + 1]`.
    pub index: &'a [u32],
    /// The entries of every set, by shape within a set; walked by blocks, each set padded
    /// to whole blocks ([`List`]).
    pub list: List<'a, W>,
}

impl<W: Word> SetTable<'_, W> {
    /// The set of cell `c` in the state of `occ`.
    #[inline(always)]
    pub fn set<I: Isa>(&self, c: usize, occ: W) -> usize {
        self.set_base[c] as usize + occ.gather::<I>(self.context[c])
    }

    /// The entries of set `set`.
    #[inline(always)]
    pub fn span(&self, set: usize) -> Span<'_, W> {
        Span {
            list: &self.list,
            start: self.index[set] as usize,
            end: self.index[set + 1] as usize,
        }
    }

    /// The set of the first open cell of `occ` (the F heuristic).
    #[inline(always)]
    pub fn first_open<I: Isa>(&self, occ: W) -> Span<'_, W> {
        let c = (!occ).trailing_zeros() as usize & (self.context.len() - 1);
        self.span(self.set::<I>(c, occ))
    }
}

/// A neighbour relation as a shift of the occupancy word: every cell of `from` has its
/// neighbour in this direction at its own number plus `by`. A table's shifts list those
/// with `by < 0` first (lowering sorts them), so that a kernel knows each one's way from
/// its place ([`lower_first`]).
pub struct Shift<W> {
    pub by: i32,
    pub from: W,
}

/// How many of a table's `shifts` lead to a lower cell number: half of them, the first
/// half (a neighbour relation is symmetric, so every shift has its opposite, and lowering
/// lists those with `by < 0` first).
#[inline(always)]
pub fn lower_first<W>(shifts: &[Shift<W>]) -> usize {
    let lower = shifts.len() / 2;
    debug_assert!(shifts
        .iter()
        .enumerate()
        .all(|(k, s)| (s.by < 0) == (k < lower)));
    lower
}

/// The test for open regions too small for any piece, run on every image that fits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// No test (a piece of one cell, or a numbering with no shifts).
    None,
    /// A cell with no open neighbour.
    Cells,
    /// A cell with no open neighbour, or two cells that are each other's only one (every
    /// piece has three cells or more; this pays in the plane, not in space).
    Pairs,
}

/// Which region sizes the pieces left can fill.
#[derive(Clone, Copy, Debug)]
pub enum Fillable<'a> {
    /// Every piece has this size: the multiples of it.
    Multiple(u32),
    /// The sums of these sizes (one per shape) with the copies left.
    Sums(&'a [u32]),
}

/// The tables of the volume and parity backtracks (polycube's `-v N` and `-p`).
#[derive(Clone, Copy, Debug)]
pub struct Pruning<'a, W> {
    /// The open cells around each image: a region its placement closes off touches it.
    pub halo: &'a [W],
    /// Each cell's neighbours, for growing regions where the numbering has no shifts.
    pub neighbours: &'a [W],
    pub fillable: Fillable<'a>,
    /// The cells of one colour of the checkerboard.
    pub black: W,
    /// For each shape, the colour balances (black minus white cells) of its images;
    /// `None` when they range beyond what the parity test's 128-bit set of sums holds.
    pub balances: Option<&'a [&'a [i32]]>,
}

/// The hand-over to a narrower solver for the last cells, once every cell before them
/// is filled.
pub struct Handover<W, Tail> {
    /// The cells before the narrower solver's.
    pub before: W,
    /// The first of its cells (its cell 0).
    pub from: u32,
    /// The narrower solver's tables.
    pub tail: Tail,
}

/// Everything a FILA solver knows of its puzzle.
///
/// Every method is called on the hot path and must be cheap: a generated solver's tables
/// are a `static` [`PuzzleTables`] named by a [`Constant`], whose fields the compiler
/// reads at compile time and folds into the kernels.
pub trait Tables: Copy + Send + Sync + 'static {
    type Word: Word;
    /// The level of a whole search: as many as there are pieces to place.
    type Top: Level;
    /// The narrower solver this one hands over to ([`NoTail`] for none).
    type Tail: Tables;
    /// The tables are constants the compiler reads (a generated solver's): what they hold
    /// is folded into the kernels, where tables read at run time are tested instead.
    const FOLDED: bool;

    /// The pieces every solution places (at most `Top::LEFT`).
    fn pieces(&self) -> usize;
    /// Copies of each shape.
    fn copies(&self) -> &[u8];
    /// Every piece's shape has one copy: placing a piece clears its shape's bit.
    fn one_per_shape(&self) -> bool;
    /// Every cell filled.
    fn full(&self) -> Self::Word;
    /// The neighbour relations as shifts, when the numbering makes them shifts.
    fn shifts(&self) -> Option<&[Shift<Self::Word>]>;
    fn isolation(&self) -> Isolation;
    /// The image list set of the first open cell of `occ` (the F heuristic), in the
    /// instruction set `I`.
    fn f_span<I: Isa>(&self, occ: Self::Word) -> Span<'_, Self::Word>;
    /// The E stage, if the solver has one.
    fn e_table(&self) -> Option<&SetTable<'_, Self::Word>>;
    fn pruning(&self) -> &Pruning<'_, Self::Word>;
    /// The hand-over, if the solver has a narrower one.
    fn handover(&self) -> Option<&Handover<Self::Word, Self::Tail>>;
}

/// How the F stage finds the image list set of the first open cell.
pub enum FStage<W: 'static> {
    /// Flat tables, indexed by gathering the context cells from the word.
    Table(&'static SetTable<'static, W>),
    /// One index function per cell (the FILA article's `getIlsiXX`), dispatched on the
    /// first open cell: the generated file's own code.
    Cells(fn(W) -> Span<'static, W>),
}

/// A puzzle's tables as one value: a generated file's `static TABLES`, or the run-time
/// engine's. `Top` is the highest level the search is instantiated for (a generated
/// solver's is its count of pieces, the run-time engine's `L63`), `Tail` the narrower
/// solver's tables.
pub struct PuzzleTables<W: Word, Top: Level, Tail: Tables> {
    /// The pieces every solution places.
    pub pieces: usize,
    pub copies: &'static [u8],
    pub one_per_shape: bool,
    pub full: W,
    pub shifts: Option<&'static [Shift<W>]>,
    pub isolation: Isolation,
    pub f_stage: FStage<W>,
    pub e_table: Option<&'static SetTable<'static, W>>,
    pub pruning: &'static Pruning<'static, W>,
    pub handover: Option<Handover<W, Tail>>,
    pub top: std::marker::PhantomData<Top>,
}

/// Tables known when the solver is compiled: a generated file's `TABLES`, named by a
/// unit type (`C::TABLES`) so that every kernel reads them at a constant address and the
/// compiler folds them in. (A handle holding the address at run time, such as a
/// `&'static PuzzleTables`, is passed down the recursion as a value the compiler cannot
/// see through: 10x6 1.30 times slower, medians of 21 alternating runs.)
pub trait Constant: Send + Sync + 'static {
    type Word: Word;
    type Top: Level;
    type Tail: Tables;
    const TABLES: &'static PuzzleTables<Self::Word, Self::Top, Self::Tail>;
}

/// The [`Tables`] of a [`Constant`]: a handle of no size.
pub struct Static<C>(pub std::marker::PhantomData<C>);

impl<C> Static<C> {
    pub const fn new() -> Static<C> {
        Static(std::marker::PhantomData)
    }
}

impl<C> Clone for Static<C> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<C> Copy for Static<C> {}

impl<C> Default for Static<C> {
    fn default() -> Self {
        Static::new()
    }
}

impl<C: Constant> Reach for Static<C> {
    type Word = C::Word;
    type Top = C::Top;
    type Tail = C::Tail;
    const FOLDED: bool = true;
    #[inline(always)]
    fn pieces(&self) -> usize {
        C::Top::LEFT
    }
    #[inline(always)]
    fn tables(&self) -> &'static PuzzleTables<C::Word, C::Top, C::Tail> {
        C::TABLES
    }
}

/// Tables built at run time (the run-time FILA engine's), reached through a reference:
/// the same kernels as a generated solver's, reading the tables as data. The reference is
/// `'static` for the kernels; whoever builds the tables keeps them alive as long as any
/// solver holding it (a search's solvers and their forks share them).
pub struct Shared<W: Word, Tail: Tables>(pub &'static PuzzleTables<W, L63, Tail>);

impl<W: Word, Tail: Tables> Clone for Shared<W, Tail> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W: Word, Tail: Tables> Copy for Shared<W, Tail> {}

impl<W: Word, Tail: Tables> Reach for Shared<W, Tail> {
    type Word = W;
    type Top = L63;
    type Tail = Tail;
    const FOLDED: bool = false;
    #[inline(always)]
    fn pieces(&self) -> usize {
        self.0.pieces
    }
    #[inline(always)]
    fn tables(&self) -> &'static PuzzleTables<W, L63, Tail> {
        self.0
    }
}

/// A handle on a [`PuzzleTables`]: a generated solver's ([`Static`], the address a
/// constant) or the run-time engine's ([`Shared`], the address a value). Every handle is
/// [`Tables`] through the one impl below.
pub trait Reach: Copy + Send + Sync + 'static {
    type Word: Word;
    type Top: Level;
    type Tail: Tables;
    /// As [`Tables::FOLDED`].
    const FOLDED: bool;
    /// The pieces every solution places (a constant for a generated solver).
    fn pieces(&self) -> usize;
    fn tables(&self) -> &'static PuzzleTables<Self::Word, Self::Top, Self::Tail>;
}

impl<R: Reach> Tables for R {
    type Word = R::Word;
    type Top = R::Top;
    type Tail = R::Tail;
    const FOLDED: bool = R::FOLDED;
    #[inline(always)]
    fn pieces(&self) -> usize {
        Reach::pieces(self)
    }
    #[inline(always)]
    fn copies(&self) -> &[u8] {
        self.tables().copies
    }
    #[inline(always)]
    fn one_per_shape(&self) -> bool {
        self.tables().one_per_shape
    }
    #[inline(always)]
    fn full(&self) -> R::Word {
        self.tables().full
    }
    #[inline(always)]
    fn shifts(&self) -> Option<&[Shift<R::Word>]> {
        self.tables().shifts
    }
    #[inline(always)]
    fn isolation(&self) -> Isolation {
        self.tables().isolation
    }
    #[inline(always)]
    fn f_span<I: Isa>(&self, occ: R::Word) -> Span<'_, R::Word> {
        match &self.tables().f_stage {
            FStage::Table(table) => table.first_open::<I>(occ),
            FStage::Cells(cells) => cells(occ),
        }
    }
    #[inline(always)]
    fn e_table(&self) -> Option<&SetTable<'_, R::Word>> {
        self.tables().e_table
    }
    #[inline(always)]
    fn pruning(&self) -> &Pruning<'_, R::Word> {
        self.tables().pruning
    }
    #[inline(always)]
    fn handover(&self) -> Option<&Handover<R::Word, R::Tail>> {
        self.tables().handover.as_ref()
    }
}

/// No narrower solver: the tail of a solver that does not hand over. It has no pieces
/// and prunes nothing (a solver is made over it only in tests, but made whole).
#[derive(Clone, Copy, Debug)]
pub struct NoTail<W: 'static>(Pruning<'static, W>);

impl<W: Word> Default for NoTail<W> {
    fn default() -> Self {
        NoTail(Pruning {
            halo: &[],
            neighbours: &[],
            fillable: Fillable::Multiple(1),
            black: W::ZERO,
            balances: None,
        })
    }
}

impl<W: Word> Tables for NoTail<W> {
    type Word = W;
    type Top = super::level::L0;
    type Tail = NoTail<W>;
    const FOLDED: bool = true;
    fn pieces(&self) -> usize {
        0
    }
    fn copies(&self) -> &[u8] {
        &[]
    }
    fn one_per_shape(&self) -> bool {
        true
    }
    fn full(&self) -> W {
        W::ZERO
    }
    fn shifts(&self) -> Option<&[Shift<W>]> {
        None
    }
    fn isolation(&self) -> Isolation {
        Isolation::None
    }
    fn f_span<I: Isa>(&self, _occ: W) -> Span<'_, W> {
        Span::all(&List {
            masks: &[],
            images: &[],
            shapes: &[],
        })
    }
    fn e_table(&self) -> Option<&SetTable<'_, W>> {
        None
    }
    fn pruning(&self) -> &Pruning<'_, W> {
        &self.0
    }
    fn handover(&self) -> Option<&Handover<W, NoTail<W>>> {
        None
    }
}
