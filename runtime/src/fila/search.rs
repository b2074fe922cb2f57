//! The FILA search over a puzzle's [`Tables`]: the F heuristic (first open cell, its
//! image list set chosen by POF and NOF), the E heuristic (fewest open neighbours, then
//! fewest fits, looking further where those cells have many; near the bottom the shortest
//! set instead of the fewest fits), placing with copies, the
//! backtracks, and the hand-over to a narrower solver for the last cells. One copy per
//! level ([`Level`]), each with its count of pieces left as a constant.

use std::sync::Arc;

use super::bits::{Block, Word};
use super::isa::{dispatch, prefetch, within, Isa, Kernels};
use super::level::Level;
use super::memo::{DeadStates, MEMO_FROM};
use super::prune::{isolated, neighbours_toward, parity_ok, volume_ok, ParitySums};
use super::tables::{lower_first, Isolation, List, SetTable, Shift, Span, Tables};
use crate::lanes;
use crate::search::{Capabilities, Context, RunShare, Search};

/// The E heuristic looks beyond the cells with the fewest open neighbours, to those with
/// the next fewest, when none of the first has at most this many fits. A cell elsewhere
/// with fewer fits (none, often, near the bottom of a box's tree) is worth the counts it
/// takes where the first cells offer a wide choice, but not where they offer a narrow
/// one: with the counts cut short at the best so far, one thread, CPU time (session 39),
/// the Tetris Cube (`--f-from 2`) 4.4 s and 39.7 M placements with the first cells alone,
/// 5.1 s and 25.8 M with the next always, 3.9 s and 31.3 M above 6, 4.3 s and 37.1 M
/// above 12; the Bedlam Cube 5.7 s and 48.9 M, 5.4 s and 24.7 M, 4.3 s and 29.7 M, 4.7 s
/// and 38.9 M.
const WIDEN_ABOVE: u32 = 6;

/// The E heuristic counts fits only while more than this many pieces are left; from there
/// down it takes, among the open cells with the fewest open neighbours, the one whose set
/// is the shortest, uncounted ([`shortest_set`]). Near the bottom the walk of the chosen
/// set finds a dead end as well as a count would, and the counts of the other candidates
/// cost more than the better choice saves. One thread, the generated solvers against the
/// build before (session 53, 9 interleaved runs, wall): the Tetris Cube (`--f-from 2`)
/// 1.745 -> 1.705 s with 31.29 -> 33.76 M placements, the Bedlam Cube (`--f-from 1`)
/// 1.823 -> 1.783 s with 29.77 -> 32.26 M; in `cargo xtask bench --baseline` (3 runs, a
/// noisy day) generated / baseline 0.995 and 0.973 on one thread, 1.000 and 0.981 on
/// two. In a throwaway build that read the level from
/// the environment at every E step (5 runs): counts from 4 pieces left too 1.74 s (Tetris
/// Cube, 42.0 M placements) and 1.76 s (Bedlam Cube, 40.4 M) against 1.70 and 1.74 s with
/// this bound, and the Bedlam Cube with its bound at 2 1.76 s; the first candidate
/// rather than the shortest set 1.69 against 1.68 s (Tetris Cube) and 1.74 against
/// 1.71 s (Bedlam Cube), the shortest set among the next fewest too 1.73 and 1.77 s.
const COUNT_ABOVE: usize = 3;

/// The levels with at most this many pieces left are compiled into the level above
/// them, the whole chain down to a solution in one function, rather than each entered as
/// a function of its own through [`Isa::call`](super::isa::Isa::call) (which the
/// compiler does not inline across levels). Those levels hold most of the nodes, and each
/// node there was a call; with every level so compiled the run-time engine's 64 levels
/// would be one function (`Isa::call` says what that did to the build). One thread,
/// interleaved, CPU time pinned to a core, against 0 (session 54): the generated 10x6
/// 19.11 -> 18.05 ms (80 runs; 2 levels 18.22, 4 levels 17.69), the Tetris Cube 1.749 ->
/// 1.726 s (4 levels 1.790 s: its E levels are large), the Bedlam Cube 1.871 -> 1.866 s,
/// the one-sided 18x5 2.459 -> 2.430 s, the 30x3 5.12 -> 5.10 ms; `fila solve` on the
/// 10x6 26.16 -> 24.96 ms (60 runs), on the Tetris Cube 2.216 -> 2.152 s (5 runs).
const INLINED_LEVELS: usize = 3;

/// A FILA solver: a puzzle's tables and the state of one search over them.
pub struct Solver<T: Tables> {
    tables: T,
    state: State<T>,
    /// The copy of the kernels this solver runs ([`Kernels::chosen`]).
    kernels: Kernels,
    /// Each image's cells as a word, indexed by image number: a prefix is placed from
    /// them at every entry ([`Search::solve_prefix`]), which Knuth's walks make at every
    /// step (the one-sided 18x5's progress display: 2.5 million entries). Made from the
    /// run's images at the first entry: the tables number the images of one puzzle.
    image_masks: Vec<T::Word>,
}

/// The state of one search; its methods take the tables beside it, so that the tables
/// are borrowed while the state changes.
struct State<T: Tables> {
    /// The images placed so far; sized so that indexing by `& 63` needs no check.
    stack: [u16; 64],
    /// Copies left of each shape.
    copies: [u8; 64],
    /// The group elements (bit `k` for the plan's `group[k]`) under which the node at
    /// each depth (pieces placed) is not yet known to be least or not, set by its parent
    /// (by `solve_prefix` for the root): zero outside symmetric subtrees. A node that one
    /// of them maps to a smaller partial solution has no solution the check keeps.
    /// [`DEFERRED`] past half the pieces where some were left to the check of each
    /// solution.
    undecided: [u64; 64],
    /// Beside each nonzero `undecided`, the cells it waits for: the node is judged again
    /// only once one of them is covered.
    awaited: [T::Word; 64],
    /// The puzzle's number of this solver's cell 0: zero, or where a tail's cells begin.
    first_cell: usize,
    /// Counts by pieces left, sized like `stack`.
    attempts: [u64; 64],
    fits: [u64; 64],
    stop: bool,
    /// Nodes with this many pieces left go back to the driver (0: none).
    floor: usize,
    /// The volume and parity backtracks apply while more than this many pieces are left
    /// (`usize::MAX`: never); `prune_from` is the smaller.
    volume_from: usize,
    parity_from: usize,
    prune_from: usize,
    /// The parity backtrack's balances by groups of shapes, made with the solver from
    /// its tables, which do not change.
    parity: ParitySums,
    /// The E heuristic while more than this many pieces are left, then F.
    f_from: usize,
    /// The solver of the last cells, in a narrower word. Called once per hand-over, so
    /// through a vtable (which also keeps the type of a solver finite).
    tail: Option<Box<dyn Narrower<<T::Tail as Tables>::Word>>>,
    /// The table of dead states this run consults ([`DeadStates`]): made at the first
    /// search to the end that allows one, and kept from one subtree to the next.
    /// (Boxed, so that the state stays small: a table's counts by level take some 2 KiB.)
    dead: Option<Box<DeadStates<T::Word>>>,
    /// The table put aside while a run at a floor cannot consult it.
    idle: Option<Box<DeadStates<T::Word>>>,
    /// The node being entered consults the table of dead states: it is looked up where
    /// [`State::try_span`] finds its first fits, so that a dead end (a node without a fit:
    /// on the one-sided 18x5, a third of the nodes looked up and not found dead) is
    /// neither looked up nor stored.
    consult: bool,
    /// The tables of dead states shared by the run's threads, for a solver that
    /// [joined](Search::join) them.
    share: Option<Arc<RunShare>>,
    /// Solutions (or, at a floor, nodes) reached so far: a node below which it does not
    /// change is dead.
    leaves: u64,
}

