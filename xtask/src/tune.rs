//! `cargo xtask gen --tune`: chooses a generated solver's search order (where it switches
//! from the E heuristic to F) and its default pruning (`-V`, `-v N`, `-p`) by measuring
//! the search in-process, on the run-time FILA engine (`puzzle::fila`, the engine of
//! `fila solve`: the kernels of the generated solvers over tables built at run time).
//!
//! The engine is set up once with the E stage (once more with the volume filter, when
//! the filter drops images), so that `--f-from`, `-v` and `-p` can be set at run time;
//! each setting is then measured by `runtime::run` with `--estimate`, as a generated
//! solver would be: Knuth's estimate of every subtree of the search and a timed full
//! search of an even sample of them (see `runtime::estimate`), read back from its report.
//! The sample is sized so that a measurement takes about [`BUDGET`] seconds of search; a
//! puzzle that small is searched whole, and timed. A search run whole is a run as the
//! solver's users make it, with the table of dead states, which `--estimate` leaves out.
//!
//! The filter piece of `-r #` is measured first, as `fila solve` measures it (Knuth's
//! walks, where the search is long enough to repay them), and kept for the rest. The
//! switch point is chosen next (swept with one volume-filter setting, the other measured
//! at the default and at the point chosen), then the volume backtrack (its thresholds
//! swept alike, only where testing at every level cuts placements), then the parity
//! backtrack, each keeping the best found so far. The settings of one step are measured
//! side by side, one per processor, each on a copy of the solver and timed by its own
//! thread's CPU time. The backtracks are measured on the subtrees and sample
//! of the search without them (`--estimate-split-unpruned`), so that what they save is
//! measured on the same work; one is kept only when it cuts the placements. Then the
//! defaults and the best few settings are measured again, searched whole when that takes
//! under [`WHOLE_BUDGET`] seconds, else on a sample eight times as large, and the fastest
//! of that round wins, where "fastest" takes
//! differences under [`MARGIN`] for noise and then prefers the default, and settings
//! that do less at run time. What the user gave on the command line is kept as given
//! and not tuned.

use std::io::Write;

use generator::Config;
use puzzle::model::{Puzzle, Redundancy};

/// Seconds of full search a measurement aims at. A sampled measurement also splits the
/// search and walks down every subtree (Knuth's estimate), about 0.15 s on the
/// pentominoes and square tetromino in 8x8 and 0.4 to 0.7 s on the one-sided 18x5, so a
/// larger sample buys little: tuning that 8x8 (50 settings in the first round, the
/// final round searched whole) took 19.3 s at 0.5 s (samples of 432 of its 1,466
/// subtrees), 15.4 s at 0.1 s (77), 14.4 s at 0.05 s (38), and chose E above 3 pieces
/// each time. A search this short is searched whole, best of up to 10 runs.
pub const BUDGET: f64 = 0.1;
/// The fewest subtrees a measurement searches in full. The first round only nominates
/// the finalists, and the final round measures them again on a larger sample or whole.
/// On the one-sided 18x5 with `-r #` (a new puzzle's filter piece: 1,049 subtrees, 44
/// to 69 s of search each setting), the first round's 70 measurements took 88 s with
/// samples of 32 subtrees and 45 s with 8; both times the final round chose F throughout
/// with the volume filter.
const MIN_SAMPLE: usize = 8;
/// Settings measured again in the final round.
const FINALISTS: usize = 3;
/// The switch point is swept at every this many points, then at every point near the
/// best of those: on the one-sided 18x5, at most 11 measurements rather than 18.
const COARSE_STEP: usize = 3;
/// Seconds of search (by the first round's estimates) the final round may spend
/// searching every finalist whole; beyond that it measures eight times the sample.
///
/// Estimates compare badly across switch points: each order splits the search into
/// other subtrees. On the one-sided 18x5 (the hand-over to 64 bits built), E above 16
/// pieces was estimated at 14.2 s against 19.8 s for F throughout, on 704 of its 3,421
/// subtrees; searched whole, side by side, they took 17.47 and 17.18 s. With `-r #`, E
/// above 15 pieces (5,047 subtrees) was estimated at 11, 25 and 88 s on 32, 160 and 320
/// of them, and took 57 s whole. The run-time engine takes 1.15 to 1.5 times as long
/// as a generated solver, and with `-r #` the 18x5's finalists were estimated at 113
/// to 138 s in all (163 to 300 s searched whole): so twice the 150 s that sufficed when
/// tuning measured generated solvers, for the 18x5 to be searched whole in any draw.
pub const WHOLE_BUDGET: f64 = 300.0;

/// The settings given on the command line, which tuning keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    pub f_from: bool,
    pub volume_filter: bool,
    pub volume_backtrack: bool,
    pub parity: bool,
}

/// One setting of the tuned options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub volume_filter: bool,
    pub f_from: usize,
    pub volume_backtrack: Option<usize>,
    /// The parity backtrack, at the volume backtrack's threshold (every level without it).
    pub parity: bool,
}

