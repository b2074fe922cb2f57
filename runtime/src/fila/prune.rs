//! The tests that cut a branch after a placement: open regions too small for any piece
//! (on one word or on a block of eight), and the volume and parity backtracks.

use super::bits::{Block, Word};
use super::tables::{lower_first, Fillable, Isolation, Pruning, Shift};

/// The cells of `from` whose neighbour along `shift` is in `bits`, where the caller knows
/// whether that neighbour has the lower number (`lower`, that is `shift.by < 0`, from
/// the shift's place: [`lower_first`]), so that the shift needs no test of its way.
#[inline(always)]
pub fn neighbours_toward<W: Word, B: Block<W>>(shift: &Shift<W>, lower: bool, bits: B) -> B {
    let moved = if lower {
        bits << shift.by.unsigned_abs()
    } else {
        bits >> shift.by.unsigned_abs()
    };
    moved & B::splat(shift.from)
}

/// The open cells (of `full`, not in `occ`) that lie in a region too small for any
/// piece, by the test `form`: none means every region may still be filled. The way of
/// each shift is known from its place ([`lower_first`]), so the shifts need no test of
/// it, and none at all where their number is a constant.
///
/// Measured when this was emitted per puzzle: the pair test pays in the plane (10x6:
/// 34.2 -> 32.0 ms) but not in 3-space, where regions rarely close and the test has six
/// directions (Tetris Cube: 3.3 -> 3.8 s); lowering chooses the form.
#[inline(always)]
pub fn isolated<W: Word, B: Block<W>>(occ: B, full: W, shifts: &[Shift<W>], form: Isolation) -> B {
    let lower = lower_first(shifts);
    let zero = B::splat(W::ZERO);
    let open = !occ & B::splat(full);
    match form {
        Isolation::None => zero,
        Isolation::Cells => {
            let mut reachable = zero;
            for (k, s) in shifts.iter().enumerate() {
                reachable |= neighbours_toward(s, k < lower, open);
            }
            open & !reachable
        }
        Isolation::Pairs => {
            let (mut once, mut twice) = (zero, zero);
            for (k, s) in shifts.iter().enumerate() {
                let x = neighbours_toward(s, k < lower, open);
                twice |= once & x;
                once |= x;
            }
            let single = open & once & !twice;
            let mut paired = zero;
            for (k, s) in shifts.iter().enumerate() {
                paired |= neighbours_toward(s, k < lower, single);
            }
            (open & !once) | (single & paired)
        }
    }
}

/// A region still growing after this many steps is taken to be large enough.
const VOLUME_STEPS: usize = 16;

/// One step of growing `frontier` to its neighbours.
#[inline(always)]
fn grow<W: Word>(frontier: W, shifts: Option<&[Shift<W>]>, neighbours: &[W]) -> W {
    match shifts {
        Some(shifts) => {
            let lower = lower_first(shifts);
            let mut around = W::ZERO;
            for (k, s) in shifts.iter().enumerate() {
                around |= neighbours_toward(s, k < lower, frontier);
            }
            around
        }
        None => {
            let mut around = W::ZERO;
            let mut f = frontier;
            while f != W::ZERO {
                around |= neighbours[f.trailing_zeros() as usize];
                f = f.clear_lowest();
            }
            around
        }
    }
}

/// The volume backtrack: every open region that the placement of `image` closed off
/// (found by growing from the cells around it, up to `VOLUME_STEPS` steps) has a size
/// the pieces left (`avail`, `copies`) can make.
pub fn volume_ok<W: Word>(
    p: &Pruning<'_, W>,
    shifts: Option<&[Shift<W>]>,
    full: W,
    occ: W,
    avail: u64,
    copies: &[u8],
    image: u16,
) -> bool {
    let open = !occ & full;
    let mut seeds = p.halo[image as usize] & open;
    while seeds != W::ZERO {
        let seed = seeds.lowest();
        let mut region = seed;
        let mut frontier = seed;
        let mut closed = false;
        for _ in 0..VOLUME_STEPS {
            frontier = grow(frontier, shifts, p.neighbours) & open & !region;
            if frontier == W::ZERO {
                closed = true;
                break;
            }
            region |= frontier;
        }
        if closed && !fillable(&p.fillable, region.count_ones(), avail, copies) {
            return false;
        }
        seeds &= !region;
    }
    true
}

