//! `fila solve -q -i` on classic puzzles against the published counts (COUNTS.md), and,
//! where the full listing is cheap, the listing (`-r .`) judged by the independent orbit
//! count of [`crate::orbits`].
//!
//! The suite is run in release (`cargo test --release --workspace`, as the README says);
//! the puzzles that take minutes even there are `#[ignore]`d and run with
//!
//!     cargo test --release --test it -- --ignored

use crate::common::{check, number, parse_listing, run_fila, stderr, stdout, value_of};
use crate::orbits::Spec;

/// Runs `fila solve -i -r . ARGS FILE` with the listing, checks it (every solution once,
/// every piece with its own shape, the stationary pieces in place) and counts its orbits
/// under the independently computed group, with and without `--mirror`.
fn listing_orbits(
    file: &str,
    dims: [usize; 3],
    one_side: bool,
    stationary: &[&str],
    all: u64,
    rotations: u64,
    mirror: Option<u64>,
) {
    let out = run_fila(&["solve", "-i", "-r", ".", file], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let map = crate::common::report(&text);
    assert_eq!(number(&map, "SOLUTIONS"), all, "{file}: SOLUTIONS");
    assert_eq!(number(&map, "UNIQUE"), rotations, "{file}: UNIQUE");
    let listed = parse_listing(&text, dims);
    assert_eq!(listed.len() as u64, all, "{file}: one block per solution");
    let spec = Spec::from_listing(dims, one_side, &listed[0], stationary);
    let sols: Vec<_> = listed.iter().map(|l| spec.solution_of(l, file)).collect();
    let distinct: std::collections::BTreeSet<_> = sols.iter().collect();
    assert_eq!(
        distinct.len(),
        sols.len(),
        "{file}: no solution is listed twice"
    );
    let group = spec.group(false);
    assert_eq!(
        spec.orbits(&sols, &group).len() as u64,
        rotations,
        "{file}: orbits under the rotations ({} maps)",
        group.len()
    );
    if let Some(m) = mirror {
        let group = spec.group(true);
        assert_eq!(
            spec.orbits(&sols, &group).len() as u64,
            m,
            "{file}: orbits with reflections ({} maps)",
            group.len()
        );
    }
}

#[test]
fn pentomino_10x6() {
    let map = check("puzzles/pentomino_10x6.txt", &[], 2339);
    assert_eq!(number(&map, "UNIQUE"), 2339);
    assert_eq!(number(&map, "GROUP_ORDER"), 4);
    assert_eq!(value_of(&map, "REDUNDANCY_FILTER"), "X");
}

// ~55 s in debug.
#[test]
fn pentomino_10x6_every_solution() {
    listing_orbits(
        "puzzles/pentomino_10x6.txt",
        [10, 6, 1],
        false,
        &[],
        9356,
        2339,
        Some(2339),
    );
    let map = check("puzzles/pentomino_10x6.txt", &["--mirror"], 2339);
    assert_eq!(
        number(&map, "GROUP_ORDER"),
        4,
        "flat pieces already turn over: --mirror adds no map"
    );
}

#[test]
fn soma() {
    let map = check("puzzles/soma.txt", &[], 480);
    assert_eq!(number(&map, "GROUP_ORDER"), 24);
    let map = check("puzzles/soma.txt", &["--mirror"], 240);
    assert_eq!(number(&map, "GROUP_ORDER"), 48);
    let map = check("puzzles/soma.txt", &["-r", "."], 11520);
    assert_eq!(number(&map, "UNIQUE"), 480);
    let map = check("puzzles/soma.txt", &["-r", ".", "--mirror"], 11520);
    assert_eq!(number(&map, "UNIQUE"), 240);
    let map = check("puzzles/soma.txt", &["-r", ".", "-u"], 480);
    assert_eq!(number(&map, "UNIQUE"), 480);
    listing_orbits(
        "puzzles/soma.txt",
        [3, 3, 3],
        false,
        &[],
        11520,
        480,
        Some(240),
    );
}

/// Every Soma piece can carry the filter under the rotations; under reflections too
/// only the pieces that are their own mirror image (all but A and B).
#[test]
fn soma_named_filter_pieces() {
    for piece in ["V", "L", "T", "Z", "A", "B", "P"] {
        let map = check("puzzles/soma.txt", &["-r", piece], 480);
        assert_eq!(value_of(&map, "REDUNDANCY_FILTER"), piece);
    }
    for piece in ["V", "L", "T", "Z", "P"] {
        let map = check("puzzles/soma.txt", &["-r", piece, "--mirror"], 240);
        assert_eq!(value_of(&map, "REDUNDANCY_FILTER"), piece);
    }
}

#[test]
fn pentomino_8x8_with_blocked_centre() {
    let map = check("tests/puzzles/pentomino_8x8_centre.txt", &[], 65);
    assert_eq!(number(&map, "GROUP_ORDER"), 8);
    listing_orbits(
        "tests/puzzles/pentomino_8x8_centre.txt",
        [8, 8, 1],
        false,
        &["*"],
        520,
        65,
        Some(65),
    );
}

// ~60 s in debug (7 s in release), more than the rest of this module together: the
// one classic count for a one-sided, mirror-closed set (the box's flips join the group).
// The random one-sided mirror-closed puzzles of `orbits` cover the same rule by default.
#[test]
fn one_sided_pentominoes_30x3() {
    let map = check("puzzles/one_sided_30x3.txt", &[], 46);
    assert_eq!(number(&map, "GROUP_ORDER"), 4);
}

// ~30 s in release.
#[test]
fn one_sided_pentominoes_30x3_every_solution() {
    listing_orbits(
        "puzzles/one_sided_30x3.txt",
        [30, 3, 1],
        true,
        &[],
        184,
        46,
        Some(46),
    );
}

#[test]
fn one_sided_tetrominoes_7x4() {
    check("tests/puzzles/one_sided_tetromino_7x4.txt", &[], 0);
    check("tests/puzzles/one_sided_tetromino_7x4.txt", &["-r", "."], 0);
}

#[test]
fn pentomino_12x5() {
    check("tests/puzzles/pentomino_12x5.txt", &[], 1010);
}

#[test]
fn pentomino_15x4() {
    check("tests/puzzles/pentomino_15x4.txt", &[], 368);
}

#[test]
fn pentomino_20x3() {
    check("tests/puzzles/pentomino_20x3.txt", &[], 2);
    listing_orbits(
        "tests/puzzles/pentomino_20x3.txt",
        [20, 3, 1],
        false,
        &[],
        8,
        2,
        Some(2),
    );
}

#[test]
fn pentomino_12x5_and_15x4_every_solution() {
    listing_orbits(
        "tests/puzzles/pentomino_12x5.txt",
        [12, 5, 1],
        false,
        &[],
        4040,
        1010,
        Some(1010),
    );
    listing_orbits(
        "tests/puzzles/pentomino_15x4.txt",
        [15, 4, 1],
        false,
        &[],
        1472,
        368,
        Some(368),
    );
}

// The twelve pentominoes in 5x4x3: ~25 s each in release. Flat pieces are their own
// mirror images, so the set is mirror-closed and --mirror doubles the group (4 to 8).
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn pentomino_5x4x3() {
    let map = check("tests/puzzles/pentomino_5x4x3.txt", &["--mirror"], 3940);
    assert_eq!(number(&map, "GROUP_ORDER"), 8);
    let map = check("tests/puzzles/pentomino_5x4x3.txt", &[], 7880);
    assert_eq!(number(&map, "GROUP_ORDER"), 4);
}

// ~95 s in release, then the orbit count of 31520 listed solutions.
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn pentomino_5x4x3_every_solution() {
    listing_orbits(
        "tests/puzzles/pentomino_5x4x3.txt",
        [5, 4, 3],
        false,
        &[],
        31520,
        7880,
        Some(3940),
    );
}

// ~2 minutes in release.
#[test]
#[ignore = "slow: cargo test --release --test it -- --ignored"]
fn tetriscube() {
    let map = check("puzzles/tetriscube.txt", &[], 9839);
    assert_eq!(number(&map, "GROUP_ORDER"), 24);
}

/// `-r #` on the FILA engine measures, where the search is long, each piece that can carry
/// the filter by Knuth's walks: on the Tetris Cube it takes L, whose search is three times
/// shorter than the automatic G's, says so in `ENGINE=`, and chooses the same on a shard
/// and on two threads (a shard that chose another piece would search another partition).
/// A named piece is kept as named, and a short search (10x6) keeps the automatic piece
/// unmeasured.
#[test]
fn the_filter_piece_is_measured_where_the_search_is_long() {
    let run = |file: &str, args: &[&str]| {
        let mut all = vec!["solve", "-q", "-i", "--limit", "1"];
        all.extend_from_slice(args);
        all.push(file);
        let out = run_fila(&all, None);
        assert!(out.status.success(), "{}", stderr(&out));
        let map = crate::common::report(&stdout(&out));
        (
            value_of(&map, "REDUNDANCY_FILTER").to_string(),
            value_of(&map, "ENGINE").to_string(),
        )
    };
    let tetris = "puzzles/tetriscube.txt";
    let (filter, engine) = run(tetris, &["-j", "1"]);
    assert_eq!(filter, "L", "{engine}");
    assert!(
        engine.contains("filter piece L rather than G (the automatic one)"),
        "{engine}"
    );
    assert_eq!(
        run(tetris, &["-j", "2", "--shard", "2/3"]),
        (filter, engine)
    );
    let (named, engine) = run(tetris, &["-r", "A"]);
    assert_eq!(named, "A");
    assert!(!engine.contains("Knuth"), "{engine}");
    let (auto, engine) = run("puzzles/pentomino_10x6.txt", &[]);
    assert_eq!(auto, "X");
    assert!(!engine.contains("Knuth"), "{engine}");
}

/// `--limit N` stops after N solutions, listed or not.
#[test]
fn limit_stops_the_search() {
    for n in [0u64, 1, 7] {
        let out = run_fila(
            &[
                "solve",
                "-i",
                "-r",
                ".",
                "--limit",
                &n.to_string(),
                "puzzles/soma.txt",
            ],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(
            parse_listing(&text, [3, 3, 3]).len() as u64,
            n,
            "--limit {n}: blocks listed"
        );
        assert_eq!(
            number(&crate::common::report(&text), "SOLUTIONS"),
            n,
            "--limit {n}"
        );
        check("puzzles/soma.txt", &["--limit", &n.to_string()], n);
    }
    // A limit above the count changes nothing.
    check("tests/puzzles/pentomino_20x3.txt", &["--limit", "3"], 2);
}

/// polycube's brief layout, pinned on a 3D puzzle with exactly one solution: rows from
/// the top (y = yDim-1), z layers side by side separated by ", ", every name right-aligned
/// in the width of the longest name plus one.
#[test]
fn brief_layout() {
    // A 3x2x2 box. The stationary "Wall" fills the z = 1 layer but for (0,1,1); the L
    // tromino "Tall" must reach up into that cell, and of its two ways only the one
    // lying along y = 1 leaves room for the L tetromino "L".
    let text = "\
D:xDim=3:yDim=2:zDim=2
C:name=L:layout=0 0 0, 1 0 0, 2 0 0, 2 1 0
C:name=Tall:layout=0 0 1, 0 0 0, 1 0 0
L:stationary=Wall
. . . , . Wall Wall
. . . , Wall Wall Wall
~L
~D
";
    let expected = "
# --- SOLUTION 1 ---
 Tall Tall    L,  Tall Wall Wall
    L    L    L,  Wall Wall Wall
";
    for redundancy in ["#", "."] {
        let out = run_fila(&["solve", "-r", redundancy], Some(text));
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), expected, "-r {redundancy}");
    }
    // The same through the program with polycube's options and no subcommand, read from
    // standard input as a pipe would give it.
    let out = run_fila(&["--quiet=false", "-r", "."], Some(text));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected);
    // `-V` alone is polycube's volume filter there too, not the version (`--version`).
    let out = run_fila(&["-V"], Some(text));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), expected, "-V");
    let out = run_fila(&["--version"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("fila "), "{}", stdout(&out));
}

