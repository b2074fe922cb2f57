//! Command-line handling for `fila`: subcommands, reading files or standard input,
//! reporting errors as `file:line:col: error: message` with exit status 2.

use std::io::{IsTerminal, Read, Write};

use clap::{ArgGroup, Parser, Subcommand, ValueEnum};
use puzzle::limits::Limits;
use puzzle::solve::prepare;
use runtime::Options;

#[derive(Parser)]
#[command(
    name = "fila",
    version,
    disable_version_flag = true,
    about = "Solve polyomino and polycube packing puzzles (polycube's definition format)"
)]
struct Cli {
    // `--version` only: `-V` is polycube's volume filter, so `fila -V` solves standard
    // input with it, as `polycube -V` does.
    /// Print version
    #[arg(long, action = clap::ArgAction::Version)]
    version: Option<bool>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
#[expect(
    clippy::large_enum_variant,
    reason = "parsed once a run; boxing the options would only move them"
)]
enum Command {
    /// Solve definition files (standard input when none is named)
    Solve {
        #[command(flatten)]
        options: Options,
        /// The search: `fila`, the FILA kernels of the generated solvers over tables built
        /// at run time (the default; puzzles beyond its limits go to dancing links), or
        /// `dlx`, dancing links (the oracle)
        #[arg(long, value_enum)]
        engine: Option<Engine>,
        /// Refuse a puzzle whose model and tables would need more memory than SIZE (bytes,
        /// or with K, M, G or T: 512M, 16G), by an estimate made before they are built
        /// [default: 8G]
        #[arg(long, value_name = "SIZE", value_parser = puzzle::limits::parse_size)]
        max_memory: Option<u64>,
        /// Definition files; `-` or none reads standard input
        files: Vec<String>,
    },
    /// Draw the solutions of a saved listing (polycube's brief layout, from fila or from
    /// polycube) of the puzzle in DEFINITION, as `fila solve --svg` draws them
    #[command(group(ArgGroup::new("pictures").required(true).multiple(true).args(["svg", "html"])))]
    Render {
        /// The puzzle's definition file (one puzzle)
        definition: String,
        /// The listing; `-` or none reads standard input
        listing: Option<String>,
        /// FILE.svg holds every solution, one below the other; any other name is a
        /// directory with one picture per solution (NAME_000001.svg, ...; the puzzle's
        /// pictures there numbered past the listing's are removed)
        #[arg(long, value_name = "FILE.svg|DIR", value_parser = runtime::options::picture_path)]
        svg: Option<std::path::PathBuf>,
        /// A page with every solution as a picture, to view in a browser
        #[arg(long, value_name = "FILE.html", value_parser = runtime::options::picture_path)]
        html: Option<std::path::PathBuf>,
        /// Write each piece's name on it
        #[arg(long, action = clap::ArgAction::Set, num_args = 0..=1, require_equals = true,
              default_value = "false", default_missing_value = "true",
              value_parser = runtime::options::parse_flag)]
        labels: bool,
    },
    /// Add up the -i outputs of the shards of one run (`--shard I/N -i`), checking that
    /// every shard from 1/N to N/N is there exactly once
    Merge {
        /// The shards' outputs (solution listings in them are skipped), one file each or
        /// several in one file one after another; `-` reads standard input
        #[arg(required = true)]
        files: Vec<String>,
    },
}

/// `fila solve --engine`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Engine {
    Fila,
    Dlx,
}

impl Engine {
    fn runs_on(self) -> puzzle::limits::Engine {
        match self {
            Engine::Fila => puzzle::limits::Engine::Fila,
            Engine::Dlx => puzzle::limits::Engine::Dlx,
        }
    }
}

const SUBCOMMANDS: [&str; 4] = ["solve", "help", "merge", "render"];

