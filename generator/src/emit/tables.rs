//! A generated solver's `TABLES`, the runtime's `PuzzleTables` that its kernels read,
//! and the constants it holds that are not the F and E stages': copies, the neighbour
//! shifts, the pruning tables, the hand-over to a narrower solver.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::data::{Data, Values};
use super::f_stage::FStageItems;
use super::literal::{level, numbers, word_list, word_literal, word_type};
use super::{e_stage, f_stage};
use crate::lower::{FStage, Fillable, Ir, Isolation, Mask};

/// The solver's module body: its word and constants, `TABLES` (the `PuzzleTables` the
/// runtime's kernels read) with its type and the solver over it, the cells' index
/// functions, then the tables; a narrower solver as a nested `mod tail`.
pub fn solver(ir: &Ir, data: &mut Data, module: &str) -> TokenStream {
    let word = word_type(ir.word);
    let top = level(ir.pieces);
    let pieces = Literal::usize_unsuffixed(ir.pieces);
    let shapes = Literal::usize_unsuffixed(ir.shape_counts.len());
    let copies = numbers(ir.shape_counts.iter().copied());
    let one_per_shape = ir.shape_counts.iter().all(|&c| c == 1);
    let full = word_literal(ir.word, Mask::low_bits(ir.cells));
    let f = match &ir.f_stage {
        FStage::Table(ft) => f_stage::table(ir, ft, data, module),
        FStage::Cells(plans) => f_stage::cells(ir, plans, data, module),
    };
    let (shifts, shifts_const) = shifts(ir);
    let isolation = match ir.isolation {
        Isolation::None => quote! { None },
        Isolation::Cells => quote! { Cells },
        Isolation::Pairs => quote! { Pairs },
    };
    let (e_table, e_tables) = match &ir.e_stage {
        Some(e) => (
            quote! { Some(&E_TABLE) },
            e_stage::tables(ir, e, data, module),
        ),
        None => (quote! { None }, quote! {}),
    };
    let pruning = pruning(ir, data, module);
    let HandoverItems {
        tail_type,
        handover,
        items: handover_items,
    } = handover_items(ir, data, module);
    let FStageItems {
        stage,
        functions,
        tables: f_tables,
    } = f;
    quote! {
        #[allow(unused_imports)]
        use ::runtime::fila::Word as _;

        /// The occupancy word: bit `c` is set when cell `c` is filled.
        type Word = #word;
        /// Copies of each shape.
        const COPIES: [u8; #shapes] = [#copies];
        /// Every cell filled.
        const FULL: Word = #full;
        #shifts_const

        /// The type of this solver's tables: its word, its pieces to place, the narrower
        /// solver it hands over to.
        pub type Tables = ::runtime::fila::PuzzleTables<Word, #top, #tail_type>;
        /// Names `TABLES` for the kernels, which read them as constants.
        pub struct Puzzle;
        impl ::runtime::fila::Constant for Puzzle {
            type Word = Word;
            type Top = #top;
            type Tail = #tail_type;
            const TABLES: &'static Tables = &TABLES;
        }
        /// The FILA search of `runtime::fila` over this solver's tables.
        pub type Solver = ::runtime::fila::Solver<::runtime::fila::Static<Puzzle>>;

        /// This solver's tables, as the FILA kernels of `runtime::fila` read them.
        pub static TABLES: Tables = ::runtime::fila::PuzzleTables {
            pieces: #pieces,
            copies: &COPIES,
            one_per_shape: #one_per_shape,
            full: FULL,
            shifts: #shifts,
            isolation: ::runtime::fila::Isolation::#isolation,
            f_stage: #stage,
            e_table: #e_table,
            pruning: &PRUNING,
            handover: #handover,
            top: ::core::marker::PhantomData,
        };

        #functions

        #f_tables

        #e_tables

        #pruning

        #handover_items
    }
}

/// `Tables::shifts`, and the constant it returns.
fn shifts(ir: &Ir) -> (TokenStream, TokenStream) {
    match &ir.shifts {
        None => (quote! { None }, quote! {}),
        Some(shifts) => {
            let n = Literal::usize_unsuffixed(shifts.len());
            let entries = shifts.iter().map(|s| {
                let by = Literal::i32_unsuffixed(s.by);
                let from = word_literal(ir.word, s.from);
                quote! { ::runtime::fila::Shift { by: #by, from: #from } }
            });
            (
                quote! { Some(&SHIFTS) },
                quote! {
                    /// The neighbour relations as shifts of the word: every cell of `from`
                    /// has its neighbour in one direction at its own number plus `by`.
                    const SHIFTS: [::runtime::fila::Shift<Word>; #n] = [#(#entries),*];
                },
            )
        }
    }
}

/// The tables of the volume and parity backtracks, as `PRUNING`.
fn pruning(ir: &Ir, data: &mut Data, module: &str) -> TokenStream {
    let p = &ir.pruning;
    let halo = data.table(
        module,
        "HALO",
        "The open cells around each image: a region its placement closes off touches it.",
        Values::Words(ir.word, p.halo.clone()),
    );
    let neighbours = word_list(ir.word, p.neighbours.iter().copied());
    let (fillable, sizes) = match &p.fillable {
        Fillable::Multiple(n) => {
            let n = Literal::u32_unsuffixed(*n);
            (quote! { Multiple(#n) }, quote! {})
        }
        Fillable::Sums(sizes) => {
            let sizes = numbers(sizes.iter().map(|&s| s as usize));
            (
                quote! { Sums(SIZES) },
                quote! {
                    /// The size of each shape.
                    const SIZES: &[u32] = &[#sizes];
                },
            )
        }
    };
    let black = word_literal(ir.word, p.black);
    let balances = match &p.balances {
        Some(balances) => {
            let lists = balances.iter().map(|b| {
                let v = b.iter().map(|&x| Literal::i32_unsuffixed(x));
                quote! { &[#(#v),*] }
            });
            quote! { Some(&[#(#lists),*]) }
        }
        None => quote! { None },
    };
    quote! {
        /// The tables of the volume and parity backtracks.
        static PRUNING: ::runtime::fila::Pruning<'static, Word> = ::runtime::fila::Pruning {
            halo: HALO,
            neighbours: &[#neighbours],
            fillable: ::runtime::fila::Fillable::#fillable,
            black: #black,
            balances: #balances,
        };
        #sizes
        #halo
    }
}

/// The hand-over to a narrower solver, if the IR has one.
struct HandoverItems {
    /// The `Tail` of `Tables`.
    tail_type: TokenStream,
    /// The `handover` of `TABLES`.
    handover: TokenStream,
    /// The mask of the cells before the tail, and the narrower solver's module.
    items: TokenStream,
}

fn handover_items(ir: &Ir, data: &mut Data, module: &str) -> HandoverItems {
    let Some(tail) = &ir.tail else {
        return HandoverItems {
            tail_type: quote! { ::runtime::fila::NoTail<Word> },
            handover: quote! { None },
            items: quote! {},
        };
    };
    let from = Literal::u32_unsuffixed(tail.from as u32);
    let before = word_literal(ir.word, Mask::low_bits(tail.from));
    let doc = format!(
        " The solver of cells {}.. (its cell 0 is cell {} here), in a {}-bit word.",
        tail.from,
        tail.from,
        tail.ir.word.bits()
    );
    let inner = if module.is_empty() {
        "tail".to_string()
    } else {
        format!("{module}::tail")
    };
    let solver = solver(&tail.ir, data, &inner);
    HandoverItems {
        tail_type: quote! { ::runtime::fila::Static<tail::Puzzle> },
        handover: quote! {
            Some(::runtime::fila::Handover { before: BEFORE_TAIL, from: #from, tail: ::runtime::fila::Static::new() })
        },
        items: quote! {
            /// The cells before the tail's.
            const BEFORE_TAIL: Word = #before;

            #[doc = #doc]
            pub mod tail {
                #solver
            }
        },
    }
}
