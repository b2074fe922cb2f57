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
    solver: &'static str,
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
            other => {
                eprintln!("unknown option {other}; usage: cargo xtask bench [--runs N] [--quick] [--save]");
                return ExitCode::from(2);
            }
        }
    }
    let root = crate::workspace_root();
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
    let entry = |puzzle, solver, program: PathBuf, args: &[&str], expected| Entry {
        puzzle,
        solver,
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
    for round in 0..runs {
        for e in entries.iter_mut() {
            // Entries longer than ten seconds are timed three times at most.
            if round >= 3 && e.times.first().is_some_and(|t| t.as_secs() >= 10) {
                continue;
            }
            match run_once(e, &root) {
                Ok(t) => e.times.push(t),
                Err(message) => {
                    eprintln!("error: {message}");
                    return ExitCode::from(1);
                }
            }
        }
        eprintln!("round {}/{runs} done", round + 1);
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
