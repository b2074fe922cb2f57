//! The search driver: [`run`] takes a solver through one run, phase by phase. The runtime
//! owns the subtrees (the first placements of the search), the threads that search them,
//! shards, checkpoints, progress and the `-i` report; a solver only finishes the search
//! below one prefix of placements.

use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::checkpoint::Checkpoint;
use crate::estimate;
use crate::info::PuzzleInfo;
use crate::options::Options;
use crate::output::Stats;
use crate::pictures::Pictures;
use crate::plan::{Plan, UsageError};
use crate::progress::Progress;
use crate::report::{self, Summary};
use crate::search::{Context, Search, SharedRun};
use crate::split::{self, Subtree};

/// Runs `search` over every subtree of the plan, listing solutions to `out` and, with
/// `-i`, the statistics after them.
pub fn run(
    info: &PuzzleInfo,
    search: &mut dyn Search,
    options: &Options,
    out: &mut (dyn Write + Send),
) -> Result<Summary, UsageError> {
    let start = Instant::now();
    let mut plan = Plan::resolve(info, options)?;
    // A FILA_KERNELS the processor cannot run is refused before anything is solved.
    crate::fila::isa::Kernels::chosen().map_err(UsageError)?;
    let capabilities = search.capabilities();
    plan.kernels = capabilities.kernels;
    let threads = thread_count(options);
    // An estimate is of the whole tree: without the table of dead states, whose savings
    // depend on what it has met before. Each thread has a table of its own.
    if capabilities.keeps_dead_states && options.estimate.is_none() {
        plan.memo = thread_memo(options, threads);
    }
    for note in &plan.notes {
        eprintln!("warning: {}: {note}", info.name);
    }
    if let Some(sampled) = options.estimate {
        return run_estimate(info, &plan, search, options, sampled, out);
    }
    let progress_wanted = Progress::wanted(options);
    let (partition, beginning, mut workers, weights) =
        prepare(info, &plan, search, options, threads, progress_wanted)?;
    let progress = Progress::new(
        options,
        &weights,
        &partition.mine,
        &beginning.done,
        beginning.tally.solutions,
        plan.memo > 0,
    );
    let todo = beginning.left_to_search(&partition);
    let resumed = beginning.resumed;

    let pictures = Pictures::new(
        info,
        crate::pictures::stem(&info.name, options.shard),
        beginning.tally.solutions,
        options.svg.as_deref(),
        options.html.as_deref(),
        options.labels,
    )
    .map_err(UsageError)?;
    let shared = SharedRun::new(
        info,
        &plan,
        options,
        beginning.tally.solutions,
        out,
        pictures,
    );
    let totals = Mutex::new(Totals::new(beginning, progress, options.checkpoint_every));
    workers.map(&todo, |search, k| {
        search_subtree(&shared, &totals, search, &partition.subtrees[k], k);
    });

    let stopped = shared.stop_reason();
    let totals = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    let (all, done_count) = totals.finish();
    let summary = Summary {
        solutions: all.solutions,
        unique: all.unique,
        stats: all.stats,
        seconds: start.elapsed().as_secs_f64(),
        threads,
        subtrees: partition.subtrees.len(),
        searched: done_count - resumed,
        resumed,
        stopped,
    };
    let text = options
        .info
        .then(|| report::format_info(info, &plan, options, &summary, partition.mine.len()));
    let counts = format!(
        "SOLUTIONS={}, UNIQUE={}{}",
        summary.solutions,
        summary.unique,
        if summary.stopped.is_some() {
            " (stopped early)"
        } else {
            ""
        }
    );
    shared
        .finish_listing(text.as_deref(), &counts)
        .map_err(UsageError)?;
    Ok(summary)
}

/// A run's subtrees, where it begins, its threads, and (where the progress display is
/// `wanted`) the estimated size of each of its subtrees, zero otherwise.
fn prepare<'s>(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &'s mut dyn Search,
    options: &Options,
    threads: usize,
    wanted: bool,
) -> Result<(Partition, Beginning, Workers<'s>, Vec<f64>), UsageError> {
    let partition = Partition::new(info, plan, search, options, threads, wanted);
    let beginning = Beginning::new(info, plan, options, &partition)?;
    let second_round = search.capabilities().replays_cheaply;
    let mut workers = Workers::start(threads, search)?;
    let weights = if wanted {
        progress_weights(info, plan, &partition, &mut workers, second_round)
    } else {
        vec![0.0; partition.subtrees.len()]
    };
    Ok((partition, beginning, workers, weights))
}

