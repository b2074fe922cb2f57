//! Splitting a search into independent subtrees, and estimating their sizes.
//!
//! A subtree is a prefix of placements found by the solver itself: the search is run
//! level by level with a floor, so the prefixes are exactly the nodes the whole search
//! would pass through, in its own order. The partition depends only on the puzzle, the
//! plan and the target count, never on the threads, so shards and resumed runs agree.

use crate::info::PuzzleInfo;
use crate::output::Stats;
use crate::plan::Plan;
use crate::rng::SplitMix64;
use crate::search::{Context, Search, SharedRun};

/// One independent part of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subtree {
    /// The index of its first image among the plan's first images (for the stabiliser
    /// check).
    pub entry: usize,
    /// The images placed, the first image first.
    pub prefix: Vec<u16>,
}

/// One subtree per first image: the search as one thread runs it. A puzzle with no piece
/// to place (every piece stationary) has one subtree, the empty placement, its solution.
pub fn first_images(info: &PuzzleInfo, plan: &Plan<'_>) -> Vec<Subtree> {
    if info.pieces_to_place() == 0 {
        return vec![Subtree {
            entry: 0,
            prefix: Vec::new(),
        }];
    }
    plan.first
        .images
        .iter()
        .enumerate()
        .map(|(entry, &image)| Subtree {
            entry,
            prefix: vec![image],
        })
        .collect()
}

/// The deepest level the search is split at. Each level deeper sets up every prefix
/// again, so a tree that hardly branches (ten thousand monominoes) would cost the square
/// of its depth. 64 levels are more than a FILA solver has (63 pieces).
pub const MAX_SPLIT_DEPTH: usize = 64;

/// At least `target` subtrees (unless the tree is smaller, or branches so little that
/// [`MAX_SPLIT_DEPTH`] levels do not give them): whole levels of the search tree, one
/// level deeper until there are enough, always stopping a piece short of a solution (of
/// the goal, with `-g`). The counts of the placements above the subtrees go to `upper`.
pub fn subtrees(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    target: usize,
    upper: &mut Stats,
) -> Vec<Subtree> {
    let shared = SharedRun::silent(info, plan);
    // The depth of a solution, or of a partial solution at the goal.
    let end = info.pieces_to_place() - plan.goal;
    let mut level = first_images(info, plan);
    let mut depth = 1;
    while level.len() < target && depth + 1 < end && depth < MAX_SPLIT_DEPTH {
        let mut ctx = Context::new(&shared, 0, 0);
        let mut next = Vec::new();
        for subtree in &level {
            ctx.entry = subtree.entry;
            next.extend(ctx.children(search, &subtree.prefix).map(|prefix| Subtree {
                entry: subtree.entry,
                prefix: prefix.to_vec(),
            }));
        }
        upper.add(&ctx.stats.attempts, &ctx.stats.fits);
        level = next;
        depth += 1;
    }
    level
}

/// Probes per subtree: enough for the sum over many subtrees to settle, few enough that
/// estimating stays a fraction of a second. Measured on the Tetris Cube (4068 subtrees):
/// with 4 probes each, the time left shown after a tenth of the run was off by up to
/// 28 %; with 24, by up to 30 % on two threads; with 49, within 7 % on one and two threads,
/// for 0.1–0.2 s of estimating.
pub fn probes_for(subtrees: usize) -> usize {
    (200_000 / subtrees.max(1)).clamp(4, 128)
}

/// What Knuth's walks estimate of a subtree: its nodes (the subtree's own included), and
/// the placements tried at the nodes they expand (every node but the last level's).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Walked {
    pub nodes: f64,
    pub attempts: f64,
    /// The walks themselves: how many there were, and the placements they tried.
    pub probes: usize,
    pub cost: u64,
}

impl Walked {
    /// The estimate of two rounds of walks of one subtree together: the mean over all
    /// their walks.
    pub fn pooled(self, other: Walked) -> Walked {
        let probes = self.probes + other.probes;
        if probes == 0 {
            return self;
        }
        let mean =
            |a: f64, b: f64| (a * self.probes as f64 + b * other.probes as f64) / probes as f64;
        Walked {
            nodes: mean(self.nodes, other.nodes),
            attempts: mean(self.attempts, other.attempts),
            probes,
            cost: self.cost + other.cost,
        }
    }
}

