//! Statute, regulation and rule forms beyond reporters-db's laws.json, and
//! the typed key of a law citation.
//!
//! laws.json has no federal court rules or U.S. Constitution, and its U.S.C.
//! pattern needs a section sign; these forms fill those gaps. They are
//! written in the same template language and tried before the laws.json
//! ones. Their section numbers take the hyphens of [`HYPHENS`] as '-'.

use serde::Serialize;

/// The collection of the Constitution's citations.
pub const CONSTITUTION: &str = "U.S. Const.";

/// A law collection (or extra forms of one laws.json already has).
pub(crate) struct ExtraForm {
    pub key: &'static str,
    pub name: &'static str,
    pub cite_type: &'static str,
    pub variations: &'static [&'static str],
    pub templates: &'static [&'static str],
}

/// A CFR section: parts and sections carry the letters of the Code sections
/// they follow, in capitals (26 C.F.R. § 1.409A-1); Treasury regulations
/// number sections after the Code's subsections, temporary ones with a T
/// (§ 1.401(k)-1, § 1.1031(d)-1T).
macro_rules! cfr_section {
    () => {
        concat!(
            // Five parts take in a range of them: "1.61-1–1.61-3".
            r"(?P<section>\d+[A-Za-z]{0,3}(?:[-­‐‑‒−﹣－–—.:]\d+[A-Za-z]{0,3}){0,5}",
            "(?:",
            treasury_tail!(),
            ")?)"
        )
    };
}

/// What a Treasury regulation's number adds to its part and Code section:
/// the Code's subsections and its own number ("(c)(3)-1" of
/// "1.501(c)(3)-1", "(d)-1T", "(e)-1A").
macro_rules! treasury_tail {
    () => {
        r"(?:\([a-zA-Z0-9]{1,4}\))+[-­‐‑‒−﹣－–—]\d+[AT]?"
    };
}

/// The length of the [`treasury_tail!`] `text` starts with (0 for none),
/// for reading a list of sections after the first as a citation's own
/// section is read. Written out, not compiled: the engine's templates are
/// its own matcher's, which reads whole citations.
pub fn treasury_tail_len(text: &str) -> usize {
    let mut at = 0;
    while let Some(group) = text[at..].strip_prefix('(') {
        let inside = group.find(')').map(|close| &group[..close]);
        match inside {
            Some(inside)
                if (1..=4).contains(&inside.len())
                    && inside.bytes().all(|b| b.is_ascii_alphanumeric()) =>
            {
                at += inside.len() + 2;
            }
            _ => break,
        }
    }
    if at == 0 {
        return 0;
    }
    let Some(dash) = text[at..]
        .chars()
        .next()
        .filter(|&c| matches!(c, '-' | '–' | '—') || HYPHENS.contains(&c))
    else {
        return 0;
    };
    let number = &text[at + dash.len_utf8()..];
    let digits = leading_digits(number);
    if digits == 0 {
        return 0;
    }
    // "T" of a temporary regulation, "A" of one of the Code's later ones.
    let lettered = usize::from(number[digits..].starts_with(['A', 'T']));
    at + dash.len_utf8() + digits + lettered
}

