//! Pruning changes what is searched, never what is found. The volume filter (`-V`), the
//! volume backtrack (`-v N`) and the parity backtrack (`-p`), alone and together, leave
//! the counts and the listed solutions of the generic engine (on the puzzle corpus and on
//! random puzzles) and the counts of the generated solvers as they are without them; and
//! each of them does prune (fewer placements), so a filter that does nothing fails here.

use std::process::Command;

use proptest::prelude::*;

use crate::common::{
    executable, number, parse_listing, parse_options, read, report, root, run_fila,
    solve_in_process, stderr, stdout, txt_files, value_of, Listed,
};
use runtime::report::Report;

/// The pruning each run is repeated with.
const FILTERS: &[&[&str]] = &[
    &["-V"],
    &["-v", "0"],
    &["-v", "3"],
    &["-p"],
    &["-V", "-v", "0", "-p"],
];

/// What must not change: the counts and the listed solutions (sorted; empty when quiet).
#[derive(Debug, PartialEq, Eq)]
struct Found {
    solutions: u64,
    unique: u64,
    listing: Vec<Listed>,
}

/// Runs the generic engine in-process on `text` as `fila solve --threads 1 --memo off
/// ARGS` would (the pruning's own effect, without the table of dead states), returning
/// what it found and its placements (`FITS_TOTAL`).
fn solve(label: &str, text: &str, args: &[&str]) -> (Found, u64) {
    let mut all = vec!["--threads", "1", "--memo", "off"];
    all.extend_from_slice(args);
    let run = solve_in_process(text, &parse_options(&all))
        .unwrap_or_else(|e| panic!("{label} {args:?}: {e}"));
    let mut listing = parse_listing(&run.output, run.dims);
    if !args.contains(&"-q") {
        assert_eq!(
            listing.len() as u64,
            run.solutions,
            "{label} {args:?}: every solution is listed"
        );
    }
    listing.sort();
    let found = Found {
        solutions: run.solutions,
        unique: run.unique,
        listing,
    };
    (found, run.fits)
}

/// The piece the automatic filter constrains in `text` without pruning (under
/// `--mirror` when `mirror`), if it constrains one. The volume filter changes the images
/// and so may change the automatic choice, and with it which solution of each class is
/// listed; the listings are compared with this piece named.
fn filter_piece(text: &str, mirror: bool) -> Option<String> {
    let puzzles = generator::load("case.txt", text).ok()?;
    let info = generator::info::puzzle_info(
        puzzles.first()?,
        &generator::model::Redundancy::Auto,
        "generic engine: dancing links",
    )
    .ok()?;
    let symmetry = if mirror {
        info.mirror.as_ref().ok()?
    } else {
        &info.rotations
    };
    symmetry
        .filtered
        .what
        .strip_prefix("piece ")
        .map(str::to_string)
}

/// The runs a puzzle is checked in: the listing under the filter (with the piece named),
/// and for small puzzles (`all_modes`) the listing of every solution, `-u -r .`,
/// the automatic filter, and `--mirror` where it applies.
fn modes(text: &str, all_modes: bool) -> Vec<Vec<String>> {
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut out = Vec::new();
    match filter_piece(text, false) {
        Some(p) => out.push(vec!["-r".to_string(), p]),
        None => out.push(Vec::new()),
    }
    if all_modes {
        out.push(owned(&["-r", "."]));
        out.push(owned(&["-q", "-u", "-r", "."]));
        out.push(owned(&["-q"]));
        if let Some(p) = filter_piece(text, true) {
            out.push(vec!["--mirror".to_string(), "-r".to_string(), p]);
        }
        let mirror_applies = generator::load("case.txt", text)
            .ok()
            .and_then(|p| p.first().map(|p| p.mirror_closed))
            .unwrap_or(false);
        if mirror_applies {
            out.push(owned(&["-q", "--mirror"]));
            out.push(owned(&["-q", "--mirror", "-u", "-r", "."]));
        }
    }
    out
}

/// The placements made with no pruning (index 0) and with each filter set, added up.
type Fits = Vec<u64>;

