//! Scratch crates: generated solvers built outside the workspace, against the runtime
//! alone, for `cargo xtask bench` (other builds' solvers, other words) and for the tests
//! that build solvers for random puzzles.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::write_if_changed;

/// The release profile of the workspace, which the solvers in `generated/` are built with.
pub const RELEASE: &str =
    "[profile.release]\ncodegen-units = 1\nlto = \"thin\"\npanic = \"abort\"\n";

/// A release profile for solvers built only to be checked, not timed: debug assertions
/// and overflow checks on (an arithmetic slip in generated code then panics instead of
/// miscounting), and not optimised, since the build is most of such a test's time: the
/// 65 solvers of `random_puzzles_agree_with_the_oracle` build in 50 s rather than 300 s
/// at `opt-level = 1`, where LLVM's passes on each solver's search take most of it.
pub const CHECKED: &str = "[profile.release]\nopt-level = 0\ndebug-assertions = true\n\
     overflow-checks = true\ncodegen-units = 16\nincremental = true\n";

/// A manifest for the package `package` (its one executable has the same name), which
/// depends on the runtime in `root` and builds with `profile` (a `[profile.release]`
/// section).
pub fn manifest(root: &Path, package: &str, profile: &str) -> String {
    let runtime = root.join("runtime");
    format!(
        "[package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nfila-runtime = {{ path = {:?} }}\n\n\
         # Its own workspace, apart from the fila workspace it sits in.\n[workspace]\n\n{profile}",
        runtime.display().to_string()
    )
}

/// Writes the tables of `generated` beside `dir/src/main.rs`, where a solver's module in
/// `src/` includes them.
pub fn write_tables(dir: &Path, generated: &generator::Generated) -> Result<(), String> {
    for file in &generated.data {
        let path = dir.join("src").join(&file.path);
        if std::fs::read(&path).ok().as_deref() == Some(&file.bytes[..]) {
            continue;
        }
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

/// Sets up the crate in `dir` (its manifest, `src/main.rs`, and the workspace's lock file,
/// which pins the runtime's dependencies to the versions the workspace builds with, so
/// that no registry look-up is needed) and builds it in release mode into `target`.
/// Settings an outer cargo may have set for its own build are removed. Returns the
/// executable.
pub fn build(
    root: &Path,
    dir: &Path,
    target: &Path,
    package: &str,
    profile: &str,
    main: &str,
) -> Result<PathBuf, String> {
    write_if_changed(&dir.join("Cargo.toml"), &manifest(root, package, profile))?;
    write_if_changed(&dir.join("src/main.rs"), main)?;
    let lock = std::fs::read_to_string(root.join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    write_if_changed(&dir.join("Cargo.lock"), &lock)?;
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--release", "--quiet"])
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target);
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        if key == "RUSTFLAGS"
            || key == "CARGO_ENCODED_RUSTFLAGS"
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_PROFILE_")
            || key == "CARGO_MAKEFLAGS"
            || key == "MAKEFLAGS"
            || key == "MFLAGS"
        {
            command.env_remove(&key);
        }
    }
    let output = command
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(format!(
            "the scratch crate in {} does not build:\n{}",
            dir.display(),
            &stderr[stderr.len().saturating_sub(20_000)..]
        ));
    }
    Ok(target.join("release").join(package))
}
