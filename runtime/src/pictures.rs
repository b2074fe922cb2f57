//! Where a run's pictures go: `--svg` (one file per solution in a directory, or every
//! solution in one file) and `--html` (the gallery).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use svg::node::element::Title;
use svg::Document;

use crate::gallery;
use crate::info::PuzzleInfo;
use crate::picture::{px, Picture};

/// Where `--svg` and `--html` put the pictures of a run's solutions. `--svg FILE.svg`
/// holds every solution one below the other, and the gallery every solution on one page:
/// both are written when the run ends. `--svg DIR` holds one file per solution,
/// `NAME_NNNNNN.svg`, written as they are found.
pub struct Pictures<'a> {
    picture: Picture<'a>,
    svg: Option<Target>,
    html: Option<PathBuf>,
    /// The solutions kept for the files written at the end: each its number and owners.
    kept: Vec<(u64, Vec<u16>)>,
}

enum Target {
    Directory(PathBuf),
    File(PathBuf),
}

/// Creates `path` now, so that a path that cannot be written fails before the search.
fn create(path: &Path) -> Result<PathBuf, String> {
    std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path.to_path_buf())
}

impl<'a> Pictures<'a> {
    /// Pictures of `info`'s solutions: to `svg` and `html` where given (`None` when
    /// neither is). Directories and files are made now, so that a path that cannot be
    /// written fails before the search.
    pub fn new(
        info: &'a PuzzleInfo,
        svg: Option<&Path>,
        html: Option<&Path>,
        labels: bool,
    ) -> Result<Option<Pictures<'a>>, String> {
        if svg.is_none() && html.is_none() {
            return Ok(None);
        }
        let svg = match svg {
            Some(path) if is_one_file(path) => Some(Target::File(create(path)?)),
            Some(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot make the directory {}: {e}", dir.display()))?;
                Some(Target::Directory(dir.to_path_buf()))
            }
            None => None,
        };
        let html = html.map(create).transpose()?;
        let mut picture = Picture::new(info);
        picture.labels = labels;
        Ok(Some(Pictures {
            picture,
            svg,
            html,
            kept: Vec::new(),
        }))
    }

    /// The title of solution n.
    fn title(&self, n: u64) -> String {
        format!("{} solution {n}", self.picture.info().name)
    }

    /// Takes solution `n`, whose owners are `owners`.
    pub fn add(&mut self, n: u64, owners: Vec<u16>) -> Result<(), String> {
        if let Some(Target::Directory(dir)) = &self.svg {
            let name = format!("{}_{n:06}.svg", file_stem(&self.picture.info().name));
            let path = dir.join(name);
            let doc = self.picture.document(&owners, &self.title(n));
            svg::save(&path, &doc).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if matches!(self.svg, Some(Target::File(_))) || self.html.is_some() {
            self.kept.push((n, owners));
        }
        Ok(())
    }

    /// Writes what is still to be written: the file of every solution, and the gallery
    /// headed by `counts`.
    pub fn finish(self, counts: &str) -> Result<(), String> {
        if let Some(Target::File(path)) = &self.svg {
            let (w, h) = self.picture.framed_size();
            let total = h * self.kept.len() as f64;
            let (w, total) = (px(w), px(total));
            let mut doc = Document::new()
                .set("width", w)
                .set("height", total)
                .set("viewBox", (0.0, 0.0, w, total))
                .add(Title::new(format!(
                    "{}: {} solutions",
                    self.picture.info().name,
                    self.kept.len()
                )));
            for (k, (n, owners)) in self.kept.iter().enumerate() {
                let one = self.picture.framed(owners, &self.title(*n));
                doc = doc.add(one.set("transform", format!("translate(0 {})", px(h * k as f64))));
            }
            write_file(path, |out| write!(out, "{doc}"))?;
        }
        if let Some(path) = &self.html {
            let page = gallery::page(&self.picture, counts, &self.kept);
            write_file(path, |out| out.write_all(page.as_bytes()))?;
        }
        Ok(())
    }
}

fn write_file(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), String> {
    let mut out = std::io::BufWriter::new(
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?,
    );
    write(&mut out)
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Whether `--svg` names one file for every solution (a name ending in `.svg`) rather
/// than a directory.
pub fn is_one_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"))
}

/// A puzzle's name as part of a file name: letters, digits, `-` and `_` kept, anything
/// else `_`.
pub fn file_stem(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "puzzle".to_string()
    } else {
        s
    }
}
