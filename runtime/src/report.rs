//! The `-i` report, written and read in one place: the block of `#` comments and
//! `KEY=VALUE` lines a run prints after its solutions (or `--estimate` prints instead of
//! them), and [`Report`], the typed reader that `fila merge`, `cargo xtask` and the tests
//! use to read it back.
//!
//! The text a run prints is a sequence of lines of four kinds: blank lines, `#` comments
//! (the solution headers `# --- SOLUTION n ---` among them), solution rows (which always
//! start with a space: every name is right-aligned in a column one wider than the longest)
//! and `KEY=VALUE` lines. A block starts at its `PUZZLE=` line; `fila solve` with several
//! files prints one block per puzzle.

use std::fmt::{Display, Write as _};

use crate::estimate::{Estimate, ShortRun};
use crate::info::{Pruning, PuzzleInfo};
use crate::options::{Options, Shard};
use crate::output::Stats;
use crate::plan::Plan;
use crate::search::Stop;

/// The result of one run: what its `-i` block reports.
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
    /// Why the run stopped before the end of its search, if it did.
    pub stopped: Option<Stop>,
}

/// A block being written.
#[derive(Default)]
struct Writer(String);

impl Writer {
    /// Appends the line `# text`.
    fn comment(&mut self, text: impl Display) {
        let _ = writeln!(self.0, "# {text}");
    }

    /// Appends the line `KEY=VALUE`.
    fn kv(&mut self, key: &str, value: impl Display) {
        let _ = writeln!(self.0, "{key}={value}");
    }
}

/// The key of a count per level, `FITS[ n]` with `n` the pieces left (two columns wide,
/// so that the lines of a puzzle of up to 99 pieces align).
fn level_key(name: &str, pieces_left: usize) -> String {
    format!("{name}[{pieces_left:2}]")
}

/// The level `n` of the key `NAME[ n]`, when it has that name.
fn level_of(key: &str, name: &str) -> Option<usize> {
    let index = key
        .strip_prefix(name)?
        .strip_prefix('[')?
        .strip_suffix(']')?;
    index.trim_start().parse().ok()
}

/// The part of the block that describes the puzzle and the plan, up to the first images:
/// a blank line and the title, the notes, `comment`, then `KEY=VALUE` lines.
fn header(info: &PuzzleInfo, plan: &Plan<'_>, options: &Options, comment: Option<&str>) -> Writer {
    let mut out = Writer::default();
    out.0.push('\n');
    out.comment(format_args!("{} ({})", info.name, info.engine));
    for note in &plan.notes {
        out.comment(note);
    }
    if !options.polycube_switch.is_empty() || options.polycube_flag > 0 {
        out.comment("polycube's algorithm-tuning options were accepted and ignored");
    }
    if let Some(comment) = comment {
        out.comment(comment);
    }
    let [x, y, z] = info.dims;
    out.kv("PUZZLE", &info.name);
    out.kv("ENGINE", &info.engine);
    out.kv("LATTICE", info.lattice.name());
    out.kv("BOX", format_args!("{x}x{y}x{z}"));
    out.kv("CELLS", info.cells());
    out.kv("PIECES", info.pieces_to_place());
    out.kv("SHAPES", info.shape_pieces.len());
    out.kv("IMAGES", info.images.len());
    out.kv("SYMMETRY", plan.symmetry_name);
    out.kv("GROUP_ORDER", plan.group.len());
    out.kv("REDUNDANCY_FILTER", &plan.first.filter);
    if plan.goal > 0 {
        out.comment("Goal (-g): the search stopped where GOAL pieces were left; SOLUTIONS and UNIQUE count those partial solutions.");
        out.kv("GOAL", plan.goal);
    }
    if options.unique {
        out.comment("Unique only (-u): SOLUTIONS counts, and the listing holds, the solutions distinct up to symmetry alone.");
        out.kv("UNIQUE_ONLY", "true");
    }
    let on_off = |on: bool| if on { "on" } else { "off" };
    out.comment("Pruning: VOLUME_FILTER (-V), and the backtracks while more than N pieces are left (-v N, -p).");
    out.kv("VOLUME_FILTER", on_off(plan.pruning.volume_filter));
    out.kv(
        "VOLUME_BACKTRACK",
        Pruning::threshold(plan.pruning.volume_backtrack),
    );
    out.kv(
        "PARITY_BACKTRACK",
        Pruning::threshold(plan.pruning.parity_backtrack),
    );
    if info.order.is_some() {
        out.comment(
            "Order: the E heuristic while more than F_FROM pieces are left, then F (--f-from N).",
        );
        out.kv("F_FROM", plan.f_from);
    }
    if let Some(kernels) = plan.kernels {
        out.comment("Kernels: the instruction set the FILA search runs in, the fastest this processor has (FILA_KERNELS=avx512|avx2|portable to choose; words wider than 64 bits run avx2 for avx512).");
        out.kv("KERNELS", kernels);
    }
    if plan.kernels.is_some() {
        out.comment("Dead states: the bytes each thread may keep placements that lead to no solution in, to give up the same state when it is reached again (--memo shared out among the threads; 0: none kept). FITS and ATTEMPTS count what was searched, so with a table they depend on the order the subtrees were searched in: on the threads, shards and resumes.");
        out.kv("MEMO", plan.memo);
    }
    out.kv("FIRST", &plan.first.what);
    out.kv("FIRST_IMAGES", plan.first.images.len());
    let checked = plan
        .first
        .stabilisers
        .iter()
        .filter(|s| !s.is_empty())
        .count();
    out.kv("FIRST_IMAGES_WITH_STABILISER_CHECK", checked);
    out
}