pub(crate) const EXTRA_FORMS: &[ExtraForm] = &[
    ExtraForm {
        key: "U.S.C.",
        name: "United States Code",
        cite_type: "leg_statute",
        variations: &[
            "U.S.C.A.",
            "U.S.C.S.",
            "USCA",
            "USCS",
            "U.S. Code",
            "United States Code",
        ],
        templates: &[
            // "42 U.S.C. § 1983", "50 U.S.C. 1701", "50 U.S.C. app. § 1989"
            concat!(
                r"(?P<title>\d{1,2}),?\s+$reporter,?(?:\s+(?P<appendix>[Aa]pp(?:\.|endix)),?)?",
                r"\s*(?:$section_marker\s*)?",
                // The Code's letters are capitals in some titles ("2252A").
                r"(?P<section>\d+[A-Za-z]{0,4}(?:[-­‐‑‒−﹣－–—.:]\d+[a-z]{0,4}){0,3})"
            ),
            // "section 1983 of title 42", "§ 1983 of Title 42 of the United States Code"
            concat!(
                r"(?P<reporter>section) (?P<section>\d+[a-z]{0,4}(?:[-­‐‑‒−﹣－]\d+[a-z]{0,4})?)",
                r"(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*) of [Tt]itle (?P<title>\d{1,2})",
            ),
            concat!(
                r"(?P<reporter>Section) (?P<section>\d+[a-z]{0,4}(?:[-­‐‑‒−﹣－]\d+[a-z]{0,4})?)",
                r"(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*) of [Tt]itle (?P<title>\d{1,2})",
            ),
            concat!(
                r"(?P<reporter>§) ?(?P<section>\d+[a-z]{0,4}(?:[-­‐‑‒−﹣－]\d+[a-z]{0,4})?)",
                r"(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*) of [Tt]itle (?P<title>\d{1,2})",
            ),
            // "title 42, section 1983"
            concat!(
                r"(?P<reporter>title) (?P<title>\d{1,2}),? (?:section|§) ?",
                r"(?P<section>\d+[a-z]{0,4}(?:[-­‐‑‒−﹣－]\d+[a-z]{0,4})?)",
            ),
            concat!(
                r"(?P<reporter>Title) (?P<title>\d{1,2}),? (?:[Ss]ection|§) ?",
                r"(?P<section>\d+[a-z]{0,4}(?:[-­‐‑‒−﹣－]\d+[a-z]{0,4})?)",
            ),
        ],
    },
    ExtraForm {
        // A proposed regulation is no section of the Code of Federal
        // Regulations, which the library holds.
        key: "Prop. Treas. Reg.",
        name: "Proposed Treasury Regulations",
        cite_type: "admin_compilation",
        variations: &[],
        templates: &[concat!(
            r"$reporter,?\s*(?:$section_marker\s*)?",
            cfr_section!()
        )],
    },
    ExtraForm {
        // Title 26 of the C.F.R. cited without it: "Treas. Reg. §
        // 1.501(c)(3)-1(d)(2)".
        key: "Treas. Reg.",
        name: "Treasury Regulations",
        cite_type: "admin_compilation",
        variations: &[
            "Treas. Regs.",
            "Temp. Treas. Reg.",
            "Treasury Regulation",
            "Treasury Regulations",
        ],
        templates: &[concat!(
            r"$reporter,?\s*(?:$section_marker\s*)?",
            cfr_section!()
        )],
    },
    ExtraForm {
        key: "C.F.R.",
        name: "Code of Federal Regulations",
        cite_type: "admin_compilation",
        variations: &["CFR", "C. F. R.", "Code of Federal Regulations"],
        templates: &[
            concat!(
                r"(?P<title>\d{1,2}),?\s+$reporter,?\s*(?:$section_marker\s*)?",
                cfr_section!()
            ),
            // A part cited whole: "29 C.F.R. pt. 1630", "29 C.F.R. Part 1630";
            // the first of a list: "29 C.F.R. pts. 1630, 1635", "Parts 1630
            // and 1635" (verify checks the others).
            r"(?P<title>\d{1,2}),?\s+$reporter,?\s*(?:[Pp]ts?\.?|PTS?\.?|[Pp]arts?|PARTS?)\s*(?P<part>\d+)",
        ],
    },
    ExtraForm {
        key: "Mass. Gen. Laws",
        name: "Massachusetts General Laws",
        cite_type: "leg_statute",
        variations: &["M.G.L.", "G. L.", "G.L."],
        templates: &[
            // Chapters carry letters: "ch. 93A, § 2".
            r"$reporter,? c(?:h\.|\.) (?P<chapter>\d+[A-Z]{0,2}),? §§? (?P<section>\d+[A-Z]{0,2}(?:[-–.]\d+[A-Z]?)?)",
        ],
    },
    ExtraForm {
        key: "Fed. R. Civ. P.",
        name: "Federal Rules of Civil Procedure",
        cite_type: "court_rule",
        variations: &[
            "Fed. R. Civ. Pro.",
            "Fed. R. Civ. Proc.",
            "Fed. Rule Civ. Proc.",
            "Fed. Rules Civ. Proc.",
            "F.R.Civ.P.",
            "F.R.C.P.",
            "FRCP",
            "Fed. R. Civ. P. Rule",
            "Federal Rule of Civil Procedure",
            "Federal Rules of Civil Procedure",
        ],
        templates: &[
            concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)"),
            concat!(
                r"[Rr]ule (?P<rule>\d+(?:\.\d+)?[a-z]?)(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*)",
                r" of the $reporter"
            ),
        ],
    },
    ExtraForm {
        key: "Fed. R. Crim. P.",
        name: "Federal Rules of Criminal Procedure",
        cite_type: "court_rule",
        variations: &[
            "Fed. R. Crim. Pro.",
            "Fed. R. Crim. Proc.",
            "Fed. Rule Crim. Proc.",
            "Fed. Rules Crim. Proc.",
            "F.R.Crim.P.",
            "FRCrP",
            "Federal Rule of Criminal Procedure",
            "Federal Rules of Criminal Procedure",
        ],
        templates: &[
            concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)"),
            concat!(
                r"[Rr]ule (?P<rule>\d+(?:\.\d+)?[a-z]?)(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*)",
                r" of the $reporter"
            ),
        ],
    },
    ExtraForm {
        key: "Fed. R. Evid.",
        name: "Federal Rules of Evidence",
        cite_type: "court_rule",
        variations: &[
            "Fed. Rule Evid.",
            "Fed. Rules Evid.",
            "F.R.E.",
            "F.R.Evid.",
            "FRE",
            "Federal Rule of Evidence",
            "Federal Rules of Evidence",
        ],
        templates: &[
            concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)"),
            concat!(
                r"[Rr]ule (?P<rule>\d+(?:\.\d+)?[a-z]?)(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*)",
                r" of the $reporter"
            ),
        ],
    },
    ExtraForm {
        key: "Fed. R. App. P.",
        name: "Federal Rules of Appellate Procedure",
        cite_type: "court_rule",
        variations: &[
            "Fed. R. App. Pro.",
            "Fed. R. App. Proc.",
            "Fed. Rule App. Proc.",
            "Fed. Rules App. Proc.",
            "F.R.A.P.",
            "FRAP",
            "Federal Rule of Appellate Procedure",
            "Federal Rules of Appellate Procedure",
        ],
        templates: &[
            concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)"),
            concat!(
                r"[Rr]ule (?P<rule>\d+(?:\.\d+)?[a-z]?)(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*)",
                r" of the $reporter"
            ),
        ],
    },
    ExtraForm {
        key: "Fed. R. Bankr. P.",
        name: "Federal Rules of Bankruptcy Procedure",
        cite_type: "court_rule",
        variations: &[
            "Fed. R. Bankr. Pro.",
            "Fed. R. Bankr. Proc.",
            "Fed. Rule Bankr. Proc.",
            "Federal Rule of Bankruptcy Procedure",
            "Federal Rules of Bankruptcy Procedure",
        ],
        templates: &[concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)")],
    },
    ExtraForm {
        key: "Sup. Ct. R.",
        name: "Rules of the Supreme Court of the United States",
        cite_type: "court_rule",
        variations: &[
            "Supreme Court Rule",
            "S. Ct. Rule",
            "Rules of the Supreme Court of the United States",
            "Rules of the Supreme Court",
        ],
        templates: &[
            concat!("$reporter ", r"(?P<rule>\d+(?:\.\d+)?[a-z]?)"),
            // "Rule 10 of the Rules of the Supreme Court"
            concat!(
                r"[Rr]ule (?P<rule>\d+(?:\.\d+)?[a-z]?)(?P<subsection>(?:\([a-zA-Z0-9]{1,4}\))*)",
                r" of the $reporter"
            ),
        ],
    },
    ExtraForm {
        key: CONSTITUTION,
        name: "Constitution of the United States",
        cite_type: "constitution",
        variations: &[
            "U. S. Const.",
            "US Const.",
            "U.S. CONST.",
            "U.S. Constitution",
        ],
        templates: &[
            concat!(
                r"$reporter,? [Aa]rt(?:\.|icle) (?P<article>[IVX]{1,4}|\d{1,2})",
                r"(?:,? (?:§|[Ss]ec\.|[Ss]ection) ?(?P<section>\d{1,2}))?",
                // Articles V–VII have clauses but no sections.
                r"(?:,? [Cc]l(?:\.|ause) ?(?P<clause>\d{1,2}))?"
            ),
            concat!(
                r"$reporter,? [Aa]mend(?:\.|ment) (?P<amendment>[IVXL]{1,6}|\d{1,2})",
                r"(?:,? (?:§|[Ss]ec\.|[Ss]ection) ?(?P<section>\d{1,2}))?"
            ),
            "$reporter,? [Pp]mbl\\.",
        ],
    },
];

