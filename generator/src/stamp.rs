//! The stamp at the top of every generated file, and the freshness checks on it.
//!
//! A stamp records what made the file: the generator (its version and a hash of its
//! sources), the puzzle file (a hash of its text) and the options. Generated code is stale
//! when any of them changed; the reports say which stamp line differs and how to fix it.
//!
//! Keep this file free of dependencies: the build scripts include it with `#[path]` (the
//! root package's to refuse stale generated code, the generator's to hash its own
//! sources), so the stamp and the hash of the generator are each defined once.

#[allow(dead_code)] // The checkpoint's half of the hash is not used here.
#[path = "../../runtime/src/fnv.rs"]
mod fnv;

use std::path::{Path, PathBuf};

use fnv::{fnv1a64, Fnv1a64};

/// The directories, relative to the workspace root, whose files shape what the generator
/// writes: an edit to any file in them makes every generated file stale.
pub const GENERATOR_SOURCES: [&str; 2] = ["generator/src", "puzzle/src"];

/// The hash of the generator's sources: FNV-1a over every Rust file below
/// [`GENERATOR_SOURCES`], in the order of their paths, each as its path from `root`
/// (with `/`), a NUL, its bytes with CRLF read as LF (so that a checkout's line endings
/// do not matter), and a NUL. Only `*.rs` files not hidden count, so that an editor's
/// swap or backup file does not make a working tree disagree with a fresh clone.
pub fn source_hash(root: &Path) -> std::io::Result<u64> {
    let mut files = Vec::new();
    for dir in GENERATOR_SOURCES {
        rust_files_below(root, &root.join(dir), &mut files)?;
    }
    files.sort();
    let mut hash = Fnv1a64::new();
    for (name, path) in &files {
        hash.write(name.as_bytes());
        hash.write(&[0]);
        let bytes = std::fs::read(path)?;
        let mut rest = &bytes[..];
        while let Some(cr) = rest.windows(2).position(|w| w == b"\r\n") {
            hash.write(&rest[..cr]);
            rest = &rest[cr + 1..];
        }
        hash.write(rest);
        hash.write(&[0]);
    }
    Ok(hash.finish())
}

/// Adds every Rust file below `dir`, at any depth, to `out` as its path from `root`
/// written with `/`, and its path.
fn rust_files_below(
    root: &Path,
    dir: &Path,
    out: &mut Vec<(String, PathBuf)>,
) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            rust_files_below(root, &path, out)?;
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path.strip_prefix(root).unwrap_or(&path);
            let name: Vec<_> = name
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect();
            out.push((name.join("/"), path));
        }
    }
    Ok(())
}

/// What the stamp's second line records of the generator: its version and the hash of
/// its sources ([`source_hash`]).
pub fn generator_identity(version: &str, source_hash: u64) -> String {
    format!("fila {version} sources-fnv1a64={source_hash:016x}")
}

/// The first lines of a generated file for the puzzle file `path` with contents `text`,
/// made by the generator `generator` ([`generator_identity`]) with the xtask options
/// `options` (kept so that regenerating repeats them), whose tables stored as bytes
/// hash to `tables` ([`tables_hash`]).
pub fn header(path: &str, text: &str, generator: &str, options: &str, tables: u64) -> String {
    format!(
        "{}{path} — do not edit\n{}{generator}\n{}{path} fnv1a64={:016x}\n{}{options}\n{}fnv1a64={tables:016x}\n",
        LINES[0].0,
        LINES[1].0,
        LINES[2].0,
        fnv1a64(text.as_bytes()),
        LINES[3].0,
        LINES[4].0,
    )
}

/// The hash of a generated file's tables stored as bytes: FNV-1a over each file, in the
/// order of their names, as its name, a NUL, its bytes and a NUL.
pub fn tables_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> u64 {
    let mut files: Vec<(&str, &[u8])> = files.into_iter().collect();
    files.sort();
    let mut hash = Fnv1a64::new();
    for (name, bytes) in files {
        hash.write(name.as_bytes());
        hash.write(&[0]);
        hash.write(bytes);
        hash.write(&[0]);
    }
    hash.finish()
}