/// A generated solver gives its version under its own name, by `--version` alone (its
/// `-V` is the volume filter, as fila's is).
#[test]
fn a_generated_solver_names_itself_and_its_version() {
    let soma = crate::common::executable("soma");
    let run = |args: &[&str]| crate::common::run_ok(&soma, args);
    let version = env!("CARGO_PKG_VERSION");
    assert_eq!(
        run(&["--version"]),
        format!("soma {version} (generated by fila)\n")
    );
    assert!(run(&["--help"]).contains("--version"));
    // (The Soma's solver was built without the volume filter: it says so, and solves.)
    let volume = run(&["-V", "-q", "-i"]);
    assert_eq!(
        value_of(&crate::common::report(&volume), "SOLUTIONS"),
        "480"
    );
}

/// Copies are named in definition order by their least cell; a stationary piece is
/// listed under its own name.
#[test]
fn brief_layout_with_copies() {
    let text = "\
D:xDim=4:yDim=1:zDim=1
C:name=d1:layout=0 0 0, 1 0 0
C:name=d2:layout=0 0 0, 1 0 0
~D
";
    let out = run_fila(&["solve", "-r", "."], Some(text));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "\n# --- SOLUTION 1 ---\n d1 d1 d2 d2\n");
}

/// `fila solve` runs the FILA engine by default and dancing links with `--engine dlx`:
/// the same solutions, each engine named in `-i`, `--f-from` for the FILA engine only.
#[test]
fn both_engines_on_the_command_line() {
    let fila = check("puzzles/soma.txt", &[], 480);
    let dlx = check("puzzles/soma.txt", &["--engine", "dlx"], 480);
    for key in ["UNIQUE", "FIRST_IMAGES"] {
        assert_eq!(number(&fila, key), number(&dlx, key), "{key}");
    }
    assert!(value_of(&fila, "ENGINE").starts_with("FILA engine"));
    assert!(value_of(&dlx, "ENGINE").contains("dancing links"));
    // The FILA engine searches without the V tricube's images that lie with two cells
    // on the box's minority colour (the parity filter); dancing links, the oracle, with
    // all of them.
    assert_eq!(number(&dlx, "IMAGES"), 688);
    assert_eq!(number(&fila, "IMAGES"), 616);
    assert!(
        value_of(&fila, "ENGINE").ends_with("; the parity filter dropped 72 of 688 images"),
        "{}",
        value_of(&fila, "ENGINE")
    );
    assert!(!value_of(&dlx, "ENGINE").contains("parity"));
    // The E heuristic throughout, and F throughout: the same count.
    for f_from in ["0", "7"] {
        let map = check("puzzles/soma.txt", &["--f-from", f_from], 480);
        assert_eq!(value_of(&map, "F_FROM"), f_from);
    }
    let out = run_fila(
        &[
            "solve",
            "-q",
            "--engine",
            "dlx",
            "--f-from",
            "2",
            "puzzles/soma.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--f-from applies to the FILA solvers"));
    // The listings agree solution for solution (in the order each engine finds them).
    let listing = |engine: &str| {
        let out = run_fila(
            &[
                "solve",
                "--engine",
                engine,
                "tests/puzzles/pentomino_20x3.txt",
            ],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let mut blocks = parse_listing(&stdout(&out), [20, 3, 1]);
        blocks.sort();
        blocks
    };
    let (a, b) = (listing("fila"), listing("dlx"));
    assert_eq!(a.len(), 2);
    assert_eq!(a, b);
}

/// A puzzle beyond the FILA engine's limits (here 70 pieces; it places at most 63) goes to
/// dancing links, which says why in `-i`; asked for by name, the FILA engine refuses it
/// with exit status 2 and nothing solved.
#[test]
fn beyond_the_fila_engine_dancing_links_answers() {
    let mut text = String::from("D:xDim=70:yDim=1:zDim=1\n");
    for k in 0..70 {
        text.push_str(&format!("C:name=m{k}:layout=0 0 0\n"));
    }
    text.push_str("~D\n");
    let out = run_fila(&["solve", "-q", "-i"], Some(&text));
    assert!(out.status.success(), "{}", stderr(&out));
    let map = crate::common::report(&stdout(&out));
    let engine = value_of(&map, "ENGINE");
    assert!(
        engine.contains("dancing links") && engine.contains("at most 63"),
        "{engine}"
    );
    let out = run_fila(&["solve", "-q", "--engine", "fila"], Some(&text));
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("--engine fila"), "{}", stderr(&out));
}

