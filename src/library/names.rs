//! A loose test of whether two names at the same citation are one decision,
//! used only to merge sources at import. (Checking a brief's case name
//! against the library is the citation engine's stricter matcher.)

use crate::citations::names::squash_word;

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
    "petitioner",
    "petitioners",
    "re",
    "rel",
    "respondent",
    "respondents",
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

/// The words that tell a case's parties apart, lower case and without
/// accents: words of two letters or more beyond filler, and each run of
/// initials as one word ("M. L. B." and "M.L.B." are both "mlb"; so a
/// name of initials only, "J.L. v. M.V.", still has party words).
fn party_words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut initials = String::new();
    for token in name
        .split(|c: char| !c.is_alphanumeric() && c != '.')
        .map(squash_word)
        .filter(|token| !token.is_empty())
    {
        if token.chars().count() == 1 && token != "v" {
            initials.push_str(&token);
            continue;
        }
        if initials.chars().count() > 1 {
            words.push(std::mem::take(&mut initials));
        }
        initials.clear();
        if token.chars().count() > 1 && !FILLER.contains(&token.as_str()) {
            words.push(token);
        }
    }
    if initials.chars().count() > 1 {
        words.push(initials);
    }
    words
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
        assert!(names_compatible("Cote v. Kruger", "Côté v. Krüger"));
        assert!(names_compatible(
            "M. L. B. v. S. L. J., individually and as next friend",
            "M.L.B. v. S.L.J."
        ));
    }

    #[test]
    fn different_decisions_at_one_page() {
        assert!(!names_compatible("Marbury v. Madison", "Gibbons v. Ogden"));
        assert!(!names_compatible(
            "United States v. Smith",
            "United States v. Jones"
        ));
        assert!(!names_compatible("State v. Ramirez", "State v. Johnson"));
        assert!(!names_compatible(
            "McGee v. Campaign Spending Commission",
            "J.L. v. M.V."
        ));
        assert!(!names_compatible("In re A.B.", "In re C.D."));
    }
}
