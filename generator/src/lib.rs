//! The fila generator: writes a FILA solver specialised for one puzzle, from the model
//! and IR of the `puzzle` crate. This crate holds only what generation adds: the code
//! emitter (tokens, formatted with prettyplease), the stamp, and the options; it is used
//! at build time (`cargo xtask gen`) and by the tests, never by the `fila` executable.
//!
//! The pipeline is `parse` → `model` → `lower` (an IR of image lists per cell), all in
//! the `puzzle` crate, → `emit` (tokens, formatted with prettyplease). Nothing in it does
//! I/O. The puzzle crate's modules are re-exported, so `generator::model` and
//! `puzzle::model` are one module.

pub use puzzle::{diag, dlx, engine, geometry, info, layout, load, lower, model, parse};

use diag::Diagnostic;

pub mod emit;
pub mod explain;
pub mod stamp;

/// The generator's identity, written into every generated file's stamp: its version
/// and the hash of its sources, made by the build script with
/// [`stamp::generator_identity`].
pub const GENERATOR: &str = env!("FILA_GENERATOR");

/// How to generate a solver.
#[derive(Clone, Debug)]
pub struct Config {
    /// The piece the generated solver places first to break the box's symmetry.
    pub redundancy: model::Redundancy,
    /// Use the F heuristic when this many pieces or fewer are left, E before; `None` for
    /// the default of [`lower::default_f_from`].
    pub f_from: Option<usize>,
    /// Build the E stage even when F is used throughout, so that the solver's `--f-from`
    /// can move the switch (what `cargo xtask gen --tune` measures with).
    pub e_stage: bool,
    /// A word at least this many bits wide, even when the box needs less: for measuring
    /// what wider words cost (`--word-bits N`).
    pub word_bits: Option<usize>,
    /// The narrower solvers that a solver for a box wider than 64 cells hands over to
    /// (`--tails none`, `--tails N,M`; automatic by default).
    pub tails: lower::Tails,
    /// The pruning the solver applies by default (`-V`, `-v N`, `-p N`); the backtracks
    /// can be changed at run time, the volume filter cannot (it shapes the image lists).
    pub pruning: runtime::Pruning,
}

impl Config {
    /// The options as `cargo xtask gen` takes them, for the stamp.
    pub fn options(&self) -> String {
        let mut out = match &self.redundancy {
            model::Redundancy::Piece(name) => format!("-r {name}"),
            model::Redundancy::Auto | model::Redundancy::Off => "-r #".to_string(),
        };
        if let Some(n) = self.f_from {
            out.push_str(&format!(" --f-from {n}"));
        }
        if self.e_stage {
            out.push_str(" --e-stage");
        }
        if let Some(n) = self.word_bits {
            out.push_str(&format!(" --word-bits {n}"));
        }
        match &self.tails {
            lower::Tails::Auto => {}
            // No sizes is no tail.
            lower::Tails::Off => out.push_str(" --tails none"),
            lower::Tails::Cells(sizes) if sizes.is_empty() => out.push_str(" --tails none"),
            lower::Tails::Cells(sizes) => {
                let sizes: Vec<String> = sizes.iter().map(|n| n.to_string()).collect();
                out.push_str(&format!(" --tails {}", sizes.join(",")));
            }
        }
        if self.pruning.volume_filter {
            out.push_str(" -V");
        }
        if let Some(n) = self.pruning.volume_backtrack {
            out.push_str(&format!(" -v {n}"));
        }
        if let Some(n) = self.pruning.parity_backtrack {
            out.push_str(&format!(" -p {n}"));
        }
        out
    }

    /// Reads options as `cargo xtask gen` takes them and [`Config::options`] writes them;
    /// `None` when they do not parse.
    pub fn from_options(options: &str) -> Option<Config> {
        let mut words = options.split_whitespace();
        let mut config = Config::default();
        let number = |w: Option<&str>| w.and_then(|n| n.parse::<usize>().ok());
        while let Some(w) = words.next() {
            match w {
                "-r" => match words.next()? {
                    "#" => config.redundancy = model::Redundancy::Auto,
                    name => config.redundancy = model::Redundancy::Piece(name.to_string()),
                },
                "--f-from" => config.f_from = Some(number(words.next())?),
                "--e-stage" => config.e_stage = true,
                "--word-bits" => config.word_bits = Some(number(words.next())?),
                "--tails" => config.tails = lower::Tails::parse(words.next()?)?,
                "-V" => config.pruning.volume_filter = true,
                "-v" => config.pruning.volume_backtrack = Some(number(words.next())?),
                "-p" => config.pruning.parity_backtrack = Some(number(words.next())?),
                _ => return None,
            }
        }
        Some(config)
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            redundancy: model::Redundancy::Auto,
            f_from: None,
            e_stage: false,
            word_bits: None,
            tails: lower::Tails::Auto,
            pruning: runtime::Pruning::default(),
        }
    }
}