impl Setting {
    /// The solver's run-time options for this setting.
    fn args(&self) -> Vec<String> {
        vec![
            "--f-from".to_string(),
            self.f_from.to_string(),
            "-v".to_string(),
            self.volume_backtrack
                .map_or_else(|| "off".to_string(), |n| n.to_string()),
            format!("-p={}", self.parity),
        ]
    }

    /// The generator options that make this setting the solver's default.
    fn apply(&self, base: &Config) -> Config {
        let mut config = base.clone();
        config.e_stage = false;
        config.f_from = Some(self.f_from);
        config.pruning.volume_filter = self.volume_filter;
        config.pruning.volume_backtrack = self.volume_backtrack;
        config.pruning.parity_backtrack = self.parity.then(|| self.volume_backtrack.unwrap_or(0));
        config
    }
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "-V={:<5} --f-from {:<2} -v {:<3} -p={:<5}",
            self.volume_filter,
            self.f_from,
            self.volume_backtrack
                .map_or_else(|| "off".to_string(), |n| n.to_string()),
            self.parity
        )
    }
}

/// What tuning chose, and how to see that the solver generated with it searches as the
/// run-time engine did ([`check`]).
#[derive(Clone, Debug)]
pub struct Tuned {
    pub config: Config,
    /// A measurement of the chosen setting, the one [`check`] repeats: the first round's,
    /// on a sample, where there is one (a second or so), else the final round's.
    pub winner: Measured,
    /// The arguments of that measurement, the setting's own options included.
    pub args: Vec<String>,
    /// Whether that measurement searched the whole tree (else an estimate on a sample).
    pub whole: bool,
}

/// One measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    pub setting: Setting,
    /// One thread's estimated time for the whole search.
    pub seconds: f64,
    pub fits: f64,
    pub subtrees: usize,
}

/// The run-time engine set up for one volume-filter setting: the puzzle's description
/// and a solver with the E stage, so that every other tuned option is a run-time option.
/// Each measurement runs on a copy of the solver ([`runtime::Search::fork`]: the same
/// tables, state of its own, no table of dead states yet), so that measurements can run
/// side by side and none inherits what an earlier one kept.
struct Engine {
    volume_filter: bool,
    info: runtime::PuzzleInfo,
    search: Box<dyn runtime::Search>,
}

impl Engine {
    /// `puzzle` with the filter piece `redundancy`, as `fila solve` sets it up (and a
    /// generated solver describes itself).
    fn new(
        puzzle: &Puzzle,
        redundancy: &Redundancy,
        volume_filter: bool,
    ) -> Result<Engine, String> {
        let mut puzzle = puzzle.clone();
        if volume_filter {
            puzzle.volume_filter();
        }
        puzzle.parity_filter();
        // The switch is set by every run (`--f-from`): only the E stage must be there.
        let ir = puzzle::fila::lower(&puzzle, puzzle.mobile_pieces(), true).map_err(|e| e.0)?;
        let mut info = puzzle::info::puzzle_info(&puzzle, redundancy, &puzzle::fila::describe(&ir))
            .map_err(|e| e.0)?;
        info.pruning = runtime::Pruning {
            volume_filter,
            ..Default::default()
        };
        info.order = Some(runtime::Order {
            f_from: ir.f_from,
            e_stage: ir.e_stage.is_some(),
        });
        Ok(Engine {
            volume_filter,
            info,
            search: puzzle::fila::solver(&ir),
        })
    }
}

/// The engine for the volume-filter setting `filter`.
fn engine_for(engines: &[Engine], filter: bool) -> &Engine {
    engines
        .iter()
        .find(|e| e.volume_filter == filter)
        .expect("an engine per filter setting")
}

/// How many measurements run side by side: one per processor this process may use
/// (`taskset` limits it). Each is timed by its own thread's CPU time, so measurements
/// made together compare as if made one after the other. The one-sided 18x5's solver,
/// one thread, alone and two copies at once on the two cores here (user seconds, three
/// draws): 6.10, 5.68, 5.19 alone; 5.93 and 6.53, 5.93 and 5.99, 5.09 and 5.56 together.
fn side_by_side() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A thread's copy of an [`Engine`].
struct Mine<'e> {
    volume_filter: bool,
    info: &'e runtime::PuzzleInfo,
    search: Box<dyn runtime::Search>,
}

