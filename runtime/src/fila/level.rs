//! The levels of the search as types, so that each level's copy of the kernels has its
//! count of pieces left as a constant: `Solver::search::<L5>` places a piece and calls
//! `search::<L4>` directly, its counters and stack indexed by constants.
//!
//! Measured on 10x6 when the copies were still emitted per puzzle (medians of 50
//! alternating runs): 22.5 ms with the count as an argument, 21.6 ms with a copy per
//! level. Types rather than `const L: usize` because stable Rust cannot name `L - 1` in
//! a generic; each chain instantiates only the levels from a puzzle's top down.

/// A level of the search: `LEFT` pieces are left to place.
pub trait Level: 'static {
    const LEFT: usize;
    /// The level below (level 0 is its own).
    type Below: Level;
}

/// No piece left: a solution.
pub struct L0;

impl Level for L0 {
    const LEFT: usize = 0;
    type Below = L0;
}

macro_rules! levels {
    ($($name:ident = $left:literal below $below:ident;)*) => {
        $(
            #[doc = concat!(stringify!($left), " pieces left.")]
            pub struct $name;
            impl Level for $name {
                const LEFT: usize = $left;
                type Below = $below;
            }
        )*
    };
}

levels! {
    L1 = 1 below L0; L2 = 2 below L1; L3 = 3 below L2; L4 = 4 below L3;
    L5 = 5 below L4; L6 = 6 below L5; L7 = 7 below L6; L8 = 8 below L7;
    L9 = 9 below L8; L10 = 10 below L9; L11 = 11 below L10; L12 = 12 below L11;
    L13 = 13 below L12; L14 = 14 below L13; L15 = 15 below L14; L16 = 16 below L15;
    L17 = 17 below L16; L18 = 18 below L17; L19 = 19 below L18; L20 = 20 below L19;
    L21 = 21 below L20; L22 = 22 below L21; L23 = 23 below L22; L24 = 24 below L23;
    L25 = 25 below L24; L26 = 26 below L25; L27 = 27 below L26; L28 = 28 below L27;
    L29 = 29 below L28; L30 = 30 below L29; L31 = 31 below L30; L32 = 32 below L31;
    L33 = 33 below L32; L34 = 34 below L33; L35 = 35 below L34; L36 = 36 below L35;
    L37 = 37 below L36; L38 = 38 below L37; L39 = 39 below L38; L40 = 40 below L39;
    L41 = 41 below L40; L42 = 42 below L41; L43 = 43 below L42; L44 = 44 below L43;
    L45 = 45 below L44; L46 = 46 below L45; L47 = 47 below L46; L48 = 48 below L47;
    L49 = 49 below L48; L50 = 50 below L49; L51 = 51 below L50; L52 = 52 below L51;
    L53 = 53 below L52; L54 = 54 below L53; L55 = 55 below L54; L56 = 56 below L55;
    L57 = 57 below L56; L58 = 58 below L57; L59 = 59 below L58; L60 = 60 below L59;
    L61 = 61 below L60; L62 = 62 below L61; L63 = 63 below L62;
}

/// The most pieces a FILA solver places (the top level there is a type for).
pub const MAX_PIECES: usize = 63;

#[cfg(test)]
mod tests {
    use super::*;

    fn chain<L: Level>() -> Vec<usize> {
        if L::LEFT == 0 {
            vec![0]
        } else {
            let mut below = chain::<L::Below>();
            below.push(L::LEFT);
            below
        }
    }

    #[test]
    fn each_level_is_one_above_the_next() {
        assert_eq!(chain::<L63>(), (0..=MAX_PIECES).collect::<Vec<_>>());
    }
}
