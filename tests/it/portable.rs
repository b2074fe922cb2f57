//! One executable for every x86-64 processor: the FILA kernels are compiled once per
//! instruction set (`runtime::fila::isa`) and the fastest the processor has is chosen
//! when a solver starts. Here every copy this machine runs gives the same counts and
//! statistics, `FILA_KERNELS` chooses among them, and the executables this build made
//! run under emulated processors without AVX-512 and without AVX2 (Debian's
//! qemu-user), choosing the kernels those have.

use std::process::{Command, Output};

use crate::common::{executable, fila, number, report, root, stderr, stdout, value_of};

use runtime::fila::Kernels;

/// Runs `program ARGS` from the workspace root with `FILA_KERNELS` set to `kernels`
/// (unset for `None`), under `qemu-x86_64 -cpu CPU` when `cpu` is given.
fn run(program: &str, args: &[&str], kernels: Option<&str>, cpu: Option<&str>) -> Output {
    let mut command = match cpu {
        Some(cpu) => {
            let mut c = Command::new("qemu-x86_64");
            c.args(["-cpu", cpu, program]);
            c
        }
        None => Command::new(program),
    };
    command.args(args).current_dir(root());
    match kernels {
        Some(k) => command.env("FILA_KERNELS", k),
        None => command.env_remove("FILA_KERNELS"),
    };
    command.output().expect("the solver runs")
}

/// The counts of a successful `-i` run, with the kernels it reports.
fn counts(output: &Output, what: &str) -> (String, [u64; 3]) {
    assert!(output.status.success(), "{what}: {}", stderr(output));
    let r = report(&stdout(output));
    (
        value_of(&r, "KERNELS").to_string(),
        [
            number(&r, "SOLUTIONS"),
            number(&r, "ATTEMPTS_TOTAL"),
            number(&r, "FITS_TOTAL"),
        ],
    )
}

/// A solver the tests run: the program, its arguments, its count of solutions, and
/// whether its word is wider than 64 bits (then its AVX-512 kernels are the AVX2 ones).
type Solver = (String, Vec<&'static str>, u64, bool);

/// A generated solver with 64-bit words (eight-lane vectors), one with 128-bit words (one
/// word a block, `pext` per limb), and the run-time engine; on one thread, so that the
/// placements, which the table of dead states makes depend on the order of the subtrees,
/// compare.
fn solvers() -> Vec<Solver> {
    let generated = |name: &str| executable(name).to_string_lossy().into_owned();
    vec![
        (
            generated("pentomino_10x6"),
            vec!["-q", "-i", "-j", "1"],
            2339,
            false,
        ),
        (
            generated("one_sided_30x3"),
            vec!["-q", "-i", "-j", "1"],
            46,
            true,
        ),
        (
            fila().to_string(),
            vec!["solve", "-q", "-i", "-j", "1", "puzzles/pentomino_10x6.txt"],
            2339,
            false,
        ),
    ]
}

/// The kernels a solver reports running when `k` is chosen.
fn reported(k: Kernels, wide: bool) -> &'static str {
    if wide && k == Kernels::Avx512 {
        Kernels::Avx2.name()
    } else {
        k.name()
    }
}

#[test]
fn every_copy_of_the_kernels_counts_alike() {
    for (program, args, solutions, wide) in solvers() {
        let (best, want) = counts(&run(&program, &args, None, None), &program);
        assert_eq!(want[0], solutions, "{program}");
        // The default is the fastest copy this processor runs.
        assert_eq!(best, reported(Kernels::best(), wide), "{program}");
        for k in Kernels::ALL {
            let output = run(&program, &args, Some(k.name()), None);
            if k.supported() {
                let (name, got) = counts(&output, &format!("{program} with {}", k.name()));
                assert_eq!((name.as_str(), got), (reported(k, wide), want), "{program}");
            } else {
                assert_eq!(output.status.code(), Some(2), "{program}");
                assert!(stderr(&output).contains("this processor cannot run them"));
                assert!(stdout(&output).is_empty());
            }
        }
        let output = run(&program, &args, Some("sse9"), None);
        assert_eq!(output.status.code(), Some(2), "{program}");
        assert!(
            stderr(&output).contains("FILA_KERNELS=sse9: no such kernels"),
            "{}",
            stderr(&output)
        );
    }
}

/// `fila solve -r #` chooses the Tetris Cube's filter piece by Knuth's walks
/// (`puzzle::solve`), and a shard or a resumed run must choose it as its run did, on
/// whatever processor it runs: every copy of the kernels walks the same tree, children in
/// the same order, so the estimates, and the piece, are the same in every digit `-i` prints.
#[test]
fn every_copy_of_the_kernels_chooses_the_same_filter_piece() {
    let args = [
        "solve",
        "-q",
        "-i",
        "-j",
        "1",
        "--limit",
        "1",
        "puzzles/tetriscube.txt",
    ];
    let chosen = |k: Kernels| {
        let output = run(fila(), &args, Some(k.name()), None);
        assert!(output.status.success(), "{}: {}", k.name(), stderr(&output));
        let r = report(&stdout(&output));
        assert_eq!(value_of(&r, "KERNELS"), k.name());
        (
            value_of(&r, "REDUNDANCY_FILTER").to_string(),
            value_of(&r, "ENGINE").to_string(),
        )
    };
    let portable = chosen(Kernels::Portable);
    assert!(portable.1.contains("Knuth's walks"), "{}", portable.1);
    for k in Kernels::ALL.into_iter().filter(|k| k.supported()) {
        assert_eq!(chosen(k), portable, "{}", k.name());
    }
}

/// Under emulated processors: a Haswell (AVX2, BMI2, no AVX-512), a Nehalem (SSE4.2 and
/// POPCNT, no AVX) and QEMU's own baseline x86-64. Skipped where qemu-user is missing,
/// unless `FILA_REQUIRE_QEMU` is set (as `.ci/run` does, after installing it).
#[cfg(target_arch = "x86_64")]
#[test]
fn the_executables_run_under_older_processors() {
    let has_qemu = Command::new("qemu-x86_64")
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_qemu {
        assert!(
            std::env::var_os("FILA_REQUIRE_QEMU").is_none(),
            "FILA_REQUIRE_QEMU is set but qemu-x86_64 is missing (apt-get install qemu-user)"
        );
        eprintln!("qemu-x86_64 is missing: the emulated processors are not tried");
        return;
    }
    for (program, args, solutions, _) in solvers() {
        let (_, native) = counts(&run(&program, &args, None, None), &program);
        for (cpu, kernels) in [
            ("Haswell", "avx2"),
            ("Nehalem", "portable"),
            ("qemu64", "portable"),
        ] {
            let what = format!("{program} on a {cpu}");
            let (name, got) = counts(&run(&program, &args, None, Some(cpu)), &what);
            assert_eq!((name.as_str(), got), (kernels, native), "{what}");
            assert_eq!(got[0], solutions);
        }
        // Kernels the emulated processor lacks are refused, not run into an illegal
        // instruction.
        let output = run(&program, &args, Some("avx512"), Some("Haswell"));
        assert_eq!(output.status.code(), Some(2), "{program}");
        assert!(stderr(&output).contains("FILA_KERNELS=avx512: this processor cannot run them"));
    }
}
