//! Eight 64-bit occupancy words side by side, and `gather` (BMI2's `pext`): what the
//! FILA kernels with 64-bit words test their image lists with. Puzzle-independent, so it
//! lives here rather than in every generated file.
//!
//! Three forms, one type each, spelling the same operations: an AVX-512 vector (the fits
//! of eight images come out as a mask register), two AVX2 vectors (read out with
//! `movemask`), and an array the compiler vectorises as it can. The build does not choose
//! among them: every build has all three (on x86-64), and the kernels are instantiated
//! once per form, each copy compiled with its instruction set enabled
//! (`fila::isa`), the copy run chosen when a solver starts by what the processor has.
//! Left to the compiler, the AVX-512 build gathered the eight results with shuffles (27.4
//! ms on 10x6 against 24.9 with the intrinsics); the array form, built for AVX2, ran the
//! Tetris Cube in 4.90 s where the per-cell functions had taken 3.72 s.
//!
//! SAFETY (every `unsafe` here): the vector forms' intrinsics need AVX-512F or AVX2,
//! `pext` BMI2. The kernels reach them only through an instruction set's entry in
//! `fila::isa`, which runs only where the processor has it (and the tests below only
//! where it has it); everything here is `inline(always)`, so that it is compiled inside
//! that entry, with the instruction set enabled.

/// The shapes a block's test of the shapes available (`available`) looks up in a
/// table where `avail` holds none past them (the vector forms' `available_below_16`).
pub const TABLED_SHAPES: u32 = 16;

/// The bits of the shapes below [`TABLED_SHAPES`]: a kernel that masks `avail` with them
/// where [`tabled`] holds tells the compiler so, and its blocks test nothing more.
pub const TABLED: u64 = (1 << TABLED_SHAPES) - 1;

/// Whether `avail` holds no shape past the tabled ones.
#[inline(always)]
pub fn tabled(avail: u64) -> bool {
    avail >> TABLED_SHAPES == 0
}