/// Whether the pieces left can make a region of `size` cells.
fn fillable(form: &Fillable<'_>, size: u32, avail: u64, copies: &[u8]) -> bool {
    match *form {
        Fillable::Multiple(piece) => size.is_multiple_of(piece),
        Fillable::Sums(sizes) => {
            // A region of 128 cells or more is not judged.
            if size >= 128 {
                return true;
            }
            // The sizes the pieces left can make, as a bit set.
            let mut sums: u128 = 1;
            let mut a = avail;
            while a != 0 {
                let s = a.trailing_zeros() as usize;
                a &= a - 1;
                for _ in 0..copies[s] {
                    sums |= sums << sizes[s];
                }
            }
            (sums >> size) & 1 == 1
        }
    }
}

/// The parity backtrack: the open cells' colour balance is one the pieces left can make
/// (`sums`, made from `p`'s balances when the solver was set up).
#[inline(always)]
pub fn parity_ok<W: Word>(
    p: &Pruning<'_, W>,
    sums: &ParitySums,
    full: W,
    occ: W,
    avail: u64,
    copies: &[u8],
    one_per_shape: bool,
) -> bool {
    if p.balances.is_none() {
        // The pieces' balances range beyond +-63: no test (never so in the literature).
        return true;
    }
    let open = !occ & full;
    let balance = 2 * (open & p.black).count_ones() as i32 - open.count_ones() as i32;
    (-64..64).contains(&balance)
        && (sums.reachable(avail, copies, one_per_shape) >> (balance + 64)) & 1 == 1
}

/// The balances the pieces left can make, by groups: the shapes with the same balances
/// form a group, and `n` pieces of a group make the same balances whichever shapes they
/// are, so each group keeps them for every `n`, made once per solver. A test then takes
/// the number of pieces left in each group and joins the groups' sets: on a puzzle
/// whose shapes all have balances `+-b` for a few `b` (the square and cubic lattices'
/// checkerboard), a lookup per group rather than a step per piece left. Shapes whose only
/// balance is 0 change nothing and are left out.
#[derive(Clone, Debug, Default)]
pub struct ParitySums {
    /// Each group's shapes (bits), and the balances `n` of its pieces make, offset by
    /// 64, as a bit set, for `n` from 0 to its number of pieces. The largest group first.
    groups: Vec<(u64, Vec<u128>)>,
}

impl ParitySums {
    /// The groups of `balances` (each shape's), for `copies` of each shape. Empty where
    /// there are no balances (`None`: the test does not run).
    pub fn new(balances: Option<&[&[i32]]>, copies: &[u8]) -> Self {
        let Some(balances) = balances else {
            return Self::default();
        };
        let mut groups: Vec<(&[i32], u64, usize)> = Vec::new();
        for (s, &b) in balances.iter().enumerate().take(64) {
            let n = copies.get(s).copied().unwrap_or(0) as usize;
            if b.iter().all(|&v| v == 0) || n == 0 {
                continue;
            }
            match groups.iter_mut().find(|g| g.0 == b) {
                Some(g) => {
                    g.1 |= 1 << s;
                    g.2 += n;
                }
                None => groups.push((b, 1 << s, n)),
            }
        }
        groups.sort_by_key(|g| std::cmp::Reverse(g.2));
        let groups = groups
            .into_iter()
            .map(|(b, shapes, pieces)| {
                let mut sets = vec![1u128 << 64];
                for n in 0..pieces {
                    sets.push(add_one(sets[n], b));
                }
                (shapes, sets)
            })
            .collect();
        ParitySums { groups }
    }