/// Measures each of `settings` as [`measure`] does, up to [`side_by_side`] at once;
/// the measurements in the order of `settings`.
fn measure_all(
    engines: &[Engine],
    settings: &[Setting],
    sample: usize,
    repeats: usize,
) -> Result<Vec<Measured>, String> {
    let next = &std::sync::atomic::AtomicUsize::new(0);
    let done: &Vec<std::sync::Mutex<Option<Result<Measured, String>>>> =
        &settings.iter().map(|_| Default::default()).collect();
    std::thread::scope(|scope| {
        for _ in 0..side_by_side().min(settings.len()) {
            // A solver is used by one thread at a time: each thread copies its own.
            let mine: Vec<Mine> = engines
                .iter()
                .map(|e| Mine {
                    volume_filter: e.volume_filter,
                    info: &e.info,
                    search: e.search.fork(),
                })
                .collect();
            scope.spawn(move || loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(setting) = settings.get(k) else {
                    break;
                };
                let engine = mine
                    .iter()
                    .find(|e| e.volume_filter == setting.volume_filter)
                    .expect("an engine per filter setting");
                let m = measure(
                    engine.info,
                    engine.search.as_ref(),
                    setting,
                    sample,
                    repeats,
                );
                let failed = m.is_err();
                *done[k].lock().unwrap_or_else(|e| e.into_inner()) = Some(m);
                if failed {
                    // The first error is what is reported: no need to measure the rest.
                    next.store(settings.len(), std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
    });
    done.iter()
        .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).take())
        // A setting left unmeasured follows one that failed.
        .map_while(|m| m)
        .collect()
}

/// Measures `setting` on copies of the solver `search` for `info` with a sample of
/// `sample` subtrees, `repeats` times; keeps the least time.
fn measure(
    info: &runtime::PuzzleInfo,
    search: &dyn runtime::Search,
    setting: &Setting,
    sample: usize,
    repeats: usize,
) -> Result<Measured, String> {
    let mut best = measure_once(info, search, setting, sample)?;
    for _ in 1..repeats {
        let m = measure_once(info, search, setting, sample)?;
        if m.seconds < best.seconds {
            best = m;
        }
    }
    Ok(best)
}

/// One run of `--estimate=sample` with `setting`'s options, read back from its report;
/// with every subtree (`usize::MAX`), a run of the whole search as a user's would be
/// ([`measure_whole`]).
fn measure_once(
    info: &runtime::PuzzleInfo,
    search: &dyn runtime::Search,
    setting: &Setting,
    sample: usize,
) -> Result<Measured, String> {
    if sample == usize::MAX {
        return measure_whole(info, search, setting);
    }
    run_setting(info, search, setting, arguments(sample), |report, _| {
        Ok((report.estimated_seconds()?, report.estimated_fits()?))
    })
}

/// The options of a measurement on `sample` subtrees (`usize::MAX`: a whole search),
/// before the setting's own.
fn arguments(sample: usize) -> Vec<String> {
    if sample == usize::MAX {
        // One thread, which is the calling thread: its CPU time is the measure.
        ["-q", "-i", "-j", "1"].map(String::from).to_vec()
    } else {
        // Split and walked without the backtracks, so that settings that differ only in
        // their backtracks are measured on the same subtrees, pairwise. (An estimate runs
        // on the calling thread, whatever `--threads` says, and times itself by its CPU
        // time.)
        vec![
            format!("--estimate={sample}"),
            "--estimate-split-unpruned".to_string(),
        ]
    }
}

/// One run of the whole search with `setting`'s options and the run's defaults besides,
/// the table of dead states among them: what the solver will be run with. `--estimate`
/// leaves the table out (its savings depend on what the search met before, so a sample
/// cannot show them), and it cuts the one-sided 18x5's placements tenfold.
fn measure_whole(
    info: &runtime::PuzzleInfo,
    search: &dyn runtime::Search,
    setting: &Setting,
) -> Result<Measured, String> {
    run_setting(
        info,
        search,
        setting,
        arguments(usize::MAX),
        |report, cpu| Ok((cpu, report.fits_total()? as f64)),
    )
}

/// Runs a copy of the solver `search` for `info` with `args` and `setting`'s options, and
/// reads the seconds and placements of the measurement off its report with `read` (given
/// the report and the CPU seconds the calling thread spent in the run).
fn run_setting(
    info: &runtime::PuzzleInfo,
    search: &dyn runtime::Search,
    setting: &Setting,
    mut args: Vec<String>,
    read: impl Fn(&runtime::report::Report, f64) -> Result<(f64, f64), runtime::report::ReportError>,
) -> Result<Measured, String> {
    args.extend(setting.args());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let options = runtime::Options::from_args(&args)?;
    let mut search = search.fork();
    let mut out = Vec::new();
    let start = runtime::estimate::thread_seconds();
    runtime::run(info, search.as_mut(), &options, &mut out)
        .map_err(|e| format!("{setting}: {}", e.0))?;
    let cpu = runtime::estimate::thread_seconds() - start;
    let text = String::from_utf8_lossy(&out);
    let unread = |e: runtime::report::ReportError| format!("{setting}: {e} in its report:\n{text}");
    let report = runtime::report::Report::parse(&text).map_err(unread)?;
    let (seconds, fits) = read(&report, cpu).map_err(unread)?;
    Ok(Measured {
        setting: setting.clone(),
        seconds,
        fits,
        subtrees: report.subtrees().map_err(unread)? as usize,
    })
}

/// The sample that makes a measurement take about [`BUDGET`] seconds, from a first
/// measurement: everything when the whole search is that short.
pub fn sample_size(first: &Measured) -> usize {
    let per_subtree = first.seconds / first.subtrees.max(1) as f64;
    if per_subtree <= 0.0 {
        return first.subtrees;
    }
    ((BUDGET / per_subtree).ceil() as usize).clamp(MIN_SAMPLE.min(first.subtrees), first.subtrees)
}

/// The final round's sample and repeats, from the first round's (`usize::MAX`: the whole
/// search) and the estimated seconds of searching every finalist whole.
pub fn final_round(sample: usize, repeats: usize, whole: f64) -> (usize, usize) {
    if sample == usize::MAX {
        (sample, repeats.max(2))
    } else if whole <= WHOLE_BUDGET {
        (usize::MAX, 1)
    } else {
        (sample * 8, 2)
    }
}

/// The fastest measurement, the first among equals.
pub fn fastest(measured: &[Measured]) -> Option<&Measured> {
    measured
        .iter()
        .reduce(|best, m| if m.seconds < best.seconds { m } else { best })
}

/// The points of a sweep (switch points, volume-backtrack thresholds) measured first:
/// every [`COARSE_STEP`]th of `points` (in order), and the last. Then [`near`] the best
/// of them.
pub fn coarse<T: Copy>(points: &[T]) -> Vec<T> {
    points
        .iter()
        .enumerate()
        .filter(|&(k, _)| k % COARSE_STEP == 0 || k + 1 == points.len())
        .map(|(_, &f)| f)
        .collect()
}

/// The points of `points` within [`COARSE_STEP`]` - 1` places of `best` on either side,
/// which the coarse sweep skipped.
pub fn near<T: Copy + PartialEq>(points: &[T], best: T) -> Vec<T> {
    let at = points.iter().position(|&f| f == best).unwrap_or(0);
    let reach = COARSE_STEP - 1;
    let skipped = coarse(points);
    points[at.saturating_sub(reach)..(at + reach + 1).min(points.len())]
        .iter()
        .copied()
        .filter(|f| !skipped.contains(f))
        .collect()
}

/// The thresholds tried for the volume backtrack: off, and every level from which it can
/// apply (with `pieces - 2` or more it never would: a backtrack applies while more than
/// its threshold are left, and the first piece is placed before any test).
pub fn thresholds(pieces: usize) -> Vec<Option<usize>> {
    std::iter::once(None)
        .chain((0..pieces.saturating_sub(2)).map(Some))
        .collect()
}

/// Measured differences smaller than this fraction are taken for noise.
pub const MARGIN: f64 = 0.05;

/// Whether the pruning of `m` cuts the placements of `without` (the same setting without
/// it) down by more than a percent: otherwise its tests are pure cost.
pub fn prunes(m: &Measured, without: &Measured) -> bool {
    m.fits < without.fits * 0.99
}

/// How much a setting does at run time, for choosing between settings whose times differ
/// by less than [`MARGIN`]: the parity backtrack, then the volume backtrack at more
/// levels, cost more.
fn work(setting: &Setting) -> (bool, usize) {
    (
        setting.parity,
        setting.volume_backtrack.map_or(0, |n| usize::MAX - n),
    )
}

/// The setting to keep from `round`: the fastest, unless settings within [`MARGIN`] of it
/// do less at run time or are `preferred` (the default, or the best so far); then the
/// fastest of those.
pub fn choose<'m>(
    round: &'m [Measured],
    preferred: &dyn Fn(&Setting) -> bool,
) -> Option<&'m Measured> {
    let best = fastest(round)?;
    round
        .iter()
        .filter(|m| m.seconds <= best.seconds * (1.0 + MARGIN))
        .min_by(|a, b| {
            work(&a.setting)
                .cmp(&work(&b.setting))
                .then(preferred(&b.setting).cmp(&preferred(&a.setting)))
                .then(a.seconds.total_cmp(&b.seconds))
        })
}