/// The `-i` block of a run: the header, how the search was spread, then the counts.
/// `in_shard` is the number of subtrees in this run's shard.
pub fn format_info(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    options: &Options,
    summary: &Summary,
    in_shard: usize,
) -> String {
    let stopped = "the search stopped early: the counts are partial";
    let mut out = header(info, plan, options, summary.stopped.map(|_| stopped));
    if let Some(stop) = summary.stopped {
        out.comment("Why the search stopped before its end: limit (--limit), output (the listing could not be written), pictures (the pictures could not be written), signal (SIGINT, SIGTERM or SIGHUP).");
        out.kv("STOPPED", stop.name());
    }
    out.comment("The search is split into SUBTREES independent subtrees (the first placements).");
    out.kv("SUBTREES", summary.subtrees);
    if let Some(shard) = options.shard {
        out.kv("SHARD", shard);
        out.kv("SHARD_SUBTREES", in_shard);
    }
    if summary.resumed > 0 {
        out.kv("RESUMED_SUBTREES", summary.resumed);
    }
    out.kv("THREADS", summary.threads);
    out.kv("SOLUTIONS", summary.solutions);
    out.kv("UNIQUE", summary.unique);
    let Stats { attempts, fits } = &summary.stats;
    out.kv("ATTEMPTS_TOTAL", attempts.iter().sum::<u64>());
    out.kv("FITS_TOTAL", fits.iter().sum::<u64>());
    out.comment("Placement attempts and fits when N pieces were left to place:");
    for (name, counts) in [("ATTEMPTS", attempts), ("FITS", fits)] {
        for n in (1..counts.len()).rev() {
            out.kv(&level_key(name, n), counts[n]);
        }
    }
    out.kv("SECONDS", format_args!("{:.6}", summary.seconds));
    out.0
}