/// [`tables_hash`] of the files in `dir` (none when there is no such directory).
pub fn tables_hash_in(dir: &Path) -> std::io::Result<u64> {
    let mut files = Vec::new();
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir)? {
            let path = entry?.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default()
                .to_string();
            files.push((name, std::fs::read(&path)?));
        }
    }
    Ok(tables_hash(
        files.iter().map(|(n, b)| (n.as_str(), b.as_slice())),
    ))
}

/// The stamp's lines, by how each begins, with what it means when one differs.
const LINES: [(&str, &str); 5] = [
    (
        "// @generated by cargo xtask gen ",
        "it names another puzzle file",
    ),
    ("// generator: ", "the generator changed"),
    ("// input: ", "the puzzle file changed"),
    ("// options: ", "the options changed"),
    (
        "// tables: ",
        "its tables, stored as bytes beside it, are not the ones it was generated with",
    ),
];

/// The xtask options a generated file was made with, from its stamp.
pub fn options(generated: &str) -> Option<&str> {
    stamp_of(generated)
        .lines()
        .find_map(|l| l.strip_prefix(LINES[3].0))
}

/// The stamp of a generated file: its leading lines that begin as a stamp line does.
pub fn stamp_of(generated: &str) -> &str {
    let mut end = 0;
    for line in generated.split_inclusive('\n').take(LINES.len()) {
        if !LINES.iter().any(|(start, _)| line.starts_with(start)) {
            break;
        }
        end += line.len();
    }
    &generated[..end]
}

/// Why a file is not what would be written now: a reason per differing stamp line (or
/// one for a missing file, or for contents that differ below equal stamps), and those
/// lines as a diff, `- found` then `+ expected`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stale {
    pub reasons: Vec<&'static str>,
    pub diff: Vec<String>,
}

impl Stale {
    /// A file that should be there and is not.
    pub fn missing() -> Stale {
        Stale {
            reasons: vec![MISSING],
            diff: Vec::new(),
        }
    }

    /// `error: FILE is stale: REASONS`, then the diff, indented: one report for the
    /// build and `cargo xtask gen --check` alike.
    pub fn report(&self, file: &str) -> String {
        let mut out = if self.reasons == [MISSING] {
            format!("error: {file} is missing\n")
        } else {
            format!("error: {file} is stale: {}\n", self.reasons.join(", "))
        };
        for line in &self.diff {
            out.push_str(&format!("    {line}\n"));
        }
        out
    }
}

const MISSING: &str = "it is missing";

/// Compares a file as it is (`None` when there is none) with what would be written now;
/// `None` when they are the same. Either may be a whole file or its stamp alone
/// ([`stamp_of`]), as long as both are the same kind.
pub fn compare(found: Option<&str>, expected: &str) -> Option<Stale> {
    let Some(found) = found else {
        return Some(Stale::missing());
    };
    if found == expected {
        return None;
    }
    let (mut reasons, mut diff) = (Vec::new(), Vec::new());
    let stamp_line = |text: &str, start: &str| {
        stamp_of(text)
            .lines()
            .find(|l| l.starts_with(start))
            .map(str::to_string)
    };
    for (start, reason) in LINES {
        let (was, now) = (stamp_line(found, start), stamp_line(expected, start));
        if was != now {
            reasons.push(reason);
            diff.push(format!("- {}", was.as_deref().unwrap_or("(no such line)")));
            diff.push(format!("+ {}", now.as_deref().unwrap_or("(no such line)")));
        }
    }
    if reasons.is_empty() {
        reasons.push("the contents differ from what `cargo xtask gen` writes (edited by hand?)");
    }
    Some(Stale { reasons, diff })
}

