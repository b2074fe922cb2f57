//! What each fuzz target does with its input, as plain functions: the targets in
//! `fuzz_targets/` call them under libFuzzer, and the test `fuzz_corpus` of the workspace
//! (`tests/it/fuzz.rs`, on stable Rust) runs them over every seed and every input a
//! fuzzer once found failing (`fuzz/regressions/`). Each reads bytes a user could hand
//! fila; none may panic, whatever the bytes, and each checks what a reader promises
//! beyond not panicking.

use std::sync::OnceLock;

use puzzle::limits::Limits;
use puzzle::model::{Puzzle, Redundancy};
use runtime::checkpoint::Checkpoint;
use runtime::output::read_solutions;
use runtime::plan::Plan;
use runtime::report::Report;
use runtime::{Options, PuzzleInfo};

/// The puzzles the listing and checkpoint targets read against: a square, a cubic and a
/// triangular lattice.
const PUZZLES: [(&str, &str); 3] = [
    (
        "pentomino_10x6.txt",
        include_str!("../../puzzles/pentomino_10x6.txt"),
    ),
    ("soma.txt", include_str!("../../puzzles/soma.txt")),
    (
        "hexiamonds_hexagon.txt",
        include_str!("../../puzzles/hexiamonds_hexagon.txt"),
    ),
];

/// The runtime description of `PUZZLES[k]`, built once.
fn info(k: usize) -> &'static PuzzleInfo {
    static INFOS: OnceLock<Vec<PuzzleInfo>> = OnceLock::new();
    &INFOS.get_or_init(|| {
        PUZZLES
            .iter()
            .map(|(name, text)| {
                let puzzle = puzzle::load(name, text).expect("a puzzle of the repository");
                puzzle::info::puzzle_info(&puzzle[0], &Redundancy::Auto, "fuzz")
                    .expect("a puzzle every engine takes")
            })
            .collect()
    })[k]
}

/// The bytes as text, as fila reads a file (`read_to_string`: not UTF-8 is refused there).
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// The memory limit definitions are read within: small, so that inputs reach it and the
/// fuzzer's process stays far below libFuzzer's RSS limit.
const MAX_MEMORY: u64 = 256 << 20;

/// A definition file: the reader and the model, then what every engine builds from the
/// model first. Every diagnostic names a line of the text (or the line after its last, for
/// an unfinished block), and a puzzle accepted fits the memory limit.
pub fn definition(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let limits = Limits {
        max_memory: MAX_MEMORY,
    };
    match puzzle::load_with("fuzz.txt", text, &limits) {
        Ok(puzzles) => {
            for puzzle in &puzzles {
                let needs = puzzle.footprint().least_run_bytes();
                assert!(needs <= MAX_MEMORY, "accepted, needing {needs} bytes");
                model(puzzle);
            }
        }
        Err(diagnostics) => {
            assert!(!diagnostics.is_empty(), "an error without a diagnostic");
            let lines = text.lines().count() + 1;
            for d in &diagnostics {
                assert!((1..=lines).contains(&d.line), "line {} of {lines}", d.line);
            }
            let _ = puzzle::diag::render(&diagnostics);
        }
    }
}

/// What `fila solve` makes of a model before it searches: the runtime description, and
/// the run-time FILA engine's lowering where the puzzle is within its limits. (Not its
/// tables: `puzzle::fila::solver` leaks them, to hand the kernels `'static` tables for
/// the life of the process, and a fuzzer's process builds millions.)
fn model(puzzle: &Puzzle) {
    if let Ok(info) = puzzle::info::puzzle_info(puzzle, &Redundancy::Auto, "fuzz") {
        assert_eq!(info.images.len(), puzzle.images.len());
    }
    let defaults = puzzle::fila::defaults(puzzle);
    let pieces = puzzle.mobile_pieces();
    let f_from = defaults.f_from.min(pieces);
    let _ = puzzle::fila::lower(puzzle, f_from, f_from < pieces);
}

/// A fresh checkpoint of a run of `PUZZLES[which]` that searches below each first image,
/// and the number of its subtrees.
fn fresh_checkpoint(which: usize) -> (Checkpoint, usize) {
    let info = info(which);
    let options = Options::try_parse_from(vec!["fuzz".to_string()]).expect("no options");
    let plan = Plan::resolve(info, &options).expect("a plan without options");
    let subtrees = runtime::split::first_images(&plan);
    let path = std::path::Path::new("fuzz.checkpoint");
    let fresh = Checkpoint::new(path, info, &plan, &options, &subtrees);
    (fresh, subtrees.len())
}

/// The seed of the checkpoint target for `PUZZLES[which]`: its first byte, then the
/// checkpoint of a run that finished every other subtree.
pub fn checkpoint_seed(which: u8) -> Vec<u8> {
    let (mut record, subtrees) = fresh_checkpoint(which as usize);
    let done: Vec<bool> = (0..subtrees).map(|k| k % 2 == 0).collect();
    let stats = record.stats.clone();
    record.record(&done, 7, 3, &stats);
    let mut seed = vec![which];
    seed.extend_from_slice(record.text().as_bytes());
    seed
}

/// A checkpoint of a run of one of `PUZZLES` (the first byte chooses which), read for
/// that run; one that is read must say what it read when written again.
pub fn checkpoint(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let (fresh, subtrees) = fresh_checkpoint(which as usize % PUZZLES.len());
    if let Ok(read) = Checkpoint::read("fuzz", text, fresh.clone()) {
        assert!(read.done.iter().all(|&k| k < subtrees));
        let again = Checkpoint::read("again", &read.text(), fresh).expect("its own text");
        assert_eq!(again.done, read.done);
        assert_eq!(again.solutions, read.solutions);
        assert_eq!(again.stats, read.stats);
    }
}

/// `-i` outputs as `fila merge` reads them: the text up to the first NUL byte and the
/// text after it are two shards' outputs.
pub fn report(data: &[u8]) {
    let Some(text) = text(data) else { return };
    if let Ok(blocks) = Report::parse_all(text) {
        for block in &blocks {
            let _ = (
                block.solutions(),
                block.fits(),
                block.attempts(),
                block.shard(),
            );
        }
    }
    let (a, b) = text.split_once('\0').unwrap_or((text, ""));
    let inputs = [
        ("a".to_string(), a.to_string()),
        ("b".to_string(), b.to_string()),
    ];
    if let Ok(merged) = runtime::merge::merge(&inputs) {
        // The merged block is an -i block itself.
        Report::parse_all(&merged).expect("merge writes what it reads");
    }
}

/// A solution listing of one of `PUZZLES` (the first byte chooses which), as `fila
/// render` reads it: every solution read places each piece of the puzzle at most once
/// on the puzzle's cells.
pub fn listing(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let info = info(which as usize % PUZZLES.len());
    if let Ok(solutions) = read_solutions(info, text) {
        for (_, owners) in &solutions {
            assert_eq!(owners.len(), info.grid.len());
        }
    }
}
