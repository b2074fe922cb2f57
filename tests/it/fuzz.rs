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

#[test]
fn every_seed_and_regression_passes_its_target() {
    for (name, target) in TARGETS {
        let seeds = files(&fuzz_dir().join("corpus").join(name));
        assert!(!seeds.is_empty(), "no seeds for the fuzz target {name}");
        let regressions = files(&fuzz_dir().join("regressions").join(name));
        for file in seeds.iter().chain(&regressions) {
            let data = std::fs::read(file).expect("a seed");
            let caught = std::panic::catch_unwind(|| target(&data));
            assert!(caught.is_ok(), "{name} fails on {}", file.display());
        }
    }
}

/// Every target is a binary of the fuzz crate.
#[test]
fn every_target_is_built_by_cargo_fuzz() {
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
