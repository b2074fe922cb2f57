//! Words for messages.

/// `n` and the noun `one` after it, in the plural unless `n` is one: `count(1, "row")` is
/// "1 row", `count(6, "row")` "6 rows". For nouns whose plural adds an s.
pub fn count(n: impl std::fmt::Display, one: &str) -> String {
    let n = n.to_string();
    let s = if n == "1" { "" } else { "s" };
    format!("{n} {one}{s}")
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn one_is_singular_and_every_other_count_plural() {
        assert_eq!(count(1usize, "row"), "1 row");
        assert_eq!(count(0u64, "row"), "0 rows");
        assert_eq!(count(6, "cell"), "6 cells");
        assert_eq!(count(11, "solution"), "11 solutions");
    }
}
