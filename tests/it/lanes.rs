//! `runtime::lanes` has three forms, chosen by the build's target features: AVX-512,
//! AVX2, and plain arrays. The suite's own build uses the machine's; this test builds
//! and runs the runtime's unit test of `Lanes` once more for each of the other forms,
//! so that all three are checked against plain `u64` arithmetic on this machine.

use std::process::Command;

#[cfg(target_arch = "x86_64")]
#[test]
fn every_form_of_lanes_computes_what_words_do() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut forms = vec![("x86-64", "plain arrays")];
    // An AVX2 build runs only where the processor has AVX2 (with BMI2 for `pext`).
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2") {
        forms.push(("x86-64-v3", "AVX2"));
    }
    for (cpu, form) in forms {
        let output = Command::new(env!("CARGO"))
            // A debug build: the forms are chosen by target features alike, and it
            // builds in a third of the time.
            .args(["test", "-p", "fila-runtime", "--lib", "lanes"])
            .env("RUSTFLAGS", format!("-C target-cpu={cpu}"))
            .env(
                "CARGO_TARGET_DIR",
                root.join("target/lanes-forms").join(cpu),
            )
            .current_dir(root)
            .output()
            .expect("cargo runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success() && stdout.contains("lanes_compute_what_words_do ... ok"),
            "the {form} form of Lanes (target-cpu={cpu}):\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
}