/// Runs `text` in every mode of [`modes`], without pruning and with each of `filters`;
/// returns the differences in words, and adds the placements of each run to `fits`.
/// Where the filters hold no `-V` (the same images, the same branching), every run with
/// them must also make no more placements than the run without.
fn compare(
    label: &str,
    text: &str,
    all_modes: bool,
    filters: &[&[&str]],
    fits: &mut Fits,
) -> Vec<String> {
    fits.resize(filters.len() + 1, 0);
    let mut problems = Vec::new();
    for mode in modes(text, all_modes) {
        let mode: Vec<&str> = mode.iter().map(String::as_str).collect();
        let (base, base_fits) = solve(label, text, &mode);
        fits[0] += base_fits;
        for (k, filter) in filters.iter().enumerate() {
            let args: Vec<&str> = mode.iter().chain(filter.iter()).copied().collect();
            let (found, pruned_fits) = solve(label, text, &args);
            fits[k + 1] += pruned_fits;
            if (found.solutions, found.unique) != (base.solutions, base.unique) {
                problems.push(format!(
                    "{label} {args:?}: (SOLUTIONS, UNIQUE) = {:?}, {:?} without pruning",
                    (found.solutions, found.unique),
                    (base.solutions, base.unique)
                ));
            } else if found.listing != base.listing {
                let missing = base
                    .listing
                    .iter()
                    .find(|l| found.listing.binary_search(l).is_err());
                problems.push(format!(
                    "{label} {args:?}: the listed solutions differ from those without pruning; \
                     for example {missing:?} is missing"
                ));
            }
            // The volume filter may change the automatic choice of the filter piece (and so
            // which solution of each class is listed): the counts stay.
            if !all_modes && filter.contains(&"-V") && mode.first() == Some(&"-r") {
                let auto: Vec<&str> = ["-q"].iter().chain(filter.iter()).copied().collect();
                let (found, _) = solve(label, text, &auto);
                if (found.solutions, found.unique) != (base.solutions, base.unique) {
                    problems.push(format!(
                        "{label} {auto:?}: (SOLUTIONS, UNIQUE) = {:?}, {:?} without pruning",
                        (found.solutions, found.unique),
                        (base.solutions, base.unique)
                    ));
                }
            }
            if !filter.contains(&"-V") && pruned_fits > base_fits {
                problems.push(format!(
                    "{label} {args:?}: FITS_TOTAL={pruned_fits}, more than {base_fits} without pruning"
                ));
            }
        }
    }
    problems
}

/// Fails with the first few problems, if there are any.
fn assert_none(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problems; the first:\n{}",
        problems.len(),
        problems[..problems.len().min(10)].join("\n")
    );
}

/// Asserts that each filter set made fewer placements in all than no pruning.
fn assert_prunes(what: &str, filters: &[&[&str]], fits: &Fits) {
    for (k, filter) in filters.iter().enumerate() {
        assert!(
            fits[k + 1] < fits[0],
            "{what}: {filter:?} prunes nothing (FITS_TOTAL {} against {} without)",
            fits[k + 1],
            fits[0]
        );
    }
}

/// Checks the puzzles of `dir` (relative to the workspace root) but `skip` with every
/// filter set: the counts and the listing under the filter stay, and each set prunes.
fn check_corpus(dir: &str, skip: &[&str]) {
    let mut problems = Vec::new();
    let mut fits = Fits::new();
    for path in txt_files(dir) {
        let name = path.file_stem().unwrap().to_str().unwrap();
        if !skip.contains(&name) {
            problems.extend(compare(name, &read(&path), false, FILTERS, &mut fits));
        }
    }
    assert_none(&problems);
    assert_prunes(dir, FILTERS, &fits);
}

/// The puzzles of `puzzles/` on the other lattices, which take the generic engine
/// seconds a run: the hexiamonds in a hexagon (3 s), the polyhexes in 4x10 (4 s), the
/// tetrahexes twice in 4x14 (15 s) and in 7x4x2 prisms (2 s), the Kanoodle pyramid of
/// balls (1 s), each run some twenty times here.
const LATTICE_PUZZLES: [&str; 5] = [
    "hexiamonds_hexagon",
    "polyhexes_4x10",
    "tetrahexes_twice_4x14",
    "tetrahexes_twice_prisms_7x4x2",
    "kanoodle_pyramid",
];

/// `puzzles/` but the Tetris and Bedlam Cubes and the one-sided pentominoes in 18x5,
/// 15x6 and 10x9 (minutes to days with the generic engine, whatever the pruning), in
/// 30x3 (below), and the puzzles on the other lattices (next).
#[test]
fn puzzles_find_the_same_with_any_pruning() {
    let mut skip = vec![
        "tetriscube",
        "bedlam",
        "one_sided_18x5",
        "one_sided_15x6",
        "one_sided_10x9",
        "one_sided_30x3",
    ];
    skip.extend(LATTICE_PUZZLES);
    check_corpus("puzzles", &skip);
}

