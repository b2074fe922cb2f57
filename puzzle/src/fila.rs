//! The run-time FILA engine, `fila solve`'s default: the puzzle lowered by the generator's
//! own lowering ([`crate::lower`], with flat F tables for every word, since there is no
//! per-cell code to call), laid out by [`crate::layout`], built in memory as the
//! runtime's [`PuzzleTables`], and searched by the same kernels as a generated solver
//! (`runtime::fila`). What generation adds is only that the compiler sees the tables.

use runtime::fila::{
    FStage, Fillable, Handover, List, NoTail, Pruning, PuzzleTables, SetTable, Shared, Shift,
    Solver, Tables,
};
use runtime::word::Wide;
use runtime::Search;

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

/// A FILA solver over `ir`'s tables, built in memory (they live as long as the process).
pub fn solver(ir: &Ir) -> Box<dyn Search> {
    match ir.word {
        Word::U64 => Box::new(Solver::with_tables(tables_64(ir))),
        Word::U128 => Box::new(Solver::with_tables(tables_128(ir))),
        Word::Wide(4) => Box::new(Solver::with_tables(Shared(build::<Wide<4>, Tables128>(
            ir, tables_128,
        )))),
        Word::Wide(8) => Box::new(Solver::with_tables(Shared(build::<Wide<8>, Tables128>(
            ir, tables_128,
        )))),
        Word::Wide(limbs) => unreachable!("the run-time engine has no {limbs}-limb word"),
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

fn tables_64(ir: &Ir) -> Tables64 {
    Shared(build::<u64, NoTail<u64>>(ir, |_| {
        unreachable!("a 64-bit solver hands over to none")
    }))
}

fn tables_128(ir: &Ir) -> Tables128 {
    Shared(build::<u128, Tables64>(ir, tables_64))
}

/// Moves `v` to the heap for the rest of the process.
fn leak<T>(v: Vec<T>) -> &'static [T] {
    Vec::leak(v)
}

/// `m` as a word of type `W`.
fn word<W: runtime::fila::Word>(m: Mask) -> W {
    W::from_limbs(&m.0)
}

fn words<W: runtime::fila::Word>(masks: &[Mask]) -> &'static [W] {
    leak(masks.iter().map(|&m| word(m)).collect())
}

/// An image list over `masks`, the images' masks in word `W`.
fn list<W: runtime::fila::Word>(
    ir: &Ir,
    masks: &[W],
    entries: &[u16],
    pad: usize,
) -> List<'static, W> {
    let (masks, images, shapes) = layout::list(ir, masks, W::low_bits(ir.cells), entries, pad);
    List {
        masks: leak(masks),
        images: leak(images),
        shapes: leak(shapes),
    }
}

fn set_table<W: runtime::fila::Word>(
    ir: &Ir,
    masks: &[W],
    l: SetLayout,
) -> &'static SetTable<'static, W> {
    Box::leak(Box::new(SetTable {
        context: words(&l.context),
        set_base: leak(l.set_base),
        index: leak(l.index),
        list: list(ir, masks, &l.entries, l.pad),
    }))
}

/// `ir`'s tables in word `W`; `tail` builds the narrower solver's from its IR.
fn build<W: runtime::fila::Word, Tail: Tables>(
    ir: &Ir,
    tail: fn(&Ir) -> Tail,
) -> &'static PuzzleTables<W, runtime::fila::L63, Tail> {
    let masks: Vec<W> = ir.masks.iter().map(|&m| word(m)).collect();
    let f_stage = match &ir.f_stage {
        lower::FStage::Table(ft) => FStage::Table(set_table(ir, &masks, layout::f_table(ir, ft))),
        lower::FStage::Cells(_) => unreachable!("the run-time engine lowers to flat tables"),
    };
    let shifts = ir.shifts.as_ref().map(|shifts| {
        leak(
            shifts
                .iter()
                .map(|s| Shift {
                    by: s.by,
                    from: word(s.from),
                })
                .collect(),
        )
    });
    let p = &ir.pruning;
    let pruning = Box::leak(Box::new(Pruning {
        halo: words(&p.halo),
        neighbours: words(&p.neighbours),
        fillable: match &p.fillable {
            lower::Fillable::Multiple(n) => Fillable::Multiple(*n),
            lower::Fillable::Sums(sizes) => Fillable::Sums(leak(sizes.clone())),
        },
        black: word(p.black),
        balances: p
            .balances
            .as_ref()
            .map(|b| leak(b.iter().map(|v| leak(v.clone())).collect())),
    }));
    Box::leak(Box::new(PuzzleTables {
        pieces: ir.pieces,
        copies: leak(ir.shape_counts.iter().map(|&c| c as u8).collect()),
        one_per_shape: ir.shape_counts.iter().all(|&c| c == 1),
        full: word(Mask::low_bits(ir.cells)),
        shifts,
        isolation: ir.isolation,
        f_stage,
        e_table: ir
            .e_stage
            .as_ref()
            .map(|e| set_table(ir, &masks, layout::e_table(ir, e))),
        pruning,
        handover: ir.tail.as_ref().map(|t| Handover {
            before: word(Mask::low_bits(t.from)),
            from: t.from as u32,
            tail: tail(&t.ir),
        }),
        top: std::marker::PhantomData,
    }))
}