    /// The balances (offset by 64, as a bit set) that the pieces left make: the shapes of
    /// `avail`, `copies` of each (each one copy where `one_per_shape`).
    #[inline(always)]
    pub fn reachable(&self, avail: u64, copies: &[u8], one_per_shape: bool) -> u128 {
        let mut sums: Option<u128> = None;
        for (shapes, sets) in &self.groups {
            let left = avail & shapes;
            let n = if one_per_shape {
                left.count_ones() as usize
            } else {
                let (mut n, mut a) = (0, left);
                while a != 0 {
                    n += copies[a.trailing_zeros() as usize & 63] as usize;
                    a &= a - 1;
                }
                n
            };
            let Some(&set) = sets.get(n) else {
                // More pieces than the group was made for: no test.
                return u128::MAX;
            };
            sums = Some(match sums {
                None => set,
                Some(before) => join(before, set),
            });
        }
        sums.unwrap_or(1 << 64)
    }
}

/// The sums of `sums` (offset by 64) and one balance of `balances`.
fn add_one(sums: u128, balances: &[i32]) -> u128 {
    let mut next: u128 = 0;
    for &v in balances {
        next |= if v >= 0 { sums << v } else { sums >> -v };
    }
    next
}

/// The sums of one of `a` and one of `b`, both offset by 64.
#[inline(always)]
fn join(a: u128, mut b: u128) -> u128 {
    let mut sums: u128 = 0;
    while b != 0 {
        let v = b.trailing_zeros() as i32 - 64;
        b &= b - 1;
        sums |= if v >= 0 { a << v } else { a >> -v };
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4x4 board numbered x fastest: +x is +1 (not from the last column), +y is +4.
    fn shifts() -> Vec<Shift<u64>> {
        let not_last_col: u64 = (0..16).filter(|c| c % 4 != 3).fold(0, |m, c| m | 1 << c);
        let not_first_col: u64 = (0..16).filter(|c| c % 4 != 0).fold(0, |m, c| m | 1 << c);
        vec![
            Shift {
                by: -1,
                from: not_first_col,
            },
            Shift {
                by: -4,
                from: 0xfff0,
            },
            Shift {
                by: 1,
                from: not_last_col,
            },
            Shift {
                by: 4,
                from: 0x0fff,
            },
        ]
    }

    #[test]
    fn isolation_finds_lone_cells_and_pairs() {
        let s = shifts();
        let full = 0xffffu64;
        // Everything filled but cell 0: a lone cell.
        let lone = full & !1;
        assert_ne!(isolated::<u64, u64>(lone, full, &s, Isolation::Cells), 0);
        // Cells 0 and 1 open: a pair, caught only by the pair test.
        let pair = full & !0b11;
        assert_eq!(isolated::<u64, u64>(pair, full, &s, Isolation::Cells), 0);
        assert_ne!(isolated::<u64, u64>(pair, full, &s, Isolation::Pairs), 0);
        // Cells 0, 1, 2 open: a region of three, fine for both.
        let three = full & !0b111;
        assert_eq!(isolated::<u64, u64>(three, full, &s, Isolation::Pairs), 0);
        assert_eq!(isolated::<u64, u64>(lone, full, &s, Isolation::None), 0);
        // The same on eight lanes.
        let words = [lone, pair, three, 0, full, lone, pair, three];
        let lanes = crate::lanes::Lanes::load(&words);
        let bad = isolated(lanes, full, &s, Isolation::Pairs).zero_lanes();
        // Lanes 2, 3, 4 and 7 have no region too small.
        assert_eq!(bad, 0b1001_1100);
    }

    #[test]
    fn volume_and_parity_judge_regions() {
        let s = shifts();
        let full = 0xffffu64;
        let neighbours: Vec<u64> = vec![0; 16];
        // One image: cells 4..8 (the second row); its halo is the rows around it.
        let halo = vec![0xf00fu64];
        let sizes = [3u32, 5];
        let p = Pruning {
            halo: &halo,
            neighbours: &neighbours,
            fillable: Fillable::Sums(&sizes),
            black: 0xa5a5,
            balances: Some(&[&[-1, 1], &[-1, 1]]),
        };
        // The first row (4 cells) is closed off: 4 is not a sum of 3s and 5s.
        let occ = 0x00f0u64;
        assert!(!volume_ok(&p, Some(&s), full, occ, 0b11, &[1, 1], 0));
        // With the bottom row also filled, the closed region is the top 8 cells = 3 + 5.
        assert!(volume_ok(
            &p,
            Some(&s),
            full,
            0x00f0 | 0x000f,
            0b11,
            &[1, 1],
            0
        ));
        let multiple = Pruning {
            fillable: Fillable::Multiple(4),
            ..p
        };
        assert!(volume_ok(&multiple, Some(&s), full, occ, 0b11, &[1, 1], 0));
        // 12 open cells, balance 0 (6 black, 6 white), from two pieces of balance +-1.
        let sums = ParitySums::new(multiple.balances, &[1, 1]);
        assert!(parity_ok(&multiple, &sums, full, occ, 0b11, &[1, 1], true));
        assert!(!parity_ok(&multiple, &sums, full, occ, 0b01, &[1, 0], true));
        assert!(!parity_ok(
            &multiple,
            &sums,
            full,
            occ,
            0b01,
            &[1, 0],
            false
        ));
    }

    /// The balances the pieces left make, a step per piece: what the groups must give.
    fn sums_piece_by_piece(balances: &[&[i32]], avail: u64, copies: &[u8]) -> u128 {
        let mut sums: u128 = 1 << 64;
        for (s, b) in balances.iter().enumerate() {
            if avail >> s & 1 == 1 {
                for _ in 0..copies[s] {
                    sums = add_one(sums, b);
                }
            }
        }
        sums
    }

    #[test]
    fn grouped_sums_are_the_sums_piece_by_piece() {
        // Balances as the lattices give them (+-b, 0, and uneven sets), the shapes' total
        // within +-63 as lowering guarantees.
        let kinds: [&[i32]; 7] = [
            &[0],
            &[-1, 1],
            &[-2, 2],
            &[-3, 3],
            &[-2, 0, 2],
            &[1],
            &[-3, -1, 1],
        ];
        let mut rng = crate::rng::SplitMix64::new(62);
        for _ in 0..2000 {
            let shapes = 1 + rng.below(24);
            let mut balances: Vec<&[i32]> = Vec::new();
            let mut full: Vec<u8> = Vec::new();
            let mut range = 0;
            for _ in 0..shapes {
                let b = kinds[rng.below(kinds.len())];
                let n = 1 + rng.below(3) as u8;
                let widest = b.iter().map(|v| v.abs()).max().unwrap_or(0) * n as i32;
                if range + widest > 63 {
                    balances.push(kinds[0]);
                    full.push(n);
                    continue;
                }
                range += widest;
                balances.push(b);
                full.push(n);
            }
            let one_each = full.iter().all(|&n| n == 1);
            let sums = ParitySums::new(Some(&balances), &full);
            for _ in 0..20 {
                // Some shapes used up, others with fewer copies left.
                let mut avail = 0u64;
                let mut copies = full.clone();
                for (s, c) in copies.iter_mut().enumerate() {
                    *c = rng.below(*c as usize + 1) as u8;
                    if *c > 0 {
                        avail |= 1 << s;
                    }
                }
                let want = sums_piece_by_piece(&balances, avail, &copies);
                assert_eq!(sums.reachable(avail, &copies, false), want);
                if one_each {
                    assert_eq!(sums.reachable(avail, &copies, true), want);
                }
            }
        }
        // No balances: no groups, and only the empty sum.
        assert_eq!(
            ParitySums::new(None, &[1]).reachable(1, &[1], true),
            1 << 64
        );
    }
}
