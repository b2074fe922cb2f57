//! Refuses to build from stale generated code: every puzzle in `puzzles/` must have a
//! generated solver in `generated/` whose stamp matches the puzzle file and this version
//! of the generator, and an executable stub in `src/bin/`. `cargo xtask gen` makes both.

#[path = "generator/src/stamp.rs"]
#[allow(dead_code)]
mod stamp;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let version = env!("CARGO_PKG_VERSION");
    println!("cargo:rerun-if-changed=puzzles");
    println!("cargo:rerun-if-changed=generated");
    println!("cargo:rerun-if-changed=src/bin");
    let mut problems = Vec::new();
    let mut puzzles: Vec<_> = std::fs::read_dir(root.join("puzzles"))
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "txt"))
                .collect()
        })
        .unwrap_or_default();
    puzzles.sort();
    for puzzle in &puzzles {
        println!("cargo:rerun-if-changed={}", puzzle.display());
        let name = puzzle
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let generated = root.join("generated").join(format!("{name}.rs"));
        println!("cargo:rerun-if-changed={}", generated.display());
        let text = std::fs::read_to_string(puzzle).unwrap_or_default();
        match std::fs::read_to_string(&generated) {
            Ok(code) if stamp::is_fresh(&code, &text, version) => {}
            Ok(_) => problems.push(format!("generated/{name}.rs is stale")),
            Err(_) => problems.push(format!("generated/{name}.rs is missing")),
        }
        if !root.join("src/bin").join(format!("{name}.rs")).exists() {
            problems.push(format!("src/bin/{name}.rs is missing"));
        }
    }
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("error: {p}");
        }
        eprintln!("error: run `cargo xtask gen` to regenerate the solvers for puzzles/");
        std::process::exit(1);
    }
}
