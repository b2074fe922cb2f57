//! The fila runtime: what every generated solver links against, and what `fila solve`
//! shares with them: the command line, the search driver, the symmetry check and
//! polycube's output formats. It never depends on the generator.
//!
//! The modules form a one-way stack: each uses only modules listed before it (checked by
//! the test `modules_only_use_the_layers_below` here).
//!
//! 1. `fnv`, `rng`, `word`, `lanes`: a hash, a random generator, the occupancy words and
//!    the eight-lane tests of the kernels, in each instruction set's form; `interrupt`:
//!    the signals that stop a run; `text`: words for messages.
//! 2. `info`: what a solver tells the runtime about its puzzle.
//! 3. `options`: the command line.
//! 4. `output`: the solution layout and the statistics per level; `picture`: solutions
//!    drawn as SVG; `gallery`: the page of them (`--html`); `pictures`: where `--svg` and
//!    `--html` send them.
//! 5. `symmetry`: the canonical check.
//! 6. `progress`: the progress display.
//! 7. `plan`: the options resolved against the solver ([`Plan`](plan::Plan),
//!    [`UsageError`]).
//! 8. `search`: the contract with a solver ([`Search`], [`Context`]) and the state of a
//!    run that every thread shares.
//! 9. `fila`: the FILA search written once, which every generated solver instantiates
//!    with its puzzle's tables ([`fila::Solver`], [`fila::Tables`]).
//! 10. `split`: the subtrees, and Knuth's estimates of their sizes.
//! 11. `estimate`: `--estimate`'s measurement.
//! 12. `checkpoint`: the record of the finished subtrees.
//! 13. `report`: the `-i` block, written and read back ([`Summary`],
//!     [`Report`](report::Report)).
//! 14. `merge`: `fila merge`.
//! 15. `driver`: [`run`], one run phase by phase.

pub mod checkpoint;
pub mod driver;
pub mod estimate;
pub mod fila;
pub mod fnv;
pub mod gallery;
pub mod info;
pub mod interrupt;
pub mod lanes;
pub mod merge;
pub mod options;
pub mod output;
pub mod picture;
pub mod pictures;
pub mod plan;
pub mod progress;
pub mod report;
pub mod rng;
pub mod search;
pub mod split;
pub mod symmetry;
pub mod text;
pub mod word;

pub use driver::run;
pub use info::{
    Element, FirstInfo, ImageInfo, Lattice, MirrorRefusal, Order, Pruning, PuzzleInfo, Slot,
    SymmetryInfo,
};
pub use options::{Options, RedundancyFilter, Shard};
pub use plan::UsageError;
pub use report::Summary;
pub use search::{Capabilities, Context, RunShare, Search};

/// The `main` of a generated solver: parses the command line, runs, and exits with
/// status 2 on a usage error.
pub fn main_for(info: PuzzleInfo, search: &mut dyn Search) {
    let options = Options::try_parse_from(std::env::args().collect()).unwrap_or_else(|e| e.exit());
    let mut out = std::io::BufWriter::new(std::io::stdout());
    if let Err(message) = interrupt::install() {
        eprintln!("warning: {message}");
    }
    if let Err(UsageError(message)) = run(&info, search, &options, &mut out) {
        eprintln!("error: {message}");
        std::process::exit(2);
    }
    if let Some(status) = interrupt::exit_status() {
        std::process::exit(status);
    }
}

/// The one-way stack of the module doc, checked on the sources: a module names only
/// modules below it. (Modules name each other by module path, `crate::NAME::…`, not
/// through the re-exports at the root, so that this check sees every dependency.)
#[cfg(test)]
mod layering {
    /// The modules, bottom to top, with their sources.
    const LAYERS: &[(&str, &str)] = &[
        ("fnv", include_str!("fnv.rs")),
        ("rng", include_str!("rng.rs")),
        ("word", include_str!("word.rs")),
        ("lanes", include_str!("lanes.rs")),
        ("interrupt", include_str!("interrupt.rs")),
        ("text", include_str!("text.rs")),
        ("info", include_str!("info.rs")),
        ("options", include_str!("options.rs")),
        ("output", include_str!("output.rs")),
        ("picture", include_str!("picture.rs")),
        ("gallery", include_str!("gallery.rs")),
        ("pictures", include_str!("pictures.rs")),
        ("symmetry", include_str!("symmetry.rs")),
        ("progress", include_str!("progress.rs")),
        ("plan", include_str!("plan.rs")),
        ("search", include_str!("search.rs")),
        // The FILA kernels, a directory: its files together.
        (
            "fila",
            concat!(
                include_str!("fila/mod.rs"),
                include_str!("fila/bits.rs"),
                include_str!("fila/data.rs"),
                include_str!("fila/isa.rs"),
                include_str!("fila/level.rs"),
                include_str!("fila/memo.rs"),
                include_str!("fila/prune.rs"),
                include_str!("fila/search.rs"),
                include_str!("fila/tables.rs"),
            ),
        ),
        ("split", include_str!("split.rs")),
        ("estimate", include_str!("estimate.rs")),
        ("checkpoint", include_str!("checkpoint.rs")),
        ("report", include_str!("report.rs")),
        ("merge", include_str!("merge.rs")),
        ("driver", include_str!("driver.rs")),
    ];

    /// The first path segment after each `crate::` in `source`, and of each item of a
    /// `crate::{…}` group.
    fn crate_paths(source: &str) -> Vec<&str> {
        let ident = |s: &str| -> usize {
            s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        let mut used = Vec::new();
        for (at, _) in source.match_indices("crate::") {
            let rest = &source[at + "crate::".len()..];
            let Some(group) = rest.strip_prefix('{') else {
                used.push(&rest[..ident(rest)]);
                continue;
            };
            // The items end at each comma and at the closing brace of the group's own depth.
            let (mut depth, mut start) = (0, 0);
            for (k, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth > 0 => depth -= 1,
                    ',' if depth > 0 => {}
                    ',' | '}' => {
                        let item = group[start..k].trim_start();
                        if !item.is_empty() {
                            used.push(&item[..ident(item)]);
                        }
                        if c == '}' {
                            break;
                        }
                        start = k + 1;
                    }
                    _ => {}
                }
            }
        }
        used
    }

    #[test]
    fn every_module_is_in_the_stack() {
        let declared: Vec<&str> = include_str!("lib.rs")
            .lines()
            .filter_map(|l| l.strip_prefix("pub mod ")?.strip_suffix(';'))
            .collect();
        let mut listed: Vec<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
        listed.sort_unstable();
        assert_eq!(declared, listed);
    }

    #[test]
    fn every_file_of_the_kernels_is_in_the_stack() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/fila");
        let this = include_str!("lib.rs");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let included = format!("include_str!(\"fila/{name}\")");
            assert!(this.contains(&included), "fila/{name} is not in LAYERS");
        }
    }

    #[test]
    fn modules_only_use_the_layers_below() {
        for (layer, (name, source)) in LAYERS.iter().enumerate() {
            for used in crate_paths(source) {
                if let Some(at) = LAYERS.iter().position(|(n, _)| *n == used) {
                    assert!(
                        at < layer,
                        "{name} uses {used}, which is not below it in the stack"
                    );
                }
            }
        }
    }

    #[test]
    fn the_check_sees_paths_and_groups() {
        let source = "use crate::plan::Plan;\nuse crate::{search::{Context, Search}, split};\n";
        assert_eq!(crate_paths(source), ["plan", "search", "split"]);
    }
}