/// `base` with `-r #` made a piece: the one `fila solve` would carry the filter on, which
/// it measures by Knuth's walks where the search is long enough to repay them
/// (`puzzle::solve`), so that the generated solver is tuned and built for the piece the
/// run-time engine found best. A piece given or recorded is kept, and so is `-r #` where
/// nothing was measured (the search is short, or the run-time engine cannot take the
/// puzzle: tuning's own set-up then says why).
fn measured_filter(label: &str, puzzle: &Puzzle, base: &Config, log: &mut dyn Write) -> Config {
    if base.redundancy != Redundancy::Auto {
        return base.clone();
    }
    let start = std::time::Instant::now();
    let chosen = runtime::Options::from_args(&["-q"])
        .ok()
        .and_then(|options| {
            puzzle::solve::prepare(
                puzzle.clone(),
                &options,
                Some(puzzle::limits::Engine::Fila),
                &puzzle::limits::Limits::default(),
            )
            .ok()?
            .measured_filter
        });
    let mut config = base.clone();
    match chosen {
        Some(choice) => {
            let name = puzzle.pieces[choice.piece].name.clone();
            let _ = writeln!(
                log,
                "{label}: -r {name}, measured in {:.1} s: {}",
                start.elapsed().as_secs_f64(),
                choice.why
            );
            config.redundancy = Redundancy::Piece(name);
        }
        None => {
            let _ = writeln!(
                log,
                "{label}: -r # (the filter piece not measured: the search is short, or not on the run-time FILA engine)"
            );
        }
    }
    config
}