/// [`State::undecided`] below a node where what was undecided is left to the check of each
/// solution (past half the pieces): no group element (a group has at most 48), so that the
/// node is neither judged again nor counted as judged. Its solutions may not all pass the
/// check, so the table of dead states does not keep their count; a dead end is dead all
/// the same.
const DEFERRED: u64 = 1 << 63;

/// What the table of dead states answers for a node ([`State::probe`]).
enum Lookup {
    /// The node is dead: give it up.
    Dead,
    /// The node has this many solutions, all of them passing the check (more than zero):
    /// take them without its search.
    Counted(u64),
    /// Not known: search it, then [`State::settle`] it.
    Open(Pending),
    /// The solver has no table: search the node as if it were not consulted.
    Untabled,
}

/// A node being searched that the table of dead states did not know: its code, and what
/// had been reached before its search (the placements only where the table measures
/// them, [`DeadStates::measures`]).
struct Pending {
    code: u64,
    leaves: u64,
    placed: Option<u64>,
}

/// What a solver offers the wider solver that hands over to it.
trait Narrower<W>: Send {
    fn configure(&mut self, settings: Settings);
    #[expect(
        clippy::too_many_arguments,
        reason = "the node and the search state the narrower solver takes over, each its own part"
    )]
    fn enter(
        &mut self,
        ctx: &mut Context<'_>,
        occ: W,
        avail: u64,
        left: usize,
        stack: &[u16; 64],
        copies: &[u8; 64],
        judged: (u64, W),
    ) -> bool;
    fn add_counts(&mut self, attempts: &mut [u64; 64], fits: &mut [u64; 64]);
    /// [`Search::join`], for this solver and its tails.
    fn join(&mut self, share: &Arc<RunShare>);
    /// [`State::leaves`].
    fn leaves(&self) -> u64;
    /// [`State::placed`].
    fn placed(&self, left: usize) -> u64;
    /// Whether this solver or a narrower one can keep dead states.
    fn memoizes(&self) -> bool;
}

/// The settings of one run, from the driver or from the solver that hands over.
#[derive(Clone, Copy, Debug)]
struct Settings {
    floor: usize,
    /// The most memory for the table of dead states (0: none).
    memo: u64,
    /// Whether its states keep their counts of solutions ([`Context::counts_only`]).
    counts: bool,
    volume_from: usize,
    parity_from: usize,
    f_from: usize,
}

impl<T: Tables + Default> Solver<T> {
    /// A solver for tables that need no building (a generated solver's).
    pub fn new() -> Self {
        Self::with_tables(T::default())
    }
}

impl<T: Tables + Default> Default for Solver<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Tables> Solver<T> {
    /// A solver over `tables`, with a solver for each narrower word it hands over to.
    pub fn with_tables(tables: T) -> Self {
        Self::with_tables_from(tables, 0)
    }

    /// The same for the tail whose cell 0 is the puzzle's cell `first_cell`.
    fn with_tables_from(tables: T, first_cell: usize) -> Self {
        let tail = tables.handover().map(|h| {
            Box::new(Solver::with_tables_from(
                h.tail,
                first_cell + h.from as usize,
            )) as Box<dyn Narrower<<T::Tail as Tables>::Word>>
        });
        Solver {
            tables,
            kernels: Kernels::chosen().unwrap_or_else(|_| Kernels::best()),
            image_masks: Vec::new(),
            state: State {
                stack: [0; 64],
                copies: [0; 64],
                undecided: [0; 64],
                awaited: [T::Word::ZERO; 64],
                first_cell,
                attempts: [0; 64],
                fits: [0; 64],
                stop: false,
                floor: 0,
                volume_from: usize::MAX,
                parity_from: usize::MAX,
                prune_from: usize::MAX,
                parity: ParitySums::new(tables.pruning().balances, tables.copies()),
                f_from: usize::MAX,
                tail,
                dead: None,
                idle: None,
                consult: false,
                share: None,
                leaves: 0,
            },
        }
    }
}

impl<T: Tables> Narrower<T::Word> for Solver<T> {
    /// Takes the run's settings, for this solver and its tails, and clears the counts.
    fn configure(&mut self, mut settings: Settings) {
        let levels = self.levels();
        let s = &mut self.state;
        if let Some(tail) = &mut s.tail {
            // The narrower solver searches the deeper, more numerous nodes: it takes three
            // quarters of the memory for dead states.
            let own = settings.memo / 4;
            tail.configure(Settings {
                memo: settings.memo - own,
                ..settings
            });
            settings.memo = own;
        }
        s.floor = settings.floor;
        s.volume_from = settings.volume_from;
        s.parity_from = settings.parity_from;
        s.prune_from = settings.volume_from.min(settings.parity_from);
        s.f_from = settings.f_from;
        s.attempts[..levels].fill(0);
        s.fits[..levels].fill(0);
        // A table for a search to the end; at a floor, a dead state would change which
        // nodes are cut, and so the subtrees of a split: the table is put aside.
        let table = s.dead.take().or(s.idle.take());
        if settings.floor == 0 {
            // Keys of one word where the search fills the first open cell throughout
            // (the F heuristic): the E heuristic fills cells anywhere, and its states
            // would mostly not fit the key's window ([`DeadStates::new`]).
            let t = self.tables;
            let one_word = t.e_table().is_none() || settings.f_from >= t.pieces();
            s.dead = match table {
                Some(kept)
                    if kept.limit() == settings.memo
                        && kept.one_word() == one_word
                        && kept.counts_asked() == settings.counts =>
                {
                    Some(kept)
                }
                _ => {
                    let share = s.share.clone().map(|run| (run, s.first_cell));
                    let (memo, copies) = (settings.memo, t.copies());
                    DeadStates::new(memo, copies, one_word, settings.counts, share).map(Box::new)
                }
            };
        } else {
            s.idle = table;
        }
    }

    /// Searches on from a node of the wider solver where every cell before this
    /// solver's is filled: `occ` is the occupancy of this solver's cells, `stack` and
    /// `copies` the wider solver's, `judged` the elements still undecided at the node and
    /// the cells they wait for, in this solver's cells. Returns true when the search must
    /// stop.
    fn enter(
        &mut self,
        ctx: &mut Context<'_>,
        occ: T::Word,
        avail: u64,
        left: usize,
        stack: &[u16; 64],
        copies: &[u8; 64],
        judged: (u64, T::Word),
    ) -> bool {
        let s = &mut self.state;
        s.stack = *stack;
        s.copies = *copies;
        let depth = self.tables.pieces().wrapping_sub(left) & 63;
        (s.undecided[depth], s.awaited[depth]) = judged;
        s.stop = false;
        dispatch!(self.kernels, T::Word, self.enter_in(ctx, occ, avail, left));
        self.state.stop
    }

    fn leaves(&self) -> u64 {
        self.state.leaves()
    }

    fn placed(&self, left: usize) -> u64 {
        self.state.placed(left)
    }

    fn memoizes(&self) -> bool {
        DeadStates::<T::Word>::possible(self.tables.copies())
            || self.state.tail.as_ref().is_some_and(|t| t.memoizes())
    }

    fn join(&mut self, share: &Arc<RunShare>) {
        self.state.share = Some(Arc::clone(share));
        if let Some(tail) = &mut self.state.tail {
            tail.join(share);
        }
    }

