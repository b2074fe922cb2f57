//! The search driver: the runtime owns the subtrees (the first placements of the
//! search), the threads that search them, the solution filter, the listing, the
//! statistics, shards and checkpoints; a solver only finishes the search below one
//! prefix of placements.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::checkpoint::Checkpoint;
use crate::info::Pruning;
use crate::info::{Element, FirstInfo, PuzzleInfo};
use crate::options::{Options, Threshold};
use crate::output::{format_solution, Stats};
use crate::progress::Progress;
use crate::split::{self, Subtree};
use crate::symmetry::Canonical;

/// What a solver implements.
pub trait Search: Send {
    /// Places the images of `prefix` in order, then finds every completion below them and
    /// hands each to [`Context::report`] (all placed images, the prefix first). When
    /// [`Context::floor`] is not zero, a node with that many pieces left is handed to
    /// [`Context::cut`] instead of being searched.
    ///
    /// `prefix` is one first image of the plan, or a prefix that this solver handed to
    /// `cut`. A one-image prefix counts its own attempt and fit, a longer one counts
    /// nothing for its images (they were counted when it was cut). The solver adds its
    /// counts to `ctx.stats` before it returns, and stops early when `report` returns
    /// false.
    fn solve_prefix(&mut self, prefix: &[u16], ctx: &mut Context<'_>);

    /// A fresh solver for the same puzzle, for another thread.
    fn fork(&self) -> Box<dyn Search>;
}

/// Why a run could not start.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

/// The plan for one run, resolved from the options: which group, which first images,
/// which checks.
#[derive(Clone)]
pub struct Plan<'a> {
    pub symmetry_name: &'a str,
    pub group: &'a [Element],
    pub first: &'a FirstInfo,
    /// The filter is off (`-r .`).
    pub unfiltered: bool,
    /// The pruning in force: the solver's own, changed by the options.
    pub pruning: Pruning,
    /// A generated solver's switch from E to F (see [`crate::Order`]); zero for the
    /// dancing-links engine.
    pub f_from: usize,
    pub notes: Vec<String>,
}

impl<'a> Plan<'a> {
    pub fn resolve(info: &'a PuzzleInfo, options: &Options) -> Result<Plan<'a>, UsageError> {
        let mut notes = Vec::new();
        let symmetry = if options.mirror {
            match &info.mirror {
                Ok(m) => m,
                Err(refusal) if refusal.usage_error && options.redundancy != "." => {
                    return Err(UsageError(refusal.why.clone()))
                }
                Err(refusal) => {
                    notes.push(format!("{}; counting up to rotations", refusal.why));
                    &info.rotations
                }
            }
        } else {
            &info.rotations
        };
        let (first, unfiltered) = match options.redundancy.as_str() {
            "." => (&info.unfiltered, true),
            "#" => (&symmetry.filtered, false),
            name if name == symmetry.filtered.filter => (&symmetry.filtered, false),
            name => {
                return Err(UsageError(format!(
                    "-r {name}: this solver constrains '{}' (use -r # or -r ., or `fila solve -r {name}`)",
                    symmetry.filtered.filter
                )))
            }
        };
        let mut pruning = info.pruning;
        if let Some(on) = options.volume_filter {
            if on != pruning.volume_filter {
                // The images are the solver's: a generated solver carries them compiled in.
                notes.push(format!(
                    "-V={on} ignored: this solver's images were {} the volume filter (cargo xtask gen {}-V)",
                    if pruning.volume_filter { "built with" } else { "built without" },
                    if pruning.volume_filter { "without " } else { "with " },
                ));
            }
        }
        match options.volume_backtrack {
            Some(Threshold::Off) => pruning.volume_backtrack = None,
            Some(Threshold::Above(n)) => pruning.volume_backtrack = Some(n),
            None => {}
        }
        match options.parity {
            Some(false) => pruning.parity_backtrack = None,
            Some(true) => {
                pruning.parity_backtrack = Some(
                    pruning
                        .parity_backtrack
                        .or(pruning.volume_backtrack)
                        .unwrap_or(0),
                )
            }
            None => {}
        }
        let pieces = info.pieces_to_place();
        let f_from =
            match (info.order, options.f_from) {
                (None, None) => 0,
                (None, Some(_)) => return Err(UsageError(
                    "--f-from applies to generated solvers; this engine chooses by dancing links"
                        .to_string(),
                )),
                (Some(order), None) => order.f_from.min(pieces),
                (Some(order), Some(n)) if n < pieces && !order.e_stage => {
                    return Err(UsageError(format!(
                    "--f-from {n}: this solver was generated without the E stage, so it uses F \
                     throughout (cargo xtask gen --f-from {n}, or --e-stage)"
                )))
                }
                (Some(_), Some(n)) => n.min(pieces),
            };
        Ok(Plan {
            symmetry_name: &symmetry.name,
            group: &symmetry.group,
            first,
            unfiltered,
            pruning,
            f_from,
            notes,
        })
    }
}

/// Where listed solutions go: one writer for every thread, so that a solution is always
/// written whole, numbered in the order they are written.
struct Listing<'a> {
    /// Solutions accepted so far in the whole run (a resumed run starts from its
    /// checkpoint's count).
    accepted: u64,
    out: &'a mut (dyn Write + Send),
}

