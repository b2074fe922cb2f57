//! Threads, shards, checkpoints and progress: however the search is spread, the counts,
//! the statistics and the set of listed solutions are those of one thread.

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    executable, fila, files, number, options, parse_listing, report, root, run, run_fila,
    run_onto_full_disk, scratch, stderr, stdout, value_of, Listed,
};

/// What one in-process run of the generic engine produced.
struct Run {
    summary: runtime::Summary,
    output: String,
}

/// One-sided tetrominoes with copies: 41 solutions up to the half turn, 82 in all.
const ONE_SIDED_COPIES: &str = "\
D:xDim=8:yDim=4:zDim=1:oneSide
C:name=L1:layout=0 0 0, 1 0 0, 0 1 0, 0 2 0
C:name=L2:layout=0 0 0, 1 0 0, 0 1 0, 0 2 0
C:name=J:layout=0 0 0, 1 0 0, 1 1 0, 1 2 0
C:name=J2:layout=0 0 0, 1 0 0, 1 1 0, 1 2 0
C:name=S1:layout=0 0 0, 1 0 0, 1 1 0, 2 1 0
C:name=S2:layout=0 0 0, 1 0 0, 1 1 0, 2 1 0
C:name=I:layout=0 0 0, 1 0 0, 2 0 0, 3 0 0
C:name=O:layout=0 0 0, 1 0 0, 0 1 0, 1 1 0
~D
";

/// The puzzle in `file`, or the text itself when it is a definition.
fn info_of(file: &str) -> runtime::PuzzleInfo {
    let text = if file.starts_with("D:") {
        file.to_string()
    } else {
        std::fs::read_to_string(root().join(file)).unwrap()
    };
    let puzzles = generator::load("case.txt", &text).unwrap();
    generator::info::puzzle_info(
        &puzzles[0],
        &generator::model::Redundancy::Auto,
        "generic engine: dancing links",
    )
    .unwrap()
}

fn run_in_process(info: &runtime::PuzzleInfo, opts: &runtime::Options) -> Run {
    let mut search = generator::engine::DlxSearch::new(info);
    let mut out: Vec<u8> = Vec::new();
    let summary = runtime::run(info, &mut search, opts, &mut out).unwrap();
    Run {
        summary,
        output: String::from_utf8(out).unwrap(),
    }
}

/// The listed solutions as a sorted list (numbered 1, 2, 3, ... and each block whole:
/// `parse_listing` checks both).
fn listed(text: &str, dims: [usize; 3]) -> Vec<Listed> {
    let mut v = parse_listing(text, dims);
    v.sort();
    v
}

/// One thread, two, three, with few or many subtrees: the same counts, the same
/// listed solutions, none interleaved; with stationary pieces, copies, one-sided pieces,
/// --mirror and the filter off. Without the table of dead states, the same statistics
/// too (with it, the placements depend on the order of the subtrees).
#[test]
fn threads_change_nothing_but_the_time() {
    let cases: &[(&str, &str, bool)] = &[
        ("puzzles/soma.txt", "#", false),
        ("puzzles/soma.txt", ".", true),
        ("tests/puzzles/pentomino_8x8_centre.txt", "#", false),
        (ONE_SIDED_COPIES, "#", false),
        (ONE_SIDED_COPIES, ".", false),
        ("tests/puzzles/pentomino_20x3.txt", "#", false),
    ];
    for &(file, redundancy, mirror) in cases {
        let info = info_of(file);
        let mut opts = options(redundancy, mirror, false, false);
        for memo in [0, opts.memo] {
            opts.memo = memo;
            opts.threads = Some(1);
            opts.subtrees = 1000;
            let one = run_in_process(&info, &opts);
            assert!(one.summary.solutions > 0);
            let reference = listed(&one.output, info.dims);
            assert_eq!(reference.len() as u64, one.summary.solutions);
            for (threads, subtrees) in [(1, 50), (2, 1), (2, 1000), (3, 200)] {
                opts.threads = Some(threads);
                opts.subtrees = subtrees;
                let other = run_in_process(&info, &opts);
                let what = format!(
                    "{} -r {redundancy} --mirror={mirror} --threads {threads} --subtrees {subtrees} --memo {memo}",
                    file.lines().next().unwrap_or("")
                );
                assert_eq!(other.summary.solutions, one.summary.solutions, "{what}");
                assert_eq!(other.summary.unique, one.summary.unique, "{what}");
                if memo == 0 {
                    assert_eq!(other.summary.stats, one.summary.stats, "{what}");
                }
                assert_eq!(listed(&other.output, info.dims), reference, "{what}");
                if threads > 1 || subtrees > 1 {
                    assert!(other.summary.subtrees >= subtrees.min(2) as usize, "{what}");
                }
            }
        }
    }
}