    /// Adds the counts of this solver (and its tail) to `attempts` and `fits`, and
    /// clears them: those of its levels, the only ones it counts at (a walk of Knuth's
    /// adds them up at every step).
    fn add_counts(&mut self, attempts: &mut [u64; 64], fits: &mut [u64; 64]) {
        let levels = self.levels();
        let s = &mut self.state;
        if let Some(tail) = &mut s.tail {
            tail.add_counts(&mut s.attempts, &mut s.fits);
        }
        for k in 0..levels {
            attempts[k] += s.attempts[k];
            fits[k] += s.fits[k];
        }
        s.attempts[..levels].fill(0);
        s.fits[..levels].fill(0);
    }
}

impl<T: Tables> Search for Solver<T> {
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>) {
        dispatch!(self.kernels, T::Word, self.solve_prefix_in(prefix, ctx))
    }

    fn fork(&self) -> Box<dyn Search> {
        Box::new(Solver::with_tables(self.tables))
    }

    fn join(&mut self, share: &Arc<RunShare>) {
        Narrower::join(self, share);
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            kernels: Some(dispatch!(self.kernels, T::Word, self.kernels_name())),
            replays_cheaply: true,
            keeps_dead_states: self.memoizes(),
        }
    }
}

impl<T: Tables> Solver<T> {
    /// The levels this solver counts at: 0 to its number of pieces (`L::LEFT` is never
    /// more), the part of its counts a run clears and adds up.
    fn levels(&self) -> usize {
        self.tables.pieces().min(63) + 1
    }

    /// The name of `I`, the instruction set the kernels run in.
    fn kernels_name<I: Isa>(&self) -> &'static str {
        I::NAME
    }

    /// [`Narrower::enter`] in the kernels of `I`.
    fn enter_in<I: Isa>(&mut self, ctx: &mut Context<'_>, occ: T::Word, avail: u64, left: usize) {
        self.state
            .descend::<T::Top, I>(self.tables, ctx, occ, avail, left);
    }

    /// [`Search::solve_prefix`] in the kernels of `I`.
    fn solve_prefix_in<I: Isa>(&mut self, prefix: &[u16], ctx: &mut Context<'_>) {
        let pruning = ctx.pruning();
        self.configure(Settings {
            floor: ctx.floor(),
            volume_from: pruning.volume_backtrack.unwrap_or(usize::MAX),
            parity_from: pruning.parity_backtrack.unwrap_or(usize::MAX),
            f_from: ctx.f_from(),
            memo: ctx.memo(),
            counts: ctx.counts_only(),
        });
        let t = self.tables;
        let images = &ctx.info.images;
        if self.image_masks.len() != images.len() {
            self.image_masks = images
                .iter()
                .map(|image| {
                    image
                        .cells
                        .iter()
                        .fold(T::Word::ZERO, |m, &c| m | T::Word::bit(c as usize))
                })
                .collect();
        }
        let s = &mut self.state;
        let pieces = t.pieces();
        let copies = t.copies();
        s.stop = false;
        s.copies[..copies.len()].copy_from_slice(copies);
        let mut occ = T::Word::ZERO;
        let mut avail = if copies.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << copies.len()) - 1
        };
        for (k, &number) in prefix.iter().enumerate() {
            s.stack[k & 63] = number;
            let shape = images[number as usize].shape as usize;
            occ |= self.image_masks[number as usize];
            s.copies[shape] -= 1;
            if s.copies[shape] == 0 {
                avail &= !(1u64 << shape);
            }
        }
        let left = pieces - prefix.len();
        s.undecided[prefix.len() & 63] = ctx.checked_elements();
        s.awaited[prefix.len() & 63] = t.full();
        if prefix.len() == 1 {
            // The first placement counts like any other.
            s.attempts[pieces] = 1;
            let shifts = t.shifts().unwrap_or(&[]);
            if isolated::<T::Word, T::Word>(occ, t.full(), shifts, t.isolation()) == T::Word::ZERO {
                s.fits[pieces] = 1;
                s.descend::<T::Top, I>(t, ctx, occ, avail, left);
            }
        } else {
            s.descend::<T::Top, I>(t, ctx, occ, avail, left);
        }
        if let Some(tail) = &mut s.tail {
            tail.add_counts(&mut s.attempts, &mut s.fits);
        }
        ctx.stats.add(&s.attempts[..=pieces], &s.fits[..=pieces]);
    }
}

impl<T: Tables> State<T> {
    /// Searches below a node with `left` pieces left, where `left` is known only at run
    /// time (at the root of a subtree): finds its level's copy. It runs outside the
    /// kernels of `I`, so a level compiled into the level above (which is otherwise never
    /// entered on its own through them) is entered through them here.
    #[inline(always)]
    fn descend<L: Level, I: Isa>(
        &mut self,
        t: T,
        ctx: &mut Context<'_>,
        occ: T::Word,
        avail: u64,
        left: usize,
    ) {
        if L::LEFT == left || L::LEFT == 0 {
            if L::LEFT <= INLINED_LEVELS {
                within!(I, self.search::<L, I>(t, ctx, occ, avail));
            } else {
                self.search::<L, I>(t, ctx, occ, avail);
            }
        } else {
            self.descend::<L::Below, I>(t, ctx, occ, avail, left);
        }
    }

    /// The search below a node with `L::LEFT` pieces left: a function of its own per
    /// level, compiled for the instruction set `I` (the last [`INLINED_LEVELS`] compiled
    /// into the level above). Where the level consults the table of
    /// dead states and the node is not handed over to a tail (which consults its own),
    /// the node is looked up once its target's first fits are found ([`State::consult`],
    /// [`State::try_span`]).
    #[inline(always)]
    fn search<L: Level, I: Isa>(&mut self, t: T, ctx: &mut Context<'_>, occ: T::Word, avail: u64) {
        let left = L::LEFT;
        // (The levels below `MEMO_FROM`, the most numerous, never consult the table: they
        // are compiled without the question.)
        self.consult = left >= MEMO_FROM
            && self.dead.as_ref().is_some_and(|dead| dead.consulted(left))
            && t.handover().is_none_or(|h| occ & h.before != h.before);
        // The only call of the level's search (the level decides which, when compiled):
        // a second one (in a path of its own for the nodes that consult the table) kept
        // the compiler from inlining it, and cost the Tetris Cube 8 % more instructions
        // with no table at all.
        if L::LEFT <= INLINED_LEVELS {
            self.search_in::<L, I>(t, ctx, occ, avail);
        } else {
            within!(I, self.search_in::<L, I>(t, ctx, occ, avail));
        }
        // A node given up before its fits (a dead end, or by its symmetry check) was not
        // looked up.
        self.consult = false;
    }

    /// Looks up a node with `left` pieces left in the table of dead states: a count of
    /// solutions is taken only where the node passed its own symmetry check with every
    /// element decided ([`State::undecided`] zero one level below).
    #[inline(never)]
    fn probe(&mut self, t: T, left: usize, occ: T::Word, avail: u64) -> Lookup {
        let Some(dead) = self.dead.as_mut() else {
            return Lookup::Untabled;
        };
        let code = dead.code(t.one_per_shape(), avail, &self.copies[..t.copies().len()]);
        let below = t.pieces().wrapping_sub(left).wrapping_add(1) & 63;
        match dead.probe(left, occ, code, self.undecided[below] == 0) {
            Some(0) => return Lookup::Dead,
            Some(count) => return Lookup::Counted(count),
            None => {}
        }
        let measured = dead.measures(left);
        Lookup::Open(Pending {
            code,
            leaves: self.leaves(),
            placed: measured.then(|| self.placed(left)),
        })
    }