/// The memory for dead states each thread's solver may use: each has a table of its own
/// (which may move to one the threads share, up to their memory together).
fn thread_memo(options: &Options, threads: usize) -> u64 {
    options.memo / threads as u64
}

/// `--estimate`: measures the search instead of running it, and prints the estimate's
/// block.
fn run_estimate(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    options: &Options,
    sampled: usize,
    out: &mut (dyn Write + Send),
) -> Result<Summary, UsageError> {
    let start = Instant::now();
    let subtrees = options.subtrees as usize;
    let unpruned = options.estimate_split_unpruned;
    let e = estimate::estimate(info, plan, search, subtrees, sampled, unpruned);
    // The walks estimate the whole tree, without the table of dead states, which saves a
    // run anything from nothing to nine placements in ten (the one-sided 15x6): where a
    // run keeps one, a short run of the search itself measures what it saves. Not for
    // tuning's comparisons (`unpruned`), an estimate without a timed sample, or one that
    // searched every subtree.
    let threads = thread_count(options);
    let short = match e.seconds {
        Some(walked)
            if search.capabilities().keeps_dead_states
                && options.memo > 0
                && !unpruned
                && e.sampled < e.subtrees =>
        {
            let budget = options.estimate_run.unwrap_or_else(|| {
                Duration::try_from_secs_f64(walked / threads as f64 / 10.0)
                    .map_or(SHORT_RUN_MOST, |tenth| tenth.min(SHORT_RUN_MOST))
            });
            let mut run_plan = plan.clone();
            run_plan.memo = thread_memo(options, threads);
            if budget.is_zero() {
                None
            } else {
                short_run(info, &run_plan, search, options, threads, budget)?
            }
        }
        _ => None,
    };
    let seconds = start.elapsed().as_secs_f64();
    let text = report::format_estimate(info, plan, options, &e, short.as_ref(), seconds);
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        if let Some(failure) = crate::output::write_failure(&e) {
            return Err(UsageError(failure));
        }
    }
    Ok(Summary {
        solutions: 0,
        unique: 0,
        stats: Stats::new(info.pieces_to_place()),
        seconds,
        threads: 1,
        subtrees: e.subtrees,
        searched: e.sampled,
        resumed: 0,
        stopped: Some(crate::search::Stop::Estimate),
    })
}

/// The longest `--estimate`'s short run of the search takes unless told
/// (`--estimate-run`): by default a tenth of the walks' estimate of the run's time, at
/// most this.
const SHORT_RUN_MOST: Duration = Duration::from_secs(60);

/// `--estimate`'s short run: the search as a run with `--progress` makes it (its split,
/// its walks for the sizes of the subtrees, its table of dead states, `threads`
/// threads), listing nothing, with no subtree begun after `budget` seconds of search;
/// then the time the whole run takes, extrapolated as the progress display's time left
/// is, its placements at the pace of that time and its solutions at the pace of the
/// walks' work. `None` when a signal stopped it or it finished no subtree.
fn short_run(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    search: &mut dyn Search,
    options: &Options,
    threads: usize,
    budget: Duration,
) -> Result<Option<estimate::ShortRun>, UsageError> {
    let start = Instant::now();
    let (partition, beginning, mut workers, weights) =
        prepare(info, plan, search, options, threads, true)?;
    let setup = start.elapsed().as_secs_f64();
    let progress = Progress::hidden(&weights, &partition.mine, plan.memo > 0);
    let todo = beginning.left_to_search(&partition);
    let mut sink = std::io::sink();
    let shared = SharedRun::new(info, plan, options, 0, &mut sink, None);
    let totals = Mutex::new(Totals::new(beginning, progress, options.checkpoint_every));
    let deadline = Instant::now() + budget;
    workers.map(&todo, |search, k| {
        if Instant::now() < deadline {
            search_subtree(&shared, &totals, search, &partition.subtrees[k], k);
        }
    });
    // A signal (`--estimate` takes no `--limit`).
    if shared.stop_reason().is_some() {
        return Ok(None);
    }
    let totals = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    let Some((then, fraction, left)) = totals.progress.projection() else {
        return Ok(None);
    };
    let fits = |s: &Stats| s.fits.iter().sum::<u64>() as f64;
    let whole = totals.done_count == todo.len();
    // Placements come at the pace of the time (the table quickens both); solutions at
    // that of the walks' work, which the table does not change. Against the counts, by
    // the time and by the work: the one-sided 15x6 on two threads -44 % and -5 %, the
    // 10x9 on two threads -13 % and -0.3 % (session 51).
    let (scale, share) = if whole || then <= 0.0 || fraction <= 0.0 {
        (1.0, 1.0)
    } else {
        ((then + left) / then, fraction)
    };
    // (The counts above the subtrees, made while splitting, are whole already.)
    let (found, upper) = (&totals.finished, &partition.upper);
    Ok(Some(estimate::ShortRun {
        threads,
        seconds: setup + then,
        fraction,
        run_seconds: setup + then + if whole { 0.0 } else { left },
        fits: fits(upper) + (fits(&found.stats) - fits(upper)) * scale,
        solutions: found.solutions as f64 / share,
    }))
}