/// The puzzles of `puzzles/` on the other lattices: some nine minutes in all.
/// `tests/puzzles/` holds smaller puzzles on the same lattices, checked by default.
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn lattice_puzzles_find_the_same_with_any_pruning() {
    let skip: Vec<String> = txt_files("puzzles")
        .iter()
        .map(|p| p.file_stem().unwrap().to_str().unwrap().to_string())
        .filter(|name| !LATTICE_PUZZLES.contains(&name.as_str()))
        .collect();
    let skip: Vec<&str> = skip.iter().map(String::as_str).collect();
    check_corpus("puzzles", &skip);
}

/// `tests/puzzles/` but the 5x4x3 pentacube box (some 20 s a run).
#[test]
fn test_puzzles_find_the_same_with_any_pruning() {
    check_corpus("tests/puzzles", &["pentomino_5x4x3"]);
}

/// The one-sided pentominoes in 30x3 take 3 to 6 s a run with the generic engine unless
/// the volume filter is on (0.1 s): checked with the filter sets that hold `-V`.
#[test]
fn one_sided_30x3_finds_the_same_with_the_volume_filter() {
    let filters: &[&[&str]] = &[
        &["-V"],
        &["-V", "-v", "0"],
        &["-V", "-v", "3"],
        &["-V", "-p"],
        &["-V", "-v", "0", "-p"],
    ];
    let text = read(&root().join("puzzles/one_sided_30x3.txt"));
    let mut fits = Fits::new();
    assert_none(&compare("one_sided_30x3", &text, false, filters, &mut fits));
    assert_prunes("one_sided_30x3", filters, &fits);
}

/// The threshold: `-v N` (and `-p`, which takes `-v`'s N) prune only below nodes with
/// more than N pieces left, so the larger N, the fewer placements they save; with N the
/// number of pieces, none.
#[test]
fn thresholds_limit_the_backtracks() {
    // Seven one-sided tetrominoes in a 7x4 box: no solution, and both backtracks prune
    // with T placed first (with the automatic O, the volume backtrack prunes nothing).
    let text = read(&root().join("tests/puzzles/one_sided_tetromino_7x4.txt"));
    let fits = |args: &[&str]| {
        let args: Vec<&str> = ["-r", "T"].iter().chain(args).copied().collect();
        solve("one_sided_tetromino_7x4", &text, &args).1
    };
    let none = fits(&[]);
    for parity in [false, true] {
        let counts: Vec<u64> = (0..=7)
            .map(|n| {
                let n = n.to_string();
                if parity {
                    fits(&["-v", &n, "-p"])
                } else {
                    fits(&["-v", &n])
                }
            })
            .collect();
        assert!(
            counts.windows(2).all(|w| w[0] <= w[1]),
            "parity {parity}: FITS_TOTAL by threshold {counts:?}"
        );
        assert!(
            counts[0] < none,
            "parity {parity}: {counts:?}, {none} without"
        );
        assert_eq!(counts[7], none, "parity {parity}: 7 pieces, nothing pruned");
    }
}

/// The deterministic batch of random puzzles of the generated-solver tests (stationary
/// cells, copies, one-sided pieces), in every mode: the same counts and listings with any
/// pruning, and each filter set prunes somewhere in the batch.
#[test]
fn random_cuts_find_the_same_with_any_pruning() {
    let mut problems = Vec::new();
    let mut fits = Fits::new();
    for (k, case) in crate::generated::random_cases().iter().enumerate() {
        problems.extend(compare(
            &case.label(k),
            &case.text,
            true,
            FILTERS,
            &mut fits,
        ));
    }
    assert_none(&problems);
    assert_prunes("the random cuts", FILTERS, &fits);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random piece sets with copies, monominoes and stationary cells, flat, one-sided
    /// or not, or boxes with depth.
    #[test]
    fn random_piece_sets_find_the_same_with_any_pruning(
        (dims, one_side, seed) in crate::orbits::case_strategy()
    ) {
        let spec = crate::orbits::random_pieces(dims, one_side, seed);
        let text = spec.to_text();
        let problems = compare("random piece set", &text, true, FILTERS, &mut Fits::new());
        prop_assert!(problems.is_empty(), "{}\n{text}", problems.join("\n"));
    }
}