/// `--limit` with several threads lists exactly that many solutions, numbered in order.
#[test]
fn limit_holds_across_threads() {
    let info = info_of("tests/puzzles/pentomino_8x8_centre.txt");
    let mut opts = options("#", false, false, false);
    opts.threads = Some(2);
    opts.limit = Some(7);
    let run = run_in_process(&info, &opts);
    assert_eq!(run.summary.solutions, 7);
    assert_eq!(parse_listing(&run.output, info.dims).len(), 7);
    assert_eq!(run.summary.stopped, Some(runtime::search::Stop::Limit));
}

/// The standard output of the run `o` (`what`), which must have succeeded.
fn must(o: Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(&o)
}

/// The counts of an `-i` block that must not depend on how the search was spread.
fn counts(text: &str) -> Vec<(String, String)> {
    report(text)
        .entries()
        .iter()
        .filter(|e| {
            let k = e.key.as_str();
            k == "SOLUTIONS" || k == "UNIQUE" || k.starts_with("ATTEMPTS") || k.starts_with("FITS")
        })
        .map(|e| (e.key.clone(), e.value.clone()))
        .collect()
}

/// Four shards of a generated solver and of `fila solve`, merged by `fila merge`, give
/// the counts and statistics of one whole run (without the table of dead states, with
/// which the placements depend on the split), whatever the shards listed; a missing or
/// doubled shard is refused, and so is a merge that cannot be written.
#[test]
fn four_shards_merge_into_the_whole_count() {
    let dir = scratch("shards");
    let whole_exe = executable("pentomino_10x6");
    let whole = must(
        run(&whole_exe, &["-q", "-i", "--threads", "1", "--memo", "off"]),
        "10x6",
    );
    assert_eq!(number(&report(&whole), "SOLUTIONS"), 2339);
    let generic = ["solve", "tests/puzzles/pentomino_8x8_centre.txt"];
    let generic_whole = must(
        run(
            Path::new(fila()),
            &[&generic[..], &["-q", "-i", "--memo", "off"]].concat(),
        ),
        "8x8",
    );
    for (label, exe, pre, whole) in [
        ("generated", whole_exe.as_path(), &[][..], &whole),
        ("generic", Path::new(fila()), &generic[..], &generic_whole),
    ] {
        let mut files = Vec::new();
        for i in 1..=4 {
            let shard = format!("{i}/4");
            // Listings are skipped, in any layout: two of `fila solve`'s shards list theirs
            // as definitions.
            let listing: &[&str] = match (label, i) {
                ("generic", 2) => &["-f", "F"],
                ("generic", 4) => &["-f", "FC"],
                _ => &["-q"],
            };
            let text = must(
                run(
                    exe,
                    &[pre, listing, &["-i", "--memo", "off", "--shard", &shard]].concat(),
                ),
                &format!("{label} shard {shard}"),
            );
            assert_eq!(value_of(&report(&text), "SHARD"), shard);
            let file = dir.join(format!("{label}-{i}.txt"));
            std::fs::write(&file, text).unwrap();
            files.push(file.display().to_string());
        }
        let files: Vec<&str> = files.iter().map(String::as_str).collect();
        let merged = must(
            run(Path::new(fila()), &[&["merge"], &files[..]].concat()),
            "merge",
        );
        assert_eq!(counts(&merged), counts(whole), "{label}: merged\n{merged}");
        assert_eq!(number(&report(&merged), "SHARDS"), 4);
        let o = run_onto_full_disk(Path::new(fila()), &[&["merge"], &files[..]].concat());
        assert_eq!(o.status.code(), Some(2), "{label}: merged into a full disk");
        assert!(
            stderr(&o).contains("cannot write to standard output"),
            "{}",
            stderr(&o)
        );

        let o = run(Path::new(fila()), &["merge", files[0], files[1], files[3]]);
        assert_eq!(o.status.code(), Some(2), "{label}: a missing shard");
        assert!(stderr(&o).contains("shards missing: 3/4"), "{}", stderr(&o));
        let o = run(
            Path::new(fila()),
            &["merge", files[0], files[1], files[1], files[2], files[3]],
        );
        assert_eq!(o.status.code(), Some(2), "{label}: a doubled shard");

        // A shard stopped by --limit says so, and is refused; so is one cut short.
        let limited = must(
            run(
                exe,
                &[pre, &["-q", "-i", "--shard", "3/4", "--limit", "2"]].concat(),
            ),
            &format!("{label} limited shard"),
        );
        assert_eq!(value_of(&report(&limited), "STOPPED"), "limit");
        assert!(!whole.contains("STOPPED="), "{label}: a whole run stopped");
        let full = std::fs::read_to_string(files[2]).unwrap();
        let cut = &full[..full.len() - 3];
        let file = dir.join(format!("{label}-not-whole.txt"));
        let path = file.display().to_string();
        for (text, why) in [
            (limited.as_str(), "STOPPED=limit: this shard stopped"),
            (cut, "cut short"),
        ] {
            std::fs::write(&file, text).unwrap();
            let o = run(
                Path::new(fila()),
                &["merge", files[0], files[1], &path, files[3]],
            );
            assert_eq!(o.status.code(), Some(2), "{label}: {why}");
            assert!(stderr(&o).contains(why), "{}", stderr(&o));
        }
    }
}