    /// After the search of a node that [`State::probe`] did not know: stores it in the
    /// table if it is dead, or with its count of solutions where the table keeps them. It
    /// is dead when its search went to the end without reaching a solution (a solution
    /// that the check of each solution rejects still counts as reached), past its own
    /// symmetry check with every element decided there or before, or left to the check
    /// of each solution ([`State::undecided`] zero or [`DEFERRED`] one level below): so
    /// no check below could have cut a subtree short, and the node has no completion at
    /// all, whatever the path to it. Its count is kept only where every element was
    /// decided (zero below): then every solution reached passed the check, and has a
    /// path to it wherever the node is reached.
    #[inline(never)]
    fn settle(&mut self, t: T, left: usize, occ: T::Word, pending: Pending) {
        let below = t.pieces().wrapping_sub(left).wrapping_add(1) & 63;
        let reached = self.leaves() - pending.leaves;
        let completions = match self.undecided[below] {
            _ if self.stop => None,
            0 => Some(reached),
            DEFERRED if reached == 0 => Some(0),
            _ => None,
        };
        let placements = pending.placed.map(|before| self.placed(left) - before);
        if let Some(dead) = &mut self.dead {
            dead.searched(left, occ, pending.code, placements, completions);
        }
    }

    #[inline(always)]
    fn search_in<L: Level, I: Isa>(
        &mut self,
        t: T,
        ctx: &mut Context<'_>,
        occ: T::Word,
        avail: u64,
    ) {
        let left = L::LEFT;
        let pieces = t.pieces();
        let depth = pieces.wrapping_sub(left);
        let mut undecided = self.undecided[depth & 63];
        if undecided != 0 && 2 * depth > pieces {
            // Past half the pieces, what is left undecided is left to the check of each
            // solution: the nodes are many there and their subtrees small.
            undecided = DEFERRED;
        } else if undecided != 0 {
            match self.judge(ctx, occ, depth, undecided) {
                Some(still) => undecided = still,
                None => return,
            }
        }
        self.undecided[depth.wrapping_add(1) & 63] = undecided;
        if left <= self.floor {
            self.reach_floor(ctx, pieces - left, left == 0);
            return;
        }
        if let Some(h) = t.handover() {
            if occ & h.before == h.before {
                self.hand_over(ctx, h.from, occ, avail, left, depth);
                return;
            }
        }
        self.expand::<L, I>(t, ctx, occ, narrow_shapes(t, avail));
    }

    /// In a symmetric subtree: gives up a node whose solutions the filter's check would
    /// all reject (`None`), judged again whenever a cell it waits for is covered; else the
    /// elements still undecided below it. Out of the level's own code, as are the floor
    /// and the hand-over: the nodes that reach them are few, and the three are compiled
    /// once per solver rather than once per level and instruction set (session 55: the
    /// `fila` executable's code 14.1 -> 12.7 MB; instructions run on the generated 10x6
    /// -0.5 %, on the Tetris Cube +0.3 %, the same placements).
    #[cold]
    #[inline(never)]
    fn judge(
        &mut self,
        ctx: &mut Context<'_>,
        occ: T::Word,
        depth: usize,
        mut undecided: u64,
    ) -> Option<u64> {
        let mut awaited = self.awaited[depth & 63];
        if occ & awaited != T::Word::ZERO {
            undecided = ctx.undecided(&self.stack[..depth.min(64)], undecided)?;
            // (Open cells: in a tail, at or after its first cell. A wrong bit could only
            // delay the next judgement, never change a count.)
            let first = self.first_cell;
            awaited = ctx.awaited().iter().fold(T::Word::ZERO, |w, &c| {
                debug_assert!(c as usize >= first, "awaited cell {c} before the tail");
                w | T::Word::bit((c as usize).wrapping_sub(first))
            });
        }
        self.awaited[depth.wrapping_add(1) & 63] = awaited;
        Some(undecided)
    }

    /// A solution, or else a node where the driver splits the search, `placed` pieces in.
    #[cold]
    #[inline(never)]
    fn reach_floor(&mut self, ctx: &mut Context<'_>, placed: usize, solution: bool) {
        self.leaves += 1;
        let stack = &self.stack[..placed];
        let go_on = if solution {
            ctx.report(stack)
        } else {
            ctx.cut(stack)
        };
        if !go_on {
            self.stop = true;
        }
    }

    /// Every cell before the tail (whose cell 0 is this solver's cell `from`) is filled,
    /// so every image placed from here on lies in the tail: its solver searches on in its
    /// narrower word.
    #[cold]
    #[inline(never)]
    fn hand_over(
        &mut self,
        ctx: &mut Context<'_>,
        from: u32,
        occ: T::Word,
        avail: u64,
        left: usize,
        depth: usize,
    ) {
        let Some(tail) = &mut self.tail else {
            return;
        };
        let narrow = |w: T::Word| <T::Tail as Tables>::Word::from_low_u128((w >> from).low_u128());
        // The tail judges the node as this solver did: its awaited cells are open, so it
        // judges it again only below.
        let below = depth.wrapping_add(1) & 63;
        let judged = match self.undecided[below] {
            still @ (0 | DEFERRED) => (still, <T::Tail as Tables>::Word::ZERO),
            still => (still, narrow(self.awaited[below])),
        };
        if tail.enter(
            ctx,
            narrow(occ),
            avail,
            left,
            &self.stack,
            &self.copies,
            judged,
        ) {
            self.stop = true;
        }
    }

    /// The solutions (or, at a floor, nodes) this solver and its tails have reached: a
    /// node below which it does not change has no solution.
    fn leaves(&self) -> u64 {
        self.leaves + self.tail.as_ref().map_or(0, |t| t.leaves())
    }

    /// The placements this solver and its tails have made with at most `left` pieces
    /// left, since their counts were last cleared: around the search of a node with `left`
    /// pieces left, what changes is what that search placed. Read only around the nodes
    /// whose subtrees the table of dead states measures, so that a placement costs no
    /// more than its count.
    fn placed(&self, left: usize) -> u64 {
        let placed: u64 = self.fits[..=left & 63].iter().sum();
        placed + self.tail.as_ref().map_or(0, |t| t.placed(left))
    }

    /// The search below a node, past the checks of [`State::search_in`]: the E or the F
    /// heuristic picks the images to try.
    #[inline(always)]
    fn expand<L: Level, I: Isa>(&mut self, t: T, ctx: &mut Context<'_>, occ: T::Word, avail: u64) {
        let left = L::LEFT;
        if left > self.f_from {
            if let Some(e) = t.e_table() {
                within!(I, self.search_e::<L, I>(t, e, ctx, occ, avail));
                return;
            }
        }
        self.try_span::<L, I>(t, ctx, occ, avail, t.f_span::<I>(occ));
    }

