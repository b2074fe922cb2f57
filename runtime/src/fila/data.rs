//! Tables stored as bytes beside a generated file (`include_bytes!`), read as slices of
//! numbers or words in place: the search sees them as it sees literal arrays, statics
//! with known addresses and lengths, while the generated Rust stays readable and small.
//!
//! The layout of every table is its numbers one after another, little-endian, each
//! `size_of` bytes (a `Wide<N>` word is its `N` 64-bit limbs, least significant first).

#[cfg(not(target_endian = "little"))]
compile_error!("generated tables are stored little-endian");

use crate::word::Wide;

/// Bytes aligned for any of the [`Plain`] types, and to a cache line: a list's blocks of
/// eight 64-bit masks (every set starts a block) are then one line each rather than two.
#[repr(C, align(64))]
pub struct Bytes<const N: usize>(pub [u8; N]);

/// # Safety
/// Implemented only for types with no padding, valid for every bit pattern, aligned to
/// at most 16 bytes.
pub unsafe trait Plain: Copy + 'static {}

// SAFETY: primitive integers have no padding and no invalid values.
unsafe impl Plain for u8 {}
unsafe impl Plain for u16 {}
unsafe impl Plain for u32 {}
unsafe impl Plain for u64 {}
unsafe impl Plain for u128 {}
// SAFETY: `Wide<N>` is `#[repr(transparent)]` over `[u64; N]`.
unsafe impl<const N: usize> Plain for Wide<N> {}

impl<const N: usize> Bytes<N> {
    /// The bytes as a slice of `T`; fails to compile (in a static) when `N` is not a
    /// whole number of them.
    pub const fn slice<T: Plain>(&'static self) -> &'static [T] {
        let size = core::mem::size_of::<T>();
        assert!(
            N.is_multiple_of(size),
            "a table's length is a whole number of entries"
        );
        assert!(core::mem::align_of::<T>() <= 16);
        // SAFETY: the bytes are aligned to 16 (the `repr`), `T` is at most so aligned and
        // valid for any bytes (`Plain`), and `N / size` entries lie within the `N` bytes,
        // borrowed for `'static`.
        unsafe { core::slice::from_raw_parts(self.0.as_ptr().cast::<T>(), N / size) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    static WORDS: Bytes<16> = Bytes([1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0]);
    static AS_U64: &[u64] = WORDS.slice();
    static AS_U16: &[u16] = WORDS.slice();
    static AS_WIDE: &[Wide<2>] = WORDS.slice();

    #[test]
    fn bytes_read_as_little_endian_numbers() {
        assert_eq!(AS_U64, &[1, 0x102]);
        assert_eq!(AS_U16, &[1, 0, 0, 0, 0x102, 0, 0, 0]);
        assert_eq!(AS_WIDE, &[Wide([1, 0x102])]);
        let as_u128: &[u128] = WORDS.slice();
        assert_eq!(as_u128, &[(0x102u128 << 64) | 1]);
    }

    #[test]
    fn tables_start_a_cache_line() {
        // The type's alignment, then two statics' starts (which alone could be 64-aligned
        // by chance).
        assert_eq!(
            (
                std::mem::align_of::<Bytes<1>>(),
                std::mem::align_of::<Bytes<24>>()
            ),
            (64, 64)
        );
        static LONGER: Bytes<24> = Bytes([0; 24]);
        for start in [WORDS.0.as_ptr(), LONGER.0.as_ptr()] {
            assert_eq!(start as usize % 64, 0);
        }
    }
}
