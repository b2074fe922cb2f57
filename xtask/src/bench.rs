//! `cargo xtask bench`: whole-process timings of the generated solvers beside the
//! Fletcher and de Bruijn transliterations and the generic engine, run interleaved so
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
    expected: u64,
    times: Vec<Duration>,
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

fn run_once(entry: &Entry, root: &Path) -> Result<Duration, String> {
    let start = Instant::now();
    let output = Command::new(&entry.program)
        .args(&entry.args)
        .current_dir(root)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", entry.program.display()))?;
    let elapsed = start.elapsed();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let count = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SOLUTIONS="))
        .and_then(|v| v.trim().parse::<u64>().ok());
    if !output.status.success() || count != Some(entry.expected) {
        return Err(format!(
            "{} {} gave {:?} (status {}), expected {}",
            entry.puzzle, entry.solver, count, output.status, entry.expected
        ));
    }
    Ok(elapsed)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub fn main(args: &[String]) -> ExitCode {
    let mut runs = 7usize;
    let mut slow = true;
    let mut save = false;
    let mut words = false;
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
            "--quick" => slow = false,
            "--save" => save = true,
            "--words" => words = true,
            other => {
                eprintln!("unknown option {other}; usage: cargo xtask bench [--runs N] [--quick] [--save] [--words]");
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
        expected,
        times: Vec::new(),
    };
    let mut entries = vec![
        entry(
            "pentomino_10x6",
            "generated",
            bin.join("pentomino_10x6"),
            &["-q", "-i", "--threads", "1"],
            2339,
        ),
        entry(
            "pentomino_10x6",
            "fletcher",
            bin.join("examples/fletcher"),
            &[],
            2339,
        ),
        entry(
            "pentomino_10x6",
            "debruijn",
            bin.join("examples/debruijn"),
            &[],
            2339,
        ),
        entry(
            "pentomino_10x6",
            "generic",
            bin.join("fila"),
            &[
                "solve",
                "-q",
                "-i",
                "--threads",
                "1",
                "puzzles/pentomino_10x6.txt",
            ],
            2339,
        ),
        entry(
            "soma",
            "generated",
            bin.join("soma"),
            &["-q", "-i", "--threads", "1"],
            480,
        ),
        entry(
            "soma",
            "generic",
            bin.join("fila"),
            &["solve", "-q", "-i", "--threads", "1", "puzzles/soma.txt"],
            480,
        ),
        entry(
            "one_sided_30x3",
            "generated",
            bin.join("one_sided_30x3"),
            &["-q", "-i", "--threads", "1"],
            46,
        ),
        entry(
            "one_sided_30x3",
            "generic",
            bin.join("fila"),
            &[
                "solve",
                "-q",
                "-i",
                "--threads",
                "1",
                "-r",
                "X",
                "puzzles/one_sided_30x3.txt",
            ],
            46,
        ),
    ];
    if slow {
        entries.push(entry(
            "one_sided_18x5",
            "generated",
            bin.join("one_sided_18x5"),
            &["-q", "-i", "--threads", "1"],
            686628,
        ));
        entries.push(entry(
            "tetriscube",
            "generated",
            bin.join("tetriscube"),
            &["-q", "-i", "--threads", "1"],
            9839,
        ));
        entries.push(entry(
            "tetriscube",
            "generated, 2 threads",
            bin.join("tetriscube"),
            &["-q", "-i", "--threads", "2"],
            9839,
        ));
        entries.push(entry(
            "tetriscube",
            "generic",
            bin.join("fila"),
            &[
                "solve",
                "-q",
                "-i",
                "--threads",
                "1",
                "puzzles/tetriscube.txt",
            ],
            9839,
        ));
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
    for (puzzle, other) in [
        ("pentomino_10x6", "fletcher"),
        ("pentomino_10x6", "debruijn"),
        ("pentomino_10x6", "generic"),
        ("soma", "generic"),
        ("one_sided_30x3", "generic"),
        ("tetriscube", "generic"),
    ] {
        if find(puzzle, other).is_some() {
            table.push_str(&format!(
                "| {puzzle}: generated / {other} | {} |\n",
                ratio(find(puzzle, "generated"), find(puzzle, other))
            ));
        }
    }
    if let (Some(one), Some(two)) = (
        find("tetriscube", "generated"),
        find("tetriscube", "generated, 2 threads"),
    ) {
        table.push_str(&format!(
            "| tetriscube: generated, 1 thread / 2 threads | {} |\n",
            ratio(Some(one), Some(two))
        ));
    }
    println!("{table}");
    if save {
        let machine = machine_description();
        let text = format!(
            "# Benchmarks\n\nThe latest table from `cargo xtask bench` (whole process, one thread unless the row says otherwise, medians of {runs} interleaved runs; \
             runs over ten seconds are repeated three times).\n\nMachine: {machine}\n\n{table}\nWhat each change bought is in the history below.\n"
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

/// Runs every entry `runs` times, round by round, so that machine noise falls on all alike.
/// Entries longer than ten seconds are timed three times at most.
fn time_interleaved(entries: &mut [Entry], root: &Path, runs: usize) -> Result<(), String> {
    for round in 0..runs {
        for e in entries.iter_mut() {
            if round >= 3 && e.times.first().is_some_and(|t| t.as_secs() >= 10) {
                continue;
            }
            let t = run_once(e, root)?;
            e.times.push(t);
        }
        eprintln!("round {}/{runs} done", round + 1);
    }
    Ok(())
}

/// `--words`: what a wider word than the box needs costs. The generated 10x6 (60 cells)
/// and one-sided 30x3 (90 cells) solvers, with their recorded options, are built in
/// scratch crates with their own word and with wider ones (`--word-bits`), and timed side
/// by side. Puzzles of more than 128 cells get the wide words; the other way to run them
/// (the generic engine placing pieces until the rest fits a narrower word) can gain at
/// most what the narrower word saves below, while the generic engine pays far more per
/// placement above.
fn word_bench(root: &Path, runs: usize) -> ExitCode {
    let variants: [(&'static str, u64, &[usize]); 2] = [
        ("pentomino_10x6", 2339, &[0, 128, 192, 256]),
        ("one_sided_30x3", 46, &[0, 192, 256]),
    ];
    let mut entries = Vec::new();
    for (name, expected, widths) in variants {
        let file = root.join(format!("puzzles/{name}.txt"));
        let text = match std::fs::read_to_string(&file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", file.display());
                return ExitCode::from(1);
            }
        };
        let recorded = crate::recorded_config(root, &file);
        for &bits in widths {
            let config = generator::Config {
                word_bits: (bits > 0).then_some(bits),
                ..recorded.clone()
            };
            let label = format!("puzzles/{name}.txt");
            let code = match generator::generate(&label, &text, &config) {
                Ok(code) => code,
                Err(d) => {
                    eprint!("{}", generator::diag::render(&d));
                    return ExitCode::from(1);
                }
            };
            let word = code
                .lines()
                .find_map(|l| l.strip_prefix("type Word = "))
                .unwrap_or("?;")
                .trim_end_matches(';')
                .to_string();
            let package = format!("words-{}-{bits}", name.replace('_', "-"));
            eprintln!("building {package} (Word = {word})...");
            let exe = match crate::scratch::build(
                root,
                &root.join("target/words").join(&package),
                &root.join("target/words/target"),
                &package,
                crate::scratch::RELEASE,
                &code,
            ) {
                Ok(exe) => exe,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(1);
                }
            };
            entries.push(Entry {
                puzzle: name,
                solver: if bits == 0 {
                    format!("own word ({word})")
                } else {
                    format!("{bits}-bit word ({word})")
                },
                program: exe,
                args: ["-q", "-i", "--threads", "1"].map(String::from).to_vec(),
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
        "| puzzle | solver | median | min | ratio to own word |\n|---|---|---|---|---|\n",
    );
    for e in &entries {
        let own = entries
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
            median(&e.times).as_secs_f64() / own
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
