//! The library half of xtask: generation and the freshness check, shared by the
//! `cargo xtask` command and the test that fails when `generated/` is stale.

use std::path::{Path, PathBuf};

use generator::stamp::{self, Stale};

pub mod bench;
pub mod scratch;
pub mod tune;

/// The workspace root (xtask lives one level below it).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Every `*.txt` file in `dir`, sorted: the puzzle files of `puzzles/` and of the test
/// corpora.
pub fn txt_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    stamp::txt_files(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))
}

/// What generation did to one file, or (in check mode) found wrong with it.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Written(PathBuf),
    /// The file is not what generation writes now, and why.
    Stale(PathBuf, Stale),
}

impl Outcome {
    /// What `cargo xtask gen` says of it, naming the file from the workspace root `root`:
    /// `wrote FILE`, or for a stale file why, with the stamp lines that differ.
    pub fn report(&self, root: &Path) -> String {
        let relative = |path: &Path| {
            path.strip_prefix(root)
                .unwrap_or(path)
                .display()
                .to_string()
        };
        match self {
            Outcome::Written(path) => format!("wrote {}\n", relative(path)),
            Outcome::Stale(path, stale) => stale.report(&relative(path)),
        }
    }
}

/// The options `generated/NAME.rs` was made with, or the defaults.
pub fn recorded_config(root: &Path, puzzle: &Path) -> generator::Config {
    recorded(root, puzzle).unwrap_or_default()
}

/// The options `generated/NAME.rs` was made with, when there is such a file.
pub fn recorded(root: &Path, puzzle: &Path) -> Option<generator::Config> {
    let name = puzzle
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    std::fs::read_to_string(root.join("generated").join(format!("{name}.rs")))
        .ok()
        .and_then(|code| generator::stamp::options(&code).and_then(generator::Config::from_options))
}

/// The executable stub that makes `generated/NAME.rs` the binary `NAME`.
pub fn stub(name: &str) -> String {
    format!(
        "//! The generated solver for puzzles/{name}.txt, built as the executable `{name}`.\n\
         //! Written by `cargo xtask gen`; the solver itself is generated/{name}.rs.\n\n\
         include!(\"../../generated/{name}.rs\");\n"
    )
}

/// Writes `path` when its contents change (so that cargo rebuilds only what changed),
/// creating its directory if need be. Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &str) -> Result<bool, String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(contents) {
        return Ok(false);
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, contents).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(true)
}

/// Writes `path` only when its bytes change; in check mode reports why it is stale
/// instead.
fn ensure_file(path: &Path, contents: &str, check: bool) -> Result<Option<Outcome>, String> {
    if check {
        let current = std::fs::read_to_string(path).ok();
        let stale = stamp::compare(current.as_deref(), contents);
        return Ok(stale.map(|why| Outcome::Stale(path.to_path_buf(), why)));
    }
    let written = write_if_changed(path, contents).map_err(|e| format!("error: {e}\n"))?;
    Ok(written.then(|| Outcome::Written(path.to_path_buf())))
}

/// A puzzle file as generation sees it.
struct Source {
    /// The file's stem, which names the generated solver and its executable.
    name: String,
    /// How diagnostics and the stamp name the file: `puzzles/NAME.txt` for the puzzles.
    label: String,
    text: String,
    in_puzzles: bool,
}

impl Source {
    fn read(root: &Path, file: &Path) -> Result<Source, String> {
        let name = file
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("error: bad file name {}\n", file.display()))?;
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(format!(
                        "error: {}: a puzzle file's name must be a Rust identifier (letters, digits, _), as it names the executable\n",
                        file.display()
                ));
        }
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("error: cannot read {}: {e}\n", file.display()))?;
        let shown = format!("puzzles/{name}.txt");
        let in_puzzles = file.canonicalize().ok() == root.join(&shown).canonicalize().ok();
        let label = if in_puzzles {
            shown
        } else {
            file.display().to_string()
        };
        Ok(Source {
            name: name.to_string(),
            label,
            text,
            in_puzzles,
        })
    }
}

/// Tunes the solver for the puzzle file `file` from `base` (see [`tune::tune`]),
/// reporting the measurements to `log`. Returns the name of the puzzle's executable and
/// what tuning chose.
pub fn tune_one(
    root: &Path,
    file: &Path,
    base: &generator::Config,
    fixed: tune::Fixed,
    log: &mut dyn std::io::Write,
) -> Result<(String, tune::Tuned), String> {
    let source = Source::read(root, file)?;
    let tuned = tune::tune(&source.label, &source.text, base, fixed, log).map_err(|e| {
        if e.ends_with('\n') {
            e
        } else {
            format!("{e}\n")
        }
    })?;
    Ok((source.name, tuned))
}

