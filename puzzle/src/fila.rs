//! The run-time FILA engine, `fila solve`'s default: the puzzle lowered by the generator's
//! own lowering ([`crate::lower`], with flat F tables for every word, since there is no
//! per-cell code to call), laid out by [`crate::layout`], built in memory as the
//! runtime's [`PuzzleTables`], and searched by the same kernels as a generated solver
//! (`runtime::fila`). What generation adds is only that the compiler sees the tables.

use std::any::Any;
use std::mem::MaybeUninit;
use std::sync::Arc;

use runtime::fila::{
    FStage, Fillable, Handover, List, NoTail, Pruning, PuzzleTables, SetTable, Shared, Shift,
    Solver, Tables,
};
use runtime::search::Context;
use runtime::word::Wide;
use runtime::{Capabilities, RunShare, Search};

use crate::layout::{self, SetLayout};
use crate::lower::{self, Ir, Mask, Tails, Unsupported, Word};
use crate::model::Puzzle;

/// The settings the engine uses when the options do not give them, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defaults {
    /// The E heuristic while more than this many pieces are left, then F.
    pub f_from: usize,
    /// Whether images that cut off an unfillable region are dropped first (`-V`).
    pub volume_filter: bool,
    /// The rule that chose them, for `-i`.
    pub why: &'static str,
}

/// The settings for `puzzle` by the rule that every tuned solver so far follows
/// (`cargo xtask gen --tune` on the pentominoes in 10x6, the one-sided pentominoes in
/// 30x3 and 18x5, the Soma and the Tetris Cube): a flat box is filled in Fletcher's
/// order (F throughout) after the volume filter; a box with depth by the E heuristic
/// while more than 3 pieces are left, without the filter (which drops almost nothing
/// there). No tuned solver kept the volume or parity backtracks.
pub fn defaults(puzzle: &Puzzle) -> Defaults {
    let f_from = lower::default_f_from(puzzle);
    if lower::beyond_limits(puzzle).is_some() {
        // Dancing links solves it, with its own defaults: the volume filter would cost
        // a search of the box per image before the puzzle is even refused or run.
        Defaults {
            f_from,
            volume_filter: false,
            why: "beyond the FILA engine's limits: dancing links, without -V",
        }
    } else if f_from >= puzzle.mobile_pieces() {
        let connected = puzzle.pieces_connected();
        Defaults {
            f_from,
            volume_filter: connected,
            why: if connected {
                "a flat box: F throughout, -V"
            } else {
                "a flat box: F throughout (no -V: a piece is in parts)"
            },
        }
    } else {
        Defaults {
            f_from,
            volume_filter: false,
            why: "a box with depth: E above 3 pieces left, then F",
        }
    }
}

/// Lowers `puzzle` for the run-time engine: the narrowest of the words it is built for
/// (64, 128, 256 or 512 bits) with the narrower solvers a wide one hands over to, F
/// from `f_from` pieces left, and the E stage when it is used (or `e_stage`).
pub fn lower(puzzle: &Puzzle, f_from: usize, e_stage: bool) -> Result<Ir, Unsupported> {
    let word_bits = match puzzle.cells.len() {
        0..=64 => 64,
        65..=128 => 128,
        129..=256 => 256,
        _ => 512,
    };
    lower::lower(
        puzzle,
        &lower::Options {
            f_from,
            e_stage,
            word_bits,
            tails: Tails::Auto,
            flat: true,
        },
    )
}

/// A FILA solver over `ir`'s tables, built in memory. They are freed with the last of the
/// solver and its forks.
pub fn solver(ir: &Ir) -> Box<dyn Search> {
    let mut store = Store::default();
    let solver: Box<dyn Search> = match ir.word {
        Word::U64 => Box::new(Solver::with_tables(tables_64(ir, &mut store))),
        Word::U128 => Box::new(Solver::with_tables(tables_128(ir, &mut store))),
        Word::Wide(4) => Box::new(Solver::with_tables(Shared(build::<Wide<4>, Tables128>(
            ir, &mut store, tables_128,
        )))),
        Word::Wide(8) => Box::new(Solver::with_tables(Shared(build::<Wide<8>, Tables128>(
            ir, &mut store, tables_128,
        )))),
        Word::Wide(limbs) => unreachable!("the run-time engine has no {limbs}-limb word"),
    };
    Box::new(Owning {
        solver,
        store: Arc::new(store),
    })
}