/// The AVX-512 form: one 512-bit vector.
#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;
    pub type Repr = __m512i;
    #[inline(always)]
    pub fn splat(w: u64) -> Repr {
        unsafe { _mm512_set1_epi64(w as i64) }
    }
    #[inline(always)]
    pub fn load(w: &[u64; 8]) -> Repr {
        // `w` is eight readable words; the load needs no alignment.
        unsafe { _mm512_loadu_si512(w.as_ptr() as *const _) }
    }
    #[inline(always)]
    pub fn and(a: Repr, b: Repr) -> Repr {
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    pub fn or(a: Repr, b: Repr) -> Repr {
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    pub fn not(a: Repr) -> Repr {
        unsafe { _mm512_xor_si512(a, _mm512_set1_epi64(-1)) }
    }
    #[inline(always)]
    pub fn shl(a: Repr, n: u32) -> Repr {
        unsafe { _mm512_sllv_epi64(a, _mm512_set1_epi64(n as i64)) }
    }
    #[inline(always)]
    pub fn shr(a: Repr, n: u32) -> Repr {
        unsafe { _mm512_srlv_epi64(a, _mm512_set1_epi64(n as i64)) }
    }
    #[inline(always)]
    pub fn zero_lanes(a: Repr) -> u8 {
        unsafe { _mm512_testn_epi64_mask(a, a) }
    }
    #[inline(always)]
    pub fn available(avail: u64, shapes: &[u8; 8]) -> u8 {
        if super::tabled(avail) {
            // Shapes 0 to 15 left: looked up in a table, as in the AVX2 form (`fila
            // solve` on the Tetris Cube 3.19 -> 3.13 s by hand, the generated solver no
            // change; BENCHMARKS.md, session 42).
            return super::avx2::available_below_16(avail, shapes);
        }
        // `shapes` is eight readable bytes; the load needs no alignment.
        unsafe {
            let s = _mm_loadl_epi64(shapes.as_ptr() as *const _);
            let bits = _mm512_srlv_epi64(_mm512_set1_epi64(avail as i64), _mm512_cvtepu8_epi64(s));
            _mm512_test_epi64_mask(bits, _mm512_set1_epi64(1))
        }
    }
}

/// The AVX2 form: two 256-bit vectors.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use core::arch::x86_64::*;
    /// Lanes 0-3 and 4-7.
    pub type Repr = [__m256i; 2];
    #[inline(always)]
    fn each(a: Repr, f: impl Fn(__m256i) -> __m256i) -> Repr {
        [f(a[0]), f(a[1])]
    }
    #[inline(always)]
    pub fn splat(w: u64) -> Repr {
        let v = unsafe { _mm256_set1_epi64x(w as i64) };
        [v, v]
    }
    #[inline(always)]
    pub fn load(w: &[u64; 8]) -> Repr {
        // `w` is eight readable words; the loads need no alignment.
        unsafe {
            [
                _mm256_loadu_si256(w.as_ptr() as *const _),
                _mm256_loadu_si256(w.as_ptr().add(4) as *const _),
            ]
        }
    }
    #[inline(always)]
    pub fn and(a: Repr, b: Repr) -> Repr {
        unsafe { [_mm256_and_si256(a[0], b[0]), _mm256_and_si256(a[1], b[1])] }
    }
    #[inline(always)]
    pub fn or(a: Repr, b: Repr) -> Repr {
        unsafe { [_mm256_or_si256(a[0], b[0]), _mm256_or_si256(a[1], b[1])] }
    }
    #[inline(always)]
    pub fn not(a: Repr) -> Repr {
        each(a, |x| unsafe {
            _mm256_xor_si256(x, _mm256_set1_epi64x(-1))
        })
    }
    #[inline(always)]
    pub fn shl(a: Repr, n: u32) -> Repr {
        each(a, |x| unsafe {
            _mm256_sllv_epi64(x, _mm256_set1_epi64x(n as i64))
        })
    }
    #[inline(always)]
    pub fn shr(a: Repr, n: u32) -> Repr {
        each(a, |x| unsafe {
            _mm256_srlv_epi64(x, _mm256_set1_epi64x(n as i64))
        })
    }
    /// Bit j set where lane j of `a` and `b` are equal.
    #[inline(always)]
    fn equal_lanes(a: Repr, b: Repr) -> u8 {
        unsafe {
            let lo = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a[0], b[0])));
            let hi = _mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(a[1], b[1])));
            (lo | hi << 4) as u8
        }
    }
    #[inline(always)]
    pub fn zero_lanes(a: Repr) -> u8 {
        equal_lanes(a, splat(0))
    }
    /// [`available`] where no shape past 15 is left: byte k of a table is all ones where
    /// shape k is available, and the eight shapes look it up at once (`pshufb`); a shape
    /// of 16 or more, pushed past 127 by the saturating add, finds zero. The table is
    /// made once a loop (the compiler hoists it, `avail` being the loop's); against the
    /// shifts of [`available`] the Tetris Cube took 0.88 of the time (`cargo xtask
    /// bench`; BENCHMARKS.md, session 40). The AVX-512 form uses it too.
    #[inline(always)]
    pub fn available_below_16(avail: u64, shapes: &[u8; 8]) -> u8 {
        // `shapes` is eight readable bytes; the load needs no alignment.
        unsafe {
            let spread = _mm_shuffle_epi8(
                _mm_cvtsi64_si128(avail as i64),
                _mm_set_epi64x(0x0101_0101_0101_0101, 0),
            );
            let bit = _mm_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
            let table = _mm_cmpeq_epi8(_mm_and_si128(spread, bit), bit);
            let s = _mm_loadl_epi64(shapes.as_ptr() as *const __m128i);
            let found = _mm_shuffle_epi8(table, _mm_adds_epu8(s, _mm_set1_epi8(0x70)));
            _mm_movemask_epi8(found) as u8
        }
    }
    #[inline(always)]
    pub fn available(avail: u64, shapes: &[u8; 8]) -> u8 {
        if super::tabled(avail) {
            return available_below_16(avail, shapes);
        }
        // `shapes` is eight readable bytes; the loads need no alignment.
        unsafe {
            let half = |k: usize| {
                let four = (shapes.as_ptr().add(4 * k) as *const i32).read_unaligned();
                let bits = _mm256_srlv_epi64(
                    _mm256_set1_epi64x(avail as i64),
                    _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(four)),
                );
                _mm256_and_si256(bits, _mm256_set1_epi64x(1))
            };
            equal_lanes([half(0), half(1)], [_mm256_set1_epi64x(1); 2])
        }
    }
}

