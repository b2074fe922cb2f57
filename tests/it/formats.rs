//! polycube's output formats and goal (`-f [BFS][LC]`, `-g N`): a solution written as a
//! definition reads back as a puzzle whose one solution it is, and the sub-puzzles of a
//! goal, solved one by one, give every solution of the whole puzzle exactly once.

use runtime::report::Report;

use crate::common::{executable, number, report, run, run_fila, run_ok, stderr, stdout, value_of};

/// Runs `fila ARGS` (with `stdin`), which must succeed without a word on stderr, and
/// returns its output.
fn ok(args: &[&str], stdin: Option<&str>) -> String {
    let out = run_fila(args, stdin);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "fila {args:?}: {:?}: {}",
        out.status,
        stderr(&out)
    );
    stdout(&out)
}

/// The solutions of a brief listing, each as the text of its rows (what follows its
/// `# --- SOLUTION n ---` header, up to the next blank line), sorted: the listing as a
/// multiset of solutions, whatever their numbers and order.
fn layouts(listing: &str) -> Vec<String> {
    let mut solutions = Vec::new();
    let mut current: Option<String> = None;
    for line in listing.lines() {
        if line.starts_with("# --- SOLUTION ") {
            solutions.extend(current.take());
            current = Some(String::new());
        } else if line.trim().is_empty() || line.contains('=') || line.starts_with('#') {
            solutions.extend(current.take());
        } else if let Some(rows) = current.as_mut() {
            rows.push_str(line);
            rows.push('\n');
        }
    }
    solutions.extend(current);
    solutions.sort();
    solutions
}