    /// Chooses the target by the E heuristic of the FILA article: among the open cells
    /// with the fewest open neighbours, the one where the fewest images fit, and where
    /// that is more than [`WIDEN_ABOVE`], among those with the next fewest too; then tries
    /// that cell's images. With [`COUNT_ABOVE`] pieces left or fewer, the one with the
    /// shortest set, uncounted. Entered through `Isa::call` (which a generated solver's
    /// level inlines).
    ///
    /// Each candidate's set is found before the count of the one before it, and its first
    /// block fetched meanwhile: the counts wait on memory (the Tetris Cube's E masks, 2.1
    /// MB, are more than the 2 MiB of L2 a core of the machine measured on). One thread,
    /// by hand against the build before
    /// (session 46): `fila solve` on the Tetris Cube 3.08 -> 3.03 s and 3.14 -> 3.09 s in
    /// two batches, on the Bedlam Cube 3.40 -> 3.22 s; the generated Tetris Cube 2.60 ->
    /// 2.56 s and 2.68 -> 2.64 s. Fetching the first four blocks lost (the generated
    /// Tetris Cube 2.61 -> 2.84 s), and so did fetching, in a walk, the F set of each
    /// fit's node below (`fila solve` on the Tetris Cube 3.01 -> 3.13 s, on the 10x6 31 ->
    /// 34 ms).
    #[inline(always)]
    fn search_e<L: Level, I: Isa>(
        &mut self,
        t: T,
        e: &SetTable<'_, T::Word>,
        ctx: &mut Context<'_>,
        occ: T::Word,
        avail: u64,
    ) {
        let open = !occ & t.full();
        let classes = fewest_open_neighbours(t, open);
        if L::LEFT <= COUNT_ABOVE {
            if let Some(span) = shortest_set::<T, I>(e, classes[0], occ) {
                self.try_span::<L, I>(t, ctx, occ, avail, span);
            }
            return;
        }
        let mut best_fits = u32::MAX;
        let mut best = None;
        'classes: for (k, &class) in classes.iter().enumerate() {
            if k > 0 && best_fits <= WIDEN_ABOVE {
                break;
            }
            let mut candidates = class;
            if candidates == T::Word::ZERO {
                continue;
            }
            let mut next = e.span(e.set::<I>(candidates.trailing_zeros() as usize, occ));
            candidates = candidates.clear_lowest();
            loop {
                let span = next;
                let more = candidates != T::Word::ZERO;
                if more {
                    // The next candidate's set, on its way while this one is counted.
                    next = e.span(e.set::<I>(candidates.trailing_zeros() as usize, occ));
                    candidates = candidates.clear_lowest();
                    prefetch_span(next);
                }
                // (In the run-time engine, two copies: where no shape past 15 is left
                // and where some are, as in [`fits_of_blocks`].)
                let fits = if !T::FOLDED && lanes::tabled(avail) {
                    count_fits::<T::Word, I>(span, occ, avail & lanes::TABLED, best_fits)
                } else {
                    count_fits::<T::Word, I>(span, occ, avail, best_fits)
                };
                if fits < best_fits {
                    best_fits = fits;
                    best = Some(span);
                    // No fit: a dead end. One fit: a forced move, as good as any.
                    if fits <= 1 {
                        if fits == 0 {
                            return;
                        }
                        break 'classes;
                    }
                }
                if !more {
                    break;
                }
            }
        }
        if let Some(span) = best {
            self.try_span::<L, I>(t, ctx, occ, avail, span);
        }
    }

    /// Tries the images of `span` whose shape is available: the fits of a block of
    /// images at a time (eight in one vector register for 64-bit words) are found without
    /// a branch per image, then each fit is placed.
    ///
    /// With eight-image blocks the test for open regions too small for any piece joins
    /// the fit test (10x6: 39.4 -> 33.8 ms against testing it in the child); with one
    /// image a block (wider words, which do not vectorise) it runs only on the images that
    /// fit (one-sided pentominoes in 30x3: 92.6 -> 27.6 ms).
    #[inline(always)]
    fn try_span<L: Level, I: Isa>(
        &mut self,
        t: T,
        ctx: &mut Context<'_>,
        occ: T::Word,
        avail: u64,
        span: Span<'_, T::Word>,
    ) {
        let early = <<T::Word as Word>::Block<I> as Block<T::Word>>::WIDTH > 1;
        let (full, form) = (t.full(), t.isolation());
        let shifts = t.shifts().unwrap_or(&[]);
        let list = span.list;
        let mut base = span.start;
        let mut pending = None;
        while base < span.end {
            let stop = if span.end - base > 64 {
                base + 64
            } else {
                span.end
            };
            let (tried, mut fits) = if early {
                within!(I, fits_of_blocks::<T, I>(t, list, occ, avail, base, stop))
            } else {
                fits_of_words(list, occ, avail, base, stop)
            };
            self.attempts[L::LEFT & 63] += tried as u64;
            if L::LEFT >= MEMO_FROM && self.consult && fits != 0 {
                // The node's first fits: now it is worth looking up ([`State::consult`]).
                self.consult = false;
                match self.probe(t, L::LEFT, occ, avail) {
                    Lookup::Dead => return,
                    Lookup::Counted(count) => {
                        self.leaves += count;
                        ctx.counted(count);
                        return;
                    }
                    Lookup::Open(open) => pending = Some(open),
                    Lookup::Untabled => {}
                }
            }
            if L::LEFT > MEMO_FROM
                && fits != 0
                && self
                    .dead
                    .as_ref()
                    .is_some_and(|d| d.consulted(L::LEFT.wrapping_sub(1)))
            {
                self.prefetch_below(t, list, occ, avail, base, fits);
            }
            while fits != 0 {
                let k = base + fits.trailing_zeros() as usize;
                fits &= fits - 1;
                let mask = list.masks[k];
                if !early
                    && isolated::<T::Word, T::Word>(occ | mask, full, shifts, form) != T::Word::ZERO
                {
                    continue;
                }
                let s = list.shapes[k] as usize & 63;
                let image = list.images[k];
                if t.one_per_shape() {
                    // With one piece of every shape, placing a piece clears its shape's bit.
                    if self.place::<L, I>(t, ctx, occ | mask, avail & !(1u64 << s), image) {
                        return;
                    }
                } else {
                    self.copies[s] -= 1;
                    let next = if self.copies[s] == 0 {
                        avail & !(1u64 << s)
                    } else {
                        avail
                    };
                    let stop = self.place::<L, I>(t, ctx, occ | mask, next, image);
                    self.copies[s] += 1;
                    if stop {
                        return;
                    }
                }
            }
            base = stop;
        }
        if let Some(pending) = pending {
            self.settle(t, L::LEFT, occ, pending);
        }
    }

    /// Where the level below consults the table of dead states: brings the slots of the
    /// nodes that the fits of a block (`fits`, from image `base` of `list`) lead to into
    /// the cache at once, so that their lookups wait for memory together rather than one
    /// by one (one-sided 18x5, one thread: 10.0 -> 6.7 s of CPU).
    #[inline(never)]
    fn prefetch_below(
        &self,
        t: T,
        list: &List<'_, T::Word>,
        occ: T::Word,
        avail: u64,
        base: usize,
        mut fits: u64,
    ) {
        let Some(dead) = &self.dead else {
            return;
        };
        let one_per_shape = t.one_per_shape();
        let code = dead.code(one_per_shape, avail, &self.copies[..t.copies().len()]);
        while fits != 0 {
            let k = base + fits.trailing_zeros() as usize;
            fits &= fits - 1;
            let s = list.shapes[k] as usize & 63;
            let below = if one_per_shape {
                avail & !(1u64 << s)
            } else {
                code - dead.weight(s)
            };
            dead.prefetch(occ | list.masks[k], below);
        }
    }

    /// Places `image` (its mask already in `occ`) and searches on. Returns true when the
    /// search must stop.
    #[inline(always)]
    fn place<L: Level, I: Isa>(
        &mut self,
        t: T,
        ctx: &mut Context<'_>,
        occ: T::Word,
        next: u64,
        image: u16,
    ) -> bool {
        let left = L::LEFT;
        // (Never reached with no piece left: `wrapping_sub` keeps that level's copy free
        // of an overflow.)
        let below = left.wrapping_sub(1);
        self.fits[left & 63] += 1;
        if below > self.prune_from && !within!(I, self.prune_ok(t, occ, next, below, image)) {
            return self.stop;
        }
        self.stack[t.pieces().wrapping_sub(left) & 63] = image;
        self.search::<L::Below, I>(t, ctx, occ, next);
        self.stop
    }

    /// Whether the volume and parity backtracks, where they apply with `remaining` pieces
    /// left to place, let the search go on below the placement of `image`. A function of its
    /// own, entered through `Isa::call`.
    #[inline(always)]
    fn prune_ok(&self, t: T, occ: T::Word, avail: u64, remaining: usize, image: u16) -> bool {
        let p = t.pruning();
        (remaining <= self.volume_from
            || volume_ok(p, t.shifts(), t.full(), occ, avail, &self.copies, image))
            && (remaining <= self.parity_from
                || parity_ok(
                    p,
                    &self.parity,
                    t.full(),
                    occ,
                    avail,
                    &self.copies,
                    t.one_per_shape(),
                ))
    }
}