/// What every thread of one run shares.
pub struct Shared<'a> {
    info: &'a PuzzleInfo,
    plan: &'a Plan<'a>,
    quiet: bool,
    unique_only: bool,
    limit: Option<u64>,
    stop: AtomicBool,
    listing: Mutex<Listing<'a>>,
}

impl<'a> Shared<'a> {
    /// For searches that list nothing and stop nowhere: splitting and estimating.
    pub(crate) fn silent(
        info: &'a PuzzleInfo,
        plan: &'a Plan<'a>,
        out: &'a mut (dyn Write + Send),
    ) -> Shared<'a> {
        Shared {
            info,
            plan,
            quiet: true,
            unique_only: false,
            limit: None,
            stop: AtomicBool::new(false),
            listing: Mutex::new(Listing { accepted: 0, out }),
        }
    }

    fn new(
        info: &'a PuzzleInfo,
        plan: &'a Plan<'a>,
        options: &Options,
        accepted: u64,
        out: &'a mut (dyn Write + Send),
    ) -> Shared<'a> {
        Shared {
            info,
            plan,
            quiet: options.quiet,
            unique_only: options.unique,
            limit: options.limit,
            stop: AtomicBool::new(options.limit.is_some_and(|l| accepted >= l)),
            listing: Mutex::new(Listing { accepted, out }),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One solver's view of a run while it searches one subtree.
pub struct Context<'a> {
    pub info: &'a PuzzleInfo,
    pub stats: Stats,
    shared: &'a Shared<'a>,
    /// The index of the subtree's first image among the plan's first images.
    pub(crate) entry: usize,
    floor: usize,
    /// The prefixes handed to `cut`, one after another.
    cuts: Vec<u16>,
    pub solutions: u64,
    pub unique: u64,
    canonical: Canonical,
    text: String,
}