/// The table of dead states (`--memo`) changes the work, never what is found: the same
/// counts with it as without, on one thread and two (with a table small enough to keep
/// replacing states), with the filter and without, with copies (the tetrahexes twice
/// over) and one-sided pieces, and the same listed solutions; on one thread it saves
/// placements. Where only the count is asked for (`-q`, under the filter), it also keeps
/// the counts of solutions of the states whose keys are one word, and saves more
/// placements than where the solutions are listed; not under `-r .`, nor with the
/// tetrahexes twice over (whose code of the pieces left, with copies, needs wide keys).
#[test]
fn dead_states_change_the_work_not_the_solutions() {
    let solve = |file: &str, args: &[&str]| {
        let o = run_fila(&[&["solve", "-i"], args, &[file]].concat(), None);
        assert!(o.status.success(), "{file} {args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let counts = |text: &str| {
        let r = crate::common::report(text);
        (number(&r, "SOLUTIONS"), number(&r, "UNIQUE"))
    };
    let fits = |text: &str| number(&crate::common::report(text), "FITS_TOTAL");
    let memo = |text: &str| value_of(&crate::common::report(text), "MEMO").to_string();
    for file in [
        "puzzles/pentomino_10x6.txt",
        "puzzles/one_sided_30x3.txt",
        "puzzles/tetrahexes_twice_4x14.txt",
    ] {
        for filter in ["#", "."] {
            let off = solve(file, &["-q", "-r", filter, "-j", "1", "--memo", "off"]);
            assert_eq!(memo(&off), "0", "{file}");
            let on = solve(file, &["-q", "-r", filter, "-j", "1"]);
            assert_eq!(memo(&on), (1u64 << 30).to_string(), "{file}: the default");
            assert_eq!(counts(&on), counts(&off), "{file} -r {filter}");
            let listing = solve(file, &["-r", filter, "-j", "1"]);
            assert_eq!(counts(&listing), counts(&off), "{file} -r {filter}, listed");
            if filter == "#" && !file.contains("tetrahexes") {
                assert!(
                    fits(&on) < fits(&listing),
                    "{file}: {} placements counting, {} listing",
                    fits(&on),
                    fits(&listing)
                );
            } else {
                assert_eq!(fits(&on), fits(&listing), "{file} -r {filter}");
            }
            assert!(
                fits(&on) < fits(&off),
                "{file} -r {filter}: {} placements, {} without",
                fits(&on),
                fits(&off)
            );
            // 512 KiB a thread: a few thousand slots, replaced again and again.
            let small = solve(file, &["-q", "-r", filter, "-j", "2", "--memo", "1M"]);
            assert_eq!(memo(&small), (512u64 << 10).to_string(), "{file}");
            assert_eq!(counts(&small), counts(&off), "{file} -r {filter} -j 2");
        }
    }
    let listed = |args: &[&str]| {
        let mut l = parse_listing(&solve("puzzles/pentomino_10x6.txt", args), [10, 6, 1]);
        l.sort();
        l
    };
    let off = listed(&["--memo", "off"]);
    assert_eq!(off.len(), 2339);
    assert_eq!(listed(&[]), off);
}
