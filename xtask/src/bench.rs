//! `cargo xtask bench`: whole-process timings of the generated solvers beside the run-time
//! FILA engine (`fila solve`: the same kernels over tables built at run time, so that the
//! ratio generated / run-time is what code generation buys), dancing links (`fila solve
//! --engine dlx`) and the Fletcher and de Bruijn transliterations, run interleaved so
//! that machine noise falls on all of them alike, with medians and ratios.
//!
//! Every run's `SOLUTIONS=` is checked, so a fast wrong answer cannot pass as a result.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

/// One thing to time.
struct Entry {
    puzzle: &'static str,
    solver: String,
    program: PathBuf,
    args: Vec<String>,
    /// The `-i` key whose value every run must give: `SOLUTIONS`, or for sampled runs
    /// `ESTIMATED_FITS`.
    key: &'static str,
    /// Its value; `None` until the first run of the puzzle gives it, when every entry of
    /// the puzzle must then agree.
    expected: Option<u64>,
    times: Vec<Duration>,
}

/// How long a puzzle's runs take: `--quick` times the quick ones, the default the slow
/// ones too, `--long` every one.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Length {
    Quick,
    Slow,
    Long,
}

/// One puzzle of the benchmark, and the solvers it is timed with.
struct Bench {
    name: &'static str,
    /// The filter piece the generated solver was made with, given to `fila solve` too.
    piece: Option<&'static str>,
    solutions: u64,
    length: Length,
    /// The generated solver and the run-time engine on one thread.
    one_thread: bool,
    dlx: bool,
    /// The generated solver on two threads.
    two_threads: bool,
}

impl Bench {
    fn new(
        name: &'static str,
        piece: Option<&'static str>,
        solutions: u64,
        length: Length,
    ) -> Self {
        Bench {
            name,
            piece,
            solutions,
            length,
            one_thread: true,
            dlx: true,
            two_threads: false,
        }
    }

    fn without_dlx(self) -> Self {
        Bench { dlx: false, ..self }
    }

    fn two_threads(self) -> Self {
        Bench {
            two_threads: true,
            ..self
        }
    }

    fn two_threads_only(self) -> Self {
        Bench {
            one_thread: false,
            dlx: false,
            two_threads: true,
            ..self
        }
    }
}

fn median(times: &[Duration]) -> Duration {
    let mut t = times.to_vec();
    t.sort();
    if t.is_empty() {
        Duration::ZERO
    } else {
        t[t.len() / 2]
    }
}