/// The block `--estimate` prints: the header, how the estimate was made, its figures,
/// and the `seconds` it took.
pub fn format_estimate(
    info: &PuzzleInfo,
    plan: &Plan<'_>,
    options: &Options,
    estimate: &Estimate,
    short: Option<&ShortRun>,
    seconds: f64,
) -> String {
    let comment = "an estimate, not a count: nothing was listed";
    let mut out = header(info, plan, options, Some(comment));
    if options.estimate_split_unpruned {
        out.comment("Split and walked without the backtracks, which apply in the sample only.");
    }
    if estimate.sampled == estimate.subtrees {
        out.comment("Every one of SUBTREES subtrees searched in full: the counts are exact.");
    } else {
        out.comment(format_args!(
            "Knuth's estimate of each of SUBTREES subtrees ({} walks each), then ESTIMATE_SAMPLE \
             of them searched in full;",
            estimate.probes
        ));
    }
    out.comment("ESTIMATED_SECONDS: one thread's CPU time for the whole search.");
    out.kv("SUBTREES", estimate.subtrees);
    out.kv("ESTIMATE_SAMPLE", estimate.sampled);
    out.kv("ESTIMATED_FITS", format_args!("{:.0}", estimate.fits));
    if let Some(s) = estimate.solutions {
        out.kv("ESTIMATED_SOLUTIONS", format_args!("{s:.0}"));
    }
    if let Some(s) = estimate.seconds {
        out.kv("ESTIMATED_SECONDS", format_args!("{s:.6}"));
    }
    if let Some(run) = short {
        out.comment(
            "A short run of the search itself, as a run with --progress makes it (its table of \
             dead states, RUN_THREADS threads): RUN_SECONDS of it, RUN_FRACTION of the walks' \
             estimated work done;",
        );
        out.comment(
            "ESTIMATED_RUN_SECONDS: the run's wall time, extrapolated as the progress display's \
             time left (counted where RUN_FRACTION is 1, as are the fits and solutions).",
        );
        out.kv("RUN_THREADS", run.threads);
        out.kv("RUN_SECONDS", format_args!("{:.6}", run.seconds));
        out.kv("RUN_FRACTION", format_args!("{:.6}", run.fraction));
        out.kv("ESTIMATED_RUN_FITS", format_args!("{:.0}", run.fits));
        out.kv(
            "ESTIMATED_RUN_SOLUTIONS",
            format_args!("{:.0}", run.solutions),
        );
        out.kv(
            "ESTIMATED_RUN_SECONDS",
            format_args!("{:.6}", run.run_seconds),
        );
    }
    out.kv("SECONDS", format_args!("{seconds:.6}"));
    out.0
}

/// What is wrong with a report, and on which line of its text (from 1), when one line is
/// to blame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportError {
    pub line: Option<usize>,
    pub message: String,
}

impl ReportError {
    fn at(line: usize, message: String) -> ReportError {
        ReportError {
            line: Some(line),
            message,
        }
    }

    fn missing(key: &str) -> ReportError {
        ReportError {
            line: None,
            message: format!("no {key}= line"),
        }
    }

    /// The error as a diagnostic about the file `name`: `name:line: message`, or
    /// `name: message` when no one line is to blame.
    pub fn in_file(&self, name: &str) -> String {
        match self.line {
            Some(line) => format!("{name}:{line}: {}", self.message),
            None => format!("{name}: {}", self.message),
        }
    }
}

impl Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for ReportError {}

/// One `KEY=VALUE` line read back, with its line number in the text (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub line: usize,
    pub key: String,
    pub value: String,
}

impl Entry {
    /// The value as a count (a whole number).
    pub fn count(&self) -> Result<u64, ReportError> {
        self.value.parse().map_err(|_| self.not_a("count"))
    }

    /// The value as a number (a time, or an estimate).
    pub fn number(&self) -> Result<f64, ReportError> {
        self.value.parse().map_err(|_| self.not_a("number"))
    }

    fn not_a(&self, what: &str) -> ReportError {
        let Entry { line, key, value } = self;
        ReportError::at(*line, format!("{key}={value} is not a {what}"))
    }
}

/// Whether `key` is a key of the report: capitals, digits and `_`, starting with a capital,
/// and perhaps a level index in brackets (`FITS[ 3]`).
fn is_key(key: &str) -> bool {
    let (name, index) = match key.split_once('[') {
        Some((name, rest)) => (name, Some(rest)),
        None => (key, None),
    };
    let name_ok = name.starts_with(|c: char| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    let index_ok = match index {
        None => true,
        Some(rest) => rest.strip_suffix(']').is_some_and(|n| {
            let n = n.trim_start();
            !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
        }),
    };
    name_ok && index_ok
}

/// One `-i` block read back: its `KEY=VALUE` lines in the order written, from its
/// `PUZZLE=` line to the next block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    entries: Vec<Entry>,
}

impl Report {
    /// The last block of `text` (what a run of one puzzle printed, its listing included).
    pub fn parse(text: &str) -> Result<Report, ReportError> {
        Report::parse_all(text)?.pop().ok_or_else(|| ReportError {
            line: None,
            message: "no -i output (PUZZLE=...) found".to_string(),
        })
    }

