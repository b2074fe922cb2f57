//! The command line shared by `fila solve` and every generated solver, with polycube's
//! spellings accepted so that scripts written for polycube keep working.

use clap::{ArgAction, Args};

/// The most worker threads a run takes (`-j`): more than any machine's processors, and
/// far fewer than the thousands that, on a machine of two cores, spin in the thread pool
/// for seconds (the Soma, 1 ms on one thread: 1.3 s on 1000, still running after 15 s on
/// 3000, where a signal no longer stops it promptly).
pub const MAX_THREADS: i64 = 1024;

/// A flag's value (`--quiet=true`, polycube's `--quiet=1`): true, yes, on or 1, or
/// false, no, off or 0.
pub fn parse_flag(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(format!("expected true or false, 1 or 0, not '{value}'")),
    }
}

/// One part of a search spread over several runs: shard `index` (from 1) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    /// Reads `I/N`, as `--shard` takes it and `-i` writes it.
    fn from_str(value: &str) -> Result<Shard, String> {
        let bad = || format!("expected I/N with 1 <= I <= N, not '{value}'");
        let (i, n) = value.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

fn parse_seconds(value: &str) -> Result<std::time::Duration, String> {
    value
        .parse::<f64>()
        .ok()
        .and_then(|s| std::time::Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| format!("expected a number of seconds, not '{value}'"))
}

/// The redundancy filter a run asks for (`-r`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedundancyFilter {
    /// `#`: constrain the piece the solver chose (the automatic choice).
    Auto,
    /// `.`: no filter: every solution is listed.
    Off,
    /// Constrain this piece.
    Piece(String),
}

impl From<&str> for RedundancyFilter {
    /// Reads `-r`'s value: `#`, `.` or a piece name (any other text).
    fn from(value: &str) -> RedundancyFilter {
        match value {
            "#" => RedundancyFilter::Auto,
            "." => RedundancyFilter::Off,
            name => RedundancyFilter::Piece(name.to_string()),
        }
    }
}

/// `-r`'s value parser: every text is a filter (a name the puzzle lacks is refused when
/// the plan is resolved, where the pieces are known).
fn parse_redundancy(value: &str) -> Result<RedundancyFilter, String> {
    Ok(RedundancyFilter::from(value))
}

/// How each solution is written (`-f`'s first letter): polycube's formats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// `B`: the brief layout, one text row per row of the box.
    #[default]
    Brief,
    /// `F`: a full puzzle definition, every piece placed as a stationary piece: it reads
    /// back as a puzzle whose one solution is this one.
    Full,
    /// `S`: a sub-puzzle, the placed pieces stationary and the others mobile: with `-g`,
    /// the sub-puzzles together hold every solution, each in one of them.
    Sub,
}

/// How the pieces of a definition are written (`-f`'s second letter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PieceForm {
    /// `L`: drawn in `L` blocks.
    #[default]
    Drawn,
    /// `C`: `C` lines of coordinates.
    Coordinates,
}

/// `-f [BFS][LC]`: the layout of each solution, and for definitions the form of the
/// pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Format {
    pub layout: Layout,
    pub pieces: PieceForm,
}

fn parse_format(value: &str) -> Result<Format, String> {
    let bad = || format!("expected B, F or S, then optionally L or C (as FL or SC), not '{value}'");
    let mut chars = value.chars().map(|c| c.to_ascii_uppercase());
    let layout = match chars.next() {
        Some('B') => Layout::Brief,
        Some('F') => Layout::Full,
        Some('S') => Layout::Sub,
        _ => return Err(bad()),
    };
    let pieces = match chars.next() {
        None | Some('L') => PieceForm::Drawn,
        Some('C') => PieceForm::Coordinates,
        _ => return Err(bad()),
    };
    if chars.next().is_some() {
        return Err(bad());
    }
    Ok(Format { layout, pieces })
}

/// A number of pieces left, or never.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    Off,
    Above(usize),
}

/// Reads a size given on the command line: bytes, or a number with `K`, `M`, `G` or `T`
/// (powers of 1024, with or without a trailing `B` or `iB`): `512M`, `1.5G`, `8GiB`.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let scale: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        _ => return Err(format!("'{text}' is not a size (e.g. 512M, 8G)")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a size (e.g. 512M, 8G)"))?;
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("'{text}' is too large a size"));
    }
    Ok(bytes as u64)
}