/// The `-i` blocks of `text`, one per puzzle.
fn blocks(text: &str) -> Vec<Report> {
    Report::parse_all(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_full_definition_reads_back_as_its_own_solution() {
    // Every lattice form of the writer: square and cubic boxes, a oneSide set, triangles
    // with a stationary frame, packed spheres; pieces drawn (L) and by coordinates (C).
    for (file, form) in [
        ("puzzles/pentomino_10x6.txt", "FL"),
        ("puzzles/pentomino_10x6.txt", "FC"),
        ("puzzles/soma.txt", "FL"),
        ("puzzles/one_sided_30x3.txt", "FC"),
        ("puzzles/hexiamonds_hexagon.txt", "FL"),
        ("puzzles/tetrahexes_twice_prisms_7x4x2.txt", "FL"),
        ("tests/puzzles/spheres_pyramid_14.txt", "FC"),
    ] {
        // One thread, so that the first three are the same three.
        let brief = ok(&["solve", "-j", "1", "--limit", "3", file], None);
        let full = ok(
            &["solve", "-j", "1", "--limit", "3", "-f", form, file],
            None,
        );
        assert_eq!(full.matches("\nD:").count(), 3, "{file} -f {form}:\n{full}");
        // Read back: three puzzles, each with every piece stationary and one solution,
        // the one it was written from.
        let again = ok(&["solve", "-i"], Some(&full));
        let reports = blocks(&again);
        assert_eq!(reports.len(), 3, "{file} -f {form}");
        for r in &reports {
            assert_eq!(number(r, "SOLUTIONS"), 1, "{file} -f {form}");
            assert_eq!(number(r, "PIECES"), 0, "{file} -f {form}");
        }
        assert_eq!(layouts(&again), layouts(&brief), "{file} -f {form}");
    }
}

/// Splits `file` with `parent` (the command line, `-g` and `-f S?` included), checks that
/// it wrote as many sub-puzzles as its `-i` run counts at the goal, solves them all with
/// `fila solve -r . SOLVER`, and returns the sub-puzzles' output.
fn solve_sub_puzzles(parent: &[&str], file: &str, solver: &[&str]) -> String {
    let run = |extra: &[&str]| -> String {
        let mut args: Vec<&str> = parent.to_vec();
        args.extend_from_slice(extra);
        if args[0] == "solve" {
            args.push(file);
            ok(&args, None)
        } else {
            run_ok(&executable(args[0]), &args[1..])
        }
    };
    let subs = run(&[]);
    let goal = number(&report(&run(&["-q", "-i"])), "SOLUTIONS");
    assert!(goal > 1, "{parent:?} {file}: {goal} sub-puzzles");
    assert_eq!(
        subs.matches("\nD:").count() as u64,
        goal,
        "{parent:?} {file}"
    );
    let mut args = vec!["solve", "-r", ".", "-i", "-j", "2"];
    args.extend_from_slice(solver);
    ok(&args, Some(&subs))
}

#[test]
fn sub_puzzles_hold_every_solution_once() {
    // (the puzzle, the split, how the sub-puzzles are solved)
    let cases: &[(&str, &[&str], &[&str])] = &[
        // The run-time FILA engine, pieces drawn; dancing links splits too; the
        // sub-puzzles solved on either engine.
        (
            "puzzles/pentomino_10x6.txt",
            &["solve", "-g", "9", "-f", "S"],
            &[],
        ),
        (
            "puzzles/pentomino_10x6.txt",
            &["solve", "-g", "8", "-f", "SC", "--engine", "dlx"],
            &[],
        ),
        (
            "tests/puzzles/pentomino_20x3.txt",
            &["solve", "-g", "9", "-f", "S", "-r", "."],
            &["--engine", "dlx"],
        ),
        // A generated solver splits too.
        (
            "puzzles/pentomino_10x6.txt",
            &["pentomino_10x6", "-g", "8", "-f", "SC"],
            &[],
        ),
        // oneSide, with the reflections of a mirror-closed set in the group (W named, so
        // that the whole run lists the same representatives: without a goal the
        // automatic piece is X, whose kept images are all symmetric).
        (
            "puzzles/one_sided_30x3.txt",
            &["solve", "-g", "14", "-f", "SC", "-r", "W"],
            &[],
        ),
        // Triangles, with a stationary frame.
        (
            "puzzles/hexiamonds_hexagon.txt",
            &["solve", "-g", "9", "-f", "SL"],
            &[],
        ),
        // Copies, which no piece can carry the filter for: every solution.
        (
            "puzzles/tetrahexes_twice_4x14.txt",
            &["solve", "-g", "11", "-f", "SL", "-r", "."],
            &[],
        ),
    ];
    for &(file, parent, solver) in cases {
        let subs = solve_sub_puzzles(parent, file, solver);
        // The parent's own run without the goal, with the same filter.
        let mut whole_args = vec!["solve"];
        whole_args.extend(parent.iter().skip_while(|&&a| a != "-r").take(2));
        whole_args.push(file);
        let whole = ok(&whole_args, None);
        let sum: u64 = blocks(&subs).iter().map(|r| number(r, "SOLUTIONS")).sum();
        let listed = layouts(&whole);
        assert_eq!(sum, listed.len() as u64, "{parent:?} {file}");
        // Not only the count: the sub-puzzles' solutions are the whole run's, each once.
        assert_eq!(layouts(&subs), listed, "{parent:?} {file}");
    }
    // A run with a goal takes an automatic piece none of whose kept images is symmetric:
    // W in the 30x3, where a run without takes X.
    let file = "puzzles/one_sided_30x3.txt";
    for (args, piece) in [(&["-g", "14"][..], "W"), (&[][..], "X")] {
        let mut all = vec!["solve", "-q", "-i"];
        all.extend_from_slice(args);
        all.push(file);
        let report = ok(&all, None);
        assert!(
            report.contains(&format!("\nREDUNDANCY_FILTER={piece}\n")),
            "{all:?}: {report}"
        );
    }
}

#[test]
fn the_tetris_cube_in_sub_puzzles() {
    // polycube's workflow: -g 10 -f S, each sub-puzzle solved on its own, the counts added.
    let subs = solve_sub_puzzles(
        &["solve", "-g", "10", "-f", "SC"],
        "puzzles/tetriscube.txt",
        &["-q"],
    );
    let counts: Vec<u64> = blocks(&subs)
        .iter()
        .map(|r| number(r, "SOLUTIONS"))
        .collect();
    assert_eq!(counts.iter().sum::<u64>(), 9839);
    assert!(
        counts.iter().filter(|&&c| c > 0).count() > 100,
        "{counts:?}"
    );
}

#[test]
fn a_goal_splits_alike_on_threads_and_shards() {
    let file = "puzzles/pentomino_10x6.txt";
    let goal = |extra: &[&str]| -> Vec<String> {
        let mut args = vec!["solve", "-g", "8", "-f", "SC"];
        args.extend_from_slice(extra);
        args.push(file);
        let mut defs: Vec<String> = ok(&args, None)
            .split("\n# --- SOLUTION ")
            .skip(1)
            .map(|d| d.split_once('\n').unwrap().1.to_string())
            .collect();
        defs.sort();
        defs
    };
    let one = goal(&["-j", "1"]);
    assert!(one.len() > 100);
    assert_eq!(goal(&["-j", "2"]), one);
    let mut shards = goal(&["--shard", "1/2", "-j", "1"]);
    shards.extend(goal(&["--shard", "2/2", "-j", "2"]));
    shards.sort();
    assert_eq!(shards, one);
}

#[test]
fn goals_and_formats_that_cannot_work_are_refused() {
    let refused = |args: &[&str], stdin: Option<&str>, why: &str| {
        let out = run_fila(args, stdin);
        assert_eq!(out.status.code(), Some(2), "fila {args:?}");
        assert!(out.stdout.is_empty(), "fila {args:?}: {}", stdout(&out));
        let err = stderr(&out);
        assert!(err.contains(why), "fila {args:?}: {err}");
    };
    let p = "puzzles/pentomino_10x6.txt";
    refused(
        &["solve", "-g", "12", p],
        None,
        "the goal must be less than 12",
    );
    refused(&["solve", "-g", "3", "-u", "-r", ".", p], None, "-g and -u");
    refused(
        &["solve", "-g", "3", "--estimate", p],
        None,
        "-g and --estimate",
    );
    refused(&["solve", "-f", "X", p], None, "expected B, F or S");
    refused(&["solve", "-f", "SLC", p], None, "expected B, F or S");
    // The Soma's filter piece has a symmetric first placement under --mirror.
    refused(
        &["solve", "-g", "3", "--mirror", "puzzles/soma.txt"],
        None,
        "are symmetric",
    );
    // No piece carries the filter (copies): solutions are checked when complete.
    refused(
        &["solve", "-g", "3", "puzzles/tetrahexes_twice_4x14.txt"],
        None,
        "no piece can carry the redundancy filter",
    );
    // A name with a comma (which a C line allows) cannot be drawn; written as C lines, it
    // reads back.
    let comma = "D:xDim=2:yDim=1:zDim=1\nC:name=a,b:layout=0 0 0\nC:name=c:layout=0 0 0\n~D\n";
    refused(
        &["solve", "-f", "FL"],
        Some(comma),
        "cannot be drawn in an L block",
    );
    let written = ok(&["solve", "-f", "FC"], Some(comma));
    assert!(written.contains("C:name=a,b:type=S:layout="), "{written}");
    let read_back = ok(&["solve"], Some(&written));
    assert_eq!(layouts(&read_back), layouts(&ok(&["solve"], Some(comma))));
    // Every file's puzzles are checked against the options before any is solved, and a
    // refusal names the file and the puzzle's line.
    refused(
        &[
            "solve",
            "-g",
            "3",
            "puzzles/soma.txt",
            "puzzles/tetrahexes_twice_4x14.txt",
        ],
        None,
        "puzzles/tetrahexes_twice_4x14.txt:6:1: error: -g 3: no piece can carry",
    );
    // A puzzle of stationary pieces only has nothing to stop at.
    refused(
        &["solve", "-g", "1"],
        Some("D:xDim=1:yDim=1:zDim=1\nL:stationary=a\na\n~L\n~D\n"),
        "-g 1: the puzzle has no piece to place",
    );
    // The generated solvers refuse alike; one whose filter piece has a symmetric first
    // placement points to `fila solve`, which can take another piece.
    let out = run(&executable("pentomino_10x6"), &["-g", "12"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&executable("one_sided_30x3"), &["-q", "-g", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`fila solve -g 4` takes one"),
        "{}",
        stderr(&out)
    );
    let solved = ok(
        &["solve", "-q", "-i", "-g", "4", "puzzles/one_sided_30x3.txt"],
        None,
    );
    assert_ne!(
        value_of(&report(&solved), "REDUNDANCY_FILTER"),
        "X",
        "{solved}"
    );
}
