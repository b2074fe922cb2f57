//! `fila merge`: adds up the `-i` outputs of the shards of one run.
//!
//! Each input is what a shard printed, read by [`Report::parse_all`] (solution listings,
//! in any of `-f`'s layouts, are skipped; any other line that is not `KEY=VALUE` is an
//! error), or several shards' outputs one after another; the `-i` blocks of a shard, one
//! per puzzle, are matched by position. Counts and statistics are added; everything that
//! describes the puzzle or the run must agree; the shards `1/N` to `N/N` must each appear
//! exactly once. Only whole shards are added: a block that says its search stopped early
//! (`STOPPED=`), a block without its last line (`SECONDS=`) and a file that ends inside a
//! line are refused.

use crate::report::{Entry, Report, ReportError};

/// Keys whose values are added.
fn summed(key: &str) -> bool {
    matches!(
        key,
        "SOLUTIONS" | "UNIQUE" | "ATTEMPTS_TOTAL" | "FITS_TOTAL" | "SHARD_SUBTREES"
    ) || key.starts_with("ATTEMPTS[")
        || key.starts_with("FITS[")
}

/// Keys that differ between shards without making them disagree.
fn per_shard(key: &str) -> bool {
    matches!(
        key,
        "SHARD" | "SECONDS" | "THREADS" | "RESUMED_SUBTREES" | "KERNELS" | "MEMO"
    )
}

/// Keys of one shard alone, left out of the merged block.
fn left_out(key: &str) -> bool {
    matches!(
        key,
        "THREADS" | "RESUMED_SUBTREES" | "SHARD_SUBTREES" | "KERNELS" | "MEMO"
    )
}

/// Merges the shard outputs `(name, text)` into one `-i` text.
pub fn merge(inputs: &[(String, String)]) -> Result<String, String> {
    if inputs.is_empty() {
        return Err("nothing to merge: name the -i outputs of the shards".to_string());
    }
    for (name, text) in inputs {
        if !text.is_empty() && !text.ends_with('\n') {
            return Err(format!(
                "{name}: ends in the middle of a line: the output was cut short"
            ));
        }
    }
    let parsed = inputs
        .iter()
        .map(|(name, text)| Report::parse_all(text).map_err(|e| e.in_file(name)))
        .collect::<Result<Vec<Vec<Report>>, String>>()?;
    // One file may hold several shards' outputs one after another (`cat shard-*.txt |
    // fila merge -`): every block of a shard's output has its SHARD=, so a shard's
    // output ends where SHARD= changes.
    let mut outputs: Vec<(&str, &[Report])> = Vec::new();
    for ((name, _), blocks) in inputs.iter().zip(&parsed) {
        if blocks.is_empty() {
            return Err(format!("{name}: no -i output (PUZZLE=...) found"));
        }
        outputs.extend(
            blocks
                .chunk_by(|a, b| a.get("SHARD") == b.get("SHARD"))
                .map(|output| (name.as_str(), output)),
        );
    }
    // An output named by its file, and by its shard where one file holds several.
    let named = |(name, blocks): (&str, &[Report])| -> String {
        let shared = outputs.iter().filter(|(other, _)| *other == name).count() > 1;
        match blocks[0].get("SHARD") {
            Some(shard) if shared => format!("{name} (SHARD={shard})"),
            _ => name.to_string(),
        }
    };
    let count = outputs[0].1.len();
    for &output in &outputs {
        if output.1.len() != count {
            return Err(format!(
                "{}: {} puzzles, but {} has {count}",
                named(output),
                output.1.len(),
                named(outputs[0])
            ));
        }
    }
    let mut out = String::new();
    for p in 0..count {
        let blocks: Vec<(&str, &Report)> = outputs
            .iter()
            .map(|&(name, blocks)| (name, &blocks[p]))
            .collect();
        out.push_str(&merge_puzzle(&blocks)?);
    }
    Ok(out)
}

/// Which file holds each shard of a run split in `count`, by shard index (a map, so
/// that the count an input claims allocates nothing).
#[derive(Default)]
struct Shards<'a> {
    count: Option<usize>,
    holders: std::collections::BTreeMap<usize, &'a str>,
}

