//! Dead states: nodes whose subtree holds no solution, remembered by their filled cells
//! and the pieces left, so that the search gives up at once a node it reaches again in the
//! same state by another order of the same pieces.
//!
//! Whether a node has a completion depends only on its filled cells, the pieces left and
//! the tables: the order of the search, the pruning (which only removes nodes without a
//! completion) and the symmetry check of the subtree do not change it. So the search
//! records a node whose subtree it searched whole without a solution, where no symmetry
//! check could have cut it short (see `State::settle`), and gives up any node found
//! here. A node without a fit is neither looked up nor stored: finding that it has none
//! costs less than a lookup, and it would take a slot from a larger subtree
//! (`State::consult`). The key is exact (the whole occupancy word and the multiset of
//! pieces left); a slot holds the last state stored there, so a state forgotten only
//! costs its search again.
//!
//! Where the code of the pieces left leaves room, a key is one 64-bit word ([`Memo::key`]):
//! the first open cell, the cells after it (a window: where the search fills the first
//! open cell, every piece placed ends within a few columns of it) and the pieces left.
//! Two or three times the states of the wide slots (the code and the occupancy's one or
//! two limbs) fit the same memory. A state whose filled cells reach past the window has
//! no key of one word and is neither looked up nor stored. The E heuristic fills cells
//! anywhere, so a solver with an E stage keeps the wide slots (`Solver::configure`).
//!
//! The table starts small (in cache for small puzzles) and grows fourfold, keeping its
//! states, each time it has taken as many states as it holds, up to the size `--memo`
//! allows each thread's solver. On a run of several threads, a thread's table of one-word
//! keys that would grow past [`SHARE_FROM`] moves instead to a table all the run's threads
//! share ([`RunShare`], [`Shared`]), which grows in the same way up to the threads'
//! sizes together: a state one thread finds dead is then dead for all.
//!
//! Where a run asks only for the number of solutions (`-q`, nothing drawn, no limit,
//! under the redundancy filter), a table of one-word keys keeps with each key the
//! number of the state's completions, counted where the search of its node went to the
//! end past every symmetry check (`State::settle`): a dead state is one whose count is
//! zero, and a live one found again adds its count without its search. The count shares
//! the key's word ([`packed`]), so that a slot takes no more memory than without: a
//! key and its count side by side in two words took the one-sided 18x5 on one thread
//! 3.08 s and 332 MB against 2.49 s and 168 MB, the 15x6 on two 8.19 s and 268 M
//! placements against 7.80 s and 242 M (session 50, AMD EPYC, 3 to 5 runs each,
//! interleaved). Against the table without counts (session 49, by hand): the
//! one-sided 18x5 on one thread 3.97 -> 3.59 s (55.4 -> 41.9 M placements), the 15x6 on
//! two 11.21 -> 10.65 s; the 10x9 the same. The cubes' states are rarely reached twice
//! with solutions (under 1 % fewer placements with a table that forgets nothing), and
//! their tables (wide keys, for the E heuristic) keep no counts.
//!
//! [`DeadStates`] decides where the table is consulted: from [`MEMO_FROM`] pieces left up,
//! each level until its probes are found to save less than they cost (weighed from
//! [`FIRST_REVIEW`] probes on; before, a level that finds almost nothing is dropped at
//! its first review).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, TryLockError};

use super::bits::Word;
use super::isa::prefetch;
use crate::search::RunShare;

/// The first table: 4096 slots.
const FIRST_BITS: u32 = 12;

/// A level's probes are weighed against what they saved every this many probes.
const MEMO_REVIEW: u64 = 1 << 16;

/// A level is weighed against [`PROBE_WORTH`] from this many probes on: at the first
/// [`MEMO_REVIEW`], the one-sided 15x6 on two threads once dropped the levels of 4 and 5
/// pieces left (their hits save more as the table fills, and each thread's table had seen
/// half the states), and made 540 M placements rather than 314 M. Before it, only
/// against [`HOPELESS`].
const FIRST_REVIEW: u64 = 4 * MEMO_REVIEW;

/// A level measures the placements below one in this many of the nodes it searches:
/// summing the counts by level around every node cost the one-sided 18x5 4.4 % more
/// instructions.
const MEASURE_EVERY: u64 = 8;

/// A level is dropped when its hits, each worth the placements of the average subtree
/// searched there, save fewer placements a probe than this. A probe costs about one to
/// three placements, but what a level saves grows as the table fills, so the bar is
/// lower than that. Saved a probe at the reviews (session 47, `fila solve`; the first
/// review, then the fourth): the one-sided 18x5 at 4 to 7 pieces left 1.15 to 3.23 at
/// the first; the one-sided 15x6 on two threads, each thread's table, 0.42 to 1.38 at 4
/// to 6 left at the first and 0.79 to 1.97 at the fourth; the Tetris Cube 0.05 to 0.21
/// at 4 to 6 left, then 0.06 to 0.27, and 0.8 to 1.1 at 7; the Bedlam Cube 0.06 to 0.29
/// at 4 to 6, then 0.08 to 0.31 (the level of 6 stays near 0.35 over 1.2 M probes), 0.8
/// to 1.2 at 7; the Kanoodle pyramid 0.15 to 0.42 at 4 to 6, then 0.21 to 0.40. The bar
/// of 0.3 kept the Bedlam Cube's level of 6 and 0.5 drops it; `--memo off` took `fila
/// solve` on the Bedlam Cube 3.18 -> 3.02 s and on the Tetris Cube 2.93 -> 2.85 s, the
/// generated Tetris Cube 2.55 -> 2.48 s (7 runs each).
const PROBE_WORTH: f64 = 0.5;

/// Before [`FIRST_REVIEW`], a level is dropped at a review only when it saves fewer
/// placements a probe than this: levels that find almost nothing (the cubes' 4 and 5
/// pieces left, 0.05 to 0.09 at the first review) stop at the first.
const HOPELESS: f64 = 0.15;

/// A table that keeps counts stores a state with solutions only while at least this many
/// pieces are left: below, its subtree (on the one-sided 18x5, some six placements at 4
/// pieces left) is worth less than the dead state its slot may hold. One thread, counts
/// from 4, 5 and 6 pieces left: the one-sided 18x5 3.60, 3.25 and 3.17 s (41.3, 41.9 and
/// 43.4 M placements; 3.58 s and 55.4 M without counts), the 15x6 21.6, 20.2 and 21.5 s.
const COUNT_FROM: usize = 5;

/// States are kept while at least this many pieces are left: below, a subtree costs
/// less than looking it up (one-sided 18x5, pieces left from 3, 4 or 6: 12.4, 12.3,
/// 11.9 s, with 83, 87 and 163 M placements).
pub const MEMO_FROM: usize = 4;

