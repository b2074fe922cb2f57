//! `cargo xtask bench`: not written yet.

pub fn main(_args: &[String]) -> std::process::ExitCode {
    eprintln!("cargo xtask bench: not available yet");
    std::process::ExitCode::from(2)
}
