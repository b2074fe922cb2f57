//! Tests of the generator and of the solvers it writes: the checked-in files are fresh,
//! generation is deterministic and a fixed point of prettyplease, every generated
//! executable and the run-time FILA engine agree with the dancing-links oracle and the
//! published counts on every puzzle file, random small puzzles (on every lattice) built
//! into a crate that depends on the runtime alone agree with the oracle (and so does the
//! run-time engine on them). (The trybuild UI cases are a package of their own,
//! `tests/ui`.)

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

use crate::common::{executable, options, read, report, root, txt_files};

// ---------------------------------------------------------------------------------------
// Shared helpers.

fn stem(path: &Path) -> &str {
    path.file_stem().and_then(|s| s.to_str()).unwrap()
}

/// One way of running a solver: the command-line flags and the same options in-process.
#[derive(Clone, Copy, Debug)]
struct Mode {
    redundancy: &'static str,
    mirror: bool,
    unique: bool,
    quiet: bool,
}

impl Mode {
    const fn new(redundancy: &'static str, mirror: bool, unique: bool, quiet: bool) -> Mode {
        Mode {
            redundancy,
            mirror,
            unique,
            quiet,
        }
    }

    fn args(&self) -> Vec<&'static str> {
        let mut args = vec!["-i"];
        if self.quiet {
            args.push("-q");
        }
        if self.unique {
            args.push("-u");
        }
        if self.redundancy != "#" {
            args.extend(["-r", self.redundancy]);
        }
        if self.mirror {
            args.push("--mirror");
        }
        args
    }

    fn options(&self) -> runtime::Options {
        let mut o = options(self.redundancy, self.mirror, self.unique, self.quiet);
        o.info = true;
        o
    }
}

/// The `-q -i` runs every solver is checked in: `-r #`, `-r .` and `-u -r .`, each with
/// and without `--mirror` (the `--mirror` runs only where the piece set is closed under
/// mirroring: elsewhere the runtime warns on stderr and counts up to rotations, which
/// the runs without `--mirror` already check).
const QUIET_MODES: [Mode; 6] = [
    Mode::new("#", false, false, true),
    Mode::new(".", false, false, true),
    Mode::new(".", false, true, true),
    Mode::new("#", true, false, true),
    Mode::new(".", true, false, true),
    Mode::new(".", true, true, true),
];

/// What one run printed, reduced to what must agree between two engines.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    /// The `KEY=VALUE` lines of `-i` that depend on the puzzle and the options only: not
    /// the engine's name, its timing, its placement counts, its table of dead states, or
    /// how its search was split.
    keys: BTreeMap<String, String>,
    /// The listed solutions, numbering lines removed, sorted (empty when quiet).
    solutions: Vec<String>,
}

impl Outcome {
    fn of(text: &str) -> Outcome {
        let same = |k: &str| {
            !(k == "ENGINE"
                || k == "F_FROM"
                || k == "KERNELS"
                || k == "MEMO"
                || k == "SECONDS"
                || k == "SUBTREES"
                || k == "THREADS"
                || k.starts_with("ATTEMPTS")
                || k.starts_with("FITS"))
        };
        let keys = report(text)
            .entries()
            .iter()
            .filter(|e| same(&e.key))
            .map(|e| (e.key.clone(), e.value.clone()))
            .collect();
        Outcome {
            keys,
            solutions: solution_blocks(text),
        }
    }

    fn count(&self, key: &str) -> u64 {
        self.keys
            .get(key)
            .unwrap_or_else(|| panic!("no {key}= in {:?}", self.keys))
            .parse()
            .unwrap()
    }

    /// Where `self` (a run of a FILA solver) differs from `oracle` (the reference), in
    /// words.
    fn differences(&self, oracle: &Outcome) -> Vec<String> {
        let mut out = Vec::new();
        let keys: std::collections::BTreeSet<&String> =
            self.keys.keys().chain(oracle.keys.keys()).collect();
        for k in keys {
            let (a, b) = (self.keys.get(k), oracle.keys.get(k));
            if a != b {
                out.push(format!("{k}: {a:?} here, {b:?} in the reference"));
            }
        }
        if self.solutions != oracle.solutions {
            let only_here = self
                .solutions
                .iter()
                .filter(|s| oracle.solutions.binary_search(s).is_err())
                .count();
            let only_there = oracle
                .solutions
                .iter()
                .filter(|s| self.solutions.binary_search(s).is_err())
                .count();
            let example = self
                .solutions
                .iter()
                .find(|s| oracle.solutions.binary_search(s).is_err())
                .or_else(|| {
                    oracle
                        .solutions
                        .iter()
                        .find(|s| self.solutions.binary_search(s).is_err())
                });
            out.push(format!(
                "listings differ: {} solutions listed here, {} by the reference; \
                 {only_here} only in the first, {only_there} only in the second; for example\n{}",
                self.solutions.len(),
                oracle.solutions.len(),
                example.map_or("(the same set, listed a different number of times)", |s| s)
            ));
        }
        out
    }
}

/// The `# --- SOLUTION n ---` blocks of a listing without their numbering line, sorted,
/// so that two engines that find the same solutions in a different order compare equal.
fn solution_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if !line.starts_with("# --- SOLUTION ") {
            continue;
        }
        let mut block = String::new();
        while let Some(row) = lines.next_if(|l| !l.is_empty() && !l.starts_with('#')) {
            block.push_str(row);
            block.push('\n');
        }
        blocks.push(block);
    }
    blocks.sort();
    blocks
}

/// The model and the runtime description of the one puzzle in `text`, as `generate`
/// builds them with `redundancy` (the piece a generated solver constrains, or the
/// automatic choice).
fn prepared(
    label: &str,
    text: &str,
    config: &generator::Config,
) -> (generator::model::Puzzle, runtime::PuzzleInfo) {
    let (puzzle, info, _) = prepared_with(label, text, config, true);
    (puzzle, info)
}

/// The same, with the parity filter or without it, and the number of images it dropped.
fn prepared_with(
    label: &str,
    text: &str,
    config: &generator::Config,
    parity_filter: bool,
) -> (generator::model::Puzzle, runtime::PuzzleInfo, usize) {
    let mut puzzles = generator::load(label, text).unwrap_or_else(|d| {
        panic!(
            "{label} does not load:\n{}",
            generator::diag::render(&d, text)
        )
    });
    // A solver generated with -V searches the filtered images: so does its oracle, as
    // `fila solve -V` would (the published counts check the filter itself). Likewise
    // with the parity filter every FILA solver applies (and the oracle on the images it
    // keeps is checked against the oracle on all of them: [`parity_filter_changes`]).
    if config.pruning.volume_filter {
        puzzles[0].volume_filter();
    }
    let dropped = if parity_filter {
        puzzles[0].parity_filter()
    } else {
        0
    };
    let mut info =
        generator::info::puzzle_info(&puzzles[0], &config.redundancy, "dancing-links oracle")
            .unwrap_or_else(|e| panic!("{label}: {}", e.0));
    info.pruning = config.pruning;
    (puzzles.remove(0), info, dropped)
}

