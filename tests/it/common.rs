//! Helpers shared by the integration tests: running the `fila` binary, reading its
//! `-i` report, running the generic engine in-process, and reading solution
//! listings back.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use runtime::report::Report;

/// The `fila` executable built for this test run (debug under `cargo test`).
pub fn fila() -> &'static str {
    env!("CARGO_BIN_EXE_fila")
}

/// The workspace root, where `puzzles/` and `tests/` live; the binary runs from here.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A scratch directory of one test, `fila-tests/NAME` beside the `fila` executable,
/// emptied: every test names its own.
pub fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(fila())
        .parent()
        .unwrap()
        .join("fila-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The files (and directories) of `dir`, sorted; none when it does not exist.
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.expect("a directory entry").path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// Runs `exe ARGS` in the workspace root.
pub fn run(exe: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(root())
        .output()
        .unwrap_or_else(|e| panic!("{} does not run: {e}", exe.display()))
}

/// Runs `exe ARGS` in the workspace root, which must succeed; returns its standard output.
pub fn run_ok(exe: &Path, args: &[&str]) -> String {
    let out = run(exe, args);
    assert!(
        out.status.success(),
        "{} {args:?}: {:?}\n{}",
        exe.display(),
        out.status,
        stderr(&out)
    );
    stdout(&out)
}

/// Runs `exe ARGS` in the workspace root with its standard output on a full disk
/// (`/dev/full`, where every write fails with ENOSPC).
pub fn run_onto_full_disk(exe: &Path, args: &[&str]) -> Output {
    let full = std::fs::File::create("/dev/full").expect("/dev/full opens");
    Command::new(exe)
        .args(args)
        .current_dir(root())
        .stdout(full)
        .output()
        .expect("the executable runs")
}

/// Every `*.txt` in `dir` (relative to the workspace root), sorted.
pub fn txt_files(dir: &str) -> Vec<PathBuf> {
    xtask::txt_files(&root().join(dir)).unwrap_or_else(|e| panic!("{e}"))
}

/// The contents of `path`, which must be readable.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The executable `cargo test` built for `puzzles/NAME.txt`.
pub fn executable(name: &str) -> std::path::PathBuf {
    let exe = Path::new(fila()).with_file_name(name);
    assert!(
        exe.exists(),
        "{} is missing: is src/bin/{name}.rs there?",
        exe.display()
    );
    exe
}

/// Runs `fila` with `args` from the workspace root, feeding `stdin` (empty when `None`).
pub fn run_fila(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(fila())
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the fila binary runs");
    let input = stdin.unwrap_or("").to_string();
    let mut pipe = child.stdin.take().unwrap();
    // Write from another thread so that a large input cannot deadlock against the output.
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("fila finishes");
    writer.join().unwrap();
    output
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// The `-i` report at the end of a run's output `text` (its last block), which must read.
pub fn report(text: &str) -> Report {
    Report::parse(text).unwrap_or_else(|e| panic!("{e}, in:\n{text}"))
}

/// The count under `key`, which must be there.
pub fn number(report: &Report, key: &str) -> u64 {
    report
        .count(key)
        .unwrap_or_else(|e| panic!("{e}, in {report:?}"))
}

/// The value under `key`, which must be there.
pub fn value_of<'r>(report: &'r Report, key: &str) -> &'r str {
    report
        .get(key)
        .unwrap_or_else(|| panic!("no {key}= in {report:?}"))
}

/// Runs `fila solve -q -i ARGS FILE` (FILE relative to the workspace root), checks that it
/// succeeds without a word on stderr and prints `SOLUTIONS=expected`, and returns its
/// `-i` report.
pub fn check(file: &str, args: &[&str], expected_solutions: u64) -> Report {
    let mut all = vec!["solve", "-q", "-i"];
    all.extend_from_slice(args);
    all.push(file);
    let out = run_fila(&all, None);
    let err = stderr(&out);
    assert!(
        out.status.success(),
        "fila {all:?} failed with {:?}: {err}",
        out.status
    );
    assert!(err.is_empty(), "fila {all:?} wrote to stderr: {err}");
    let map = report(&stdout(&out));
    assert_eq!(
        number(&map, "SOLUTIONS"),
        expected_solutions,
        "SOLUTIONS= of fila {all:?}"
    );
    map
}

/// Options as `fila solve` would get them with no flag at all. They are taken from clap's
/// defaults rather than written field by field, so that a field added to `Options` later
/// (threads, shards, ...) does not break these tests; the tests then set the fields they
/// mean.
pub fn default_options() -> runtime::Options {
    parse_options(&[])
}

