//! How the emitter spells values: masks as grouped hexadecimal literals of the solver's
//! word, lists of numbers, the word type.

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::lower::{Mask, Word};

/// A 64- or 128-bit value as a hexadecimal literal with its digits grouped by four, so
/// that a reader can find a cell's bit.
pub fn hex_literal(bits: usize, value: u128) -> Literal {
    let digits = bits / 4;
    let hex = format!("{value:0digits$x}");
    let grouped: Vec<&str> = (0..digits).step_by(4).map(|i| &hex[i..i + 4]).collect();
    format!("0x{}_u{bits}", grouped.join("_"))
        .parse()
        .expect("a valid literal")
}

/// A mask as a constant of the solver's word type: a hexadecimal literal, or for wide
/// words the limbs, least significant first.
pub fn word_literal(word: Word, value: Mask) -> TokenStream {
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

/// Masks as a comma-separated list of word constants.
pub fn word_list(word: Word, values: impl IntoIterator<Item = Mask>) -> TokenStream {
    let values = values.into_iter().map(|m| word_literal(word, m));
    quote! { #(#values),* }
}

/// The Rust type of a word.
pub fn word_type(word: Word) -> TokenStream {
    match word {
        Word::U64 => quote! { u64 },
        Word::U128 => quote! { u128 },
        Word::Wide(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote! { ::runtime::word::Wide<#n> }
        }
    }
}

/// Numbers as a comma-separated list of unsuffixed literals.
pub fn numbers(values: impl IntoIterator<Item = usize>) -> TokenStream {
    let values = values.into_iter().map(Literal::usize_unsuffixed);
    quote! { #(#values),* }
}

/// The level type of the runtime for `pieces` pieces left.
pub fn level(pieces: usize) -> TokenStream {
    let name = quote::format_ident!("L{}", pieces);
    quote! { ::runtime::fila::#name }
}