/// One solver's table of dead states, with the code of the pieces left in its keys and
/// the levels (pieces left) that consult it.
pub struct DeadStates<W: Word> {
    table: Memo<W>,
    /// Whether it was made for keys of one word ([`DeadStates::new`]).
    one_word: bool,
    /// Whether it was asked to keep counts ([`DeadStates::new`]).
    counts_asked: bool,
    /// The code of each shape's copies in the key of a state: the pieces left are
    /// `sum(copies[s] * weights[s])`, a number in mixed radix. With one copy of each
    /// shape the code is the solver's `avail`.
    weights: [u64; 64],
    /// The levels (bit `k`: `k` pieces left) that consult the table; each is dropped
    /// when its probes cost more than they save ([`DeadStates::pays`]).
    levels: u64,
    /// By level: the nodes looked up in the table, those found dead, those searched
    /// whose placements below were measured ([`DeadStates::measures`]), and those
    /// placements.
    probes: [u64; 64],
    hits: [u64; 64],
    measured: [u64; 64],
    below: [u64; 64],
}

impl<W: Word> DeadStates<W> {
    /// Whether a solver in words `W` over pieces with these copies of each shape can
    /// keep dead states: the word fits a key, and the multisets of pieces 64 bits.
    pub fn possible(copies: &[u8]) -> bool {
        Memo::<W>::KEYS && weights(copies).is_some()
    }

    /// A table of at most `bytes` for pieces with these copies of each shape, with keys
    /// of `one_word` where the code of the pieces left leaves room ([`Memo::new`]), and
    /// with them the count of each state's completions where `counts` asks for them,
    /// moving to the run's table of `share` once grown ([`Memo::grow`]);
    /// `None` where none is [`possible`](DeadStates::possible) or `bytes` is too few.
    pub fn new(
        bytes: u64,
        copies: &[u8],
        one_word: bool,
        counts: bool,
        share: Option<Joined>,
    ) -> Option<Self> {
        let (weights, codes) = weights(copies)?;
        let code_bits = one_word.then(|| 64 - (codes - 1).leading_zeros());
        Some(DeadStates {
            weights,
            table: Memo::new(bytes, code_bits, counts, share)?,
            one_word,
            counts_asked: counts,
            levels: !0 << MEMO_FROM,
            probes: [0; 64],
            hits: [0; 64],
            measured: [0; 64],
            below: [0; 64],
        })
    }

    /// The memory the table was allowed ([`Memo::limit`]).
    pub fn limit(&self) -> u64 {
        self.table.limit()
    }

    /// Whether it was made for keys of one word, as [`DeadStates::new`] was asked (where
    /// the code of the pieces left leaves no room, its keys are wide all the same).
    pub fn one_word(&self) -> bool {
        self.one_word
    }

    /// Whether it was asked to keep the count of each state's completions, as
    /// [`DeadStates::new`] was (it keeps them only with keys of one word).
    pub fn counts_asked(&self) -> bool {
        self.counts_asked
    }

    /// Whether nodes with `left` pieces left consult the table.
    #[inline(always)]
    pub fn consulted(&self, left: usize) -> bool {
        self.levels >> left & 1 != 0
    }

    /// The code of the pieces left: `avail` where each shape has one copy, else from the
    /// copies left of each shape.
    #[inline(always)]
    pub fn code(&self, one_per_shape: bool, avail: u64, copies: &[u8]) -> u64 {
        if one_per_shape {
            avail
        } else {
            copies
                .iter()
                .zip(&self.weights)
                .fold(0, |code, (&c, &w)| code + u64::from(c) * w)
        }
    }

    /// What one piece of shape `s` weighs in the code of the pieces left: the code of a
    /// node's child where that piece was placed is the node's less this.
    #[inline(always)]
    pub fn weight(&self, s: usize) -> u64 {
        self.weights[s & 63]
    }

    /// Looks a node with `left` pieces left up: its completions where it is known (zero:
    /// dead), a count above zero only where the node is `judged` (past every symmetry
    /// check, so that all of them are solutions here too). Every [`MEMO_REVIEW`] probes,
    /// the level is dropped unless it [`pays`](DeadStates::pays) [`PROBE_WORTH`]
    /// ([`HOPELESS`] before [`FIRST_REVIEW`]).
    #[inline(always)]
    pub fn probe(&mut self, left: usize, occ: W, code: u64, judged: bool) -> Option<u64> {
        let level = left & 63;
        let found = self
            .table
            .find(occ, code)
            .filter(|&count| count == 0 || judged);
        self.probes[level] += 1;
        self.hits[level] += u64::from(found.is_some());
        if self.probes[level].is_multiple_of(MEMO_REVIEW) {
            let bar = if self.probes[level] >= FIRST_REVIEW {
                PROBE_WORTH
            } else {
                HOPELESS
            };
            if !self.pays(level, bar) {
                self.levels &= !(1 << level);
            }
        }
        found
    }

    /// Asks the processor to bring the slot of a state into its cache, ahead of its
    /// lookup: the table is far larger than the caches, and a lookup waits for memory.
    #[inline(always)]
    pub fn prefetch(&self, occ: W, code: u64) {
        self.table.prefetch(occ, code);
    }

    /// Whether the placements below the node with `left` pieces left that
    /// [`probe`](DeadStates::probe) has just not found dead are to be measured: one in
    /// [`MEASURE_EVERY`] of the level's.
    #[inline(always)]
    pub fn measures(&self, left: usize) -> bool {
        let level = left & 63;
        (self.probes[level] - self.hits[level]) % MEASURE_EVERY == 1
    }

    /// After the search of a node that [`probe`](DeadStates::probe) did not know: the
    /// placements made below it where [measured](DeadStates::measures), and its
    /// completions where they are now known (zero: searched whole without a solution,
    /// where no symmetry check could have cut one short), to be stored where the table
    /// keeps them (a count above zero only where it keeps counts, and from
    /// [`COUNT_FROM`] pieces left up).
    #[inline(always)]
    pub fn searched(
        &mut self,
        left: usize,
        occ: W,
        code: u64,
        placements: Option<u64>,
        completions: Option<u64>,
    ) {
        if let Some(placements) = placements {
            self.measured[left & 63] += 1;
            self.below[left & 63] += placements;
        }
        match completions {
            Some(0) => self.table.store(occ, code, 0),
            Some(count) if self.table.counts && left >= COUNT_FROM => {
                self.table.store(occ, code, count)
            }
            _ => {}
        }
    }

    /// The nodes with `left` pieces left looked up so far.
    #[cfg(test)]
    pub fn probes(&self, left: usize) -> u64 {
        self.probes[left & 63]
    }

    /// Whether the table has saved, at `level`, at least `bar` placements a probe: each
    /// hit as many as the average subtree measured at that level.
    fn pays(&self, level: usize, bar: f64) -> bool {
        let measured = self.measured[level].max(1) as f64;
        let saved = self.hits[level] as f64 * self.below[level] as f64 / measured;
        saved >= self.probes[level] as f64 * bar
    }
}

/// The weight of each shape's copies in the code of the pieces left
/// ([`DeadStates::weights`]): one more than the copies of the shapes before it,
/// multiplied; and the number of codes, the product of all (`None` when that passes 64
/// bits).
fn weights(copies: &[u8]) -> Option<([u64; 64], u64)> {
    let mut weights = [0; 64];
    let mut weight = 1u64;
    for (w, &c) in weights.iter_mut().zip(copies) {
        *w = weight;
        weight = weight.checked_mul(u64::from(c) + 1)?;
    }
    Some((weights, weight))
}

