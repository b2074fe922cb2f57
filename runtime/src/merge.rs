//! `fila merge`: adds up the `-i` outputs of the shards of one run.
//!
//! Each input is what a shard printed (solution listings are skipped); its `-i` blocks,
//! one per puzzle, are matched by position. Counts and statistics are added; everything
//! that describes the puzzle or the run must agree; the shards `1/N` to `N/N` must each
//! appear exactly once.

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
    matches!(key, "SHARD" | "SECONDS" | "THREADS" | "RESUMED_SUBTREES")
}

/// One `-i` block: its `KEY=VALUE` lines in order, with the line numbers.
struct Block {
    lines: Vec<(usize, String, String)>,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        // Solution rows start with a space or a piece name; keys are capitals.
        let is_key = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || "_[] ".contains(c))
            && key.starts_with(|c: char| c.is_ascii_uppercase());
        if !is_key {
            continue;
        }
        if key == "PUZZLE" {
            out.push(Block { lines: Vec::new() });
        }
        if let Some(b) = out.last_mut() {
            b.lines.push((n + 1, key.to_string(), value.to_string()));
        }
    }
    out
}

/// Merges the shard outputs `(name, text)` into one `-i` text.
pub fn merge(inputs: &[(String, String)]) -> Result<String, String> {
    if inputs.is_empty() {
        return Err("nothing to merge: name the -i outputs of the shards".to_string());
    }
    let parsed: Vec<Vec<Block>> = inputs.iter().map(|(_, t)| blocks(t)).collect();
    let (first_name, _) = &inputs[0];
    let count = parsed[0].len();
    if count == 0 {
        return Err(format!("{first_name}: no -i output (PUZZLE=...) found"));
    }
    for ((name, _), b) in inputs.iter().zip(&parsed) {
        if b.len() != count {
            return Err(format!(
                "{name}: {} puzzles, but {first_name} has {count}",
                b.len()
            ));
        }
    }
    let mut out = String::new();
    for p in 0..count {
        let base = &parsed[0][p];
        let mut merged: Vec<(String, String)> = Vec::new();
        let mut shards: Vec<Option<String>> = Vec::new();
        let mut shard_count = None;
        for ((name, _), file) in inputs.iter().zip(&parsed) {
            let block = &file[p];
            let keys: Vec<&str> = block.lines.iter().map(|(_, k, _)| k.as_str()).collect();
            let base_keys: Vec<&str> = base.lines.iter().map(|(_, k, _)| k.as_str()).collect();
            let shardless = |ks: &[&str]| -> Vec<String> {
                ks.iter()
                    .filter(|k| !per_shard(k))
                    .map(|k| k.to_string())
                    .collect()
            };
            if shardless(&keys) != shardless(&base_keys) {
                return Err(format!(
                    "{name}: its -i keys differ from {first_name}'s (not the same solver or options)"
                ));
            }
            let shard = block
                .lines
                .iter()
                .find(|(_, k, _)| k == "SHARD")
                .map(|(_, _, v)| v.clone());
            let Some(shard) = shard else {
                return Err(format!(
                    "{name}: no SHARD= line (run each part with --shard I/N and -i)"
                ));
            };
            let (i, n) = shard
                .split_once('/')
                .and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)))
                .filter(|&(i, n)| i >= 1 && i <= n)
                .ok_or_else(|| format!("{name}: malformed SHARD={shard}"))?;
            if *shard_count.get_or_insert(n) != n {
                return Err(format!(
                    "{name}: SHARD={shard}, but the other shards are of {}",
                    shard_count.unwrap_or(0)
                ));
            }
            if shards.len() < n {
                shards.resize(n, None);
            }
            if let Some(other) = &shards[i - 1] {
                return Err(format!("{name}: shard {shard} is also in {other}"));
            }
            shards[i - 1] = Some(name.clone());
            for (line, key, value) in &block.lines {
                if key == "SHARD" {
                    continue;
                }
                let slot = match merged.iter_mut().find(|(k, _)| k == key) {
                    Some(s) => s,
                    None => {
                        merged.push((key.clone(), value.clone()));
                        continue;
                    }
                };
                if key == "SECONDS" {
                    let (Ok(a), Ok(b)) = (slot.1.parse::<f64>(), value.parse::<f64>()) else {
                        return Err(format!("{name}:{line}: {key}={value} is not a number"));
                    };
                    slot.1 = format!("{:.6}", a + b);
                } else if summed(key) {
                    let (Ok(a), Ok(b)) = (slot.1.parse::<u64>(), value.parse::<u64>()) else {
                        return Err(format!("{name}:{line}: {key}={value} is not a count"));
                    };
                    slot.1 = (a + b).to_string();
                } else if key == "THREADS" || key == "RESUMED_SUBTREES" {
                    continue;
                } else if slot.1 != *value {
                    return Err(format!(
                        "{name}:{line}: {key}={value}, but {first_name} has {key}={} (not the same run)",
                        slot.1
                    ));
                }
            }
        }
        let missing: Vec<String> = shards
            .iter()
            .enumerate()
            .filter(|(_, s)| s.is_none())
            .map(|(i, _)| format!("{}/{}", i + 1, shards.len()))
            .collect();
        if !missing.is_empty() {
            return Err(format!("shards missing: {}", missing.join(", ")));
        }
        let puzzle = merged
            .iter()
            .find(|(k, _)| k == "PUZZLE")
            .map_or("", |(_, v)| v.as_str());
        out.push_str(&format!(
            "\n# {puzzle}: {} shards merged (SECONDS is their sum)\n",
            shards.len()
        ));
        for (key, value) in merged {
            if key == "THREADS" || key == "RESUMED_SUBTREES" || key == "SHARD_SUBTREES" {
                continue;
            }
            out.push_str(&format!("{key}={value}\n"));
            if key == "SUBTREES" {
                out.push_str(&format!("SHARDS={}\n", shards.len()));
            }
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
}