/// Every `*.txt` file in `dir`, sorted.
pub fn txt_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "txt") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The build's check of the workspace at `root`: every `puzzles/NAME.txt` must have a
/// `generated/NAME.rs` stamped for its text by the generator `generator`, and an
/// executable stub `src/bin/NAME.rs`. Only stamps are compared, so that the check needs
/// no generator; `cargo xtask gen --check` compares whole files. Returns one report per
/// problem ([`Stale::report`]), none when everything is fresh.
pub fn check_workspace(root: &Path, generator: &str) -> Vec<String> {
    let puzzles = match txt_files(&root.join("puzzles")) {
        Ok(puzzles) => puzzles,
        Err(e) => return vec![format!("error: cannot read puzzles/: {e}\n")],
    };
    let mut reports = Vec::new();
    for puzzle in &puzzles {
        let name = puzzle
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default();
        let text = match std::fs::read_to_string(puzzle) {
            Ok(text) => text,
            Err(e) => {
                reports.push(format!("error: cannot read puzzles/{name}.txt: {e}\n"));
                continue;
            }
        };
        let file = format!("generated/{name}.rs");
        let found = std::fs::read_to_string(root.join(&file)).ok();
        // The options are whatever the file records: the build cannot know better.
        let recorded = found.as_deref().and_then(options).unwrap_or_default();
        let tables = match tables_hash_in(&root.join("generated").join(name)) {
            Ok(tables) => tables,
            Err(e) => {
                reports.push(format!("error: cannot read generated/{name}/: {e}\n"));
                continue;
            }
        };
        let expected = header(
            &format!("puzzles/{name}.txt"),
            &text,
            generator,
            recorded,
            tables,
        );
        if let Some(stale) = compare(found.as_deref().map(stamp_of), &expected) {
            reports.push(stale.report(&file));
        }
        let stub = format!("src/bin/{name}.rs");
        if !root.join(&stub).exists() {
            reports.push(Stale::missing().report(&stub));
        }
    }
    match orphans(root) {
        Ok(orphans) => reports.extend(orphans.iter().map(|o| orphan_report(o))),
        Err(e) => reports.push(e),
    }
    reports
}

/// What stands in `generated/` or `src/bin/` for a puzzle no longer in `puzzles/`: each
/// `generated/NAME.rs`, table directory `generated/NAME/` and stub `src/bin/NAME.rs`
/// without a `puzzles/NAME.txt`, as paths relative to `root`, sorted. `Err`: the report
/// of a directory that cannot be read.
pub fn orphans(root: &Path) -> Result<Vec<String>, String> {
    let mut found = Vec::new();
    for dir in ["generated", "src/bin"] {
        let unreadable = |e: std::io::Error| format!("error: cannot read {dir}/: {e}\n");
        let entries = match std::fs::read_dir(root.join(dir)) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(unreadable(e)),
        };
        for entry in entries {
            let entry = entry.map_err(unreadable)?;
            let file = entry.file_name().to_string_lossy().into_owned();
            let name = if entry.file_type().map_err(unreadable)?.is_dir() {
                (dir == "generated").then_some(file.as_str())
            } else {
                file.strip_suffix(".rs")
            };
            if name.is_some_and(|n| !root.join("puzzles").join(format!("{n}.txt")).exists()) {
                found.push(format!("{dir}/{file}"));
            }
        }
    }
    found.sort();
    Ok(found)
}

/// The report of an orphan ([`orphans`]), for the build and `cargo xtask gen --check`.
pub fn orphan_report(path: &str) -> String {
    let name = Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    format!(
        "error: {path} has no puzzles/{name}.txt (`cargo xtask gen` removes what it made \
         for a puzzle no longer there)\n"
    )
}