/// Builds the executables of the tuned puzzles `tuned` (release, as `cargo build
/// --release --bin NAME` would), and checks each against its tuning ([`tune::check`]),
/// reporting to `log`.
pub fn build_and_check(
    root: &Path,
    tuned: &[(String, tune::Tuned)],
    log: &mut dyn std::io::Write,
) -> Result<(), String> {
    if tuned.is_empty() {
        return Ok(());
    }
    let mut command = std::process::Command::new(env!("CARGO"));
    command.args(["build", "--release"]).current_dir(root);
    for (name, _) in tuned {
        command.args(["--bin", name]);
    }
    let names: Vec<&str> = tuned.iter().map(|(name, _)| name.as_str()).collect();
    let _ = writeln!(log, "building {} (release)...", names.join(", "));
    let status = command
        .status()
        .map_err(|e| format!("error: cannot run cargo: {e}\n"))?;
    if !status.success() {
        return Err("error: the release build of the tuned solvers failed\n".to_string());
    }
    for (name, t) in tuned {
        let exe = root.join("target/release").join(name);
        let line = tune::check(&exe, t).map_err(|e| format!("error: {e}\n"))?;
        let _ = writeln!(log, "{line}");
    }
    Ok(())
}

/// Generates (or, with `check`, verifies) `generated/NAME.rs` and `src/bin/NAME.rs` for
/// the puzzle file `file`. Returns what was written or is stale, nothing when every file
/// was fresh. Errors come back rendered, `file:line:col: error: ...`.
pub fn gen_one(
    root: &Path,
    file: &Path,
    config: &generator::Config,
    check: bool,
) -> Result<Vec<Outcome>, String> {
    let Source {
        name,
        label,
        text,
        in_puzzles,
    } = Source::read(root, file)?;
    let name = name.as_str();
    let generator::Generated { code, data } = generator::generate(&label, &text, config)
        .map_err(|d| generator::diag::render(&d, &text))?;
    let mut files = vec![
        (root.join("generated").join(format!("{name}.rs")), code),
        (root.join("src/bin").join(format!("{name}.rs")), stub(name)),
    ];
    if !in_puzzles {
        // A file from elsewhere is copied into puzzles/ so the build keeps it fresh.
        files.insert(0, (root.join("puzzles").join(format!("{name}.txt")), text));
    }
    let mut outcomes = Vec::new();
    for (path, contents) in files {
        outcomes.extend(ensure_file(&path, &contents, check)?);
    }
    // The tables stored as bytes, in generated/NAME/, and none of an earlier generation.
    let written: Vec<PathBuf> = data
        .iter()
        .map(|f| root.join("generated").join(&f.path))
        .collect();
    for (path, file) in written.iter().zip(&data) {
        outcomes.extend(ensure_bytes(path, &file.bytes, check)?);
    }
    let tables = root.join("generated").join(name);
    for old in std::fs::read_dir(&tables).into_iter().flatten().flatten() {
        let path = old.path();
        if written.contains(&path) {
            continue;
        }
        if check {
            let why = Stale {
                reasons: vec!["no longer written by `cargo xtask gen`"],
                diff: Vec::new(),
            };
            outcomes.push(Outcome::Stale(path, why));
        } else {
            std::fs::remove_file(&path)
                .map_err(|e| format!("error: cannot remove {}: {e}\n", path.display()))?;
        }
    }
    Ok(outcomes)
}

/// What [`ensure_file`] does for a table of bytes.
fn ensure_bytes(path: &Path, contents: &[u8], check: bool) -> Result<Option<Outcome>, String> {
    let current = std::fs::read(path).ok();
    if current.as_deref() == Some(contents) {
        return Ok(None);
    }
    if check {
        let why = match current {
            None => Stale::missing(),
            Some(_) => Stale {
                reasons: vec!["the table differs from what `cargo xtask gen` writes"],
                diff: Vec::new(),
            },
        };
        return Ok(Some(Outcome::Stale(path.to_path_buf(), why)));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("error: cannot create {}: {e}\n", dir.display()))?;
    }
    std::fs::write(path, contents)
        .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))?;
    Ok(Some(Outcome::Written(path.to_path_buf())))
}