/// The walks of a second round, per subtree, after a first round of walks gave
/// `first`: as many as cost `share` of the search's attempts (as the first round
/// estimates them, at the first round's cost per walk), but no more than
/// [`SECOND_ROUND_MOST`] times the first round's, each subtree's part in proportion to
/// the square root of its estimated attempts.
///
/// Knuth's estimate is right on average but skewed: a few walks mostly miss the rare
/// deep branches that hold much of a large subtree, and find them now and then. With the
/// same walks for every subtree, the large subtrees come out too small or, now and then,
/// far too big, and the progress bar, which measures the work done in estimated sizes,
/// is wrong with them. On the one-sided 18x5 (3238 subtrees, 61 walks each) the first
/// tenth of the subtrees holds 46 % of the search and was estimated at 56 % of its size;
/// the time left shown was +150 % of the truth after a tenth of the run, +62 % at half
/// way. 500 walks each (8 times the cost) brought it within 12 %. A second round of
/// 1.5 % of the attempts, given in proportion to the estimated attempts, left the small
/// subtrees too small (down to -31 %); in proportion to the walks' spread, no better
/// (the first round's spread is as wrong as its mean); in proportion to the square root,
/// within 21 % on the 18x5 and 10 % on the 15x6 over four and three seeds (replayed with
/// each subtree's fits as its time; BENCHMARKS.md has the table).
pub fn more_walks(first: &[Walked], share: f64) -> Vec<usize> {
    let attempts: f64 = first.iter().map(|w| w.attempts).sum();
    let cost: u64 = first.iter().map(|w| w.cost).sum();
    let probes: usize = first.iter().map(|w| w.probes).sum();
    let roots: f64 = first.iter().map(|w| w.attempts.sqrt()).sum();
    if attempts <= 0.0 || cost == 0 || roots <= 0.0 {
        return vec![0; first.len()];
    }
    let walks =
        (share * attempts * probes as f64 / cost as f64).min(SECOND_ROUND_MOST * probes as f64);
    first
        .iter()
        .map(|w| (walks * w.attempts.sqrt() / roots).min(MAX_MORE_WALKS as f64) as usize)
        .collect()
}

/// The most walks [`more_walks`] gives one subtree.
const MAX_MORE_WALKS: usize = 1 << 20;

/// The most walks [`more_walks`] makes in all, as a multiple of the first round's.
///
/// The share is of the attempts the walks estimate, which leave out the table of dead
/// states (the one-sided 10x9 came out at 1.5 times the placements of its run, the 15x6
/// at 17 times), and a walk costs more per attempt than the search. Without this bound
/// the second round took the one-sided 10x9 45.5 s of processor time (120 times the
/// first round's 0.38 s; 23 s of a run of 480 s on two threads, and of `--estimate`'s
/// 93 s), the 15x6 3.1 s (12 times; of a run of 18 s on one thread). With it the walks
/// and the split took the 10x9 4.0 s, the 15x6 3.0 s; the 18x5's and the cubes' second
/// rounds stay under it. Replayed on whole runs (each subtree's finishing time kept, the
/// sizes walked again), the worst time left shown from a tenth of the run on was,
/// without and with it: the 10x9 on two threads 21 and 13 %; the 15x6, on one thread and
/// twice on two, 142, 55, 518 % and 266, 65, 457 % (its table makes its pace swing with
/// or without the walks: BENCHMARKS.md, session 52); with 4 times, 23 % on the 10x9.
pub const SECOND_ROUND_MOST: f64 = 8.0;