impl<'a> Context<'a> {
    pub(crate) fn new(shared: &'a Shared<'a>, entry: usize, floor: usize) -> Context<'a> {
        Context {
            info: shared.info,
            stats: Stats::new(shared.info.pieces_to_place()),
            shared,
            entry,
            floor,
            cuts: Vec::new(),
            solutions: 0,
            unique: 0,
            canonical: Canonical::default(),
            text: String::new(),
        }
    }

    /// The pruning in force for this run.
    pub fn pruning(&self) -> Pruning {
        self.shared.plan.pruning
    }

    /// A generated solver's search order: E while more than this many pieces are left,
    /// then F.
    pub fn f_from(&self) -> usize {
        self.shared.plan.f_from
    }

    /// Nodes with this many pieces left are cut off (handed to [`Context::cut`]); zero
    /// means search to the end.
    pub fn floor(&self) -> usize {
        self.floor
    }

    /// Takes the placements leading to a node at the floor.
    pub fn cut(&mut self, placed: &[u16]) {
        self.cuts.extend_from_slice(placed);
    }

    /// Takes one solution found by the solver. Returns false when the search must stop.
    pub fn report(&mut self, placed: &[u16]) -> bool {
        let shared = self.shared;
        if shared.stopped() {
            return false;
        }
        let plan = shared.plan;
        let group_len = plan.group.len();
        // The filter's own check: the stabiliser of the first image, or the whole group.
        if plan.first.full_check {
            if !self
                .canonical
                .is_least(self.info, placed, plan.group, 1..group_len)
            {
                return true;
            }
        } else if let Some(stab) = plan.first.stabilisers.get(self.entry) {
            if !stab.is_empty()
                && !self.canonical.is_least(
                    self.info,
                    placed,
                    plan.group,
                    stab.iter().map(|&k| k as usize),
                )
            {
                return true;
            }
        }
        let unique = !plan.unfiltered
            || self
                .canonical
                .is_least(self.info, placed, plan.group, 1..group_len);
        if shared.unique_only && !unique {
            return true;
        }
        if shared.quiet && shared.limit.is_none() {
            // Nothing to write and nothing to stop at: no need to take the lock.
            self.solutions += 1;
            self.unique += u64::from(unique);
            return true;
        }
        let mut listing = shared.listing.lock().unwrap_or_else(|e| e.into_inner());
        if shared.stopped() {
            return false;
        }
        listing.accepted += 1;
        self.solutions += 1;
        self.unique += u64::from(unique);
        if !shared.quiet {
            self.text.clear();
            format_solution(self.info, listing.accepted, placed, &mut self.text);
            if listing.out.write_all(self.text.as_bytes()).is_err() {
                // The reader went away (a closed pipe): nothing more can be said.
                shared.stop.store(true, Ordering::Relaxed);
                return false;
            }
        }
        if shared.limit.is_some_and(|l| listing.accepted >= l) {
            shared.stop.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    /// The children of `prefix` in the solver's own search order (each a prefix one
    /// image longer), found by searching `prefix` with the floor one level below it.
    pub(crate) fn children(
        &mut self,
        search: &mut dyn Search,
        prefix: &[u16],
    ) -> impl Iterator<Item = &[u16]> {
        let len = prefix.len() + 1;
        self.floor = self.info.pieces_to_place() - len;
        self.cuts.clear();
        search.solve_prefix(prefix, self);
        self.floor = 0;
        self.cuts.chunks_exact(len)
    }
}

/// The result of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub solutions: u64,
    pub unique: u64,
    pub stats: Stats,
    pub seconds: f64,
    pub threads: usize,
    /// Subtrees in the whole partition, and in this run's shard.
    pub subtrees: usize,
    pub searched: usize,
    /// Subtrees a resumed run found finished in its checkpoint.
    pub resumed: usize,
    /// The run stopped early (--limit, or the output went away).
    pub stopped: bool,
}

/// What the finished subtrees add up to, kept under one lock.
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

struct Totals {
    /// Everything searched, a subtree cut short by a stop included.
    all: Tally,
    /// The finished subtrees only: what a checkpoint records.
    finished: Tally,
    done: Vec<bool>,
    done_count: usize,
    checkpoint: Option<Checkpoint>,
    last_write: Instant,
    progress: Progress,
}

