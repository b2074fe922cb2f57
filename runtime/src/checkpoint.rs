//! Checkpoints: which subtrees of a run are finished, and what they added up to, in a
//! small text file that is replaced atomically (written beside, then renamed), so that a
//! run killed at any moment leaves either the previous record or the new one.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::fnv::Fnv1a64;
use crate::info::{Pruning, PuzzleInfo};
use crate::options::Options;
use crate::output::Stats;
use crate::plan::Plan;
use crate::split::Subtree;

const MAGIC: &str = "# fila checkpoint";

/// The record of one run.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    path: PathBuf,
    /// What a resumed run must agree on: `KEY=VALUE` lines.
    identity: Vec<(String, String)>,
    /// Finished subtrees, by index.
    pub done: Vec<usize>,
    pub solutions: u64,
    pub unique: u64,
    pub stats: Stats,
    resumed: bool,
}

/// FNV-1a over the subtrees' prefixes: two runs with the same fingerprint split the
/// search identically.
fn fingerprint(subtrees: &[Subtree]) -> u64 {
    let mut hash = Fnv1a64::new();
    for s in subtrees {
        hash.write_u64(s.entry as u64);
        hash.write_u64(s.prefix.len() as u64);
        for &i in &s.prefix {
            hash.write_u64(u64::from(i));
        }
    }
    hash.finish()
}

/// `0-15,17,20-30`.
fn ranges(done: &[usize]) -> String {
    let mut out = String::new();
    let mut k = 0;
    while k < done.len() {
        let start = done[k];
        let mut end = start;
        while k + 1 < done.len() && done[k + 1] == end + 1 {
            k += 1;
            end += 1;
        }
        if !out.is_empty() {
            out.push(',');
        }
        if start == end {
            let _ = write!(out, "{start}");
        } else {
            let _ = write!(out, "{start}-{end}");
        }
        k += 1;
    }
    out
}

fn parse_ranges(text: &str, limit: usize) -> Option<Vec<usize>> {
    let mut out: Vec<usize> = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let a = part.parse().ok()?;
                (a, a)
            }
        };
        if a > b || b >= limit || out.last().is_some_and(|&l| l >= a) {
            return None;
        }
        out.extend(a..=b);
    }
    Some(out)
}

/// The value of `key` in a checkpoint, as this version writes it: checkpoints written
/// before wrote the backtracks as Rust spells an option (`None`, `Some(2)`), where they
/// are now written as `-i` writes them (`off`, `2`), and still resume.
fn as_written_now<'a>(key: &str, value: &'a str) -> &'a str {
    if !key.ends_with("_BACKTRACK") {
        return value;
    }
    match value {
        "None" => "off",
        _ => value
            .strip_prefix("Some(")
            .and_then(|n| n.strip_suffix(')'))
            .unwrap_or(value),
    }
}

/// Lines added to the identity since the first checkpoints, with the value a file
/// written before them means: those files still resume.
const ADDED: &[(&str, &str)] = &[("GOAL", "0")];

fn numbers(text: &str) -> Option<Vec<u64>> {
    text.split_whitespace().map(|n| n.parse().ok()).collect()
}

impl Checkpoint {
    /// An empty record for a run of `info` under `plan` and `options`, split into `subtrees`.
    pub fn new(
        path: &Path,
        info: &PuzzleInfo,
        plan: &Plan<'_>,
        options: &Options,
        subtrees: &[Subtree],
    ) -> Checkpoint {
        let shard = options
            .shard
            .map_or_else(|| "1/1".to_string(), |s| s.to_string());
        let identity = vec![
            ("PUZZLE", info.name.clone()),
            ("ENGINE", info.engine.clone()),
            ("SYMMETRY", plan.symmetry_name.to_string()),
            ("REDUNDANCY_FILTER", plan.first.filter.clone()),
            ("UNIQUE_ONLY", options.unique.to_string()),
            (
                "VOLUME_BACKTRACK",
                Pruning::threshold(plan.pruning.volume_backtrack),
            ),
            (
                "PARITY_BACKTRACK",
                Pruning::threshold(plan.pruning.parity_backtrack),
            ),
            ("F_FROM", plan.f_from.to_string()),
            ("GOAL", plan.goal.to_string()),
            ("SHARD", shard),
            ("SUBTREES", subtrees.len().to_string()),
            ("FINGERPRINT", format!("{:016x}", fingerprint(subtrees))),
        ];
        Checkpoint {
            path: path.to_path_buf(),
            identity: identity
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
            done: Vec::new(),
            solutions: 0,
            unique: 0,
            stats: Stats::new(info.pieces_to_place()),
            resumed: false,
        }
    }

    /// Whether this record was read from a file.
    pub fn resumed(&self) -> bool {
        self.resumed
    }