/// The shards of a run with `-u` (unique solutions only) say so (`UNIQUE_ONLY=true`), and
/// merge into the run's count; mixed with shards of a run without it, they are refused.
#[test]
fn shards_of_unique_solutions_merge_only_with_their_own() {
    let dir = scratch("unique_shards");
    let soma = executable("soma");
    let shard = |i: usize, unique: bool| -> String {
        let mut args = vec!["-q", "-i", "-j1", "-r", ".", "--shard"];
        let shard = format!("{i}/2");
        args.push(&shard);
        if unique {
            args.push("-u");
        }
        let text = must(run(&soma, &args), &format!("shard {shard}"));
        assert_eq!(report(&text).get("UNIQUE_ONLY"), unique.then_some("true"));
        let file = dir.join(format!("{i}-{unique}.txt"));
        std::fs::write(&file, text).unwrap();
        file.display().to_string()
    };
    let (unique, plain) = (
        [shard(1, true), shard(2, true)],
        [shard(1, false), shard(2, false)],
    );
    let merged = must(
        run(Path::new(fila()), &["merge", &unique[0], &unique[1]]),
        "merge",
    );
    assert_eq!(number(&report(&merged), "SOLUTIONS"), 480);
    let merged = must(
        run(Path::new(fila()), &["merge", &plain[0], &plain[1]]),
        "merge",
    );
    assert_eq!(number(&report(&merged), "SOLUTIONS"), 11520);
    for (a, b) in [(&unique[0], &plain[1]), (&plain[0], &unique[1])] {
        let o = run(Path::new(fila()), &["merge", a, b]);
        assert_eq!(o.status.code(), Some(2), "{a} with {b}");
        assert!(stderr(&o).contains("-i keys differ"), "{}", stderr(&o));
    }
}