/// Runs `fila` with `args` (the program name first) and returns the exit status.
pub fn main(args: Vec<String>) -> i32 {
    let mut args = runtime::options::normalize_args(args);
    // polycube compatibility: no subcommand means `solve`.
    let first = args.get(1).map(String::as_str);
    let is_top_level_flag = matches!(first, Some("-h" | "--help" | "--version"));
    let named = first.is_some_and(|a| SUBCOMMANDS.contains(&a));
    if !(named || is_top_level_flag && args.len() == 2) {
        args.insert(1, "solve".to_string());
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    let inputs: Vec<&str> = match &cli.command {
        Command::Solve { files, .. } | Command::Merge { files } => {
            files.iter().map(String::as_str).collect()
        }
        Command::Render {
            definition,
            listing,
            ..
        } => vec![definition.as_str(), listing.as_deref().unwrap_or("-")],
    };
    let stdin = inputs.iter().filter(|&&f| f == "-").count();
    if stdin > 1 {
        eprintln!(
            "error: standard input (-) is named {stdin} times, and it can be read once{}",
            if matches!(cli.command, Command::Render { .. }) {
                " (fila render reads the listing from standard input when none is named)"
            } else {
                ""
            }
        );
        return 2;
    }
    // What a run writes (pictures in one file, a page, a checkpoint) must not be what it
    // reads. (`--svg DIR` makes a directory, which no input file can be.)
    fn one_file(svg: &Option<std::path::PathBuf>) -> Option<&std::path::Path> {
        svg.as_deref().filter(|p| runtime::pictures::is_one_file(p))
    }
    let outputs: Vec<(&str, Option<&std::path::Path>)> = match &cli.command {
        Command::Solve { options, .. } => vec![
            ("--svg", one_file(&options.svg)),
            ("--html", options.html.as_deref()),
            ("--checkpoint", options.checkpoint.as_deref()),
        ],
        Command::Render { svg, html, .. } => {
            vec![("--svg", one_file(svg)), ("--html", html.as_deref())]
        }
        Command::Merge { .. } => Vec::new(),
    };
    for (option, output) in outputs.into_iter().filter_map(|(o, p)| Some((o, p?))) {
        if let Some(input) = inputs.iter().find(|&&f| f != "-" && same_file(output, f)) {
            eprintln!(
                "error: {option} {} is the input file {input}, which it would overwrite",
                output.display()
            );
            return 2;
        }
    }
    match cli.command {
        Command::Solve {
            options,
            engine,
            max_memory,
            files,
        } => {
            let limits = Limits {
                max_memory: max_memory.unwrap_or(puzzle::limits::DEFAULT_MAX_MEMORY),
            };
            solve(&options, engine, &limits, &files)
        }
        Command::Merge { files } => merge(&files),
        Command::Render {
            definition,
            listing,
            svg,
            html,
            labels,
        } => render(
            &definition,
            listing.as_deref().unwrap_or("-"),
            svg.as_deref(),
            html.as_deref(),
            labels,
        ),
    }
}

fn render(
    definition: &str,
    listing: &str,
    svg: Option<&std::path::Path>,
    html: Option<&std::path::Path>,
    labels: bool,
) -> i32 {
    let info = match read_input(definition).and_then(|(name, text)| {
        let mut puzzles = puzzle::load(&name, &text).map_err(|d| {
            let text = puzzle::diag::render(&d, &text);
            text.trim_end().to_string()
        })?;
        if puzzles.len() != 1 {
            return Err(format!(
                "{name}: error: fila render takes a definition of one puzzle, and this one has {}",
                puzzles.len()
            ));
        }
        let puzzle = puzzles.remove(0);
        puzzle::info::puzzle_info(&puzzle, &puzzle::model::Redundancy::Auto, "none")
            .map_err(|e| format!("{name}: error: {}", e.0))
    }) {
        Ok(info) => info,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let (name, text) = match read_input(listing) {
        Ok(input) => input,
        Err(message) => {
            eprintln!("{message}");
            return 2;
        }
    };
    let solutions = match runtime::output::read_solutions(&info, &text) {
        Ok(s) if s.is_empty() => {
            eprintln!("{name}: error: no solution in the listing (no '# --- SOLUTION n ---')");
            return 2;
        }
        Ok(s) => s,
        Err(e) => {
            eprintln!("{name}:{}: error: {}", e.line, e.message);
            return 2;
        }
    };
    let counts = format!(
        "{} listed in {name}",
        runtime::text::count(solutions.len(), "solution")
    );
    let stem = runtime::pictures::stem(&info.name, None);
    let drawn =
        runtime::pictures::Pictures::new(&info, stem, 0, svg, html, labels).and_then(|pictures| {
            let Some(mut pictures) = pictures else {
                return Ok(());
            };
            for (n, owners) in solutions {
                pictures.add(n, owners)?;
            }
            pictures.finish(&counts)
        });
    match drawn {
        Ok(()) => 0,
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
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
            let mut out = std::io::stdout().lock();
            let written = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            match written
                .err()
                .and_then(|e| runtime::output::write_failure(&e))
            {
                Some(message) => {
                    eprintln!("error: {message}");
                    2
                }
                None => 0,
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            2
        }
    }
}

/// Why the pictures of the puzzles in `prepared` cannot all be written where `options`
/// say: one file (`--svg FILE.svg`, `--html`) holds one puzzle's, and in a directory
/// (`--svg DIR`) each puzzle's pictures are named after it, so two of one name would
/// overwrite each other.
fn pictures_clash(options: &Options, prepared: &[puzzle::solve::Prepared]) -> Option<String> {
    if prepared.len() < 2 {
        return None;
    }
    let n = prepared.len();
    if options.html.is_some() {
        return Some(format!("--html takes one puzzle, and the input has {n}"));
    }
    let svg = options.svg.as_deref()?;
    if runtime::pictures::is_one_file(svg) {
        return Some(format!(
            "--svg FILE.svg takes one puzzle, and the input has {n}; name a directory"
        ));
    }
    let mut stems = std::collections::BTreeSet::new();
    prepared
        .iter()
        .map(|p| runtime::pictures::stem(&p.info.name, options.shard))
        .find(|stem| !stems.insert(stem.clone()))
        .map(|stem| {
            format!(
                "--svg {} would hold the pictures of two puzzles named {stem} \
                 ({stem}_000001.svg, ...); solve them one at a time",
                svg.display()
            )
        })
}

/// Whether `a` and `b` name one file that is there (through links and `..` alike).
fn same_file(a: &std::path::Path, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn read_input(file: &str) -> Result<(String, String), String> {
    let (name, bytes) = if file == "-" {
        let mut bytes = Vec::new();
        if std::io::stdin().is_terminal() {
            eprintln!("reading standard input (end it with Ctrl-D)");
        }
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| format!("error: cannot read standard input: {e}"))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(file).map_err(|e| format!("error: cannot read {file}: {e}"))?;
        (file.to_string(), bytes)
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok((name, text)),
        Err(e) => {
            let (line, col) = utf8_position(e.as_bytes(), e.utf8_error().valid_up_to());
            Err(format!(
                "{name}:{line}:{col}: error: the input is not UTF-8 text"
            ))
        }
    }
}

/// The line and column (1-based; a column counts characters) of the byte at `at` in
/// `bytes`, whose first `at` bytes are UTF-8.
fn utf8_position(bytes: &[u8], at: usize) -> (usize, usize) {
    // Valid UTF-8, so borrowed whole.
    let before = String::from_utf8_lossy(&bytes[..at]);
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    let line = before.matches('\n').count() + 1;
    (line, before[line_start..].chars().count() + 1)
}

fn solve(options: &Options, engine: Option<Engine>, limits: &Limits, files: &[String]) -> i32 {
    let files: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    // Read and check everything before solving anything: bad input gives no partial answer.
    let mut prepared = Vec::new();
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
        match puzzle::load_with(&name, &text, limits) {
            Ok(puzzles) => {
                if puzzles.is_empty() {
                    // polycube reads such a stream without a word; it is no error.
                    eprintln!("{name}: warning: no puzzle in it (a puzzle is a D line, its pieces and ~D)");
                }
                for puzzle in puzzles {
                    let line = puzzle.line;
                    // The options are checked against each puzzle (-g, -f, -r, --mirror)
                    // before any is solved.
                    let checked = prepare(puzzle, options, engine.map(Engine::runs_on), limits)
                        .and_then(|p| match runtime::plan::Plan::resolve(&p.info, options) {
                            Ok(_) => Ok(p),
                            Err(runtime::UsageError(why)) => Err(why),
                        });
                    match checked {
                        Ok(p) => prepared.push(p),
                        Err(why) => {
                            let at = puzzle::diag::Diagnostic::new(&name, line, 1, why);
                            eprint!("{}", puzzle::diag::render(&[at], &text));
                            failed = true;
                        }
                    }
                }
            }
            Err(diagnostics) => {
                eprint!("{}", puzzle::diag::render(&diagnostics, &text));
                failed = true;
            }
        }
    }
    if failed {
        return 2;
    }
    if prepared.len() > 1 && (options.checkpoint.is_some() || options.resume.is_some()) {
        eprintln!(
            "error: --checkpoint and --resume take one puzzle, and the input has {}",
            prepared.len()
        );
        return 2;
    }
    if let Some(message) = pictures_clash(options, &prepared) {
        eprintln!("error: {message}");
        return 2;
    }
    let mut out = std::io::BufWriter::new(std::io::stdout());
    if let Err(message) = runtime::interrupt::install() {
        eprintln!("warning: {message}");
    }
    for p in &mut prepared {
        if let Some(status) = runtime::interrupt::exit_status() {
            // A signal stopped the puzzle before: the next ones are not begun.
            let _ = out.flush();
            return status;
        }
        let mut search = p.search();
        if let Err(runtime::UsageError(message)) =
            runtime::run(&p.info, search.as_mut(), options, &mut out)
        {
            let _ = out.flush();
            eprintln!("error: {message}");
            return 2;
        }
    }
    let _ = out.flush();
    runtime::interrupt::exit_status().unwrap_or(0)
}
