//! The `INFO` of a generated file: the runtime's description of the puzzle (box, pieces,
//! images, symmetry, the first stage) as constants, a `runtime::info::StaticInfo`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};
use runtime::{FirstInfo, PuzzleInfo, Slot, SymmetryInfo};

use super::data::{Data, Values};

pub fn u16_list(values: &[u16]) -> TokenStream {
    let v = values.iter().map(|&x| Literal::u16_unsuffixed(x));
    quote! { &[#(#v),*] }
}

fn first_tokens(first: &FirstInfo) -> TokenStream {
    let what = &first.what;
    let filter = &first.filter;
    let images = u16_list(&first.images);
    let stabilisers = first.stabilisers.iter().map(|s| u16_list(s));
    let full_check = first.full_check;
    quote! {
        ::runtime::info::StaticFirst {
            what: #what,
            filter: #filter,
            images: #images,
            stabilisers: &[#(#stabilisers),*],
            full_check: #full_check,
        }
    }
}

/// The description of one symmetry mode; its group's maps are the tables `{prefix}_CELL_MAPS`
/// and `{prefix}_SHAPE_MAPS`, added to `tables`.
fn symmetry_tokens(
    symmetry: &SymmetryInfo,
    prefix: &str,
    data: &mut Data,
    tables: &mut Vec<TokenStream>,
) -> TokenStream {
    let name = &symmetry.name;
    let cell_maps = format_ident!("{prefix}_CELL_MAPS");
    let shape_maps = format_ident!("{prefix}_SHAPE_MAPS");
    tables.push(
        data.table(
            "",
            &cell_maps.to_string(),
            "Each symmetry's map of the cells, one after another.",
            Values::U16(
                symmetry
                    .group
                    .iter()
                    .flat_map(|e| e.cell_map.iter().copied())
                    .collect(),
            ),
        ),
    );
    tables.push(
        data.table(
            "",
            &shape_maps.to_string(),
            "Each symmetry's map of the shapes, one after another.",
            Values::U16(
                symmetry
                    .group
                    .iter()
                    .flat_map(|e| e.shape_map.iter().copied())
                    .collect(),
            ),
        ),
    );
    let filtered = first_tokens(&symmetry.filtered);
    quote! {
        ::runtime::info::StaticSymmetry {
            name: #name,
            cell_maps: #cell_maps,
            shape_maps: #shape_maps,
            filtered: #filtered,
        }
    }
}

/// `INFO`, the runtime's description of the puzzle as constants, and its long tables.
pub fn info_static(info: &PuzzleInfo, data: &mut Data) -> (TokenStream, TokenStream) {
    let mut tables = Vec::new();
    let name = &info.name;
    let [x, y, z] = info.dims;
    let lattice = quote::format_ident!("{}", format!("{:?}", info.lattice));
    let grid = info.grid.iter().map(|s| match s {
        Slot::Open(c) => quote! { Open(#c) },
        Slot::Stationary(p) => quote! { Stationary(#p) },
    });
    let piece_names = &info.piece_names;
    let shape_pieces = info.shape_pieces.iter().map(|p| u16_list(p));
    tables.push(data.table(
        "",
        "IMAGE_SHAPES",
        "The shape of each image.",
        Values::U16(info.images.iter().map(|i| i.shape).collect()),
    ));
    let mut starts = vec![0u32];
    for image in &info.images {
        starts.push(starts.last().copied().unwrap_or(0) + image.cells.len() as u32);
    }
    tables.push(data.table(
        "",
        "IMAGE_STARTS",
        "Image k's cells are `IMAGE_CELLS[IMAGE_STARTS[k]..IMAGE_STARTS[k + 1]]`.",
        Values::U32(starts),
    ));
    tables.push(
        data.table(
            "",
            "IMAGE_CELLS",
            "The cells of each image, one image after another.",
            Values::U16(
                info.images
                    .iter()
                    .flat_map(|i| i.cells.iter().copied())
                    .collect(),
            ),
        ),
    );
    let unfiltered = first_tokens(&info.unfiltered);
    let rotations = symmetry_tokens(&info.rotations, "ROTATIONS", data, &mut tables);
    let mirror = match &info.mirror {
        Ok(m) => {
            let m = symmetry_tokens(m, "MIRROR", data, &mut tables);
            quote! { Ok(#m) }
        }
        Err(refusal) => {
            let why = &refusal.why;
            let usage_error = refusal.usage_error;
            quote! { Err((#why, #usage_error)) }
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
    let one_side = info.one_side;
    let description = quote! {
        /// The runtime's description of the puzzle: box, pieces, images and symmetry.
        pub static INFO: ::runtime::info::StaticInfo = {
            #[allow(unused_imports)]
            use ::runtime::Slot::{Open, Stationary};
            ::runtime::info::StaticInfo {
                name: #name,
                lattice: ::runtime::Lattice::#lattice,
                dims: [#x, #y, #z],
                one_side: #one_side,
                grid: &[#(#grid),*],
                piece_names: &[#(#piece_names),*],
                shape_pieces: &[#(#shape_pieces),*],
                image_shapes: IMAGE_SHAPES,
                image_starts: IMAGE_STARTS,
                image_cells: IMAGE_CELLS,
                unfiltered: #unfiltered,
                rotations: #rotations,
                mirror: #mirror,
                pruning: ::runtime::Pruning {
                    volume_filter: #volume_filter,
                    volume_backtrack: #volume_backtrack,
                    parity_backtrack: #parity_backtrack,
                },
                order: ::runtime::Order { f_from: F_FROM, e_stage: #e_stage },
            }
        };
    };
    (description, quote! { #(#tables)* })
}