fn run_once(entry: &Entry, root: &Path) -> Result<(Duration, u64), String> {
    let start = Instant::now();
    let output = Command::new(&entry.program)
        .args(&entry.args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", entry.program.display()))?;
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let value = runtime::report::Report::parse(&stdout)
        .and_then(|report| report.count(entry.key))
        .ok();
    match value {
        Some(v) if output.status.success() && entry.expected.is_none_or(|e| e == v) => {
            Ok((elapsed, v))
        }
        _ => Err(format!(
            "{} {} gave {}={value:?} (status {}), expected {:?}",
            entry.puzzle, entry.solver, entry.key, output.status, entry.expected
        )),
    }
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub fn main(args: &[String]) -> ExitCode {
    let mut runs = 7usize;
    let mut length = Length::Slow;
    let mut save = false;
    let mut words = false;
    let mut baseline: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--runs" => match it.next().and_then(|n| n.parse().ok()) {
                Some(n) if n > 0 => runs = n,
                _ => {
                    eprintln!("--runs needs a positive number");
                    return ExitCode::from(2);
                }
            },
            "--quick" => length = Length::Quick,
            "--long" => length = Length::Long,
            "--save" => save = true,
            "--words" => words = true,
            "--baseline" => match it.next() {
                Some(dir) => baseline = Some(PathBuf::from(dir)),
                None => {
                    eprintln!("--baseline needs the directory of another build's executables");
                    return ExitCode::from(2);
                }
            },
            other => {
                eprintln!("unknown option {other}; usage: {USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let root = crate::workspace_root();
    if words {
        return word_bench(&root, runs);
    }
    eprintln!("building the solvers (release)...");
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--bins", "--examples"])
        .current_dir(&root)
        .status();
    if !status.is_ok_and(|s| s.success()) {
        eprintln!("error: the release build failed");
        return ExitCode::from(1);
    }
    let bin = root.join("target/release");
    let entry = |puzzle, solver: &str, program: PathBuf, args: &[&str], expected| Entry {
        puzzle,
        solver: solver.to_string(),
        program,
        args: args.iter().map(|s| s.to_string()).collect(),
        key: "SOLUTIONS",
        expected: Some(expected),
        times: Vec::new(),
    };
    // Each puzzle: its generated solver, the run-time FILA engine with the same filter
    // piece (`fila solve`), and dancing links (`fila solve --engine dlx`), the two
    // transliterations beside them on 10x6. A hexiamond and a polyhex puzzle show the
    // other lattices, the tetrahexes twice over in two layers the prisms lattice, and the
    // Kanoodle pyramid the packed spheres.
    // The Tetris and Bedlam Cubes' dancing links (minutes a run), the tetrahexes twice
    // over in 4x14 (15 s) and the one-sided 18x5 and 15x6 are slow runs; the one-sided
    // 10x9 (minutes on two threads, where dancing links would take days) runs only with
    // `--long`.
    let puzzles = [
        Bench::new("pentomino_10x6", None, 2339, Length::Quick),
        Bench::new("soma", None, 480, Length::Quick),
        Bench::new("one_sided_30x3", Some("X"), 46, Length::Quick),
        Bench::new("hexiamonds_hexagon", None, 5916, Length::Quick),
        Bench::new("polyhexes_4x10", None, 528608, Length::Quick),
        Bench::new("tetrahexes_twice_prisms_7x4x2", None, 2086, Length::Quick),
        Bench::new("kanoodle_pyramid", None, 612, Length::Quick),
        Bench::new("tetrahexes_twice_4x14", None, 46616, Length::Slow),
        Bench::new("one_sided_18x5", Some("X"), 686628, Length::Slow).without_dlx(),
        Bench::new("tetriscube", Some("L"), 9839, Length::Slow).two_threads(),
        Bench::new("bedlam", None, 19186, Length::Slow).two_threads(),
        Bench::new("one_sided_15x6", Some("X"), 2567183, Length::Slow)
            .without_dlx()
            .two_threads(),
        Bench::new("one_sided_10x9", Some("X"), 10440433, Length::Long).two_threads_only(),
    ];
    let mut entries = Vec::new();
    for bench in &puzzles {
        if bench.length > length {
            continue;
        }
        let puzzle = bench.name;
        let solutions = bench.solutions;
        let file = format!("puzzles/{puzzle}.txt");
        let mut solve = vec!["solve", "-q", "-i", "--threads", "1"];
        if let Some(piece) = bench.piece {
            solve.extend(["-r", piece]);
        }
        if bench.one_thread {
            entries.push(entry(
                puzzle,
                "generated",
                bin.join(puzzle),
                &["-q", "-i", "--threads", "1"],
                solutions,
            ));
        }
        if puzzle == "pentomino_10x6" {
            let examples = bin.join("examples");
            entries.push(entry(
                puzzle,
                "fletcher",
                examples.join("fletcher"),
                &[],
                solutions,
            ));
            entries.push(entry(
                puzzle,
                "debruijn",
                examples.join("debruijn"),
                &[],
                solutions,
            ));
        }
        if bench.one_thread {
            let run_time: Vec<&str> = solve.iter().copied().chain([file.as_str()]).collect();
            entries.push(entry(
                puzzle,
                "run-time",
                bin.join("fila"),
                &run_time,
                solutions,
            ));
        }
        if bench.dlx {
            let dlx: Vec<&str> = solve
                .iter()
                .copied()
                .chain(["--engine", "dlx", file.as_str()])
                .collect();
            entries.push(entry(
                puzzle,
                "dancing links",
                bin.join("fila"),
                &dlx,
                solutions,
            ));
        }
        if bench.two_threads {
            entries.push(entry(
                puzzle,
                "generated, 2 threads",
                bin.join(puzzle),
                &["-q", "-i", "--threads", "2"],
                solutions,
            ));
        }
    }
    // The same generated solvers and run-time engine from another build (the commit
    // before a change, built in a second work tree, or the same commit built another
    // way), side by side with these. Dancing links and the transliterations are left
    // out: they are the yardsticks, not what a change is measured on.
    if let Some(dir) = &baseline {
        let again: Vec<Entry> = entries
            .iter()
            .filter(|e| e.solver.starts_with("generated") || e.solver == "run-time")
            .map(|e| Entry {
                puzzle: e.puzzle,
                solver: format!("{}, baseline", e.solver),
                program: dir.join(e.program.file_name().unwrap_or_default()),
                args: e.args.clone(),
                key: e.key,
                expected: e.expected,
                times: Vec::new(),
            })
            .collect();
        // A puzzle added since the baseline's commit has no executable there (generate it
        // in the baseline's tree to compare): it is left out, with a word.
        for b in again {
            if b.program.exists() {
                entries.push(b);
            } else {
                eprintln!(
                    "warning: the baseline has no {}: {} is timed without it",
                    b.program.display(),
                    b.puzzle
                );
            }
        }
    }
    if let Err(message) = time_interleaved(&mut entries, &root, runs) {
        eprintln!("error: {message}");
        return ExitCode::from(1);
    }
    let find = |puzzle: &str, solver: &str| {
        entries
            .iter()
            .find(|e| e.puzzle == puzzle && e.solver == solver)
            .map(|e| median(&e.times))
    };
    let mut table = String::new();
    table.push_str("| puzzle | solver | median | min | runs |\n|---|---|---|---|---|\n");
    for e in &entries {
        let min = e.times.iter().min().copied().unwrap_or_default();
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} |\n",
            e.puzzle,
            e.solver,
            ms(median(&e.times)),
            ms(min),
            e.times.len()
        ));
    }
    table.push_str("\n| ratio | value |\n|---|---|\n");
    let ratio = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
        (Some(a), Some(b)) if !b.is_zero() => format!("{:.3}", a.as_secs_f64() / b.as_secs_f64()),
        _ => "-".to_string(),
    };
    for puzzle in puzzles.iter().map(|b| b.name) {
        for (a, b) in [
            ("generated", "fletcher"),
            ("generated", "debruijn"),
            ("generated", "run-time"),
            ("run-time", "dancing links"),
            ("generated", "dancing links"),
        ] {
            if find(puzzle, a).is_some() && find(puzzle, b).is_some() {
                table.push_str(&format!(
                    "| {puzzle}: {a} / {b} | {} |\n",
                    ratio(find(puzzle, a), find(puzzle, b))
                ));
            }
        }
    }
    for puzzle in puzzles.iter().map(|b| b.name) {
        for solver in ["generated", "run-time", "generated, 2 threads"] {
            let baseline = format!("{solver}, baseline");
            if find(puzzle, &baseline).is_some() {
                table.push_str(&format!(
                    "| {puzzle}: {solver} / baseline | {} |\n",
                    ratio(find(puzzle, solver), find(puzzle, &baseline))
                ));
            }
        }
    }
    for puzzle in puzzles.iter().map(|b| b.name) {
        if let (Some(one), Some(two)) = (
            find(puzzle, "generated"),
            find(puzzle, "generated, 2 threads"),
        ) {
            table.push_str(&format!(
                "| {puzzle}: generated, 1 thread / 2 threads | {} |\n",
                ratio(Some(one), Some(two))
            ));
        }
    }
    println!("{table}");
    if save {
        let machine = machine_description();
        let text = format!(
            "# Benchmarks\n\nThe latest table from `cargo xtask bench` (whole process, one thread unless the row says otherwise, medians of {runs} interleaved runs, \
             each run under {warm_up} seconds right after an untimed one of the same program; runs over ten seconds are repeated three times, over five minutes not repeated).\n\nMachine: {machine}\n\n{table}\nWhat each change bought is in the history below.\n",
            warm_up = WARM_UP_BELOW.as_secs()
        );
        let path = root.join("BENCHMARKS.md");
        let history = std::fs::read_to_string(&path)
            .ok()
            .and_then(|old| old.find("\n## History").map(|i| old[i..].to_string()))
            .unwrap_or_default();
        if let Err(e) = std::fs::write(&path, text + &history) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
        eprintln!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

/// `cargo xtask bench`'s command line.
pub const USAGE: &str =
    "cargo xtask bench [--runs N] [--quick | --long] [--save] [--words] [--baseline DIR]";

/// Runs under this long follow an untimed run of the same entry ([`time_interleaved`]).
const WARM_UP_BELOW: Duration = Duration::from_secs(10);

/// Runs every entry `runs` times, round by round, so that machine noise falls on all alike.
/// Entries longer than ten seconds are timed three times at most, those longer than five
/// minutes once.
///
/// Each run of an entry shorter than [`WARM_UP_BELOW`] follows an untimed run of the same
/// entry (an entry's first run is that untimed one where it turns out that short), so
/// that what the entry before it left behind falls on the untimed run. On the virtual
/// machines here a core that has just been idle, or busy with something else, runs the
/// next short program slowly (10x6 after a pause: 26-28 ms for the first runs,
/// then 21-22 ms; without the warm-up, in the full benchmark, median 31.1 ms, minimum
/// 23.2 ms). And a program that takes much memory right after another has freed much
/// pays for it in system time (the memory the host took back is given again page by
/// page): the one-sided 18x5's generated solver, whose table of dead states asks for
/// huge pages, took 0.29 s of system time right after the tetrahexes 4x14's dancing links
/// and 0.02 to 0.05 s in the runs after that (2.46 s against 2.20 to 2.29 s, session
/// 53), and in the benchmark it always came right after them.
fn time_interleaved(entries: &mut [Entry], root: &Path, runs: usize) -> Result<(), String> {
    for round in 0..runs {
        for k in 0..entries.len() {
            let e = &mut entries[k];
            let first = e.times.first().map_or(0, Duration::as_secs);
            if (round >= 3 && first >= 10) || (round >= 1 && first >= 300) {
                continue;
            }
            let (t, value) = match e.times.first() {
                // The first run is the entry's warm-up where it is short, and its first
                // timed run where it is not (a long entry is not run twice to learn that).
                None => match run_once(e, root)? {
                    (t, _) if t < WARM_UP_BELOW => run_once(e, root)?,
                    timed => timed,
                },
                Some(&first) => {
                    if first < WARM_UP_BELOW {
                        run_once(e, root)?;
                    }
                    run_once(e, root)?
                }
            };
            e.times.push(t);
            // Every later run of the puzzle must give the same value.
            let puzzle = e.puzzle;
            for other in entries.iter_mut().filter(|o| o.puzzle == puzzle) {
                other.expected.get_or_insert(value);
            }
        }
        eprintln!("round {}/{runs} done", round + 1);
    }
    Ok(())
}

/// One solver of `--words`: a puzzle built with one word and set of tails.
struct WordVariant {
    bits: usize,
    tails: generator::lower::Tails,
}

/// A puzzle of `--words`: its directory and name, its count of solutions (none where it
/// is sampled), the options of every run, and its solvers.
type WordPuzzle<'a> = (
    &'static str,
    &'static str,
    Option<u64>,
    &'a [&'static str],
    Vec<WordVariant>,
);