    /// Reads the record at `from` for the run `fresh` describes (which keeps its own path,
    /// where it will be written).
    pub fn resume(from: &Path, fresh: Checkpoint) -> Result<Checkpoint, String> {
        let name = from.display().to_string();
        let text = std::fs::read_to_string(from)
            .map_err(|e| format!("--resume {name}: cannot read it: {e}"))?;
        Checkpoint::read(&name, &text, fresh)
    }

    /// Reads the record `text` (the file `name`) for the run `fresh` describes.
    pub fn read(name: &str, text: &str, fresh: Checkpoint) -> Result<Checkpoint, String> {
        let mut lines = text.lines().enumerate();
        if !lines.next().is_some_and(|(_, l)| l.starts_with(MAGIC)) {
            return Err(format!("{name}:1: not a fila checkpoint"));
        }
        // A checkpoint is written whole (to FILE.tmp, then renamed), ending in a newline.
        if !text.ends_with('\n') {
            return Err(format!(
                "{name}:{}: the checkpoint ends in the middle of a line: it was cut short",
                text.lines().count()
            ));
        }
        let mut values: Vec<(usize, &str, &str)> = Vec::new();
        for (n, line) in lines {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((k, v)) = line.split_once('=') else {
                return Err(format!("{name}:{}: expected KEY=VALUE", n + 1));
            };
            values.push((n + 1, k, v));
        }
        let get = |key: &str| -> Result<(usize, &str), String> {
            (values.iter())
                .find(|(_, k, _)| *k == key)
                .map(|&(n, _, v)| (n, v))
                .ok_or_else(|| format!("{name}: the checkpoint has no {key}= line"))
        };
        for (key, want) in &fresh.identity {
            let (at, have) = match get(key) {
                Ok((n, have)) => (format!("{name}:{n}: "), as_written_now(key, have)),
                Err(missing) => match ADDED.iter().find(|(k, _)| k == key) {
                    // Written before the line was: read as its value then.
                    Some(&(_, then)) => (
                        format!("{name}: no {key}= line (written before checkpoints had one), so "),
                        then,
                    ),
                    None => return Err(missing),
                },
            };
            if have != want {
                return Err(format!(
                    "{at}the checkpoint is of another run ({key}={have}, this run has {key}={want})"
                ));
            }
        }
        let subtrees: usize = fresh
            .identity
            .iter()
            .find(|(k, _)| k == "SUBTREES")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(0);
        let bad = |key: &str| -> String {
            let n = get(key).map_or(0, |(n, _)| n);
            format!("{name}:{n}: malformed {key}= line")
        };
        let done = parse_ranges(get("DONE")?.1, subtrees).ok_or_else(|| bad("DONE"))?;
        let solutions = get("SOLUTIONS")?.1.parse().map_err(|_| bad("SOLUTIONS"))?;
        let unique = get("UNIQUE")?.1.parse().map_err(|_| bad("UNIQUE"))?;
        let pieces = fresh.stats.attempts.len();
        let attempts = numbers(get("ATTEMPTS")?.1)
            .filter(|v| v.len() == pieces)
            .ok_or_else(|| bad("ATTEMPTS"))?;
        let fits = numbers(get("FITS")?.1)
            .filter(|v| v.len() == pieces)
            .ok_or_else(|| bad("FITS"))?;
        Ok(Checkpoint {
            done,
            solutions,
            unique,
            stats: Stats { attempts, fits },
            resumed: true,
            ..fresh
        })
    }

    /// Takes the present state of the run.
    pub fn record(&mut self, done: &[bool], solutions: u64, unique: u64, stats: &Stats) {
        self.done = (0..done.len()).filter(|&k| done[k]).collect();
        self.solutions = solutions;
        self.unique = unique;
        self.stats = stats.clone();
    }

    /// The file's text.
    pub fn text(&self) -> String {
        let mut out =
            format!("{MAGIC}: the finished subtrees of one run; go on with --resume FILE\n");
        for (k, v) in &self.identity {
            let _ = writeln!(out, "{k}={v}");
        }
        let join = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(" ");
        let _ = writeln!(out, "DONE={}", ranges(&self.done));
        let _ = writeln!(out, "SOLUTIONS={}", self.solutions);
        let _ = writeln!(out, "UNIQUE={}", self.unique);
        let _ = writeln!(out, "ATTEMPTS={}", join(&self.stats.attempts));
        let _ = writeln!(out, "FITS={}", join(&self.stats.fits));
        out
    }

    /// Replaces the file: the new text goes to `FILE.tmp`, is synced, then renamed over
    /// `FILE`.
    pub fn write(&self) -> Result<(), String> {
        use std::io::Write;
        let tmp = self.tmp();
        let fail = |e| self.cannot(e);
        let mut file = std::fs::File::create(&tmp).map_err(fail)?;
        file.write_all(self.text().as_bytes()).map_err(fail)?;
        file.sync_all().map_err(fail)?;
        drop(file);
        std::fs::rename(&tmp, &self.path).map_err(fail)
    }