/// `--memo`: a size, or `off` (zero).
fn parse_memo(value: &str) -> Result<u64, String> {
    if value == "off" {
        Ok(0)
    } else {
        parse_size(value)
    }
}

fn parse_threshold(value: &str) -> Result<Threshold, String> {
    match value {
        "off" | "none" | "-1" => Ok(Threshold::Off),
        n => n
            .parse()
            .map(Threshold::Above)
            .map_err(|_| format!("expected a number of pieces or `off`, not '{value}'")),
    }
}

/// The search and output options.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
#[command(group = clap::ArgGroup::new("recording").multiple(true))]
pub struct Options {
    /// Do not list the solutions
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub quiet: bool,

    /// Print KEY=VALUE statistics (SOLUTIONS=, UNIQUE=, ATTEMPTS_TOTAL=, FITS_TOTAL=, ...)
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub info: bool,

    /// Redundancy filter: a piece name to constrain, `#` to choose one, `.` for every solution
    #[arg(
        short = 'r',
        long = "redundancy-filter",
        alias = "redundancyFilter",
        value_name = "PIECE|#|.",
        default_value = "#",
        value_parser = parse_redundancy
    )]
    pub redundancy: RedundancyFilter,

    /// Also identify mirror images (when the piece set is closed under mirroring)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub mirror: bool,

    /// Report only solutions distinct up to symmetry (a post-filter; needed only with -r .)
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub unique: bool,

    /// Draw each solution listed: FILE.svg holds them all, one below the other; any other
    /// name is a directory with one picture per solution (NAME_000001.svg, ...; the
    /// puzzle's pictures there from an earlier run, numbered past this run's, are
    /// removed). Works with -q too
    #[arg(long, value_name = "FILE.svg|DIR", value_parser = picture_path)]
    pub svg: Option<std::path::PathBuf>,

    /// Write a page with every solution listed as a picture, a page of thumbnails at a
    /// time, to view in a browser
    #[arg(long, value_name = "FILE.html", value_parser = picture_path)]
    pub html: Option<std::path::PathBuf>,

    /// Write each piece's name on it in the pictures
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub labels: bool,

    /// How each solution is written: B the brief layout; F a full definition (every piece
    /// stationary: it reads back as a puzzle); S a sub-puzzle (the placed pieces stationary,
    /// the others mobile). With F and S, L draws the pieces in L blocks, C gives them as
    /// C lines of coordinates
    #[arg(short = 'f', long = "format", value_name = "[BFS][LC]", default_value = "B",
          value_parser = parse_format)]
    pub format: Format,

    /// Goal: stop where N pieces are left and list each placement of the others as a
    /// solution. With -f S they are the sub-puzzles that together hold every solution
    /// once: solve each with -r . and add up their SOLUTIONS (0: solve to the end)
    #[arg(short = 'g', long = "goal", value_name = "N", default_value = "0")]
    pub goal: usize,

    /// Stop after this many solutions
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// Worker threads, at most 1024 [default: every core]
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS))]
    pub threads: Option<u32>,

    /// Search only shard I of N: the runs for I = 1..N together search everything once
    /// (add up their -i outputs with `fila merge`)
    #[arg(long, value_name = "I/N", value_parser = str::parse::<Shard>)]
    pub shard: Option<Shard>,

    /// Record finished subtrees in FILE (replaced atomically), so that a killed run can go on
    /// with --resume FILE
    #[arg(long, value_name = "FILE", group = "recording")]
    pub checkpoint: Option<std::path::PathBuf>,

    /// Go on with the run recorded in FILE, and keep recording there (unless --checkpoint
    /// names another file)
    #[arg(long, value_name = "FILE", group = "recording")]
    pub resume: Option<std::path::PathBuf>,

    /// Seconds between checkpoint writes
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds,
          requires = "recording")]
    pub checkpoint_every: std::time::Duration,

    /// Show progress on stderr, even with -q (as plain lines when stderr is not a
    /// terminal); --progress=false shows none [default: on a terminal, unless -q]
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = parse_flag)]
    pub progress: Option<bool>,

    /// Split the search into at least N subtrees for threads, shards and checkpoints (every
    /// shard of a run, and a resumed run, must use the same N)
    #[arg(long, value_name = "N", default_value = "1000", value_parser = clap::value_parser!(u32).range(1..))]
    pub subtrees: u32,

    /// polycube options that tune its own algorithms or trace its search (-m, -b, -e N,
    /// -o HEURISTICS, -t K: `-oY:f=20`, `-t-80`); accepted and ignored
    #[arg(short = 'm', short_aliases = ['b', 'e', 'o', 't'], long = "polycube-switch", hide = true,
          value_name = "N", action = ArgAction::Append, allow_hyphen_values = true)]
    pub polycube_switch: Vec<String>,

    /// polycube's Monte-Carlo sampling (`-s T,R,S`): refused, since a run that ignored it
    /// would search the whole tree where a sample was asked for
    #[arg(short = 's', hide = true, value_name = "T,R,S", value_parser = refuse_sampling)]
    pub polycube_sampling: Option<String>,

    /// Volume filter: drop every image that cuts off a region no combination of the other
    /// pieces can fill, before the search [default: the solver's own, shown by -i]
    #[arg(short = 'V', long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = parse_flag)]
    pub volume_filter: Option<bool>,

    /// Volume backtrack while more than N pieces are left: abandon a placement that leaves
    /// an open region no combination of the remaining pieces can fill (`off`: never)
    /// [default: the solver's own, shown by -i]
    #[arg(short = 'v', long, value_name = "N|off", value_parser = parse_threshold)]
    pub volume_backtrack: Option<Threshold>,

    /// Parity backtrack: abandon a placement that leaves an open space whose checkerboard
    /// colour balance no combination of the remaining pieces can make (while more than -v's
    /// N pieces are left, when -v is given) [default: the solver's own, shown by -i]
    #[arg(short = 'p', long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_missing_value = "true", value_parser = parse_flag)]
    pub parity: Option<bool>,

    /// FILA solvers (generated, and fila solve's default engine): use the F heuristic
    /// (first open cell) when N or fewer pieces are
    /// left, the E heuristic (fewest open neighbours, then fewest fits; with 3 or fewer left
    /// the shortest image list, uncounted) before [default: the solver's own, shown by -i as
    /// F_FROM]
    #[arg(long, value_name = "N")]
    pub f_from: Option<usize>,

    /// Estimate the search instead of running it: the number of placements, solutions and
    /// seconds on one thread, from Knuth's Monte-Carlo estimate of every subtree and a
    /// timed full search of N of them (0: the estimate alone, untimed)
    #[arg(long, value_name = "N", num_args = 0..=1, require_equals = true,
          default_missing_value = "32")]
    pub estimate: Option<usize>,

    /// With --estimate, where the solver keeps a table of dead states (whose savings
    /// Knuth's walks do not see): also run the search itself for up to SECONDS, as a run
    /// with --progress would, and extrapolate the run's time, placements and solutions
    /// as the progress display's time left is (0: no such run) [default: a tenth of the
    /// walks' estimate of the run's time, at most 60]
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, requires = "estimate")]
    pub estimate_run: Option<std::time::Duration>,

    /// With --estimate: split the search and walk it without the volume and parity
    /// backtracks, and apply them only in the sampled subtrees, so that estimates with
    /// different backtracks share their subtrees and compare pairwise (for tuning; the
    /// counts are then not exact)
    #[arg(long, hide = true)]
    pub estimate_split_unpruned: bool,

    /// Memory for the tables of dead states, shared out among the threads: placements
    /// found to lead to no solution are remembered (filled cells and pieces left), so that
    /// the search gives up the same state reached again by another order of the same
    /// pieces (`off`: never). The tables grow to it only as the search needs
    #[arg(long, value_name = "SIZE|off", default_value = "1G", value_parser = parse_memo)]
    pub memo: u64,

    /// polycube filter and heuristic flags (-P, -F, -R, -n); accepted and ignored
    #[arg(short = 'P', short_aliases = ['F', 'R', 'n'], long = "polycube-flag", hide = true,
          action = ArgAction::Count)]
    pub polycube_flag: u8,
}

