//! Names and values in messages: quoting what the user wrote so that it cannot garble a
//! message, and the nearest valid name to a misspelt one ("did you mean ...?").

/// A value from the file, quoted and escaped so that newlines or control characters in
/// it cannot split or garble a message.
pub fn quote(value: &str) -> String {
    format!("{value:?}")
}

/// Names as a list for messages: 'a', 'b', 'c'.
pub fn quote_list(items: &[&str]) -> String {
    items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(", ")
}

/// A key as written: 'rate', or escaped like a value if it has unusual characters.
pub fn quote_key(key: &str) -> String {
    if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        format!("'{key}'")
    } else {
        quote(key)
    }
}

/// The allowed key nearest to `key` by edit distance (optimal string alignment, `strsim`:
/// Levenshtein's edits plus swapping two neighbouring letters, the commonest typo, as one
/// edit, so 'rde' is nearer 'red' than 'pie'), if it is a
/// plausible typo: at most 2 edits, or a third of the key's length for long keys.
pub fn closest<'k>(key: &str, allowed: &[&'k str]) -> Option<&'k str> {
    allowed
        .iter()
        .map(|&k| (strsim::osa_distance(key, k), k))
        .filter(|&(d, k)| d <= 2.max(k.chars().count() / 3))
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn a_swapped_pair_of_letters_is_one_edit() {
        // Levenshtein puts 'rde' 2 edits from both 'red' and 'pie'; the swap is one.
        assert_eq!(closest("rde", &["pie", "red"]), Some("red"));
        assert_eq!(closest("vegsa", &["vegas", "fast"]), Some("vegas"));
        assert_eq!(closest("xyz", &["red", "pie"]), None);
    }
}