/// The worker threads for `options`: every core unless told otherwise.
fn thread_count(options: &Options) -> usize {
    match options.threads {
        Some(n) => n as usize,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// Runs `search` over every subtree of the plan, listing solutions to `out` and, with
/// `-i`, the statistics after them.
pub fn run(
    info: &PuzzleInfo,
    search: &mut dyn Search,
    options: &Options,
    out: &mut (dyn Write + Send),
) -> Result<Summary, UsageError> {
    let start = Instant::now();
    let plan = Plan::resolve(info, options)?;
    for note in &plan.notes {
        eprintln!("warning: {}: {note}", info.name);
    }
    if let Some(sampled) = options.estimate {
        if options.shard.is_some() || options.checkpoint.is_some() || options.resume.is_some() {
            return Err(UsageError(
                "--estimate runs on its own, without --shard, --checkpoint or --resume".to_string(),
            ));
        }
        return Ok(crate::estimate::run(
            info, &plan, search, options, sampled, out,
        ));
    }
    let threads = thread_count(options);
    let progress_wanted = Progress::wanted(options);
    let checkpoint_path = options.checkpoint.as_ref().or(options.resume.as_ref());
    // The plain one-thread run searches below each first image; anything that hands out
    // or records subtrees splits the search the same way every time, whatever the threads.
    let split =
        threads > 1 || options.shard.is_some() || checkpoint_path.is_some() || progress_wanted;
    let mut upper = Stats::new(info.pieces_to_place());
    let subtrees: Vec<Subtree> = if split {
        split::subtrees(info, &plan, search, options.subtrees as usize, &mut upper)
    } else {
        split::first_images(&plan)
    };
    let mine: Vec<usize> = match options.shard {
        Some(s) => (0..subtrees.len())
            .filter(|k| k % s.count == s.index - 1)
            .collect(),
        None => (0..subtrees.len()).collect(),
    };
    // The counts of the levels above the subtrees belong to one shard only.
    if options.shard.is_some_and(|s| s.index != 1) {
        upper = Stats::new(info.pieces_to_place());
    }

    let mut checkpoint = match checkpoint_path {
        Some(path) => {
            let fresh = Checkpoint::new(path, info, &plan, options, &subtrees);
            Some(match &options.resume {
                Some(from) => Checkpoint::resume(from, fresh).map_err(UsageError)?,
                None => fresh,
            })
        }
        None => None,
    };
    let mut done = vec![false; subtrees.len()];
    let mut start_tally = Tally {
        solutions: 0,
        unique: 0,
        stats: upper,
    };
    let mut resumed = 0;
    if let Some(c) = &checkpoint {
        if c.resumed() {
            for &k in &c.done {
                done[k] = true;
            }
            resumed = c.done.len();
            start_tally = Tally {
                solutions: c.solutions,
                unique: c.unique,
                stats: c.stats.clone(),
            };
        }
    }
    let solutions = start_tally.solutions;
    let todo: Vec<usize> = mine.iter().copied().filter(|&k| !done[k]).collect();

    // The worker threads, one solver each (locked only by its own thread).
    let pool = if threads > 1 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| UsageError(format!("cannot start {threads} threads: {e}")))?;
        let solvers: Vec<Mutex<Box<dyn Search>>> =
            (0..threads).map(|_| Mutex::new(search.fork())).collect();
        Some((pool, solvers))
    } else {
        None
    };
    // Runs `f` on a pool thread with that thread's solver.
    let with_solver = |solvers: &[Mutex<Box<dyn Search>>], f: &mut dyn FnMut(&mut dyn Search)| {
        let me = rayon::current_thread_index().unwrap_or(0) % solvers.len();
        let mut solver = solvers[me].lock().unwrap_or_else(|e| e.into_inner());
        f(solver.as_mut())
    };

    let mut weights = vec![0.0; subtrees.len()];
    if progress_wanted {
        let probes = split::probes_for(mine.len());
        let one =
            |s: &mut dyn Search, k: usize| split::estimate(info, &plan, s, &subtrees[k], k, probes);
        match &pool {
            Some((pool, solvers)) => {
                use rayon::prelude::*;
                let found: Vec<(usize, f64)> = pool.install(|| {
                    mine.par_iter()
                        .map(|&k| {
                            let mut w = 0.0;
                            with_solver(solvers, &mut |s| w = one(s, k));
                            (k, w)
                        })
                        .collect()
                });
                for (k, w) in found {
                    weights[k] = w;
                }
            }
            None => {
                for &k in &mine {
                    weights[k] = one(search, k);
                }
            }
        }
    }
    let progress = Progress::new(options, &weights, &mine, &done, solutions);

    let shared = Shared::new(info, &plan, options, solutions, out);
    let totals = Mutex::new(Totals {
        all: start_tally.clone(),
        finished: start_tally,
        done,
        done_count: resumed,
        checkpoint: checkpoint.take(),
        last_write: Instant::now(),
        progress,
    });
    let every = options.checkpoint_every;

    let body = |search: &mut dyn Search, k: usize| {
        if shared.stopped() {
            return;
        }
        let subtree = &subtrees[k];
        let mut ctx = Context::new(&shared, subtree.entry, 0);
        search.solve_prefix(&subtree.prefix, &mut ctx);
        let finished = !shared.stopped();
        let mut t = totals.lock().unwrap_or_else(|e| e.into_inner());
        t.all.add(&ctx);
        if finished {
            t.finished.add(&ctx);
            t.done[k] = true;
            t.done_count += 1;
        }
        let (solutions, done_count) = (t.all.solutions, t.done_count);
        t.progress.finished(k, done_count, solutions);
        if t.checkpoint.is_some() && t.last_write.elapsed() >= every {
            let t = &mut *t;
            if let Some(c) = t.checkpoint.as_mut() {
                let f = &t.finished;
                c.record(&t.done, f.solutions, f.unique, &f.stats);
                if let Err(e) = c.write() {
                    eprintln!("warning: {e}");
                }
            }
            t.last_write = Instant::now();
        }
    };

    match &pool {
        None => {
            for &k in &todo {
                body(search, k);
            }
        }
        Some((pool, solvers)) => {
            use rayon::prelude::*;
            pool.install(|| {
                todo.par_iter()
                    .for_each(|&k| with_solver(solvers, &mut |s| body(s, k)))
            });
        }
    }

    let stopped = shared.stopped();
    let Totals {
        all,
        finished,
        done,
        done_count,
        mut checkpoint,
        progress,
        ..
    } = totals.into_inner().unwrap_or_else(|e| e.into_inner());
    progress.finish();
    if let Some(c) = checkpoint.as_mut() {
        c.record(&done, finished.solutions, finished.unique, &finished.stats);
        if let Err(e) = c.write() {
            eprintln!("warning: {e}");
        }
    }
    let Tally {
        solutions,
        unique,
        stats,
    } = all;
    let mut listing = shared.listing.lock().unwrap_or_else(|e| e.into_inner());
    let out = &mut listing.out;
    let summary = Summary {
        solutions,
        unique,
        stats,
        seconds: start.elapsed().as_secs_f64(),
        threads,
        subtrees: subtrees.len(),
        searched: done_count - resumed,
        resumed,
        stopped,
    };
    if options.info {
        let text = format_info(info, &plan, options, &summary, mine.len());
        let _ = out.write_all(text.as_bytes());
    }
    let _ = out.flush();
    Ok(summary)
}

