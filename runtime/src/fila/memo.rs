//! Dead states: nodes whose subtree holds no solution, remembered by their filled cells
//! and the pieces left, so that the search gives up at once a node it reaches again in the
//! same state by another order of the same pieces.
//!
//! Whether a node has a completion depends only on its filled cells, the pieces left and
//! the tables: the order of the search, the pruning (which only removes nodes without a
//! completion) and the symmetry check of the subtree do not change it. So the search
//! records a node whose subtree it searched whole without a solution, where no symmetry
//! check could have cut it short (see `State::search_in`), and gives up any node found
//! here. The key is exact (the whole occupancy word and the multiset of pieces left); a
//! slot holds the last state stored there, so a state forgotten only costs its search
//! again.
//!
//! The table starts small (in cache for small puzzles) and grows fourfold, keeping its
//! states, each time it has taken as many states as it holds, up to the size `--memo`
//! allows each thread's solver.

use super::bits::Word;

/// The first table: 4096 slots.
const FIRST_BITS: u32 = 12;

/// A table of dead states, for occupancy words of at most 128 bits.
pub struct Memo<W: Word> {
    /// `STRIDE` words a slot: the pieces left (their code, never zero in a stored state:
    /// zero marks an empty slot), then the occupancy's 64-bit limbs.
    slots: Vec<u64>,
    bits: u32,
    /// The table grows no further than this many slots (a power of two).
    most_bits: u32,
    /// States stored since the table last grew.
    stored: usize,
    /// The memory it was allowed, as asked.
    limit: u64,
    word: std::marker::PhantomData<W>,
}

impl<W: Word> Memo<W> {
    /// The occupancy's 64-bit limbs in a slot: 1 or 2.
    const LIMBS: usize = std::mem::size_of::<W>().div_ceil(8);
    const STRIDE: usize = 1 + Self::LIMBS;

    /// Whether states of this word fit a slot.
    pub const KEYS: bool = Self::LIMBS <= 2;

    /// A table that grows to at most `bytes` (none when that is less than the first
    /// table, or the word is wider than 128 bits).
    pub fn new(bytes: u64) -> Option<Self> {
        let slot = (Self::STRIDE * 8) as u64;
        let slots = bytes / slot;
        if !Self::KEYS || slots < 1 << FIRST_BITS {
            return None;
        }
        Some(Memo {
            slots: vec![0; Self::STRIDE << FIRST_BITS],
            bits: FIRST_BITS,
            most_bits: slots.ilog2(),
            stored: 0,
            limit: bytes,
            word: std::marker::PhantomData,
        })
    }

    /// The memory the table was allowed ([`Memo::new`]'s `bytes`).
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The most memory the table grows to: the largest power of two of slots allowed.
    pub fn most_bytes(&self) -> u64 {
        ((Self::STRIDE * 8) as u64) << self.most_bits
    }

    #[inline(always)]
    fn limbs(occ: W) -> [u64; 2] {
        let x = occ.low_u128();
        [x as u64, (x >> 64) as u64]
    }

    /// The first word of the slot of a state, in a table of `2^bits` slots.
    #[inline(always)]
    fn slot(bits: u32, limbs: [u64; 2], code: u64) -> usize {
        let h = (limbs[0].wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            ^ limbs[1].wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
            ^ code.wrapping_mul(0x1656_67b1_9e37_79f9))
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> (64 - bits)) as usize * Self::STRIDE
    }

    /// Whether the state (`occ` filled, `code` the pieces left) is known to be dead.
    #[inline(always)]
    pub fn dead(&self, occ: W, code: u64) -> bool {
        let limbs = Self::limbs(occ);
        let at = Self::slot(self.bits, limbs, code);
        let s = &self.slots[at..at + Self::STRIDE];
        s[0] == code && code != 0 && s[1..] == limbs[..Self::LIMBS]
    }

    /// Records a dead state (`code` not zero).
    #[inline(always)]
    pub fn store(&mut self, occ: W, code: u64) {
        debug_assert!(code != 0);
        let limbs = Self::limbs(occ);
        let at = Self::slot(self.bits, limbs, code);
        let s = &mut self.slots[at..at + Self::STRIDE];
        s[0] = code;
        s[1..].copy_from_slice(&limbs[..Self::LIMBS]);
        self.stored += 1;
        if self.stored >> self.bits != 0 && self.bits < self.most_bits {
            self.grow();
        }
    }

    /// Four times the slots, the states stored so far moved over.
    #[cold]
    fn grow(&mut self) {
        let bits = (self.bits + 2).min(self.most_bits);
        let old = std::mem::replace(&mut self.slots, vec![0; Self::STRIDE << bits]);
        for s in old.chunks_exact(Self::STRIDE).filter(|s| s[0] != 0) {
            let mut limbs = [0; 2];
            limbs[..Self::LIMBS].copy_from_slice(&s[1..]);
            let at = Self::slot(bits, limbs, s[0]);
            self.slots[at..at + Self::STRIDE].copy_from_slice(s);
        }
        self.bits = bits;
        self.stored = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_is_found_only_under_its_whole_key() {
        let mut memo = Memo::<u128>::new(1 << 20).unwrap();
        let occ = 0b1011u128 | 1 << 100;
        memo.store(occ, 6);
        assert!(memo.dead(occ, 6));
        // Another word, or other pieces left, is another state.
        assert!(!memo.dead(occ ^ 1 << 100, 6));
        assert!(!memo.dead(occ ^ 1, 6));
        assert!(!memo.dead(occ, 7));
        // An empty slot matches nothing, the empty state included.
        assert!(!memo.dead(0, 0));
    }

    #[test]
    fn the_table_grows_to_its_limit_keeping_what_it_holds() {
        let bytes = 16 << (FIRST_BITS + 5);
        let mut memo = Memo::<u64>::new(bytes).unwrap();
        assert_eq!(memo.most_bytes(), bytes);
        let states = 3 << (FIRST_BITS + 5);
        for k in 1..=states {
            memo.store(k * 0x9e37_79b9, k);
        }
        assert_eq!(memo.bits, FIRST_BITS + 5);
        assert_eq!(memo.slots.len(), 2 << (FIRST_BITS + 5));
        // The last states stored are all there (a slot keeps the latest); of the others,
        // at most one a slot.
        let found = (1..=states)
            .filter(|&k| memo.dead(k * 0x9e37_79b9, k))
            .count();
        assert!(found <= 1 << (FIRST_BITS + 5));
        assert!(memo.dead(states * 0x9e37_79b9, states));
    }

    #[test]
    fn no_table_below_the_first_size_or_for_wide_words() {
        assert!(Memo::<u64>::new(1000).is_none());
        assert!(Memo::<crate::word::Wide<3>>::new(1 << 30).is_none());
        assert!(Memo::<u64>::new(1 << 30).is_some());
    }
}
