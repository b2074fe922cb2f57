//! Where a run's pictures go: `--svg` (one file per solution in a directory, or every
//! solution in one file) and `--html` (the gallery).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use svg::node::element::Title;
use svg::Document;

use crate::gallery;
use crate::info::PuzzleInfo;
use crate::options::Shard;
use crate::picture::{px, Picture};
use crate::text;

/// Where `--svg` and `--html` put the pictures of a run's solutions. `--svg FILE.svg`
/// holds every solution one below the other, and the gallery every solution on one page:
/// both are written when the run ends. `--svg DIR` holds one file per solution,
/// `STEM_NNNNNN.svg` (see [`stem`]), written as they are found.
pub struct Pictures<'a> {
    picture: Picture<'a>,
    svg: Option<Target>,
    html: Option<PathBuf>,
    /// The solutions kept for the files written at the end: each its number and owners.
    kept: Vec<(u64, Vec<u16>)>,
    /// The solutions found before this run (a resumed run's), which it does not draw.
    counted: u64,
}

enum Target {
    /// The directory and the stem of the pictures' names.
    Directory(PathBuf, String),
    File(PathBuf),
}

/// Creates `path` now, so that a path that cannot be written fails before the search.
fn create(path: &Path) -> Result<PathBuf, String> {
    std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path.to_path_buf())
}

impl<'a> Pictures<'a> {
    /// Pictures of `info`'s solutions: to `svg` and `html` where given (`None` when
    /// neither is), named in `--svg DIR` by `stem`. Directories and files are made now,
    /// so that a path that cannot be written fails before the search; `counted`
    /// solutions were found before this run (a resumed run's), and pictures of a run
    /// before it numbered past those are removed from the directory now, so that it
    /// holds this run's alone.
    pub fn new(
        info: &'a PuzzleInfo,
        stem: String,
        counted: u64,
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
                remove_earlier(dir, &stem, counted)?;
                Some(Target::Directory(dir.to_path_buf(), stem))
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
            counted,
        }))
    }

    /// The heading of the file of every solution and of the gallery: the puzzle and how
    /// many solutions they hold, and in a resumed run that those found before it are not
    /// among them.
    fn heading(&self) -> String {
        let drawn = text::count(self.kept.len() as u64, "solution");
        let name = &self.picture.info().name;
        match self.counted {
            0 => format!("{name}: {drawn}"),
            before => format!(
                "{name}: {drawn}, those found after the first {before} (a resumed run draws \
                 only its own)"
            ),
        }
    }

    /// The title of solution n.
    fn title(&self, n: u64) -> String {
        format!("{} solution {n}", self.picture.info().name)
    }

    /// Takes solution `n`, whose owners are `owners`.
    pub fn add(&mut self, n: u64, owners: Vec<u16>) -> Result<(), String> {
        if let Some(Target::Directory(dir, stem)) = &self.svg {
            let path = dir.join(format!("{stem}_{n:06}.svg"));
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
                .add(Title::new(self.heading()));
            for (k, (n, owners)) in self.kept.iter().enumerate() {
                let one = self.picture.framed(owners, &self.title(*n));
                doc = doc.add(one.set("transform", format!("translate(0 {})", px(h * k as f64))));
            }
            write_file(path, |out| write!(out, "{doc}"))?;
        }
        if let Some(path) = &self.html {
            let page = gallery::page(&self.picture, &self.heading(), counts, &self.kept);
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

/// The stem of the names of a run's pictures in `--svg DIR` (`STEM_000001.svg`, ...):
/// the puzzle's name as part of a file name (`file_stem`), and in a run of one shard
/// its shard (`soma_2of3`), since every shard numbers its solutions from 1.
pub fn stem(name: &str, shard: Option<Shard>) -> String {
    let stem = file_stem(name);
    match shard {
        Some(s) => format!("{stem}_{}of{}", s.index, s.count),
        None => stem,
    }
}

/// A puzzle's name as part of a file name: letters, digits, `-` and `_` kept, each run
/// of other characters one `_`, none at either end (`<stdin>.2` is `stdin_2`).
fn file_stem(name: &str) -> String {
    let mut s = String::new();
    let mut replaced = false;
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            if replaced && !s.is_empty() {
                s.push('_');
            }
            s.push(c);
            replaced = false;
        } else {
            replaced = true;
        }
    }
    if s.is_empty() {
        "puzzle".to_string()
    } else {
        s
    }
}

/// Removes from `dir` the pictures `STEM_NNNNNN.svg` numbered past `counted`: those of
/// an earlier run that found more, or of a killed run past its checkpoint.
fn remove_earlier(dir: &Path, stem: &str, counted: u64) -> Result<(), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the directory {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let number = (name.to_str())
            .and_then(|n| n.strip_prefix(stem))
            .and_then(|n| n.strip_prefix('_'))
            .and_then(|n| n.strip_suffix(".svg"))
            .filter(|n| n.len() >= 6 && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<u64>().ok());
        if number.is_some_and(|n| n > counted) && entry.file_type().is_ok_and(|t| t.is_file()) {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|e| {
                format!("cannot remove the earlier picture {}: {e}", path.display())
            })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_becomes_a_stem_of_letters_digits_and_single_underscores() {
        for (name, stem) in [
            ("soma", "soma"),
            ("soma.2", "soma_2"),
            ("<stdin>", "stdin"),
            ("<stdin>.3", "stdin_3"),
            ("my puzzle (v2)", "my_puzzle_v2"),
            ("__kept_as__written-", "__kept_as__written-"),
            ("ÄÖ", "puzzle"),
            ("", "puzzle"),
        ] {
            assert_eq!(file_stem(name), stem, "{name:?}");
        }
        let shard = Shard { index: 2, count: 3 };
        assert_eq!(stem("soma.2", Some(shard)), "soma_2_2of3");
        assert_eq!(stem("soma", None), "soma");
    }

    #[test]
    fn only_the_stems_pictures_past_those_counted_are_removed() {
        let dir = std::env::temp_dir().join(format!("fila-remove-earlier-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        // A directory of a picture's name is no picture.
        std::fs::create_dir_all(dir.join("soma_000009.svg")).unwrap();
        let files = [
            "soma_000001.svg",
            "soma_000002.svg",
            "soma_000003.svg",
            "soma_1234567.svg",
            "soma_2_000003.svg",
            "soma_00003.svg",
            "soma_000003.svg.bak",
            "other_000003.svg",
        ];
        for f in files {
            std::fs::write(dir.join(f), "").unwrap();
        }
        remove_earlier(&dir, "soma", 2).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        left.sort_unstable();
        let kept = [
            "other_000003.svg",
            "soma_000001.svg",
            "soma_000002.svg",
            "soma_000003.svg.bak",
            "soma_000009.svg",
            "soma_00003.svg",
            "soma_2_000003.svg",
        ];
        assert_eq!(left, kept);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