/// The open cells with the fewest open neighbours, and those with the next fewest (none
/// where every open cell has as many): by bit-sliced counters (a full adder per
/// direction; three bits count up to 7 directions, four up to 15) where the neighbour
/// relations are shifts, else cell by cell.
#[inline(always)]
fn fewest_open_neighbours<T: Tables>(t: T, open: T::Word) -> [T::Word; 2] {
    let Some(shifts) = t.shifts() else {
        return fewest_by_cells(t.pruning().neighbours, open);
    };
    // Six shifts (the cubic and hexagonal lattices) and four (the square) made constants,
    // as in `fits_of_blocks`.
    match shifts.len() {
        6 => fewest_by_shifts(<&[_; 6]>::try_from(shifts).unwrap(), open),
        4 => fewest_by_shifts(<&[_; 4]>::try_from(shifts).unwrap(), open),
        _ => fewest_by_shifts(shifts, open),
    }
}

/// [`fewest_open_neighbours`] where the relations are `shifts`.
#[inline(always)]
fn fewest_by_shifts<W: Word>(shifts: &[Shift<W>], open: W) -> [W; 2] {
    let lower = lower_first(shifts);
    let zero = W::ZERO;
    let mut b = [zero; 4];
    for (k, s) in shifts.iter().enumerate() {
        let x = neighbours_toward(s, k < lower, open);
        let c0 = b[0] & x;
        b[0] ^= x;
        let c1 = b[1] & c0;
        b[1] ^= c0;
        if shifts.len() < 8 {
            // Three bits count to 7.
            b[2] |= c1;
        } else {
            b[3] |= b[2] & c1;
            b[2] ^= c1;
        }
    }
    let bits = if shifts.len() < 8 { &b[..3] } else { &b[..] };
    fewest_classes(open, bits, shifts.len())
}

/// The cells of `open` whose count (bit k of it in `bits[k]`, at most `most`) is the
/// least, and those whose count is the next least.
#[inline(always)]
fn fewest_classes<W: Word>(open: W, bits: &[W], most: usize) -> [W; 2] {
    let mut classes = [W::ZERO; 2];
    let mut found = 0;
    for k in 0..=most {
        let class = bits.iter().enumerate().fold(open, |class, (j, &b)| {
            class & if k >> j & 1 != 0 { b } else { !b }
        });
        if class != W::ZERO {
            classes[found] = class;
            found += 1;
            if found == 2 {
                break;
            }
        }
    }
    classes
}

/// `avail` (whose bits are the puzzle's shapes) with no bit past 15 where a generated
/// solver's puzzle has at most 16 shapes ([`lanes::TABLED_SHAPES`]): the same value, but
/// the compiler, which knows the number of shapes, then knows that too, and leaves out
/// the kernels' test of the shapes past 15 ([`Block::available`]) in every block.
#[inline(always)]
fn narrow_shapes<T: Tables>(t: T, avail: u64) -> u64 {
    if T::FOLDED && t.copies().len() <= lanes::TABLED_SHAPES as usize {
        avail & lanes::TABLED
    } else {
        avail
    }
}

/// [`fewest_open_neighbours`] cell by cell, each cell's neighbours in `neighbours`.
#[inline(always)]
fn fewest_by_cells<W: Word>(neighbours: &[W], open: W) -> [W; 2] {
    let (mut fewest, mut next) = (u32::MAX, u32::MAX);
    let mut classes = [W::ZERO; 2];
    let mut rest = open;
    while rest != W::ZERO {
        let c = rest.trailing_zeros() as usize;
        rest = rest.clear_lowest();
        let n = (neighbours[c] & open).count_ones();
        if n < fewest {
            (next, classes[1]) = (fewest, classes[0]);
            (fewest, classes[0]) = (n, W::bit(c));
        } else if n == fewest {
            classes[0] |= W::bit(c);
        } else if n < next {
            (next, classes[1]) = (n, W::bit(c));
        } else if n == next {
            classes[1] |= W::bit(c);
        }
    }
    classes
}

/// The shortest of the sets of the cells in `cells` (the first of the shortest), in the
/// state of `occ`; `None` where `cells` is empty.
#[inline(always)]
fn shortest_set<'a, T: Tables, I: Isa>(
    e: &'a SetTable<'_, T::Word>,
    mut cells: T::Word,
    occ: T::Word,
) -> Option<Span<'a, T::Word>> {
    let mut best: Option<Span<'a, T::Word>> = None;
    while cells != T::Word::ZERO {
        let span = e.span(e.set::<I>(cells.trailing_zeros() as usize, occ));
        cells = cells.clear_lowest();
        if best.is_none_or(|b| span.end - span.start < b.end - b.start) {
            best = Some(span);
        }
    }
    best
}

/// The blocks of `list[start..end]`, each block's masks and shapes: `start` and `end`
/// lie on block boundaries (lowering pads every set to whole blocks, [`List`]), and the
/// whole walk is checked against the list's length once, not block by block. Its
/// closure holds no intrinsic: a closure is compiled without the target features of the
/// kernel it sits in, and one that called the lanes' made them calls (the Tetris Cube ten
/// times slower).
#[inline(always)]
fn blocks<'a, W: Word, I: Isa>(
    list: &'a List<'a, W>,
    start: usize,
    end: usize,
) -> impl Iterator<Item = (&'a [W], &'a [u8])> {
    let width = <W::Block<I> as Block<W>>::WIDTH;
    debug_assert_eq!(
        (start % width, end % width),
        (0, 0),
        "a set is whole blocks"
    );
    list.masks[start..end]
        .chunks_exact(width)
        .zip(list.shapes[start..end].chunks_exact(width))
}

/// One block of a list walk (`masks` and `shapes`): the block's masks, the lanes whose
/// shape is available (never a set's padding), and of those the lanes whose image meets
/// no filled cell of `o` (the occupancy in every lane).
#[inline(always)]
fn block<W: Word, I: Isa>(
    masks: &[W],
    shapes: &[u8],
    o: W::Block<I>,
    avail: u64,
) -> (W::Block<I>, u8, u8) {
    let m = <W::Block<I> as Block<W>>::load(masks);
    let available = <W::Block<I> as Block<W>>::available(avail, shapes);
    (m, available, available & (o & m).zero_lanes())
}

/// Asks for the first block of `span` (its masks and shapes) to be brought into the
/// cache, without waiting for it.
#[inline(always)]
fn prefetch_span<W: Word>(span: Span<'_, W>) {
    if let (Some(m), Some(s)) = (
        span.list.masks.get(span.start),
        span.list.shapes.get(span.start),
    ) {
        prefetch(m);
        prefetch(s);
    }
}