/// The allocations a run-time solver's tables are made of. The kernels read tables through
/// `'static` references, since a generated solver's are statics; here they point into the
/// store, which frees them when it is dropped. Only the solvers of an [`Owning`] hold
/// them, and each holds the store too, so none is read after it is freed.
#[derive(Default)]
struct Store(Vec<*mut (dyn Any + Send + Sync)>);

// SAFETY: the store only frees what it points to, which is `Send + Sync` itself.
unsafe impl Send for Store {}
// SAFETY: as above; `&Store` gives no access to the allocations.
unsafe impl Sync for Store {}

impl Store {
    /// `value` on the heap until the store is dropped.
    fn keep<T: Any + Send + Sync>(&mut self, value: T) -> &'static T {
        let p: *mut T = Box::into_raw(Box::new(value));
        self.0.push(p);
        // SAFETY: `p` is a live allocation that nothing else owns, freed only by
        // `Store::drop`, and never written to: a shared reference to it is valid until
        // then, and the type's doc says why no reference is read after that.
        unsafe { &*p }
    }

    /// `words` on the heap until the store is dropped, from the start of a cache line: a
    /// list's masks, whose blocks of eight 64-bit words (every set starts a block) are
    /// then one line each rather than two. A generated solver's are
    /// ([`runtime::fila::data::Bytes`]). `fila solve`, one thread, against the
    /// allocator's 16 bytes: the Tetris Cube 3.09 -> 3.00 s, the Bedlam Cube 3.22 ->
    /// 3.13 s (by hand, session 46).
    fn lines<W: runtime::fila::Word>(
        &mut self,
        words: impl ExactSizeIterator<Item = W>,
    ) -> &'static [W] {
        /// A cache line's bytes, written as words.
        #[repr(C, align(64))]
        struct Line([MaybeUninit<u8>; 64]);
        const { assert!(std::mem::align_of::<W>() <= 64) };
        let n = words.len();
        let mut lines: Vec<Line> = Vec::with_capacity((n * std::mem::size_of::<W>()).div_ceil(64));
        let at = lines.as_mut_ptr().cast::<W>();
        let mut written = 0;
        for w in words.take(n) {
            // SAFETY: `lines`' capacity holds `n` words and `written < n`; its start is
            // aligned to 64, a multiple of a word's alignment (checked above).
            unsafe { at.add(written).write(w) };
            written += 1;
        }
        // SAFETY: the capacity is at least this, and a `Line` is bytes that need no
        // initialising (`MaybeUninit`).
        unsafe { lines.set_len(lines.capacity()) };
        let kept = self.slice(lines);
        // SAFETY: the first `written` words were written above, in an allocation that the
        // store keeps, never writes to again and never moves.
        unsafe { std::slice::from_raw_parts(kept.as_ptr().cast::<W>(), written) }
    }

    /// `v`'s items on the heap until the store is dropped.
    fn slice<T: Any + Send + Sync>(&mut self, v: Vec<T>) -> &'static [T] {
        self.keep(v).as_slice()
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        for p in self.0.drain(..) {
            // SAFETY: `p` came from `Box::into_raw` in `keep`, and is freed once, here.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

/// A solver over tables in a [`Store`], with the store: dropped after the solver (the
/// fields drop in order), and shared with every fork.
struct Owning {
    solver: Box<dyn Search>,
    store: Arc<Store>,
}

impl Search for Owning {
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>) {
        self.solver.solve_prefix(prefix, ctx);
    }

    fn fork(&self) -> Box<dyn Search> {
        Box::new(Owning {
            solver: self.solver.fork(),
            store: Arc::clone(&self.store),
        })
    }

    fn join(&mut self, share: &Arc<RunShare>) {
        self.solver.join(share);
    }

    fn capabilities(&self) -> Capabilities {
        self.solver.capabilities()
    }
}

/// A one-line description of the solver, for `-i`.
pub fn describe(ir: &Ir) -> String {
    let mut words = vec![ir.word.bits().to_string()];
    let mut tail = &ir.tail;
    while let Some(t) = tail {
        words.push(t.ir.word.bits().to_string());
        tail = &t.ir.tail;
    }
    format!(
        "FILA engine, tables built at run time: {}-bit words",
        words.join(" then ")
    )
}

type Tables64 = Shared<u64, NoTail<u64>>;
type Tables128 = Shared<u128, Tables64>;

fn tables_64(ir: &Ir, store: &mut Store) -> Tables64 {
    Shared(build::<u64, NoTail<u64>>(ir, store, |_, _| {
        unreachable!("a 64-bit solver hands over to none")
    }))
}

fn tables_128(ir: &Ir, store: &mut Store) -> Tables128 {
    Shared(build::<u128, Tables64>(ir, store, tables_64))
}