/// Appends the line `KEY=VALUE`.
pub(crate) fn kv(out: &mut String, key: &str, value: String) {
    out.push_str(&format!("{key}={value}\n"));
}

/// The part of the `-i` block that describes the puzzle and the plan, up to the first
/// images: the notes, `comment`, then `KEY=VALUE` lines.
pub(crate) fn format_header(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    options: &Options,
    comment: Option<&str>,
) -> String {
    let mut out = String::new();
    for note in &plan.notes {
        out.push_str(&format!("# {note}\n"));
    }
    if !options.polycube_switch.is_empty() || options.polycube_flag > 0 {
        out.push_str("# polycube's algorithm-tuning options were accepted and ignored\n");
    }
    if let Some(comment) = comment {
        out.push_str(&format!("# {comment}\n"));
    }
    let [x, y, z] = info.dims;
    kv(&mut out, "PUZZLE", info.name.clone());
    kv(&mut out, "ENGINE", info.engine.clone());
    kv(&mut out, "BOX", format!("{x}x{y}x{z}"));
    kv(&mut out, "CELLS", info.cells().to_string());
    kv(&mut out, "PIECES", info.pieces_to_place().to_string());
    kv(&mut out, "SHAPES", info.shape_pieces.len().to_string());
    kv(&mut out, "IMAGES", info.images.len().to_string());
    kv(&mut out, "SYMMETRY", plan.symmetry_name.to_string());
    kv(&mut out, "GROUP_ORDER", plan.group.len().to_string());
    kv(&mut out, "REDUNDANCY_FILTER", plan.first.filter.clone());
    let onoff = |b: bool| if b { "on" } else { "off" }.to_string();
    let above = |t: Option<usize>| t.map_or_else(|| "off".to_string(), |n| n.to_string());
    out.push_str("# Pruning: VOLUME_FILTER (-V), and the backtracks while more than N pieces are left (-v N, -p).\n");
    kv(&mut out, "VOLUME_FILTER", onoff(plan.pruning.volume_filter));
    kv(
        &mut out,
        "VOLUME_BACKTRACK",
        above(plan.pruning.volume_backtrack),
    );
    kv(
        &mut out,
        "PARITY_BACKTRACK",
        above(plan.pruning.parity_backtrack),
    );
    if info.order.is_some() {
        out.push_str("# Order: the E heuristic while more than F_FROM pieces are left, then F (--f-from N).\n");
        kv(&mut out, "F_FROM", plan.f_from.to_string());
    }
    kv(&mut out, "FIRST", plan.first.what.clone());
    kv(
        &mut out,
        "FIRST_IMAGES",
        plan.first.images.len().to_string(),
    );
    let checked = plan
        .first
        .stabilisers
        .iter()
        .filter(|s| !s.is_empty())
        .count();
    kv(
        &mut out,
        "FIRST_IMAGES_WITH_STABILISER_CHECK",
        checked.to_string(),
    );
    out
}