/// The number of images of available shapes in `span` that fit, a block at a time
/// without a branch per image, counted no further than the block that reaches `enough`
/// (a cell with as many fits as the best so far is no better).
#[inline(always)]
fn count_fits<W: Word, I: Isa>(span: Span<'_, W>, occ: W, avail: u64, enough: u32) -> u32 {
    let o = <W::Block<I> as Block<W>>::splat(occ);
    let mut fits = 0;
    for (masks, shapes) in blocks::<W, I>(span.list, span.start, span.end) {
        if fits >= enough {
            break;
        }
        fits += block::<W, I>(masks, shapes, o, avail).2.count_ones();
    }
    fits
}

/// The images of `list[base..stop]` (at most 64) whose shape is available, and those of
/// them that fit without leaving an open region too small for any piece, as bits from
/// `base`: a block of images at a time, without a branch per image.
///
/// Entered through `Isa::call`, as a function of its own: written inside the walk that
/// places the fits, its vector constants lived across the recursive calls there and were
/// spilled, and reloaded inside this loop (10x6: 25.3 against 24.2 ms before the kernels
/// moved here). The compiler inlines the entry into a generated solver's levels
/// all the same (`Isa::call` says why), and there that pays; in the run-time engine it
/// stays a call. Calling it and the E step directly instead, inlined into every level,
/// measured no different (`fila solve` on the Tetris Cube 3.09 -> 3.07 s, the generated
/// one 2.66 -> 2.70 s; session 44).
#[inline(always)]
fn fits_of_blocks<T: Tables, I: Isa>(
    t: T,
    list: &List<'_, T::Word>,
    occ: T::Word,
    avail: u64,
    base: usize,
    stop: usize,
) -> (u32, u64) {
    let (full, form) = (t.full(), t.isolation());
    let shifts = t.shifts().unwrap_or(&[]);
    let o = <<T::Word as Word>::Block<I> as Block<T::Word>>::splat(occ);
    let walk = Walk {
        list,
        o,
        full,
        avail,
    };
    // The usual region tests with their shifts' number made a constant, so that the
    // run-time engine's loop tests neither the form nor each shift's way (a generated
    // solver's are constants already, and only its own arm is left): the cubic and
    // hexagonal lattices' cells (six shifts), the square lattice's pairs (four).
    // Tetris Cube, `fila solve`: 0.82 of the CPU time, by hand (BENCHMARKS.md, session 41).
    // In the run-time engine, each in two copies: where no shape past 15 is left
    // (`avail` then masked, which the loop's test of the shapes left,
    // `Block::available`, takes as known) and where some are. A generated solver has
    // one, the mask made where it knows its shapes ([`narrow_shapes`]).
    let narrow = Walk {
        avail: avail & lanes::TABLED,
        ..walk
    };
    match (form, shifts.len(), !T::FOLDED && lanes::tabled(avail)) {
        (Isolation::Cells, 6, true) => narrow.blocks(
            <&[_; 6]>::try_from(shifts).unwrap(),
            Isolation::Cells,
            base,
            stop,
        ),
        (Isolation::Cells, 6, false) => walk.blocks(
            <&[_; 6]>::try_from(shifts).unwrap(),
            Isolation::Cells,
            base,
            stop,
        ),
        (Isolation::Pairs, 4, true) => narrow.blocks(
            <&[_; 4]>::try_from(shifts).unwrap(),
            Isolation::Pairs,
            base,
            stop,
        ),
        (Isolation::Pairs, 4, false) => walk.blocks(
            <&[_; 4]>::try_from(shifts).unwrap(),
            Isolation::Pairs,
            base,
            stop,
        ),
        _ => walk.blocks(shifts, form, base, stop),
    }
}

/// What [`fits_of_blocks`] walks: a list, the occupancy in every lane, the box's cells
/// and the shapes available.
struct Walk<'a, W: Word, I: Isa> {
    list: &'a List<'a, W>,
    o: W::Block<I>,
    full: W,
    avail: u64,
}

impl<W: Word, I: Isa> Walk<'_, W, I> {
    /// [`fits_of_blocks`] with the region test `form` over `shifts`.
    #[inline(always)]
    fn blocks(&self, shifts: &[Shift<W>], form: Isolation, base: usize, stop: usize) -> (u32, u64) {
        let width = <W::Block<I> as Block<W>>::WIDTH;
        let mut tried = 0;
        let mut fits = 0;
        for (k, (masks, shapes)) in blocks::<W, I>(self.list, base, stop).enumerate() {
            let (m, available, fit) = block::<W, I>(masks, shapes, self.o, self.avail);
            tried += available.count_ones();
            let fit = fit & isolated(self.o | m, self.full, shifts, form).zero_lanes();
            fits |= (fit as u64) << (k * width);
        }
        (tried, fits)
    }
}

/// The same for one image a block (words wider than 64 bits, which do not vectorise):
/// the fit alone, the region test being left to the fits.
#[inline(always)]
fn fits_of_words<W: Word>(
    list: &List<'_, W>,
    occ: W,
    avail: u64,
    base: usize,
    stop: usize,
) -> (u32, u64) {
    let mut tried: u64 = 0;
    let mut fits: u64 = 0;
    for (k, (&m, &s)) in list.masks[base..stop]
        .iter()
        .zip(&list.shapes[base..stop])
        .enumerate()
    {
        let available = (avail >> s) & 1;
        tried |= available << k;
        fits |= (available & (occ & m == W::ZERO) as u64) << k;
    }
    (tried.count_ones(), fits)
}

#[cfg(test)]
mod tests {
    use super::super::isa::Portable;
    use super::super::tables::NoTail;
    use super::*;

    /// Probes a node with 5 pieces left, shapes 0 and 1 available, filled cells `occ`.
    fn probe(s: &mut State<NoTail<u64>>, occ: u64) -> Lookup {
        s.probe(NoTail::default(), 5, occ, 0b11)
    }

    /// Where a node of [`probe`] and [`search`] finds what its symmetry check left
    /// undecided below it.
    fn below() -> usize {
        NoTail::<u64>::default()
            .pieces()
            .wrapping_sub(5)
            .wrapping_add(1)
            & 63
    }

    /// Searches a node that the table did not know: `reach` solutions, with `undecided`
    /// what its symmetry check, before its lookup, left undecided below it (0: judged).
    fn search(s: &mut State<NoTail<u64>>, occ: u64, reach: u64, undecided: u64) {
        s.undecided[below()] = undecided;
        let Lookup::Open(pending) = probe(s, occ) else {
            panic!("a node not stored was found, or the table was lost");
        };
        s.leaves += reach;
        s.settle(NoTail::default(), 5, occ, pending);
    }