/// Tunes the solver for the puzzle `text` (named `label`), starting from `base` and
/// keeping what `fixed` says was given. Writes the measurements to `log`; returns the
/// options to generate with, and the measurement they won with.
pub fn tune(
    label: &str,
    text: &str,
    base: &Config,
    fixed: Fixed,
    log: &mut dyn Write,
) -> Result<Tuned, String> {
    // The puzzle's own errors come out as generation would report them.
    generator::generate(label, text, base).map_err(|d| generator::diag::render(&d, text))?;
    let puzzles = puzzle::load(label, text).map_err(|d| puzzle::diag::render(&d, text))?;
    let puzzle = &puzzles[0];
    let base = &measured_filter(label, puzzle, base, log);
    let pieces = puzzle.mobile_pieces();
    let filters = if fixed.volume_filter {
        vec![base.pruning.volume_filter]
    } else if puzzle.clone().volume_filter() > 0 {
        vec![false, true]
    } else {
        // The filter drops nothing here: it cannot change the search.
        vec![false]
    };
    let start = std::time::Instant::now();
    let engines = filters
        .iter()
        .map(|&filter| Engine::new(puzzle, &base.redundancy, filter))
        .collect::<Result<Vec<Engine>, String>>()
        .map_err(|why| format!("{label}: cannot tune on the run-time engine: {why}"))?;
    let _ = writeln!(
        log,
        "{label}: the run-time engine set up in {:.1} s ({})",
        start.elapsed().as_secs_f64(),
        engines[0].info.engine
    );

    let default_f_from = base
        .f_from
        .unwrap_or_else(|| puzzle::lower::default_f_from(puzzle))
        .min(pieces);
    let first = Setting {
        volume_filter: filters[0],
        f_from: default_f_from,
        volume_backtrack: if fixed.volume_backtrack {
            base.pruning.volume_backtrack
        } else {
            None
        },
        parity: fixed.parity && base.pruning.parity_backtrack.is_some(),
    };
    let engine = engine_for(&engines, first.volume_filter);
    let probe = measure(&engine.info, engine.search.as_ref(), &first, MIN_SAMPLE, 1)?;
    // A search shorter than the budget is searched whole, whatever the setting's split.
    let sample = match sample_size(&probe) {
        n if n >= probe.subtrees => usize::MAX,
        n => n,
    };
    // A search shorter than the budget is run whole, several times.
    let repeats = if sample == usize::MAX {
        (BUDGET / probe.seconds.max(1e-6)).clamp(1.0, 10.0) as usize
    } else {
        1
    };
    let _ = writeln!(
        log,
        "{label}: {pieces} pieces, {} subtrees; each setting {}, best of {repeats} \
         (one thread's seconds, placements that fit; up to {} measured at once):",
        probe.subtrees,
        if sample == usize::MAX {
            "searched whole".to_string()
        } else {
            format!("estimated with {sample} subtrees searched in full")
        },
        side_by_side()
    );
    let mut all: Vec<Measured> = Vec::new();
    // Measures the settings not measured yet, side by side, and logs them; returns the
    // measurement of each setting asked for, in order.
    let run = |settings: Vec<Setting>,
               all: &mut Vec<Measured>,
               log: &mut dyn Write|
     -> Result<Vec<Measured>, String> {
        let mut todo: Vec<Setting> = Vec::new();
        for s in &settings {
            if !todo.contains(s) && !all.iter().any(|m| m.setting == *s) {
                todo.push(s.clone());
            }
        }
        for m in measure_all(&engines, &todo, sample, repeats)? {
            let _ = writeln!(
                log,
                "  {}  {:>10.4} s  {:>14.0}",
                m.setting, m.seconds, m.fits
            );
            all.push(m);
        }
        Ok(settings
            .iter()
            .map(|s| {
                all.iter()
                    .find(|m| m.setting == *s)
                    .expect("measured")
                    .clone()
            })
            .collect())
    };
    // With F from `pieces - 1` on, every level below the first uses F: one setting.
    let f_froms: Vec<usize> = if fixed.f_from {
        vec![default_f_from]
    } else {
        (0..pieces.saturating_sub(1)).chain([pieces]).collect()
    };
    // `setting` with the parity backtrack, where tuning may add it.
    let with_parity = |setting: &Setting| {
        (!fixed.parity && !setting.parity).then(|| Setting {
            parity: true,
            ..setting.clone()
        })
    };
    // The settings still in the running: a backtrack that does not cut the placements
    // down can only cost time, however its measurement came out.
    let mut contenders: Vec<Measured> = Vec::new();
    // The switch point the sweep with the first filter setting chose.
    let mut swept: Option<usize> = None;
    for &filter in &filters {
        let unpruned = Setting {
            volume_filter: filter,
            ..first.clone()
        };
        // The default first: it stays unless another is clearly faster. The switch
        // point is swept with the first filter setting only, coarsely and then near the
        // best; the other filter setting is measured at the default and at the point
        // that sweep chose (the filter drops images that fit nowhere, which changes
        // little of where E stops paying).
        let others = match swept {
            None => coarse(&f_froms),
            Some(f) => vec![f],
        };
        let at = |f_from: usize| Setting {
            f_from,
            ..unpruned.clone()
        };
        let points = std::iter::once(default_f_from)
            .chain(others.into_iter().filter(|&f| f != default_f_from));
        let mut round = run(points.map(at).collect(), &mut all, log)?;
        let mut best = choose(&round, &|s| s.f_from == default_f_from)
            .expect("a setting")
            .clone();
        if swept.is_none() {
            let near = near(&f_froms, best.setting.f_from);
            round.extend(run(near.into_iter().map(at).collect(), &mut all, log)?);
            best = choose(&round, &|s| s.f_from == default_f_from)
                .expect("a setting")
                .clone();
        }
        swept.get_or_insert(best.setting.f_from);
        contenders.extend(round);
        let levels = thresholds(pieces);
        if !fixed.volume_backtrack && levels.len() > 1 {
            let mut round = vec![best.clone()];
            // Testing at every level (`-v 0`) first: the placements fall as the
            // backtrack tests more levels (exactly so where a sample is searched, without
            // the table of dead states), so where it cuts too few, no threshold cuts more.
            let with = |volume_backtrack: Option<usize>| Setting {
                volume_backtrack,
                ..best.setting.clone()
            };
            // The parity backtrack on the incumbent beside it, so that the two share the
            // processors: where no threshold wins, it is the setting parity is tried on.
            let mut first = vec![with(Some(0))];
            first.extend(with_parity(&best.setting));
            let every_level = run(first, &mut all, log)?.remove(0);
            let incumbent = round[0].setting.clone();
            if prunes(&every_level, &best) {
                // Swept as the switch point is: coarsely, then near the best.
                let measured = run(
                    coarse(&levels).into_iter().map(with).collect(),
                    &mut all,
                    log,
                )?;
                round.extend(measured.into_iter().filter(|m| prunes(m, &best)));
                let chosen = choose(&round, &|s| *s == incumbent).expect("a setting");
                let near = near(&levels, chosen.setting.volume_backtrack);
                let measured = run(near.into_iter().map(with).collect(), &mut all, log)?;
                round.extend(measured.into_iter().filter(|m| prunes(m, &best)));
            }
            best = choose(&round, &|s| *s == incumbent)
                .expect("a setting")
                .clone();
            contenders.extend(round);
        }
        if let Some(parity) = with_parity(&best.setting) {
            let m = run(vec![parity], &mut all, log)?.remove(0);
            if prunes(&m, &best) {
                contenders.push(m);
            }
        }
    }
    // The best few again, searched whole if that is short enough, else on a sample eight
    // times as large:
    // the fastest of many noisy measurements is likely to have been lucky. Each finalist's setting
    // without the backtracks tuning added is measured too: a backtrack must be seen to
    // cut placements in the larger measurement as well.
    contenders.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    contenders.dedup_by(|a, b| a.setting == b.setting);
    contenders.truncate(FINALISTS);
    let unpruned = |s: &Setting| Setting {
        volume_backtrack: if fixed.volume_backtrack {
            s.volume_backtrack
        } else {
            None
        },
        parity: fixed.parity && s.parity,
        ..s.clone()
    };
    // The defaults first (for each volume filter setting): a change must beat them in
    // the larger measurement too, by more than the margin.
    let mut settings: Vec<Setting> = filters
        .iter()
        .map(|&volume_filter| Setting {
            volume_filter,
            ..first.clone()
        })
        .collect();
    for m in &contenders {
        for s in [m.setting.clone(), unpruned(&m.setting)] {
            if !settings.contains(&s) {
                settings.push(s);
            }
        }
    }
    // What searching every finalist whole would take, by the first round's estimates
    // (the slowest estimate for a setting the first round did not measure).
    let slowest = contenders
        .iter()
        .map(|m| m.seconds)
        .fold(probe.seconds, f64::max);
    let whole: f64 = settings
        .iter()
        .map(|s| {
            all.iter()
                .find(|m| m.setting == *s)
                .map_or(slowest, |m| m.seconds)
        })
        .sum();
    let (again, final_repeats) = final_round(sample, repeats, whole);
    let _ = writeln!(
        log,
        "the defaults and the best {} again, with the same without backtracks ({}):",
        contenders.len(),
        if again == usize::MAX {
            "searched whole"
        } else {
            "on eight times the sample"
        }
    );
    let finals = measure_all(&engines, &settings, again, final_repeats)?;
    for f in &finals {
        let _ = writeln!(
            log,
            "  {}  {:>10.4} s  {:>14.0}",
            f.setting, f.seconds, f.fits
        );
    }
    let finals: Vec<Measured> = finals
        .iter()
        .filter(|f| {
            let base = unpruned(&f.setting);
            base == f.setting
                || finals
                    .iter()
                    .find(|g| g.setting == base)
                    .is_some_and(|g| prunes(f, g))
        })
        .cloned()
        .collect();
    let is_default = |s: &Setting| s.f_from == first.f_from && *s == unpruned(s);
    let winner = choose(&finals, &is_default).expect("finalists").clone();
    let mut config = winner.setting.apply(base);
    if fixed.parity {
        // As given, threshold included (measured at the run-time `-p`'s threshold).
        config.pruning.parity_backtrack = base.pruning.parity_backtrack;
    }
    let _ = writeln!(
        log,
        "chosen: {} ({} settings measured in {:.1} s)",
        config.options(),
        all.len(),
        start.elapsed().as_secs_f64()
    );
    let (winner, sample) = match all.iter().find(|m| m.setting == winner.setting) {
        Some(m) if sample != usize::MAX => (m.clone(), sample),
        _ => (winner, again),
    };
    let mut args = arguments(sample);
    args.extend(winner.setting.args());
    Ok(Tuned {
        config,
        winner,
        args,
        whole: sample == usize::MAX,
    })
}

