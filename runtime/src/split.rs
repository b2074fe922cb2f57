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
}

/// An estimate of the nodes below `subtree` (number `k`) and of the attempts made there,
/// by Knuth's Monte-Carlo method: `probes` random walks down the solver's own tree, each
/// adding up the products of the branching factors it meets (a node's attempts weighed
/// by the product above it). The walks depend only on `k`, so the estimates are the same
/// whatever thread makes them.
pub fn walk(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    subtree: &Subtree,
    k: usize,
    probes: usize,
) -> Walked {
    let shared = SharedRun::silent(info, plan);
    let pieces = info.pieces_to_place();
    let mut rng = SplitMix64::new(0x5eed_f11a ^ (k as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut ctx = Context::new(&shared, subtree.entry, 0);
    let mut node: Vec<u16> = Vec::new();
    let mut sum = Walked::default();
    for _ in 0..probes {
        node.clear();
        node.extend_from_slice(&subtree.prefix);
        let (mut total, mut width, mut attempts) = (1.0, 1.0, 0.0);
        // The last level's children are solutions, which a floor cannot cut off; with a
        // goal, the walk ends there.
        while pieces - node.len() > 1 + plan.goal {
            let before: u64 = ctx.stats.attempts.iter().sum();
            let (count, pick) = {
                let children: Vec<&[u16]> = ctx.children(search, &node).collect();
                let pick =
                    (!children.is_empty()).then(|| children[rng.below(children.len())].to_vec());
                (children.len(), pick)
            };
            let tried = ctx.stats.attempts.iter().sum::<u64>() - before;
            attempts += width * tried as f64;
            let Some(pick) = pick else {
                break;
            };
            width *= count as f64;
            total += width;
            node = pick;
        }
        sum.nodes += total;
        sum.attempts += attempts;
    }
    Walked {
        nodes: sum.nodes / probes as f64,
        attempts: sum.attempts / probes as f64,
    }
}