/// `m` as a word of type `W`.
fn word<W: runtime::fila::Word>(m: Mask) -> W {
    W::from_limbs(&m.0)
}

fn words<W: runtime::fila::Word>(store: &mut Store, masks: &[Mask]) -> &'static [W] {
    store.slice(masks.iter().map(|&m| word(m)).collect())
}

/// An image list over `masks`, the images' masks in word `W`.
fn list<W: runtime::fila::Word>(
    ir: &Ir,
    store: &mut Store,
    masks: &[W],
    entries: &[u16],
) -> List<'static, W> {
    let (masks, images, shapes) = layout::list(ir, masks, W::low_bits(ir.cells), entries);
    List {
        masks: store.lines(masks),
        images: store.slice(images),
        shapes: store.slice(shapes),
    }
}

fn set_table<W: runtime::fila::Word>(
    ir: &Ir,
    store: &mut Store,
    masks: &[W],
    l: SetLayout,
) -> &'static SetTable<'static, W> {
    let table = SetTable {
        context: words(store, &l.context),
        set_base: store.slice(l.set_base),
        index: store.slice(l.index),
        list: list(ir, store, masks, &l.entries),
    };
    store.keep(table)
}

/// `ir`'s tables in word `W`, in `store`; `tail` builds the narrower solver's from its IR.
fn build<W: runtime::fila::Word, Tail: Tables>(
    ir: &Ir,
    store: &mut Store,
    tail: fn(&Ir, &mut Store) -> Tail,
) -> &'static PuzzleTables<W, runtime::fila::L63, Tail> {
    let masks: Vec<W> = ir.masks.iter().map(|&m| word(m)).collect();
    let f_stage = match &ir.f_stage {
        lower::FStage::Table(ft) => {
            FStage::Table(set_table(ir, store, &masks, layout::f_table(ir, ft)))
        }
        lower::FStage::Cells(_) => unreachable!("the run-time engine lowers to flat tables"),
    };
    let shifts = ir.shifts.as_ref().map(|shifts| {
        let shifts = shifts
            .iter()
            .map(|s| Shift {
                by: s.by,
                from: word(s.from),
            })
            .collect();
        store.slice(shifts)
    });
    let p = &ir.pruning;
    let pruning = Pruning {
        halo: words(store, &p.halo),
        neighbours: words(store, &p.neighbours),
        fillable: match &p.fillable {
            lower::Fillable::Multiple(n) => Fillable::Multiple(*n),
            lower::Fillable::Sums(sizes) => Fillable::Sums(store.slice(sizes.clone())),
        },
        black: word(p.black),
        balances: p.balances.as_ref().map(|b| {
            let rows = b.iter().map(|v| store.slice(v.clone())).collect();
            store.slice(rows)
        }),
    };
    let tables = PuzzleTables {
        pieces: ir.pieces,
        copies: store.slice(ir.shape_counts.iter().map(|&c| c as u8).collect()),
        one_per_shape: ir.shape_counts.iter().all(|&c| c == 1),
        full: word(Mask::low_bits(ir.cells)),
        shifts,
        isolation: ir.isolation,
        f_stage,
        e_table: ir
            .e_stage
            .as_ref()
            .map(|e| set_table(ir, store, &masks, layout::e_table(ir, e))),
        pruning: store.keep(pruning),
        handover: ir.tail.as_ref().map(|t| Handover {
            before: word(Mask::low_bits(t.from)),
            from: t.from as u32,
            tail: tail(&t.ir, store),
        }),
        top: std::marker::PhantomData,
    };
    store.keep(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use runtime::word::Wide;

    #[test]
    fn lines_keep_the_words_from_the_start_of_a_cache_line() {
        let mut store = Store::default();
        for n in [0, 1, 7, 8, 9, 1000] {
            let v: Vec<u64> = (0..n).map(|k| k * 0x0101_0101_0101 + 3).collect();
            let kept = store.lines(v.iter().copied());
            assert_eq!(kept, &v[..]);
            assert_eq!(kept.as_ptr() as usize % 64, 0, "{n} words");
        }
        let wide: Vec<Wide<3>> = (0..5).map(|k| Wide([k, k + 1, u64::MAX - k])).collect();
        let kept = store.lines(wide.iter().copied());
        assert_eq!(kept, &wide[..]);
        assert_eq!(kept.as_ptr() as usize % 64, 0);
        let narrow: Vec<u128> = (0..3).map(|k| u128::MAX - k).collect();
        assert_eq!(store.lines(narrow.iter().copied()), &narrow[..]);
    }
}