/// The typed key of a statute, regulation or rule citation, for indexing
/// and comparison: `42 U.S.C. § 1983(a)` is code `U.S.C.`, title `42`,
/// section `1983`, subsection `(a)`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct LawKey {
    /// The canonical collection key ("U.S.C.", "C.F.R.", "Fed. R. Civ. P.",
    /// "Fla. Stat.", "Cal. Code").
    pub code: String,
    /// Subject of a subject-matter code ("Lab." in "Cal. Lab. Code").
    pub subject: Option<String>,
    /// Title or volume of the collection ("42"), when it has one.
    pub title: Option<String>,
    /// Chapter, for codes cited by chapter ("Mass. Gen. Laws ch. 93A").
    pub chapter: Option<String>,
    /// Part of a regulation code cited whole, without a section ("29
    /// C.F.R. pt. 1630").
    pub part: Option<String>,
    /// Article of a constitution or code ("art. I", "art 49").
    pub article: Option<String>,
    /// Amendment to a constitution ("amend. XIV").
    pub amendment: Option<String>,
    /// Section (or rule, regulation … number, see `unit`).
    pub section: Option<String>,
    /// What `section` numbers: `section`, `rule`, `reg`, `law`, `number`
    /// or `docket_number`.
    pub unit: &'static str,
    /// Clause of a constitutional section ("cl. 3").
    pub clause: Option<String>,
    /// Subdivision of the section ("(b)(6)").
    pub subsection: Option<String>,
    /// Page of a session-law volume or register ("48 Fed. Reg. 9871").
    pub page: Option<String>,
    /// `true` for the U.S.C. appendix ("50 U.S.C. app. § 1989").
    pub appendix: bool,
}

