//! The command line shared by `fila solve` and every generated solver, with polycube's
//! spellings accepted so that scripts written for polycube keep working.

use clap::{ArgAction, Args};

fn parse_flag(value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "" | "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => Err(format!("expected true or false, 1 or 0, not '{value}'")),
    }
}

/// The search and output options.
#[derive(Args, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Do not list the solutions
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub quiet: bool,

    /// Print KEY=VALUE statistics (SOLUTIONS=, UNIQUE=, ATTEMPTS_TOTAL=, FITS_TOTAL=, ...)
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub info: bool,

    /// Redundancy filter: a piece name to constrain, `#` to choose one, `.` for every solution
    #[arg(
        short = 'r',
        long = "redundancy-filter",
        alias = "redundancyFilter",
        value_name = "PIECE|#|.",
        default_value = "#"
    )]
    pub redundancy: String,

    /// Also identify mirror images (when the piece set is closed under mirroring)
    #[arg(long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub mirror: bool,

    /// Report only solutions distinct up to symmetry (a post-filter; needed only with -r .)
    #[arg(short, long, action = ArgAction::Set, num_args = 0..=1, require_equals = true,
          default_value = "false", default_missing_value = "true", value_parser = parse_flag)]
    pub unique: bool,

    /// Stop after this many solutions
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,

    /// polycube options that tune its own algorithms; accepted and ignored
    #[arg(short = 'm', short_alias = 'b', short_aliases = ['e'], long = "polycube-switch", hide = true,
          value_name = "N", action = ArgAction::Append)]
    pub polycube_switch: Vec<String>,

    /// polycube filter and heuristic flags (-V, -p, -P, -F, -R, -o, -n); accepted and ignored
    #[arg(short = 'V', short_aliases = ['p', 'P', 'F', 'R', 'n'], long = "polycube-flag", hide = true,
          action = ArgAction::Count)]
    pub polycube_flag: u8,
}

/// Rewrites polycube-style arguments into the forms clap reads: `-r` with no value (or
/// followed by an existing file) means `-r #`, and a lone `-r NAME` stays as it is.
pub fn normalize_args(args: Vec<String>) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 1);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "-r" || a == "--redundancyFilter" || a == "--redundancy-filter" {
            let next = args.get(i + 1);
            let takes_next =
                next.is_some_and(|n| !n.starts_with('-') && !std::path::Path::new(n).is_file());
            out.push(a.clone());
            if takes_next {
                out.push(args[i + 1].clone());
                i += 2;
            } else {
                out.push("#".to_string());
                i += 1;
            }
            continue;
        }
        out.push(a.clone());
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    struct Cli {
        #[command(flatten)]
        options: Options,
        files: Vec<String>,
    }

    fn parse(args: &[&str]) -> Cli {
        let mut v = vec!["prog".to_string()];
        v.extend(args.iter().map(|s| s.to_string()));
        Cli::try_parse_from(normalize_args(v)).unwrap()
    }

    #[test]
    fn polycube_spellings() {
        let c = parse(&[
            "--quiet=true",
            "--info=1",
            "--unique=1",
            "--redundancyFilter=#",
            "a.txt",
        ]);
        assert!(c.options.quiet && c.options.info && c.options.unique);
        assert_eq!(c.options.redundancy, "#");
        assert_eq!(c.files, ["a.txt"]);
        let c = parse(&[
            "-q", "-i", "-r", "L", "-m", "11", "-e", "6", "-b", "4", "x.txt",
        ]);
        assert!(c.options.quiet && c.options.info);
        assert_eq!(c.options.redundancy, "L");
        assert_eq!(c.files, ["x.txt"]);
        let c = parse(&["-qi", "-r."]);
        assert!(c.options.quiet && c.options.info);
        assert_eq!(c.options.redundancy, ".");
        let c = parse(&["--quiet=false", "-rX", "-V"]);
        assert!(!c.options.quiet);
        assert_eq!(c.options.redundancy, "X");
    }

    #[test]
    fn bare_r_before_a_file_means_auto() {
        let c = parse(&["-r", "Cargo.toml"]);
        assert_eq!(c.options.redundancy, "#");
        assert_eq!(c.files, ["Cargo.toml"]);
    }
}
