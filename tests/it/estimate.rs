//! `--estimate` and `--f-from`: the short measurement `cargo xtask gen --tune` chooses
//! settings by, and the run-time switch between the E and F heuristics.

use crate::common::*;

/// `--estimate`'s figures beside those of the run itself.
fn estimate_and_count(exe: &std::path::Path, args: &[&str], sample: &str) -> (f64, f64, u64, u64) {
    let estimate_arg = format!("--estimate={sample}");
    let mut with = args.to_vec();
    with.push(&estimate_arg);
    let e = run(exe, &with);
    assert!(e.status.success(), "{}", stderr(&e));
    let e = report(&stdout(&e));
    // The estimate is of the search without the table of dead states.
    let mut counted = args.to_vec();
    counted.extend(["-q", "-i", "--memo", "off"]);
    let c = run(exe, &counted);
    assert!(c.status.success(), "{}", stderr(&c));
    let c = report(&stdout(&c));
    (
        e.estimated_fits().unwrap(),
        e.estimated_solutions().unwrap(),
        c.fits_total().unwrap(),
        c.solutions().unwrap(),
    )
}

/// With every subtree in the sample, the estimate is the count.
#[test]
fn an_estimate_over_every_subtree_is_exact() {
    let fila = std::path::PathBuf::from(fila());
    let cases: Vec<(std::path::PathBuf, Vec<&str>)> = vec![
        (fila.clone(), vec!["solve", "puzzles/soma.txt"]),
        (fila.clone(), vec!["solve", "-r", ".", "puzzles/soma.txt"]),
        (
            fila.clone(),
            vec!["solve", "tests/puzzles/pentomino_8x8_centre.txt"],
        ),
        (
            fila,
            vec![
                "solve",
                "-V",
                "-v",
                "2",
                "-p",
                "tests/puzzles/one_sided_tetromino_7x4.txt",
            ],
        ),
        (executable("soma"), vec![]),
        (executable("soma"), vec!["--f-from", "0", "-r", "."]),
        (executable("pentomino_10x6"), vec![]),
    ];
    for (exe, args) in cases {
        let (fits, solutions, counted_fits, counted_solutions) =
            estimate_and_count(&exe, &args, "1000000");
        assert_eq!(
            (fits, solutions),
            (counted_fits as f64, counted_solutions as f64),
            "{} {args:?}",
            exe.display()
        );
    }
}

/// Knuth's walks through all the subtrees and a sample of 32 come close: within 5 % on
/// the generated 10x6 (+0.5 %) and on the 8x8 with its centre removed through dancing
/// links (+2.4 %). The walks and the sample are fixed, so the figures are the same on
/// every run; a broken estimator is off by far more.
#[test]
fn a_sampled_estimate_comes_close() {
    for (exe, args, bound) in [
        (executable("pentomino_10x6"), vec![], 0.05),
        // Dancing links' search: the FILA engine's tree of this puzzle has a few subtrees
        // far larger than the rest. When the sample's counts were scaled by the walks'
        // sizes, the estimates swung with the sample (32 subtrees +31 %, 64 +85 %, 128
        // -2 %, 256 +27 %); the walks' own total is within 2.5 % for each.
        (
            std::path::PathBuf::from(fila()),
            vec![
                "solve",
                "--engine",
                "dlx",
                "tests/puzzles/pentomino_8x8_centre.txt",
            ],
            0.05,
        ),
    ] {
        let (fits, _, counted, _) = estimate_and_count(&exe, &args, "32");
        let error = (fits - counted as f64).abs() / counted as f64;
        assert!(
            error < bound,
            "{} {args:?}: estimated {fits} fits, counted {counted}",
            exe.display()
        );
    }
}