/// A generated solver: the file `generated/NAME.rs`, and the tables it includes as bytes
/// from `generated/NAME/` (see [`emit::DataFile`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The whole Rust file, stamp included.
    pub code: String,
    /// The files of bytes, with paths relative to the Rust file's directory.
    pub data: Vec<emit::DataFile>,
}

impl Generated {
    /// Writes the Rust file as `dir/NAME.rs` and its tables beside it, removing tables of
    /// an earlier generation that are no longer written.
    pub fn write(&self, dir: &std::path::Path, name: &str) -> std::io::Result<()> {
        let tables = dir.join(name);
        if tables.is_dir() {
            std::fs::remove_dir_all(&tables)?;
        }
        for file in &self.data {
            let path = dir.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, &file.bytes)?;
        }
        std::fs::write(dir.join(format!("{name}.rs")), &self.code)
    }
}

impl Generated {
    /// Moves the tables to the directory `dir` (relative to the Rust file), for a crate
    /// that holds several solvers generated from files of one name.
    pub fn relocate(&mut self, dir: &str) {
        for file in &mut self.data {
            let Some((old, rest)) = file.path.split_once('/') else {
                continue;
            };
            self.code = self.code.replace(
                &format!("include_bytes!(\"{old}/"),
                &format!("include_bytes!(\"{dir}/"),
            );
            file.path = format!("{dir}/{rest}");
        }
    }
}

/// The name of a generated solver: the stem of its puzzle file.
pub fn solver_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("puzzle")
        .to_string()
}

/// Generates the solver for the one puzzle in `text`, read from `path` (as the user
/// names it, for diagnostics and the stamp; its stem names the solver).
pub fn generate(path: &str, text: &str, config: &Config) -> Result<Generated, Vec<Diagnostic>> {
    let Lowered { puzzle, info, ir } = prepare(path, text, config)?;
    let description = format!(
        "A FILA solver for {path}: {} cells, {} pieces of {} shapes, {} images; {} placed first.",
        ir.cells,
        puzzle.mobile_pieces(),
        puzzle.shapes.len(),
        puzzle.images.len(),
        info.rotations.filtered.what,
    );
    let emitted = emit::emit(&ir, &info, &solver_name(path), &description);
    // The tables are named in the hash as they are in their directory.
    let tables = stamp::tables_hash(emitted.data.iter().map(|f| {
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        (name, f.bytes.as_slice())
    }));
    let mut code = stamp::header(path, text, GENERATOR, &config.options(), tables);
    code.push('\n');
    code.push_str(&emitted.code);
    Ok(Generated {
        code,
        data: emitted.data,
    })
}

/// What `cargo xtask gen --explain` prints: for each cell in fill order, its coordinates,
/// the cells its image list set is chosen by, and each set's images by piece.
pub fn explain(path: &str, text: &str, config: &Config) -> Result<String, Vec<Diagnostic>> {
    let Lowered { puzzle, ir, .. } = prepare(path, text, config)?;
    Ok(explain::explain(path, &puzzle, &ir))
}

/// A puzzle read, modelled and lowered as `config` asks.
struct Lowered {
    puzzle: model::Puzzle,
    info: runtime::PuzzleInfo,
    ir: lower::Ir,
}