/// The `-i` block: `#` comments and `KEY=VALUE` lines.
pub fn format_info(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    options: &Options,
    summary: &Summary,
    in_shard: usize,
) -> String {
    let mut out = String::new();
    out.push_str(&format!("\n# {} ({})\n", info.name, info.engine));
    let stopped = "the search stopped early: the counts are partial";
    out.push_str(&format_header(
        info,
        plan,
        options,
        summary.stopped.then_some(stopped),
    ));
    out.push_str(
        "# The search is split into SUBTREES independent subtrees (the first placements).\n",
    );
    kv(&mut out, "SUBTREES", summary.subtrees.to_string());
    if let Some(shard) = options.shard {
        kv(&mut out, "SHARD", shard.to_string());
        kv(&mut out, "SHARD_SUBTREES", in_shard.to_string());
    }
    if summary.resumed > 0 {
        kv(&mut out, "RESUMED_SUBTREES", summary.resumed.to_string());
    }
    kv(&mut out, "THREADS", summary.threads.to_string());
    kv(&mut out, "SOLUTIONS", summary.solutions.to_string());
    kv(&mut out, "UNIQUE", summary.unique.to_string());
    kv(
        &mut out,
        "ATTEMPTS_TOTAL",
        summary.stats.attempts.iter().sum::<u64>().to_string(),
    );
    kv(
        &mut out,
        "FITS_TOTAL",
        summary.stats.fits.iter().sum::<u64>().to_string(),
    );
    out.push_str("# Placement attempts and fits when N pieces were left to place:\n");
    for n in (1..summary.stats.attempts.len()).rev() {
        out.push_str(&format!("ATTEMPTS[{n:2}]={}\n", summary.stats.attempts[n]));
    }
    for n in (1..summary.stats.fits.len()).rev() {
        out.push_str(&format!("FITS[{n:2}]={}\n", summary.stats.fits[n]));
    }
    kv(&mut out, "SECONDS", format!("{:.6}", summary.seconds));
    out
}