/// The array form, for any processor.
mod array {
    pub type Repr = [u64; 8];
    #[inline(always)]
    pub fn splat(w: u64) -> Repr {
        [w; 8]
    }
    #[inline(always)]
    pub fn load(w: &[u64; 8]) -> Repr {
        *w
    }
    #[inline(always)]
    pub fn and(a: Repr, b: Repr) -> Repr {
        core::array::from_fn(|j| a[j] & b[j])
    }
    #[inline(always)]
    pub fn or(a: Repr, b: Repr) -> Repr {
        core::array::from_fn(|j| a[j] | b[j])
    }
    #[inline(always)]
    pub fn not(a: Repr) -> Repr {
        core::array::from_fn(|j| !a[j])
    }
    #[inline(always)]
    pub fn shl(a: Repr, n: u32) -> Repr {
        core::array::from_fn(|j| a[j] << n)
    }
    #[inline(always)]
    pub fn shr(a: Repr, n: u32) -> Repr {
        core::array::from_fn(|j| a[j] >> n)
    }
    #[inline(always)]
    pub fn zero_lanes(a: Repr) -> u8 {
        a.iter()
            .enumerate()
            .fold(0, |m, (j, &x)| m | ((x == 0) as u8) << j)
    }
    #[inline(always)]
    pub fn available(avail: u64, shapes: &[u8; 8]) -> u8 {
        shapes.iter().enumerate().fold(0, |m, (j, &s)| {
            // A shape of 64 or more (a set's padding) is never available.
            let bit = avail.checked_shr(s as u32).unwrap_or(0) & 1;
            m | (bit as u8) << j
        })
    }
}

