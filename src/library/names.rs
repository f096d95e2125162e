//! A loose test of whether two names at the same citation are one decision,
//! used only to merge sources at import. (Checking a brief's case name
//! against the library is the citation engine's stricter matcher.)

/// Words that say nothing about which parties a case is between, including
/// the sovereigns that are a party to thousands of cases.
const FILLER: &[&str] = &[
    "a",
    "al",
    "america",
    "an",
    "and",
    "as",
    "at",
    "by",
    "city",
    "co",
    "commonwealth",
    "company",
    "corp",
    "corporation",
    "county",
    "et",
    "ex",
    "for",
    "in",
    "inc",
    "incorporated",
    "llc",
    "ltd",
    "matter",
    "of",
    "on",
    "parte",
    "people",
    "re",
    "rel",
    "state",
    "states",
    "the",
    "to",
    "united",
    "us",
    "usa",
    "v",
    "vs",
];

/// True when the names share a party word (beyond filler), or when either
/// has no party word at all.
pub fn names_compatible(a: &str, b: &str) -> bool {
    let a = party_words(a);
    let b = party_words(b);
    a.is_empty() || b.is_empty() || a.iter().any(|word| b.contains(word))
}

fn party_words(name: &str) -> Vec<String> {
    name.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 1 && !FILLER.contains(w))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::names_compatible;

    #[test]
    fn same_decision_in_different_styles() {
        assert!(names_compatible(
            "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.",
            "Brown v. Board of Education"
        ));
        assert!(names_compatible(
            "State v. Ramirez",
            "STATE of New Mexico v. RAMIREZ"
        ));
        assert!(names_compatible("", "Anything v. Else"));
    }

    #[test]
    fn different_decisions_at_one_page() {
        assert!(!names_compatible("Marbury v. Madison", "Gibbons v. Ogden"));
        assert!(!names_compatible(
            "United States v. Smith",
            "United States v. Jones"
        ));
        assert!(!names_compatible("State v. Ramirez", "State v. Johnson"));
    }
}