fn prepare(path: &str, text: &str, config: &Config) -> Result<Lowered, Vec<Diagnostic>> {
    let mut puzzles = load(path, text)?;
    let count = puzzles.len();
    if count != 1 {
        return Err(vec![Diagnostic::new(
            path,
            1,
            1,
            format!("a generated solver is for one puzzle, and this file holds {count}"),
        )]);
    }
    let mut puzzle = puzzles.remove(0);
    let at_d = |message: String| vec![Diagnostic::new(path, puzzle_line(text), 1, message)];
    // The volume and parity filters shape the images: before anything is made from them.
    if config.pruning.volume_filter {
        puzzle.volume_filter();
    }
    puzzle.parity_filter();
    let mut info = info::puzzle_info(&puzzle, &config.redundancy, "generated FILA solver")
        .map_err(|e| at_d(e.0))?;
    info.pruning = config.pruning;
    let ir = lower::lower(
        &puzzle,
        &lower::Options {
            f_from: config
                .f_from
                .unwrap_or_else(|| lower::default_f_from(&puzzle)),
            e_stage: config.e_stage,
            word_bits: config.word_bits.unwrap_or(0),
            tails: config.tails.clone(),
            flat: false,
        },
    )
    .map_err(|e| at_d(e.0))?;
    info.order = Some(runtime::Order {
        f_from: ir.f_from,
        e_stage: ir.e_stage.is_some(),
    });
    Ok(Lowered { puzzle, info, ir })
}

/// The line of the first `D` directive, where puzzle-wide problems are reported.
fn puzzle_line(text: &str) -> usize {
    text.lines()
        .position(|l| l.trim_start().starts_with("D:"))
        .map_or(1, |i| i + 1)
}

/// Like [`generate`], but a definition with errors still yields a Rust file: one
/// `compile_error!` per diagnostic, so that building it fails with messages naming
/// `file:line:col`. Used where code is expected whatever the input.
pub fn generate_or_error(path: &str, text: &str, config: &Config) -> Generated {
    match generate(path, text, config) {
        Ok(generated) => generated,
        Err(diagnostics) => {
            let errors = diagnostics.iter().map(|d| {
                let message = d.to_string();
                quote::quote! { compile_error!(#message); }
            });
            // A `main` keeps the compiler's report to the puzzle's own errors when the
            // file is built as an executable.
            let file: syn::File = syn::parse2(quote::quote! {
                #(#errors)*
                /// This puzzle has errors; see above.
                pub fn main() {}
            })
            .expect("valid tokens");
            let tables = stamp::tables_hash([]);
            let mut code = stamp::header(path, text, GENERATOR, &config.options(), tables);
            code.push('\n');
            code.push_str(&prettyplease::unparse(&file));
            Generated {
                code,
                data: Vec::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lower::Tails;

    #[test]
    fn options_read_back_what_they_write() {
        for options in [
            "-r #",
            "-r X --f-from 18 -V",
            "-r L --f-from 3 --e-stage --word-bits 128 --tails none -v 2 -p 4",
            "-r # --word-bits 192 --tails 100,40",
        ] {
            let config = Config::from_options(options).unwrap();
            assert_eq!(config.options(), options);
        }
        // No sizes is no tail, and is written so.
        let none = Config {
            tails: Tails::Cells(Vec::new()),
            ..Config::default()
        };
        assert_eq!(none.options(), "-r # --tails none");
        assert_eq!(
            Config::from_options(&none.options()).unwrap().tails,
            Tails::Off
        );
        assert_eq!(Tails::parse("none"), Some(Tails::Off));
        assert_eq!(Tails::parse("64"), Some(Tails::Cells(vec![64])));
        for bad in ["", "x", "3,", ",3", "3,,4", "-1"] {
            assert_eq!(Tails::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_tail_must_be_narrower_and_smaller_than_its_box() {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../puzzles/pentomino_10x6.txt"),
        )
        .unwrap();
        let with = |word_bits, tails: Vec<usize>| Config {
            word_bits: Some(word_bits),
            tails: Tails::Cells(tails),
            ..Config::default()
        };
        // 60 cells in a 128-bit word: a 64-bit tail of 30 cells is fine, of 60 or more
        // cells it is the whole box, and a 128-bit word is no narrower.
        assert!(generate("p.txt", &text, &with(128, vec![30])).is_ok());
        for (bits, tails) in [
            (128, vec![60]),
            (128, vec![0]),
            (192, vec![40, 30]),
            (64, vec![30]),
        ] {
            let err = generate("p.txt", &text, &with(bits, tails.clone())).unwrap_err();
            assert!(
                err[0].to_string().contains("a tail of"),
                "{bits} {tails:?}: {}",
                err[0]
            );
        }
        // Automatic tails leave a box that a narrower word holds whole alone.
        let auto = Config {
            word_bits: Some(128),
            ..Config::default()
        };
        let generated = generate("p.txt", &text, &auto).unwrap();
        assert!(!generated.code.contains("mod tail"));
    }
}