/// The bits of a one-word key ([`Memo::key`]) that give the first open cell (0 to 128).
const CELL_BITS: u32 = 8;

/// Keys of one word where their window ([`Memo::key`]) holds at least this many cells:
/// two columns of a 6-high board and more (the one-sided pentominoes: 18 bits of code,
/// a window of 38 cells). Fewer, and too many states would be left out of the table.
const LEAST_WINDOW: u32 = 12;

/// A thread's own table of one-word keys moves to the table the run's threads share
/// ([`RunShare`], [`Shared`]) rather than grow past this many bytes: small puzzles keep
/// theirs in the caches, and larger ones share what each thread finds. From 1 MiB rather
/// than 64 MiB, the one-sided 15x6 on two threads made 311 M placements rather than
/// 358 M, the 18x5 55 M rather than 58 M (both with [`FIRST_REVIEW`]).
const SHARE_FROM: u64 = 1 << 20;

/// A thread adds the states it stored in the run's table to the table's count, and looks
/// for a larger table made by another thread, every this many ([`Memo::flush`]).
const FLUSH: u64 = 1 << 10;

/// The table of dead states of one word, shared by a run's threads ([`RunShare`]): the
/// one they store in now, replaced by one four times larger, its states moved over, each
/// time it has taken as many states as it holds, as a thread's own table grows
/// ([`Memo::grow`]). A slot is one 64-bit word ([`packed`]: the state's key and its
/// count), read and written whole, so that a thread never sees a state half written by
/// another; a state stored by one is known to all, since whether a state has a
/// completion, and how many, does not depend on the path to it.
struct Shared {
    current: Mutex<Arc<SharedTable>>,
}

/// One size of a [`Shared`] table: its slots ([`packed`]), and the states stored in it as
/// the threads have counted them so far ([`FLUSH`]).
struct SharedTable {
    slots: Vec<AtomicU64>,
    stored: AtomicU64,
}

impl SharedTable {
    fn new(bits: u32) -> Arc<SharedTable> {
        Arc::new(SharedTable {
            slots: zeroed_atomic(1 << bits),
            stored: AtomicU64::new(0),
        })
    }

    /// The slots' number, as a power of two.
    fn bits(&self) -> u32 {
        self.slots.len().ilog2()
    }

    /// Stores the states of a table of `2^bits` slots (its words, slot by slot: see
    /// [`moved`]); counted as stored.
    fn take(&self, bits: u32, words: impl Iterator<Item = u64>) {
        let mut taken = 0;
        for (at, word) in moved(bits, words, self.bits()) {
            self.slots[at].store(word, Relaxed);
            taken += 1;
        }
        self.stored.fetch_add(taken, Relaxed);
    }

    /// Its slots' words.
    fn words(&self) -> impl Iterator<Item = u64> + '_ {
        self.slots.iter().map(|slot| slot.load(Relaxed))
    }
}

/// `n` atomic words, zero, as [`zeroed`]'s are (untouched, on huge pages where large):
/// made one by one, the shared table of the one-sided 15x6 (1 GiB) would be written
/// whole before its first state.
fn zeroed_atomic(n: usize) -> Vec<AtomicU64> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).expect("a table within memory");
    if layout.size() == 0 {
        return Vec::new();
    }
    // SAFETY: the layout is not empty; the memory, from the global allocator with the
    // layout of `n` atomic words, is zero, a valid `AtomicU64` (it has the size and the
    // bits of a `u64`); and the vector, of capacity `n` and length `n`, owns it and frees
    // it with the same layout.
    let words = unsafe {
        let words = std::alloc::alloc_zeroed(layout).cast::<AtomicU64>();
        if words.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        Vec::from_raw_parts(words, n, n)
    };
    if layout.size() >= HUGE_FROM {
        huge_pages(words.as_ptr() as usize, layout.size());
    }
    words
}

/// A one-word key ([`Memo::key`]) mixed: a bijection, so that two keys never share their
/// mixed form, whose high bits spread the keys over a table's slots ([`slot_of_mixed`]).
#[inline(always)]
fn mixed(key: u64) -> u64 {
    let h = (key ^ key >> 31).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h ^ h >> 29).wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
}

/// The slot of a mixed key in a table of `2^bits` slots: its top `bits` bits.
#[inline(always)]
fn slot_of_mixed(bits: u32, mixed: u64) -> usize {
    (mixed >> (64 - bits)) as usize
}

/// The word a table of `2^bits` slots holds for a state: in the low `64 - bits` bits, its
/// mixed key's (whose top `bits` bits are its slot's number, so that the word and the
/// slot give back the whole of it); in the top `bits` bits its tag, the count of its
/// completions plus one (zero: an empty slot). Half the memory of a key and a count side
/// by side, and a slot of the run's table is one 64-bit atomic word. A count needs
/// `bits` bits: a table of 4096 slots keeps counts below 4095, a table of 128 MiB below
/// 2^24 - 1.
#[inline(always)]
fn packed(bits: u32, mixed: u64, tag: u64) -> u64 {
    tag << (64 - bits) | mixed & (u64::MAX >> bits)
}

/// A slot's state, as [`packed`] it in slot `at` of a table of `2^bits` slots: its mixed
/// key and its tag; `None` for an empty slot.
#[inline(always)]
fn unpacked(bits: u32, at: usize, word: u64) -> Option<(u64, u64)> {
    let tag = word >> (64 - bits);
    (tag != 0).then(|| ((at as u64) << (64 - bits) | word & (u64::MAX >> bits), tag))
}

/// The states that `words`, the slots of a table of `2^bits` one-word slots in order,
/// hold, each as its slot and its word in a table of `2^to` slots (`to` at least `bits`:
/// the slot's number gives back the top of the mixed key, [`packed`]).
fn moved(
    bits: u32,
    words: impl Iterator<Item = u64>,
    to: u32,
) -> impl Iterator<Item = (usize, u64)> {
    let states = words
        .enumerate()
        .filter_map(move |(at, word)| unpacked(bits, at, word));
    states.map(move |(mixed, tag)| (slot_of_mixed(to, mixed), packed(to, mixed, tag)))
}

/// The tag ([`packed`]) of a state with `count` completions, where a table of `2^bits`
/// slots has room for it.
#[inline(always)]
fn tag_of(bits: u32, count: u64) -> Option<u64> {
    count.checked_add(1).filter(|&tag| tag >> bits == 0)
}

/// A solver's place in a run's [`RunShare`] tables: the run's, and its word's first cell.
pub type Joined = (Arc<RunShare>, usize);

/// A table of dead states, for occupancy words of at most 128 bits.
pub struct Memo<W: Word> {
    /// The run's tables to move to (keys of one word only), until moved.
    share: Option<Joined>,
    /// Once moved, the run's table and the size of it stored in, and `slots` is empty.
    shared: Option<(Arc<Shared>, Arc<SharedTable>)>,
    /// [`Memo::stride`] words a slot. With keys of one word ([`Memo::key`]) the key and
    /// its count in one word ([`packed`]); else the pieces left (their code, never zero
    /// in a stored state: zero marks an empty slot), then the occupancy's 64-bit limbs.
    slots: Vec<u64>,
    /// The cells of a one-word key's window; 0 for wide slots.
    window: u32,
    /// Whether each key has the count of the state's completions with it (keys of one
    /// word only): else every state stored is dead.
    counts: bool,
    bits: u32,
    /// The table grows no further than this many slots (a power of two).
    most_bits: u32,
    /// States stored since the table last grew.
    stored: usize,
    /// The memory it was allowed, as asked.
    limit: u64,
    word: std::marker::PhantomData<W>,
}