/// Where `--svg` or `--html` writes: a path, never standard output, which holds the
/// solutions' listing.
pub fn picture_path(path: &str) -> Result<std::path::PathBuf, String> {
    if path == "-" {
        return Err(
            "pictures are written to a file or a directory, not to standard output (-)".to_string(),
        );
    }
    Ok(path.into())
}

fn refuse_sampling(_: &str) -> Result<String, String> {
    Err(
        "polycube's Monte-Carlo sampling is not supported here; --estimate measures the \
         search by Knuth's random walks"
            .to_string(),
    )
}

/// Rewrites polycube-style arguments into the forms clap reads: `-r` with no value (or
/// followed by an existing file) means `-r #`, and a lone `-r NAME` stays as it is.
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            // What follows is files, whatever it looks like.
            out.extend_from_slice(&args[i..]);
            break;
        }
        if a == "-r" || a == "--redundancyFilter" || a == "--redundancy-filter" {
            let next = args.get(i + 1);
            let takes_next =
                next.is_some_and(|n| !n.starts_with('-') && !std::path::Path::new(n).is_file());
            out.push(a.clone());
            if takes_next {
                out.push(args[i + 1].clone());
                i += 2;
            } else {
                out.push("#".to_string());
                i += 1;
            }
            continue;
        }
        out.push(a.clone());
        i += 1;
    }
    out
}

