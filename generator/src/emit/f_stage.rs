//! The F stage of a generated solver: how the image list set of the first open cell is
//! found. Flat tables indexed by `pext` for 64-bit words, or one index function per cell
//! (the FILA article's `getIlsiXX`) with a constant image list set per neighbour state.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::data::{Data, Values};
use super::literal::{hex_literal, numbers};
use crate::lower::{CellPlan, FTable, Ir};

/// What the F stage adds to a generated file.
pub struct FStageItems {
    /// The `FStage` value.
    pub stage: TokenStream,
    /// The index functions of the cells, in fill order.
    pub functions: TokenStream,
    /// Its tables.
    pub tables: TokenStream,
}

/// The F stage from flat tables (64-bit words).
///
/// Measured on 10x6 (interleaved runs, minimum of 30): one function per cell with a
/// `match` on the neighbour state took 34.5 ms; the same sets as flat tables walked by
/// one routine eight entries at a time 32.2 ms (56 ms with a loop over each set's
/// exact length, whose remainder the compiler handles with branches); indexed by 6
/// chosen cells ([`crate::lower::CONTEXT_CELLS`]) 28.0 ms; with the eight images'
/// tests in one AVX-512 mask register (`Lanes`) 23.1 ms. Testing the regions only for
/// the images that fit, one at a time, took 39.7 ms against 32.2.
pub fn table(ir: &Ir, ft: &FTable, data: &mut Data, module: &str) -> FStageItems {
    let layout = crate::layout::f_table(ir, ft);
    let context_doc = context_doc(ir, ft);
    let context = layout.context.iter().map(|m| hex_literal(64, m.low_u128()));
    let base = numbers(layout.set_base.iter().map(|&b| b as usize));
    let index = data.table(
        module,
        "F_INDEX",
        "Set t's images are `F_MASKS[F_INDEX[t]..F_INDEX[t + 1]]`, by shape, padded to whole blocks.",
        Values::U32(layout.index),
    );
    let (list_tables, list) = data.list(ir, module, "F", "every F image list set", &layout.entries);
    let tables = quote! {
        /// The F stage's image list sets: each cell's, indexed by the occupancy of its
        /// context cells (NOF) gathered from the word.
        static F_TABLE: ::runtime::fila::SetTable<'static, Word> = ::runtime::fila::SetTable {
            context: &F_CONTEXT,
            set_base: &F_SET_BASE,
            index: F_INDEX,
            list: #list,
        };
        #[doc = #context_doc]
        const F_CONTEXT: [Word; 64] = [#(#context),*];
        /// The first image list set of each cell.
        const F_SET_BASE: [u32; 64] = [#base];
        #index
        #list_tables
    };
    FStageItems {
        stage: quote! { ::runtime::fila::FStage::Table(&F_TABLE) },
        functions: quote! {},
        tables,
    }
}

/// The doc of `F_CONTEXT`: each cell's context cells, by where they lie from it, and
/// the bit of the index each gives.
fn context_doc(ir: &Ir, ft: &FTable) -> String {
    let mut doc = String::from(
        " For each cell, the later cells whose occupancy selects its image list set (NOF):\n \
         those that the most of its images cover. Bit k of a set's index is the k-th lowest.\n",
    );
    for (c, mask) in ft.context.iter().enumerate() {
        let [x, y, z] = ir.coords[c];
        let bits: Vec<String> = (0..ir.cells)
            .filter(|&d| mask.bit_at(d as u32) == 1)
            .enumerate()
            .map(|(k, d)| format!("{k} = cell {d} ({})", offset(ir.coords[c], ir.coords[d])))
            .collect();
        doc.push_str(&format!(
            "\n - cell {c} at ({x}, {y}, {z}): {}",
            if bits.is_empty() {
                "none".to_string()
            } else {
                bits.join(", ")
            }
        ));
    }
    doc
}

/// Where `to` lies from `from`: `+x`, `-y +z`, `+2x`.
pub fn offset(from: crate::geometry::Coord, to: crate::geometry::Coord) -> String {
    let parts: Vec<String> = ["x", "y", "z"]
        .iter()
        .enumerate()
        .filter(|&(i, _)| to[i] != from[i])
        .map(|(i, axis)| match to[i] - from[i] {
            1 => format!("+{axis}"),
            -1 => format!("-{axis}"),
            v => format!("{v:+}{axis}"),
        })
        .collect();
    parts.join(" ")
}

/// The F stage as one index function per cell (words wider than 64 bits).
///
/// Measured on 10x6 when the lists were tested by straight-line `if` chains per image
/// (hyperfine, same machine, same load): 62.1 ms, against 38.9 ms for constant tables
/// walked without a branch per image (mispredicted branches were the cost: 3.5 per
/// placement with the chains, by callgrind's branch simulation). Nested tests per
/// neighbour (the FILA article's getIlsi) measured the same as a `match` on the gathered
/// index (60.7 against 64.7 ms, within the noise); the `match` keeps one commented arm
/// per neighbour state.
pub fn cells(ir: &Ir, plans: &[CellPlan], data: &mut Data, module: &str) -> FStageItems {
    // Every set's images one after another, cell by cell and state by state.
    let mut list: Vec<u16> = Vec::new();
    let mut ranges: Vec<Vec<(usize, usize)>> = Vec::with_capacity(plans.len());
    for plan in plans {
        ranges.push(
            plan.sets
                .iter()
                .map(|lists| {
                    let start = list.len();
                    list.extend(
                        lists
                            .iter()
                            .flat_map(|l| l.images.iter().map(|&i| i as u16)),
                    );
                    (start, list.len())
                })
                .collect(),
        );
    }
    let arms = plans.iter().map(|p| {
        let c = Literal::u32_unsuffixed(p.cell as u32);
        let f = format_ident!("cell_{}", p.cell);
        quote! { #c => #f(occ), }
    });
    let functions = plans.iter().zip(&ranges).map(|(p, r)| cell_fn(p, r));
    let (list_tables, list) = data.list(ir, module, "CELL", "every cell's image list sets", &list);
    FStageItems {
        stage: quote! { ::runtime::fila::FStage::Cells(cells) },
        functions: quote! {
            /// The image list set of the first open cell of `occ`, from that cell's index
            /// function.
            fn cells(occ: Word) -> ::runtime::fila::Span<'static, Word> {
                match (!occ).trailing_zeros() {
                    #(#arms)*
                    _ => ::runtime::fila::Span { list: &CELLS, start: 0, end: 0 },
                }
            }
            #(#functions)*
        },
        tables: quote! {
            /// The image list sets of every cell, one after another; each cell's index
            /// function gives the part for the state of its neighbours.
            static CELLS: ::runtime::fila::List<'static, Word> = #list;
            #list_tables
        },
    }
}

/// The index function of one cell: the state of its neighbours that can be open, and
/// the part of `CELLS` that is the image list set of each state (`ranges`).
fn cell_fn(plan: &CellPlan, ranges: &[(usize, usize)]) -> TokenStream {
    let name = format_ident!("cell_{}", plan.cell);
    let [x, y, z] = plan.coord;
    let reads: Vec<String> = plan
        .open_neighbours
        .iter()
        .map(|n| format!("{} = cell {}", n.direction, n.cell))
        .collect();
    let doc = if reads.is_empty() {
        format!(
            " Cell {} at ({x}, {y}, {z}): no neighbour can be open here.",
            plan.cell
        )
    } else {
        format!(
            " Cell {} at ({x}, {y}, {z}): the index reads {}.",
            plan.cell,
            reads.join(", ")
        )
    };
    let span = |ilsi: usize| {
        let (start, end) = ranges[ilsi];
        let (start, end) = (
            Literal::usize_unsuffixed(start),
            Literal::usize_unsuffixed(end),
        );
        quote! { (#start, #end) }
    };
    // A cell with no neighbour to read does not look at the occupancy.
    let (occ, body) = if plan.open_neighbours.is_empty() {
        (quote! { _occ }, span(0))
    } else {
        let ilsi_terms = plan.open_neighbours.iter().enumerate().map(|(k, n)| {
            let cell = Literal::u32_unsuffixed(n.cell as u32);
            if k == 0 {
                return quote! { occ.bit_at(#cell) };
            }
            let k = Literal::u32_unsuffixed(k as u32);
            quote! { occ.bit_at(#cell) << #k }
        });
        let arms = (0..plan.sets.len()).map(|ilsi| {
            let comment = format!(" {}", plan.state(ilsi));
            let span = span(ilsi);
            let pattern = if ilsi + 1 == plan.sets.len() {
                quote! { _ }
            } else {
                let l = Literal::usize_unsuffixed(ilsi);
                quote! { #l }
            };
            quote! {
                #[doc = #comment]
                #pattern => #span,
            }
        });
        (
            quote! { occ },
            quote! {
                match #(#ilsi_terms)|* {
                    #(#arms)*
                }
            },
        )
    };
    quote! {
        #[doc = #doc]
        #[inline(never)]
        #[allow(unused_doc_comments)]
        fn #name(#occ: Word) -> ::runtime::fila::Span<'static, Word> {
            let (start, end) = #body;
            ::runtime::fila::Span { list: &CELLS, start, end }
        }
    }
}