impl<W: Word> Memo<W> {
    /// The occupancy's 64-bit limbs in a wide slot: 1 or 2.
    const LIMBS: usize = std::mem::size_of::<W>().div_ceil(8);
    /// The words of a wide slot: the code, then the limbs.
    const WIDE: usize = 1 + Self::LIMBS;

    /// Whether states of this word fit a slot.
    pub const KEYS: bool = Self::LIMBS <= 2;

    /// A table that grows to at most `bytes`: with keys of one word ([`Memo::key`])
    /// where they are asked for, with codes of the pieces left of `code_bits` bits, and
    /// these leave a window of [`LEAST_WINDOW`] cells or more, and their counts with them
    /// where `counts` asks for them ([`packed`]); else wide slots (none when `bytes` is
    /// less than the first table, or the word is wider than 128 bits). A table of
    /// one-word keys moves to the run's of `share` once grown ([`Memo::grow`]).
    pub fn new(
        bytes: u64,
        code_bits: Option<u32>,
        counts: bool,
        share: Option<Joined>,
    ) -> Option<Self> {
        let window = code_bits
            .map(|bits| (64 - CELL_BITS).saturating_sub(bits))
            .filter(|&window| window >= LEAST_WINDOW)
            .unwrap_or(0);
        let stride = if window != 0 { 1 } else { Self::WIDE };
        let slots = bytes / (stride * 8) as u64;
        if !Self::KEYS || slots < 1 << FIRST_BITS {
            return None;
        }
        Some(Memo {
            share: share.filter(|_| window != 0),
            shared: None,
            slots: zeroed(stride << FIRST_BITS),
            window,
            counts: counts && window != 0,
            bits: FIRST_BITS,
            most_bits: slots.ilog2(),
            stored: 0,
            limit: bytes,
            word: std::marker::PhantomData,
        })
    }

    /// The memory the table was allowed ([`Memo::new`]'s `bytes`).
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The most memory the table grows to: the largest power of two of slots allowed.
    pub fn most_bytes(&self) -> u64 {
        ((self.stride() * 8) as u64) << self.most_bits
    }

    /// The words of a slot: 1 with keys of one word, else [`Memo::WIDE`].
    fn stride(&self) -> usize {
        if self.window != 0 {
            1
        } else {
            Self::WIDE
        }
    }

    /// The state as one word, where its filled cells are all before its first open
    /// cell or within the `window` cells after it: the code, the first open cell and the
    /// window, from the high bits down. The code's bits leave room for the rest
    /// ([`Memo::new`]), so that no two states share a key.
    #[inline(always)]
    fn key(&self, occ: W, code: u64) -> Option<u64> {
        let x = occ.low_u128();
        let first = (!x).trailing_zeros();
        let after = x.checked_shr(first + 1).unwrap_or(0);
        (after >> self.window == 0)
            .then(|| (code << CELL_BITS | u64::from(first)) << self.window | after as u64)
    }

    #[inline(always)]
    fn limbs(occ: W) -> [u64; 2] {
        let x = occ.low_u128();
        [x as u64, (x >> 64) as u64]
    }

    /// The wide slot of a state, in a table of `2^bits` slots.
    #[inline(always)]
    fn slot(bits: u32, limbs: [u64; 2], code: u64) -> usize {
        let h = (limbs[0].wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            ^ limbs[1].wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ code.wrapping_mul(0x1656_67b1_9e37_79f9))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - bits)) as usize
    }

    /// A state's one-word key [`mixed`], and its slot in the table; `None` where the
    /// state has no such key.
    #[inline(always)]
    fn mixed_slot(&self, occ: W, code: u64) -> Option<(u64, usize)> {
        let mixed = mixed(self.key(occ, code)?);
        Some((mixed, slot_of_mixed(self.bits, mixed)))
    }

    /// The completions of the state (`occ` filled, `code` the pieces left), where it is
    /// stored: zero if it is dead (and in a table without counts, every state stored is).
    #[inline(always)]
    pub fn find(&self, occ: W, code: u64) -> Option<u64> {
        if code == 0 {
            return None;
        }
        if self.window != 0 {
            let (mixed, at) = self.mixed_slot(occ, code)?;
            let word = match &self.shared {
                Some((_, shared)) => shared.slots[at].load(Relaxed),
                None => self.slots[at],
            };
            let (stored, tag) = unpacked(self.bits, at, word)?;
            return (stored == mixed).then(|| tag - 1);
        }
        let limbs = Self::limbs(occ);
        let at = Self::slot(self.bits, limbs, code) * Self::WIDE;
        let s = &self.slots[at..at + Self::WIDE];
        (s[0] == code && s[1..] == limbs[..Self::LIMBS]).then_some(0)
    }

    /// Whether the state is known to be dead.
    #[cfg(test)]
    fn dead(&self, occ: W, code: u64) -> bool {
        self.find(occ, code) == Some(0)
    }

    /// [`DeadStates::prefetch`].
    #[inline(always)]
    pub fn prefetch(&self, occ: W, code: u64) {
        if self.window != 0 {
            let Some((_, at)) = self.mixed_slot(occ, code) else {
                return;
            };
            match &self.shared {
                Some((_, shared)) => prefetch(&shared.slots[at]),
                None => prefetch(&self.slots[at]),
            }
        } else {
            let at = Self::slot(self.bits, Self::limbs(occ), code) * Self::WIDE;
            prefetch(&self.slots[at]);
        }
    }

    /// Records a state (`code` not zero) and its completions: zero for a dead state, the
    /// only kind a table without counts takes. A count the table has no room for
    /// ([`packed`]) is not recorded.
    #[inline(always)]
    pub fn store(&mut self, occ: W, code: u64, count: u64) {
        debug_assert!(code != 0 && (count == 0 || self.counts));
        if self.window != 0 {
            let (Some((mixed, at)), Some(tag)) =
                (self.mixed_slot(occ, code), tag_of(self.bits, count))
            else {
                return;
            };
            let word = packed(self.bits, mixed, tag);
            if let Some((_, shared)) = &self.shared {
                shared.slots[at].store(word, Relaxed);
                self.stored += 1;
                if self.stored.is_multiple_of(FLUSH as usize) {
                    self.flush();
                }
                return;
            }
            self.slots[at] = word;
        } else {
            let limbs = Self::limbs(occ);
            let at = Self::slot(self.bits, limbs, code) * Self::WIDE;
            let s = &mut self.slots[at..at + Self::WIDE];
            s[0] = code;
            s[1..].copy_from_slice(&limbs[..Self::LIMBS]);
        }
        self.stored += 1;
        if self.stored >> self.bits != 0 && self.bits < self.most_bits {
            self.grow();
        }
    }

    /// Four times the slots, the states stored so far moved over; or, where the solver
    /// joined a run's [`RunShare`] tables, the run's table for its word instead of growing
    /// past [`SHARE_FROM`]: the threads' tables together, so that each thread's states
    /// take as much room as in a table of its own, its states moved over.
    #[cold]
    fn grow(&mut self) {
        let bits = (self.bits + 2).min(self.most_bits);
        if let Some((run, first_cell)) = self.share.take() {
            if 8u64 << bits > SHARE_FROM {
                let threads = run.threads().ilog2();
                let start = || Shared {
                    current: Mutex::new(SharedTable::new(bits + threads)),
                };
                if let Some(shared) = run.table(first_cell, start) {
                    let table = Arc::clone(&lock(&shared.current));
                    table.take(self.bits, std::mem::take(&mut self.slots).into_iter());
                    self.bits = table.bits();
                    self.most_bits += threads;
                    self.stored = 0;
                    self.shared = Some((shared, table));
                    return;
                }
            }
            self.share = Some((run, first_cell));
        }
        if self.window != 0 {
            let old = std::mem::replace(&mut self.slots, zeroed(1 << bits));
            for (at, word) in moved(self.bits, old.into_iter(), bits) {
                self.slots[at] = word;
            }
        } else {
            let wide = Self::WIDE;
            let old = std::mem::replace(&mut self.slots, zeroed(wide << bits));
            for s in old.chunks_exact(wide).filter(|s| s[0] != 0) {
                let mut limbs = [0; 2];
                limbs[..Self::LIMBS].copy_from_slice(&s[1..]);
                let at = Self::slot(bits, limbs, s[0]) * wide;
                self.slots[at..at + wide].copy_from_slice(s);
            }
        }
        self.bits = bits;
        self.stored = 0;
    }

    /// Adds this thread's last [`FLUSH`] states to the run's table's count; takes the larger
    /// table another thread made, if any, and where the table has taken as many states as
    /// it holds, makes one four times larger, the states moved over. States another thread
    /// stores in the old table while they move are lost, which only costs their search
    /// again.
    #[cold]
    fn flush(&mut self) {
        let Some((shared, table)) = &mut self.shared else {
            return;
        };
        let stored = table.stored.fetch_add(FLUSH, Relaxed) + FLUSH;
        let full = stored >= table.slots.len() as u64 && self.bits < self.most_bits;
        let current = match shared.current.try_lock() {
            Ok(current) => Some(current),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            // Another thread is making the next table: this one looks again later.
            Err(TryLockError::WouldBlock) => None,
        };
        let Some(mut current) = current else {
            return;
        };
        if full && Arc::ptr_eq(&current, table) {
            let larger = SharedTable::new((self.bits + 2).min(self.most_bits));
            larger.take(table.bits(), table.words());
            *current = larger;
        }
        if !Arc::ptr_eq(&current, table) {
            *table = Arc::clone(&current);
            self.bits = table.bits();
        }
    }
}

