//! A polycube client script (tests/client/polycube_client.sh) run unchanged but for the
//! program path: fila with polycube's options and no subcommand behaves as `fila solve`,
//! reading the definition from standard input.

use std::process::Command;

use crate::common::{fila, root, scratch};

fn run_client(definition: &str) -> (bool, String, String) {
    let out = Command::new("bash")
        .arg(root().join("tests/client/polycube_client.sh"))
        .arg(fila())
        .arg(definition)
        .current_dir(root())
        .output()
        .expect("bash runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn polycube_client_on_soma() {
    let (ok, out, err) = run_client("puzzles/soma.txt");
    assert!(ok, "the client failed: {err}");
    assert_eq!(out, "puzzles/soma.txt: 480 unique solutions\n");
}

#[test]
fn polycube_client_on_a_stationary_piece() {
    let (ok, out, err) = run_client("tests/puzzles/pentomino_8x8_centre.txt");
    assert!(ok, "the client failed: {err}");
    assert_eq!(
        out,
        "tests/puzzles/pentomino_8x8_centre.txt: 65 unique solutions\n"
    );
}

#[test]
fn polycube_client_with_no_solution() {
    let (ok, out, err) = run_client("tests/puzzles/one_sided_tetromino_7x4.txt");
    assert!(ok, "the client failed: {err}");
    assert_eq!(
        out,
        "tests/puzzles/one_sided_tetromino_7x4.txt: 0 unique solutions\n"
    );
}

/// The client's own check bites: a program that lists a solution more than UNIQUE= says
/// is caught (here a stand-in that prints one block and UNIQUE=2).
#[test]
fn polycube_client_catches_a_mismatch() {
    let dir = scratch("client_mismatch");
    let fake = dir.join("fake_polycube");
    std::fs::write(&fake, "#!/bin/sh\ncat >/dev/null\nprintf '\\n# --- SOLUTION 1 ---\\n a a\\nSOLUTIONS=2\\nUNIQUE=2\\n'\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let out = Command::new("bash")
        .arg(root().join("tests/client/polycube_client.sh"))
        .arg(&fake)
        .arg("puzzles/soma.txt")
        .current_dir(root())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 solution blocks but UNIQUE=2"));
}