/// The worker threads for `options`: every core unless told otherwise.
fn thread_count(options: &Options) -> usize {
    match options.threads {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// The subtrees of a run, and which of them are this run's to search.
struct Partition {
    subtrees: Vec<Subtree>,
    /// This run's subtrees, by index: its shard's, or all of them.
    mine: Vec<usize>,
    /// The counts of the levels above the subtrees, made while splitting. They belong to
    /// the first shard only, so the shards add up to the whole.
    upper: Stats,
}

impl Partition {
    fn new(
        info: &PuzzleInfo,
        plan: &Plan<'_>,
        search: &mut dyn Search,
        options: &Options,
        threads: usize,
        progress_wanted: bool,
    ) -> Partition {
        // The plain one-thread run searches below each first image; anything that hands
        // out or records subtrees splits the search the same way every time, whatever the
        // threads.
        let recorded = options.checkpoint.is_some() || options.resume.is_some();
        let split = threads > 1 || options.shard.is_some() || recorded || progress_wanted;
        let mut upper = Stats::new(info.pieces_to_place());
        let subtrees = if split {
            split::subtrees(info, plan, search, options.subtrees as usize, &mut upper)
        } else {
            split::first_images(info, plan)
        };
        let mine = match options.shard {
            Some(s) => (0..subtrees.len())
                .filter(|k| k % s.count == s.index - 1)
                .collect(),
            None => (0..subtrees.len()).collect(),
        };
        if options.shard.is_some_and(|s| s.index != 1) {
            upper = Stats::new(info.pieces_to_place());
        }
        Partition {
            subtrees,
            mine,
            upper,
        }
    }
}

/// What the subtrees add up to, kept under one lock.
#[derive(Clone)]
struct Tally {
    solutions: u64,
    unique: u64,
    stats: Stats,
}

impl Tally {
    fn add(&mut self, ctx: &Context<'_>) {
        self.solutions += ctx.solutions;
        self.unique += ctx.unique;
        self.stats.add(&ctx.stats.attempts, &ctx.stats.fits);
    }
}

/// Where a run begins: from nothing (but the counts above the subtrees), or from what
/// the checkpoint it resumes recorded.
struct Beginning {
    /// The record the run keeps (`--checkpoint`, or `--resume`'s file).
    checkpoint: Option<Checkpoint>,
    /// The subtrees already finished, by index.
    done: Vec<bool>,
    /// How many subtrees the checkpoint found finished.
    resumed: usize,
    /// What the finished subtrees added up to.
    tally: Tally,
}

impl Beginning {
    fn new(
        info: &PuzzleInfo,
        plan: &Plan<'_>,
        options: &Options,
        partition: &Partition,
    ) -> Result<Beginning, UsageError> {
        let mut beginning = Beginning {
            checkpoint: None,
            done: vec![false; partition.subtrees.len()],
            resumed: 0,
            tally: Tally {
                solutions: 0,
                unique: 0,
                stats: partition.upper.clone(),
            },
        };
        let Some(path) = options.checkpoint.as_ref().or(options.resume.as_ref()) else {
            return Ok(beginning);
        };
        let fresh = Checkpoint::new(path, info, plan, options, &partition.subtrees);
        let checkpoint = match &options.resume {
            Some(from) => Checkpoint::resume(from, fresh).map_err(UsageError)?,
            None => fresh,
        };
        checkpoint.check_writable().map_err(|e| {
            let other = if options.checkpoint.is_some() {
                "another"
            } else {
                "a"
            };
            UsageError(format!("{e} (name {other} file with --checkpoint)"))
        })?;
        if checkpoint.resumed() {
            for &k in &checkpoint.done {
                beginning.done[k] = true;
            }
            beginning.resumed = checkpoint.done.len();
            beginning.tally = Tally {
                solutions: checkpoint.solutions,
                unique: checkpoint.unique,
                stats: checkpoint.stats.clone(),
            };
        }
        beginning.checkpoint = Some(checkpoint);
        Ok(beginning)
    }

    /// This run's subtrees that are not finished yet.
    fn left_to_search(&self, partition: &Partition) -> Vec<usize> {
        let mine = partition.mine.iter().copied();
        mine.filter(|&k| !self.done[k]).collect()
    }
}

/// The threads that search, each with a solver of its own.
enum Workers<'s> {
    /// One thread, the caller's, with the caller's solver.
    Caller(&'s mut dyn Search),
    /// A pool of threads with one solver each, locked only by its own thread.
    Pool {
        pool: rayon::ThreadPool,
        solvers: Vec<Mutex<Box<dyn Search>>>,
    },
}

impl<'s> Workers<'s> {
    fn start(threads: usize, search: &'s mut dyn Search) -> Result<Workers<'s>, UsageError> {
        if threads <= 1 {
            return Ok(Workers::Caller(search));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| {
                UsageError(format!(
                    "cannot start {}: {e}",
                    crate::text::count(threads, "thread")
                ))
            })?;
        let share = crate::search::RunShare::new(threads);
        let solvers = (0..threads)
            .map(|_| {
                let mut solver = search.fork();
                solver.join(&share);
                Mutex::new(solver)
            })
            .collect();
        Ok(Workers::Pool { pool, solvers })
    }

    /// `job` for each of `subtrees` (indices), on the workers' threads with their
    /// solvers: in order on one thread, in any order on a pool. The results are in the
    /// order of `subtrees`.
    ///
    /// On a pool every subtree is a task of its own that an idle thread can take
    /// (`with_max_len(1)`). Rayon's own splitting leaves each thread a run of subtrees
    /// that no other thread can take from it, and the subtrees of one search differ in
    /// size by orders of magnitude: the one-sided 18x5 on two threads ran its last 5 s on
    /// one (10 s with 15000 subtrees). Side by side by hand (interleaved runs, not yet
    /// `cargo xtask bench`), two threads: 18x5 36.2 -> 33.0 s, Tetris Cube 5.30 -> 4.77 s,
    /// 10x6 unchanged.
    fn map<T: Send>(
        &mut self,
        subtrees: &[usize],
        job: impl Fn(&mut dyn Search, usize) -> T + Sync,
    ) -> Vec<T> {
        match self {
            Workers::Caller(search) => subtrees.iter().map(|&k| job(&mut **search, k)).collect(),
            Workers::Pool { pool, solvers } => {
                use rayon::prelude::*;
                pool.install(|| {
                    subtrees
                        .par_iter()
                        .with_max_len(1)
                        .map(|&k| {
                            let me = rayon::current_thread_index().unwrap_or(0) % solvers.len();
                            let mut solver = solvers[me].lock().unwrap_or_else(|e| e.into_inner());
                            job(solver.as_mut(), k)
                        })
                        .collect()
                })
            }
        }
    }
}

/// The estimated size of each of this run's subtrees (by Knuth's walks, zero for the
/// others): what the progress display measures the work done in. Two rounds of walks:
/// the same number for each subtree, then, with `second_round`, more where the first
/// round found the work ([`split::more_walks`]). Only for a solver that replays a prefix
/// cheaply ([`crate::Capabilities::replays_cheaply`]): dancing links covers every row of
/// the prefix again at each step of a walk, a cost the placements its walks count do not
/// show, so a budget in placements would not bound its time.
fn progress_weights(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    partition: &Partition,
    workers: &mut Workers<'_>,
    second_round: bool,
) -> Vec<f64> {
    let probes = if second_round {
        split::probes_for(partition.mine.len())
    } else {
        REPLAYING_WALKS
    };
    let first = workers.map(&partition.mine, |search, k| {
        split::walk(info, plan, search, &partition.subtrees[k], (k, 0), probes)
    });
    let mut walked = vec![split::Walked::default(); partition.subtrees.len()];
    for (&k, w) in partition.mine.iter().zip(first) {
        walked[k] = w;
    }
    if second_round {
        let more = split::more_walks(&walked, PROGRESS_WALKS_SHARE);
        let second = workers.map(&partition.mine, |search, k| {
            split::walk(info, plan, search, &partition.subtrees[k], (k, 1), more[k])
        });
        for (&k, w) in partition.mine.iter().zip(second) {
            walked[k] = walked[k].pooled(w);
        }
    }
    walked.iter().map(|w| w.nodes).collect()
}

/// The walks per subtree for a solver that replays a prefix dearly (dancing links): with
/// [`split::probes_for`]'s 65 walks for each of its 3048 subtrees, `fila solve --engine
/// dlx --progress` spent about 24 s walking before a search of 1.5 s of the 10x6.
const REPLAYING_WALKS: usize = 4;

/// The share of the search's estimated attempts the progress display's second round of
/// walks may cost ([`split::more_walks`]; at most [`split::SECOND_ROUND_MOST`] times the
/// first round's walks). Measured by hand on two threads (AMD EPYC, session 52), the split
/// and both rounds together, the first round alone in brackets: 0.34 s (0.13 s) before
/// the one-sided 18x5 starts to search, for a search of 1.5 s; 0.11 s (0.10 s) before the
/// Tetris Cube, for 0.9 s; 1.5 s (0.14 s) before the 15x6, for 8.4 s; 2.0 s (0.19 s)
/// before the 10x9, for 7.8 minutes. A walk costs more per placement than the search.
const PROGRESS_WALKS_SHARE: f64 = 0.015;

/// What the threads add their subtrees to, under one lock.
struct Totals {
    /// Everything searched, a subtree cut short by a stop included.
    all: Tally,
    /// The finished subtrees only: what a checkpoint records.
    finished: Tally,
    done: Vec<bool>,
    done_count: usize,
    checkpoint: Option<Checkpoint>,
    /// How often the checkpoint is written (`--checkpoint-every`).
    checkpoint_every: Duration,
    last_write: Instant,
    progress: Progress,
}

impl Totals {
    fn new(beginning: Beginning, progress: Progress, checkpoint_every: Duration) -> Totals {
        Totals {
            all: beginning.tally.clone(),
            finished: beginning.tally,
            done: beginning.done,
            done_count: beginning.resumed,
            checkpoint: beginning.checkpoint,
            checkpoint_every,
            last_write: Instant::now(),
            progress,
        }
    }

    /// Adds what the search of subtree `k` found (`finished`: it ran to its end), shows
    /// the progress, and writes the checkpoint when it is due.
    fn add(&mut self, k: usize, ctx: &Context<'_>, finished: bool) {
        self.all.add(ctx);
        if finished {
            self.finished.add(ctx);
            self.done[k] = true;
            self.done_count += 1;
        }
        self.progress
            .finished(k, self.done_count, self.all.solutions);
        if self.checkpoint.is_some() && self.last_write.elapsed() >= self.checkpoint_every {
            self.write_checkpoint();
            self.last_write = Instant::now();
        }
    }

    /// Records the finished subtrees in the checkpoint, when the run keeps one. A failed
    /// write is a warning: the search goes on, and the next write may succeed.
    fn write_checkpoint(&mut self) {
        if let Some(c) = self.checkpoint.as_mut() {
            let f = &self.finished;
            c.record(&self.done, f.solutions, f.unique, &f.stats);
            if let Err(e) = c.write() {
                eprintln!("warning: {e}");
            }
        }
    }

    /// Ends the run: clears the progress display and writes the checkpoint a last time.
    /// Returns everything searched and the number of subtrees done.
    fn finish(mut self) -> (Tally, usize) {
        self.progress.finish();
        self.write_checkpoint();
        (self.all, self.done_count)
    }
}

/// Searches `subtree` (number `k`) with `search`, unless the run has stopped, and adds
/// what it found to `totals`.
fn search_subtree<'a>(
    shared: &'a SharedRun<'a>,
    totals: &Mutex<Totals>,
    search: &mut dyn Search,
    subtree: &Subtree,
    k: usize,
) {
    if shared.stopped() {
        return;
    }
    let mut ctx = Context::searching(shared, subtree.entry);
    search.solve_prefix(&subtree.prefix, &mut ctx);
    let finished = !shared.stopped();
    let mut totals = totals.lock().unwrap_or_else(|e| e.into_inner());
    totals.add(k, &ctx, finished);
}