/// A generated solver's command line: the options alone.
#[derive(clap::Parser)]
#[command(
    about = "A FILA solver generated by fila for one puzzle",
    version = concat!(env!("CARGO_PKG_VERSION"), " (generated by fila)"),
    disable_version_flag = true
)]
struct SolverCommand {
    #[command(flatten)]
    options: Options,
    // `--version` only: `-V` is the volume filter.
    /// Print version
    #[arg(long, action = ArgAction::Version)]
    version: Option<bool>,
}

impl Options {
    /// The options of a generated solver's command line `args` (the program's name
    /// first), with polycube's spellings; clap's error otherwise, which for `--help` and
    /// `--version` is their text (`Error::exit` prints it as a run should). The version
    /// is given under the program's name: `pentomino_10x6 0.1.0 (generated by fila)`.
    pub fn try_parse_from(args: Vec<String>) -> Result<Options, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};

        let name = args
            .first()
            .and_then(|program| std::path::Path::new(program).file_stem())
            .map_or_else(|| "solver".into(), |stem| stem.to_string_lossy());
        let matches = SolverCommand::command()
            .display_name(name.into_owned())
            .try_get_matches_from(normalize_args(args))?;
        SolverCommand::from_arg_matches(&matches).map(|c| c.options)
    }

    /// The options `args` (without the program's name) give a generated solver: for a
    /// run started in-process (`cargo xtask gen --tune`), with the error's message.
    pub fn from_args(args: &[&str]) -> Result<Options, String> {
        let args = std::iter::once("solver")
            .chain(args.iter().copied())
            .map(str::to_string)
            .collect();
        Options::try_parse_from(args).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn sizes_read_with_binary_units() {
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("4K"), Ok(4096));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size("8GiB"), Ok(8 << 30));
        assert_eq!(parse_size("2 tb"), Ok(2 << 40));
        for bad in ["", "G", "1.2.3G", "12X", "-1G", "1e400"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert!(parse_size("99999999999T").is_err());
    }

    /// A command line of options and file names, as `fila solve` takes them.
    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        options: Options,
        files: Vec<String>,
    }

    /// `args` (without the program name), as a run gets them.
    fn parse(args: &[&str]) -> Cli {
        let mut v = vec!["prog".to_string()];
        v.extend(args.iter().map(|s| s.to_string()));
        Cli::try_parse_from(normalize_args(v)).unwrap()
    }

    #[test]
    fn polycube_spellings() {
        let c = parse(&[
            "--quiet=true",
            "--info=1",
            "--unique=1",
            "--redundancyFilter=#",
            "a.txt",
        ]);
        assert!(c.options.quiet && c.options.info && c.options.unique);
        assert_eq!(c.options.redundancy, RedundancyFilter::Auto);
        assert_eq!(c.files, ["a.txt"]);
        let c = parse(&[
            "-q", "-i", "-r", "L", "-m", "11", "-e", "6", "-b", "4", "x.txt",
        ]);
        assert!(c.options.quiet && c.options.info);
        assert_eq!(c.options.redundancy, RedundancyFilter::Piece("L".into()));
        assert_eq!(c.files, ["x.txt"]);
        let c = parse(&["-qi", "-r."]);
        assert!(c.options.quiet && c.options.info);
        assert_eq!(c.options.redundancy, RedundancyFilter::Off);
        let c = parse(&["--quiet=false", "-rX", "-V"]);
        assert!(!c.options.quiet);
        assert_eq!(c.options.redundancy, RedundancyFilter::Piece("X".into()));
        // What the polycube article advises for a long run: ordering and a trace, ignored.
        let c = parse(&["-V", "-p", "-oY:f=20", "-t-80", "-t", "-70", "y.txt"]);
        assert_eq!(c.options.polycube_switch, ["Y:f=20", "-80", "-70"]);
        assert_eq!(c.files, ["y.txt"]);
        // Sampling is refused, not run as a whole search.
        let sampled = normalize_args(["prog", "-s", "10,5,1", "y.txt"].map(String::from).into());
        let error = Cli::try_parse_from(sampled).err().unwrap().to_string();
        assert!(error.contains("--estimate"), "{error}");
        // After `--`, everything is a file: `-r` too.
        assert_eq!(parse(&["-r", "--", "-r"]).files, ["-r"]);
    }

    /// Checkpoints every N seconds take a checkpoint (`--checkpoint`, or `--resume`'s
    /// file, where the run goes on recording).
    #[test]
    fn checkpoint_every_needs_a_checkpoint() {
        let every = |args: &[&str]| {
            let mut v = vec!["prog", "--checkpoint-every", "5"];
            v.extend(args);
            Cli::try_parse_from(v).map(|c| c.options.checkpoint_every.as_secs())
        };
        assert!(every(&[]).is_err());
        assert_eq!(every(&["--checkpoint", "c"]).unwrap(), 5);
        assert_eq!(every(&["--resume", "c"]).unwrap(), 5);
        assert_eq!(every(&["--resume", "c", "--checkpoint", "d"]).unwrap(), 5);
        // Without it, the default (10 s) stands alone.
        assert_eq!(parse(&[]).options.checkpoint_every.as_secs(), 10);
    }

    #[test]
    fn threads_are_bounded() {
        assert_eq!(parse(&["-j", "1024"]).options.threads, Some(1024));
        for bad in ["0", "1025", "100000"] {
            let args = ["prog", "-j", bad].map(String::from).into();
            assert!(Cli::try_parse_from(normalize_args(args)).is_err(), "{bad}");
        }
    }

    #[test]
    fn polycube_formats_and_goal() {
        let c = parse(&["-f", "S", "-g", "9", "x.txt"]);
        assert_eq!(
            c.options.format,
            Format {
                layout: Layout::Sub,
                pieces: PieceForm::Drawn
            }
        );
        assert_eq!(c.options.goal, 9);
        let c = parse(&["-fFC"]);
        assert_eq!(c.options.format.layout, Layout::Full);
        assert_eq!(c.options.format.pieces, PieceForm::Coordinates);
        assert_eq!(parse(&[]).options.format, Format::default());
        assert_eq!(parse(&[]).options.goal, 0);
        for bad in ["X", "", "BLC", "L", "SCX"] {
            assert!(parse_format(bad).is_err(), "{bad}");
        }
        // polycube's -F (its fit filter) is still accepted and ignored, apart from -f.
        let c = parse(&["-F", "-fB"]);
        assert_eq!(c.options.polycube_flag, 1);
    }

    #[test]
    fn bare_r_before_a_file_means_auto() {
        let c = parse(&["-r", "Cargo.toml"]);
        assert_eq!(c.options.redundancy, RedundancyFilter::Auto);
        assert_eq!(c.files, ["Cargo.toml"]);
    }

    #[test]
    fn a_solvers_options_from_words() {
        let o =
            Options::from_args(&["--estimate=8", "--f-from", "3", "-v", "off", "-p=true"]).unwrap();
        assert_eq!(o.estimate, Some(8));
        assert_eq!(o.f_from, Some(3));
        assert_eq!(o.volume_backtrack, Some(Threshold::Off));
        assert_eq!(o.parity, Some(true));
        assert_eq!(o.redundancy, RedundancyFilter::Auto);
        // A solver takes no file names.
        assert!(Options::from_args(&["x.txt"]).is_err());
        assert!(Options::from_args(&["--f-from", "x"])
            .unwrap_err()
            .contains("--f-from"));
    }
}