    /// Every block of `text`, in order (none when it has no `PUZZLE=` line). A line that
    /// is not blank, a comment, a solution row or `KEY=VALUE`, a `KEY=VALUE` line before
    /// the first `PUZZLE=`, and a key given twice in one block are errors. Solutions listed
    /// as definitions (`-f F`, `-f S`) are solution rows too.
    pub fn parse_all(text: &str) -> Result<Vec<Report>, ReportError> {
        let mut reports: Vec<Report> = Vec::new();
        for (index, text_line) in text.lines().enumerate() {
            let line = index + 1;
            let definition = matches!(text_line, "L" | "~L" | "~D")
                || text_line.starts_with("D:")
                || text_line.starts_with("C:")
                || text_line.starts_with("L:");
            if text_line.is_empty() || text_line.starts_with(['#', ' ']) || definition {
                continue;
            }
            let Some((key, value)) = text_line.split_once('=').filter(|(k, _)| is_key(k)) else {
                return Err(ReportError::at(
                    line,
                    format!("expected KEY=VALUE, a # comment or a solution row, not '{text_line}'"),
                ));
            };
            if key == "PUZZLE" {
                reports.push(Report::default());
            }
            let Some(report) = reports.last_mut() else {
                return Err(ReportError::at(
                    line,
                    format!("{key}= before the first PUZZLE= line"),
                ));
            };
            if report.entry(key).is_some() {
                return Err(ReportError::at(
                    line,
                    format!("a second {key}= line in one block"),
                ));
            }
            report.entries.push(Entry {
                line,
                key: key.to_string(),
                value: value.to_string(),
            });
        }
        Ok(reports)
    }