impl<'a> Shards<'a> {
    /// Takes the shard of `block`, from the file `name`: refuses a block that is no shard,
    /// a shard of another count, and a shard already taken.
    fn take(&mut self, name: &'a str, block: &Report) -> Result<(), String> {
        let Some(written) = block.get("SHARD") else {
            return Err(format!(
                "{name}: no SHARD= line (run each part with --shard I/N and -i)"
            ));
        };
        let shard = match block.shard() {
            Ok(Some(shard)) => shard,
            _ => return Err(format!("{name}: malformed SHARD={written}")),
        };
        let count = *self.count.get_or_insert(shard.count);
        if count != shard.count {
            return Err(format!(
                "{name}: SHARD={written}, but the other shards are of {count}"
            ));
        }
        if let Some(other) = self.holders.insert(shard.index, name) {
            return Err(format!("{name}: shard {written} is also in {other}"));
        }
        Ok(())
    }

    /// The shards no file holds, as `I/N`: the first ten, and how many more.
    fn missing(&self) -> Vec<String> {
        let n = self.count.unwrap_or(0);
        let mut missing: Vec<String> = (1..=n)
            .filter(|i| !self.holders.contains_key(i))
            .take(10)
            .map(|i| format!("{i}/{n}"))
            .collect();
        let more = (n - self.holders.len()).saturating_sub(missing.len());
        if more > 0 {
            missing.push(format!("and {more} more"));
        }
        missing
    }
}

/// A key's merged value.
enum Merged {
    /// A count, added up over the shards.
    Sum(u64),
    /// `SECONDS`, added up over the shards.
    Seconds(f64),
    /// A value every shard must agree on.
    Same(String),
    /// A value of one shard alone.
    Dropped,
}

impl Merged {
    /// The value of `entry` in the first shard that has its key.
    fn first(entry: &Entry) -> Result<Merged, ReportError> {
        Ok(if entry.key == "SECONDS" {
            Merged::Seconds(entry.number()?)
        } else if summed(&entry.key) {
            Merged::Sum(entry.count()?)
        } else if per_shard(&entry.key) {
            Merged::Dropped
        } else {
            Merged::Same(entry.value.clone())
        })
    }

    /// Adds the value of `entry`, from the file `name`, to the value of `first_name`.
    fn add(&mut self, entry: &Entry, name: &str, first_name: &str) -> Result<(), String> {
        match self {
            Merged::Sum(sum) => *sum += entry.count().map_err(|e| e.in_file(name))?,
            Merged::Seconds(sum) => *sum += entry.number().map_err(|e| e.in_file(name))?,
            Merged::Same(value) if *value != entry.value => {
                let Entry {
                    line,
                    key,
                    value: v,
                } = entry;
                return Err(format!(
                    "{name}:{line}: {key}={v}, but {first_name} has {key}={value} (not the same run)"
                ));
            }
            Merged::Same(_) | Merged::Dropped => {}
        }
        Ok(())
    }
}

/// Refuses the block of a shard that did not search all of its subtrees, or whose block
/// was cut short: its counts are not the shard's.
fn whole(name: &str, block: &Report) -> Result<(), String> {
    if let Some(Entry { line, value, .. }) = block.entry("STOPPED") {
        return Err(format!(
            "{name}:{line}: STOPPED={value}: this shard stopped before the end of its search, so its counts are partial (run it to its end, with --resume if it kept a checkpoint)"
        ));
    }
    if block.entry("SECONDS").is_none() {
        return Err(format!(
            "{name}: no SECONDS= line: the -i block was cut short"
        ));
    }
    Ok(())
}