/// Polls `file` until its `DONE=` line names some finished subtrees, or `limit` passes.
fn wait_for_progress(file: &Path, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(text) = std::fs::read_to_string(file) {
            if text
                .lines()
                .any(|l| l.starts_with("DONE=") && l.len() > "DONE=".len())
            {
                return true;
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    false
}

/// Starts `fila ARGS --checkpoint-every 0 --checkpoint CHECKPOINT FILE` with its listing
/// to `stdout`, and waits until it has recorded a finished subtree.
fn start_checkpointed(args: &[&str], checkpoint: &Path, file: &str, stdout: Stdio) -> Child {
    let child = Command::new(fila())
        .args(args)
        .args(["--checkpoint-every", "0", "--checkpoint"])
        .arg(checkpoint)
        .arg(file)
        .current_dir(root())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    assert!(
        wait_for_progress(checkpoint, Duration::from_secs(60)),
        "no subtree was recorded"
    );
    child
}

/// A run stopped by SIGINT part-way ends as a whole: every listed solution whole, the
/// `-i` block saying STOPPED=signal with the count of what was listed, exit status 130,
/// and a checkpoint that resumes to the exact count; `fila merge` refuses its block.
#[test]
fn interrupted_run_ends_whole_and_resumes() {
    let dir = scratch("interrupt");
    let checkpoint = dir.join("run.checkpoint");
    let listing = dir.join("run.txt");
    let file = "puzzles/pentomino_10x6.txt";
    // Dancing links, which takes the 10x6 long enough to be stopped part-way.
    let args = ["solve", "--engine", "dlx", "-i", "--threads", "1"];
    let output = std::fs::File::create(&listing).unwrap();
    let mut child = start_checkpointed(&args, &checkpoint, file, output.into());
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "128 + SIGINT");
    let text = std::fs::read_to_string(&listing).unwrap();
    let stopped = report(&text);
    assert_eq!(value_of(&stopped, "STOPPED"), "signal", "{text}");
    let listed = parse_listing(&text, [10, 6, 1]);
    let solutions = number(&stopped, "SOLUTIONS");
    assert_eq!(listed.len() as u64, solutions);
    assert!(solutions < 2339, "stopped part-way");
    let o = run(
        Path::new(fila()),
        &["merge", &listing.display().to_string()],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("STOPPED=signal"), "{}", stderr(&o));

    let resumed = must(
        run(
            Path::new(fila()),
            &[
                &args[..],
                &["-q", "--resume", &checkpoint.display().to_string(), file],
            ]
            .concat(),
        ),
        "resume",
    );
    assert_eq!(number(&report(&resumed), "SOLUTIONS"), 2339, "{resumed}");
    assert!(!resumed.contains("STOPPED="));
}

/// A run killed with SIGKILL part-way and resumed from its checkpoint gives exactly the
/// counts and statistics of an uninterrupted run.
#[test]
fn killed_run_resumes_to_the_exact_count() {
    let dir = scratch("kill");
    let checkpoint = dir.join("run.checkpoint");
    let file = "puzzles/pentomino_10x6.txt";
    let whole = must(
        run(
            Path::new(fila()),
            &["solve", "-q", "-i", "--threads", "1", "--memo", "off", file],
        ),
        "whole",
    );
    // Without the table of dead states, so that the placements add up as they do in one
    // run.
    let args = ["solve", "-q", "-i", "--threads", "1", "--memo", "off"];
    let mut child = start_checkpointed(&args, &checkpoint, file, Stdio::null());
    std::thread::sleep(Duration::from_millis(100));
    child.kill().unwrap(); // SIGKILL
    let status = child.wait().unwrap();
    assert!(!status.success(), "the run was killed before it finished");
    let recorded = std::fs::read_to_string(&checkpoint).unwrap();
    // The checkpoint's own line (a checkpoint is not an -i report).
    let solutions: u64 = (recorded.lines())
        .find_map(|l| l.strip_prefix("SOLUTIONS="))
        .and_then(|n| n.parse().ok())
        .expect("the checkpoint has SOLUTIONS=");
    assert!(solutions < 2339, "killed part-way:\n{recorded}");

    let resumed = must(
        run(
            Path::new(fila()),
            &[
                "solve",
                "-q",
                "-i",
                "--threads",
                "2",
                "--memo",
                "off",
                "--resume",
                &checkpoint.display().to_string(),
                file,
            ],
        ),
        "resume",
    );
    assert_eq!(counts(&resumed), counts(&whole), "resumed:\n{resumed}");
    assert!(number(&report(&resumed), "RESUMED_SUBTREES") > 0);
    // The finished record resumes to the same counts, searching nothing.
    let again = must(
        run(
            Path::new(fila()),
            &[
                "solve",
                "-q",
                "-i",
                "--memo",
                "off",
                "--resume",
                &checkpoint.display().to_string(),
                file,
            ],
        ),
        "resume a finished run",
    );
    assert_eq!(counts(&again), counts(&whole));
}

/// A generated solver stopped by --limit leaves a checkpoint that resumes to the exact
/// count, listing the rest of the solutions numbered on from where it stopped.
#[test]
fn generated_solver_resumes_from_a_stopped_run() {
    let dir = scratch("limit");
    let checkpoint = dir.join("soma.checkpoint").display().to_string();
    let exe = executable("soma");
    let first = must(
        run(&exe, &["--limit", "100", "--checkpoint", &checkpoint]),
        "first part",
    );
    let first = parse_listing(&first, [3, 3, 3]);
    assert_eq!(first.len(), 100);
    let rest = must(run(&exe, &["-i", "--resume", &checkpoint]), "the rest");
    assert_eq!(number(&report(&rest), "SOLUTIONS"), 480);
    // The rest is numbered from after the solutions of the finished subtrees.
    let numbers: Vec<u64> = rest
        .lines()
        .filter_map(|l| l.strip_prefix("# --- SOLUTION "))
        .map(|l| l.trim_end_matches(" ---").parse().unwrap())
        .collect();
    let recorded: u64 = numbers.first().copied().unwrap() - 1;
    assert!(recorded <= 100);
    assert_eq!(numbers, (recorded + 1..=480).collect::<Vec<_>>());
}

/// A checkpoint of another run, or a damaged one, is refused with exit status 2 and a
/// message naming the file; nothing is searched.
#[test]
fn foreign_or_damaged_checkpoints_are_refused() {
    let dir = scratch("foreign");
    let checkpoint = dir.join("c").display().to_string();
    let file = "puzzles/soma.txt";
    must(
        run_fila(&["solve", "-q", "--checkpoint", &checkpoint, file], None),
        "record",
    );
    let o = run_fila(
        &["solve", "-q", "-r", ".", "--resume", &checkpoint, file],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the checkpoint is of another run"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
    let text = std::fs::read_to_string(&checkpoint).unwrap();
    std::fs::write(&checkpoint, text.replace("DONE=", "DONE=x")).unwrap();
    let o = run_fila(&["solve", "-q", "--resume", &checkpoint, file], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(&format!("{checkpoint}:")),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("malformed DONE= line"),
        "{}",
        stderr(&o)
    );
    let o = run_fila(
        &[
            "solve",
            "-q",
            "--resume",
            &dir.join("none").display().to_string(),
            file,
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    let o = run_fila(&["solve", "--checkpoint", &checkpoint, file, file], None);
    assert_eq!(o.status.code(), Some(2), "one checkpoint for two puzzles");
    // A checkpoint cut short (written whole, it ends in a newline) is said to be.
    let whole = std::fs::read_to_string(&checkpoint).unwrap();
    std::fs::write(&checkpoint, &whole[..whole.find("ENGINE=").unwrap() + 10]).unwrap();
    let o = run_fila(&["solve", "-q", "--resume", &checkpoint, file], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(":3: the checkpoint ends in the middle of a line: it was cut short"),
        "{}",
        stderr(&o)
    );
    // A run with a goal (-g) is told from one without by its goal.
    let goal = dir.join("goal").display().to_string();
    let with_goal = [
        "solve",
        "-q",
        "-g",
        "3",
        "-r",
        ".",
        "--checkpoint",
        &goal,
        file,
    ];
    must(run_fila(&with_goal, None), "a run with a goal");
    for (args, said) in [
        (&["-r", "."][..], "(GOAL=3, this run has GOAL=0)"),
        (&["-r", ".", "-g", "2"][..], "(GOAL=3, this run has GOAL=2)"),
    ] {
        let resume = [&["solve", "-q", "--resume", &goal, file][..], args].concat();
        let o = run_fila(&resume, None);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(said), "{args:?}: {}", stderr(&o));
    }
    // Checkpoints once wrote the backtracks as `None` and `Some(2)`, where they are now
    // written as -i writes them (`off`, `2`), and had no GOAL= line where there was no
    // goal: those still resume, and a run of other backtracks is told of them in the
    // spelling of -i.
    let old = dir.join("old").display().to_string();
    let stop = ["-v", "2", "-p", "--limit", "100", "--checkpoint", &old];
    must(
        run_fila(&[&["solve", "-q"], &stop[..], &[file]].concat(), None),
        "stopped run",
    );
    let text = std::fs::read_to_string(&old).unwrap();
    for key in ["VOLUME_BACKTRACK", "PARITY_BACKTRACK"] {
        assert!(text.contains(&format!("\n{key}=2\n")), "{text}");
    }
    assert!(text.contains("\nGOAL=0\n"), "{text}");
    let before = (text.replace("_BACKTRACK=2\n", "_BACKTRACK=Some(2)\n")).replace("GOAL=0\n", "");
    std::fs::write(&old, before).unwrap();
    let o = run_fila(&["solve", "-q", "-v", "3", "--resume", &old, file], None);
    assert_eq!(o.status.code(), Some(2));
    let said = stderr(&o);
    let expected = "(VOLUME_BACKTRACK=2, this run has VOLUME_BACKTRACK=3)";
    assert!(said.contains(expected), "{said}");
    let resume = ["solve", "-q", "-i", "-v", "2", "-p", "--resume", &old, file];
    let rest = must(run_fila(&resume, None), "resumed");
    assert_eq!(number(&report(&rest), "SOLUTIONS"), 480);
}

/// A checkpoint that could never be written (its directory missing) is refused before
/// the search, with exit status 2 and a message naming it, by `fila solve` (for
/// `--checkpoint`, and for `--resume`'s file, where the run keeps recording) and by a
/// generated solver; the check leaves no file behind where the record can be written.
#[test]
fn a_checkpoint_that_cannot_be_written_is_refused_before_the_search() {
    let dir = scratch("unwritable");
    let missing = dir.join("missing").join("c").display().to_string();
    let refused = |o: Output, what: &str| {
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        let message = format!("cannot write the checkpoint {missing}");
        assert!(stderr(&o).contains(&message), "{what}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{what}: {}", stdout(&o));
    };
    let file = "puzzles/soma.txt";
    refused(
        run_fila(&["solve", "--checkpoint", &missing, file], None),
        "fila solve --checkpoint",
    );
    refused(
        run(&executable("soma"), &["-i", "--checkpoint", &missing]),
        "generated --checkpoint",
    );
    let checkpoint = dir.join("c").display().to_string();
    must(
        run_fila(&["solve", "-q", "--checkpoint", &checkpoint, file], None),
        "record",
    );
    let names = |d: &Path| -> Vec<String> {
        files(d)
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(&dir), ["c"]);
    // `--resume`'s file, where the run goes on recording, cannot be replaced (its
    // `.tmp` is a directory, which stops root too): refused, unless --checkpoint names
    // another file.
    std::fs::create_dir(dir.join("c.tmp")).unwrap();
    let o = run_fila(&["solve", "-q", "--resume", &checkpoint, file], None);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--checkpoint"), "{}", stderr(&o));
    let other = dir.join("d").display().to_string();
    let o = run_fila(
        &[
            "solve",
            "-q",
            "-i",
            "--resume",
            &checkpoint,
            "--checkpoint",
            &other,
            file,
        ],
        None,
    );
    assert_eq!(number(&report(&must(o, "resumed")), "SOLUTIONS"), 480);
    assert_eq!(names(&dir), ["c", "c.tmp", "d"]);
    // A directory or a named pipe where the checkpoint would go is not a file the run
    // may rename over (nor would a device be: /dev/null made a file): refused, and left
    // as it was.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for (target, what) in [(dir.join("c.tmp"), "a directory"), (fifo, "a named pipe")] {
        let o = run(
            &executable("soma"),
            &["-q", "--checkpoint", &target.display().to_string()],
        );
        assert_eq!(o.status.code(), Some(2), "{what}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("is not a regular file"),
            "{what}: {}",
            stderr(&o)
        );
        assert!(!target.is_file(), "{what}");
    }
    assert!(dir.join("c.tmp").is_dir());
    // Nor is a file that holds something else than a checkpoint replaced: refused, and
    // left as it was (an empty one is taken).
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "not a checkpoint\n").unwrap();
    let o = run(
        &executable("soma"),
        &["-q", "--checkpoint", &notes.display().to_string()],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("holds no checkpoint"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&notes).unwrap(),
        "not a checkpoint\n"
    );
    std::fs::write(&notes, "").unwrap();
    let o = run(
        &executable("soma"),
        &["-q", "--checkpoint", &notes.display().to_string()],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&notes)
        .unwrap()
        .starts_with("# fila checkpoint"));
}

