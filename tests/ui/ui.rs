//! The trybuild UI cases: `pass/` a small generated solver builds as a program of its
//! own and runs, `fail/` a definition with errors becomes a file that fails to build with
//! messages naming `tests/ui/puzzles/NAME.txt:LINE:COL`.

use std::path::Path;

/// This package's directory, `tests/ui`.
fn here() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Writes `generated/NAME.rs` for each `puzzles/NAME.txt` with `generate_or_error` (a
/// broken puzzle gives a file of `compile_error!`s), so that the cases always build what
/// the generator makes today. The directory is ignored by git.
fn write_ui_sources() {
    let config = generator::Config::default();
    let dir = here().join("puzzles");
    let puzzles = generator::stamp::txt_files(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for puzzle in puzzles {
        let name = puzzle.file_stem().and_then(|s| s.to_str()).unwrap();
        let label = format!("tests/ui/puzzles/{name}.txt");
        let text = std::fs::read_to_string(&puzzle)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", puzzle.display()));
        generator::generate_or_error(&label, &text, &config)
            .write(&here().join("generated"), name)
            .unwrap_or_else(|e| panic!("cannot write the UI sources: {e}"));
    }
}

/// Bless a changed message with `TRYBUILD=overwrite` and review the `.stderr` by hand.
#[test]
fn ui() {
    write_ui_sources();
    // trybuild builds its project's dependencies (the runtime, the generator) twice, in
    // the dev profile: once alone, then with the cases under other rustflags. The cases
    // ask nothing of debug information, and without it each build takes a third less
    // (the only test of this binary, so the variable reaches nothing else).
    std::env::set_var("CARGO_PROFILE_DEV_DEBUG", "false");
    let cases = trybuild::TestCases::new();
    cases.pass("pass/*.rs");
    cases.compile_fail("fail/*.rs");
}
