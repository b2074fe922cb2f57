//! The library half of xtask: generation and the freshness check, shared by the
//! `cargo xtask` command and the test that fails when `generated/` is stale.

use std::path::{Path, PathBuf};

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

/// What happened to one puzzle's generated files.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    Fresh,
    Written(PathBuf),
    Stale(PathBuf),
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

/// Writes `path` only when its bytes change; in check mode reports staleness instead.
fn ensure_file(
    path: &Path,
    contents: impl AsRef<[u8]>,
    check: bool,
) -> Result<Option<Outcome>, String> {
    let contents = contents.as_ref();
    let current = std::fs::read(path).ok();
    if current.as_deref() == Some(contents) {
        return Ok(None);
    }
    if check {
        return Ok(Some(Outcome::Stale(path.to_path_buf())));
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("error: cannot create {}: {e}\n", dir.display()))?;
    }
    std::fs::write(path, contents)
        .map_err(|e| format!("error: cannot write {}: {e}\n", path.display()))?;
    Ok(Some(Outcome::Written(path.to_path_buf())))
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
/// reporting the measurements to `log`. Returns the options to generate with.
pub fn tune_one(
    root: &Path,
    file: &Path,
    base: &generator::Config,
    fixed: tune::Fixed,
    log: &mut dyn std::io::Write,
) -> Result<generator::Config, String> {
    let source = Source::read(root, file)?;
    let build = tune::Build::release(root);
    tune::tune(
        root,
        &source.name,
        &source.label,
        &source.text,
        base,
        fixed,
        &build,
        log,
    )
    .map_err(|e| {
        if e.ends_with('\n') {
            e
        } else {
            format!("{e}\n")
        }
    })
}

/// Generates (or, with `check`, verifies) `generated/NAME.rs` and `src/bin/NAME.rs` for
/// the puzzle file `file`. Errors come back rendered, `file:line:col: error: ...`.
pub fn gen_one(
    root: &Path,
    file: &Path,
    config: &generator::Config,
    check: bool,
) -> Result<Outcome, String> {
    let Source {
        name,
        label,
        text,
        in_puzzles,
    } = Source::read(root, file)?;
    let name = name.as_str();
    let generator::Generated { code, data } =
        generator::generate(&label, &text, config).map_err(|d| generator::diag::render(&d))?;
    let generated = root.join("generated").join(format!("{name}.rs"));
    let tables = root.join("generated").join(name);
    let bin = root.join("src/bin").join(format!("{name}.rs"));
    let mut outcome = Outcome::Fresh;
    if !in_puzzles {
        // A file from elsewhere is copied into puzzles/ so the build keeps it fresh.
        let copy = root.join("puzzles").join(format!("{name}.txt"));
        if let Some(o) = ensure_file(&copy, &text, check)? {
            outcome = o;
        }
    }
    let mut files: Vec<(PathBuf, Vec<u8>)> = vec![
        (generated, code.into_bytes()),
        (bin, stub(name).into_bytes()),
    ];
    let written: Vec<PathBuf> = data
        .iter()
        .map(|f| root.join("generated").join(&f.path))
        .collect();
    files.extend(
        written
            .iter()
            .cloned()
            .zip(data.into_iter().map(|f| f.bytes)),
    );
    for (path, contents) in files {
        if let Some(o) = ensure_file(&path, &contents, check)? {
            if matches!(o, Outcome::Stale(_)) || outcome == Outcome::Fresh {
                outcome = o;
            }
        }
    }
    // Tables of an earlier generation that this one no longer writes.
    for old in std::fs::read_dir(&tables).into_iter().flatten().flatten() {
        let path = old.path();
        if !written.contains(&path) {
            if check {
                outcome = Outcome::Stale(path);
            } else {
                std::fs::remove_file(&path)
                    .map_err(|e| format!("error: cannot remove {}: {e}\n", path.display()))?;
            }
        }
    }
    Ok(outcome)
}

/// What `cargo xtask gen --explain` prints for the puzzle file `file`.
pub fn explain_one(root: &Path, file: &Path, config: &generator::Config) -> Result<String, String> {
    let Source { label, text, .. } = Source::read(root, file)?;
    generator::explain(&label, &text, config).map_err(|d| generator::diag::render(&d))
}

/// Fails when a generated file or stub has no puzzle behind it.
pub fn check_orphans(root: &Path) -> Result<(), String> {
    for dir in ["generated", "src/bin"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            if path.extension().is_some_and(|x| x == "rs")
                && !root.join("puzzles").join(format!("{stem}.txt")).exists()
            {
                return Err(format!(
                    "error: {} has no puzzles/{stem}.txt: remove it",
                    path.display()
                ));
            }
        }
    }
    Ok(())
}