/// The guard of `mutex`, poisoned or not: a table is whole whatever a thread that
/// panicked left (each slot is one atomic word).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// `n` words, zero, for a table: from the allocator's zeroed memory, so that the pages are
/// touched only as states are stored; on huge pages where the table is large
/// ([`HUGE_FROM`]).
fn zeroed(n: usize) -> Vec<u64> {
    let words = vec![0u64; n];
    if n * 8 >= HUGE_FROM {
        huge_pages(words.as_ptr() as usize, n * 8);
    }
    words
}

/// Tables of at least this many bytes ask for huge pages ([`huge_pages`]). A lookup lands
/// anywhere in the table, and with pages of 4 KiB nearly every lookup in a large table
/// also misses the processor's cache of page addresses (TLB): on huge pages (2 MiB) the
/// one-sided 18x5 took 5.6 s against 7.5 s (one thread; 1 GiB of tables). Small tables
/// gain nothing and lose the time huge pages take to find and clear: the 10x6, whose
/// tables take a few MiB, took 36.7 ms against 30.9 ms on huge pages.
const HUGE_FROM: usize = 64 << 20;

/// Asks Linux to back `bytes` from `start` (an allocation of the caller's) with
/// transparent huge pages, where the system allows them on request (`madvise`, the
/// usual setting; with `always` they come anyway, with `never` not at all).
fn huge_pages(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    if let Some((from, to)) = huge_range(start, bytes) {
        // SAFETY: the range lies within the caller's allocation; the advice changes only
        // how the kernel backs these pages, not their contents or their validity, and a
        // refusal changes nothing.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}

/// The whole huge pages (2 MiB, aligned) within `bytes` from `start`: the addresses from
/// and to, or `None` where there is none.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn huge_range(start: usize, bytes: usize) -> Option<(usize, usize)> {
    const HUGE: usize = 2 << 20;
    let from = start.next_multiple_of(HUGE);
    let to = (start + bytes) / HUGE * HUGE;
    (from < to).then_some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key whose [`mixed`] form `m` is: each step of the mix undone.
    fn unmixed(m: u64) -> u64 {
        // The inverse of an odd number modulo 2^64, by Newton's iteration.
        let inverse = |c: u64| {
            (0..6).fold(c, |x, _| {
                x.wrapping_mul(2u64.wrapping_sub(c.wrapping_mul(x)))
            })
        };
        let unshift = |y: u64, s: u32| (0..64 / s).fold(y, |x, _| y ^ x >> s);
        let h = unshift(m.wrapping_mul(inverse(0xc2b2_ae3d_27d4_eb4f)), 29);
        unshift(h.wrapping_mul(inverse(0x9e37_79b9_7f4a_7c15)), 31)
    }

    /// Whether the run's `table` holds the state of one-word key `key`.
    fn holds(table: &SharedTable, key: u64) -> bool {
        let (m, bits) = (mixed(key), table.bits());
        let at = slot_of_mixed(bits, m);
        unpacked(bits, at, table.slots[at].load(Relaxed)).is_some_and(|(s, _)| s == m)
    }

    #[test]
    fn a_slot_packs_a_whole_key_and_its_count() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for _ in 0..10_000 {
            let key = rng.next_u64();
            assert_eq!(unmixed(mixed(key)), key);
            for bits in [12, 20, 30] {
                let m = mixed(key);
                let count = rng.next_u64() % ((1 << bits) - 1);
                let at = slot_of_mixed(bits, m);
                let tag = tag_of(bits, count).expect("room for a count below 2^bits - 1");
                assert_eq!(
                    unpacked(bits, at, packed(bits, m, tag)),
                    Some((m, count + 1))
                );
            }
        }
        // No room for a count of 2^bits - 1 or more; an empty slot holds no state.
        assert_eq!(tag_of(12, 4094), Some(4095));
        assert_eq!(tag_of(12, 4095), None);
        assert_eq!(tag_of(12, u64::MAX), None);
        assert_eq!(unpacked(12, 5, 0), None);
    }

    #[test]
    fn a_count_is_kept_only_where_the_table_has_room_for_it() {
        let mut memo = Memo::<u128>::new(1 << 30, Some(18), true, None).unwrap();
        // 4096 slots at first: counts up to 4094.
        memo.store(0b1, 5, 4094);
        memo.store(0b11, 5, 4095);
        assert_eq!((memo.find(0b1, 5), memo.find(0b11, 5)), (Some(4094), None));
        // Grown to 2^14 slots, up to 2^14 - 2.
        let mut k = 1u128;
        while memo.bits < 14 {
            k += 1;
            memo.store(k << 20, 9, 0);
        }
        assert_eq!(memo.find(0b1, 5), Some(4094));
        memo.store(0b11, 5, 4095);
        memo.store(0b111, 5, (1 << 14) - 1);
        assert_eq!(
            (memo.find(0b11, 5), memo.find(0b111, 5)),
            (Some(4095), None)
        );
    }

    /// A state is found under its whole key alone: `far` is a cell of `memo`'s word.
    /// (With `count` its completions, where `memo` keeps counts.)
    fn found_under_its_whole_key(mut memo: Memo<u128>, far: u32, count: u64) {
        let occ = 0b1011u128 | 1 << far;
        memo.store(occ, 6, count);
        assert_eq!(memo.find(occ, 6), Some(count));
        // Another word, or other pieces left, is another state.
        assert_eq!(memo.find(occ ^ 1 << far, 6), None);
        assert_eq!(memo.find(occ ^ 1, 6), None);
        assert_eq!(memo.find(occ ^ 1 << 2, 6), None);
        assert_eq!(memo.find(occ | 1 << (far + 1), 6), None);
        assert_eq!(memo.find(occ, 7), None);
        // An empty slot matches nothing, the empty state included.
        assert_eq!(memo.find(0, 0), None);
        // A state stored again takes its new count (a dead one in a table without).
        memo.store(occ, 6, 0);
        assert!(memo.dead(occ, 6));
    }

    #[test]
    fn a_state_is_found_only_under_its_whole_key() {
        // Codes of 18 bits: keys of one word, with a window of 38 cells; with their
        // counts, still one word a slot.
        let memo = Memo::<u128>::new(1 << 20, Some(18), false, None).unwrap();
        assert_eq!((memo.stride(), memo.window), (1, 38));
        found_under_its_whole_key(memo, 40, 0);
        let memo = Memo::<u128>::new(1 << 20, Some(18), true, None).unwrap();
        assert_eq!((memo.stride(), memo.window, memo.counts), (1, 38, true));
        found_under_its_whole_key(memo, 40, 4000);
        // Codes of 50 bits: wide slots, any cell, and no counts even where asked for.
        let memo = Memo::<u128>::new(1 << 20, Some(50), false, None).unwrap();
        assert_eq!((memo.stride(), memo.window), (3, 0));
        found_under_its_whole_key(memo, 100, 0);
        let memo = Memo::<u128>::new(1 << 20, Some(50), true, None).unwrap();
        assert_eq!((memo.stride(), memo.counts), (3, false));
    }

    #[test]
    fn a_state_past_its_window_is_neither_stored_nor_found() {
        let mut memo = Memo::<u128>::new(1 << 20, Some(18), false, None).unwrap();
        // Cells 0 to 9 filled, 10 open: the window is cells 11 to 48.
        let before = (1u128 << 10) - 1;
        memo.store(before | 1 << 48, 5, 0);
        assert!(memo.dead(before | 1 << 48, 5));
        memo.store(before | 1 << 49, 5, 0);
        assert!(!memo.dead(before | 1 << 49, 5));
        assert_eq!(memo.stored, 1);
        // No two states share a key: the first open cell and the window are all of it.
        assert!(!memo.dead(before | 1 << 48 | 1 << 10, 5));
        assert!(!memo.dead((before | 1 << 48) >> 1, 5));
        // A full word (the first open cell past its end) has a key too.
        assert!(memo.key(!0, 1).is_some() && memo.key(!0, 1) != memo.key(!0 >> 1, 1));
    }

    /// Stores states `1..=3 << (FIRST_BITS + 5)` (`occ(k)`, code `k`) in a table of
    /// `16 << (FIRST_BITS + 5)` bytes whose codes have `code_bits` bits.
    /// With `counts`, state `k` has `count(k)` completions (else it is dead).
    fn grown(code_bits: Option<u32>, counts: bool, occ: impl Fn(u64) -> u64) {
        let bytes = 16 << (FIRST_BITS + 5);
        let mut memo = Memo::<u64>::new(bytes, code_bits, counts, None).unwrap();
        assert_eq!(memo.most_bytes(), bytes);
        let states = 3 << (FIRST_BITS + 5);
        let count = |k: u64| if counts { k % 5 * 1000 } else { 0 };
        for k in 1..=states {
            memo.store(occ(k), k, count(k));
        }
        let slots: usize = 16 << (FIRST_BITS + 5) >> 3 >> (memo.stride() - 1);
        assert_eq!(memo.bits, slots.ilog2());
        assert_eq!(memo.slots.len(), slots * memo.stride());
        // The last states stored are all there (a slot keeps the latest); of the others,
        // at most one a slot.
        let found = (1..=states)
            .filter(|&k| {
                let found = memo.find(occ(k), k);
                assert!(found.is_none_or(|c| c == count(k)), "state {k}: {found:?}");
                found.is_some()
            })
            .count();
        assert!(found <= slots);
        assert!(
            found >= states as usize / 4,
            "{found} states of {states} kept"
        );
        assert_eq!(memo.find(occ(states), states), Some(count(states)));
    }

    #[test]
    fn the_table_grows_to_its_limit_keeping_what_it_holds() {
        // Wide slots, any word; and keys of one word (20 bits of code, a window of 36
        // cells), words whose filled cells all fit it, without counts and with.
        grown(None, false, |k| k * 0x9e37_79b9);
        grown(Some(20), false, |k| (k * 0x9e37) & ((1 << 36) - 1));
        grown(Some(20), true, |k| (k * 0x9e37) & ((1 << 36) - 1));
    }

    /// Probes `level` [`FIRST_REVIEW`] times, every `every`-th one (after the first) of a
    /// state found dead by the first; each searched one made 10 placements. Whether the
    /// level is consulted before the last probe (so not dropped at an earlier review, one
    /// every [`MEMO_REVIEW`] probes) and after it.
    fn review(dead: &mut DeadStates<u64>, level: usize, every: u64) -> (bool, bool) {
        let stored = 1 << 40 | level as u64;
        let mut before = false;
        for k in 0..FIRST_REVIEW {
            before = dead.consulted(level);
            if k > 0 && k % every == 0 {
                assert_eq!(dead.probe(level, stored, 1, true), Some(0));
            } else {
                let occ = if k == 0 {
                    stored
                } else {
                    (level as u64) << 32 | k
                };
                assert_eq!(dead.probe(level, occ, 1, true), None);
                let placements = dead.measures(level).then_some(10);
                dead.searched(level, occ, 1, placements, (k == 0).then_some(0));
            }
        }
        (before, dead.consulted(level))
    }

    #[test]
    fn a_level_whose_probes_save_little_stops_probing_at_its_review() {
        let mut dead = DeadStates::<u64>::new(1 << 20, &[1; 12], true, false, None).unwrap();
        assert!(!dead.consulted(MEMO_FROM - 1));
        // Nothing found, no placement saved: dropped at the first review.
        assert_eq!(review(&mut dead, 5, u64::MAX), (false, false));
        // A hit every 100 probes saves 10 placements: 0.1 a probe, also below what the
        // first review asks.
        assert_eq!(review(&mut dead, 6, 100), (false, false));
        // Every 40: 0.25 a probe, enough for the first reviews, not for the bar.
        assert_eq!(review(&mut dead, 7, 40), (true, false));
        // Every 10: 1 a probe, kept; and every other probe, 5 a probe.
        assert_eq!(review(&mut dead, 8, 10), (true, true));
        assert_eq!(review(&mut dead, 9, 2), (true, true));
        // Each level is judged by its own probes alone.
        assert!(!dead.consulted(5) && !dead.consulted(6) && !dead.consulted(7));
        assert!(dead.consulted(MEMO_FROM) && dead.consulted(10));
    }

    #[test]
    fn one_node_searched_in_eight_is_measured_and_hits_are_not_counted() {
        let mut dead = DeadStates::<u64>::new(1 << 20, &[1; 12], true, false, None).unwrap();
        let mut measured = Vec::new();
        for k in 1..=24 {
            assert_eq!(dead.probe(5, k, 1, true), None);
            let measures = dead.measures(5);
            if measures {
                measured.push(k);
            }
            dead.searched(5, k, 1, measures.then_some(1), (k == 3).then_some(0));
            // A state found dead is not searched, nor counted as searched.
            if k >= 3 {
                assert_eq!(dead.probe(5, 3, 1, true), Some(0));
            }
        }
        assert_eq!(measured, [1, 9, 17]);
        assert_eq!((dead.measured[5], dead.below[5]), (3, 3));
    }

    #[test]
    fn the_pieces_left_are_coded_in_mixed_radix() {
        // Copies 2, 1 and 3 of three shapes: weights 1, 3 and 6, codes up to 23.
        let dead = DeadStates::<u64>::new(1 << 20, &[2, 1, 3], true, false, None).unwrap();
        assert_eq!(dead.code(false, 0, &[2, 1, 3]), 2 + 3 + 18);
        assert_eq!(dead.code(false, 0, &[1, 0, 2]), 1 + 12);
        // A piece placed takes its weight off the code.
        assert_eq!(
            dead.code(false, 0, &[2, 1, 3]) - dead.weight(2),
            dead.code(false, 0, &[2, 1, 2])
        );
        assert_eq!(
            dead.code(false, 0, &[1, 0, 2]) - dead.weight(0),
            dead.code(false, 0, &[0, 0, 2])
        );
        let mut codes: Vec<u64> = (0..3)
            .flat_map(|a| (0..2).flat_map(move |b| (0..4).map(move |c| [a, b, c])))
            .map(|copies| dead.code(false, 0, &copies))
            .collect();
        codes.sort_unstable();
        assert_eq!(codes, (0..24).collect::<Vec<_>>());
        // One copy of each shape: the solver's own bits of the pieces left.
        assert_eq!(dead.code(true, 0b101, &[1, 0, 1]), 0b101);
        // No code where the multisets number 2^64 or more.
        assert!(DeadStates::<u64>::possible(&[255; 7]));
        assert!(!DeadStates::<u64>::possible(&[255; 8]));
        assert!(DeadStates::<u64>::new(1 << 20, &[255; 8], true, false, None).is_none());
        assert!(!DeadStates::<crate::word::Wide<3>>::possible(&[1; 8]));
    }

    /// The solver keeps a table from one subtree to the next only where it was made as
    /// asked (`Solver::configure`), so a table asked for keys of one word says so even
    /// where the code leaves them no room.
    #[test]
    fn a_table_says_which_keys_it_was_asked_for() {
        // 46 shapes of one copy: 46 bits of code leave a window of 10 cells, too few.
        let dead = DeadStates::<u128>::new(1 << 20, &[1; 46], true, false, None).unwrap();
        assert!(dead.one_word() && dead.table.window == 0);
        let dead = DeadStates::<u128>::new(1 << 20, &[1; 18], true, false, None).unwrap();
        assert!(dead.one_word() && dead.table.window == 38);
        let dead = DeadStates::<u128>::new(1 << 20, &[1; 18], false, false, None).unwrap();
        assert!(!dead.one_word() && dead.table.window == 0);
    }

    /// The slots of a thread's table when it moves to the run's: the first size past
    /// SHARE_FROM it would grow to.
    fn moves_at() -> u64 {
        let bits = (FIRST_BITS..).step_by(2).find(|&b| 8u64 << b > SHARE_FROM);
        1 << bits.unwrap()
    }

    /// The run's table of `memo`, once moved ([`Memo::grow`]).
    fn run_table(memo: &Memo<u128>) -> Arc<SharedTable> {
        Arc::clone(&memo.shared.as_ref().expect("moved to the run's table").1)
    }

    #[test]
    fn the_threads_of_a_run_share_their_tables_once_grown() {
        let run = RunShare::new(2);
        let bytes = 64 * SHARE_FROM;
        let joined = |first_cell| Some((Arc::clone(&run), first_cell));
        let mut a = Memo::<u128>::new(bytes, Some(18), false, joined(0)).unwrap();
        let mut b = Memo::<u128>::new(bytes, Some(18), false, joined(0)).unwrap();
        // A tail's table (another first cell, another word) is another table.
        let mut tail = Memo::<u128>::new(bytes, Some(18), false, joined(30)).unwrap();
        let state = |k: u64| u128::from(k) << 1;
        // Each keeps its own table until it would outgrow SHARE_FROM.
        let mut k = 0;
        while a.shared.is_none() {
            k += 1;
            a.store(state(k), 5, 0);
            assert!(a.dead(state(k), 5) && k < 1 << 24);
        }
        assert!(k > SHARE_FROM / 64 && a.slots.is_empty());
        assert!(!b.dead(state(k), 5));
        let shared = run_table(&a);
        // The slots both threads' tables would have grown to.
        assert_eq!(shared.slots.len() as u64, 2 * moves_at());
        // Its states moved over (those a collision had not overwritten), counted.
        let moved = shared.stored.load(Relaxed);
        assert!(moved > k / 2 && moved <= k);
        let mut j = 0;
        while b.shared.is_none() {
            j += 1;
            b.store(state(j) | 1, 6, 0);
        }
        assert_eq!(j, k);
        assert!(Arc::ptr_eq(&run_table(&b), &shared));
        // Each finds the last states the other stored before it moved (moved over),
        // and what either stores from now on.
        assert!(b.dead(state(k), 5) && a.dead(state(j) | 1, 6));
        let late = state(3 << 36);
        a.store(late, 9, 0);
        assert!(b.dead(late, 9) && !b.dead(late, 8));
        let mut t = 0;
        while tail.shared.is_none() {
            t += 1;
            tail.store(state(t), 7, 0);
        }
        let other = run_table(&tail);
        assert!(!Arc::ptr_eq(&other, &shared) && !tail.dead(late, 9) && !a.dead(state(t), 7));
        // A table with wide keys is never shared.
        let wide = Memo::<u128>::new(bytes, None, false, joined(0)).unwrap();
        assert!(wide.share.is_none());
        let wide = Memo::<u128>::new(bytes, Some(60), false, Some((run, 0))).unwrap();
        assert!(wide.share.is_none());
    }

    /// Two threads' tables that keep counts move to a run's table of keys with their
    /// counts, where each finds the other's counts, whole: storing and finding at once,
    /// neither ever finds a count another state stored.
    #[test]
    fn the_threads_of_a_run_share_their_counts_whole() {
        let run = RunShare::new(2);
        let bytes = 64 * SHARE_FROM;
        let joined = || Some((Arc::clone(&run), 0));
        let mut a = Memo::<u128>::new(bytes, Some(18), true, joined()).unwrap();
        let mut b = Memo::<u128>::new(bytes, Some(18), true, joined()).unwrap();
        let state = |k: u64| u128::from(k) << 1;
        // State `k` with code `c` has `count(k, c)` completions.
        let count = |k: u64, c: u64| (k ^ c << 40) % 3 * (k + 1);
        let mut k = 0;
        while a.shared.is_none() {
            k += 1;
            a.store(state(k), 5, count(k, 5));
        }
        let shared = run_table(&a);
        // (Slots with counts are one word too, and move at the same size.)
        assert_eq!(shared.slots.len() as u64, 2 * moves_at());
        assert_eq!(a.find(state(k), 5), Some(count(k, 5)));
        assert_eq!(b.find(state(k), 5), None);
        let mut j = 0;
        while b.shared.is_none() {
            j += 1;
            b.store(state(j), 6, count(j, 6));
        }
        assert!(Arc::ptr_eq(&run_table(&b), &shared));
        assert_eq!(b.find(state(k), 5), Some(count(k, 5)));
        assert_eq!(a.find(state(j), 6), Some(count(j, 6)));
        // Both at once, on states that share slots: every count found is its state's.
        let work = |mut memo: Memo<u128>, seed: u64| {
            std::thread::spawn(move || {
                let mut rng = crate::rng::SplitMix64::new(seed);
                let mut found = 0;
                for _ in 0..400_000 {
                    let (k, c) = (rng.next_u64() % 50_000 + 1, rng.next_u64() % 3 + 5);
                    if rng.next_u64().is_multiple_of(2) {
                        memo.store(state(k), c, count(k, c));
                    } else if let Some(n) = memo.find(state(k), c) {
                        assert_eq!(n, count(k, c), "state {k}, code {c}");
                        found += 1;
                    }
                }
                found
            })
        };
        let (a, b) = (work(a, 1), work(b, 2));
        assert!(a.join().unwrap() > 1000 && b.join().unwrap() > 1000);
    }

    /// The run's table grows fourfold as it fills, up to the threads' memory together,
    /// keeping its states; a thread takes the larger table another made within
    /// [`FLUSH`] states.
    #[test]
    fn the_run_table_grows_as_it_fills() {
        let run = RunShare::new(2);
        // Each thread may have four times the table it moves with: the run's table
        // starts at twice that, and grows once.
        let bytes = 4 * 8 * moves_at();
        let mut a = Memo::<u128>::new(bytes, Some(18), false, Some((Arc::clone(&run), 0))).unwrap();
        let mut b = Memo::<u128>::new(bytes, Some(18), false, Some((Arc::clone(&run), 0))).unwrap();
        let state = |k: u64| u128::from(k) << 1;
        let mut k = 0;
        while b.shared.is_none() {
            k += 1;
            b.store(state(k), 6, 0);
        }
        while a.shared.is_none() {
            k += 1;
            a.store(state(k), 5, 0);
        }
        let first = run_table(&a);
        assert_eq!(first.slots.len() as u64, 2 * moves_at());
        // `a` fills the table to a flush short of full.
        let len = first.slots.len() as u64;
        while !(first.stored.load(Relaxed) + FLUSH >= len && a.stored as u64 % FLUSH == FLUSH - 1) {
            k += 1;
            a.store(state(k), 5, 0);
        }
        let bits = first.bits();
        let held: Vec<u64> = (first.words().enumerate())
            .filter_map(|(at, word)| unpacked(bits, at, word))
            .map(|(m, _)| unmixed(m))
            .collect();
        // Its next state fills it: it grows fourfold, the states of both moved over, but
        // for the one that state may have taken the slot of in the first (a state's slot
        // in the larger table is its slot in the first and two bits more of its mixed
        // key, so that none takes another's; the code of the pieces left is a key's top
        // 18 bits).
        k += 1;
        a.store(state(k), 5, 0);
        let larger = run_table(&a);
        assert_eq!(larger.slots.len(), 4 * first.slots.len());
        for code in [5, 6] {
            let of = held.iter().filter(|&&key| key >> 46 == code);
            let kept = of.clone().filter(|&&key| holds(&larger, key));
            let (of, kept) = (of.count(), kept.count());
            assert!(of > 1000 && kept + 1 >= of, "{code}: {kept} of {of}");
        }
        assert!(a.dead(state(k), 5));
        // A state of `a`'s still held (its key's low 38 bits: the cells after the first
        // open one, cell 0).
        let early = held
            .iter()
            .find(|&&key| key >> 46 == 5 && a.dead(state(key & ((1 << 38) - 1)), 5));
        let early = state(early.unwrap() & ((1 << 38) - 1));
        // `b` still stores in the first, and finds what `a` stored there.
        assert!(Arc::ptr_eq(&run_table(&b), &first) && b.dead(early, 5));
        // Within FLUSH states of its own, `b` takes the larger one.
        for i in 0..FLUSH {
            b.store(state(1 << 30 | i), 6, 0);
        }
        assert!(Arc::ptr_eq(&run_table(&b), &larger) && b.dead(state(k), 5));
        // It grows no further than the threads' memory together.
        for i in 0..larger.slots.len() as u64 * 2 {
            a.store(state(1 << 31 | i), 5, 0);
        }
        assert!(Arc::ptr_eq(&run_table(&a), &larger));
        assert_eq!(larger.slots.len() as u64 * 8, 2 * bytes);
    }

    #[test]
    fn huge_pages_are_asked_for_only_within_the_table() {
        const HUGE: usize = 2 << 20;
        // A table of 64 MiB just past a huge page's start: the 31 whole pages inside it.
        let start = 5 * HUGE + 16;
        assert_eq!(huge_range(start, 32 * HUGE), Some((6 * HUGE, 37 * HUGE)));
        // Aligned at both ends: all of it.
        assert_eq!(huge_range(4 * HUGE, 3 * HUGE), Some((4 * HUGE, 7 * HUGE)));
        // Less than a whole aligned huge page: none.
        assert_eq!(huge_range(start, 2 * HUGE - 32), None);
        assert_eq!(huge_range(start, HUGE), None);
    }

    #[test]
    fn no_table_below_the_first_size_or_for_wide_words() {
        assert!(Memo::<u64>::new(1000, Some(12), false, None).is_none());
        assert!(Memo::<crate::word::Wide<3>>::new(1 << 30, Some(12), false, None).is_none());
        assert!(Memo::<u64>::new(1 << 30, Some(12), false, None).is_some());
    }
}