/// Where the oracle on the images the parity filter keeps (`filtered`) differs from the
/// oracle on all of them (`plain`), in `mode`, in what the filter must not change: the
/// classes of solutions, and without the redundancy filter every solution and its
/// listing (with it, the automatic choice may take another piece, and list another
/// member of a class, as with `-V`).
fn parity_filter_changes(filtered: &Outcome, plain: &Outcome, mode: Mode) -> Vec<String> {
    let mut keys = vec!["UNIQUE"];
    if mode.redundancy == "." {
        keys.push("SOLUTIONS");
    }
    let mut out: Vec<String> = keys
        .into_iter()
        .filter(|k| filtered.count(k) != plain.count(k))
        .map(|k| {
            format!(
                "{k}: {} with the parity filter, {} without",
                filtered.count(k),
                plain.count(k)
            )
        })
        .collect();
    if mode.redundancy == "." && filtered.solutions != plain.solutions {
        out.push("the listings differ with the parity filter and without".to_string());
    }
    out
}

/// The runtime description of the one puzzle in `text` (see [`prepared`]).
fn puzzle_info(label: &str, text: &str, config: &generator::Config) -> runtime::PuzzleInfo {
    prepared(label, text, config).1
}

/// Runs the run-time FILA engine (`fila solve`'s) in-process on `puzzle`, described by
/// `info`, with the options of `mode`, switching from E to F at `f_from` pieces left
/// (F throughout when `None`).
fn run_time(
    puzzle: &generator::model::Puzzle,
    info: &runtime::PuzzleInfo,
    mode: Mode,
    f_from: Option<usize>,
) -> Outcome {
    Outcome::of(&run_time_text(puzzle, info, mode, f_from))
}

/// What [`run_time`] prints.
fn run_time_text(
    puzzle: &generator::model::Puzzle,
    info: &runtime::PuzzleInfo,
    mode: Mode,
    f_from: Option<usize>,
) -> String {
    let pieces = puzzle.mobile_pieces();
    let ir = puzzle::fila::lower(puzzle, pieces, true)
        .unwrap_or_else(|e| panic!("{}: the run-time engine refuses it: {}", info.name, e.0));
    let mut info = info.clone();
    info.order = Some(runtime::Order {
        f_from: pieces,
        e_stage: true,
    });
    let mut search = puzzle::fila::solver(&ir);
    let mut options = mode.options();
    options.f_from = f_from;
    options.threads = Some(1);
    let mut out: Vec<u8> = Vec::new();
    runtime::run(&info, search.as_mut(), &options, &mut out)
        .unwrap_or_else(|e| panic!("the run-time engine refuses {mode:?}: {}", e.0));
    String::from_utf8(out).unwrap()
}

/// Runs the dancing-links oracle in-process with the options of `mode`.
fn oracle(info: &runtime::PuzzleInfo, mode: Mode) -> Outcome {
    let mut search = generator::engine::DlxSearch::new(info);
    let mut out: Vec<u8> = Vec::new();
    runtime::run(info, &mut search, &mode.options(), &mut out)
        .unwrap_or_else(|e| panic!("the oracle refuses {mode:?}: {}", e.0));
    Outcome::of(&String::from_utf8(out).unwrap())
}

/// Runs `exe ARGS` (with the environment `env` added), killing it after `limit`. Returns
/// its stdout; fails when it exits unsuccessfully or writes to stderr.
fn run_executable(exe: &Path, args: &[&str], env: &[(&str, String)], limit: Duration) -> String {
    let shown = format!(
        "{}{}{}",
        env.iter()
            .map(|(k, v)| format!("{k}={v} "))
            .collect::<String>(),
        exe.display(),
        args.iter().map(|a| format!(" {a}")).collect::<String>()
    );
    let mut child = Command::new(exe)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    // Read both pipes from threads so that a large listing cannot block the child.
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            pipe.read_to_string(&mut s).map(|_| s)
        })
    };
    let stdout = reader(Box::new(child.stdout.take().unwrap()));
    let stderr = reader(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{shown} ran longer than {limit:?}: killed");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let stdout = stdout.join().unwrap().expect("stdout is UTF-8");
    let stderr = stderr.join().unwrap().expect("stderr is UTF-8");
    assert!(
        status.success() && stderr.is_empty(),
        "{shown} failed ({status}):\n{stderr}"
    );
    stdout
}

// ---------------------------------------------------------------------------------------
// 1. Freshness.