/// Options as `fila solve ARGS` would get them (the arguments must parse).
pub fn parse_options(args: &[&str]) -> runtime::Options {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        options: runtime::Options,
    }
    let all = std::iter::once("fila").chain(args.iter().copied());
    Cli::try_parse_from(all)
        .unwrap_or_else(|e| panic!("options {args:?}: {e}"))
        .options
}

/// Options for an in-process run: `redundancy` is `-r`'s value.
pub fn options(redundancy: &str, mirror: bool, unique: bool, quiet: bool) -> runtime::Options {
    let mut o = default_options();
    o.redundancy = runtime::RedundancyFilter::from(redundancy);
    o.mirror = mirror;
    o.unique = unique;
    o.quiet = quiet;
    o.info = false;
    o.limit = None;
    o
}

/// What an in-process run produced.
pub struct InProcess {
    pub solutions: u64,
    pub unique: u64,
    /// `FITS_TOTAL`: the placements the search made.
    pub fits: u64,
    /// The listing (empty when quiet).
    pub output: String,
    /// The box, for reading the listing back.
    pub dims: [usize; 3],
}

/// Solves the first puzzle of `text` with dancing links, in-process, as
/// `fila solve --engine dlx` does (`puzzle::solve::prepare`): `-r NAME` builds the model
/// for that piece; `#` and `.` use the automatic choice (the unfiltered stage is always
/// present); `-V` filters the images first. `Err` carries the message `fila solve` would
/// print before exiting with status 2.
pub fn solve_in_process(text: &str, opts: &runtime::Options) -> Result<InProcess, String> {
    use puzzle::limits::{Engine, Limits};
    let puzzles =
        generator::load("case.txt", text).map_err(|d| generator::diag::render(&d, text))?;
    let puzzle = puzzles.into_iter().next().ok_or("no puzzle in the text")?;
    let mut prepared = puzzle::solve::prepare(puzzle, opts, Some(Engine::Dlx), &Limits::default())?;
    let mut search = prepared.search();
    let mut out: Vec<u8> = Vec::new();
    let summary = runtime::run(&prepared.info, search.as_mut(), opts, &mut out).map_err(|e| e.0)?;
    Ok(InProcess {
        solutions: summary.solutions,
        unique: summary.unique,
        fits: summary.stats.fits.iter().sum(),
        output: String::from_utf8(out).unwrap(),
        dims: prepared.info.dims,
    })
}

/// One listed solution: for each piece name, its cells `[x, y, z]` (sorted).
pub type Listed = BTreeMap<String, Vec<[i32; 3]>>;

/// Reads polycube's brief listing back: every `# --- SOLUTION n ---` block with its rows
/// (top row y = yDim-1 first, z layers separated by `, `). Checks that the blocks are
/// numbered 1, 2, 3, ... and that every row has the box's shape.
pub fn parse_listing(text: &str, dims: [usize; 3]) -> Vec<Listed> {
    let [xd, yd, zd] = dims;
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("# --- SOLUTION ") else {
            continue;
        };
        let n: usize = rest
            .strip_suffix(" ---")
            .expect("a solution header")
            .parse()
            .unwrap();
        assert_eq!(n, out.len() + 1, "solutions are numbered in order");
        let mut listed = Listed::new();
        for y in (0..yd).rev() {
            let row = lines.next().expect("a solution row");
            let layers: Vec<&str> = row.split(", ").collect();
            assert_eq!(layers.len(), zd, "row {row:?} has one segment per z layer");
            for (z, layer) in layers.iter().enumerate() {
                let names: Vec<&str> = layer.split_whitespace().collect();
                assert_eq!(names.len(), xd, "row {row:?} has one name per x");
                for (x, name) in names.iter().enumerate() {
                    assert_ne!(*name, ".", "a solution leaves no cell open");
                    listed
                        .entry(name.to_string())
                        .or_default()
                        .push([x as i32, y as i32, z as i32]);
                }
            }
        }
        for cells in listed.values_mut() {
            cells.sort_unstable();
        }
        out.push(listed);
    }
    out
}

/// The generator of random puzzles, seeded by proptest: the runtime's.
pub use runtime::rng::SplitMix64;

