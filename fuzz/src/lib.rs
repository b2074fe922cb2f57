//! What each fuzz target does with its input, as plain functions: the targets in
//! `fuzz_targets/` call them under libFuzzer, and the test
//! `fuzz::every_seed_and_regression_passes_its_target` of the workspace (`tests/it/fuzz.rs`,
//! on stable Rust) runs them over every seed and every input a fuzzer once found failing
//! (`fuzz/regressions/`). Each reads bytes a user could hand
//! fila; none may panic, whatever the bytes, and each checks what a reader promises
//! beyond not panicking.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use puzzle::limits::{Engine, Limits};
use puzzle::model::{Puzzle, Redundancy};
use puzzle::solve::prepare;
use runtime::checkpoint::Checkpoint;
use runtime::output::{read_solutions, NOBODY};
use runtime::plan::Plan;
use runtime::report::Report;
use runtime::{Options, PuzzleInfo, Slot};

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
            let _ = puzzle::diag::render(&diagnostics, text);
        }
    }
}

/// What `fila solve` makes of a model before it searches: the runtime description, and
/// the run-time FILA engine's lowering where the puzzle is within its limits. (Not its
/// tables, whose time grows with the puzzle: the target `engines` builds and searches
/// them, on small puzzles made to be valid.)
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
    let subtrees = runtime::split::first_images(info, &plan);
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
/// render` reads it: every solution read has an owner (or none) for each of the puzzle's
/// positions, each stationary piece where it stands, and each mobile piece in one image
/// of its own shape or absent.
pub fn listing(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Some(text) = text(rest) else { return };
    let info = info(which as usize % PUZZLES.len());
    if let Ok(solutions) = read_solutions(info, text) {
        for (_, owners) in &solutions {
            assert_eq!(owners.len(), info.grid.len());
            let mut cells = vec![Vec::new(); info.piece_names.len()];
            for (&owner, slot) in owners.iter().zip(&info.grid) {
                match *slot {
                    Slot::Stationary(piece) => assert_eq!(owner, piece),
                    Slot::Open(cell) if owner != NOBODY => cells[owner as usize].push(cell),
                    Slot::Open(_) => {}
                }
            }
            for (piece, mut mine) in cells.into_iter().enumerate() {
                if mine.is_empty() {
                    continue;
                }
                mine.sort_unstable();
                let piece = piece as u16;
                assert!(
                    info.images.iter().any(|image| {
                        let mut theirs = image.cells.clone();
                        theirs.sort_unstable();
                        info.shape_pieces[image.shape as usize].contains(&piece) && theirs == mine
                    }),
                    "piece {} lies in no image of its shape",
                    info.piece_names[piece as usize]
                );
            }
        }
    }
}

/// Choices read off the fuzzer's bytes, a byte each (zero once they run out), so that a
/// byte the fuzzer changes changes one choice.
struct Choices<'a>(&'a [u8]);

impl Choices<'_> {
    fn below(&mut self, n: usize) -> usize {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b as usize % n
    }

    fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

type Cell = [i32; 3];

/// A lattice as `D:lattice=` names it, whether its boxes are one layer deep, and its
/// neighbour relation (`docs/lattices.md`), written here from the documentation rather
/// than taken from the model.
struct Lattice {
    name: &'static str,
    plane: bool,
    neighbours: fn(Cell) -> Vec<Cell>,
}

