//! The occupancy words the FILA kernels are generic over (`u64`, `u128`, `Wide<N>`), and
//! the blocks of images they test at once: eight 64-bit masks in one vector (the
//! instruction set's form of lanes), or one mask of a wider word.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

use super::isa::Isa;
use crate::lanes;
use crate::word::Wide;

/// What the bit-parallel neighbour tests need of a value: a word, or a block of words.
pub trait Bits:
    Copy
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitOrAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
}

impl<B> Bits for B where
    B: Copy
        + BitAnd<Output = B>
        + BitOr<Output = B>
        + BitOrAssign
        + Not<Output = B>
        + Shl<u32, Output = B>
        + Shr<u32, Output = B>
{
}

/// An occupancy word: bit `c` is set when cell `c` is filled. Every word is also a block
/// of one image.
pub trait Word:
    Bits
    + Block<Self>
    + BitXor<Output = Self>
    + BitXorAssign
    + BitAndAssign
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
{
    /// No cell filled.
    const ZERO: Self;
    /// The images tested side by side in one step of a list walk, in the form of the
    /// instruction set `I`.
    type Block<I: Isa>: Block<Self>;
    /// The instruction set this word's kernels run in where the processor has AVX-512:
    /// AVX-512 itself for `u64`, whose blocks are eight-lane vectors; AVX2 for the wider
    /// words, whose blocks are one word, so that AVX-512 would add only another copy of
    /// the kernels to compile.
    #[cfg(target_arch = "x86_64")]
    type OnAvx512: Isa;

    /// Only cell `c` filled.
    fn bit(c: usize) -> Self;
    /// Cells `0..n` filled.
    fn low_bits(n: usize) -> Self;
    /// Whether cell `c` is filled, as 0 or 1.
    fn bit_at(self, c: u32) -> usize;
    /// `self` without its lowest filled cell.
    fn clear_lowest(self) -> Self;
    /// Only the lowest filled cell of `self`.
    fn lowest(self) -> Self;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    /// The bits of `self` that `mask` selects, packed towards bit 0 (`pext`, limb by
    /// limb): the index of a neighbour state.
    fn gather<I: Isa>(self, mask: Self) -> usize;
    /// Cells 0 to 127.
    fn low_u128(self) -> u128;
    /// The word whose lowest cells are `low` (cut to the word's width).
    fn from_low_u128(low: u128) -> Self;
    /// The word whose 64-bit limbs, least significant first, are `limbs` (cut to the
    /// word's width).
    fn from_limbs(limbs: &[u64]) -> Self;
}

/// Images tested side by side: `WIDTH` occupancy words of type `W`.
pub trait Block<W>: Bits {
    /// How many images one block holds (at most 8).
    const WIDTH: usize;
    /// Every lane `w`.
    fn splat(w: W) -> Self;
    /// The `WIDTH` words of `words` (which has as many).
    fn load(words: &[W]) -> Self;
    /// The lanes that are zero, as bits.
    fn zero_lanes(self) -> u8;
    /// The lanes whose shape (one in `shapes` for each) is in `avail`, as bits. A block
    /// of more than one lane finds no shape of 64 or more (the padding of a set, shape
    /// 255); a block of one is never padded.
    fn available(avail: u64, shapes: &[u8]) -> u8;
}

macro_rules! primitive_word {
    ($t:ty, $block:ty, $on_avx512:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            type Block<I: Isa> = $block;
            #[cfg(target_arch = "x86_64")]
            type OnAvx512 = $on_avx512;
            #[inline(always)]
            fn bit(c: usize) -> $t {
                1 << c
            }
            #[inline(always)]
            fn low_bits(n: usize) -> $t {
                if n >= <$t>::BITS as usize {
                    <$t>::MAX
                } else {
                    (1 << n) - 1
                }
            }
            #[inline(always)]
            fn bit_at(self, c: u32) -> usize {
                (self >> c) as usize & 1
            }
            #[inline(always)]
            fn clear_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline(always)]
            fn lowest(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn low_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_low_u128(low: u128) -> $t {
                low as $t
            }
            #[inline(always)]
            fn from_limbs(limbs: &[u64]) -> $t {
                let mut w: $t = 0;
                for (k, &limb) in limbs.iter().take(<$t>::BITS as usize / 64).enumerate() {
                    w |= (limb as $t) << (64 * k);
                }
                w
            }
            #[inline(always)]
            fn gather<I: Isa>(self, mask: $t) -> usize {
                // One `pext` per 64 bits, the higher part above the lower.
                let (mut index, mut at) = (0, 0);
                for limb in 0..<$t>::BITS / 64 {
                    let m = (mask >> (64 * limb)) as u64;
                    index |= I::gather((self >> (64 * limb)) as u64, m) << at;
                    at += m.count_ones();
                }
                index
            }
        }

        impl Block<$t> for $t {
            const WIDTH: usize = 1;
            #[inline(always)]
            fn splat(w: $t) -> $t {
                w
            }
            #[inline(always)]
            fn load(words: &[$t]) -> $t {
                words[0]
            }
            #[inline(always)]
            fn zero_lanes(self) -> u8 {
                (self == 0) as u8
            }
            #[inline(always)]
            fn available(avail: u64, shapes: &[u8]) -> u8 {
                ((avail >> shapes[0]) & 1) as u8
            }
        }
    };
}

// (`OnAvx512` is left out, unresolved, where the target is not x86-64.)
primitive_word!(u64, I::Lanes, super::isa::Avx512);
primitive_word!(u128, u128, super::isa::Avx2);