    /// The `KEY=VALUE` lines, in the order written.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The line of `key`.
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key == key)
    }

    /// The value of `key`, as written.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.entry(key).map(|e| e.value.as_str())
    }

    fn required(&self, key: &str) -> Result<&Entry, ReportError> {
        self.entry(key).ok_or_else(|| ReportError::missing(key))
    }

    /// The count under `key`, which must be there.
    pub fn count(&self, key: &str) -> Result<u64, ReportError> {
        self.required(key)?.count()
    }

    /// The number under `key`, which must be there.
    pub fn number(&self, key: &str) -> Result<f64, ReportError> {
        self.required(key)?.number()
    }

    /// `SOLUTIONS=`: the solutions counted under the run's symmetry mode.
    pub fn solutions(&self) -> Result<u64, ReportError> {
        self.count("SOLUTIONS")
    }

    /// `UNIQUE=`: the solutions distinct up to the group.
    pub fn unique(&self) -> Result<u64, ReportError> {
        self.count("UNIQUE")
    }

    /// `FITS_TOTAL=`: the placements the search made.
    pub fn fits_total(&self) -> Result<u64, ReportError> {
        self.count("FITS_TOTAL")
    }

    /// `ATTEMPTS_TOTAL=`: the placements the search tried.
    pub fn attempts_total(&self) -> Result<u64, ReportError> {
        self.count("ATTEMPTS_TOTAL")
    }

    /// `SUBTREES=`: the subtrees the search was split into.
    pub fn subtrees(&self) -> Result<u64, ReportError> {
        self.count("SUBTREES")
    }

    /// `FITS[n]=` by the number `n` of pieces left (index 0 unused), as [`Stats`] keeps
    /// them; empty for an estimate, which has none.
    pub fn fits(&self) -> Result<Vec<u64>, ReportError> {
        self.levels("FITS")
    }

    /// `ATTEMPTS[n]=` by the number `n` of pieces left (index 0 unused).
    pub fn attempts(&self) -> Result<Vec<u64>, ReportError> {
        self.levels("ATTEMPTS")
    }

    fn levels(&self, name: &str) -> Result<Vec<u64>, ReportError> {
        let mut counts = Vec::new();
        for entry in &self.entries {
            if let Some(n) = level_of(&entry.key, name) {
                // A level is a number of pieces left, and a puzzle has at most 65535.
                if n > u16::MAX as usize {
                    return Err(ReportError::at(
                        entry.line,
                        format!("{} is beyond the 65535 levels a run can have", entry.key),
                    ));
                }
                if counts.len() <= n {
                    counts.resize(n + 1, 0);
                }
                counts[n] = entry.count()?;
            }
        }
        Ok(counts)
    }

    /// `SHARD=I/N`, when the run was one shard of several.
    pub fn shard(&self) -> Result<Option<Shard>, ReportError> {
        let Some(entry) = self.entry("SHARD") else {
            return Ok(None);
        };
        entry
            .value
            .parse()
            .map(Some)
            .map_err(|_| ReportError::at(entry.line, format!("malformed SHARD={}", entry.value)))
    }

    /// `ESTIMATED_FITS=`: `--estimate`'s placements.
    pub fn estimated_fits(&self) -> Result<f64, ReportError> {
        self.number("ESTIMATED_FITS")
    }

    /// `ESTIMATED_SOLUTIONS=`: `--estimate`'s solutions.
    pub fn estimated_solutions(&self) -> Result<f64, ReportError> {
        self.number("ESTIMATED_SOLUTIONS")
    }

    /// `ESTIMATED_SECONDS=`: `--estimate`'s CPU time of one thread for the whole search.
    pub fn estimated_seconds(&self) -> Result<f64, ReportError> {
        self.number("ESTIMATED_SECONDS")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::info::testing::example;
    use crate::output::format_solution;

    /// A run's whole output as `options` print it: one solution listed, then the block.
    fn printed(args: &[&str], summary: &Summary) -> String {
        let info = example();
        let options = Options::from_args(args).unwrap();
        let plan = Plan::resolve(&info, &options).ok().unwrap();
        let mut text = String::new();
        format_solution(&info, 1, &[0, 4], &mut text);
        text + &format_info(&info, &plan, &options, summary, 3)
    }

    fn summary() -> Summary {
        Summary {
            solutions: 4,
            unique: 2,
            stats: Stats {
                attempts: vec![0, 11, 5],
                fits: vec![0, 7, 3],
            },
            seconds: 1.25,
            threads: 2,
            subtrees: 10,
            searched: 3,
            resumed: 1,
            stopped: None,
        }
    }

    /// Found by the fuzz target `report`: a huge level index once asked for a vector of
    /// that length.
    #[test]
    fn a_level_beyond_any_puzzle_is_an_error() {
        let report = Report::parse("PUZZLE=x\nFITS[ 3]=1\nFITS[ 444444444444444443]=7\n").unwrap();
        assert_eq!(
            report.fits().unwrap_err().to_string(),
            "line 3: FITS[ 444444444444444443] is beyond the 65535 levels a run can have"
        );
        let report = Report::parse("PUZZLE=x\nATTEMPTS[65535]=1\n").unwrap();
        assert_eq!(report.attempts().unwrap().len(), 65536);
    }

    #[test]
    fn what_a_run_writes_reads_back() {
        let text = printed(&["-i", "--shard", "2/3", "-p"], &summary());
        let report = Report::parse(&text).unwrap();
        assert_eq!(report.solutions(), Ok(4));
        assert_eq!(report.unique(), Ok(2));
        assert_eq!(report.attempts(), Ok(vec![0, 11, 5]));
        assert_eq!(report.fits(), Ok(vec![0, 7, 3]));
        assert_eq!(report.attempts_total(), Ok(16));
        assert_eq!(report.fits_total(), Ok(10));
        assert_eq!(report.subtrees(), Ok(10));
        assert_eq!(report.shard(), Ok(Some(Shard { index: 2, count: 3 })));
        assert_eq!(report.number("SECONDS"), Ok(1.25));
        assert_eq!(report.get("PUZZLE"), Some("example"));
        assert_eq!(report.get("PARITY_BACKTRACK"), Some("0"));
        assert_eq!(report.get("RESUMED_SUBTREES"), Some("1"));
        // Every KEY=VALUE line written is read, in order, and nothing else.
        let written: Vec<&str> = text
            .lines()
            .filter(|l| l.contains('=') && !l.starts_with(['#', ' ']))
            .collect();
        let read: Vec<String> = report
            .entries()
            .iter()
            .map(|e| format!("{}={}", e.key, e.value))
            .collect();
        assert_eq!(read, written);
        assert_eq!(
            report.entry("SOLUTIONS").map(|e| e.line),
            text.lines().position(|l| l == "SOLUTIONS=4").map(|n| n + 1)
        );
    }

    #[test]
    fn each_puzzle_is_a_block_and_parse_takes_the_last() {
        let mut other = summary();
        other.solutions = 9;
        let text = printed(&["-i"], &summary()) + &printed(&["-i"], &other);
        let blocks = Report::parse_all(&text).unwrap();
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].solutions(), Ok(4));
        assert_eq!(blocks[0].shard(), Ok(None));
        assert_eq!(Report::parse(&text).unwrap().solutions(), Ok(9));
        assert_eq!(Report::parse_all("# nothing\n"), Ok(Vec::new()));
        assert_eq!(
            Report::parse("\n# --- SOLUTION 1 ---\n A B\n")
                .unwrap_err()
                .message,
            "no -i output (PUZZLE=...) found"
        );
    }

    #[test]
    fn what_an_estimate_writes_reads_back() {
        let info = example();
        let options = Options::from_args(&["--estimate=3"]).unwrap();
        let plan = Plan::resolve(&info, &options).ok().unwrap();
        let mut estimate = Estimate {
            subtrees: 10,
            probes: 4,
            sampled: 3,
            fits: 123.4,
            solutions: Some(5.6),
            seconds: Some(0.5),
        };
        let text = format_estimate(&info, &plan, &options, &estimate, None, 0.25);
        let report = Report::parse(&text).unwrap();
        assert_eq!(report.estimated_fits(), Ok(123.0));
        assert_eq!(report.estimated_solutions(), Ok(6.0));
        assert_eq!(report.estimated_seconds(), Ok(0.5));
        assert_eq!(report.count("ESTIMATE_SAMPLE"), Ok(3));
        assert_eq!(report.fits(), Ok(Vec::new()));
        estimate.solutions = None;
        let text = format_estimate(&info, &plan, &options, &estimate, None, 0.25);
        let report = Report::parse(&text).unwrap();
        assert_eq!(
            report.estimated_solutions().unwrap_err().to_string(),
            "no ESTIMATED_SOLUTIONS= line"
        );
    }

    #[test]
    fn malformed_lines_are_errors_with_their_line() {
        let cases = [
            ("PUZZLE=x\nnot a key\n", 2, "expected KEY=VALUE"),
            ("PUZZLE=x\nlower=1\n", 2, "expected KEY=VALUE"),
            ("PUZZLE=x\nFITS[x]=1\n", 2, "expected KEY=VALUE"),
            ("PUZZLE=x\n=1\n", 2, "expected KEY=VALUE"),
            ("SOLUTIONS=1\nPUZZLE=x\n", 1, "before the first PUZZLE="),
            (
                "PUZZLE=x\nSOLUTIONS=1\nSOLUTIONS=2\n",
                3,
                "a second SOLUTIONS=",
            ),
        ];
        for (text, line, message) in cases {
            let e = Report::parse_all(text).unwrap_err();
            assert_eq!(e.line, Some(line), "{text:?}");
            assert!(e.message.contains(message), "{text:?}: {e}");
        }
        let report = Report::parse("PUZZLE=x\nSOLUTIONS=many\nSHARD=3/2\n").unwrap();
        let e = report.solutions().unwrap_err();
        assert_eq!(
            e.in_file("out.txt"),
            "out.txt:2: SOLUTIONS=many is not a count"
        );
        assert_eq!(e.to_string(), "line 2: SOLUTIONS=many is not a count");
        assert_eq!(report.shard().unwrap_err().line, Some(3));
        assert_eq!(
            report.fits_total().unwrap_err().in_file("out.txt"),
            "out.txt: no FITS_TOTAL= line"
        );
    }

    /// Whatever is cut out of a report, reading it gives a report or an error.
    #[test]
    fn damaged_reports_never_panic() {
        let text = printed(&["-i", "--shard", "1/2"], &summary());
        let read = |text: &str| {
            for report in Report::parse_all(text).unwrap_or_default() {
                let _ = (report.solutions(), report.fits(), report.attempts());
                let _ = (report.shard(), report.estimated_fits(), report.subtrees());
            }
        };
        for (at, _) in text.char_indices() {
            read(&text[..at]);
            read(&format!("{}{}", &text[..at], &text[at + 1..]));
        }
    }
}