/// `fila solve -V` drops images (`IMAGES=`), says so (`VOLUME_FILTER=on`), and finds the
/// same; `-V=false` is the plain run. The FILA engine applies it to a flat box unasked
/// (its rule), dancing links only when asked.
#[test]
fn fila_solve_volume_filter() {
    let file = "tests/puzzles/pentomino_20x3.txt";
    let run = |args: &[&str]| {
        let mut all = vec!["solve", "-q", "-i"];
        all.extend_from_slice(args);
        all.push(file);
        let out = run_fila(&all, None);
        assert!(
            out.status.success() && stderr(&out).is_empty(),
            "fila {all:?}: {}",
            stderr(&out)
        );
        report(&stdout(&out))
    };
    let by_rule = run(&[]);
    let off = run(&["-V=false"]);
    let plain = run(&["--engine", "dlx"]);
    let filtered = run(&["--engine", "dlx", "-V"]);
    assert_eq!(value_of(&by_rule, "VOLUME_FILTER"), "on");
    assert_eq!(value_of(&off, "VOLUME_FILTER"), "off");
    assert_eq!(value_of(&plain, "VOLUME_FILTER"), "off");
    assert_eq!(value_of(&filtered, "VOLUME_FILTER"), "on");
    assert_eq!(number(&off, "IMAGES"), number(&plain, "IMAGES"));
    assert_eq!(number(&by_rule, "IMAGES"), number(&filtered, "IMAGES"));
    assert!(number(&filtered, "IMAGES") < number(&plain, "IMAGES"));
    assert!(number(&filtered, "FITS_TOTAL") < number(&plain, "FITS_TOTAL"));
    assert!(number(&by_rule, "FITS_TOTAL") < number(&off, "FITS_TOTAL"));
    for key in ["SOLUTIONS", "UNIQUE"] {
        assert_eq!(number(&by_rule, key), number(&plain, key), "{key}");
        assert_eq!(number(&off, key), number(&plain, key), "{key}");
        assert_eq!(number(&filtered, key), number(&plain, key), "{key}");
    }
    assert_eq!(number(&plain, "SOLUTIONS"), 2);
}

/// A solver generated with `-V` is generated from the filtered images: the same number
/// as `fila solve -V` has, fewer than without, and its description says so.
#[test]
fn generate_applies_the_volume_filter() {
    let label = "puzzles/pentomino_10x6.txt";
    let text = read(&root().join(label));
    let images = |code: &str| -> usize {
        let at = code
            .find(" images;")
            .expect("the description names the images");
        let start = code[..at].rfind(' ').unwrap() + 1;
        code[start..at].parse().unwrap()
    };
    let plain = generator::generate(label, &text, &generator::Config::default())
        .unwrap()
        .code;
    let mut config = generator::Config::default();
    config.pruning.volume_filter = true;
    let filtered = generator::generate(label, &text, &config).unwrap().code;
    let mut puzzle = generator::load(label, &text).unwrap().remove(0);
    let all = puzzle.images.len();
    let dropped = puzzle.volume_filter();
    assert!(dropped > 0);
    assert_eq!(images(&plain), all);
    assert_eq!(images(&filtered), all - dropped);
    assert!(filtered.contains("volume_filter: true"));
    assert!(plain.contains("volume_filter: false"));
}

/// Runs a generated executable with `-i --threads 1 --memo off ARGS`; returns its `-i`
/// report and its listing.
fn run_generated(name: &str, args: &[&str]) -> (Report, String) {
    let out = Command::new(executable(name))
        .args(["-i", "--threads", "1", "--memo", "off"])
        .args(args)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && err.is_empty(),
        "{name} {args:?}: {err}"
    );
    let text = String::from_utf8(out.stdout).unwrap();
    (report(&text), text)
}

/// The backtracks the generated solvers take at run time.
/// Each names both backtracks, since a generated solver may apply either by default
/// (the Soma's was tuned to -p).
const GENERATED_FILTERS: &[&[&str]] = &[
    &["-v", "0", "-p=false"],
    &["-v", "off", "-p"],
    &["-v", "0", "-p"],
];

/// Neither backtrack, whatever the solver's defaults.
const GENERATED_NONE: &[&str] = &["-v", "off", "-p=false"];