/// The eight lanes of each form as a block.
macro_rules! lanes_block {
    ($lanes:ty) => {
        impl Block<u64> for $lanes {
            const WIDTH: usize = 8;
            #[inline(always)]
            fn splat(w: u64) -> $lanes {
                <$lanes>::splat(w)
            }
            #[inline(always)]
            fn load(words: &[u64]) -> $lanes {
                <$lanes>::load(words.try_into().expect("eight words"))
            }
            #[inline(always)]
            fn zero_lanes(self) -> u8 {
                <$lanes>::zero_lanes(self)
            }
            #[inline(always)]
            fn available(avail: u64, shapes: &[u8]) -> u8 {
                <$lanes>::available(avail, shapes.try_into().expect("eight shapes"))
            }
        }
    };
}

lanes_block!(lanes::Lanes);
#[cfg(target_arch = "x86_64")]
lanes_block!(lanes::Lanes512);
#[cfg(target_arch = "x86_64")]
lanes_block!(lanes::Lanes256);

impl<const N: usize> Word for Wide<N> {
    const ZERO: Wide<N> = Wide::ZERO;
    type Block<I: Isa> = Wide<N>;
    #[cfg(target_arch = "x86_64")]
    type OnAvx512 = super::isa::Avx2;
    #[inline(always)]
    fn bit(c: usize) -> Self {
        Wide::bit(c)
    }
    #[inline(always)]
    fn low_bits(n: usize) -> Self {
        Wide::low_bits(n)
    }
    #[inline(always)]
    fn bit_at(self, c: u32) -> usize {
        Wide::bit_at(self, c)
    }
    #[inline(always)]
    fn clear_lowest(self) -> Self {
        Wide::clear_lowest(self)
    }
    #[inline(always)]
    fn lowest(self) -> Self {
        Wide::lowest(self)
    }
    #[inline(always)]
    fn count_ones(self) -> u32 {
        Wide::count_ones(self)
    }
    #[inline(always)]
    fn trailing_zeros(self) -> u32 {
        Wide::trailing_zeros(self)
    }
    #[inline(always)]
    fn gather<I: Isa>(self, mask: Self) -> usize {
        let (mut index, mut at) = (0, 0);
        for (&w, &m) in self.0.iter().zip(&mask.0) {
            index |= I::gather(w, m) << at;
            at += m.count_ones();
        }
        index
    }
    #[inline(always)]
    fn low_u128(self) -> u128 {
        Wide::low_u128(self)
    }
    #[inline(always)]
    fn from_low_u128(low: u128) -> Self {
        let mut w = Self::ZERO;
        for (k, limb) in w.0.iter_mut().take(2).enumerate() {
            *limb = (low >> (64 * k)) as u64;
        }
        w
    }
    #[inline(always)]
    fn from_limbs(limbs: &[u64]) -> Self {
        let mut w = Self::ZERO;
        for (to, &from) in w.0.iter_mut().zip(limbs) {
            *to = from;
        }
        w
    }
}

impl<const N: usize> Block<Wide<N>> for Wide<N> {
    const WIDTH: usize = 1;
    #[inline(always)]
    fn splat(w: Wide<N>) -> Wide<N> {
        w
    }
    #[inline(always)]
    fn load(words: &[Wide<N>]) -> Wide<N> {
        words[0]
    }
    #[inline(always)]
    fn zero_lanes(self) -> u8 {
        (self == Wide::ZERO) as u8
    }
    #[inline(always)]
    fn available(avail: u64, shapes: &[u8]) -> u8 {
        ((avail >> shapes[0]) & 1) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::super::isa::Portable;
    use super::*;

    fn word_laws<W: Word>(cells: usize) {
        let w = W::bit(3) | W::bit(cells - 1);
        assert_eq!(w.count_ones(), 2);
        assert_eq!(w.trailing_zeros(), 3);
        assert_eq!(w.lowest(), W::bit(3));
        assert_eq!(w.clear_lowest(), W::bit(cells - 1));
        assert_eq!(w.bit_at(3), 1);
        assert_eq!(w.bit_at(4), 0);
        assert_eq!(W::low_bits(cells).count_ones() as usize, cells);
        let cells_read = [1u16, 3, cells as u16 - 1];
        let mask = cells_read
            .iter()
            .fold(W::ZERO, |m, &c| m | W::bit(c as usize));
        assert_eq!(w.gather::<Portable>(mask), 0b110);
        // Across limbs: the lower limb's bits first.
        let spread = W::bit(70 % cells) | W::bit(5);
        let mask = W::bit(70 % cells) | W::bit(5) | W::bit(6);
        assert_eq!(
            spread.gather::<Portable>(mask),
            if 70 % cells > 6 { 0b101 } else { 0b011 }
        );
        assert_eq!(W::from_low_u128(0x1_0000_0001).low_u128(), 0x1_0000_0001);
        // Limb k of the word is the k-th number; those past its width are dropped.
        let w = W::from_limbs(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        for k in 0..cells / 64 {
            assert_eq!((w >> (64 * k as u32)).low_u128() as u64, k as u64 + 1);
        }
        assert_eq!(
            w.count_ones(),
            (1..=cells / 64).map(|v| v.count_ones()).sum()
        );
        let b = <W::Block<Portable> as Block<W>>::splat(w);
        assert_eq!(b.zero_lanes() & 1, 0);
        assert_eq!(
            (b & <W::Block<Portable> as Block<W>>::splat(W::ZERO)).zero_lanes() & 1,
            1
        );
    }

    #[test]
    fn every_word_keeps_the_laws() {
        word_laws::<u64>(64);
        word_laws::<u128>(128);
        word_laws::<Wide<3>>(192);
    }
}
