//! `cargo xtask`: the project's own tasks. `gen` writes generated solvers (tuning a new
//! puzzle first, then building the executables and checking them) and checks that the
//! checked-in ones are fresh; `bench` runs the benchmarks.

use std::path::PathBuf;
use std::process::ExitCode;

const GEN_USAGE: &str = "cargo xtask gen [--check | --tune | --explain] [--no-build] [-r PIECE] [--f-from N] [--e-stage] [--word-bits N] [--tails none|N[,M]] [-V] [-v N] [-p N] [puzzles/NAME.txt ...]";

/// Writes the usage of both tasks to stderr.
fn usage() {
    eprintln!("usage: {GEN_USAGE}\n       {}", xtask::bench::USAGE);
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => gen(&args[1..]),
        Some("bench") => xtask::bench::main(&args[1..]),
        _ => {
            usage();
            ExitCode::from(2)
        }
    }
}

fn gen(args: &[String]) -> ExitCode {
    let root = xtask::workspace_root();
    let (mut check, mut tune, mut explain, mut build) = (false, false, false, true);
    let mut options: Vec<String> = Vec::new();
    let mut fixed = xtask::tune::Fixed::default();
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--check" => check = true,
            "--tune" => tune = true,
            "--explain" => explain = true,
            "--no-build" => build = false,
            "-V" | "--e-stage" => {
                fixed.volume_filter |= a == "-V";
                options.push(a.clone());
            }
            "-r" | "--f-from" | "-v" | "-p" | "--word-bits" | "--tails" => match it.next() {
                Some(value) => {
                    fixed.f_from |= a == "--f-from";
                    fixed.volume_backtrack |= a == "-v";
                    fixed.parity |= a == "-p";
                    options.extend([a.clone(), value.clone()]);
                }
                None => {
                    usage();
                    return ExitCode::from(2);
                }
            },
            _ => files.push(PathBuf::from(a)),
        }
    }
    if check && tune {
        eprintln!("error: --check compares with the recorded options; --tune measures new ones");
        return ExitCode::from(2);
    }
    if explain && (check || tune) {
        eprintln!("error: --explain prints the tables of the recorded (or given) options, and writes nothing");
        return ExitCode::from(2);
    }
    // Options given on the command line win; otherwise each puzzle keeps the options its
    // generated file was made with, and a new puzzle is tuned.
    let given = if options.is_empty() {
        None
    } else {
        match generator::Config::from_options(&options.join(" ")) {
            Some(config) => Some(config),
            None => {
                usage();
                return ExitCode::from(2);
            }
        }
    };
    let every = files.is_empty();
    let files: Vec<PathBuf> = if every {
        match xtask::txt_files(&root.join("puzzles")) {
            Ok(files) => files,
            Err(message) => {
                eprintln!("error: {message}");
                return ExitCode::from(2);
            }
        }
    } else {
        // Paths are relative to where the user stands, which cargo does not change for
        // `cargo run`; fall back to the workspace root.
        files
            .into_iter()
            .map(|f| if f.exists() { f } else { root.join(f) })
            .collect()
    };
    let mut configs = Vec::new();
    // The puzzles tuned, whose executables are built and checked against their tuning.
    let mut tuned = Vec::new();
    for file in &files {
        let recorded = xtask::recorded(&root, file);
        let config = match (&given, recorded) {
            (Some(given), _) if !tune => given.clone(),
            (None, Some(recorded)) if !tune => recorded,
            // A missing file is stale, whatever options it would be made with; one never
            // generated is explained with the defaults.
            (None, None) if check || explain => generator::Config::default(),
            // Tuning: from what was given, or from the recorded filter piece alone.
            (given, recorded) => {
                let base = given.clone().unwrap_or_else(|| generator::Config {
                    redundancy: recorded.unwrap_or_default().redundancy,
                    ..Default::default()
                });
                match xtask::tune_one(&root, file, &base, fixed, &mut std::io::stdout()) {
                    Ok((name, t)) => {
                        let config = t.config.clone();
                        tuned.push((name, t));
                        config
                    }
                    Err(message) => {
                        eprint!("{message}");
                        return ExitCode::from(2);
                    }
                }
            }
        };
        configs.push(config);
    }
    if explain {
        for (file, config) in files.iter().zip(&configs) {
            match xtask::explain_one(&root, file, config) {
                Ok(text) => print!("{text}"),
                Err(message) => {
                    eprint!("{message}");
                    return ExitCode::from(2);
                }
            }
        }
        return ExitCode::SUCCESS;
    }
    let mut failed = false;
    let mut stale = Vec::new();
    for (file, config) in files.iter().zip(&configs) {
        match xtask::gen_one(&root, file, config, check) {
            Ok(outcomes) => {
                for outcome in outcomes {
                    match outcome {
                        xtask::Outcome::Written(_) => print!("{}", outcome.report(&root)),
                        xtask::Outcome::Stale(..) => stale.push(outcome.report(&root)),
                    }
                }
            }
            Err(message) => {
                eprint!("{message}");
                failed = true;
            }
        }
    }
    if failed {
        return ExitCode::from(2);
    }
    if !stale.is_empty() {
        for report in &stale {
            eprint!("{report}");
        }
        eprintln!("{}", generator::stamp::FIX);
        return ExitCode::from(1);
    }
    // What was made for puzzles no longer there: an error with --check, removed when
    // every puzzle is regenerated.
    if check || every {
        let (removed, errors) = xtask::tidy_orphans(&root, check);
        print!("{}", removed.concat());
        if !errors.is_empty() {
            eprint!("{errors}");
            return ExitCode::from(1);
        }
    }
    if build {
        if let Err(message) = xtask::build_and_check(&root, &tuned, &mut std::io::stdout()) {
            eprint!("{message}");
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