/// With --progress and stderr not a terminal, progress comes as plain lines with an ETA;
/// stdout is what it would be without.
#[test]
fn progress_lines_when_asked() {
    let exe = executable("pentomino_10x6");
    let plain = run(&exe, &["-q", "-i", "--threads", "2", "--memo", "off"]);
    let o = run(
        &exe,
        &["-q", "-i", "--threads", "2", "--memo", "off", "--progress"],
    );
    assert!(o.status.success());
    assert_eq!(counts(&stdout(&o)), counts(&stdout(&plain)));
    let lines: Vec<String> = stderr(&o).lines().map(str::to_string).collect();
    assert!(lines.len() >= 5, "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("progress: ")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("left")), "{lines:?}");
    // Without --progress, and with stderr not a terminal, nothing is shown.
    assert!(stderr(&plain).is_empty());
}

/// On a terminal (`script` gives the run one) the bar is shown, without -q, and
/// `--progress=false` turns it off.
#[test]
fn progress_on_a_terminal_unless_turned_off() {
    let soma = executable("soma");
    let on_terminal = |args: &str| {
        let command = format!("{} {args}", soma.display());
        let o = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .current_dir(root())
            .output()
            .expect("script(1) runs (util-linux)");
        assert!(o.status.success(), "{args}: {}", stderr(&o));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let bar = "of the estimated work";
    let shown = on_terminal("-j1 -i");
    assert!(shown.contains(bar), "{shown}");
    let off = on_terminal("-j1 -i --progress=false");
    assert!(!off.contains(bar), "{off}");
    assert!(off.contains("SOLUTIONS=480"), "{off}");
}

/// The fenced `sh` block of the README that contains `marker`, unindented.
fn readme_block(marker: &str) -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in readme.lines() {
        let t = line.trim_start();
        match (&mut current, t.starts_with("```")) {
            (None, true) if t.starts_with("```sh") => current = Some(Vec::new()),
            (Some(lines), true) => {
                blocks.push(lines.join("\n"));
                current = None;
            }
            (Some(lines), false) => lines.push(t.to_string()),
            _ => {}
        }
    }
    blocks
        .into_iter()
        .find(|b| b.contains(marker))
        .unwrap_or_else(|| panic!("README.md has no sh block with {marker}"))
}

fn sh(script: &str, dir: &Path, env: &[(&str, String)]) -> Output {
    Command::new("sh")
        .args(["-c", script])
        .current_dir(dir)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap()
}

/// The README's GNU parallel recipe, run as written (with this build's executables):
/// eight shards of the Tetris Cube merged into 9839. It needs Debian's `parallel`: where
/// that is missing the test says so and passes, unless `FILA_REQUIRE_PARALLEL=1` (which
/// `.ci/run` sets, after installing it) makes that a failure.
#[test]
fn readme_gnu_parallel_recipe() {
    let found = Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        assert!(
            std::env::var("FILA_REQUIRE_PARALLEL").is_err(),
            "GNU parallel is required here: apt-get install parallel"
        );
        eprintln!("note: GNU parallel is not installed; the README's recipe is not run");
        return;
    }
    let dir = scratch("gnu-parallel");
    let exe = executable("tetriscube").display().to_string();
    let fila = fila().to_string();
    let script = readme_block("parallel --will-cite")
        .replace("target/release/tetriscube", &exe)
        .replace("fila merge", &format!("{fila} merge"));
    let o = sh(&script, &dir, &[]);
    assert!(
        o.status.success(),
        "the recipe fails (is GNU parallel installed? `apt-get install parallel`):\n{}",
        stderr(&o)
    );
    let merged = report(&stdout(&o));
    assert_eq!(number(&merged, "SOLUTIONS"), 9839);
    assert_eq!(number(&merged, "SHARDS"), 8);
}