/// A type of eight lanes over the operations of `$form`.
macro_rules! lanes {
    ($(#[$doc:meta])* $name:ident, $form:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy)]
        pub struct $name($form::Repr);

        impl $name {
            #[inline(always)]
            pub fn splat(w: u64) -> $name {
                $name($form::splat(w))
            }
            #[inline(always)]
            pub fn load(w: &[u64; 8]) -> $name {
                $name($form::load(w))
            }
            /// The lanes that are zero, as bits.
            #[inline(always)]
            pub fn zero_lanes(self) -> u8 {
                $form::zero_lanes(self.0)
            }
            /// The lanes whose shape is in `avail`, as bits (none whose shape is 64 or
            /// more: a set's padding).
            #[inline(always)]
            pub fn available(avail: u64, shapes: &[u8; 8]) -> u8 {
                $form::available(avail, shapes)
            }
        }

        impl core::ops::BitAnd for $name {
            type Output = $name;
            #[inline(always)]
            fn bitand(self, b: $name) -> $name {
                $name($form::and(self.0, b.0))
            }
        }
        impl core::ops::BitAnd<u64> for $name {
            type Output = $name;
            #[inline(always)]
            fn bitand(self, b: u64) -> $name {
                $name($form::and(self.0, $form::splat(b)))
            }
        }
        impl core::ops::BitOr for $name {
            type Output = $name;
            #[inline(always)]
            fn bitor(self, b: $name) -> $name {
                $name($form::or(self.0, b.0))
            }
        }
        impl core::ops::BitOrAssign for $name {
            #[inline(always)]
            fn bitor_assign(&mut self, b: $name) {
                self.0 = $form::or(self.0, b.0);
            }
        }
        impl core::ops::Not for $name {
            type Output = $name;
            #[inline(always)]
            fn not(self) -> $name {
                $name($form::not(self.0))
            }
        }
        impl core::ops::Shl<u32> for $name {
            type Output = $name;
            #[inline(always)]
            fn shl(self, n: u32) -> $name {
                $name($form::shl(self.0, n))
            }
        }
        impl core::ops::Shr<u32> for $name {
            type Output = $name;
            #[inline(always)]
            fn shr(self, n: u32) -> $name {
                $name($form::shr(self.0, n))
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
lanes!(
    /// Eight 64-bit words in one AVX-512 vector.
    Lanes512,
    avx512
);
#[cfg(target_arch = "x86_64")]
lanes!(
    /// Eight 64-bit words in two AVX2 vectors.
    Lanes256,
    avx2
);
lanes!(
    /// Eight 64-bit words in an array, for any processor.
    Lanes,
    array
);

/// The bits of `w` selected by `sel`, packed towards bit 0, in plain arithmetic: what
/// BMI2's `pext` ([`pext`]) does in one instruction.
#[inline(always)]
pub fn gather(w: u64, sel: u64) -> usize {
    let (mut out, mut k, mut rest) = (0, 0, sel);
    while rest != 0 {
        out |= (((w & rest & rest.wrapping_neg()) != 0) as usize) << k;
        k += 1;
        rest &= rest - 1;
    }
    out
}

/// [`gather`] by BMI2's `pext`: only where the processor has BMI2 (see the module's
/// SAFETY note).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn pext(w: u64, sel: u64) -> usize {
    unsafe { core::arch::x86_64::_pext_u64(w, sel) as usize }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed spread of words: every operation of the form `$lanes`, lane by lane,
    /// against plain `u64`s, and `$gather` against packing bit by bit.
    macro_rules! check_form {
        ($lanes:ident, $gather:ident) => {{
            let mut x = 0x9e37_79b9_7f4a_7c15_u64;
            let mut next = || {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            };
            for _ in 0..200 {
                let a: [u64; 8] = core::array::from_fn(|j| if j == 3 { 0 } else { next() });
                let b: [u64; 8] = core::array::from_fn(|_| next() & next());
                let (la, lb) = ($lanes::load(&a), $lanes::load(&b));
                let n = (next() % 64) as u32;
                let zero = |l: $lanes| l.zero_lanes();
                let expect = |f: &dyn Fn(usize) -> u64| {
                    (0..8).fold(0u8, |m, j| m | ((f(j) == 0) as u8) << j)
                };
                assert_eq!(zero(la), expect(&|j| a[j]));
                assert_eq!(zero(la & lb), expect(&|j| a[j] & b[j]));
                assert_eq!(zero(la & b[5]), expect(&|j| a[j] & b[5]));
                assert_eq!(zero(!(la | lb)), expect(&|j| !(a[j] | b[j])));
                assert_eq!(zero((la << n) & lb), expect(&|j| (a[j] << n) & b[j]));
                assert_eq!(zero((la >> n) & lb), expect(&|j| (a[j] >> n) & b[j]));
                let mut c = $lanes::splat(b[0]);
                c |= la;
                assert_eq!(zero(c & lb), expect(&|j| (b[0] | a[j]) & b[j]));
                // Shapes 0 to 63, and a set's padding (255, never available) in some lanes.
                let shapes: [u8; 8] = core::array::from_fn(|_| match next() % 80 {
                    s @ 0..64 => s as u8,
                    _ => 255,
                });
                // Any of the 64 shapes left, and only the first few (with none past 15,
                // the AVX2 form looks them up in a table), the shapes asked about below
                // and above them.
                let avail = next() | 1 << 63;
                for first in [64, 4, 12, 16, 17] {
                    let left = avail & u64::MAX >> (64 - first);
                    let want = (0..8).fold(0u8, |m, j| {
                        let bit = shapes[j] < 64 && (left >> shapes[j]) & 1 == 1;
                        m | (bit as u8) << j
                    });
                    assert_eq!($lanes::available(left, &shapes), want);
                }
                let (w, sel) = (next(), next() & next());
                let mut packed = 0usize;
                for (k, bit) in (0..64).filter(|&i| sel >> i & 1 == 1).enumerate() {
                    packed |= ((w >> bit & 1) as usize) << k;
                }
                assert_eq!($gather(w, sel), packed);
            }
        }};
    }

    /// Every form this processor can run (the vector forms' instructions are called
    /// here, outside the kernels' entries, only where it has them).
    #[test]
    fn lanes_compute_what_words_do() {
        check_form!(Lanes, gather);
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi2")
            {
                check_form!(Lanes256, pext);
            }
            if std::arch::is_x86_feature_detected!("avx512f") {
                check_form!(Lanes512, gather);
            }
        }
    }
}