/// What to do about stale generated code, said after the reports.
pub const FIX: &str = "error: run `cargo xtask gen` to regenerate the solvers for puzzles/ \
     (it repeats the options each stamp records)";

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str = "D:xDim=2:yDim=1:zDim=1\nC:name=A:type=M:layout=0 0 0, 1 0 0\n~D\n";
    const GENERATOR: &str = "fila 0.1.0 sources-fnv1a64=0000000000000001";

    fn stamp(text: &str, generator: &str, options: &str) -> String {
        header("puzzles/p.txt", text, generator, options, tables_hash([]))
    }

    #[test]
    fn a_header_reads_back() {
        let header = stamp(PUZZLE, GENERATOR, "-r A --f-from 3 -V");
        assert_eq!(header.lines().count(), 5);
        assert!(
            header.starts_with("// @generated by cargo xtask gen puzzles/p.txt — do not edit\n")
        );
        assert!(header.contains(&format!("\n// generator: {GENERATOR}\n")));
        let code = format!("{header}\nfn main() {{}}\n");
        assert_eq!(options(&code), Some("-r A --f-from 3 -V"));
        assert_eq!(stamp_of(&code), header);
        assert_eq!(compare(Some(&code), &code), None);
        assert_eq!(compare(Some(stamp_of(&code)), &header), None);
        // A file without a stamp has neither options nor stamp lines.
        assert_eq!(options("fn main() {}\n// options: -V\n"), None);
        assert_eq!(stamp_of("fn main() {}\n"), "");
    }

    #[test]
    fn each_changed_line_gives_its_reason_and_its_diff() {
        let now = stamp(PUZZLE, GENERATOR, "-r #");
        let input = stamp("D:xDim=1\n", GENERATOR, "-r #");
        let generator = stamp(
            PUZZLE,
            "fila 0.1.0 sources-fnv1a64=0000000000000002",
            "-r #",
        );
        let options = stamp(PUZZLE, GENERATOR, "-r # -V");
        let stale = compare(Some(&input), &now).unwrap();
        assert_eq!(stale.reasons, ["the puzzle file changed"]);
        assert_eq!(stale.diff.len(), 2);
        assert!(stale.diff[0].starts_with("- // input: puzzles/p.txt fnv1a64="));
        assert_eq!(
            compare(Some(&generator), &now).unwrap().diff,
            [
                "- // generator: fila 0.1.0 sources-fnv1a64=0000000000000002",
                "+ // generator: fila 0.1.0 sources-fnv1a64=0000000000000001",
            ]
        );
        assert_eq!(
            compare(Some(&options), &now).unwrap().reasons,
            ["the options changed"]
        );
        // The report names the file, the reason, and the lines.
        let report = compare(Some(&generator), &now)
            .unwrap()
            .report("generated/p.rs");
        assert!(report.starts_with("error: generated/p.rs is stale: the generator changed\n"));
        assert!(report.contains("- // generator: fila 0.1.0 sources-fnv1a64=0000000000000002"));
        // Several lines, several reasons.
        let both = stamp("D:xDim=1\n", "fila 0.0.9 sources-fnv1a64=0", "-r #");
        assert_eq!(
            compare(Some(&both), &now).unwrap().reasons,
            ["the generator changed", "the puzzle file changed"]
        );
    }

    #[test]
    fn missing_files_unstamped_files_and_hand_edits() {
        let now = format!("{}\nfn main() {{}}\n", stamp(PUZZLE, GENERATOR, "-r #"));
        assert_eq!(
            compare(None, &now).unwrap().report("generated/p.rs"),
            "error: generated/p.rs is missing\n"
        );
        let unstamped = compare(Some("fn main() {}\n"), &now).unwrap();
        assert_eq!(unstamped.reasons.len(), LINES.len());
        assert!(unstamped.diff.contains(&"- (no such line)".to_string()));
        let edited = now.replace("main", "main2");
        let stale = compare(Some(&edited), &now).unwrap();
        assert!(stale.reasons[0].contains("edited by hand"), "{stale:?}");
        assert!(stale.diff.is_empty());
    }

    /// A scratch directory of its own under the system's temporary directory, removed
    /// when the test is done.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("fila-stamp-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn write(&self, path: &str, contents: &str) {
            let path = self.0.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn the_source_hash_follows_every_file_and_no_line_ending() {
        let tree = Scratch::new("sources");
        tree.write("generator/src/lib.rs", "pub mod emit;\n");
        tree.write("generator/src/emit/tables.rs", "// tables\n");
        tree.write("puzzle/src/lib.rs", "pub fn load() {}\n");
        let first = source_hash(&tree.0).unwrap();
        assert_eq!(source_hash(&tree.0).unwrap(), first);
        tree.write("puzzle/src/lib.rs", "pub fn load() {}\r\n");
        assert_eq!(source_hash(&tree.0).unwrap(), first, "CRLF reads as LF");
        tree.write("generator/src/emit/tables.rs", "// tables.\n");
        let edited = source_hash(&tree.0).unwrap();
        assert_ne!(edited, first, "a nested file counts");
        tree.write("puzzle/src/.lib.rs.swp", "swap");
        tree.write("puzzle/src/lib.rs~", "backup");
        tree.write("puzzle/src/notes.txt", "notes");
        assert_eq!(
            source_hash(&tree.0).unwrap(),
            edited,
            "only Rust files count"
        );
        tree.write("puzzle/src/new.rs", "");
        assert_ne!(
            source_hash(&tree.0).unwrap(),
            edited,
            "an empty new file counts"
        );
        std::fs::remove_dir_all(tree.0.join("puzzle")).unwrap();
        assert!(
            source_hash(&tree.0).is_err(),
            "a missing source directory is an error"
        );
    }

    #[test]
    fn the_workspace_check_names_each_stale_file_and_why() {
        let tree = Scratch::new("workspace");
        let text = |n: usize| format!("D:xDim={n}:yDim=1:zDim=1\n~D\n");
        for (name, n) in [("a", 1), ("b", 2), ("c", 3)] {
            tree.write(&format!("puzzles/{name}.txt"), &text(n));
            let label = format!("puzzles/{name}.txt");
            tree.write(
                &format!("generated/{name}.rs"),
                &format!(
                    "{}\nfn main() {{}}\n",
                    header(&label, &text(n), GENERATOR, "-r #", tables_hash([]))
                ),
            );
            tree.write(&format!("src/bin/{name}.rs"), "");
        }
        assert_eq!(check_workspace(&tree.0, GENERATOR), Vec::<String>::new());
        // Another generator: every file, with the line that differs.
        let other = "fila 0.1.0 sources-fnv1a64=0000000000000002";
        let reports = check_workspace(&tree.0, other);
        assert_eq!(reports.len(), 3, "{reports:?}");
        for (report, name) in reports.iter().zip(["a", "b", "c"]) {
            assert!(
                report.starts_with(&format!(
                    "error: generated/{name}.rs is stale: the generator changed\n"
                )),
                "{report}"
            );
            assert!(
                report.contains(&format!("+ // generator: {other}")),
                "{report}"
            );
        }
        // A changed puzzle, a missing solver, a missing stub.
        tree.write("puzzles/a.txt", &text(4));
        std::fs::remove_file(tree.0.join("generated/b.rs")).unwrap();
        std::fs::remove_file(tree.0.join("src/bin/c.rs")).unwrap();
        assert_eq!(
            check_workspace(&tree.0, GENERATOR)
                .iter()
                .map(|r| r.lines().next().unwrap())
                .collect::<Vec<_>>(),
            [
                "error: generated/a.rs is stale: the puzzle file changed",
                "error: generated/b.rs is missing",
                "error: src/bin/c.rs is missing",
            ]
        );
        // A puzzle removed: what was made for it, its tables included, is named.
        std::fs::remove_file(tree.0.join("puzzles/a.txt")).unwrap();
        tree.write("generated/a/e_masks.bin", "");
        tree.write("generated/b/e_masks.bin", "");
        assert_eq!(
            orphans(&tree.0).unwrap(),
            ["generated/a", "generated/a.rs", "src/bin/a.rs"]
        );
        let reports = check_workspace(&tree.0, GENERATOR);
        assert!(
            reports.contains(&orphan_report("src/bin/a.rs")),
            "{reports:?}"
        );
        assert_eq!(
            orphan_report("generated/a"),
            "error: generated/a has no puzzles/a.txt (`cargo xtask gen` removes what it made \
             for a puzzle no longer there)\n"
        );
        // A directory that cannot be read is named, and the rest still checked.
        std::fs::remove_dir_all(tree.0.join("src/bin")).unwrap();
        tree.write("src/bin", "");
        let reports = check_workspace(&tree.0, GENERATOR);
        assert!(
            reports
                .iter()
                .any(|r| r.starts_with("error: cannot read src/bin/: ")),
            "{reports:?}"
        );
        assert!(
            reports
                .iter()
                .any(|r| r.starts_with("error: src/bin/b.rs is missing")),
            "{reports:?}"
        );
    }
}
