//! `--estimate`: how big a search is and how long it takes, without running all of it.
//!
//! The search is split into subtrees as for threads and shards. Knuth's Monte-Carlo
//! method estimates the size of every subtree and the placements tried in it (random
//! walks down the solver's own tree, [`split::walk`]); then a systematic sample of the
//! subtrees is searched in full and timed. A reported estimate takes the walks' total for
//! the placements, and scales the sample's solutions per placement and its time per
//! placement tried to it. Tuning, which compares settings on one split, scales what the
//! sample found and took by the walks' size of all the subtrees over that of the sample
//! (a ratio estimate, steadier between settings than between puzzles). With every
//! subtree in the sample the counts are exact.
//!
//! This is the short measurement `cargo xtask gen --tune` compares settings with, and it
//! tells a user of a long puzzle what a run will cost before starting it.

use std::time::Instant;

use crate::info::PuzzleInfo;
use crate::output::Stats;
use crate::plan::Plan;
use crate::search::{Context, Search, SharedRun};
use crate::split;

/// The CPU time this thread has used, in seconds: what a measurement costs, less what
/// other processes on the machine took from it. (Wall time where there is no thread
/// clock.)
pub fn thread_seconds() -> f64 {
    #[cfg(unix)]
    {
        cpu_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        wall_seconds()
    }
}

/// The CPU time every thread of this process has used, in seconds: what a run on worker
/// threads costs, less what other processes took. (Wall time where there is no such
/// clock.)
pub fn process_seconds() -> f64 {
    #[cfg(unix)]
    {
        cpu_seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        wall_seconds()
    }
}

#[cfg(unix)]
fn cpu_seconds(clock: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    if unsafe { libc::clock_gettime(clock, &mut ts) } == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        wall_seconds()
    }
}

/// Seconds since the first call.
fn wall_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// How many times more walks a reported estimate makes than tuning's measurements (and
/// the progress bar's sizes), where their cost is paid once: a few seconds on the
/// largest puzzles here. Only for a solver that replays a prefix cheaply
/// ([`crate::Capabilities::replays_cheaply`]): dancing links keeps the walks of tuning.
/// Against the counts, with the walks alone giving the fits and the sample the cost (one
/// thread; fits, then seconds), from 1 to 4 times the walks:
/// one-sided 18x5 -21 % to -8 %, -33 % to -17 %; Tetris Cube +3 % to +2 %, +13 % to -7 %;
/// Bedlam Cube +3 % to +1 %, +7 % to -17 %; 10x6 +1 % to +0.5 %, -16 % to -13 %.
const REPORT_WALKS: usize = 4;

/// What an estimate found.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    pub subtrees: usize,
    /// Random walks per subtree.
    pub probes: usize,
    /// Subtrees searched in full.
    pub sampled: usize,
    /// Placements that fit (polycube's FITS_TOTAL).
    pub fits: f64,
    /// `None` when no subtree was searched in full.
    pub solutions: Option<f64>,
    /// One thread's CPU time for the whole search; `None` when no subtree was searched.
    pub seconds: Option<f64>,
}

/// What `--estimate`'s short run of the search itself found (`driver::short_run`): the
/// search as a run with `--progress` makes it, with its table of dead states (whose
/// savings the walks do not see) and the run's threads, for a while, extrapolated as the
/// progress display's time left is.
#[derive(Clone, Debug, PartialEq)]
pub struct ShortRun {
    pub threads: usize,
    /// Seconds from the start of the short run to its last subtree finished: the split
    /// and the progress display's walks, then the search.
    pub seconds: f64,
    /// The fraction of the walks' estimated work in the subtrees finished (1: all).
    pub fraction: f64,
    /// The whole run's wall time, placements that fit and solutions: extrapolated, or
    /// counted where every subtree was finished.
    pub run_seconds: f64,
    pub fits: f64,
    pub solutions: f64,
}

/// The subtrees of a sample of `n` out of `total`, spread evenly.
fn sample(total: usize, n: usize) -> Vec<usize> {
    let n = n.min(total);
    (0..n).map(|j| (2 * j + 1) * total / (2 * n)).collect()
}

