//! Refuses to build from stale generated code: every puzzle in `puzzles/` must have a
//! generated solver in `generated/` whose stamp matches the puzzle file and this
//! generator (its version and the hash of its sources, computed here from the sources
//! themselves, so that an edit to the generator makes the code it wrote stale), and an
//! executable stub in `src/bin/`. `cargo xtask gen` makes both.

#[path = "generator/src/stamp.rs"]
#[allow(dead_code)]
mod stamp;

use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["puzzles", "generated", "src/bin"]
        .into_iter()
        .chain(stamp::GENERATOR_SOURCES)
    {
        println!("cargo:rerun-if-changed={dir}");
    }
    let generator = match stamp::source_hash(root) {
        // The generator's version is the workspace's, which is this package's too.
        Ok(hash) => stamp::generator_identity(env!("CARGO_PKG_VERSION"), hash),
        Err(e) => {
            eprintln!("error: cannot read the generator's sources: {e}");
            std::process::exit(1);
        }
    };
    let reports = stamp::check_workspace(root, &generator);
    if !reports.is_empty() {
        for report in &reports {
            eprint!("{report}");
        }
        eprintln!("{}", stamp::FIX);
        std::process::exit(1);
    }
}
