//! Bad input: the corpus of malformed files (tests/errors/NAME.txt with the expected
//! diagnostics in NAME.stderr), unreadable paths, bad options, and random damage to good
//! files, which must give diagnostics and exit status 2, never a panic or a partial answer.

use std::path::PathBuf;

use proptest::prelude::*;

use crate::common::{fila, root, run_fila, scratch, stderr, stdout};

/// Asserts a run that must fail as bad input does: status 2, nothing on stdout, no panic,
/// and something said on stderr.
fn assert_refused(out: &std::process::Output, what: &str) -> String {
    let err = stderr(out);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{what}: exit status (stderr: {err})"
    );
    assert_eq!(stdout(out), "", "{what}: nothing on stdout");
    assert!(!err.contains("panicked"), "{what}: panicked: {err}");
    assert!(!err.trim().is_empty(), "{what}: says why");
    err
}

#[test]
fn error_corpus() {
    let dir = root().join("tests/errors");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".txt").map(str::to_string))
        .collect();
    names.sort();
    assert!(
        names.len() >= 40,
        "the corpus is there ({} files)",
        names.len()
    );
    let mut failures = Vec::new();
    for name in &names {
        let expected_path: PathBuf = dir.join(format!("{name}.stderr"));
        let expected = std::fs::read_to_string(&expected_path)
            .unwrap_or_else(|_| panic!("{name}.txt has a {name}.stderr"));
        let file = format!("tests/errors/{name}.txt");
        let out = run_fila(&["solve", &file], None);
        let err = stderr(&out);
        if out.status.code() != Some(2)
            || !out.stdout.is_empty()
            || err != expected
            || err.contains("panicked")
        {
            failures.push(format!(
                "{file}: status {:?}, stdout {:?}\n  stderr:   {err:?}\n  expected: {expected:?}",
                out.status.code(),
                stdout(&out)
            ));
        }
    }
    // Every expectation has its file.
    for entry in std::fs::read_dir(&dir).unwrap() {
        let f = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = f.strip_suffix(".stderr") {
            assert!(names.iter().any(|n| n == stem), "{f} has no {stem}.txt");
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
}

/// The same diagnostics through standard input, named `<stdin>`, with polycube's
/// spelling (no subcommand).
#[test]
fn error_corpus_sample_on_stdin() {
    for name in ["bad_type", "duplicate_name", "eof_in_l"] {
        let text =
            std::fs::read_to_string(root().join(format!("tests/errors/{name}.txt"))).unwrap();
        let expected =
            std::fs::read_to_string(root().join(format!("tests/errors/{name}.stderr"))).unwrap();
        let out = run_fila(&["-q", "-i"], Some(&text));
        let err = assert_refused(&out, name);
        assert_eq!(
            err,
            expected.replace(&format!("tests/errors/{name}.txt"), "<stdin>"),
            "{name} on stdin"
        );
    }
}

#[test]
fn unreadable_paths() {
    let out = run_fila(&["solve", "tests/no/such/file.txt"], None);
    let err = assert_refused(&out, "missing file");
    assert!(
        err.starts_with("error: cannot read tests/no/such/file.txt:"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one line: {err}");

    let out = run_fila(&["solve", "tests/errors"], None);
    let err = assert_refused(&out, "a directory");
    assert!(err.contains("cannot read tests/errors"), "{err}");

    let dir = scratch("unreadable");
    // The first byte that is no UTF-8 is pointed at, by line and column (in characters),
    // in a file and on standard input alike.
    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"D:xDim=1:yDim=1:zDim=1\n# \xc3\xa9\xff\xfe\n~D\n").unwrap();
    let path = binary.to_str().unwrap();
    let out = run_fila(&["solve", path], None);
    let err = assert_refused(&out, "not UTF-8");
    assert_eq!(
        err,
        format!("{path}:2:4: error: the input is not UTF-8 text\n")
    );
    let out = std::process::Command::new(fila())
        .args(["solve", "-i"])
        .stdin(std::fs::File::open(&binary).unwrap())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let err = assert_refused(&out, "standard input not UTF-8");
    assert_eq!(err, "<stdin>:2:4: error: the input is not UTF-8 text\n");
}

const GOOD: &str = "D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\n~D\n";
const BAD: &str = "D:xDim=2:yDim=1:zDim=1\nC:name=a:layout=0 0 0\n~D\n";

/// Everything is read and checked before anything is solved: one bad puzzle anywhere and
/// no solution is printed.
#[test]
fn a_bad_puzzle_spoils_the_run() {
    let text = format!("{GOOD}{BAD}");
    let out = run_fila(&["solve", "-i"], Some(&text));
    let err = assert_refused(&out, "good then bad");
    assert_eq!(
        err,
        "<stdin>:6:1: error: pieces cover 1 cell but the 2x1x1 box has 2\n   6 | ~D\n     | ^\n"
    );

    let text = format!("{BAD}{GOOD}");
    let out = run_fila(&["-i"], Some(&text));
    assert_refused(&out, "bad then good, polycube style");

    // A good file and a bad one on the command line.
    let out = run_fila(
        &[
            "solve",
            "-i",
            "puzzles/soma.txt",
            "tests/errors/bad_type.txt",
        ],
        None,
    );
    let err = assert_refused(&out, "good file, bad file");
    assert_eq!(
        err,
        std::fs::read_to_string(root().join("tests/errors/bad_type.stderr")).unwrap()
    );
    let out = run_fila(
        &["solve", "-i", "tests/no/such.txt", "puzzles/soma.txt"],
        None,
    );
    assert_refused(&out, "missing file, good file");
}

/// What a run writes (`--svg FILE.svg`, `--html`, `--checkpoint`) is never a file it
/// reads, however it is named: refused before anything is read or written, the file left
/// as it was.
#[test]
fn outputs_never_overwrite_inputs() {
    let dir = scratch("outputs_are_not_inputs");
    let soma = std::fs::read_to_string(root().join("puzzles/soma.txt")).unwrap();
    let definition = dir.join("soma.svg");
    std::fs::write(&definition, &soma).unwrap();
    let path = definition.to_str().unwrap();
    let listing = dir.join("listing.txt");
    let out = run_fila(&["solve", "--limit", "2", "-j1", path], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let listed_text = out.stdout;
    assert!(!listed_text.is_empty());
    std::fs::write(&listing, &listed_text).unwrap();
    let listed = listing.to_str().unwrap();
    // The same file by another name.
    let roundabout = format!(
        "{}/../{}/soma.svg",
        dir.display(),
        dir.file_name().unwrap().to_str().unwrap()
    );
    let cases: [&[&str]; 6] = [
        &["solve", "-q", "--html", path, path],
        &["solve", "-q", "--svg", path, path],
        &[
            "solve",
            "-q",
            "--checkpoint",
            &roundabout,
            "puzzles/soma.txt",
            path,
        ],
        &["render", "--html", listed, path, listed],
        &["render", "--svg", path, path, listed],
        &["-q", "--svg", &roundabout, path],
    ];
    for args in cases {
        let out = run_fila(args, None);
        let err = assert_refused(&out, &format!("{args:?}"));
        assert!(err.contains("which it would overwrite"), "{args:?}: {err}");
        assert_eq!(
            std::fs::read_to_string(&definition).unwrap(),
            soma,
            "{args:?}"
        );
        assert_eq!(std::fs::read(&listing).unwrap(), listed_text, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_filter_piece() {
    for args in [
        &["solve", "-r", "Q", "puzzles/soma.txt"][..],
        &["-q", "-r", "Q", "puzzles/soma.txt"][..],
        &["solve", "-i", "-r", "Q", "--mirror", "puzzles/soma.txt"][..],
    ] {
        let out = run_fila(args, None);
        let err = assert_refused(&out, &format!("{args:?}"));
        assert!(err.contains("no piece named 'Q'"), "{args:?}: {err}");
    }
    // A stationary piece cannot carry the filter.
    let out = run_fila(
        &["solve", "-r", "*", "tests/puzzles/pentomino_8x8_centre.txt"],
        None,
    );
    let err = assert_refused(&out, "-r on a stationary piece");
    assert!(err.contains("stationary"), "{err}");
    // Nor can one of several copies.
    let text =
        "D:xDim=4:yDim=1:zDim=1\nC:name=a:layout=0 0 0, 1 0 0\nC:name=b:layout=0 0 0, 1 0 0\n~D\n";
    let out = run_fila(&["solve", "-r", "a"], Some(text));
    let err = assert_refused(&out, "-r on a copy");
    assert!(err.contains("not uniquely shaped"), "{err}");
}

#[test]
fn bad_options() {
    for args in [
        &["solve", "--limit", "x", "puzzles/soma.txt"][..],
        &["solve", "--quiet=maybe"][..],
        &["solve", "--no-such-option"][..],
        &["solve", "-j", "100000", "puzzles/soma.txt"][..],
        // polycube's Monte-Carlo sampling is refused, not run as a whole search.
        &["-s", "10,5,1", "puzzles/soma.txt"][..],
        // The short run of an estimate, with no estimate, would be ignored.
        &["solve", "--estimate-run", "5", "puzzles/soma.txt"][..],
        &["solve", "--progress=maybe", "puzzles/soma.txt"][..],
        // Checkpoints every 5 s, with no checkpoint.
        &["solve", "--checkpoint-every", "5", "puzzles/soma.txt"][..],
    ] {
        let out = run_fila(args, None);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Standard input (`-`) is read once: named twice, by any command, it is refused before
/// anything is read. (`fila render` reads the listing from it when none is named.)
#[test]
fn standard_input_is_named_once() {
    let soma = include_str!("../../puzzles/soma.txt");
    let never = scratch("stdin_twice").join("never.svg");
    let never = never.to_str().unwrap();
    for args in [
        &["solve", "-", "-"][..],
        &["solve", "-q", "-", "puzzles/soma.txt", "-"][..],
        &["merge", "-", "-"][..],
        &["render", "--svg", never, "-", "-"][..],
        &["render", "--svg", never, "-"][..],
    ] {
        let out = run_fila(args, Some(soma));
        let err = assert_refused(&out, &format!("{args:?}"));
        assert!(
            err.starts_with("error: standard input (-) is named 2 times, and it can be read once"),
            "{args:?}: {err}"
        );
    }
    assert!(!std::path::Path::new(never).exists());
}

/// A listing that cannot be written (a full disk) is an error, exit status 2, whether it
/// fails during the search, at the `-i` block or at an estimate's; a reader that goes
/// away (a closed pipe, as `| head` closes it) stops the run quietly, as a filter does.
#[test]
fn output_lost_is_an_error_and_a_closed_pipe_is_not() {
    use std::process::{Command, Stdio};
    let fila = std::path::Path::new(crate::common::fila());
    let solver = crate::common::executable("soma");
    for (exe, args) in [
        (fila, &["solve", "-j1", "puzzles/pentomino_10x6.txt"][..]),
        (fila, &["solve", "-q", "-i", "puzzles/soma.txt"][..]),
        (fila, &["solve", "--estimate", "puzzles/soma.txt"][..]),
        (solver.as_path(), &["-q", "-i"][..]),
    ] {
        let out = crate::common::run_onto_full_disk(exe, args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write to standard output: No space left on device"),
            "{args:?}: {err}"
        );
    }
    let mut child = Command::new(fila)
        .args(["solve", "-j1", "puzzles/pentomino_10x6.txt"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut head = [0; 100];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut head).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

/// Empty input (or comments only) holds no puzzle: nothing to solve, nothing printed on
/// standard output, and that is not an error (status 0), as with an empty stream for
/// polycube; but a warning says so, since it is most often a mistake (`fila solve -t
/// FILE`, polycube's trace taking FILE as its value, reads an empty standard input).
/// Decided and pinned here.
#[test]
fn empty_input_solves_nothing() {
    for text in ["", "\n\n", "# only a comment\n   # and another\n"] {
        for args in [&["solve"][..], &["solve", "-i"][..], &["-q", "-i"][..]] {
            let out = run_fila(args, Some(text));
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?} on {text:?}: {}",
                stderr(&out)
            );
            assert_eq!(stdout(&out), "", "{args:?} on {text:?}");
            assert_eq!(
                stderr(&out),
                "<stdin>: warning: no puzzle in it (a puzzle is a D line, its pieces and ~D)\n",
                "{args:?} on {text:?}"
            );
        }
    }
    // Named files are named; a file with a puzzle beside an empty one is solved.
    let dir = scratch("empty_input");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "# nothing here\n").unwrap();
    let empty = empty.to_str().unwrap();
    let out = run_fila(&["solve", "-q", "-i", empty, "puzzles/soma.txt"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!("{empty}: warning: no puzzle in it (a puzzle is a D line, its pieces and ~D)\n")
    );
    assert!(
        stdout(&out).contains("\nSOLUTIONS=480\n"),
        "{}",
        stdout(&out)
    );
}

// ---------------------------------------------------------------------------------------
// Random damage to good definitions: the reader and the model either accept the text or
// report diagnostics; they never panic. Accepted puzzles small enough are solved too.

const SEEDS: [&str; 3] = [
    include_str!("../../puzzles/soma.txt"),
    include_str!("../puzzles/one_sided_tetromino_7x4.txt"),
    "D:xDim=3:yDim=2:zDim=2\nC:name=L:layout=0 0 0, 1 0 0, 2 0 0, 2 1 0\nC:name=T:layout=0 0 1, 0 0 0, 1 0 0\n\
     L:stationary=W\n. . . , . W W\n. . . , W W W\n~L\n~D\n",
];

const ALPHABET: &[u8] = b"0123456789 ,:=.-#*\nDCL~SMxyzDimnaetpoOS";

fn damage(text: &str, edits: &[(u8, usize, usize)]) -> String {
    let mut bytes: Vec<u8> = text.bytes().collect();
    for &(op, at, what) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = at % bytes.len();
        match op % 4 {
            0 => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, ALPHABET[what % ALPHABET.len()]),
            2 => bytes[at] = ALPHABET[what % ALPHABET.len()],
            _ => {
                // Duplicate or drop a whole line.
                let lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
                let k = at % lines.len();
                let mut out: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                if what % 2 == 0 {
                    out.insert(k, out[k].clone());
                } else {
                    out.remove(k);
                }
                bytes = out.join(&b'\n');
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn damaged_definitions_never_panic(
        seed in 0..SEEDS.len(),
        edits in proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..6),
    ) {
        let text = damage(SEEDS[seed], &edits);
        match generator::load("damaged.txt", &text) {
            Err(diagnostics) => {
                prop_assert!(!diagnostics.is_empty(), "an error comes with a diagnostic\n{text}");
            }
            Ok(puzzles) => {
                for puzzle in &puzzles {
                    let Ok(info) = generator::info::puzzle_info(puzzle, &generator::model::Redundancy::Auto, "test") else { continue };
                    if info.cells() <= 27 && info.images.len() <= 2000 {
                        let mut options = crate::common::options("#", false, false, true);
                        options.limit = Some(3);
                        let mut search = generator::engine::DlxSearch::new(&info);
                        let mut out = Vec::new();
                        prop_assert!(runtime::run(&info, &mut search, &options, &mut out).is_ok());
                    }
                }
            }
        }
    }
}

/// Runs `fila ARGS` on `stdin` with its address space limited to `mib` MiB, as a user's
/// `ulimit -v` would: a refusal that allocated what it refuses would die here.
fn run_fila_within(mib: u64, args: &[&str], stdin: &str) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", mib << 10))
        .arg(crate::common::fila())
        .args(args)
        .current_dir(root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("sh runs");
    // The input may be refused before it is read to the end.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

/// Puzzles past fila's limits, made here since they are big: each is refused as bad
/// input, naming its line and the limit, within 512 MiB of address space, since the
/// images are counted and the memory estimated before anything big is built.
#[test]
fn resource_limits_are_refused_in_bounded_memory() {
    // 20,000 dominoes in a 200x200 box: 79,600 images, past the 65535 fila numbers.
    let mut dominoes = String::from("D:xDim=200:yDim=200:zDim=1\n");
    for k in 0..20_000 {
        dominoes.push_str(&format!("C:name=d{k}:layout=0 0 0, 1 0 0\n"));
    }
    dominoes.push_str("~D\n");
    // Eight 1x5000 bars in a 10000x4 box: 20,004 images of 5000 cells, which dancing
    // links would need about 9 GiB for, past the default limit of 8 GiB.
    let mut bars = String::from("D:xDim=10000:yDim=4:zDim=1\nL\n");
    for y in 0..4 {
        let row: Vec<String> = (0..10_000)
            .map(|x| format!("B{}", 2 * y + x / 5000))
            .collect();
        bars.push_str(&row.join(" "));
        bars.push('\n');
    }
    bars.push_str("~L\n~D\n");
    let tetris = std::fs::read_to_string(root().join("puzzles/tetriscube.txt")).unwrap();
    let cases: [(&str, &[&str], &str, &[&str]); 5] = [
        ("dominoes", &[], &dominoes, &["<stdin>:1:1: error: the pieces have more than 65535 placements (images)", "at piece 'd0' (line 2)"]),
        ("bars", &[], &bars, &["<stdin>:1:1: error: solving it would need more memory than the limit of 8.0 GiB (--max-memory)"]),
        ("bars by dlx", &["--engine", "dlx"], &bars, &["limit of 8.0 GiB (--max-memory)"]),
        // Counted, the images fit; the FILA engine's tables would not.
        ("Tetris Cube in 20M", &["--max-memory", "20M"], &tetris, &["<stdin>:2:1: error: solving it would need about ", "MiB of memory, more than the limit of 20.0 MiB (--max-memory)"]),
        ("Tetris Cube by dlx in 1M", &["--max-memory", "1M", "--engine", "dlx"], &tetris, &["<stdin>:2:1: error: ", "more memory than the limit of 1.0 MiB (--max-memory)"]),
    ];
    for (what, options, text, says) in cases {
        let args: Vec<&str> = ["solve", "-i"].iter().chain(options).copied().collect();
        let out = run_fila_within(512, &args, text);
        let err = assert_refused(&out, what);
        for part in says {
            assert!(err.contains(part), "{what}: {err}");
        }
        // One message, shown with the line it points at (the puzzle's D line).
        assert_eq!(err.lines().count(), 3, "{what}: one message: {err}");
        assert!(
            err.lines().nth(1).unwrap().contains("| D:"),
            "{what}: {err}"
        );
    }
    // The limit is the user's to raise: the same Tetris Cube with room is solved.
    let out = run_fila(
        &[
            "solve",
            "-q",
            "-i",
            "--max-memory",
            "64M",
            "--limit",
            "1",
            "puzzles/tetriscube.txt",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("SOLUTIONS=1\n"), "{}", stdout(&out));
    for bad in ["lots", "-1G", "8Q"] {
        let option = format!("--max-memory={bad}");
        let out = run_fila(&["solve", &option, "puzzles/soma.txt"], None);
        let err = assert_refused(&out, bad);
        assert!(err.contains("is not a size"), "{bad}: {err}");
    }
}

/// A puzzle of 65535 monominoes (the most cells a box has) is as deep as a search gets:
/// dancing links keeps its own stack, and the split for threads stops at 64 levels, so
/// it is solved (once: the copies are one piece to the counts) in bounded time and stack.
#[test]
fn the_deepest_puzzle_is_solved() {
    let mut text = String::from("D:xDim=255:yDim=257:zDim=1\n");
    for k in 0..65_535 {
        text.push_str(&format!("C:name=m{k}:layout=0 0 0\n"));
    }
    text.push_str("~D\n");
    for threads in ["1", "2"] {
        let out = run_fila(&["solve", "-q", "-i", "--threads", threads], Some(&text));
        assert_eq!(
            out.status.code(),
            Some(0),
            "{threads} threads: {}",
            stderr(&out)
        );
        assert!(stdout(&out).contains("\nSOLUTIONS=1\n"), "{}", stdout(&out));
    }
}