/// Estimates the search of `info` under `plan`, searching `sampled` subtrees in full.
/// With `split_unpruned`, the split and the walks ignore the volume and parity
/// backtracks, which then apply only in the sampled subtrees: estimates that differ only
/// in their backtracks then share their subtrees, their sample and their scale, and
/// compare pairwise.
pub fn estimate(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    target: usize,
    sampled: usize,
    split_unpruned: bool,
) -> Estimate {
    let start = thread_seconds();
    let mut upper = Stats::new(info.pieces_to_place());
    let mut split_plan = plan.clone();
    if split_unpruned {
        split_plan.pruning.volume_backtrack = None;
        split_plan.pruning.parity_backtrack = None;
    }
    let subtrees = split::subtrees(info, &split_plan, search, target, &mut upper);
    let upper_seconds = thread_seconds() - start;
    let upper_fits: u64 = upper.fits.iter().sum();
    let picked = sample(subtrees.len(), sampled);
    // With every subtree searched the counts are exact: no walks are needed.
    let whole = picked.len() == subtrees.len();
    let probes = if whole {
        0
    } else if split_unpruned || !search.capabilities().replays_cheaply {
        split::probes_for(subtrees.len())
    } else {
        split::probes_for(subtrees.len()) * REPORT_WALKS
    };
    // The walks count the subtree's own node; what is below it is what a search adds.
    let walks: Vec<split::Walked> = if whole {
        Vec::new()
    } else {
        subtrees
            .iter()
            .enumerate()
            .map(|(k, s)| split::walk(info, &split_plan, search, s, (k, 0), probes))
            .collect()
    };
    let sizes: Vec<f64> = walks.iter().map(|w| w.nodes - 1.0).collect();
    let all: f64 = sizes.iter().sum();
    let all_attempts: f64 = walks.iter().map(|w| w.attempts).sum();
    if sampled == 0 {
        return Estimate {
            subtrees: subtrees.len(),
            probes,
            sampled: 0,
            fits: upper_fits as f64 + all,
            solutions: None,
            seconds: None,
        };
    }
    let shared = SharedRun::silent(info, plan);
    let (mut fits, mut walked, mut solutions, mut seconds) = (0u64, 0u64, 0u64, 0.0);
    let mut walked_attempts = 0u64;
    for &k in &picked {
        let subtree = &subtrees[k];
        let mut ctx = Context::new(&shared, subtree.entry, 0);
        let began = thread_seconds();
        search.solve_prefix(&subtree.prefix, &mut ctx);
        seconds += thread_seconds() - began;
        fits += ctx.stats.fits.iter().sum::<u64>();
        // The placements the walks count: all but the last (`FITS[n]` is indexed by the
        // pieces left, and the last placement leaves the goal).
        walked += ctx.stats.fits.iter().skip(plan.goal + 2).sum::<u64>();
        walked_attempts += ctx.stats.attempts.iter().skip(plan.goal + 2).sum::<u64>();
        solutions += ctx.solutions;
    }
    let size: f64 = picked.iter().filter_map(|&k| sizes.get(k)).sum();
    if whole {
        return Estimate {
            subtrees: subtrees.len(),
            probes,
            sampled: picked.len(),
            fits: (upper_fits + fits) as f64,
            solutions: Some(solutions as f64),
            seconds: Some(upper_seconds + seconds),
        };
    }
    // Two estimators. Settings measured pairwise on one split (`split_unpruned`, for
    // tuning) scale what the sample found by the walks' size of all the subtrees over
    // that of the sample: the walks and the sample are the same for each, so their
    // difference is what the backtracks save. Otherwise the walks' total is the estimate
    // of the placements, and the sample gives the cost of one placement and the
    // solutions per placement. The walks alone are the steadier figure: the ratio swings
    // with the few large subtrees a sample of 32 happens to hold or miss (against the
    // counts, ratio / walks alone: one-sided 18x5 +110 % / -21 %, 15x6 +63 % / +10 %,
    // 30x3 +21 % / -7 %, hexiamonds in a hexagon -37 % / -5 %, Tetris Cube -15 % /
    // +3 %, 10x6 +11 % / +1 %).
    let scale = if !split_unpruned && walked > 0 {
        all / walked as f64
    } else if size > 0.0 {
        all / size
    } else {
        // The walks saw nothing below the sample: scale by number.
        subtrees.len() as f64 / picked.len().max(1) as f64
    };
    // The time follows the placements tried rather than those that fit: the Tetris
    // Cube's sample tries more per fit than the whole search, and its time scaled by
    // fits came out +44 % against the run, by attempts +13 % (with the walks of tuning).
    let time_scale = if !split_unpruned && walked_attempts > 0 {
        all_attempts / walked_attempts as f64
    } else {
        scale
    };
    Estimate {
        subtrees: subtrees.len(),
        probes,
        sampled: picked.len(),
        fits: upper_fits as f64 + fits as f64 * scale,
        solutions: Some(solutions as f64 * scale),
        seconds: Some(upper_seconds + seconds * time_scale),
    }
}

#[cfg(test)]
mod tests {
    use super::sample;

    #[test]
    fn samples_spread_evenly_and_cover_everything_when_asked() {
        assert_eq!(sample(10, 2), [2, 7]);
        assert_eq!(sample(4068, 32).len(), 32);
        assert_eq!(sample(5, 32), [0, 1, 2, 3, 4]);
        assert!(sample(7, 0).is_empty());
        let s = sample(1000, 7);
        assert!(s.windows(2).all(|w| w[0] < w[1]) && *s.last().unwrap() < 1000);
    }
}
