//! The instruction sets the FILA kernels are compiled for, and the choice among them when
//! a solver starts: one executable for every x86-64 processor.
//!
//! The kernels are generic over an [`Isa`]: its form of eight lanes ([`crate::lanes`]),
//! its `pext`, and its entry ([`Isa::call`]) that runs kernel code compiled with its
//! instructions enabled. Every function of the search that is not inlined is entered
//! through it (each level's search, the E stage, the block walk, the backtracks), so
//! each is compiled once per instruction set, and everything it inlines with it. A
//! solver runs the copy of [`Kernels::chosen`]: the fastest the processor has
//! ([`Kernels::best`]), or the one `FILA_KERNELS` names.
//!
//! - `avx512` (x86-64-v4): eight images tested in one AVX-512 vector, `pext`, `popcnt`.
//! - `avx2` (x86-64-v3): two AVX2 vectors, `pext`, `popcnt`.
//! - `portable`: the array form and `pext` in plain arithmetic, compiled for whatever the
//!   build targets (x86-64's baseline by default).

use std::sync::OnceLock;

use super::bits::Block;
use crate::lanes;

/// An instruction set the kernels are compiled for.
///
/// Code generic over `I: Isa` runs only inside `I::call`, reached only through
/// [`dispatch!`] on a [`Kernels`] the processor has: the `unsafe` instructions of
/// `I::Lanes` and `I::gather` rely on it.
pub trait Isa: Copy + Send + Sync + 'static {
    /// The name of its [`Kernels`].
    const NAME: &'static str;
    /// Eight 64-bit words in this instruction set's form.
    type Lanes: Block<u64>;
    /// The bits of `w` selected by `sel`, packed towards bit 0 (`pext`).
    fn gather(w: u64, sel: u64) -> usize;
    /// Runs `f` compiled with this instruction set enabled, in an entry of its own: `f`
    /// itself is marked `#[inline(always)]` ([`within!`]), so that it is compiled inside
    /// this entry. (Entries the compiler may inline: its MIR inliner inlined each level's
    /// entry, a one-line function, into the level above, and with it the whole level,
    /// level after level; the puzzle crate's build ran out of 24 GiB.)
    ///
    /// The entry is marked `#[inline(never)]`, which keeps rustc's MIR inliner out, but
    /// rustc (1.95) does not pass it on to LLVM for a function with target features (no
    /// `noinline` in the IR, checked on a small crate), so LLVM may still inline an entry
    /// into a caller compiled for the same instruction set. It does so in a generated
    /// solver, whose levels each take in their E step and fit walk (not the level below,
    /// which the search itself compiles into its caller only for the last levels,
    /// `INLINED_LEVELS` in `search.rs`); in the run-time engine it does not. Keeping
    /// every entry apart (through a trampoline without target features, marked
    /// `#[inline(never)]`) cost the generated Tetris Cube 2.67 -> 2.78 s and the 10x6
    /// 0.49 -> 0.51 s for 20 runs, and `fila solve` nothing (by hand, 7 runs each;
    /// BENCHMARKS.md, session 44).
    ///
    /// # Safety
    /// The processor has the instruction set: the caller was reached through
    /// [`dispatch!`].
    unsafe fn call<R>(f: impl FnOnce() -> R) -> R;
}

