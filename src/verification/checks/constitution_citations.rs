//! Constitution citations: the article or amendment, section and clause
//! checked against the Constitution's shape.

use crate::citations::{Citation, bluebook};
use crate::verification::{CheckedCitation, constitution, urls};

/// What follows a constitution citation that the extractor did not read
/// ("§§ 6-7", "cls. 17, 19", "cl. 9"), if anything.
pub(super) fn unread_constitution_part(after: &str) -> Option<String> {
    let rest = after.trim_start().strip_prefix(',')?.trim_start();
    ["§", "cl.", "cls.", "Cl.", "Cls."]
        .iter()
        .any(|part| rest.starts_with(part))
        .then(|| {
            let end = rest.find(['.', ';', ')']).map_or(rest.len(), |at| {
                // "cl." and "cls." keep their own period.
                if rest[..at].ends_with("cl") || rest[..at].ends_with("cls") {
                    rest[at + 1..]
                        .find(['.', ';', ')'])
                        .map_or(rest.len(), |next| at + 1 + next)
                } else {
                    at
                }
            });
            rest[..end].trim().to_string()
        })
}

pub(super) fn check_constitution(
    citation: &Citation,
    law: &crate::citations::LawKey,
    written: String,
) -> CheckedCitation {
    type PartOf = fn(u32, Option<u32>, Option<u32>) -> constitution::Part;
    let (part, number, highest, part_of): (_, _, _, PartOf) = match (&law.article, &law.amendment) {
        (Some(article), _) => (
            "article",
            roman_or_number(article),
            constitution::ARTICLE_COUNT,
            constitution::article_part,
        ),
        (None, Some(amendment)) => (
            "amendment",
            roman_or_number(amendment),
            constitution::AMENDMENT_COUNT,
            constitution::amendment_part,
        ),
        (None, None) => {
            return CheckedCitation::unavailable(
                written,
                None,
                "the citation names no article or amendment",
            );
        }
    };
    let n = match number {
        Some(n) if (1..=highest).contains(&n) => n,
        Some(n) => {
            return CheckedCitation::unverified(
                written,
                None,
                None,
                format!("the Constitution has no {part} {n} (the last is {highest})"),
            );
        }
        None => {
            return CheckedCitation::unavailable(
                written,
                None,
                "the article or amendment number could not be read",
            );
        }
    };
    let number_of = |text: &Option<String>| match text.as_deref() {
        None => Ok(None),
        Some(t) => t.trim().parse::<u32>().map(Some).map_err(|_| t.to_string()),
    };
    let (section, clause) = match (number_of(&law.section), number_of(&law.clause)) {
        (Ok(section), Ok(clause)) => (section, clause),
        (Err(unread), _) | (_, Err(unread)) => {
            return CheckedCitation::unavailable(
                written,
                None,
                format!("the section or clause {unread:?} could not be read"),
            );
        }
    };
    match part_of(n, section, clause) {
        constitution::Part::Missing(reason) => {
            CheckedCitation::unverified(written, None, None, reason)
        }
        constitution::Part::Unknown(reason) => CheckedCitation::unavailable(written, None, reason),
        constitution::Part::Exists => CheckedCitation::verified_law(
            written,
            None,
            bluebook(citation),
            urls::constitution_page(part, n),
            format!("the Constitution has {part} {n}"),
        ),
    }
}

fn roman_or_number(text: &str) -> Option<u32> {
    let text = text
        .trim()
        .trim_start_matches("art.")
        .trim_start_matches("amend.")
        .trim();
    if let Ok(n) = text.parse() {
        return Some(n);
    }
    let value = |c: char| match c.to_ascii_uppercase() {
        'I' => Some(1),
        'V' => Some(5),
        'X' => Some(10),
        'L' => Some(50),
        _ => None,
    };
    let digits: Option<Vec<u32>> = text.chars().map(value).collect();
    let digits = digits.filter(|d| !d.is_empty())?;
    let mut total = 0;
    for (i, digit) in digits.iter().enumerate() {
        if digits.get(i + 1).is_some_and(|next| next > digit) {
            total -= *digit as i64;
        } else {
            total += *digit as i64;
        }
    }
    u32::try_from(total).ok().filter(|n| *n > 0)
}

#[cfg(test)]
mod tests {
    use super::{roman_or_number, unread_constitution_part};

    #[test]
    fn unread_parts_after_a_constitution_citation() {
        assert_eq!(
            unread_constitution_part(", §§ 6-7. Next").as_deref(),
            Some("§§ 6-7")
        );
        assert_eq!(
            unread_constitution_part(", cls. 17, 19. Next").as_deref(),
            Some("cls. 17, 19")
        );
        assert_eq!(
            unread_constitution_part(", cl. 9."),
            Some("cl. 9".to_string())
        );
        assert_eq!(unread_constitution_part(". Next"), None);
    }

    #[test]
    fn roman_numerals() {
        assert_eq!(roman_or_number("XIV"), Some(14));
        assert_eq!(roman_or_number("XXVII"), Some(27));
        assert_eq!(roman_or_number("IV"), Some(4));
        assert_eq!(roman_or_number("3"), Some(3));
        assert_eq!(roman_or_number("XXX"), Some(30));
        assert_eq!(roman_or_number("Q"), None);
    }
}