/// Merges the blocks of one puzzle, one per shard: `(file name, block)`.
fn merge_puzzle(blocks: &[(&str, &Report)]) -> Result<String, String> {
    let (first_name, base) = blocks[0];
    let shared_keys = |block: &Report| -> Vec<String> {
        block
            .entries()
            .iter()
            .filter(|e| !per_shard(&e.key))
            .map(|e| e.key.clone())
            .collect()
    };
    let mut merged: Vec<(String, Merged)> = Vec::new();
    let mut shards = Shards::default();
    for &(name, block) in blocks {
        whole(name, block)?;
        if shared_keys(block) != shared_keys(base) {
            return Err(format!(
                "{name}: its -i keys differ from {first_name}'s (not the same solver or options)"
            ));
        }
        shards.take(name, block)?;
        for entry in block.entries() {
            match merged.iter_mut().find(|(k, _)| *k == entry.key) {
                Some((_, value)) => value.add(entry, name, first_name)?,
                None => {
                    let value = Merged::first(entry).map_err(|e| e.in_file(name))?;
                    merged.push((entry.key.clone(), value));
                }
            }
        }
    }
    let missing = shards.missing();
    if !missing.is_empty() {
        return Err(format!("shards missing: {}", missing.join(", ")));
    }
    let puzzle = base.get("PUZZLE").unwrap_or("");
    let count = shards.count.unwrap_or(0);
    let mut out = format!(
        "\n# {puzzle}: {} merged (SECONDS is their sum)\n",
        crate::text::count(count, "shard")
    );
    for (key, value) in merged.into_iter().filter(|(key, _)| !left_out(key)) {
        let value = match value {
            Merged::Sum(sum) => sum.to_string(),
            Merged::Seconds(sum) => format!("{sum:.6}"),
            Merged::Same(value) => value,
            Merged::Dropped => continue,
        };
        out.push_str(&format!("{key}={value}\n"));
        if key == "SUBTREES" {
            out.push_str(&format!("SHARDS={count}\n"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(i: usize, n: usize, solutions: u64) -> (String, String) {
        let text = format!(
            "\n# --- SOLUTION 1 ---\n A=B\n\n# x (e)\nPUZZLE=x\nSUBTREES=10\nSHARD={i}/{n}\nSHARD_SUBTREES=5\nTHREADS=2\nSOLUTIONS={solutions}\nUNIQUE={solutions}\nFITS[ 2]=7\nSECONDS=1.5\n"
        );
        (format!("s{i}"), text)
    }

    #[test]
    fn adds_counts_and_checks_shards() {
        let merged = merge(&[shard(2, 2, 5), shard(1, 2, 7)]).unwrap();
        assert!(merged.contains("SOLUTIONS=12\n"), "{merged}");
        assert!(merged.contains("FITS[ 2]=14\n"), "{merged}");
        assert!(merged.contains("SHARDS=2\n"), "{merged}");
        assert!(merged.contains("SECONDS=3.000000\n"), "{merged}");
        assert!(!merged.contains("SHARD="), "{merged}");
        assert!(merge(&[shard(1, 2, 5)])
            .unwrap_err()
            .contains("missing: 2/2"));
        assert!(merge(&[shard(1, 2, 5), shard(1, 2, 5)])
            .unwrap_err()
            .contains("also in"));
        assert!(merge(&[shard(1, 2, 5), shard(2, 3, 5)]).is_err());
        let mut other = shard(2, 2, 5);
        other.1 = other.1.replace("SUBTREES=10", "SUBTREES=11");
        assert!(merge(&[shard(1, 2, 5), other])
            .unwrap_err()
            .contains("not the same run"));
    }

    /// `cat shard-*.txt | fila merge -`: one input may hold the shards' outputs one
    /// after another, each of several puzzles.
    #[test]
    fn one_input_may_hold_every_shard() {
        let two_puzzles = |i: usize, solutions: u64| {
            let (_, text) = shard(i, 2, solutions);
            format!("{text}{}", text.replace("PUZZLE=x", "PUZZLE=y"))
        };
        let all = format!("{}{}", two_puzzles(2, 5), two_puzzles(1, 7));
        let merged = merge(&[("<stdin>".to_string(), all)]).unwrap();
        assert_eq!(merged.matches("SOLUTIONS=12\n").count(), 2, "{merged}");
        assert!(merged.contains("PUZZLE=y\n"), "{merged}");
        // Read apart or together, the same.
        let apart = merge(&[
            ("a".to_string(), two_puzzles(2, 5)),
            ("b".to_string(), two_puzzles(1, 7)),
        ]);
        assert_eq!(apart.unwrap(), merged);
        let short = format!("{}{}", two_puzzles(2, 5), shard(1, 2, 7).1);
        assert_eq!(
            merge(&[("<stdin>".to_string(), short)]).unwrap_err(),
            "<stdin> (SHARD=1/2): 1 puzzles, but <stdin> (SHARD=2/2) has 2"
        );
        // A shard's output read twice in a row reads as one output of two puzzles: the
        // other shard is missing, and given, its puzzle count differs.
        let twice = format!("{}{}", shard(1, 2, 7).1, shard(1, 2, 7).1);
        assert_eq!(
            merge(&[("<stdin>".to_string(), twice.clone())]).unwrap_err(),
            "shards missing: 2/2"
        );
        let with_other = format!("{twice}{}", shard(2, 2, 5).1);
        assert_eq!(
            merge(&[("<stdin>".to_string(), with_other)]).unwrap_err(),
            "<stdin> (SHARD=2/2): 1 puzzles, but <stdin> (SHARD=1/2) has 2"
        );
        assert_eq!(
            merge(&[shard(1, 2, 7), ("e".to_string(), String::new())]).unwrap_err(),
            "e: no -i output (PUZZLE=...) found"
        );
    }

    /// Found by the fuzz target `report`: a shard count of billions once allocated a
    /// slot for each shard.
    #[test]
    fn a_huge_shard_count_allocates_nothing() {
        let (name, text) = shard(1, 2, 5);
        let huge = (name, text.replace("SHARD=1/2", "SHARD=1/1549499626"));
        assert_eq!(
            merge(&[huge]).unwrap_err(),
            "shards missing: 2/1549499626, 3/1549499626, 4/1549499626, 5/1549499626, 6/1549499626, 7/1549499626, 8/1549499626, 9/1549499626, 10/1549499626, 11/1549499626, and 1549499615 more"
        );
    }

    #[test]
    fn only_whole_shards_are_added() {
        let with = |i: usize, from: &str, to: &str| {
            let (name, text) = shard(i, 2, 5);
            (name, text.replace(from, to))
        };
        let stopped = with(2, "SOLUTIONS=", "STOPPED=limit\nSOLUTIONS=");
        assert_eq!(
            merge(&[shard(1, 2, 7), stopped]).unwrap_err(),
            "s2:11: STOPPED=limit: this shard stopped before the end of its search, so its counts are partial (run it to its end, with --resume if it kept a checkpoint)"
        );
        let (name, text) = shard(2, 2, 5);
        for cut in ["SECONDS=1.5", "SECONDS=", "FITS[ 2]=7"] {
            let end = text.find(cut).unwrap() + cut.len();
            let short = (name.clone(), text[..end].to_string());
            assert!(
                merge(&[shard(1, 2, 7), short])
                    .unwrap_err()
                    .contains("cut short"),
                "{cut}"
            );
        }
        let without = with(2, "SECONDS=1.5\n", "");
        assert_eq!(
            merge(&[shard(1, 2, 7), without]).unwrap_err(),
            "s2: no SECONDS= line: the -i block was cut short"
        );
    }

    #[test]
    fn a_damaged_line_is_an_error_naming_its_file_and_line() {
        let with = |i: usize, from: &str, to: &str| {
            let (name, text) = shard(i, 2, 5);
            (name, text.replace(from, to))
        };
        let warned = with(2, "THREADS=2\n", "THREADS=2\nwarning: slow\n");
        assert_eq!(
            merge(&[shard(1, 2, 7), warned]).unwrap_err(),
            "s2:11: expected KEY=VALUE, a # comment or a solution row, not 'warning: slow'"
        );
        let not_a_count = |i| with(i, "SOLUTIONS=5", "SOLUTIONS=five");
        assert_eq!(
            merge(&[not_a_count(1), shard(2, 2, 7)]).unwrap_err(),
            "s1:11: SOLUTIONS=five is not a count"
        );
        assert_eq!(
            merge(&[shard(1, 2, 7), not_a_count(2)]).unwrap_err(),
            "s2:11: SOLUTIONS=five is not a count"
        );
        assert_eq!(
            merge(&[shard(1, 2, 7), with(2, "SHARD=2/2", "SHARD=2/x")]).unwrap_err(),
            "s2: malformed SHARD=2/x"
        );
    }
}