/// Runs `exe`, the solver generated with what tuning chose, as the final round measured
/// the choice on the run-time engine, and compares the two: the same lowering and the
/// same kernels must search the same tree, so the placements (and the subtrees) are
/// equal to the last one, whatever the times. Returns a line saying so and what each
/// took, or why the two differ.
pub fn check(exe: &std::path::Path, tuned: &Tuned) -> Result<String, String> {
    let started = std::time::Instant::now();
    let output = std::process::Command::new(exe)
        .args(&tuned.args)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    let wall = started.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&output.stdout);
    let run = format!("{} {}", exe.display(), tuned.args.join(" "));
    if !output.status.success() {
        return Err(format!(
            "{run} failed ({}):\n{}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let unread = |e: runtime::report::ReportError| format!("{run}: {e} in its report:\n{text}");
    let report = runtime::report::Report::parse(&text).map_err(unread)?;
    let (fits, seconds) = if tuned.whole {
        (report.fits_total().map_err(unread)? as f64, wall)
    } else {
        (
            report.estimated_fits().map_err(unread)?,
            report.estimated_seconds().map_err(unread)?,
        )
    };
    let subtrees = report.subtrees().map_err(unread)? as usize;
    let m = &tuned.winner;
    if (fits - m.fits).abs() > 1e-9 * m.fits.max(1.0) || subtrees != m.subtrees {
        return Err(format!(
            "{run}: {fits} placements in {subtrees} subtrees, where the run-time engine \
             measured {} in {}: the generated solver does not search as the engine it was \
             tuned on",
            m.fits, m.subtrees
        ));
    }
    Ok(format!(
        "checked: {run}: {fits:.0} placements{}, as the run-time engine; {seconds:.4} s{} \
         (the run-time engine: {:.4} s of one thread)",
        if tuned.whole { "" } else { " estimated" },
        if tuned.whole {
            " (wall, whole process)"
        } else {
            " estimated"
        },
        m.seconds
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(seconds: f64, f_from: usize) -> Measured {
        Measured {
            setting: Setting {
                volume_filter: false,
                f_from,
                volume_backtrack: None,
                parity: false,
            },
            seconds,
            fits: 0.0,
            subtrees: 1000,
        }
    }

    #[test]
    fn the_fastest_wins_and_the_first_among_equals() {
        let m = [
            measured(2.0, 1),
            measured(1.0, 2),
            measured(1.0, 3),
            measured(3.0, 4),
        ];
        assert_eq!(fastest(&m).unwrap().setting.f_from, 2);
        assert!(fastest(&[]).is_none());
    }

    #[test]
    fn samples_take_about_the_budget() {
        // 1000 subtrees of 10 ms each: 10 of them make a tenth of a second.
        assert_eq!(sample_size(&measured(10.0, 0)), 10);
        // A search shorter than the budget is searched whole.
        assert_eq!(sample_size(&measured(0.05, 0)), 1000);
        // A long one still samples a few subtrees.
        assert_eq!(sample_size(&measured(1e6, 0)), MIN_SAMPLE);
    }

    #[test]
    fn the_final_round_searches_whole_what_is_short_enough() {
        // Searched whole from the start: again, at least twice.
        assert_eq!(final_round(usize::MAX, 1, 0.1), (usize::MAX, 2));
        assert_eq!(final_round(usize::MAX, 5, 0.1), (usize::MAX, 5));
        // Sampled: whole while the finalists fit the budget, else eight times the sample.
        assert_eq!(final_round(88, 1, WHOLE_BUDGET), (usize::MAX, 1));
        assert_eq!(final_round(88, 1, WHOLE_BUDGET + 1.0), (704, 2));
    }

    #[test]
    fn the_switch_point_is_swept_coarsely_then_near_the_best() {
        // The one-sided 18x5: F from 0 to 16 pieces left, and F throughout (18).
        let points: Vec<usize> = (0..17).chain([18]).collect();
        assert_eq!(coarse(&points), [0, 3, 6, 9, 12, 15, 18]);
        assert_eq!(near(&points, 15), [13, 14, 16]);
        assert_eq!(near(&points, 18), [16]);
        assert_eq!(near(&points, 0), [1, 2]);
        assert_eq!(near(&points, 7), [5, 7, 8]);
        // Every point is measured, one way or the other, near the best.
        for best in coarse(&points) {
            let at = points.iter().position(|&f| f == best).unwrap();
            for &f in &points[at.saturating_sub(2)..(at + 3).min(points.len())] {
                assert!(coarse(&points).contains(&f) || near(&points, best).contains(&f));
            }
        }
        assert_eq!(coarse(&[4]), [4]);
        assert!(near(&[4], 4).is_empty());
        // The volume backtrack's thresholds alike (13 pieces: off, and 0 to 10).
        let levels = thresholds(13);
        assert_eq!(coarse(&levels), [None, Some(2), Some(5), Some(8), Some(10)]);
        assert_eq!(near(&levels, None), [Some(0), Some(1)]);
        assert_eq!(near(&levels, Some(5)), [Some(3), Some(4), Some(6), Some(7)]);
    }

    #[test]
    fn pruning_must_cut_placements() {
        let with_fits = |fits| Measured {
            fits,
            ..measured(1.0, 0)
        };
        assert!(prunes(&with_fits(98.0), &with_fits(100.0)));
        assert!(!prunes(&with_fits(99.5), &with_fits(100.0)));
        assert!(!prunes(&with_fits(100.0), &with_fits(100.0)));
    }

    #[test]
    fn every_threshold_that_can_act() {
        assert_eq!(thresholds(5), [None, Some(0), Some(1), Some(2)]);
        assert_eq!(thresholds(2), [None]);
    }

    #[test]
    fn within_the_margin_the_setting_that_does_less_wins() {
        let with = |seconds, volume_backtrack, parity| Measured {
            setting: Setting {
                volume_backtrack,
                parity,
                ..measured(0.0, 0).setting
            },
            ..measured(seconds, 0)
        };
        let round = [
            with(1.00, Some(2), true),
            with(1.01, Some(2), false),
            with(1.02, None, false),
        ];
        assert_eq!(
            choose(&round, &|s| *s == round[0].setting)
                .unwrap()
                .setting
                .volume_backtrack,
            None
        );
        let round = [
            with(1.00, Some(2), true),
            with(1.01, Some(5), false),
            with(1.10, None, false),
        ];
        assert_eq!(
            choose(&round, &|s| *s == round[0].setting)
                .unwrap()
                .setting
                .volume_backtrack,
            Some(5)
        );
        let round = [with(1.00, Some(2), true), with(1.06, Some(5), false)];
        assert!(
            choose(&round, &|s| *s == round[0].setting)
                .unwrap()
                .setting
                .parity
        );
        // Settings that do as much: the first, unless another is clearly faster.
        let round = [measured(1.04, 0), measured(1.00, 1), measured(1.01, 2)];
        assert_eq!(
            choose(&round, &|s| *s == round[0].setting)
                .unwrap()
                .setting
                .f_from,
            0
        );
        let round = [measured(1.06, 0), measured(1.00, 1), measured(1.01, 2)];
        assert_eq!(
            choose(&round, &|s| *s == round[0].setting)
                .unwrap()
                .setting
                .f_from,
            1
        );
    }

    #[test]
    fn a_setting_becomes_generator_options() {
        let base = Config::from_options("-r L").unwrap();
        let s = Setting {
            volume_filter: true,
            f_from: 3,
            volume_backtrack: Some(6),
            parity: true,
        };
        assert_eq!(s.apply(&base).options(), "-r L --f-from 3 -V -v 6 -p 6");
        let s = Setting {
            volume_backtrack: None,
            ..s
        };
        assert_eq!(s.apply(&base).options(), "-r L --f-from 3 -V -p 0");
    }
}