/// Fails when a file in `generated/` or a stub in `src/bin/` is stale, missing or has no
/// puzzle behind it: the same check as `cargo xtask gen --check`, each puzzle with the
/// options its generated file records, and the same report of which files and why.
#[test]
fn generated_files_are_fresh() {
    let root = root();
    let mut stale = Vec::new();
    for puzzle in txt_files("puzzles") {
        let config = xtask::recorded_config(root, &puzzle);
        match xtask::gen_one(root, &puzzle, &config, true) {
            Ok(outcomes) => stale.extend(outcomes.iter().map(|o| o.report(root))),
            Err(e) => stale.push(format!("{}: {e}", puzzle.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "\n{}{}",
        stale.concat(),
        generator::stamp::FIX
    );
    assert_eq!(
        generator::stamp::orphans(root).unwrap(),
        Vec::<String>::new()
    );
}

/// The build script and the generator agree on the generator's identity (each hashes
/// the generator's sources itself), and the build's check passes on this workspace.
#[test]
fn the_build_and_the_generator_hash_the_same_sources() {
    let hash = generator::stamp::source_hash(root()).unwrap();
    let identity = generator::stamp::generator_identity(env!("CARGO_PKG_VERSION"), hash);
    assert_eq!(identity, generator::GENERATOR);
    let reports = generator::stamp::check_workspace(root(), &identity);
    assert!(reports.is_empty(), "{}", reports.concat());
}

/// An edit to a source file of the generator makes the build refuse every generated
/// file, naming each with the stamp line that differs: what the root build script does
/// (hash the sources, then check the workspace), on a copy of the workspace's puzzles,
/// stamps, stubs and generator sources in which one comment of the emitter is edited.
#[test]
fn editing_the_generator_makes_the_build_refuse_every_generated_file() {
    let copy = root().join("target/fila-stale-generator");
    let _ = std::fs::remove_dir_all(&copy);
    // Copies `dir` and what is below it; a generated file keeps only its stamp, which is
    // all the build reads of it (its tables are copied whole: the stamp records them).
    fn copy_tree(from: &Path, to: &Path) {
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            let path = entry.path();
            let target = to.join(entry.file_name());
            if path.is_dir() {
                copy_tree(&path, &target);
                continue;
            }
            std::fs::create_dir_all(to).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let generated_code = path.extension().is_some_and(|e| e == "rs")
                && from.file_name().is_some_and(|d| d == "generated");
            if generated_code {
                let code = String::from_utf8(bytes).unwrap();
                std::fs::write(&target, generator::stamp::stamp_of(&code)).unwrap();
            } else {
                std::fs::write(&target, bytes).unwrap();
            }
        }
    }
    for dir in ["puzzles", "src/bin", "generated"]
        .into_iter()
        .chain(generator::stamp::GENERATOR_SOURCES)
    {
        copy_tree(&root().join(dir), &copy.join(dir));
    }
    let build_check = || {
        let hash = generator::stamp::source_hash(&copy).unwrap();
        let identity = generator::stamp::generator_identity(env!("CARGO_PKG_VERSION"), hash);
        generator::stamp::check_workspace(&copy, &identity)
    };
    assert!(build_check().is_empty(), "{}", build_check().concat());

    // A table stored as bytes that is not the one its file was generated with.
    let table = copy.join("generated/pentomino_10x6/f_masks.bin");
    let original = std::fs::read(&table).unwrap();
    let mut changed = original.clone();
    changed[0] ^= 1;
    std::fs::write(&table, &changed).unwrap();
    let reports = build_check();
    assert_eq!(reports.len(), 1, "{}", reports.concat());
    assert!(
        reports[0].starts_with("error: generated/pentomino_10x6.rs is stale: its tables"),
        "{}",
        reports[0]
    );
    std::fs::write(&table, &original).unwrap();
    assert!(build_check().is_empty(), "{}", build_check().concat());

    let emitter = copy.join("generator/src/emit/mod.rs");
    let edited = read(&emitter).replacen("//! ", "//! (edited) ", 1);
    std::fs::write(&emitter, edited).unwrap();
    let reports = build_check();
    let puzzles = txt_files("puzzles");
    assert_eq!(reports.len(), puzzles.len(), "{}", reports.concat());
    for (report, puzzle) in reports.iter().zip(&puzzles) {
        let first = format!(
            "error: generated/{}.rs is stale: the generator changed\n",
            stem(puzzle)
        );
        assert!(report.starts_with(&first), "{report}");
        assert!(report.contains("- // generator: "), "{report}");
        assert!(report.contains("+ // generator: "), "{report}");
    }
    std::fs::remove_dir_all(&copy).unwrap();
}

// ---------------------------------------------------------------------------------------
// 2. Determinism.

/// Generating twice gives the same bytes, and everything after the stamp (the leading
/// `//` lines up to the first blank line) is exactly what prettyplease makes of it: the
/// output is a fixed point of parse-and-unparse.
fn check_deterministic(label: &str, text: &str, config: &generator::Config) {
    let first = generator::generate(label, text, config)
        .unwrap_or_else(|d| panic!("{label}:\n{}", generator::diag::render(&d, text)));
    let second = generator::generate(label, text, config).unwrap();
    assert!(first == second, "{label}: two generations differ");
    let first = first.code;
    let stamp = format!("// @generated by cargo xtask gen {label} — do not edit\n");
    assert!(
        first.starts_with(&stamp),
        "{label}: the generated file does not open with its stamp {stamp:?}"
    );
    let (header, body) = first
        .split_once("\n\n")
        .unwrap_or_else(|| panic!("{label}: no blank line after the stamp"));
    assert!(
        header.lines().all(|l| l.starts_with("// ")),
        "{label}: the stamp is not all `//` lines:\n{header}"
    );
    let file = syn::parse_file(body).unwrap_or_else(|e| panic!("{label}: not Rust: {e}"));
    let again = prettyplease::unparse(&file);
    if again != body {
        let line = body
            .lines()
            .zip(again.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(body.lines().count().min(again.lines().count()));
        panic!(
            "{label}: not a fixed point of prettyplease; first difference at body line {}:\n  \
             generated: {:?}\n  reformatted: {:?}",
            line + 1,
            body.lines().nth(line),
            again.lines().nth(line)
        );
    }
}

#[test]
fn generation_is_deterministic_and_prettyplease_stable() {
    for puzzle in txt_files("puzzles") {
        let config = xtask::recorded_config(root(), &puzzle);
        check_deterministic(
            &format!("puzzles/{}.txt", stem(&puzzle)),
            &read(&puzzle),
            &config,
        );
    }
}

#[test]
fn random_puzzles_generate_deterministically() {
    for (k, case) in random_cases().iter().enumerate() {
        check_deterministic(&case.label(k), &case.text, &generator::Config::default());
    }
}

// ---------------------------------------------------------------------------------------
// 3. The generated executables against the oracle and the published counts.

/// Published counts (/work/shared/puzzles/COUNTS.md): file stem, `--mirror`, then
/// `SOLUTIONS=` with `-r #`, and `SOLUTIONS=` (where published) and `UNIQUE=` with `-r .`.
const PUBLISHED: &[(&str, bool, u64, Option<u64>, u64)] = &[
    ("pentomino_10x6", false, 2339, Some(9356), 2339),
    ("pentomino_10x6", true, 2339, Some(9356), 2339),
    ("soma", false, 480, Some(11520), 480),
    ("soma", true, 240, Some(11520), 240),
    ("tetriscube", false, 9839, Some(236136), 9839),
    ("bedlam", false, 19186, None, 19186),
    ("one_sided_30x3", false, 46, Some(184), 46),
    ("one_sided_30x3", true, 46, Some(184), 46),
];

/// Puzzles too slow for the default run, each with whether the oracle runs without the
/// filter too; `executables_agree_slow` takes them. The tetrahexes twice over have no
/// filter piece (every shape has two copies): both runs reduce afterwards.
const SLOW: &[(&str, bool)] = &[
    ("tetriscube", false),
    ("bedlam", false),
    ("tetrahexes_twice_4x14", true),
];

/// Puzzles whose oracle run without the filter is too slow for the default run: there,
/// `-r .` is judged by the published counts alone.
const MEDIUM: &[&str] = &["one_sided_30x3"];

/// Puzzles far too slow for the oracle: the ignored tests check the generated solver's
/// count against the published one, under the filter only (the one-sided 10x9 alone in
/// [`one_sided_10x9_count`]).
const PUBLISHED_ONLY: &[(&str, u64)] = &[
    ("one_sided_18x5", 686628),
    ("one_sided_15x6", 2567183),
    ("one_sided_10x9", 10440433),
];

/// Runs the executable of `puzzles/NAME.txt` in `-q -i` with `-r #` and `-r .` (and
/// `--mirror` where the piece set is mirror-closed) and compares with the oracle and
/// with the published counts. With `oracle_unfiltered` false the oracle runs with the
/// filter on only, and `-r .` is judged by the published counts alone: the
/// dancing-links engine takes about 2 minutes for the Tetris Cube with `-r #` and some
/// 24 times that without the filter.
fn check_executable(name: &str, oracle_unfiltered: bool) {
    let path = root().join("puzzles").join(format!("{name}.txt"));
    // The executable was generated with the options its stamp records (`-r PIECE`, say):
    // the oracle constrains the same piece.
    let config = xtask::recorded_config(root(), &path);
    let (puzzle, info) = prepared(&format!("puzzles/{name}.txt"), &read(&path), &config);
    let exe = executable(name);
    let mut problems = Vec::new();
    for mirror in [false, true] {
        if mirror && info.mirror.is_err() {
            continue;
        }
        let published = PUBLISHED
            .iter()
            .find(|p| p.0 == name && p.1 == mirror)
            .map(|p| (p.2, p.3, p.4));
        for redundancy in ["#", "."] {
            let mode = Mode::new(redundancy, mirror, false, true);
            // One thread, as the run-time engine below: with the table of dead states,
            // the placements depend on the order of the subtrees.
            let mut args = mode.args();
            args.extend(["-j", "1"]);
            let text = run_executable(&exe, &args, &[], Duration::from_secs(600));
            let here = Outcome::of(&text);
            // The run-time engine at the generated solver's switch: the same solutions, and
            // the same search (the same placements at every level; with 64-bit words the
            // same F tables, so the same attempts too).
            let f_from = config.f_from;
            let run_time_text = run_time_text(&puzzle, &info, mode, f_from);
            for d in Outcome::of(&run_time_text).differences(&here) {
                problems.push(format!(
                    "{name} {args:?} --f-from {f_from:?}: the run-time engine (here) and the executable: {d}"
                ));
            }
            let same = |k: &str| {
                k.starts_with("FITS") || (k.starts_with("ATTEMPTS") && info.cells() <= 64)
            };
            let statistics = |text: &str| -> Vec<String> {
                report(text)
                    .entries()
                    .iter()
                    .filter(|e| same(&e.key))
                    .map(|e| format!("{}={}", e.key, e.value))
                    .collect()
            };
            let (a, b) = (statistics(&run_time_text), statistics(&text));
            if a.is_empty() || a != b {
                problems.push(format!(
                    "{name} {args:?}: the run-time engine and the executable search differently:\n{}\n---\n{}",
                    a.join(" "),
                    b.join(" ")
                ));
            }
            if redundancy == "#" || oracle_unfiltered {
                let there = oracle(&info, mode);
                for d in here.differences(&there) {
                    problems.push(format!("{name} {args:?}: {d}"));
                }
            } else {
                assert!(
                    published.is_some(),
                    "{name} {args:?}: no oracle run and no published count"
                );
            }
            if let Some((filtered, all, unique)) = published {
                let (expected, got) = if redundancy == "#" {
                    (
                        (Some(filtered), filtered),
                        (Some(here.count("SOLUTIONS")), here.count("UNIQUE")),
                    )
                } else {
                    // Where every solution's count is not published, UNIQUE alone.
                    let all_got = all.map(|_| here.count("SOLUTIONS"));
                    ((all, unique), (all_got, here.count("UNIQUE")))
                };
                if got != expected {
                    problems.push(format!(
                        "{name} {args:?}: (SOLUTIONS, UNIQUE) = {got:?}, published {expected:?}"
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn executables_agree_with_the_oracle_and_published_counts() {
    for puzzle in txt_files("puzzles") {
        let name = stem(&puzzle);
        if PUBLISHED_ONLY.iter().any(|p| p.0 == name) || SLOW.iter().any(|s| s.0 == name) {
            continue;
        }
        check_executable(name, !MEDIUM.contains(&name));
    }
}

/// Every puzzle of every definition file in `puzzles/` and `tests/puzzles/` (files
/// with several puzzles too), under the automatic filter and without it, up to
/// rotations and up to reflections: the run-time FILA engine (with the E stage above 3
/// pieces left, and F throughout) lists the same solutions and counts as the oracle. (The
/// slow ones are in [`executables_agree_slow`].)
#[test]
fn the_run_time_engine_agrees_with_the_oracle_on_every_puzzle_file() {
    let mut files = txt_files("puzzles");
    files.extend(txt_files("tests/puzzles"));
    files.retain(|path| !RUN_TIME_SLOW.iter().any(|slow| path.ends_with(slow)));
    // The Soma and the tetrominoes in 5x5 lose images to the parity filter.
    run_time_agrees(files, 50, 2);
}

/// The puzzle files whose oracle runs without the filter take it from 4 s to minutes
/// each, four such runs a file (30 s for the one-sided 30x3, 5 to 9 s for the hexiamonds
/// and the polyhexes, 4 s for the Kanoodle pyramid, whose executable the default run
/// checks, a minute and more for the pentominoes in 5x4x3, where the run-time engine
/// takes 20 s a run too): checked by `cargo test --release --test it -- --ignored`.
const RUN_TIME_SLOW: [&str; 5] = [
    "puzzles/one_sided_30x3.txt",
    "puzzles/hexiamonds_hexagon.txt",
    "puzzles/polyhexes_4x10.txt",
    "puzzles/kanoodle_pyramid.txt",
    "tests/puzzles/pentomino_5x4x3.txt",
];

#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn the_run_time_engine_agrees_with_the_oracle_on_the_slow_puzzle_files() {
    let files = RUN_TIME_SLOW.iter().map(|file| root().join(file)).collect();
    run_time_agrees(files, 10, 0);
}

/// Every puzzle of `files` but the slow and the published-only ones, in every quiet mode
/// and with two switch points: the run-time engine agrees with the oracle (at least
/// `min_runs` runs), with and without the parity filter (which drops images in at least
/// `min_filtered` of the puzzles).
fn run_time_agrees(files: Vec<std::path::PathBuf>, min_runs: usize, min_filtered: usize) {
    let mut problems = Vec::new();
    let mut runs = 0;
    let mut filtered_puzzles = 0;
    for path in files {
        let name = stem(&path);
        if PUBLISHED_ONLY.iter().any(|p| p.0 == name) || SLOW.iter().any(|s| s.0 == name) {
            continue;
        }
        let label = path.display().to_string();
        let text = read(&path);
        let puzzles = generator::load(&label, &text)
            .unwrap_or_else(|d| panic!("{label}:\n{}", generator::diag::render(&d, &text)));
        for puzzle in &puzzles {
            let info = generator::info::puzzle_info(
                puzzle,
                &generator::model::Redundancy::Auto,
                "dancing-links oracle",
            )
            .unwrap_or_else(|e| panic!("{label}: {}", e.0));
            // The images the parity filter keeps too, where it drops some (`fila solve`
            // and the generated solvers search those): both engines on them, and the
            // oracle on them against the oracle on all.
            let mut parity = puzzle.clone();
            let parity = (parity.parity_filter() > 0).then(|| {
                filtered_puzzles += 1;
                let info = generator::info::puzzle_info(
                    &parity,
                    &generator::model::Redundancy::Auto,
                    "dancing-links oracle",
                )
                .unwrap_or_else(|e| panic!("{label}: {}", e.0));
                (parity, info)
            });
            let models = std::iter::once((puzzle, &info, "")).chain(
                parity
                    .as_ref()
                    .map(|(p, i)| (p, i, " with the parity filter")),
            );
            for mode in QUIET_MODES {
                if mode.mirror && info.mirror.is_err() {
                    continue;
                }
                let plain = oracle(&info, mode);
                for (puzzle, info, filter) in models.clone() {
                    let there = oracle(info, mode);
                    for d in parity_filter_changes(&there, &plain, mode) {
                        problems.push(format!(
                            "{label} ({}) {:?}: the oracle: {d}",
                            puzzle.name,
                            mode.args()
                        ));
                    }
                    for f_from in [None, Some(3)] {
                        runs += 1;
                        for d in run_time(puzzle, info, mode, f_from).differences(&there) {
                            problems.push(format!(
                                "{label} ({}) {:?} --f-from {f_from:?}{filter}: {d}",
                                puzzle.name,
                                mode.args()
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(runs > min_runs, "{runs} runs");
    assert!(
        filtered_puzzles >= min_filtered,
        "{filtered_puzzles} puzzles where the parity filter drops images"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The slow puzzles: the Tetris Cube's executable takes about 49 s without the filter and
/// the oracle about 2 minutes with it (some 4 minutes in all), the Bedlam Cube about as
/// long; the one-sided pentominoes in 18x5 take some 3 s on two cores, in 15x6 some 15 s;
/// the oracle takes about 15 s a run for the tetrahexes twice over. Run
/// them with `cargo test --release --test it -- --ignored`.
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn executables_agree_slow() {
    for &(name, oracle_unfiltered) in SLOW {
        check_executable(name, oracle_unfiltered);
    }
    for &(name, published) in PUBLISHED_ONLY {
        if name != "one_sided_10x9" {
            check_published(name, published, Duration::from_secs(1800));
        }
    }
}

/// The one-sided pentominoes in 10x9, some 12 minutes on two cores: run alone with
/// `cargo test --release --test it one_sided_10x9 -- --ignored`.
#[test]
#[ignore = "slow: cargo test --release --test it one_sided_10x9 -- --ignored"]
fn one_sided_10x9_count() {
    let &(name, published) = PUBLISHED_ONLY
        .iter()
        .find(|p| p.0 == "one_sided_10x9")
        .unwrap();
    check_published(name, published, Duration::from_secs(4 * 3600));
}

/// The generated solver of `puzzles/NAME.txt`, under its filter, counts `published`.
fn check_published(name: &str, published: u64, timeout: Duration) {
    let text = run_executable(&executable(name), &["-q", "-i"], &[], timeout);
    let here = Outcome::of(&text);
    assert_eq!(here.count("SOLUTIONS"), published, "{name}");
    assert_eq!(here.count("UNIQUE"), published, "{name}");
}

/// The one-sided pentominoes in 18x5 on two threads (some 3 s): each thread's table of
/// dead states outgrows its own 64 MiB and moves to the table the threads share
/// (`runtime/src/fila/memo.rs`), where a state one thread stored ends the other's search
/// of it. The count is the published one, whatever order the threads reach the states in.
#[test]
fn two_threads_sharing_dead_states_count_the_published_solutions() {
    let (name, published) = PUBLISHED_ONLY[0];
    assert_eq!(name, "one_sided_18x5");
    let text = run_executable(
        &executable(name),
        &["-q", "-i", "-j", "2"],
        &[],
        Duration::from_secs(600),
    );
    let here = Outcome::of(&text);
    assert_eq!(here.count("SOLUTIONS"), published);
    assert_eq!(here.count("UNIQUE"), published);
}

/// The Soma executable lists the same solutions as the oracle (in whatever order), under
/// the automatic filter, without it, and up to reflections too.
#[test]
fn soma_listing_equals_the_oracle_listing() {
    let path = root().join("puzzles/soma.txt");
    let config = xtask::recorded_config(root(), &path);
    let info = puzzle_info("puzzles/soma.txt", &read(&path), &config);
    let exe = executable("soma");
    for mode in [
        Mode::new("#", false, false, false),
        Mode::new(".", false, false, false),
        Mode::new("#", true, false, false),
    ] {
        let here = Outcome::of(&run_executable(
            &exe,
            &mode.args(),
            &[],
            Duration::from_secs(120),
        ));
        let there = oracle(&info, mode);
        assert_eq!(here.solutions.len() as u64, here.count("SOLUTIONS"));
        let differences = here.differences(&there);
        assert!(
            differences.is_empty(),
            "soma {mode:?}:\n{}",
            differences.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------------
// 4. Random small puzzles through the generator, built in a crate of their own.

/// The boxes random puzzles are cut from (repeats weight the choice).
const BOXES: &[[i32; 3]] = &[
    [4, 4, 1],
    [4, 4, 1],
    [5, 3, 1],
    [5, 3, 1],
    [3, 3, 2],
    [3, 3, 2],
    [2, 2, 3],
    [2, 2, 3],
    [4, 3, 1],
    [3, 3, 1],
    [4, 2, 1],
    [2, 2, 2],
    [3, 2, 2],
    [2, 3, 2],
    [6, 2, 1],
    [3, 1, 1],
    [1, 1, 1],
];

/// How the pieces are written down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// Every piece as a `C` line.
    Coordinates,
    /// Every piece drawn in one `L` picture.
    Picture,
    /// Each piece one way or the other at random, with stationary pieces sometimes
    /// merged into one `*` piece (polycube's idiom for shaping a region).
    Mixed,
}

/// The parameters of one random puzzle, drawn by proptest.
#[derive(Clone, Debug)]
struct CaseSpec {
    dims: [i32; 3],
    one_side: bool,
    /// Pieces have 1 to `max_piece` cells ...
    max_piece: usize,
    /// ... or, when set, as many as they can up to `max_piece` (many copies of few shapes).
    same_size: bool,
    /// The chance in percent that a piece of the tiling is stationary.
    stationary_percent: u64,
    layout: Layout,
    /// Seeds the cutting and the writing.
    seed: u64,
}

/// A random puzzle: its definition text.
#[derive(Clone, Debug)]
pub(crate) struct Case {
    pub(crate) text: String,
}

impl Case {
    pub(crate) fn label(&self, k: usize) -> String {
        format!("random/p{k}.txt")
    }
}

fn case_strategy() -> impl Strategy<Value = CaseSpec> {
    (
        prop::sample::select(BOXES),
        prop::bool::weighted(0.4),
        1usize..=5,
        prop::bool::weighted(0.3),
        prop::sample::select(&[0u64, 0, 15, 30][..]),
        prop::sample::select(&[Layout::Coordinates, Layout::Picture, Layout::Mixed][..]),
        any::<u64>(),
    )
        .prop_map(
            |(dims, one_side, max_piece, same_size, stationary_percent, layout, seed)| CaseSpec {
                dims,
                one_side: one_side && dims[2] == 1,
                max_piece,
                same_size,
                stationary_percent,
                layout,
                seed,
            },
        )
}

/// How many random puzzles one run checks, and the seed that draws them. `FILA_SEED=n`
/// draws another batch (the default batch is the same on every run, so that the scratch
/// crate's build is reused).
const RANDOM_CASES: usize = 48;
const RANDOM_SEED: u64 = 0x5eed_f11a;

pub(crate) fn random_cases() -> Vec<Case> {
    let seed = std::env::var("FILA_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(RANDOM_SEED);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        proptest::test_runner::Config::default(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    let strategy = case_strategy();
    (0..RANDOM_CASES)
        .map(|_| {
            let spec = strategy.new_tree(&mut runner).unwrap().current();
            Case {
                text: write_puzzle(&spec),
            }
        })
        .collect()
}

use crate::common::{Draws, SplitMix64 as Dice};

type P = [i32; 3];

/// Cuts the box into connected pieces: each grows from a random open cell towards a
/// random size by adding random open neighbours. Every cut is a solution, so every random
/// puzzle has at least one.
fn cut(spec: &CaseSpec, dice: &mut Dice) -> Vec<Vec<P>> {
    let [xd, yd, zd] = spec.dims;
    let inside =
        |p: P| (0..xd).contains(&p[0]) && (0..yd).contains(&p[1]) && (0..zd).contains(&p[2]);
    let mut open: Vec<P> = Vec::new();
    for z in 0..zd {
        for y in 0..yd {
            for x in 0..xd {
                open.push([x, y, z]);
            }
        }
    }
    let mut pieces = Vec::new();
    while !open.is_empty() {
        let size = if spec.same_size {
            spec.max_piece
        } else {
            1 + dice.below(spec.max_piece)
        };
        let mut piece = vec![open.swap_remove(dice.below(open.len()))];
        while piece.len() < size {
            let frontier: Vec<usize> = (0..open.len())
                .filter(|&i| {
                    piece.iter().any(|c| {
                        let d: i32 = (0..3).map(|a| (c[a] - open[i][a]).abs()).sum();
                        d == 1
                    })
                })
                .collect();
            if frontier.is_empty() {
                break;
            }
            piece.push(open.swap_remove(*dice.pick(&frontier)));
        }
        debug_assert!(piece.iter().all(|&c| inside(c)));
        piece.sort_unstable();
        pieces.push(piece);
    }
    pieces
}

/// The proper rotations allowed: all 24, or the 4 about z for a `oneSide` puzzle; each
/// as a signed axis permutation `(perm, sign)` with `out[i] = sign[i] * c[perm[i]]`.
fn rotations(one_side: bool) -> Vec<([usize; 3], [i32; 3])> {
    let mut out = Vec::new();
    for perm in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        let parity = if [[0, 1, 2], [1, 2, 0], [2, 0, 1]].contains(&perm) {
            1
        } else {
            -1
        };
        for s in 0..8 {
            let sign = [
                if s & 1 != 0 { -1 } else { 1 },
                if s & 2 != 0 { -1 } else { 1 },
                if s & 4 != 0 { -1 } else { 1 },
            ];
            if parity * sign[0] * sign[1] * sign[2] != 1 {
                continue;
            }
            if one_side && (perm[2] != 2 || sign[2] != 1) {
                continue;
            }
            out.push((perm, sign));
        }
    }
    out
}

const NAMES: &[&str] = &[
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S",
    "T", "U", "V", "W", "X", "Y", "Z",
];

/// Writes a random cut of the box as a definition: pieces as `C` lines (mobile ones
/// turned and moved at random, since their coordinates only give the shape) or drawn in
/// an `L` picture; some of them stationary, as `C:...:type=S` or `L:stationary=...`.
fn write_puzzle(spec: &CaseSpec) -> String {
    let mut dice = Dice::new(spec.seed);
    let pieces = cut(spec, &mut dice);
    let n = pieces.len();
    let mut stationary: Vec<bool> = (0..n)
        .map(|_| dice.percent(spec.stationary_percent))
        .collect();
    if stationary.iter().all(|&s| s) {
        stationary[dice.below(n)] = false;
    }
    let in_picture: Vec<bool> = (0..n)
        .map(|_| match spec.layout {
            Layout::Coordinates => false,
            Layout::Picture => true,
            Layout::Mixed => dice.percent(50),
        })
        .collect();
    // Stationary pieces drawn in the picture are sometimes merged into one piece `*`.
    let star = spec.layout == Layout::Mixed && dice.percent(50);
    let name = |i: usize| {
        if star && stationary[i] && in_picture[i] {
            "*"
        } else {
            NAMES[i]
        }
    };
    let [xd, yd, zd] = spec.dims;
    let mut text = format!("# A random cut of the box: {spec:?}\n");
    let one_side = if spec.one_side {
        *dice.pick(&[":oneSide", ":oneSide=1", ":oneSide=true"])
    } else {
        ""
    };
    text.push_str(&format!("D:xDim={xd}:yDim={yd}:zDim={zd}{one_side}\n"));
    let turns = rotations(spec.one_side);
    let mut lines = Vec::new();
    for i in 0..n {
        if in_picture[i] {
            continue;
        }
        let mut cells = pieces[i].clone();
        let kind = if stationary[i] {
            ":type=S"
        } else {
            let (perm, sign) = *dice.pick(&turns);
            let shift = [
                dice.below(5) as i32 - 2,
                dice.below(5) as i32 - 2,
                if spec.one_side {
                    0
                } else {
                    dice.below(5) as i32 - 2
                },
            ];
            for c in &mut cells {
                *c = [0, 1, 2].map(|a| sign[a] * c[perm[a]] + shift[a]);
            }
            for k in (1..cells.len()).rev() {
                cells.swap(k, dice.below(k + 1));
            }
            *dice.pick(&["", "", ":type=M"])
        };
        let layout: Vec<String> = cells
            .iter()
            .map(|c| format!("{} {} {}", c[0], c[1], c[2]))
            .collect();
        lines.push(format!(
            "C:name={}{kind}:layout={}\n",
            NAMES[i],
            layout.join(", ")
        ));
    }
    if in_picture.iter().any(|&p| p) {
        let mut owner = BTreeMap::new();
        for i in (0..n).filter(|&i| in_picture[i]) {
            for &c in &pieces[i] {
                owner.insert(c, name(i));
            }
        }
        let mut listed: Vec<&str> = (0..n)
            .filter(|&i| in_picture[i] && stationary[i])
            .map(name)
            .collect();
        listed.dedup();
        let mut block = if listed.is_empty() {
            "L\n".to_string()
        } else {
            format!("L:stationary={}\n", listed.join(" "))
        };
        for y in (0..yd).rev() {
            let layers: Vec<String> = (0..zd)
                .map(|z| {
                    (0..xd)
                        .map(|x| *owner.get(&[x, y, z]).unwrap_or(&"."))
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect();
            block.push_str(&layers.join(", "));
            block.push('\n');
        }
        block.push_str("~L\n");
        lines.insert(dice.below(lines.len() + 1), block);
    }
    for line in lines {
        text.push_str(&line);
    }
    text.push_str("~D\n");
    text
}

/// The scratch crate: one module per random puzzle, and a `main` that runs the one named
/// by `FILA_PUZZLE=k`. It depends on the runtime alone.
fn scratch_main(count: usize) -> String {
    let mut s = String::from(
        "//! Generated solvers for random small puzzles, written by the `generated` tests of\n\
         //! fila; `FILA_PUZZLE=k` picks the one to run.\n\n",
    );
    for k in 0..count {
        s.push_str(&format!("mod p{k} {{\n    include!(\"p{k}.rs\");\n}}\n"));
    }
    s.push_str(
        "\nfn main() {\n    let k = std::env::var(\"FILA_PUZZLE\").unwrap_or_default();\n    match k.as_str() {\n",
    );
    for k in 0..count {
        s.push_str(&format!("        \"{k}\" => p{k}::main(),\n"));
    }
    s.push_str(
        "        _ => {\n            eprintln!(\"set FILA_PUZZLE to a puzzle number\");\n            std::process::exit(2);\n        }\n    }\n}\n",
    );
    s
}

/// One solver of the random-puzzle test: a puzzle, the word and tails to build it with,
/// and the published count of its solutions up to symmetry (`UNIQUE=`) where there is one.
struct WordCase {
    label: String,
    text: String,
    word_bits: Option<usize>,
    tails: generator::lower::Tails,
    published: Option<u64>,
}

/// Random small puzzles, the puzzles of more than 128 cells in `tests/puzzles/wide_*`
/// (whose solvers use several 64-bit limbs per word, and hand over to 128- and 64-bit
/// solvers for the last cells) and the puzzles on other lattices with a published count
/// (`lattices::PUBLISHED`, which their solvers must find): each generated solver is
/// built into one scratch crate that depends on the runtime alone, and run in every mode
/// against the oracle in-process.
#[test]
fn random_puzzles_agree_with_the_oracle() {
    use generator::lower::Tails;
    let case = |label: String, text: String, word_bits: Option<usize>, tails: Tails| WordCase {
        label,
        text,
        word_bits,
        tails,
        published: None,
    };
    let mut cases: Vec<WordCase> = random_cases()
        .iter()
        .enumerate()
        .map(|(k, c)| case(c.label(k), c.text.clone(), None, Tails::Auto))
        .collect();
    // Random puzzles on the other lattices (the plane's and space's own tests draw them).
    let seed = RANDOM_SEED ^ 0x1a77_1ce5;
    let others = crate::lattices::random_texts(seed)
        .into_iter()
        .chain(crate::space::random_texts(seed));
    for (k, text) in others.enumerate() {
        cases.push(case(
            format!("random/lattice{k}.txt"),
            text,
            None,
            Tails::Auto,
        ));
    }
    let file = |name: &str| {
        let path = root().join(format!("tests/puzzles/{name}.txt"));
        (format!("tests/puzzles/{name}.txt"), read(&path))
    };
    // The puzzles on the other lattices with a published count, which the generated
    // solver must find too (not only the oracle's).
    for &(name, _, _, count) in crate::lattices::PUBLISHED {
        let (label, text) = file(name);
        cases.push(WordCase {
            published: Some(count),
            ..case(label, text, None, Tails::Auto)
        });
    }
    // Solvers that differ only in their words search the same tree in the same order:
    // these pairs must count the same fits at every level too. (Not the same attempts:
    // 64-bit words index their image lists by more cells, so fewer images fail.)
    let mut twins: Vec<(usize, usize)> = Vec::new();
    for path in txt_files("tests/puzzles") {
        if stem(&path).starts_with("wide_") {
            let (label, text) = file(stem(&path));
            twins.push((cases.len(), cases.len() + 1));
            cases.push(case(label.clone(), text.clone(), None, Tails::Auto));
            cases.push(case(label, text, None, Tails::Off));
        }
    }
    // Small boxes in wider words than they need (`--word-bits`, which the measurement of
    // what wide words cost uses), throughout and handing over to narrower words for their
    // last cells: the same counts.
    for (name, bits, tails) in [
        ("pentomino_20x3", 128, Tails::Cells(vec![30])),
        ("one_sided_tetromino_7x4", 192, Tails::Off),
        ("one_sided_tetromino_7x4", 192, Tails::Cells(vec![14])),
    ] {
        let (label, text) = file(name);
        cases.push(case(label, text, Some(bits), tails));
    }
    twins.push((cases.len() - 2, cases.len() - 1));
    let dir = root().join("target/fila-scratch");
    let src = dir.join("src");
    // With the E stage in every solver, `--f-from` can move the switch in flat boxes too.
    let config = generator::Config {
        e_stage: true,
        ..Default::default()
    };
    let mut problems = Vec::new();
    for (
        k,
        WordCase {
            label,
            text,
            word_bits,
            tails,
            ..
        },
    ) in cases.iter().enumerate()
    {
        xtask::write_if_changed(&src.join(format!("p{k}.txt")), text).unwrap();
        let config = generator::Config {
            word_bits: *word_bits,
            tails: tails.clone(),
            ..config.clone()
        };
        match generator::generate(label, text, &config) {
            Ok(mut generated) => {
                generated.relocate(&format!("p{k}"));
                xtask::write_if_changed(&src.join(format!("p{k}.rs")), &generated.code).unwrap();
                xtask::scratch::write_tables(&dir, &generated).unwrap_or_else(|e| panic!("{e}"));
            }
            Err(d) => problems.push(format!(
                "{label} does not generate:\n{}{text}",
                generator::diag::render(&d, text),
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Its own target directory under `target/`, so that its dependencies are built once
    // and reused.
    let start = Instant::now();
    let exe = xtask::scratch::build(
        root(),
        &dir,
        &dir.join("target"),
        "fila-scratch",
        xtask::scratch::CHECKED,
        &scratch_main(cases.len()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "built the scratch crate {} in {:.1} s",
        dir.display(),
        start.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let (mut runs, mut solutions, mut filtered_cases) = (0, 0, 0);
    for (
        k,
        WordCase {
            label,
            text,
            published,
            ..
        },
    ) in cases.iter().enumerate()
    {
        let (puzzle, info, dropped) = prepared_with(label, text, &config, true);
        // Where the parity filter drops images, the oracle without it too.
        let plain = (dropped > 0).then(|| {
            filtered_cases += 1;
            prepared_with(label, text, &config, false).1
        });
        let mut modes = QUIET_MODES.to_vec();
        modes.retain(|m| !m.mirror || info.mirror.is_ok());
        // Two listed runs compare every solution, not only the counts.
        modes.push(Mode::new("#", false, false, false));
        modes.push(Mode::new(".", false, false, false));
        for mode in modes {
            let there = oracle(&info, mode);
            if !mode.quiet && there.count("SOLUTIONS") > 5000 {
                continue;
            }
            if let Some(plain) = &plain {
                for d in parity_filter_changes(&there, &oracle(plain, mode), mode) {
                    problems.push(format!("p{k} {:?} ({label}): {d}", mode.args()));
                }
            }
            let env = [("FILA_PUZZLE", k.to_string())];
            let text = run_executable(&exe, &mode.args(), &env, Duration::from_secs(60));
            let here = Outcome::of(&text);
            runs += 1;
            solutions += here.count("SOLUTIONS");
            if let Some(count) = *published {
                if here.count("UNIQUE") != count {
                    problems.push(format!(
                        "p{k} {:?} ({label}): UNIQUE={}, published {count}",
                        mode.args(),
                        here.count("UNIQUE")
                    ));
                }
            }
            for d in run_time(&puzzle, &info, mode, None).differences(&there) {
                problems.push(format!(
                    "p{k} {:?} (fila solve {} {}): the run-time engine: {d}",
                    mode.args(),
                    mode.args().join(" "),
                    src.join(format!("p{k}.txt")).display(),
                ));
            }
            for d in here.differences(&there) {
                problems.push(format!(
                    "p{k} {:?} (FILA_PUZZLE={k} {} {}; fila solve {} {}): {d}",
                    mode.args(),
                    exe.display(),
                    mode.args().join(" "),
                    mode.args().join(" "),
                    src.join(format!("p{k}.txt")).display(),
                ));
            }
        }
        // The E heuristic at every level, and E for the first few pieces only: the same
        // solutions in a different order.
        let mode = Mode::new("#", false, false, false);
        let there = oracle(&info, mode);
        if there.count("SOLUTIONS") <= 5000 {
            for f_from in ["0", "3"] {
                let mut args = mode.args();
                args.extend(["--f-from", f_from]);
                let env = [("FILA_PUZZLE", k.to_string())];
                let here = Outcome::of(&run_executable(&exe, &args, &env, Duration::from_secs(60)));
                runs += 1;
                for d in here.differences(&there) {
                    problems.push(format!("p{k} {args:?} ({label}): {d}"));
                }
                let f_from = Some(f_from.parse().unwrap());
                for d in run_time(&puzzle, &info, mode, f_from).differences(&there) {
                    problems.push(format!("p{k} {args:?} ({label}): the run-time engine: {d}"));
                }
            }
        }
        if problems.len() > 20 {
            break;
        }
    }
    for (a, b) in twins {
        let counts = |k: usize| -> Vec<String> {
            let env = [("FILA_PUZZLE", k.to_string())];
            // Without the table of dead states, whose slots differ with the word.
            let text = run_executable(
                &exe,
                &["-q", "-i", "-j", "1", "--memo", "off"],
                &env,
                Duration::from_secs(60),
            );
            report(&text)
                .entries()
                .iter()
                .filter(|e| e.key.starts_with("FITS") || e.key == "SOLUTIONS")
                .map(|e| format!("{}={}", e.key, e.value))
                .collect()
        };
        let (here, there) = (counts(a), counts(b));
        runs += 2;
        if here.is_empty() || here != there {
            problems.push(format!(
                "p{a} and p{b} ({}) search differently:\n{}\n---\n{}",
                cases[a].label,
                here.join("\n"),
                there.join("\n")
            ));
        }
    }
    eprintln!(
        "{runs} runs of {} random puzzles ({solutions} solutions; the parity filter dropped \
         images in {filtered_cases}) in {:.1} s",
        cases.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(
        filtered_cases > 0,
        "the parity filter dropped images in no random puzzle"
    );
}