    /// The E heuristic's first cells and its next ones, by the counters and cell by cell,
    /// against each open cell's open neighbours counted one by one, in a 4x4x4 box.
    #[test]
    fn the_cells_with_the_fewest_and_the_next_fewest_open_neighbours() {
        let at = |x: i32, y: i32, z: i32| {
            if [x, y, z].iter().all(|v| (0..4).contains(v)) {
                1u64 << (x + 4 * (y + 4 * z))
            } else {
                0
            }
        };
        let neighbours: Vec<u64> = (0..64)
            .map(|c| {
                let (x, y, z) = (c % 4, c / 4 % 4, c / 16);
                at(x - 1, y, z)
                    | at(x + 1, y, z)
                    | at(x, y - 1, z)
                    | at(x, y + 1, z)
                    | at(x, y, z - 1)
                    | at(x, y, z + 1)
            })
            .collect();
        let mut rng = crate::rng::SplitMix64::new(39);
        let mut widened = 0;
        for round in 0..3000 {
            // A few cells open, or all but a few, or none.
            let few = (0..=round % 3).fold(rng.next_u64(), |o, _| o & rng.next_u64());
            let open = if round == 0 {
                0
            } else if round % 2 == 0 {
                few
            } else {
                !few
            };
            let count = |c: usize| (neighbours[c] & open).count_ones();
            let mut counts: Vec<u32> = (0..64).filter(|&c| open >> c & 1 == 1).map(count).collect();
            counts.sort_unstable();
            counts.dedup();
            let class = |k: usize| {
                counts.get(k).map_or(0, |&n| {
                    (0..64)
                        .filter(|&c| open >> c & 1 == 1 && count(c) == n)
                        .fold(0, |w, c| w | 1 << c)
                })
            };
            let expected = [class(0), class(1)];
            widened += usize::from(expected[1] != 0);
            assert_eq!(
                fewest_by_cells(&neighbours, open),
                expected,
                "open {open:#x}"
            );
            let bits: Vec<u64> = (0..3)
                .map(|j| {
                    (0..64)
                        .filter(|&c| open >> c & 1 == 1 && count(c) >> j & 1 == 1)
                        .fold(0, |w, c| w | 1 << c)
                })
                .collect();
            assert_eq!(fewest_classes(open, &bits, 6), expected, "open {open:#x}");
        }
        assert!(
            widened > 2000,
            "the next cells are rarely there to test: {widened}"
        );
    }

    /// Near the bottom the E heuristic's target is the cell whose set is the shortest in
    /// the state of the word, the first of the shortest on a tie: cells 0, 1, 2 and 3,
    /// each with one cell of context (cell 4) choosing between two sets.
    #[test]
    fn the_shortest_set_of_the_candidates() {
        let masks = [0u64; 160];
        let (images, shapes) = ([0u16; 160], [0u8; 160]);
        let list = List {
            masks: &masks,
            images: &images,
            shapes: &shapes,
        };
        // Cell c's sets are 2c (cell 4 open) and 2c + 1 (filled).
        let lengths = [16, 24, 8, 16, 16, 8, 24, 40];
        let index: Vec<u32> = std::iter::once(0)
            .chain(lengths.iter().scan(0, |end, &n| {
                *end += n;
                Some(*end)
            }))
            .collect();
        let table = SetTable {
            context: &[1 << 4; 4],
            set_base: &[0, 2, 4, 6],
            index: &index,
            list,
        };
        let shortest = |cells: u64, occ: u64| {
            shortest_set::<NoTail<u64>, Portable>(&table, cells, occ).map(|s| (s.start, s.end))
        };
        let span = |set: usize| Some((index[set] as usize, index[set + 1] as usize));
        assert_eq!(shortest(0b1111, 0), span(2), "cell 4 open: cell 1's 8");
        assert_eq!(
            shortest(0b1111, 1 << 4),
            span(5),
            "cell 4 filled: cell 2's 8"
        );
        assert_eq!(
            shortest(0b1001, 1 << 4),
            span(1),
            "cells 0 and 3: 24 against 40"
        );
        assert_eq!(
            shortest(0b0101, 0),
            span(0),
            "cells 0 and 2: 16 and 16, the first"
        );
        assert_eq!(shortest(0, 0), None, "no candidate");
    }

    #[test]
    fn a_node_is_given_up_only_when_the_table_knows_it_dead() {
        let mut s = Solver::<NoTail<u64>>::new().state;
        assert!(matches!(probe(&mut s, 0b111), Lookup::Untabled));
        s.dead = DeadStates::new(1 << 20, &[1, 1], true, false, None).map(Box::new);
        assert!(matches!(probe(&mut s, 0b111), Lookup::Open(_)));
        // Searched to the end, past its check, without a solution: dead from now on,
        // judged or not where it is reached again.
        search(&mut s, 0b111, 0, 0);
        assert!(matches!(probe(&mut s, 0b111), Lookup::Dead));
        s.undecided[below()] = 0b10;
        assert!(matches!(probe(&mut s, 0b111), Lookup::Dead));
        // Also where what was undecided was left to the check of each solution.
        search(&mut s, 0b10111, 0, DEFERRED);
        assert!(matches!(probe(&mut s, 0b10111), Lookup::Dead));
        // A node that reached a solution (kept or not) is not dead, nor is it kept in a
        // table without counts.
        search(&mut s, 0b1011, 1, 0);
        assert!(matches!(probe(&mut s, 0b1011), Lookup::Open(_)));
        // Nor one given up by its symmetry check, or left with elements undecided.
        search(&mut s, 0b1101, 0, 0b10);
        assert!(matches!(probe(&mut s, 0b1101), Lookup::Open(_)));
        // Nor one whose search was stopped.
        s.stop = true;
        search(&mut s, 0b1110, 0, 0);
        assert!(matches!(probe(&mut s, 0b1110), Lookup::Open(_)));
    }

    #[test]
    fn a_count_is_kept_and_taken_only_where_every_element_was_decided() {
        let mut s = Solver::<NoTail<u64>>::new().state;
        s.dead = DeadStates::new(1 << 20, &[1, 1], true, true, None).map(Box::new);
        // Judged, three solutions: found again judged, its count is taken.
        search(&mut s, 0b111, 3, 0);
        assert!(matches!(probe(&mut s, 0b111), Lookup::Counted(3)));
        // Not where the node reached again is not judged: its check may reject some.
        s.undecided[below()] = 0b10;
        assert!(matches!(probe(&mut s, 0b111), Lookup::Open(_)));
        s.undecided[below()] = DEFERRED;
        assert!(matches!(probe(&mut s, 0b111), Lookup::Open(_)));
        // Another state, another count; and a dead one is dead.
        search(&mut s, 0b1011, 0, 0);
        search(&mut s, 0b1101, 7, 0);
        assert!(matches!(probe(&mut s, 0b1011), Lookup::Dead));
        assert!(matches!(probe(&mut s, 0b1101), Lookup::Counted(7)));
        // Solutions left to the check of each solution, or reached with elements
        // undecided, are not kept; nor those of a search that was stopped.
        search(&mut s, 0b10011, 2, DEFERRED);
        search(&mut s, 0b10101, 2, 0b10);
        s.undecided[below()] = 0;
        assert!(matches!(probe(&mut s, 0b10011), Lookup::Open(_)));
        assert!(matches!(probe(&mut s, 0b10101), Lookup::Open(_)));
        s.stop = true;
        search(&mut s, 0b11001, 2, 0);
        s.undecided[below()] = 0;
        assert!(matches!(probe(&mut s, 0b11001), Lookup::Open(_)));
    }

    #[test]
    fn a_dead_end_is_neither_looked_up_nor_stored() {
        use super::super::isa::Portable;
        use super::super::level::L5;
        use crate::info::testing::example;
        use crate::options::Options;
        use crate::plan::Plan;
        use crate::search::SharedRun;

        let info = example();
        let plan = Plan::resolve(&info, &Options::from_args(&[]).unwrap()).unwrap();
        let shared = SharedRun::silent(&info, &plan);
        let mut ctx = Context::searching(&shared, 0);
        let mut s = Solver::<NoTail<u64>>::new().state;
        s.dead = DeadStates::new(1 << 20, &[1, 1], true, false, None).map(Box::new);
        // No image fits anywhere: the node is a dead end, given up before its lookup.
        s.search::<L5, Portable>(NoTail::default(), &mut ctx, 0b111, 0b11);
        assert!(!s.consult, "the question was left for another node");
        assert!(matches!(probe(&mut s, 0b111), Lookup::Open(_)));
        assert_eq!(s.dead.as_ref().unwrap().probes(5), 1);
    }
}