/// An instruction set's marker type and its entry, compiled with `$features` enabled.
macro_rules! tier {
    ($(#[$doc:meta])* $name:ident, $label:literal, $features:literal, $lanes:ty, $gather:path, $call:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name;

        #[target_feature(enable = $features)]
        #[inline(never)]
        unsafe fn $call<R, F: FnOnce() -> R>(f: F) -> R {
            f()
        }

        impl Isa for $name {
            const NAME: &'static str = $label;
            type Lanes = $lanes;
            #[inline(always)]
            fn gather(w: u64, sel: u64) -> usize {
                $gather(w, sel)
            }
            #[inline(always)]
            unsafe fn call<R>(f: impl FnOnce() -> R) -> R {
                // SAFETY: as the trait's contract says.
                unsafe { $call(f) }
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
tier!(
    /// AVX-512 (x86-64-v4): AVX-512F, CD, BW, DQ and VL, with x86-64-v3.
    Avx512,
    "avx512",
    "avx512f,avx512cd,avx512bw,avx512dq,avx512vl,avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt,f16c",
    lanes::Lanes512,
    lanes::pext,
    avx512_call
);

#[cfg(target_arch = "x86_64")]
tier!(
    /// AVX2 (x86-64-v3): AVX2, BMI1, BMI2, FMA, LZCNT, MOVBE, POPCNT, F16C.
    Avx2,
    "avx2",
    "avx2,bmi1,bmi2,fma,lzcnt,movbe,popcnt,f16c",
    lanes::Lanes256,
    lanes::pext,
    avx2_call
);

/// Whatever the build targets: no instructions beyond it.
#[derive(Clone, Copy, Debug)]
pub struct Portable;

/// [`Portable`]'s entry: a plain function.
#[inline(never)]
fn portable_call<R, F: FnOnce() -> R>(f: F) -> R {
    f()
}

impl Isa for Portable {
    const NAME: &'static str = "portable";
    type Lanes = lanes::Lanes;
    #[inline(always)]
    fn gather(w: u64, sel: u64) -> usize {
        lanes::gather(w, sel)
    }
    #[inline(always)]
    unsafe fn call<R>(f: impl FnOnce() -> R) -> R {
        portable_call(f)
    }
}

/// The copy of the kernels a solver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernels {
    Avx512,
    Avx2,
    Portable,
}

impl Kernels {
    /// Every copy, fastest first.
    pub const ALL: [Kernels; 3] = [Kernels::Avx512, Kernels::Avx2, Kernels::Portable];

    /// The name `-i` prints (`KERNELS=`) and `FILA_KERNELS` takes.
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Avx512 => "avx512",
            Kernels::Avx2 => "avx2",
            Kernels::Portable => "portable",
        }
    }

    /// Whether this processor runs them.
    pub fn supported(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            let v3 = || {
                has!("avx2")
                    && has!("bmi1")
                    && has!("bmi2")
                    && has!("fma")
                    && has!("lzcnt")
                    && has!("movbe")
                    && has!("popcnt")
                    && has!("f16c")
            };
            match self {
                Kernels::Avx512 => {
                    v3() && has!("avx512f")
                        && has!("avx512cd")
                        && has!("avx512bw")
                        && has!("avx512dq")
                        && has!("avx512vl")
                }
                Kernels::Avx2 => v3(),
                Kernels::Portable => true,
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Kernels::Portable
        }
    }

    /// The fastest this processor runs.
    pub fn best() -> Kernels {
        Kernels::ALL
            .into_iter()
            .find(|k| k.supported())
            .unwrap_or(Kernels::Portable)
    }

    /// The copy solvers run: the one `FILA_KERNELS` names, else [`Kernels::best`].
    /// An unknown name, or one this processor cannot run, is an error (which the driver
    /// reports before solving; a solver made anyway runs the best).
    pub fn chosen() -> Result<Kernels, String> {
        static CHOSEN: OnceLock<Result<Kernels, String>> = OnceLock::new();
        CHOSEN
            .get_or_init(|| Kernels::from_env(std::env::var("FILA_KERNELS").ok().as_deref()))
            .clone()
    }

    /// [`Kernels::chosen`] for the value `FILA_KERNELS` has (`None`: unset).
    pub fn from_env(value: Option<&str>) -> Result<Kernels, String> {
        let Some(name) = value.filter(|v| !v.is_empty()) else {
            return Ok(Kernels::best());
        };
        let names = || {
            Kernels::ALL
                .iter()
                .map(|k| k.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let kernels = Kernels::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                format!(
                    "FILA_KERNELS={name}: no such kernels (there are {})",
                    names()
                )
            })?;
        if kernels.supported() {
            Ok(kernels)
        } else {
            Err(format!(
                "FILA_KERNELS={name}: this processor cannot run them (the best it runs: {})",
                Kernels::best().name()
            ))
        }
    }
}

/// Asks for the cache line holding `at` to be brought into the cache, without waiting
/// for it: for a read that comes later, from a table larger than the caches. Nothing
/// where the processor has no such hint.
#[inline(always)]
pub fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only hints at an address; it reads nothing and cannot fault
    // (and `at` is a live reference anyway).
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((at as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// Calls `$recv.$method::<I>($args)` with `I` the [`Isa`] of the [`Kernels`] `$k` for
/// kernels over the word `$w` (its [`Word::OnAvx512`](super::bits::Word) where the
/// kernels are AVX-512): the one way into the kernels' copies. `$k` must be one the
/// processor runs ([`Kernels::supported`]). For the modules beside this one (its paths
/// start at `super`).
macro_rules! dispatch {
    ($k:expr, $w:ty, $recv:ident . $method:ident ( $($arg:expr),* )) => {{
        let k: super::isa::Kernels = $k;
        debug_assert!(k.supported(), "kernels {} on a processor without them", k.name());
        match k {
            #[cfg(target_arch = "x86_64")]
            super::isa::Kernels::Avx512 => {
                $recv.$method::<<$w as super::bits::Word>::OnAvx512>($($arg),*)
            }
            #[cfg(target_arch = "x86_64")]
            super::isa::Kernels::Avx2 => $recv.$method::<super::isa::Avx2>($($arg),*),
            _ => $recv.$method::<super::isa::Portable>($($arg),*),
        }
    }};
}
pub(crate) use dispatch;

/// Evaluates `$body` inside the entry of the instruction set `$i` ([`Isa::call`]), as a
/// closure marked `#[inline(always)]` so that it is compiled there, with the instruction
/// set enabled (left to the compiler, the closures stayed outside, calling every
/// intrinsic as a function: Tetris Cube 3.34 times slower). For code generic over
/// `$i: Isa`, reached through [`dispatch!`].
macro_rules! within {
    ($i:ty, $body:expr) => {
        // SAFETY: the kernels of `$i` were entered through `dispatch!`, on a processor
        // that has its instruction set.
        unsafe {
            <$i as super::isa::Isa>::call(
                #[inline(always)]
                || $body,
            )
        }
    };
}
pub(crate) use within;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_chooses_among_the_kernels_this_processor_runs() {
        assert_eq!(Kernels::from_env(None), Ok(Kernels::best()));
        assert_eq!(Kernels::from_env(Some("")), Ok(Kernels::best()));
        assert_eq!(Kernels::from_env(Some("portable")), Ok(Kernels::Portable));
        let unknown = Kernels::from_env(Some("sse9")).unwrap_err();
        assert!(unknown.contains("no such kernels") && unknown.contains("avx512, avx2, portable"));
        for k in Kernels::ALL {
            match Kernels::from_env(Some(k.name())) {
                Ok(chosen) => assert!(chosen == k && k.supported()),
                Err(e) => assert!(!k.supported() && e.contains("cannot run them"), "{e}"),
            }
        }
        assert!(Kernels::best().supported());
    }
}