/// The section reference of a law citation split at the dash that makes it
/// a range ("1981–1983", "1.401–1.410"): `None` when every dash in it
/// joins the parts of one section number ("2000e–2", "1.409A–1"). An en or
/// em dash may do either; a hyphen splits only where `hyphen_may_split`
/// (after "§§"), as alone it is part of many section numbers.
pub fn section_range(section: &str, hyphen_may_split: bool) -> Option<(&str, &str)> {
    let dash = range_dash(section, hyphen_may_split)?;
    Some((section[..dash.start].trim(), section[dash.end..].trim()))
}

/// A section reference as the library holds its sections: a dash inside a
/// section number is a hyphen, as the Office of the Law Revision Counsel's
/// en dash in "2000e–2" is; a dash that makes a range stays.
pub(crate) fn section_id(section: &str) -> String {
    match range_dash(section, false) {
        Some(dash) => format!(
            "{}{}{}",
            one_section(&section[..dash.start]),
            &section[dash.clone()],
            one_section(&section[dash.end..])
        ),
        None => one_section(section),
    }
}

/// A section reference read as one section number, every dash a hyphen:
/// "1962–3" as § 1962-3, as the Code prints it, where [`section_range`]
/// reads §§ 1962 to 1963 written short. Only the library can tell which
/// of the two a lone section sign means.
pub fn one_section(section: &str) -> String {
    section.replace(['–', '—'], "-").replace(HYPHENS, "-")
}

/// What kind of law the collection `key` is (`leg_statute`,
/// `admin_compilation`, `court_rule`, …), when the vocabulary knows it.
pub fn law_cite_type(key: &str) -> Option<&'static str> {
    super::vocab::Vocabulary::get().law_cite_type(key)
}

/// Hyphens other than '-' that documents put in section numbers ("2000e‑2"
/// from a word processor's non-breaking hyphen, a PDF's minus sign or soft
/// hyphen): read as '-'.
pub(crate) const HYPHENS: [char; 7] = [
    '\u{ad}', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2212}', '\u{fe63}', '\u{ff0d}',
];

/// Where the first dash that makes `section` a range is.
fn range_dash(section: &str, hyphen_may_split: bool) -> Option<std::ops::Range<usize>> {
    section
        .char_indices()
        .filter(|&(_, c)| {
            matches!(c, '–' | '—') || (c == '-' || HYPHENS.contains(&c)) && hyphen_may_split
        })
        .map(|(at, c)| at..at + c.len_utf8())
        .find(|dash| {
            let (first, last) = (section[..dash.start].trim(), section[dash.end..].trim());
            !first.is_empty() && ends_a_range(first, last)
        })
}

