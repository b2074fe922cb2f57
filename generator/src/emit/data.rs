//! Where a table goes: a literal array in the generated Rust when it is short enough to
//! read, else a file of bytes beside it (`generated/NAME/TABLE.bin`), included with
//! `include_bytes!` and read in place through `runtime::fila::data` (little-endian
//! numbers one after another, a wide word as its 64-bit limbs, least significant first).
//! Either way the table is a `static` slice with a doc comment saying what it holds.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::literal::{numbers, word_literal};
use crate::lower::{Ir, Mask, Word};

/// Tables longer than this many entries are written as bytes.
pub const LITERAL_ENTRIES: usize = 256;

/// A file of bytes that a generated file includes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataFile {
    /// Its path relative to the generated file's directory: `NAME/TABLE.bin`.
    pub path: String,
    pub bytes: Vec<u8>,
}

/// The values of one table.
pub enum Values {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    /// Occupancy words of the solver's word type.
    Words(Word, Vec<Mask>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::U8(v) => v.len(),
            Values::U16(v) => v.len(),
            Values::U32(v) => v.len(),
            Values::Words(_, v) => v.len(),
        }
    }

    fn rust_type(&self) -> TokenStream {
        match self {
            Values::U8(_) => quote! { u8 },
            Values::U16(_) => quote! { u16 },
            Values::U32(_) => quote! { u32 },
            Values::Words(..) => quote! { Word },
        }
    }

    /// The type's name in the doc comment.
    fn type_name(&self) -> String {
        match self {
            Values::U8(_) => "u8".into(),
            Values::U16(_) => "u16".into(),
            Values::U32(_) => "u32".into(),
            Values::Words(word, _) => format!("{}-bit word", word.bits()),
        }
    }

    fn literals(&self) -> TokenStream {
        match self {
            Values::U8(v) => numbers(v.iter().map(|&x| x as usize)),
            Values::U16(v) => numbers(v.iter().map(|&x| x as usize)),
            Values::U32(v) => numbers(v.iter().map(|&x| x as usize)),
            Values::Words(word, v) => {
                let v = v.iter().map(|&m| word_literal(*word, m));
                quote! { #(#v),* }
            }
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self {
            Values::U8(v) => v.clone(),
            Values::U16(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::U32(v) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            Values::Words(word, v) => {
                let limbs = word.bits() / 64;
                v.iter()
                    .flat_map(|m| m.0[..limbs].iter().flat_map(|l| l.to_le_bytes()))
                    .collect()
            }
        }
    }
}

/// The tables of one generated file that go to bytes.
pub struct Data {
    /// The directory of the files, relative to the generated file: the puzzle's name.
    dir: String,
    pub files: Vec<DataFile>,
}

impl Data {
    pub fn new(dir: &str) -> Data {
        Data {
            dir: dir.to_string(),
            files: Vec::new(),
        }
    }

    /// The item `static NAME: &[T]` holding `values`, documented by `doc`. `module`
    /// names the solver's module (`""` at the top, `"tail"` in a narrower solver), so
    /// that file names stay unique.
    pub fn table(&mut self, module: &str, name: &str, doc: &str, values: Values) -> TokenStream {
        let ident = format_ident!("{}", name);
        let ty = values.rust_type();
        let n = values.len();
        if n <= LITERAL_ENTRIES {
            let doc = format!(" {doc}");
            let literals = values.literals();
            return quote! {
                #[doc = #doc]
                static #ident: &[#ty] = &[#literals];
            };
        }
        let file = if module.is_empty() {
            format!("{}.bin", name.to_lowercase())
        } else {
            format!("{}_{}.bin", module.replace("::", "_"), name.to_lowercase())
        };
        let path = format!("{}/{file}", self.dir);
        let bytes = values.bytes();
        let size = Literal::usize_unsuffixed(bytes.len());
        let doc = format!(
            " {doc} Stored in `{path}`: {n} little-endian {}s.",
            values.type_name()
        );
        self.files.push(DataFile {
            path: path.clone(),
            bytes,
        });
        quote! {
            #[doc = #doc]
            static #ident: &[#ty] = {
                static BYTES: ::runtime::fila::data::Bytes<#size> =
                    ::runtime::fila::data::Bytes(*include_bytes!(#path));
                BYTES.slice()
            };
        }
    }
}

impl Data {
    /// An image list as its three tables, `{prefix}_MASKS`, `{prefix}_IMAGES` and
    /// `{prefix}_SHAPES` (`what` says whose images they are), from the entries of a
    /// layout (whose padding, `layout::PAD`, never fits and has no available shape).
    /// Returns the tables and the `List` over them.
    pub fn list(
        &mut self,
        ir: &Ir,
        module: &str,
        prefix: &str,
        what: &str,
        entries: &[u16],
    ) -> (TokenStream, TokenStream) {
        let [masks, numbers, shapes] =
            ["MASKS", "IMAGES", "SHAPES"].map(|t| format_ident!("{prefix}_{t}"));
        let (masks_column, numbers_column, shapes_column) =
            crate::layout::list(ir, &ir.masks, Mask::low_bits(ir.cells), entries);
        let masks_table = self.table(
            module,
            &masks.to_string(),
            &if entries.contains(&crate::layout::PAD) {
                format!(
                    "The occupancy masks of the images of {what}; each set padded to whole \
                     blocks of eight by entries that never fit (every cell, shape 255)."
                )
            } else {
                format!("The occupancy masks of the images of {what}.")
            },
            Values::Words(ir.word, masks_column.collect()),
        );
        let numbers_table = self.table(
            module,
            &numbers.to_string(),
            "Their image numbers.",
            Values::U16(numbers_column),
        );
        let shapes_table = self.table(
            module,
            &shapes.to_string(),
            "Their shapes.",
            Values::U8(shapes_column),
        );
        (
            quote! { #masks_table #numbers_table #shapes_table },
            quote! { ::runtime::fila::List { masks: #masks, images: #numbers, shapes: #shapes } },
        )
    }
}
