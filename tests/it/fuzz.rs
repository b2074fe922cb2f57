//! The fuzz targets' inputs on stable Rust: every seed of `fuzz/corpus/` and every input
//! a fuzzer found failing (`fuzz/regressions/`, kept once fixed) through the same
//! function its target calls under libFuzzer (`fuzz/src/lib.rs`), so that a fixed crash
//! stays fixed without nightly Rust or cargo-fuzz.

use std::path::{Path, PathBuf};

use crate::common::files;

#[path = "../../fuzz/src/lib.rs"]
mod targets;

/// What a fuzz target does with an input.
type Target = fn(&[u8]);

/// The fuzz targets, by name, with what each does with an input.
const TARGETS: [(&str, Target); 5] = [
    ("definition", targets::definition),
    ("checkpoint", targets::checkpoint),
    ("report", targets::report),
    ("listing", targets::listing),
    ("engines", targets::engines),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// Directories of seeds a target is run with beside its own `corpus/TARGET`, as the
/// command of `fuzz/README.md` names them: every definition file of the repository is a
/// seed of `definition`.
fn more_seeds(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    match target {
        "definition" => vec![root.join("puzzles"), root.join("tests/puzzles")],
        _ => Vec::new(),
    }
}

#[test]
fn every_seed_and_regression_passes_its_target() {
    for (name, target) in TARGETS {
        let mut seeds = files(&fuzz_dir().join("corpus").join(name));
        assert!(!seeds.is_empty(), "no seeds for the fuzz target {name}");
        for dir in more_seeds(name) {
            seeds.extend(files(&dir));
        }
        let regressions = files(&fuzz_dir().join("regressions").join(name));
        for file in seeds.iter().chain(&regressions) {
            let data = std::fs::read(file).expect("a seed");
            let caught = std::panic::catch_unwind(|| target(&data));
            assert!(caught.is_ok(), "{name} fails on {}", file.display());
        }
    }
}

/// Every target is a binary of the fuzz crate, and the README's command runs it with
/// its seeds.
#[test]
fn every_target_is_built_by_cargo_fuzz() {
    let readme = std::fs::read_to_string(fuzz_dir().join("README.md")).expect("fuzz/README.md");
    for dir in more_seeds("definition") {
        let dir = dir.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap();
        assert!(
            readme.contains(&format!(" ../{}", dir.display())),
            "fuzz/README.md's command does not name {}",
            dir.display()
        );
    }
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for (name, _) in TARGETS {
        let bin = format!("name = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"");
        assert!(
            manifest.contains(&bin),
            "fuzz/Cargo.toml has no target {name}"
        );
        let source = std::fs::read_to_string(fuzz_dir().join(format!("fuzz_targets/{name}.rs")))
            .expect("the target's source");
        assert!(source.contains(&format!("fila_fuzz::{name}(data)")));
    }
}

/// The checkpoint seeds are checkpoints of the runs the target reads them for (a stale
/// one would be refused at its identity, and the fuzzer would never get past it).
/// `FILA_BLESS=1` writes them anew.
#[test]
fn the_checkpoint_seeds_are_current() {
    let dir = fuzz_dir().join("corpus").join("checkpoint");
    for which in 0..3u8 {
        let want = targets::checkpoint_seed(which);
        let path = dir.join(format!("seed-{which}"));
        if std::env::var_os("FILA_BLESS").is_some() {
            std::fs::write(&path, &want).expect("write a seed");
        }
        let have = std::fs::read(&path).unwrap_or_default();
        assert!(
            have == want,
            "{} is stale: FILA_BLESS=1 writes it",
            path.display()
        );
    }
}