/// `--words`: what wider words cost, and what handing over to narrower words for the
/// last cells buys. Each puzzle is built in scratch crates with its recorded options and
/// several words and tails (`--word-bits`, `--tails`), and the solvers are timed side by
/// side:
/// - 10x6 (60 cells) in its own 64-bit word and in wider ones;
/// - the one-sided 30x3 (90 cells) in a 128-bit word handing over to a 64-bit one for its
///   last 64 cells (its own), in a 128-bit word throughout, and in wider ones;
/// - a box of more than 128 cells (`benches/puzzles/`), handing over to 128- and 64-bit
///   words or in its wide word throughout. Its search would take months, so each run
///   searches the same sample of subtrees (`--estimate`), and the runs must agree on the
///   estimated fits.
fn word_bench(root: &Path, runs: usize) -> ExitCode {
    use generator::lower::Tails;
    let own = |tails| WordVariant { bits: 0, tails };
    let wide = |bits| WordVariant {
        bits,
        tails: Tails::Off,
    };
    let full = ["-q", "-i", "--threads", "1"];
    let sampled = [
        "-q",
        "-i",
        "--threads",
        "1",
        "--estimate=4",
        "--estimate-run",
        "0",
        "--subtrees",
        "20000",
    ];
    let puzzles: Vec<WordPuzzle<'_>> = vec![
        (
            "puzzles",
            "pentomino_10x6",
            Some(2339),
            &full,
            vec![own(Tails::Auto), wide(128), wide(192), wide(256)],
        ),
        (
            "puzzles",
            "one_sided_30x3",
            Some(46),
            &full,
            vec![own(Tails::Auto), own(Tails::Off), wide(192), wide(256)],
        ),
        (
            "benches/puzzles",
            "pentominoes_twice_44x3",
            None,
            &sampled,
            vec![own(Tails::Auto), own(Tails::Off)],
        ),
    ];
    let mut entries = Vec::new();
    for (dir, name, expected, args, variants) in puzzles {
        let file = root.join(dir).join(format!("{name}.txt"));
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return ExitCode::from(1);
            }
        };
        let recorded = crate::recorded_config(root, &file);
        for (k, variant) in variants.into_iter().enumerate() {
            let config = generator::Config {
                word_bits: (variant.bits > 0).then_some(variant.bits),
                tails: variant.tails.clone(),
                ..recorded.clone()
            };
            let label = format!("{dir}/{name}.txt");
            let generated = match generator::generate(&label, &text, &config) {
                Ok(generated) => generated,
                Err(d) => {
                    eprint!("{}", generator::diag::render(&d, &text));
                    return ExitCode::from(1);
                }
            };
            // The words, widest first: the solver's own, then its tails'.
            let words: Vec<&str> = generated
                .code
                .lines()
                .filter_map(|l| l.trim_start().strip_prefix("type Word = "))
                .map(|w| {
                    w.trim_end_matches(';')
                        .trim_start_matches("::runtime::word::")
                })
                .collect();
            let package = format!("words-{}-{k}", name.replace('_', "-"));
            eprintln!("building {package} (words {})...", words.join(", "));
            let dir = root.join("target/words").join(&package);
            let built = crate::scratch::write_tables(&dir, &generated).and_then(|()| {
                crate::scratch::build(
                    root,
                    &dir,
                    &root.join("target/words/target"),
                    &package,
                    crate::scratch::RELEASE,
                    &generated.code,
                )
            });
            let exe = match built {
                Ok(exe) => exe,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            entries.push(Entry {
                puzzle: name,
                solver: words.join(" then "),
                program: exe,
                args: args.iter().map(|s| s.to_string()).collect(),
                key: if expected.is_some() {
                    "SOLUTIONS"
                } else {
                    "ESTIMATED_FITS"
                },
                expected,
                times: Vec::new(),
            });
        }
    }
    if let Err(message) = time_interleaved(&mut entries, root, runs) {
        eprintln!("error: {message}");
        return ExitCode::from(1);
    }
    let mut table = String::from(
        "| puzzle | words | median | min | ratio to the first |\n|---|---|---|---|---|\n",
    );
    for e in &entries {
        let first = entries
            .iter()
            .find(|o| o.puzzle == e.puzzle)
            .map(|o| median(&o.times).as_secs_f64())
            .unwrap_or(f64::NAN);
        table.push_str(&format!(
            "| {} | {} | {} | {} | {:.3} |\n",
            e.puzzle,
            e.solver,
            ms(median(&e.times)),
            ms(e.times.iter().min().copied().unwrap_or_default()),
            median(&e.times).as_secs_f64() / first
        ));
    }
    println!("{table}");
    ExitCode::SUCCESS
}

fn machine_description() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines().find_map(|l| {
                l.strip_prefix("model name")
                    .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
            })
        })
        .unwrap_or_else(|| "unknown CPU".to_string());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    format!("{cpu}, {cores} cores")
}
