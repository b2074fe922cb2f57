//! Emission: the IR and the runtime description as Rust tokens, formatted by
//! prettyplease. A plain function of its inputs: it reads no puzzle text and makes no
//! decisions beyond spelling.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use runtime::{FirstInfo, PuzzleInfo, Slot, SymmetryInfo};

use crate::lower::{CellPlan, Ir, Mask, Word};

/// A 64- or 128-bit value as a hexadecimal literal with its digits grouped by four, so
/// that a reader can find a cell's bit.
fn hex_literal(bits: usize, value: u128) -> Literal {
    let digits = bits / 4;
    let hex = format!("{value:0digits$x}");
    let grouped: Vec<&str> = (0..digits).step_by(4).map(|i| &hex[i..i + 4]).collect();
    format!("0x{}_u{bits}", grouped.join("_"))
        .parse()
        .expect("a valid literal")
}

/// A mask as a constant of the solver's word type: a hexadecimal literal, or for wide
/// words the limbs, least significant first.
fn word_literal(word: Word, value: Mask) -> TokenStream {
    match word {
        Word::U64 => {
            let l = hex_literal(64, value.low_u128() as u64 as u128);
            quote! { #l }
        }
        Word::U128 => {
            let l = hex_literal(128, value.low_u128());
            quote! { #l }
        }
        Word::Wide(n) => {
            let limbs = value.0[..n].iter().map(|&l| hex_literal(64, l as u128));
            quote! { ::runtime::word::Wide([#(#limbs),*]) }
        }
    }
}

/// The cells of `from` whose neighbour along `shift` is in the set `bits` (an expression).
fn neighbour_bits(word: Word, shift: &crate::lower::Shift, bits: TokenStream) -> TokenStream {
    let from = word_literal(word, shift.from);
    let by = Literal::u32_unsuffixed(shift.by.unsigned_abs());
    if shift.by > 0 {
        quote! { (#bits >> #by) & #from }
    } else {
        quote! { (#bits << #by) & #from }
    }
}

fn u16_list(values: &[u16]) -> TokenStream {
    let v = values.iter().map(|&x| Literal::u16_unsuffixed(x));
    quote! { &[#(#v),*] }
}

fn u16_vec(values: &[u16]) -> TokenStream {
    let v = values.iter().map(|&x| Literal::u16_unsuffixed(x));
    quote! { vec![#(#v),*] }
}

fn first_tokens(first: &FirstInfo) -> TokenStream {
    let what = &first.what;
    let filter = &first.filter;
    let images = u16_vec(&first.images);
    let stabilisers = first.stabilisers.iter().map(|s| u16_vec(s));
    let full_check = first.full_check;
    quote! {
        ::runtime::FirstInfo {
            what: #what.to_string(),
            filter: #filter.to_string(),
            images: #images,
            stabilisers: vec![#(#stabilisers),*],
            full_check: #full_check,
        }
    }
}

fn symmetry_tokens(symmetry: &SymmetryInfo) -> TokenStream {
    let name = &symmetry.name;
    let cell_maps = symmetry.group.iter().map(|e| u16_list(&e.cell_map));
    let shape_maps = symmetry.group.iter().map(|e| u16_list(&e.shape_map));
    let filtered = first_tokens(&symmetry.filtered);
    quote! {
        ::runtime::SymmetryInfo {
            name: #name.to_string(),
            group: ::runtime::info::elements(&[#(#cell_maps),*], &[#(#shape_maps),*]),
            filtered: #filtered,
        }
    }
}

/// The function that rebuilds the runtime description from constant tables.
fn info_tokens(info: &PuzzleInfo) -> TokenStream {
    let name = &info.name;
    let [x, y, z] = info.dims;
    let grid = info.grid.iter().map(|s| match s {
        Slot::Open(c) => quote! { Open(#c) },
        Slot::Stationary(p) => quote! { Stationary(#p) },
    });
    let piece_names = &info.piece_names;
    let shape_pieces = info.shape_pieces.iter().map(|p| u16_list(p));
    let image_shapes = info.images.iter().map(|i| Literal::u16_unsuffixed(i.shape));
    let image_cells = info.images.iter().map(|i| u16_list(&i.cells));
    let unfiltered = first_tokens(&info.unfiltered);
    let rotations = symmetry_tokens(&info.rotations);
    let mirror = match &info.mirror {
        Ok(m) => {
            let m = symmetry_tokens(m);
            quote! { Ok(#m) }
        }
        Err(refusal) => {
            let why = &refusal.why;
            let usage_error = refusal.usage_error;
            quote! { Err(::runtime::MirrorRefusal { why: #why.to_string(), usage_error: #usage_error }) }
        }
    };
    let volume_filter = info.pruning.volume_filter;
    let option = |t: Option<usize>| match t {
        Some(n) => quote! { Some(#n) },
        None => quote! { None },
    };
    let volume_backtrack = option(info.pruning.volume_backtrack);
    let parity_backtrack = option(info.pruning.parity_backtrack);
    let e_stage = info.order.is_some_and(|o| o.e_stage);
    quote! {
        /// The runtime's description of the puzzle: box, pieces, images and symmetry.
        pub fn info() -> ::runtime::PuzzleInfo {
            #[allow(unused_imports)]
            use ::runtime::Slot::{Open, Stationary};
            const GRID: &[::runtime::Slot] = &[#(#grid),*];
            const PIECE_NAMES: &[&str] = &[#(#piece_names),*];
            const SHAPE_PIECES: &[&[u16]] = &[#(#shape_pieces),*];
            const IMAGE_SHAPES: &[u16] = &[#(#image_shapes),*];
            const IMAGE_CELLS: &[&[u16]] = &[#(#image_cells),*];
            ::runtime::PuzzleInfo {
                name: #name.to_string(),
                engine: "generated FILA solver".to_string(),
                dims: [#x, #y, #z],
                grid: GRID.to_vec(),
                piece_names: PIECE_NAMES.iter().map(|n| n.to_string()).collect(),
                shape_pieces: SHAPE_PIECES.iter().map(|p| p.to_vec()).collect(),
                images: ::runtime::info::images(IMAGE_SHAPES, IMAGE_CELLS),
                unfiltered: #unfiltered,
                rotations: #rotations,
                mirror: #mirror,
                pruning: ::runtime::Pruning {
                    volume_filter: #volume_filter,
                    volume_backtrack: #volume_backtrack,
                    parity_backtrack: #parity_backtrack,
                },
                order: Some(::runtime::Order { f_from: F_FROM, e_stage: #e_stage }),
            }
        }
    }
}

/// The image tests for one cell and one neighbour state: the set as constant tables,
/// walked by `try_set`.
///
/// Measured on 10x6 (hyperfine, same machine, same load): straight-line `if` chains per
/// image, grouped by shape behind an availability test, took 62.1 ms; this form, which
/// finds the fitting images of available shapes without a branch per image and then
/// walks the bits, took 38.9 ms, and the generated file shrank from 41,500 lines to 7,400.
/// Mispredicted branches, not instructions, were the cost (callgrind's branch simulation:
/// 3.5 mispredicts per placement with the chains).
fn set_tokens(ir: &Ir, plan: &CellPlan, ilsi: usize) -> TokenStream {
    let lists = &plan.sets[ilsi];
    let count: usize = lists.iter().map(|l| l.images.len()).sum();
    if count == 0 {
        return quote! {};
    }
    let n = Literal::usize_unsuffixed(count);
    let masks = lists
        .iter()
        .flat_map(|l| l.images.iter().map(|&i| word_literal(ir.word, ir.masks[i])));
    let images = lists
        .iter()
        .flat_map(|l| l.images.iter().map(|&i| Literal::u16_unsuffixed(i as u16)));
    let shapes = lists.iter().flat_map(|l| {
        l.images
            .iter()
            .map(move |_| Literal::u8_unsuffixed(l.shape as u8))
    });
    quote! {
        const SET: Set<#n> = Set {
            masks: [#(#masks),*],
            images: [#(#images),*],
            shapes: [#(#shapes),*],
        };
        self.try_set(ctx, occ, avail, left, &SET);
    }
}

fn cell_fn_tokens(ir: &Ir, plan: &CellPlan) -> TokenStream {
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
    let ilsi_terms = plan.open_neighbours.iter().enumerate().map(|(k, n)| {
        let shift = Literal::u32_unsuffixed(n.cell as u32);
        let k = Literal::u32_unsuffixed(k as u32);
        quote! { bit_at(occ, #shift) << #k }
    });
    let body = if plan.open_neighbours.is_empty() {
        set_tokens(ir, plan, 0)
    } else {
        let arms = (0..plan.sets.len()).map(|ilsi| {
            let state: Vec<String> = plan
                .open_neighbours
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    format!(
                        "{} {}",
                        n.direction,
                        if ilsi >> k & 1 == 1 { "filled" } else { "open" }
                    )
                })
                .collect();
            let comment = format!(" {}", state.join(", "));
            let set = set_tokens(ir, plan, ilsi);
            let pattern = if ilsi + 1 == plan.sets.len() {
                quote! { _ }
            } else {
                let l = Literal::usize_unsuffixed(ilsi);
                quote! { #l }
            };
            quote! {
                #[doc = #comment]
                #pattern => {
                    #set
                }
            }
        });
        // The index is gathered from the neighbours' bits and dispatched by a match. Nested
        // tests per neighbour (the FILA article's getIlsi) measured the same on 10x6
        // (60.7 against 64.7 ms, within the noise), and the match keeps one commented
        // arm per neighbour state.
        quote! {
            let ilsi = #(#ilsi_terms)|*;
            match ilsi {
                #(#arms)*
            }
        }
    };
    quote! {
        #[doc = #doc]
        #[inline(never)]
        #[allow(unused_doc_comments, unused_variables)]
        fn #name(&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, left: usize) {
            #body
        }
    }
}

/// The test for open regions too small for any piece, on one word (`isolated`, true when
/// there is one) or on eight (`isolated_lanes`, the offending cells of each).
fn isolation_tokens(ir: &Ir, lanes: bool) -> TokenStream {
    let (ty, zero) = if lanes {
        (quote! { Lanes }, quote! { Lanes::splat(0) })
    } else {
        (quote! { Word }, quote! { ZERO })
    };
    let (name, ret) = if lanes {
        (quote! { isolated_lanes }, quote! { Lanes })
    } else {
        (quote! { isolated }, quote! { bool })
    };
    let result = |bad: TokenStream| {
        if lanes {
            bad
        } else {
            quote! { #bad != ZERO }
        }
    };
    match &ir.shifts {
        Some(shifts) if ir.isolation_check => {
            let terms = shifts
                .iter()
                .map(|s| neighbour_bits(ir.word, s, quote! { open }));
            // The pair test pays in the plane (10x6: 34.2 -> 32.0 ms) but not in 3-space,
            // where regions rarely close and the test has six directions (Tetris Cube:
            // 3.3 -> 3.8 s).
            if ir.min_piece_size >= 3 && shifts.len() <= 4 {
                let adds = shifts.iter().map(|s| {
                    let shifted = neighbour_bits(ir.word, s, quote! { open });
                    quote! {
                        let x = #shifted;
                        twice |= once & x;
                        once |= x;
                    }
                });
                let pairs = shifts
                    .iter()
                    .map(|s| neighbour_bits(ir.word, s, quote! { single }));
                let bad = result(quote! { (open & !once) | paired });
                quote! {
                    /// Whether some open region is too small for any piece: a cell with no
                    /// open neighbour, or two cells that are each other's only open
                    /// neighbour (no piece here is smaller than three cells).
                    #[inline(always)]
                    fn #name(occ: #ty) -> #ret {
                        let open = !occ & FULL;
                        let mut once: #ty = #zero;
                        let mut twice: #ty = #zero;
                        #(#adds)*
                        let single = open & once & !twice;
                        let paired = single & (#(#pairs)|*);
                        #bad
                    }
                }
            } else {
                let bad = result(quote! { open & !reachable });
                quote! {
                    /// Whether some open cell has no open neighbour: it can never be filled.
                    #[inline(always)]
                    fn #name(occ: #ty) -> #ret {
                        let open = !occ & FULL;
                        let reachable = #(#terms)|*;
                        #bad
                    }
                }
            }
        }
        _ => {
            let none = if lanes {
                quote! { Lanes::splat(0) }
            } else {
                quote! { false }
            };
            quote! {
                /// No isolated-cell test for this puzzle.
                #[inline(always)]
                fn #name(_occ: #ty) -> #ret {
                    #none
                }
            }
        }
    }
}

/// How a solver's search knows how many pieces are left.
///
/// With a 64-bit word each level has its own copy of the search: `search`, `search_e`,
/// `try_table` and `place` take the count as a const generic `L`, so that the counters
/// and the stack are indexed by constants and each level calls the next directly
/// (`descend` turns a count known only at run time into the call of its level). Measured
/// on 10x6, medians of 50 alternating runs: 22.5 ms with the count as an argument, 21.6
/// ms with a copy per level (30x3, hyperfine means of 40: 11.0 against 10.7 ms; the
/// Tetris Cube, medians of 6: 2.42 against 2.40 s).
/// Wider words keep the argument: their per-cell functions would be copied for every
/// level.
struct Levels {
    /// The generic parameters of a function of the search.
    generics: TokenStream,
    /// The count as a parameter, with its comma.
    param: TokenStream,
    /// Binds `left` at the top of a function of the search.
    bind: TokenStream,
    /// The turbofish of a call within a level.
    turbofish: TokenStream,
    /// The count as an argument of a call within a level, with its comma.
    arg: TokenStream,
}

fn levels(ir: &Ir) -> Levels {
    if ir.f_table.is_some() {
        Levels {
            generics: quote! { <const L: usize> },
            param: quote! {},
            bind: quote! { let left = L; },
            turbofish: quote! { ::<L> },
            arg: quote! {},
        }
    } else {
        Levels {
            generics: quote! {},
            param: quote! { left: usize, },
            bind: quote! {},
            turbofish: quote! {},
            arg: quote! { left, },
        }
    }
}

/// `descend`: the search below a node with `left` pieces left, where `left` is a value.
fn descend_tokens(ir: &Ir) -> TokenStream {
    let body = if ir.f_table.is_some() {
        let pieces = ir.shape_counts.iter().sum::<usize>();
        let arms = (0..=pieces).map(|k| {
            let l = Literal::usize_unsuffixed(k);
            quote! { #l => self.search::<#l>(ctx, occ, avail), }
        });
        quote! {
            match left {
                #(#arms)*
                _ => unreachable!("at most PIECES pieces are left"),
            }
        }
    } else {
        quote! { self.search(ctx, occ, avail, left) }
    };
    quote! {
        /// Searches below a node with `left` pieces left.
        #[inline(always)]
        fn descend(&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, left: usize) {
            #body
        }
    }
}

/// The E stage: its switch in `search`, and its tables and functions.
fn e_stage_tokens(ir: &Ir, e: &crate::lower::EStage) -> (TokenStream, TokenStream, TokenStream) {
    let Levels {
        generics,
        param,
        turbofish,
        arg,
        ..
    } = levels(ir);
    let switch = quote! {
        if left > self.f_from {
            self.search_e #turbofish (ctx, occ, avail, #arg);
            return;
        }
    };
    let neighbour_masks = e.neighbours.iter().map(|n| {
        let m = n.iter().fold(Mask::ZERO, |m, &c| m | Mask::bit(c as usize));
        word_literal(ir.word, m)
    });
    // Without shifts, the open neighbours are counted cell by cell from masks.
    let neighbour_masks = if ir.shifts.is_none() {
        quote! {
            /// Each cell's neighbours, as a mask.
            const NEIGHBOUR_MASKS: &[Word] = &[#(#neighbour_masks),*];
        }
    } else {
        quote! {}
    };
    let neighbours = e.neighbours.iter().map(|n| u16_list(n));
    let set_base = e.set_base.iter().map(|&b| Literal::u32_unsuffixed(b));
    let index = e.index.iter().map(|&b| Literal::u32_unsuffixed(b));
    let entries = e.entries.iter().map(|&i| Literal::u16_unsuffixed(i));
    let entry_shapes = e
        .entries
        .iter()
        .map(|&i| Literal::u8_unsuffixed(ir.image_shapes[i as usize] as u8));
    // With 64-bit words the lists are walked eight at a time (`try_table`): seven entries
    // past the last set (never counted) let its last eight be loaded at once.
    let lanes = ir.f_table.is_some();
    let pad = if lanes { 7 } else { 0 };
    let n_entries = Literal::usize_unsuffixed(e.entries.len() + pad);
    let entries = entries.chain((0..pad).map(|_| Literal::u16_unsuffixed(0)));
    let entry_shapes = entry_shapes.chain((0..pad).map(|_| Literal::u8_unsuffixed(0)));
    let padding_mask = if lanes {
        let l = Literal::u64_unsuffixed(Mask::low_bits(ir.cells).low_u128() as u64);
        (0..pad).map(|_| quote! { #l }).collect()
    } else {
        Vec::new()
    };
    let entry_masks = e.entries.iter().map(|&i| {
        let m = ir.masks[i as usize];
        match ir.word {
            Word::U64 => {
                let l = Literal::u64_unsuffixed(m.low_u128() as u64);
                quote! { #l }
            }
            Word::U128 => {
                let l = Literal::u128_unsuffixed(m.low_u128());
                quote! { #l }
            }
            Word::Wide(_) => word_literal(ir.word, m),
        }
    });
    let entry_masks = entry_masks.chain(padding_mask);
    let fewest_neighbours = match &ir.shifts {
        Some(shifts) => {
            // Count each cell's open neighbours in three bit-sliced counters, a full adder
            // per direction, then take the lowest non-empty class.
            let adds = shifts.iter().map(|s| {
                let shifted = neighbour_bits(ir.word, s, quote! { open });
                quote! {
                    let x = #shifted;
                    let carry = b0 & x;
                    b0 ^= x;
                    b2 |= b1 & carry;
                    b1 ^= carry;
                }
            });
            let classes = (0..=shifts.len()).map(|k| {
                let bit = |b: usize, v: TokenStream| {
                    if k >> b & 1 == 1 {
                        quote! { #v }
                    } else {
                        quote! { !#v }
                    }
                };
                let (t0, t1, t2) = (
                    bit(0, quote! { b0 }),
                    bit(1, quote! { b1 }),
                    bit(2, quote! { b2 }),
                );
                quote! { open & #t2 & #t1 & #t0 }
            });
            quote! {
                let (mut b0, mut b1, mut b2): (Word, Word, Word) = (ZERO, ZERO, ZERO);
                #(#adds)*
                let mut candidates: Word = ZERO;
                for class in [#(#classes),*] {
                    if class != ZERO {
                        candidates = class;
                        break;
                    }
                }
            }
        }
        None => quote! {
            let mut fewest = u32::MAX;
            let mut candidates: Word = ZERO;
            let mut rest = open;
            while rest != ZERO {
                let c = rest.trailing_zeros() as usize;
                rest = clear_lowest(rest);
                let n = (NEIGHBOUR_MASKS[c] & open).count_ones();
                if n < fewest {
                    fewest = n;
                    candidates = ZERO;
                }
                if n == fewest {
                    candidates |= bit(c);
                }
            }
        },
    };
    let try_best = if lanes {
        quote! { self.try_table #turbofish (ctx, occ, avail, #arg &E_MASKS, &E_ENTRIES, &E_SHAPES, start, end); }
    } else {
        quote! { self.try_list(ctx, occ, avail, left, &E_MASKS[start..end], &E_ENTRIES[start..end], &E_SHAPES[start..end]); }
    };
    let items = quote! {
        /// Chooses the target by the E heuristic of the FILA article: among the open cells
        /// with the fewest open neighbours, the one where the fewest images fit; then tries
        /// that cell's images.
        #[inline(never)]
        fn search_e #generics (&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, #param) {
            let open = !occ & FULL;
            #fewest_neighbours
            let mut best_fits = u32::MAX;
            let mut best_set = 0;
            while candidates != ZERO {
                let c = candidates.trailing_zeros() as usize;
                candidates = clear_lowest(candidates);
                let set = e_set(c, occ);
                let fits = count_fits(set, occ, avail);
                if fits < best_fits {
                    best_fits = fits;
                    best_set = set;
                    // No fit: a dead end. One fit: a forced move, as good as any.
                    if fits <= 1 {
                        if fits == 0 {
                            return;
                        }
                        break;
                    }
                }
            }
            let (start, end) = (E_INDEX[best_set] as usize, E_INDEX[best_set + 1] as usize);
            #try_best
        }
    };
    let e_fns = if lanes {
        let nmasks = e.neighbours.iter().map(|n| {
            let m = n.iter().fold(0u64, |m, &c| m | 1 << c);
            hex_literal(64, m as u128)
        });
        quote! {
            /// Each cell's neighbours as a mask: bit k of the cell's index is the occupancy
            /// of the k-th lowest.
            const E_NEIGHBOUR_MASK: &[Word] = &[#(#nmasks),*];

            /// The image list set of cell `c` for the present state of its neighbours (NOF).
            #[inline(always)]
            fn e_set(c: usize, occ: Word) -> usize {
                E_SET_BASE[c] as usize + gather(occ, E_NEIGHBOUR_MASK[c])
            }

            /// The number of images of available shapes that fit in set `set`, eight at a
            /// time without a branch per image.
            #[inline(always)]
            fn count_fits(set: usize, occ: Word, avail: u64) -> u32 {
                let (start, end) = (E_INDEX[set] as usize, E_INDEX[set + 1] as usize);
                let o = Lanes::splat(occ);
                let mut fits = 0;
                let mut at = start;
                while at < end {
                    let m = Lanes::load(E_MASKS[at..at + 8].try_into().unwrap());
                    let valid = if end - at >= 8 { 0xff } else { (1u8 << (end - at)) - 1 };
                    let available = Lanes::available(avail, E_SHAPES[at..at + 8].try_into().unwrap());
                    fits += (available & valid & (o & m).zero_lanes()).count_ones();
                    at += 8;
                }
                fits
            }
        }
    } else {
        quote! {
            /// The image list set of cell `c` for the present state of its neighbours (NOF).
            #[inline(always)]
            fn e_set(c: usize, occ: Word) -> usize {
                let mut ilsi = 0;
                for (k, &n) in E_NEIGHBOURS[c].iter().enumerate() {
                    ilsi |= bit_at(occ, n as u32) << k;
                }
                E_SET_BASE[c] as usize + ilsi
            }

            /// The number of images of available shapes that fit in set `set`, counted
            /// without a branch per image so that the loop vectorises.
            #[inline(always)]
            fn count_fits(set: usize, occ: Word, avail: u64) -> u32 {
                let (start, end) = (E_INDEX[set] as usize, E_INDEX[set + 1] as usize);
                E_MASKS[start..end]
                    .iter()
                    .zip(&E_SHAPES[start..end])
                    .map(|(&mask, &shape)| ((avail >> shape) & 1) as u32 & (occ & mask == ZERO) as u32)
                    .sum()
            }
        }
    };
    let e_neighbours = if lanes {
        quote! {}
    } else {
        quote! {
            /// Each cell's neighbours; bit k of its index is the occupancy of the k-th.
            const E_NEIGHBOURS: &[&[u16]] = &[#(#neighbours),*];
        }
    };
    let tables = quote! {
        #neighbour_masks
        #e_neighbours
        /// The first image list set of each cell.
        const E_SET_BASE: &[u32] = &[#(#set_base),*];
        /// Set t's images are `E_ENTRIES[E_INDEX[t]..E_INDEX[t + 1]]`, by shape.
        const E_INDEX: &[u32] = &[#(#index),*];
        /// The images of every E image list set.
        static E_ENTRIES: [u16; #n_entries] = [#(#entries),*];
        /// Their occupancy masks.
        static E_MASKS: [Word; #n_entries] = [#(#entry_masks),*];
        /// Their shapes.
        static E_SHAPES: [u8; #n_entries] = [#(#entry_shapes),*];

        #e_fns
    };
    (switch, items, tables)
}

/// The volume and parity backtracks (polycube's `-v N` and `-p`): tables and the tests,
/// methods of `Solver` (they read the copies left).
fn pruning_tokens(ir: &Ir) -> TokenStream {
    let word = ir.word;
    let halo = ir.masks.iter().map(|&m| {
        let around = (0..ir.cells)
            .filter(|&c| m.bit_at(c as u32) == 1)
            .fold(Mask::ZERO, |h, c| h | ir.neighbour_masks[c]);
        word_literal(word, around & !m)
    });
    // Growing a region by one step: by shifts of the word where the numbering allows,
    // else cell by cell through each cell's neighbour mask.
    let (grow, neighbour_table) = match &ir.shifts {
        Some(shifts) if !shifts.is_empty() => {
            let terms = shifts
                .iter()
                .map(|s| neighbour_bits(word, s, quote! { frontier }));
            (quote! { #(#terms)|* }, quote! {})
        }
        // A single cell: no neighbours.
        Some(_) => (quote! { ZERO }, quote! {}),
        None => {
            let masks = ir.neighbour_masks.iter().map(|&m| word_literal(word, m));
            (
                quote! {{
                    let mut around: Word = ZERO;
                    let mut f = frontier;
                    while f != ZERO {
                        around |= NEIGHBOURS[f.trailing_zeros() as usize];
                        f = clear_lowest(f);
                    }
                    around
                }},
                quote! {
                    /// Each cell's neighbours.
                    const NEIGHBOURS: &[Word] = &[#(#masks),*];
                },
            )
        }
    };
    let sizes = ir
        .shape_sizes
        .iter()
        .map(|&z| Literal::u32_unsuffixed(z as u32));
    let uniform = ir.shape_sizes.iter().all(|&z| z == ir.shape_sizes[0]);
    let (fillable, sizes_table) = if uniform {
        let size = Literal::u32_unsuffixed(ir.shape_sizes.first().copied().unwrap_or(1) as u32);
        (quote! { size % #size == 0 }, quote! {})
    } else {
        (
            quote! {{
                // The sizes the remaining pieces can make, as a bit set.
                let mut sums: u128 = 1;
                let mut a = avail;
                while a != 0 {
                    let s = a.trailing_zeros() as usize;
                    a &= a - 1;
                    for _ in 0..self.copies[s] {
                        sums |= sums << SIZES[s];
                    }
                }
                // A region of 128 cells or more is not judged.
            size >= 128 || (sums >> size) & 1 == 1
            }},
            quote! {
                /// The size of each shape.
                const SIZES: &[u32] = &[#(#sizes),*];
            },
        )
    };
    // Region sizes stay below 128 (a region left open by a placement is smaller than the
    // box); colour balances must stay within +-63 for the 128-bit set of sums.
    let range: i32 = ir
        .shape_balances
        .iter()
        .zip(&ir.shape_counts)
        .map(|(b, &n)| b.iter().map(|v| v.abs()).max().unwrap_or(0) * n as i32)
        .sum();
    let balances = ir.shape_balances.iter().map(|b| {
        let v = b.iter().map(|&x| Literal::i32_unsuffixed(x));
        quote! { &[#(#v),*] }
    });
    let black = word_literal(word, ir.black);
    let parity = if range <= 63 {
        quote! {
            let open = !occ & FULL;
            let balance = 2 * (open & BLACK).count_ones() as i32 - open.count_ones() as i32;
            // The balances the remaining pieces can make, offset by 64, as a bit set.
            let mut sums: u128 = 1 << 64;
            let mut a = avail;
            while a != 0 {
                let s = a.trailing_zeros() as usize;
                a &= a - 1;
                for _ in 0..self.copies[s] {
                    let mut next: u128 = 0;
                    for &v in BALANCES[s] {
                        next |= if v >= 0 { sums << v } else { sums >> -v };
                    }
                    sums = next;
                }
            }
            (-64..64).contains(&balance) && (sums >> (balance + 64)) & 1 == 1
        }
    } else {
        quote! {
            // The pieces' balances range beyond +-63: no test (never happens with the
            // puzzles of the literature).
            let _ = (occ, avail, BLACK, BALANCES);
            true
        }
    };
    quote! {
        /// The open cells around each image: a region its placement closes off touches it.
        const HALO: &[Word] = &[#(#halo),*];
        #neighbour_table
        #sizes_table
        /// The cells of one colour of the checkerboard.
        const BLACK: Word = #black;
        /// For each shape, the colour balances (black minus white cells) of its images.
        const BALANCES: &[&[i32]] = &[#(#balances),*];
        /// A region still growing after this many steps is taken to be large enough.
        const VOLUME_STEPS: usize = 16;

        impl Solver {
            /// The volume backtrack: every open region that the placement of `image` closed
            /// off (found by growing from the cells around it, up to `VOLUME_STEPS` steps)
            /// has a size the remaining pieces can make.
            #[allow(unused_variables)]
            fn volume_ok(&self, occ: Word, avail: u64, image: u16) -> bool {
                let open = !occ & FULL;
                let mut seeds = HALO[image as usize] & open;
                while seeds != ZERO {
                    let seed = lowest(seeds);
                    let mut region = seed;
                    let mut frontier = seed;
                    let mut closed = false;
                    for _ in 0..VOLUME_STEPS {
                        frontier = (#grow) & open & !region;
                        if frontier == ZERO {
                            closed = true;
                            break;
                        }
                        region |= frontier;
                    }
                    if closed {
                        let size = region.count_ones();
                        if !(#fillable) {
                            return false;
                        }
                    }
                    seeds &= !region;
                }
                true
            }

            /// The parity backtrack: the open cells' colour balance is one the remaining
            /// pieces can make.
            fn parity_ok(&self, occ: Word, avail: u64) -> bool {
                #parity
            }
        }
    }
}

/// The whole generated file (without its stamp), formatted.
pub fn emit(ir: &Ir, info: &PuzzleInfo, description: &str) -> String {
    let f_from = ir
        .e_stage
        .as_ref()
        .map_or(info.pieces_to_place(), |e| e.f_from);
    let solver = solver_tokens(ir, f_from, true);
    let info_fn = info_tokens(info);
    // The narrower solvers give back their counts.
    let tail_counts = if ir.tail.is_some() {
        quote! { self.tail.add_counts(&mut self.attempts, &mut self.fits); }
    } else {
        quote! {}
    };
    let doc = format!(" {description}");
    let file = quote! {
        #[doc = #doc]
        pub fn main() {
            ::runtime::main_for(info(), &mut Solver::new());
        }

        #solver

        impl ::runtime::Search for Solver {
            fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut ::runtime::Context<'_>) {
                let pruning = ctx.pruning();
                self.configure(
                    ctx.floor(),
                    pruning.volume_backtrack.unwrap_or(usize::MAX),
                    pruning.parity_backtrack.unwrap_or(usize::MAX),
                    ctx.f_from(),
                );
                self.stop = false;
                self.copies = COPIES;
                let mut occ: Word = ZERO;
                let mut avail = ALL_SHAPES;
                for (k, &image) in prefix.iter().enumerate() {
                    let image_info = &ctx.info.images[image as usize];
                    let shape = image_info.shape as usize;
                    occ |= image_info.cells.iter().fold(ZERO, |m, &c| m | bit(c as usize));
                    self.copies[shape] -= 1;
                    if self.copies[shape] == 0 {
                        avail &= !(1u64 << shape);
                    }
                    self.stack[k & 63] = image;
                }
                let left = PIECES - prefix.len();
                if prefix.len() == 1 {
                    // The first placement counts like any other.
                    self.attempts[PIECES] = 1;
                    if !isolated(occ) {
                        self.fits[PIECES] = 1;
                        self.descend(ctx, occ, avail, left);
                    }
                } else {
                    self.descend(ctx, occ, avail, left);
                }
                #tail_counts
                ctx.stats.add(&self.attempts[..=PIECES], &self.fits[..=PIECES]);
            }

            fn fork(&self) -> Box<dyn ::runtime::Search> {
                Box::new(Solver::new())
            }
        }

        #info_fn
    };
    let syntax: syn::File = syn::parse2(file).expect("the emitter writes valid Rust");
    prettyplease::unparse(&syntax)
}

/// The solver's word, tables and search: the whole file but for `main`, the runtime's
/// interface and description (`top`), or the module of a narrower solver that a wider one
/// hands over to (not `top`). `f_from` is the default switch from E to F.
fn solver_tokens(ir: &Ir, f_from: usize, top: bool) -> TokenStream {
    let Levels {
        generics,
        param,
        bind,
        ..
    } = levels(ir);
    let descend = descend_tokens(ir);
    let pieces = Literal::usize_unsuffixed(ir.shape_counts.iter().sum::<usize>());
    let shapes = Literal::usize_unsuffixed(ir.shape_counts.len());
    let word_type = match ir.word {
        Word::U64 => quote! { u64 },
        Word::U128 => quote! { u128 },
        Word::Wide(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote! { ::runtime::word::Wide<#n> }
        }
    };
    // The few operations whose spelling differs between primitive and wide words.
    let word_ops = match ir.word {
        Word::U64 | Word::U128 => quote! {
            /// No cell filled.
            const ZERO: Word = 0;
            /// Only cell `c` filled.
            #[allow(dead_code)]
            #[inline(always)]
            fn bit(c: usize) -> Word {
                1 << c
            }
            /// Whether cell `c` is filled, as 0 or 1.
            #[allow(dead_code)]
            #[inline(always)]
            fn bit_at(w: Word, c: u32) -> usize {
                (w >> c) as usize & 1
            }
            /// `w` without its lowest filled cell.
            #[allow(dead_code)]
            #[inline(always)]
            fn clear_lowest(w: Word) -> Word {
                w & (w - 1)
            }
            /// Only the lowest filled cell of `w`.
            #[allow(dead_code)]
            #[inline(always)]
            fn lowest(w: Word) -> Word {
                w & w.wrapping_neg()
            }
        },
        Word::Wide(_) => quote! {
            /// No cell filled.
            const ZERO: Word = Word::ZERO;
            /// Only cell `c` filled.
            #[allow(dead_code)]
            #[inline(always)]
            fn bit(c: usize) -> Word {
                Word::bit(c)
            }
            /// Whether cell `c` is filled, as 0 or 1.
            #[allow(dead_code)]
            #[inline(always)]
            fn bit_at(w: Word, c: u32) -> usize {
                w.bit_at(c)
            }
            /// `w` without its lowest filled cell.
            #[allow(dead_code)]
            #[inline(always)]
            fn clear_lowest(w: Word) -> Word {
                w.clear_lowest()
            }
            /// Only the lowest filled cell of `w`.
            #[allow(dead_code)]
            #[inline(always)]
            fn lowest(w: Word) -> Word {
                w.lowest()
            }
        },
    };
    let all_shapes = Literal::u64_suffixed(if ir.shape_counts.len() == 64 {
        u64::MAX
    } else {
        (1u64 << ir.shape_counts.len()) - 1
    });
    let copies = ir
        .shape_counts
        .iter()
        .map(|&c| Literal::u8_unsuffixed(c as u8));
    let dispatch = ir.plans.iter().map(|p| {
        let c = Literal::u32_unsuffixed(p.cell as u32);
        let f = format_ident!("cell_{}", p.cell);
        quote! { #c => self.#f(ctx, occ, avail, left), }
    });
    let cell_fns: Vec<TokenStream> = ir.plans.iter().map(|p| cell_fn_tokens(ir, p)).collect();
    // The F stage: from tables where the word is 64 bits wide, else one function per cell.
    let (f_dispatch, f_tables, cell_fns, try_table, lanes) = match &ir.f_table {
        Some(ft) => {
            let (dispatch, tables) = f_table_tokens(ir, ft);
            (
                dispatch,
                tables,
                Vec::new(),
                try_table_tokens(ir),
                lanes_tokens(),
            )
        }
        None => (
            quote! {
                match (!occ).trailing_zeros() {
                    #(#dispatch)*
                    _ => {}
                }
            },
            quote! {},
            cell_fns,
            quote! {},
            quote! {},
        ),
    };
    let full = word_literal(ir.word, Mask::low_bits(ir.cells));
    let isolation_check = isolation_tokens(ir, false);
    let isolation_lanes = if ir.f_table.is_some() {
        isolation_tokens(ir, true)
    } else {
        quote! {}
    };
    let full_const = quote! {
        /// Every cell filled.
        const FULL: Word = #full;
    };
    let pruning = pruning_tokens(ir);
    let place_copy = place_copy_tokens(ir);
    // With a 64-bit word the region test joins the vectorised fit test (10x6: 39.4 ->
    // 33.8 ms against testing it in the child). A 128-bit word does not vectorise, and
    // testing only the images that fit costs far less there: one-sided pentominoes in
    // 30x3, 92.6 -> 27.6 ms; in 18x5, a 40th of the search 8.5 -> 3.0 s.
    let (fit_test, late_isolation) = match ir.word {
        Word::U64 => (
            quote! { fits |= (available & ((occ & masks[k] == ZERO) as u64) & (!isolated(occ | masks[k]) as u64)) << (k - base); },
            quote! {},
        ),
        Word::U128 | Word::Wide(_) => (
            quote! { fits |= (available & ((occ & masks[k] == ZERO) as u64)) << (k - base); },
            quote! {
                if isolated(occ | masks[k]) {
                    continue;
                }
            },
        ),
    };
    // `Set`, `try_set` and `try_list` serve the cell functions and the E stage of words
    // wider than 64 bits; 64-bit words use `try_table` throughout.
    let cells_code = ir.f_table.is_none();
    let set_struct = if cells_code {
        quote! {
        /// One image list set: the images of every shape that can fill a cell in one
        /// neighbour state, with their masks and shapes.
        struct Set<const N: usize> {
            masks: [Word; N],
            images: [u16; N],
            shapes: [u8; N],
        }

        }
    } else {
        quote! {}
    };
    let try_set = if cells_code {
        quote! {
            /// Tries every image of `set` whose shape is available.
            #[inline(always)]
            fn try_set<const N: usize>(&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, left: usize, set: &Set<N>) {
                self.try_list(ctx, occ, avail, left, &set.masks, &set.images, &set.shapes);
            }

        }
    } else {
        quote! {}
    };
    let try_list = if cells_code {
        quote! {
            /// Tries every image of a list whose shape is available: the fits are found
            /// without a branch per image (the tests vectorise), then each is placed.
            #[inline(always)]
            fn try_list(&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, left: usize, masks: &[Word], images: &[u16], shapes: &[u8]) {
                let n = masks.len();
                let mut base = 0;
                while base < n {
                    let end = if n - base > 64 { base + 64 } else { n };
                    let mut tried: u64 = 0;
                    let mut fits: u64 = 0;
                    for k in base..end {
                        let available = (avail >> shapes[k]) & 1;
                        tried |= available << (k - base);
                        // A placement that would leave an isolated open cell is not a fit
                        // at all: testing it here, for a whole list at once, costs less
                        // than entering the child that would find it.
                        #fit_test
                    }
                    self.attempts[left & 63] += tried.count_ones() as u64;
                    while fits != 0 {
                        let k = base + fits.trailing_zeros() as usize;
                        fits &= fits - 1;
                        #late_isolation
                        let s = shapes[k] as usize;
                        #place_copy
                    }
                    base = end;
                }
            }

        }
    } else {
        quote! {}
    };
    let try_lists = quote! { #try_set #try_list };
    let f_from_literal = Literal::usize_unsuffixed(f_from);
    let f_from_doc = if ir.e_stage.is_some() {
        " Use the F heuristic when this many pieces or fewer are left, E before (the default of `--f-from`)."
    } else {
        " The F heuristic throughout: this solver has no E stage."
    };
    let (e_switch, e_items, e_tables) = match &ir.e_stage {
        Some(e) => e_stage_tokens(ir, e),
        None => (quote! {}, quote! {}, quote! {}),
    };
    let (tail_field, tail_init, tail_handover, tail_items) = tail_tokens(ir, f_from);
    let configure = configure_tokens(ir);
    let interface = if top {
        quote! {}
    } else {
        tail_interface_tokens(ir)
    };
    quote! {
        /// The occupancy word: bit `c` is set when cell `c` is filled.
        type Word = #word_type;
        #word_ops

        /// Pieces to place in every solution.
        const PIECES: usize = #pieces;
        #[doc = #f_from_doc]
        const F_FROM: usize = #f_from_literal;
        /// Copies of each shape.
        const COPIES: [u8; #shapes] = [#(#copies),*];
        /// Every shape available.
        const ALL_SHAPES: u64 = #all_shapes;
        #full_const

        #set_struct

        /// The FILA search with the F heuristic, every image list a constant.
        pub struct Solver {
            /// The images placed so far; sized so that indexing by `& 63` needs no check.
            stack: [u16; 64],
            copies: [u8; #shapes],
            /// Counts by pieces left, sized like `stack`.
            attempts: [u64; 64],
            fits: [u64; 64],
            stop: bool,
            /// Nodes with this many pieces left go back to the driver (0: none).
            floor: usize,
            /// The volume and parity backtracks apply while more than this many pieces
            /// are left (`usize::MAX`: never); `prune_from` is the smaller.
            volume_from: usize,
            parity_from: usize,
            prune_from: usize,
            /// The E heuristic while more than this many pieces are left, then F.
            f_from: usize,
            #tail_field
        }

        impl Default for Solver {
            fn default() -> Self {
                Self::new()
            }
        }

        impl Solver {
            pub fn new() -> Self {
                Solver {
                    stack: [0; 64],
                    copies: COPIES,
                    attempts: [0; 64],
                    fits: [0; 64],
                    stop: false,
                    floor: 0,
                    volume_from: usize::MAX,
                    parity_from: usize::MAX,
                    prune_from: usize::MAX,
                    f_from: F_FROM,
                    #tail_init
                }
            }

            #try_lists

            #try_table

            /// Places image `image` (its mask already in `occ`) and searches on. Returns
            /// true when the search must stop.
            #[inline(always)]
            fn place #generics (&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, next: u64, #param image: u16) -> bool {
                #bind
                // (Never reached with no piece left: `wrapping_sub` keeps that level's
                // copy free of an overflow.)
                let below = left.wrapping_sub(1);
                self.fits[left & 63] += 1;
                if below > self.prune_from && !self.prune_ok(occ, next, below, image) {
                    return self.stop;
                }
                self.stack[PIECES.wrapping_sub(left) & 63] = image;
                self.descend(ctx, occ, next, below);
                self.stop
            }

            #descend

            /// Targets the first open cell.
            fn search #generics (&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, #param) {
                #bind
                if left <= self.floor {
                    // A solution, or a node where the driver splits the search.
                    if left == 0 {
                        if !ctx.report(&self.stack[..PIECES]) {
                            self.stop = true;
                        }
                    } else {
                        ctx.cut(&self.stack[..PIECES - left]);
                    }
                    return;
                }
                #tail_handover
                #e_switch
                #f_dispatch
            }

            #e_items

            #(#cell_fns)*

            /// Whether the volume and parity backtracks, where they apply with `remaining`
            /// pieces left to place, let the search go on below the placement of `image`.
            #[inline(never)]
            fn prune_ok(&self, occ: Word, avail: u64, remaining: usize, image: u16) -> bool {
                (remaining <= self.volume_from || self.volume_ok(occ, avail, image))
                    && (remaining <= self.parity_from || self.parity_ok(occ, avail))
            }
        }

        #configure

        #interface

        #e_tables

        #f_tables

        #lanes

        #isolation_check

        #isolation_lanes

        #pruning

        #tail_items
    }
}

/// `try_table`: the images `start..end` of a set of tables (each with seven entries past
/// its last set), eight at a time.
fn try_table_tokens(ir: &Ir) -> TokenStream {
    let place_copy = place_copy_tokens(ir);
    let Levels {
        generics,
        param,
        bind,
        ..
    } = levels(ir);
    quote! {
        /// Tries the images `start..end` of the tables `masks`, `images`, `shapes` whose
        /// shape is available: the fits of eight at a time are found without a branch
        /// per image (in one vector register where the machine has them), together with
        /// the test for open regions too small for any piece; then each fit is placed.
        #[inline(always)]
        #[allow(clippy::too_many_arguments)]
        fn try_table #generics (&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, #param masks: &[Word], images: &[u16], shapes: &[u8], start: usize, end: usize) {
            #bind
            let o = Lanes::splat(occ);
            let mut base = start;
            while base < end {
                let stop = if end - base > 64 { base + 64 } else { end };
                let mut tried: u32 = 0;
                let mut fits: u64 = 0;
                let mut at = base;
                while at < stop {
                    let m = Lanes::load(masks[at..at + 8].try_into().unwrap());
                    let valid = if stop - at >= 8 { 0xff } else { (1u8 << (stop - at)) - 1 };
                    let available = Lanes::available(avail, shapes[at..at + 8].try_into().unwrap()) & valid;
                    tried += available.count_ones();
                    let fit = available & (o & m).zero_lanes() & isolated_lanes(o | m).zero_lanes();
                    fits |= (fit as u64) << (at - base);
                    at += 8;
                }
                self.attempts[left & 63] += tried as u64;
                while fits != 0 {
                    let k = base + fits.trailing_zeros() as usize;
                    fits &= fits - 1;
                    let s = shapes[k] as usize;
                    #place_copy
                }
                base = stop;
            }
        }
    }
}

/// Placing image `k` of the lists `masks`, `images`, `shapes` (`s` its shape) and
/// searching on; returns from the caller when the search must stop.
fn place_copy_tokens(ir: &Ir) -> TokenStream {
    let Levels { turbofish, arg, .. } = levels(ir);
    // With one piece of every shape, placing a piece just clears its shape's bit.
    if ir.shape_counts.iter().all(|&c| c == 1) {
        quote! {
            if self.place #turbofish (ctx, occ | masks[k], avail & !(1u64 << s), #arg images[k]) {
                return;
            }
        }
    } else {
        quote! {
            self.copies[s] -= 1;
            let next = if self.copies[s] == 0 { avail & !(1u64 << s) } else { avail };
            let stop = self.place #turbofish (ctx, occ | masks[k], next, #arg images[k]);
            self.copies[s] += 1;
            if stop {
                return;
            }
        }
    }
}

/// The eight-lane tests and `gather` (`pext`) come from the runtime (`runtime::lanes`):
/// they do not depend on the puzzle.
fn lanes_tokens() -> TokenStream {
    quote! {
        use ::runtime::lanes::{gather, Lanes};
    }
}

/// The F stage from tables (64-bit words): `search`'s dispatch, and the tables.
///
/// Measured on 10x6 (interleaved runs, minimum of 30): one function per cell with a
/// `match` on the neighbour state took 34.5 ms; the same sets as flat tables walked by
/// one routine eight entries at a time 32.2 ms (56 ms with a loop over each set's
/// exact length, whose remainder the compiler handles with branches); indexed by 6
/// chosen cells ([`crate::lower::CONTEXT_CELLS`]) 28.0 ms; with the eight images'
/// tests in one AVX-512 mask register (`Lanes`) 23.1 ms. Testing the regions only for
/// the images that fit, one at a time, took 39.7 ms against 32.2.
fn f_table_tokens(ir: &Ir, ft: &crate::lower::FTable) -> (TokenStream, TokenStream) {
    let mut base = Vec::with_capacity(64);
    let mut index: Vec<u32> = Vec::new();
    let mut entries: Vec<usize> = Vec::new();
    for cell_sets in &ft.sets {
        base.push(index.len() as u32);
        for set in cell_sets {
            index.push(entries.len() as u32);
            entries.extend(set);
        }
    }
    index.push(entries.len() as u32);
    let n = entries.len();
    // Every cell number a first open cell can have, so that `c & 63` needs no check.
    let mut context: Vec<u64> = ft.context.iter().map(|m| m.low_u128() as u64).collect();
    context.resize(64, 0);
    base.resize(64, 0);
    let context = context.iter().map(|&m| hex_literal(64, m as u128));
    let base = base.iter().map(|&b| Literal::u32_unsuffixed(b));
    let sets = Literal::usize_unsuffixed(index.len());
    let index = index.iter().map(|&b| Literal::u32_unsuffixed(b));
    // Seven entries past the last set, so that its last eight can be loaded at once.
    let padded = Literal::usize_unsuffixed(n + 7);
    let full = ir.masks.iter().fold(Mask::ZERO, |m, &x| m | x).low_u128() as u64;
    let masks = entries
        .iter()
        .map(|&i| hex_literal(64, ir.masks[i].low_u128()))
        .chain((0..7).map(|_| hex_literal(64, full as u128)));
    let images = entries
        .iter()
        .map(|&i| Literal::u16_unsuffixed(i as u16))
        .chain((0..7).map(|_| Literal::u16_unsuffixed(0)));
    let shapes = entries
        .iter()
        .map(|&i| Literal::u8_unsuffixed(ir.image_shapes[i] as u8))
        .chain((0..7).map(|_| Literal::u8_unsuffixed(0)));
    let dispatch = quote! {
        let c = (!occ).trailing_zeros() as usize & 63;
        let set = F_SET_BASE[c] as usize + gather(occ, F_CONTEXT[c]);
        let (start, end) = (F_INDEX[set] as usize, F_INDEX[set + 1] as usize);
        self.try_table::<L>(ctx, occ, avail, &F_MASKS, &F_IMAGES, &F_SHAPES, start, end);
    };
    let items = quote! {
        /// For each cell, the later cells whose occupancy selects its image list set (NOF):
        /// those that the most of its images cover.
        const F_CONTEXT: [Word; 64] = [#(#context),*];
        /// The first image list set of each cell.
        const F_SET_BASE: [u32; 64] = [#(#base),*];
        /// Set t's images are `F_MASKS[F_INDEX[t]..F_INDEX[t + 1]]`, by shape.
        static F_INDEX: [u32; #sets] = [#(#index),*];
        /// The occupancy masks of the images of every F image list set.
        static F_MASKS: [Word; #padded] = [#(#masks),*];
        /// Their image numbers.
        static F_IMAGES: [u16; #padded] = [#(#images),*];
        /// Their shapes.
        static F_SHAPES: [u8; #padded] = [#(#shapes),*];
    };
    (dispatch, items)
}

/// The hand-over to a narrower solver, if `ir` has one: the field that holds it, its
/// initialiser, the test in `search`, and the items (the mask and the solver's module).
fn tail_tokens(ir: &Ir, f_from: usize) -> (TokenStream, TokenStream, TokenStream, TokenStream) {
    let Some(tail) = &ir.tail else {
        return (quote! {}, quote! {}, quote! {}, quote! {});
    };
    let from = Literal::usize_unsuffixed(tail.from);
    let narrow = match (ir.word, tail.ir.word) {
        (Word::U128, Word::U64) => quote! { (occ >> #from) as u64 },
        (Word::Wide(_), Word::U128) => quote! { (occ >> #from).low_u128() },
        (Word::Wide(_), Word::U64) => quote! { (occ >> #from).low_u128() as u64 },
        (wide, narrow) => unreachable!("a tail in {narrow:?} of a solver in {wide:?}"),
    };
    let before = word_literal(ir.word, Mask::low_bits(tail.from));
    let field = quote! {
        /// The solver of the last cells, in a narrower word.
        tail: tail::Solver,
    };
    let init = quote! { tail: tail::Solver::new(), };
    let handover = quote! {
        if occ & BEFORE_TAIL == BEFORE_TAIL {
            // Every cell before the tail is filled, so every image placed from here on
            // lies in the tail: its solver searches on in its narrower word.
            if self.tail.enter(ctx, #narrow, avail, left, &self.stack, &self.copies) {
                self.stop = true;
            }
            return;
        }
    };
    let doc = format!(
        " The solver of cells {}.. (its cell 0 is cell {} here), in a {}-bit word.",
        tail.from,
        tail.from,
        tail.ir.word.bits()
    );
    let solver = solver_tokens(&tail.ir, f_from, false);
    let items = quote! {
        /// The cells before the tail's.
        const BEFORE_TAIL: Word = #before;

        #[doc = #doc]
        #[allow(dead_code)]
        mod tail {
            #solver
        }
    };
    (field, init, handover, items)
}

/// `configure`: the run's settings (from the driver, or from the solver that hands over
/// to this one), passed on to the tail; the counts cleared.
fn configure_tokens(ir: &Ir) -> TokenStream {
    let tail = if ir.tail.is_some() {
        quote! { self.tail.configure(floor, volume_from, parity_from, f_from); }
    } else {
        quote! {}
    };
    quote! {
        impl Solver {
            /// Takes the run's settings, for this solver and its tails, and clears the
            /// counts.
            pub fn configure(&mut self, floor: usize, volume_from: usize, parity_from: usize, f_from: usize) {
                self.floor = floor;
                self.volume_from = volume_from;
                self.parity_from = parity_from;
                self.prune_from = volume_from.min(parity_from);
                self.f_from = f_from;
                self.attempts = [0; 64];
                self.fits = [0; 64];
                #tail
            }
        }
    }
}

/// What a narrower solver offers the solver that hands over to it beyond `configure`:
/// searching on from one of its nodes, and giving back the counts.
fn tail_interface_tokens(ir: &Ir) -> TokenStream {
    let shapes = Literal::usize_unsuffixed(ir.shape_counts.len());
    let add_counts = if ir.tail.is_some() {
        quote! { self.tail.add_counts(&mut self.attempts, &mut self.fits); }
    } else {
        quote! {}
    };
    quote! {
        impl Solver {
            /// Searches on from a node of the wider solver where every cell before this
            /// solver's is filled: `occ` is the occupancy of this solver's cells, `stack`
            /// and `copies` the wider solver's. Returns true when the search must stop.
            pub fn enter(&mut self, ctx: &mut ::runtime::Context<'_>, occ: Word, avail: u64, left: usize, stack: &[u16; 64], copies: &[u8; #shapes]) -> bool {
                self.stack = *stack;
                self.copies = *copies;
                self.stop = false;
                self.descend(ctx, occ, avail, left);
                self.stop
            }

            /// Adds the counts of this solver (and its tail) to `attempts` and `fits`,
            /// and clears them.
            pub fn add_counts(&mut self, attempts: &mut [u64; 64], fits: &mut [u64; 64]) {
                #add_counts
                for k in 0..64 {
                    attempts[k] += self.attempts[k];
                    fits[k] += self.fits[k];
                }
                self.attempts = [0; 64];
                self.fits = [0; 64];
            }
        }
    }
}