/// What `cargo xtask gen --explain` prints for the puzzle file `file`.
pub fn explain_one(root: &Path, file: &Path, config: &generator::Config) -> Result<String, String> {
    let Source { label, text, .. } = Source::read(root, file)?;
    generator::explain(&label, &text, config).map_err(|d| generator::diag::render(&d, &text))
}

/// What `cargo xtask gen` made for puzzles no longer in `puzzles/`
/// ([`stamp::orphans`]). With `check`, each is an error; otherwise each is removed where
/// it is what `gen` writes (a stamped `generated/NAME.rs`, a directory of `.bin` tables,
/// the stub `src/bin/NAME.rs`), and anything else is left, an error. Returns the lines
/// saying what was removed, and the errors.
pub fn tidy_orphans(root: &Path, check: bool) -> (Vec<String>, String) {
    let (mut removed, mut errors) = (Vec::new(), String::new());
    let orphans = match stamp::orphans(root) {
        Ok(orphans) => orphans,
        Err(e) => return (removed, e),
    };
    for orphan in &orphans {
        let path = root.join(orphan);
        if check || !made_by_gen(&path) {
            errors.push_str(&stamp::orphan_report(orphan));
            continue;
        }
        let gone = if path.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        match gone {
            Ok(()) => removed.push(format!(
                "removed {orphan}: its puzzle is no longer in puzzles/\n"
            )),
            Err(e) => errors.push_str(&format!("error: cannot remove {orphan}: {e}\n")),
        }
    }
    (removed, errors)
}

/// Whether `path`, in `generated/` or `src/bin/`, is what `cargo xtask gen` writes there.
fn made_by_gen(path: &Path) -> bool {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    if path.is_dir() {
        let Ok(entries) = std::fs::read_dir(path) else {
            return false;
        };
        return entries.into_iter().all(|e| {
            e.is_ok_and(|e| {
                e.file_type().is_ok_and(|t| t.is_file())
                    && e.path().extension().is_some_and(|x| x == "bin")
            })
        });
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    if path.parent().is_some_and(|p| p.ends_with("src/bin")) {
        text == stub(name)
    } else {
        !stamp::stamp_of(&text).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full `gen` removes what it made for a puzzle no longer in `puzzles/`, and
    /// nothing else; `--check` names every orphan and removes nothing.
    #[test]
    fn what_gen_made_for_a_puzzle_gone_is_removed_and_nothing_else() {
        let pid = std::process::id();
        let root = std::env::temp_dir().join(format!("fila-xtask-orphans-{pid}"));
        let _ = std::fs::remove_dir_all(&root);
        let write = |path: &str, contents: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, contents).unwrap();
        };
        let text = "D:xDim=1:yDim=1:zDim=1\n~D\n";
        let solver = |name: &str| {
            let label = format!("puzzles/{name}.txt");
            stamp::header(&label, text, "fila", "-r #", 0) + "fn main() {}\n"
        };
        write("puzzles/kept.txt", text);
        write("generated/kept.rs", &solver("kept"));
        write("src/bin/kept.rs", &stub("kept"));
        write("generated/gone.rs", &solver("gone"));
        write("generated/gone/e_masks.bin", "");
        write("src/bin/gone.rs", &stub("gone"));
        // Not what `gen` writes: an executable of one's own, a directory of other files.
        write("src/bin/tool.rs", "fn main() {}\n");
        write("generated/notes/todo.md", "");
        let (removed, errors) = tidy_orphans(&root, true);
        assert!(removed.is_empty(), "{removed:?}");
        assert_eq!(errors.lines().count(), 5, "{errors}");
        let (removed, errors) = tidy_orphans(&root, false);
        let said =
            |orphan: &str| format!("removed {orphan}: its puzzle is no longer in puzzles/\n");
        assert_eq!(
            removed,
            [
                said("generated/gone"),
                said("generated/gone.rs"),
                said("src/bin/gone.rs")
            ]
        );
        let left =
            stamp::orphan_report("generated/notes") + &stamp::orphan_report("src/bin/tool.rs");
        assert_eq!(errors, left);
        for kept in [
            "generated/kept.rs",
            "src/bin/kept.rs",
            "src/bin/tool.rs",
            "generated/notes/todo.md",
        ] {
            assert!(root.join(kept).exists(), "{kept}");
        }
        for gone in ["generated/gone", "generated/gone.rs", "src/bin/gone.rs"] {
            assert!(!root.join(gone).exists(), "{gone}");
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}
