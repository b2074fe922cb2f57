//! SplitMix64: the project's one small deterministic random generator. The Monte-Carlo
//! estimates of subtree sizes draw from it with fixed seeds, so that estimates repeat
//! exactly (`split.rs`); the tests draw random puzzles and mutations from it.

/// Vigna's SplitMix64: a 64-bit state advanced by the golden-ratio increment, each
/// output a mix of the state.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A draw from `0..n` (`n` must not be 0), by the remainder: biased by less than
    /// `n / 2^64`, which is nothing for the small `n` drawn here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs from seed 0 in Vigna's reference implementation, so that the
    /// estimates, which depend on every draw, stay what they were.
    #[test]
    fn reference_outputs() {
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn draws_stay_below_their_bound() {
        let mut rng = SplitMix64::new(7);
        for n in 1..50 {
            assert!((0..20).all(|_| rng.below(n) < n));
        }
    }
}