/// Checks the executables of `names` in `-q` (and, for `unfiltered`, `-q -r .`), and for
/// `listed` the listing under the filter: each backtrack leaves SOLUTIONS, UNIQUE and the
/// listing as they are, shows itself in `-i`, and prunes somewhere.
fn check_generated(names: &[&str], unfiltered: &[&str], listed: &[&str]) {
    let mut problems = Vec::new();
    let mut fits: Fits = vec![0; GENERATED_FILTERS.len() + 1];
    for name in names {
        let mut modes: Vec<Vec<&str>> = vec![vec!["-q"]];
        if unfiltered.contains(name) {
            modes.push(vec!["-q", "-r", "."]);
        }
        if listed.contains(name) {
            modes.push(Vec::new());
        }
        for mode in modes {
            let unpruned: Vec<&str> = mode.iter().chain(GENERATED_NONE).copied().collect();
            let (base, base_text) = run_generated(name, &unpruned);
            fits[0] += number(&base, "FITS_TOTAL");
            for (k, filter) in GENERATED_FILTERS.iter().enumerate() {
                let args: Vec<&str> = mode.iter().chain(filter.iter()).copied().collect();
                let (pruned, text) = run_generated(name, &args);
                fits[k + 1] += number(&pruned, "FITS_TOTAL");
                for key in ["SOLUTIONS", "UNIQUE"] {
                    let (here, there) = (number(&pruned, key), number(&base, key));
                    if here != there {
                        problems.push(format!(
                            "{name} {args:?}: {key}={here}, {there} without pruning"
                        ));
                    }
                }
                let shown = (
                    value_of(&pruned, "VOLUME_BACKTRACK"),
                    value_of(&pruned, "PARITY_BACKTRACK"),
                );
                let expected = (
                    if filter.contains(&"0") { "0" } else { "off" },
                    if filter.contains(&"-p") { "0" } else { "off" },
                );
                if shown != expected {
                    problems.push(format!("{name} {args:?}: -i shows {shown:?}"));
                }
                if !mode.contains(&"-q") {
                    let box_dims = box_dims(value_of(&base, "BOX"));
                    let mut a = parse_listing(&base_text, box_dims);
                    let mut b = parse_listing(&text, box_dims);
                    a.sort();
                    b.sort();
                    if a.len() as u64 != number(&base, "SOLUTIONS") || a != b {
                        problems.push(format!(
                            "{name} {args:?}: {} solutions listed, {} without pruning, of {}",
                            b.len(),
                            a.len(),
                            number(&base, "SOLUTIONS")
                        ));
                    }
                }
            }
        }
    }
    assert_none(&problems);
    assert_prunes("the generated solvers", GENERATED_FILTERS, &fits);
}

/// `BOX=XxYxZ` as dimensions.
fn box_dims(value: &str) -> [usize; 3] {
    let v: Vec<usize> = value.split('x').map(|d| d.parse().unwrap()).collect();
    [v[0], v[1], v[2]]
}

#[test]
fn generated_solvers_find_the_same_with_any_backtrack() {
    // The 30x3's solver hands over to a 64-bit one for its last 64 cells: the backtracks
    // of both words are checked.
    check_generated(
        &["pentomino_10x6", "soma", "one_sided_30x3"],
        &["pentomino_10x6", "soma", "one_sided_30x3"],
        &["soma", "one_sided_30x3"],
    );
}

/// The Tetris Cube's executable takes 4 to 6 s a run with the filter (and about 50 s
/// without it: that is left out). The one-sided pentominoes in 18x5 are left out: 50 to
/// 90 s a run.
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn tetriscube_finds_the_same_with_any_backtrack() {
    check_generated(&["tetriscube"], &[], &[]);
}

/// Pieces in parts (polycube accepts them) can fill two regions at once, so the pruning
/// that judges regions by the sizes of whole pieces (the volume filter, the volume
/// backtrack, the isolation test) stands aside: with every filter set, the generic
/// engine finds what it finds without pruning, and `fila solve` finds the same on both
/// engines, on the cubic lattice and the prisms.
#[test]
fn pieces_in_parts_find_the_same_with_any_pruning() {
    let texts = [
        "D:xDim=3:yDim=1:zDim=1\nC:name=A:layout=0 0 0, 2 0 0\nC:name=B:layout=1 0 0\n~D\n",
        "D:xDim=3:yDim=2:zDim=2\nL\nA A B , A C C\nB B B , D C D\n~L\n~D\n",
        "D:lattice=prisms:xDim=3:yDim=2:zDim=2\nL\nA A B , A C C\nB B B , D C D\n~L\n~D\n",
    ];
    let mut fits = Fits::new();
    for (k, text) in texts.iter().enumerate() {
        let label = format!("pieces in parts {k}");
        assert_none(&compare(&label, text, false, FILTERS, &mut fits));
        let (base, _) = solve(&label, text, &["-r", "."]);
        assert!(base.solutions >= 1, "{label}: drawn solved");
        for engine in ["fila", "dlx"] {
            for pruning in [&[][..], &["-V", "-v", "0", "-p"]] {
                let mut args = vec!["solve", "-i", "-q", "-r", ".", "--engine", engine];
                args.extend_from_slice(pruning);
                let out = run_fila(&args, Some(text));
                assert!(out.status.success(), "{label}: {}", stderr(&out));
                let map = report(&stdout(&out));
                assert_eq!(
                    number(&map, "SOLUTIONS"),
                    base.solutions,
                    "{label} {engine} {pruning:?}"
                );
            }
        }
    }
}
