//! Command-line handling for `fila`: subcommands, reading files or standard input,
//! reporting errors as `file:line:col: error: message` with exit status 2.

use std::io::{Read, Write};

use clap::{Parser, Subcommand};
use puzzle::engine::DlxSearch;
use puzzle::info::puzzle_info;
use puzzle::model::Redundancy;
use runtime::{Options, RedundancyFilter};

#[derive(Parser)]
#[command(
    name = "fila",
    version,
    about = "Solve polyomino and polycube packing puzzles (polycube's definition format)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve definition files (standard input when none is named) with the generic engine
    Solve {
        #[command(flatten)]
        options: Options,
        /// Definition files; `-` or none reads standard input
        files: Vec<String>,
    },
    /// Add up the -i outputs of the shards of one run (`--shard I/N -i`), checking that
    /// every shard from 1/N to N/N is there exactly once
    Merge {
        /// The shards' outputs (solution listings in them are skipped); `-` reads standard input
        #[arg(required = true)]
        files: Vec<String>,
    },
}

const SUBCOMMANDS: [&str; 3] = ["solve", "help", "merge"];

/// Runs `fila` with `args` (the program name first) and returns the exit status.
pub fn main(args: Vec<String>) -> i32 {
    let mut args = runtime::options::normalize_args(args);
    // polycube compatibility: no subcommand means `solve`.
    let first = args.get(1).map(String::as_str);
    let is_top_level_flag = matches!(first, Some("-h" | "--help" | "-V" | "--version"));
    if !first.is_some_and(|a| SUBCOMMANDS.contains(&a)) && !(is_top_level_flag && args.len() == 2) {
        args.insert(1, "solve".to_string());
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    match cli.command {
        Command::Solve { options, files } => solve(&options, &files),
        Command::Merge { files } => merge(&files),
    }
}

fn merge(files: &[String]) -> i32 {
    let mut inputs = Vec::new();
    for file in files {
        match read_input(file) {
            Ok(input) => inputs.push(input),
            Err(message) => {
                eprintln!("{message}");
                return 2;
            }
        }
    }
    match runtime::merge::merge(&inputs) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

fn read_input(file: &str) -> Result<(String, String), String> {
    if file == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        Ok(("<stdin>".to_string(), text))
    } else {
        let bytes = std::fs::read(file).map_err(|e| format!("error: cannot read {file}: {e}"))?;
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{file}:1:1: error: the file is not UTF-8 text"))?;
        Ok((file.to_string(), text))
    }
}

/// The filter the model is built with for `-r`: the named piece, or the automatic
/// choice. The model always has the unfiltered first stage too, which `-r .` uses.
fn model_filter(redundancy: &RedundancyFilter) -> Redundancy {
    match redundancy {
        RedundancyFilter::Auto | RedundancyFilter::Off => Redundancy::Auto,
        RedundancyFilter::Piece(name) => Redundancy::Piece(name.clone()),
    }
}

fn solve(options: &Options, files: &[String]) -> i32 {
    let files: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    let redundancy = model_filter(&options.redundancy);
    // Read and check everything before solving anything: bad input gives no partial answer.
    let mut infos = Vec::new();
    let mut failed = false;
    for file in &files {
        let (name, text) = match read_input(file) {
            Ok(t) => t,
            Err(message) => {
                eprintln!("{message}");
                failed = true;
                continue;
            }
        };
        match puzzle::load(&name, &text) {
            Ok(puzzles) => {
                let volume_filter = options.volume_filter == Some(true);
                for mut puzzle in puzzles {
                    if volume_filter {
                        puzzle.volume_filter();
                    }
                    match puzzle_info(&puzzle, &redundancy, "generic engine: dancing links") {
                        Ok(mut info) => {
                            info.pruning.volume_filter = volume_filter;
                            infos.push(info)
                        }
                        Err(why) => {
                            eprintln!("{name}: error: {}", why.0);
                            failed = true;
                        }
                    }
                }
            }
            Err(diagnostics) => {
                eprint!("{}", puzzle::diag::render(&diagnostics));
                failed = true;
            }
        }
    }
    if failed {
        return 2;
    }
    if infos.len() > 1 && (options.checkpoint.is_some() || options.resume.is_some()) {
        eprintln!(
            "error: --checkpoint and --resume take one puzzle, and the input has {}",
            infos.len()
        );
        return 2;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout());
    for info in &infos {
        let mut search = DlxSearch::new(info);
        if let Err(runtime::UsageError(message)) =
            runtime::run(info, &mut search, options, &mut out)
        {
            let _ = out.flush();
            eprintln!("error: {message}");
            return 2;
        }
    }
    let _ = out.flush();
    0
}