/// The README's Slurm script, run as each array task would run it (task 1 twice, as a
/// requeued task would, resuming from its checkpoint), then merged.
#[test]
fn readme_slurm_script() {
    let dir = scratch("slurm");
    let script = readme_block("#SBATCH")
        .replace("fila solve", &format!("{} solve", fila()))
        .replace(
            "puzzle.txt",
            &root().join("puzzles/soma.txt").display().to_string(),
        );
    for task in std::iter::once(1).chain(1..=100) {
        let env = [
            ("SLURM_ARRAY_TASK_ID", task.to_string()),
            ("SLURM_CPUS_PER_TASK", "1".to_string()),
        ];
        let o = sh(&script, &dir, &env);
        assert!(o.status.success(), "task {task}: {}", stderr(&o));
    }
    let again = std::fs::read_to_string(dir.join("shard-1.txt")).unwrap();
    assert!(report(&again).get("RESUMED_SUBTREES").is_some(), "{again}");
    let files: Vec<String> = (1..=100)
        .map(|i| dir.join(format!("shard-{i}.txt")).display().to_string())
        .collect();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = must(
        run(Path::new(fila()), &[&["merge"], &files[..]].concat()),
        "merge",
    );
    assert_eq!(number(&report(&merged), "SOLUTIONS"), 480);
}