/// An estimate of the nodes below `subtree` (number `k`) and of the attempts made there,
/// by Knuth's Monte-Carlo method: `probes` random walks down the solver's own tree, each
/// adding up the products of the branching factors it meets (a node's attempts weighed
/// by the product above it). The walks depend only on `k` and the `round` of walks, so
/// the estimates are the same whatever thread makes them.
pub fn walk(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    subtree: &Subtree,
    (k, round): (usize, u64),
    probes: usize,
) -> Walked {
    if probes == 0 {
        return Walked::default();
    }
    let shared = SharedRun::silent(info, plan);
    let pieces = info.pieces_to_place();
    let mut rng = SplitMix64::new(
        0x5eed_f11a
            ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ round.wrapping_mul(0xd1b5_4a32_d192_ed03),
    );
    let mut ctx = Context::new(&shared, subtree.entry, 0);
    let mut node: Vec<u16> = Vec::new();
    let mut next: Vec<u16> = Vec::new();
    let mut sum = Walked::default();
    for _ in 0..probes {
        node.clear();
        node.extend_from_slice(&subtree.prefix);
        let (mut total, mut width, mut attempts) = (1.0, 1.0, 0.0);
        // The last level's children are solutions, which a floor cannot cut off; with a
        // goal, the walk ends there.
        while pieces - node.len() > 1 + plan.goal {
            let before: u64 = ctx.stats.attempts.iter().sum();
            // The child picked is copied aside, not allocated: a walk takes a step for
            // each level it goes down.
            next.clear();
            let count = {
                let mut children = ctx.children(search, &node);
                let count = children.len();
                if count > 0 {
                    next.extend_from_slice(children.nth(rng.below(count)).unwrap_or_default());
                }
                count
            };
            let tried = ctx.stats.attempts.iter().sum::<u64>() - before;
            sum.cost += tried;
            attempts += width * tried as f64;
            if count == 0 {
                break;
            }
            width *= count as f64;
            total += width;
            std::mem::swap(&mut node, &mut next);
        }
        sum.nodes += total;
        sum.attempts += attempts;
    }
    Walked {
        nodes: sum.nodes / probes as f64,
        attempts: sum.attempts / probes as f64,
        probes,
        cost: sum.cost,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(attempts: f64, probes: usize, cost: u64) -> Walked {
        Walked {
            nodes: attempts / 2.0,
            attempts,
            probes,
            cost,
        }
    }

    /// 4 subtrees, 10 walks each at 100 placements a walk (1000 placements for 10 walks),
    /// 1_000_000 estimated placements in all, their square roots 800 : 400 : 400 : 200 of
    /// 1800.
    fn four_subtrees() -> [Walked; 4] {
        [
            walked(640_000.0, 10, 1000),
            walked(160_000.0, 10, 1000),
            walked(160_000.0, 10, 1000),
            walked(40_000.0, 10, 1000),
        ]
    }

    #[test]
    fn more_walks_go_by_the_square_root_of_the_work_within_the_share() {
        let first = four_subtrees();
        // 2 % of the estimated placements buys 200 walks.
        let more = more_walks(&first, 0.02);
        assert_eq!(more, [88, 44, 44, 22]);
        assert!(more.iter().sum::<usize>() <= 200);
        assert_eq!(more_walks(&first, 0.0), [0, 0, 0, 0]);
    }

    #[test]
    fn a_second_round_makes_at_most_its_multiple_of_the_first() {
        // 20 % of the estimated placements would buy 2000 walks; 40 walks first, so
        // 320 at most.
        assert_eq!(SECOND_ROUND_MOST, 8.0);
        assert_eq!(more_walks(&four_subtrees(), 0.2), [142, 71, 71, 35]);
    }

    #[test]
    fn no_more_walks_where_the_first_found_nothing() {
        let first = [walked(0.0, 4, 0), walked(0.0, 4, 0)];
        assert_eq!(more_walks(&first, 0.5), [0, 0]);
        assert_eq!(more_walks(&[], 0.5), Vec::<usize>::new());
    }

    #[test]
    fn pooled_walks_are_the_mean_over_all_of_them() {
        let a = walked(100.0, 3, 30);
        let b = walked(20.0, 1, 5);
        let both = a.pooled(b);
        assert_eq!(both.attempts, 80.0);
        assert_eq!(both.nodes, 40.0);
        assert_eq!((both.probes, both.cost), (4, 35));
        // No second round: the first as it was.
        assert_eq!(a.pooled(Walked::default()), a);
    }
}
