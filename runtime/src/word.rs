//! A fixed-width bit set wider than 128 bits: the occupancy word of generated solvers for
//! boxes of more than 128 open cells (and the generator's own masks). It offers the
//! operations the generated code applies to `u64` and `u128` words, limb by limb.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// `N` 64-bit limbs, least significant first: bit `c` is bit `c % 64` of limb `c / 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> std::fmt::Debug for Wide<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "0x")?;
        for limb in self.0.iter().rev() {
            write!(f, "_{limb:016x}")?;
        }
        Ok(())
    }
}

impl<const N: usize> Wide<N> {
    /// No bit set.
    pub const ZERO: Wide<N> = Wide([0; N]);
    /// The number of bits.
    pub const BITS: usize = 64 * N;

    /// Only bit `c` set (none when `c` is out of range).
    #[inline(always)]
    pub fn bit(c: usize) -> Wide<N> {
        let mut w = Self::ZERO;
        if c < Self::BITS {
            w.0[c / 64] = 1 << (c % 64);
        }
        w
    }

    /// Bits `0..n` set.
    pub fn low_bits(n: usize) -> Wide<N> {
        let mut w = Self::ZERO;
        for (k, limb) in w.0.iter_mut().enumerate() {
            let start = 64 * k;
            *limb = if n >= start + 64 {
                u64::MAX
            } else if n > start {
                (1u64 << (n - start)) - 1
            } else {
                0
            };
        }
        w
    }

    /// Bit `c`, as 0 or 1.
    #[inline(always)]
    pub fn bit_at(self, c: u32) -> usize {
        let c = c as usize;
        if c < Self::BITS {
            (self.0[c / 64] >> (c % 64)) as usize & 1
        } else {
            0
        }
    }

    #[inline(always)]
    pub fn count_ones(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }

    /// The index of the lowest set bit, or `BITS` when none is.
    #[inline(always)]
    pub fn trailing_zeros(self) -> u32 {
        for (k, &l) in self.0.iter().enumerate() {
            if l != 0 {
                return 64 * k as u32 + l.trailing_zeros();
            }
        }
        Self::BITS as u32
    }

    /// Only the lowest set bit.
    #[inline(always)]
    pub fn lowest(self) -> Wide<N> {
        let mut w = Self::ZERO;
        for (k, &l) in self.0.iter().enumerate() {
            if l != 0 {
                w.0[k] = l & l.wrapping_neg();
                break;
            }
        }
        w
    }

    /// Without its lowest set bit.
    #[inline(always)]
    pub fn clear_lowest(mut self) -> Wide<N> {
        for l in self.0.iter_mut() {
            if *l != 0 {
                *l &= *l - 1;
                break;
            }
        }
        self
    }

    /// The low 128 bits.
    pub fn low_u128(self) -> u128 {
        let limb = |k: usize| self.0.get(k).copied().unwrap_or(0) as u128;
        limb(0) | limb(1) << 64
    }

    /// The same bits in `M` limbs (dropping or zero-filling the high ones).
    pub fn resize<const M: usize>(self) -> Wide<M> {
        let mut w = Wide::<M>::ZERO;
        for (k, limb) in w.0.iter_mut().enumerate() {
            *limb = self.0.get(k).copied().unwrap_or(0);
        }
        w
    }
}

macro_rules! limbwise {
    ($trait:ident, $method:ident, $assign:ident, $assign_method:ident, $op:tt) => {
        impl<const N: usize> $trait for Wide<N> {
            type Output = Wide<N>;
            #[inline(always)]
            fn $method(mut self, rhs: Wide<N>) -> Wide<N> {
                for k in 0..N {
                    self.0[k].$assign_method(rhs.0[k]);
                }
                self
            }
        }
        impl<const N: usize> $assign for Wide<N> {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Wide<N>) {
                *self = *self $op rhs;
            }
        }
    };
}

limbwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
limbwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
limbwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const N: usize> Not for Wide<N> {
    type Output = Wide<N>;
    #[inline(always)]
    fn not(mut self) -> Wide<N> {
        for l in self.0.iter_mut() {
            *l = !*l;
        }
        self
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Wide<N>;
    /// Towards higher bits; bits shifted past the top are lost.
    #[inline(always)]
    fn shl(self, by: u32) -> Wide<N> {
        let (limbs, bits) = ((by / 64) as usize, by % 64);
        let mut w = Self::ZERO;
        for k in (limbs..N).rev() {
            let from = k - limbs;
            w.0[k] = self.0[from] << bits;
            if bits > 0 && from > 0 {
                w.0[k] |= self.0[from - 1] >> (64 - bits);
            }
        }
        w
    }
}

impl<const N: usize> Shr<u32> for Wide<N> {
    type Output = Wide<N>;
    /// Towards lower bits.
    #[inline(always)]
    fn shr(self, by: u32) -> Wide<N> {
        let (limbs, bits) = ((by / 64) as usize, by % 64);
        let mut w = Self::ZERO;
        for k in 0..N.saturating_sub(limbs) {
            let from = k + limbs;
            w.0[k] = self.0[from] >> bits;
            if bits > 0 && from + 1 < N {
                w.0[k] |= self.0[from + 1] << (64 - bits);
            }
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type W = Wide<3>;

    /// The same operations on u128 and on two-limb words agree.
    #[test]
    fn agrees_with_u128() {
        let samples: [u128; 6] = [
            0,
            1,
            0x8000_0000_0000_0000,
            0xdead_beef_0123_4567_89ab_cdef_f00d_cafe,
            u128::MAX,
            1 << 127,
        ];
        let wide = |v: u128| Wide::<2>([v as u64, (v >> 64) as u64]);
        for &a in &samples {
            for &b in &samples {
                assert_eq!((wide(a) & wide(b)).low_u128(), a & b);
                assert_eq!((wide(a) | wide(b)).low_u128(), a | b);
                assert_eq!((wide(a) ^ wide(b)).low_u128(), a ^ b);
            }
            assert_eq!((!wide(a)).low_u128(), !a);
            for by in [0u32, 1, 5, 63, 64, 65, 100, 127] {
                assert_eq!((wide(a) << by).low_u128(), a << by, "{a:x} << {by}");
                assert_eq!((wide(a) >> by).low_u128(), a >> by, "{a:x} >> {by}");
            }
            assert_eq!(wide(a).count_ones(), a.count_ones());
            assert_eq!(wide(a).trailing_zeros(), a.trailing_zeros());
            assert_eq!(wide(a).lowest().low_u128(), a & a.wrapping_neg());
            assert_eq!(wide(a).clear_lowest().low_u128(), a & a.wrapping_sub(1));
            for c in [0u32, 3, 64, 127] {
                assert_eq!(wide(a).bit_at(c), (a >> c) as usize & 1);
            }
        }
    }

    #[test]
    fn bits_across_limbs() {
        assert_eq!(W::bit(130).bit_at(130), 1);
        assert_eq!(W::bit(130).trailing_zeros(), 130);
        assert_eq!(W::bit(200), W::ZERO);
        assert_eq!(W::low_bits(130).count_ones(), 130);
        assert_eq!(W::low_bits(192), !W::ZERO);
        assert_eq!(W::bit(63) << 1, W::bit(64));
        assert_eq!(W::bit(128) >> 65, W::bit(63));
        assert_eq!(W::bit(10) << 190, W::ZERO);
        assert_eq!(W::ZERO.trailing_zeros(), 192);
        assert_eq!(W::bit(129).resize::<1>(), Wide::<1>::ZERO);
    }
}