    /// Checks, before the search, that [`Checkpoint::write`] can make its `FILE.tmp` (and
    /// removes it, renaming nothing), and that `FILE` is a file it may rename over: a run
    /// whose record could never be written is refused at once rather than warned of only
    /// when its first write is due, and a directory or a device (`/dev/null`) is never
    /// replaced by a file.
    pub fn check_writable(&self) -> Result<(), String> {
        if let Ok(meta) = std::fs::metadata(&self.path) {
            if !meta.is_file() {
                return Err(format!(
                    "cannot write the checkpoint {}: it is not a regular file (a \
                     checkpoint is written anew and renamed over FILE)",
                    self.path.display()
                ));
            }
            if meta.len() > 0 && !Self::holds_a_checkpoint(&self.path) {
                return Err(format!(
                    "cannot write the checkpoint {}: the file is there and holds no \
                     checkpoint, and would be replaced (name another file, or remove it)",
                    self.path.display()
                ));
            }
        }
        let tmp = self.tmp();
        std::fs::File::create(&tmp).map_err(|e| self.cannot(e))?;
        std::fs::remove_file(&tmp).map_err(|e| self.cannot(e))
    }

    /// Whether the file at `path` begins as a checkpoint does (an earlier run's, which a
    /// run may replace); an unreadable one counts as none.
    fn holds_a_checkpoint(path: &std::path::Path) -> bool {
        use std::io::Read;
        let mut start = [0u8; MAGIC.len()];
        std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut start))
            .is_ok_and(|()| start == *MAGIC.as_bytes())
    }

    /// `FILE.tmp`, where a write goes before it replaces `FILE`.
    fn tmp(&self) -> PathBuf {
        let mut tmp = self.path.as_os_str().to_owned();
        tmp.push(".tmp");
        PathBuf::from(tmp)
    }

    fn cannot(&self, e: std::io::Error) -> String {
        format!("cannot write the checkpoint {}: {e}", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backtracks_read_in_either_spelling() {
        for (written, now) in [("None", "off"), ("Some(0)", "0"), ("Some(12)", "12")] {
            assert_eq!(as_written_now("VOLUME_BACKTRACK", written), now);
            assert_eq!(as_written_now("PARITY_BACKTRACK", written), now);
            assert_eq!(as_written_now("VOLUME_BACKTRACK", now), now);
        }
        assert_eq!(as_written_now("PUZZLE", "None"), "None");
        assert_eq!(as_written_now("PUZZLE", "Some(1)"), "Some(1)");
    }

    /// A checkpoint written before GOAL= was recorded resumes as a run without a goal,
    /// and a run with one is told why it does not.
    #[test]
    fn a_checkpoint_without_a_goal_line_has_none() {
        let fresh = |goal: &str| Checkpoint {
            path: PathBuf::from("c"),
            identity: [("PUZZLE", "x"), ("GOAL", goal), ("SUBTREES", "2")]
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .to_vec(),
            done: Vec::new(),
            solutions: 0,
            unique: 0,
            stats: Stats::new(1),
            resumed: false,
        };
        let old = format!(
            "{MAGIC}\nPUZZLE=x\nSUBTREES=2\nDONE=1\nSOLUTIONS=4\nUNIQUE=4\nATTEMPTS=0 9\nFITS=0 8\n"
        );
        let resumed = Checkpoint::read("c", &old, fresh("0")).unwrap();
        assert_eq!((resumed.done, resumed.solutions), (vec![1], 4));
        assert_eq!(
            Checkpoint::read("c", &old, fresh("3")).unwrap_err(),
            "c: no GOAL= line (written before checkpoints had one), so the checkpoint is of \
             another run (GOAL=0, this run has GOAL=3)"
        );
        let without_puzzle = old.replace("PUZZLE=x\n", "");
        assert_eq!(
            Checkpoint::read("c", &without_puzzle, fresh("0")).unwrap_err(),
            "c: the checkpoint has no PUZZLE= line"
        );
    }

    #[test]
    fn ranges_round_trip() {
        for done in [vec![], vec![0], vec![0, 1, 2, 5, 7, 8, 9], vec![3, 10, 11]] {
            let text = ranges(&done);
            assert_eq!(parse_ranges(&text, 12), Some(done), "{text}");
        }
        assert_eq!(ranges(&[0, 1, 2, 5, 7, 8, 9]), "0-2,5,7-9");
        assert_eq!(parse_ranges("0-12", 12), None);
        assert_eq!(parse_ranges("5,3", 12), None);
        assert_eq!(parse_ranges("x", 12), None);
    }
}