/// Whether `last` can end a range of sections that starts at `first`,
/// rather than number a section within `first`'s: a range ends on a
/// section of the same shape and no lower ("1981–1983", "1981–83" written
/// short, "2000e–2000e-17"), while "2000e–2" is section 2000e-2 and, in
/// the regulations, "1.409A–1" and "1.61–1" are sections of part 1.
fn ends_a_range(first: &str, last: &str) -> bool {
    let (from_digits, to_digits) = (leading_digits(first), leading_digits(last));
    let (Ok(from), Ok(to)) = (
        first[..from_digits].parse::<u64>(),
        last[..to_digits].parse::<u64>(),
    ) else {
        return false;
    };
    // A section numbered within a part ends a range on one so numbered:
    // "1.61-1–1.61-3" runs to "1.61-3", not "1-1.61-3"; "1.61–1" is no range.
    if first[from_digits..].starts_with('.') && !last[to_digits..].starts_with('.') {
        return false;
    }
    let first_is_a_number = first.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if !first_is_a_number {
        return to >= from;
    }
    // An end written short that then falls below the first numbers a
    // section ("1582–1" is section 1582-1, as the Code prints it).
    range_end_in_full(first, &last[..to_digits])
        .parse()
        .is_ok_and(|to: u64| to >= from)
}

/// How many ASCII digits `s` starts with.
fn leading_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// The end of a range of numbers (sections, pages) written in full: an end
/// written short keeps the first number's leading digits ("1981–83" ends
/// at 1983, pages "1602-05" at 1605); one as long or longer is whole.
pub fn range_end_in_full<'a>(first: &str, last: &'a str) -> std::borrow::Cow<'a, str> {
    let (from_digits, to_digits) = (leading_digits(first), leading_digits(last));
    match from_digits.checked_sub(to_digits) {
        Some(kept) if kept > 0 && to_digits == last.len() && from_digits == first.len() => {
            std::borrow::Cow::Owned(format!("{}{last}", &first[..kept]))
        }
        _ => std::borrow::Cow::Borrowed(last),
    }
}

#[cfg(test)]
mod tests {
    use super::{range_end_in_full, section_id, section_range};

    #[test]
    fn a_dash_inside_a_section_number_is_a_hyphen() {
        assert_eq!(section_id("2000e–2"), "2000e-2");
        assert_eq!(section_id("2000e—2"), "2000e-2");
        assert_eq!(section_id("1.409A–1"), "1.409A-1");
        assert_eq!(section_id("1.61–1"), "1.61-1");
        assert_eq!(section_id("1320a–7b"), "1320a-7b");
        assert_eq!(section_id("2000e-2"), "2000e-2");
    }

    #[test]
    fn a_dash_that_makes_a_range_stays() {
        assert_eq!(section_id("1582–1"), "1582-1");
        assert_eq!(section_id("136–1"), "136-1");
        assert_eq!(section_range("1981–83", false), Some(("1981", "83")));
        assert_eq!(range_end_in_full("1981", "83"), "1983");
        assert_eq!(range_end_in_full("1981", "1983"), "1983");
        assert_eq!(range_end_in_full("2000e", "17"), "17");
        assert_eq!(section_id("1981–1983"), "1981–1983");
        assert_eq!(section_id("2000e–2000e–17"), "2000e–2000e-17");
        assert_eq!(section_id("1.401–1.410"), "1.401–1.410");
        assert_eq!(section_id("1.61-1–1.61-3"), "1.61-1–1.61-3");
        assert_eq!(
            section_range("1.61-1-1.61-3", true),
            Some(("1.61-1", "1.61-3"))
        );
        assert_eq!(
            section_range("260.10–261.4", false),
            Some(("260.10", "261.4"))
        );
    }

    #[test]
    fn ranges_and_hyphenated_sections() {
        assert_eq!(section_range("51–60", false), Some(("51", "60")));
        assert_eq!(section_range("1981–83", false), Some(("1981", "83")));
        assert_eq!(section_range("51-60", true), Some(("51", "60")));
        assert_eq!(section_range("51-60", false), None);
        assert_eq!(
            section_range("2000e-2000e-17", true),
            Some(("2000e", "2000e-17"))
        );
        // After "§§" a hyphen may split, but not inside a section number.
        assert_eq!(section_range("2000e-2", true), None);
        assert_eq!(section_range("1.61-1", true), None);
        assert_eq!(section_range("2000e–2", false), None);
        assert_eq!(section_range("5–", false), None);
    }
}