/// The draws the random puzzles make, on top of the runtime's generator.
pub trait Draws {
    /// True one time in `one_in`.
    fn chance(&mut self, one_in: usize) -> bool;
    /// True `p` times in a hundred.
    fn percent(&mut self, p: u64) -> bool;
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T;
    fn shuffle<T>(&mut self, items: &mut [T]);
}

impl Draws for SplitMix64 {
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }

    fn percent(&mut self, p: u64) -> bool {
        self.next_u64() % 100 < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A solution as the set of its mobile pieces' cell sets: copies are not told apart.
pub type CellSets<C> = BTreeSet<Vec<C>>;

/// How many classes `solutions` fall into under `group` (maps of the cells).
pub fn orbits<C: Ord + Copy>(solutions: &[CellSets<C>], group: &[&BTreeMap<C, C>]) -> usize {
    let canonical = |s: &CellSets<C>| -> CellSets<C> {
        group
            .iter()
            .map(|g| {
                s.iter()
                    .map(|piece| {
                        let mut moved: Vec<C> = piece.iter().map(|c| g[c]).collect();
                        moved.sort_unstable();
                        moved
                    })
                    .collect::<CellSets<C>>()
            })
            .min()
            .expect("a group has the identity")
    };
    solutions
        .iter()
        .map(canonical)
        .collect::<BTreeSet<_>>()
        .len()
}

/// `fila solve -i -r . ARGS` on `text`: the listed solutions (without the pieces named in
/// `stationary`) and the `-i` counts SOLUTIONS and UNIQUE.
pub fn listing(
    text: &str,
    dims: [usize; 3],
    stationary: &[String],
    args: &[&str],
) -> (Vec<CellSets<[i32; 3]>>, u64, u64) {
    let mut all = vec!["solve", "-i", "-r", "."];
    all.extend_from_slice(args);
    let out = run_fila(&all, Some(text));
    assert!(out.status.success(), "{args:?}: {}\n{text}", stderr(&out));
    let text = stdout(&out);
    let map = report(&text);
    let sols = parse_listing(&text, dims)
        .into_iter()
        .map(|listed| {
            listed
                .into_iter()
                .filter(|(name, _)| !stationary.contains(name))
                .map(|(_, cells)| cells)
                .collect()
        })
        .collect();
    (sols, number(&map, "SOLUTIONS"), number(&map, "UNIQUE"))
}

/// `cells` cut into random connected pieces of 2 to 5 cells (fewer where a piece finds
/// no room to grow), `touching` telling which cells are neighbours.
pub fn random_cut<C: Ord + Copy>(
    cells: &[C],
    touching: impl Fn(C, C) -> bool,
    rng: &mut SplitMix64,
) -> Vec<Vec<C>> {
    let mut free: BTreeSet<C> = cells.iter().copied().collect();
    let mut pieces = Vec::new();
    while !free.is_empty() {
        let start = *free.iter().nth(rng.below(free.len())).unwrap();
        let size = 2 + rng.below(4);
        let mut piece = vec![start];
        free.remove(&start);
        while piece.len() < size {
            let grow: Vec<C> = free
                .iter()
                .copied()
                .filter(|&c| piece.iter().any(|&p| touching(p, c)))
                .collect();
            if grow.is_empty() {
                break;
            }
            let c = *rng.pick(&grow);
            free.remove(&c);
            piece.push(c);
        }
        pieces.push(piece);
    }
    pieces
}

/// The whole listing (`listing`) by both engines, which must list the same solutions,
/// each once, with the same counts, and at least one (a puzzle cut from its board has
/// one): the FILA engine's listing and its UNIQUE.
pub fn listed_alike(
    text: &str,
    dims: [usize; 3],
    stationary: &[String],
) -> (Vec<CellSets<[i32; 3]>>, u64) {
    let (fila, all, unique) = listing(text, dims, stationary, &["--engine", "fila"]);
    let (dlx, dlx_all, dlx_unique) = listing(text, dims, stationary, &["--engine", "dlx"]);
    let (a, b): (BTreeSet<_>, BTreeSet<_>) = (fila.iter().collect(), dlx.iter().collect());
    assert_eq!(a, b, "the engines list different solutions:\n{text}");
    assert_eq!((all, unique), (dlx_all, dlx_unique), "{text}");
    assert!(
        all >= 1,
        "a puzzle cut from its board has a solution:\n{text}"
    );
    // Copies make solutions that differ only by swapping them: the listing counts those
    // once, as the set of cell sets does.
    assert_eq!(a.len() as u64, all, "{text}");
    (fila, unique)
}