const HEXAGON: [[i32; 2]; 6] = [[1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];

const LATTICES: [Lattice; 6] = [
    Lattice {
        name: "square",
        plane: true,
        neighbours: cube_neighbours,
    },
    Lattice {
        name: "cubic",
        plane: false,
        neighbours: cube_neighbours,
    },
    Lattice {
        name: "hexagonal",
        plane: true,
        neighbours: |[x, y, z]| HEXAGON.iter().map(|[a, b]| [x + a, y + b, z]).collect(),
    },
    Lattice {
        name: "triangular",
        plane: true,
        neighbours: |[x, y, z]| {
            let across = if x % 2 == 0 {
                [x + 1, y - 1, z]
            } else {
                [x - 1, y + 1, z]
            };
            vec![[x - 1, y, z], [x + 1, y, z], across]
        },
    },
    Lattice {
        name: "spheres",
        plane: false,
        neighbours: |[x, y, z]| {
            let mut n = vec![[x + 1, y, z], [x - 1, y, z], [x, y + 1, z], [x, y - 1, z]];
            for [a, b] in [[0, 0], [1, 0], [0, 1], [1, 1]] {
                n.push([x + a, y + b, z - 1]);
                n.push([x - a, y - b, z + 1]);
            }
            n
        },
    },
    Lattice {
        name: "prisms",
        plane: false,
        neighbours: |[x, y, z]| {
            let mut n: Vec<Cell> = HEXAGON.iter().map(|[a, b]| [x + a, y + b, z]).collect();
            n.extend([[x, y, z - 1], [x, y, z + 1]]);
            n
        },
    },
];

fn cube_neighbours([x, y, z]: Cell) -> Vec<Cell> {
    vec![
        [x + 1, y, z],
        [x - 1, y, z],
        [x, y + 1, z],
        [x, y - 1, z],
        [x, y, z + 1],
        [x, y, z - 1],
    ]
}

/// A puzzle made from the fuzzer's choices, which has a solution: a box of at most 16
/// cells on one of the lattices, some cells blocked by a stationary piece, the rest cut
/// into pieces of 1 to 5 cells (connected, or now and then in two parts), one of them now and then
/// stationary, the set one-sided now and then. Congruent pieces are copies.
fn random_puzzle(c: &mut Choices) -> String {
    let lattice = &LATTICES[c.below(LATTICES.len())];
    let mut dims = [1 + c.below(6), 1 + c.below(5), 1];
    if !lattice.plane {
        dims[2] = 1 + c.below(3);
    }
    while dims.iter().product::<usize>() > 16 {
        let widest = (0..3).max_by_key(|&k| dims[k]).expect("three axes");
        dims[widest] -= 1;
    }
    let one_side = dims[2] == 1 && c.one_in(3);
    let mut open = std::collections::BTreeSet::new();
    let mut blocked = Vec::new();
    for z in 0..dims[2] as i32 {
        for y in 0..dims[1] as i32 {
            for x in 0..dims[0] as i32 {
                if (x, y, z) != (0, 0, 0) && c.one_in(8) {
                    blocked.push([x, y, z]);
                } else {
                    open.insert([x, y, z]);
                }
            }
        }
    }
    let mut pieces: Vec<Vec<Cell>> = Vec::new();
    while !open.is_empty() {
        let start = *open.iter().nth(c.below(open.len())).expect("an open cell");
        // Monominoes now and then only: many of them make many solutions.
        let size = if c.one_in(8) { 1 } else { 2 + c.below(4) };
        open.remove(&start);
        let mut piece = vec![start];
        while piece.len() < size {
            let grow: Vec<Cell> = piece
                .iter()
                .flat_map(|&p| (lattice.neighbours)(p))
                .filter(|n| open.contains(n))
                .collect();
            if grow.is_empty() {
                break;
            }
            let next = grow[c.below(grow.len())];
            open.remove(&next);
            piece.push(next);
        }
        pieces.push(piece);
    }
    if pieces.len() >= 3 && c.one_in(8) {
        let part = pieces.pop().expect("three pieces");
        pieces[0].extend(part);
    }
    let stationary = if pieces.len() >= 2 && c.one_in(6) {
        Some(c.below(pieces.len()))
    } else {
        None
    };
    let layout = |cells: &[Cell]| {
        let cells: Vec<String> = cells
            .iter()
            .map(|[x, y, z]| format!("{x} {y} {z}"))
            .collect();
        cells.join(", ")
    };
    let mut text = format!(
        "D:lattice={}:xDim={}:yDim={}:zDim={}{}\n",
        lattice.name,
        dims[0],
        dims[1],
        dims[2],
        if one_side { ":oneSide" } else { "" }
    );
    if !blocked.is_empty() {
        text += &format!("C:name=*:type=S:layout={}\n", layout(&blocked));
    }
    for (k, piece) in pieces.iter().enumerate() {
        let kind = if stationary == Some(k) { ":type=S" } else { "" };
        text += &format!("C:name=P{k}{kind}:layout={}\n", layout(piece));
    }
    text + "~D\n"
}

/// The counts and the listing of one run: SOLUTIONS, UNIQUE, and each solution listed as
/// the sorted cell sets of its pieces (names left out: copies may swap them).
type Run = (u64, u64, Vec<Vec<Vec<usize>>>);

/// Solves `puzzle` on `engine` with `args`, as `fila solve ARGS` would, split into
/// `shards` shards whose counts and listings are added up. `None` when the options are
/// refused for this puzzle (as `fila solve` refuses them, with exit status 2).
fn run(puzzle: &Puzzle, engine: Engine, args: &[String], shards: u32) -> Option<Run> {
    let mut total: Run = (0, 0, Vec::new());
    for shard in 1..=shards {
        let mut all = vec!["fuzz".to_string(), "-j".to_string(), "1".to_string()];
        all.extend_from_slice(args);
        if shards > 1 {
            all.push(format!("--shard={shard}/{shards}"));
        }
        let options = Options::try_parse_from(all).expect("the fuzzer's options parse");
        let limits = Limits::default();
        let mut prepared = prepare(puzzle.clone(), &options, Some(engine), &limits).ok()?;
        let mut out = Vec::new();
        let mut search = prepared.search();
        let summary = runtime::run(&prepared.info, search.as_mut(), &options, &mut out).ok()?;
        total.0 += summary.solutions;
        total.1 += summary.unique;
        let text = String::from_utf8(out).expect("fila writes UTF-8");
        let listed = read_solutions(&prepared.info, &text).expect("fila reads its own listing");
        for (_, owners) in listed {
            let mut sets: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
            for (cell, &owner) in owners.iter().enumerate() {
                sets.entry(owner).or_default().push(cell);
            }
            let mut solution: Vec<Vec<usize>> = sets.into_values().collect();
            solution.sort();
            total.2.push(solution);
        }
    }
    total.2.sort();
    Some(total)
}

/// The engines against each other: a random puzzle (`random_puzzle`) solved with random
/// options by the run-time FILA engine (now and then in shards) and by dancing links, the
/// oracle, which must find the same counts; and with every solution listed (`-r .`), the
/// same solutions, each once, at least one.
pub fn engines(data: &[u8]) {
    let mut c = Choices(data);
    let text = random_puzzle(&mut c);
    let puzzles = puzzle::load("fuzz.txt", &text).unwrap_or_else(|d| {
        panic!("{text}{}", puzzle::diag::render(&d, &text));
    });
    let puzzle = &puzzles[0];
    let every = c.one_in(2);
    let mut args: Vec<String> = Vec::new();
    if every {
        args.extend(["-r".into(), ".".into()]);
    } else {
        args.push("-q".into());
        let names: Vec<&String> = puzzle
            .pieces
            .iter()
            .filter(|p| p.shape.is_some())
            .map(|p| &p.name)
            .collect();
        match c.below(3) {
            0 => args.extend(["-r".into(), "#".into()]),
            1 => args.extend(["-r".into(), names[c.below(names.len())].clone()]),
            _ => {}
        }
        if c.one_in(2) {
            args.push("-u".into());
        }
    }
    if c.one_in(3) {
        args.push("--mirror".into());
    }
    match c.below(3) {
        0 => args.push("-V=true".into()),
        1 => args.push("-V=false".into()),
        _ => {}
    }
    if c.one_in(3) {
        args.push(format!("-v{}", c.below(6)));
    }
    if c.one_in(3) {
        args.push("-p".into());
    }
    let mut fila_args = args.clone();
    if c.one_in(2) {
        fila_args.push(format!("--f-from={}", c.below(8)));
    }
    let shards = 1 + c.below(3) as u32;
    fila_args.push(format!("--subtrees={}", 1 + c.below(40)));
    let dlx = run(puzzle, Engine::Dlx, &args, 1);
    let fila = run(puzzle, Engine::Fila, &fila_args, shards);
    let (Some(dlx), Some(fila)) = (&dlx, &fila) else {
        // Options refused (a filter piece that cannot carry the filter, say): refused
        // by both.
        assert_eq!(
            dlx.is_none(),
            fila.is_none(),
            "one engine refuses {fila_args:?}:\n{text}"
        );
        return;
    };
    assert_eq!(
        (fila.0, fila.1),
        (dlx.0, dlx.1),
        "SOLUTIONS, UNIQUE by the FILA engine {fila_args:?} and by dancing links {args:?}:\n{text}"
    );
    if every {
        assert_eq!(fila.2, dlx.2, "the listings differ {fila_args:?}:\n{text}");
        assert!(
            fila.0 >= 1,
            "a puzzle cut from its box has a solution:\n{text}"
        );
        let distinct: std::collections::BTreeSet<_> = fila.2.iter().collect();
        assert_eq!(
            distinct.len() as u64,
            fila.0,
            "a solution listed twice:\n{text}"
        );
    }
}