#[test]
fn an_estimate_prints_its_figures_and_lists_nothing() {
    let o = run(&executable("pentomino_10x6"), &["--estimate"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(!text.contains("# --- SOLUTION"), "{text}");
    let kv = report(&text);
    for key in [
        "SUBTREES",
        "ESTIMATE_SAMPLE",
        "ESTIMATED_FITS",
        "ESTIMATED_SOLUTIONS",
        "ESTIMATED_SECONDS",
        "F_FROM",
    ] {
        assert!(kv.get(key).is_some(), "no {key} in:\n{text}");
    }
    assert_eq!(kv.count("ESTIMATE_SAMPLE"), Ok(32));
    // The generated solver keeps a table of dead states: a short run measures it.
    for key in [
        "RUN_THREADS",
        "RUN_SECONDS",
        "RUN_FRACTION",
        "ESTIMATED_RUN_FITS",
        "ESTIMATED_RUN_SOLUTIONS",
        "ESTIMATED_RUN_SECONDS",
    ] {
        assert!(kv.get(key).is_some(), "no {key} in:\n{text}");
    }
}

/// A short run that finishes every subtree counts what the run itself counts, on the
/// same threads with the same split (a run with `--progress`): the table of dead states
/// included, whose savings the walks do not see.
#[test]
fn a_short_run_that_finishes_counts_as_the_run() {
    let exe = executable("pentomino_10x6");
    for threads in ["1", "2"] {
        // (`-q` for both: a run that lists its solutions keeps no counts in its table.)
        let o = run(
            &exe,
            &[
                "-q",
                "--estimate",
                "--estimate-run",
                "1000",
                "--threads",
                threads,
            ],
        );
        assert!(o.status.success(), "{}", stderr(&o));
        let e = report(&stdout(&o));
        let c = run(&exe, &["-q", "-i", "--progress", "--threads", threads]);
        assert!(c.status.success(), "{}", stderr(&c));
        let c = report(&stdout(&c));
        assert_eq!(e.get("RUN_FRACTION"), Some("1.000000"), "{threads} threads");
        assert_eq!(e.get("RUN_THREADS"), Some(threads));
        assert_eq!(
            e.get("ESTIMATED_RUN_SOLUTIONS"),
            Some(c.solutions().unwrap().to_string().as_str())
        );
        if threads == "1" {
            // (On two threads the table's savings depend on which thread took what.)
            assert_eq!(
                e.get("ESTIMATED_RUN_FITS"),
                Some(c.fits_total().unwrap().to_string().as_str())
            );
        }
    }
}

/// A short run only where a run keeps a table of dead states and one is asked for.
#[test]
fn no_short_run_without_a_table_or_when_told() {
    for args in [
        vec!["--estimate", "--estimate-run", "0"],
        vec!["--estimate", "--memo", "off"],
        vec!["--estimate=0"],
    ] {
        let o = run(&executable("pentomino_10x6"), &args);
        assert!(o.status.success(), "{}", stderr(&o));
        let kv = report(&stdout(&o));
        assert!(kv.get("RUN_SECONDS").is_none(), "{args:?}");
        assert!(kv.get("ESTIMATED_SECONDS").is_some() == (args[0] != "--estimate=0"));
    }
    let o = run(
        &std::path::PathBuf::from(fila()),
        &["solve", "--engine", "dlx", "--estimate", "puzzles/soma.txt"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(report(&stdout(&o)).get("RUN_SECONDS").is_none());
}

/// `--estimate` measures the whole search, and is refused with the options it would not
/// honour: a limit, unique solutions, a shard, a checkpoint, pictures.
#[test]
fn an_estimate_runs_alone() {
    for extra in [
        ["--shard", "1/2"],
        ["--checkpoint", "/dev/null"],
        ["--limit", "3"],
        ["-u", "-r."],
        ["--svg", "never.svg"],
    ] {
        let mut args = vec!["--estimate"];
        args.extend(extra);
        let o = run(&executable("soma"), &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("--estimate runs on its own"),
            "{}",
            stderr(&o)
        );
    }
}

/// Moving the switch from E to F changes the search, never what it finds.
#[test]
fn the_switch_point_changes_the_search_not_the_solutions() {
    let soma = executable("soma");
    let listed = |args: &[&str]| {
        let o = run(&soma, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let text = stdout(&o);
        let kv = report(&text);
        let mut blocks: Vec<String> = text
            .split("# --- SOLUTION")
            .skip(1)
            .map(|b| {
                // The rows of the layout: not the -i lines after the last solution.
                b.lines()
                    .skip(1)
                    .filter(|l| !l.trim().is_empty() && !l.starts_with('#') && !l.contains('='))
                    .collect::<Vec<_>>()
                    .join("\n")
            })
            .collect();
        blocks.sort();
        let f_from = value_of(&kv, "F_FROM").to_string();
        (blocks, kv.fits_total().unwrap(), f_from)
    };
    let (solutions, _, default) = listed(&["-i", "-r", "."]);
    assert_eq!(solutions.len(), 11520);
    let mut fits = std::collections::BTreeSet::new();
    for f_from in 0..=8 {
        let n = f_from.to_string();
        let (here, placed, shown) = listed(&["-i", "-r", ".", "--f-from", &n]);
        assert_eq!(here, solutions, "--f-from {f_from}");
        assert_eq!(shown, f_from.min(7).to_string());
        fits.insert(placed);
    }
    assert!(fits.len() > 2, "the switch made no difference: {fits:?}");
    // The default is the switch recorded when the solver was generated.
    let code = std::fs::read_to_string(root().join("generated/soma.rs")).unwrap();
    let recorded = generator::stamp::options(&code)
        .and_then(generator::Config::from_options)
        .and_then(|c| c.f_from)
        .expect("the tuned switch is in the stamp");
    assert_eq!(default, recorded.to_string());
}

#[test]
fn the_switch_needs_a_generated_solver_with_the_e_stage() {
    let o = run(&executable("pentomino_10x6"), &["--f-from", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("without the E stage"), "{}", stderr(&o));
    let o = run_fila(
        &[
            "solve",
            "--engine",
            "dlx",
            "--f-from",
            "3",
            "puzzles/soma.txt",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--f-from applies to the FILA solvers"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).is_empty());
}
