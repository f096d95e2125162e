//! Citations in Bluebook form (public-api.md §2.2 `bluebookCitation`).
//!
//! Only what the citation itself establishes is written. When a required
//! piece is unknown — the case name, page, year, or a court the reporter
//! does not imply — the answer is `None`: a wrong court or year in a
//! citation a lawyer files is worse than none.

use super::courts;
use super::model::{Citation, CitationKind};
use super::names;
use super::reporters;

/// The citation in Bluebook form, or `None` if that would take guessing.
pub fn bluebook(citation: &Citation) -> Option<String> {
    match citation.kind {
        CitationKind::FullCase => full_case(citation),
        CitationKind::ShortCase => short_case(citation),
        CitationKind::Id => Some(match &citation.pin_cite {
            Some(pin) => format!("Id. {}", at_pin(pin)),
            None => "Id.".to_string(),
        }),
        CitationKind::Law => law(citation),
        CitationKind::Journal
        | CitationKind::Supra
        | CitationKind::Reference
        | CitationKind::Unknown => None,
    }
}

fn full_case(c: &Citation) -> Option<String> {
    let name = case_name(
        c.plaintiff.as_deref(),
        c.defendant.as_deref(),
        c.case_name.as_deref(),
    )?;
    let volume = c.volume.as_deref()?;
    let reporter = c.reporter?;
    let page = c.page.as_deref()?;
    let year = c.year?;
    let court = court_part(c, reporter)?;
    let mut out = format!("{name}, {} {page}", volume_part(c, volume, reporter));
    if let Some(pin) = &c.pin_cite {
        out.push_str(", ");
        out.push_str(pin.trim_start_matches("at ").trim());
    }
    match court {
        Some(court) => out.push_str(&format!(" ({court} {year})")),
        None => out.push_str(&format!(" ({year})")),
    }
    Some(out)
}

/// The volume and reporter: a case of the first 90 volumes of the U.S.
/// Reports, cited to them or to the early reporter they reprint, as
/// "5 U.S. (1 Cranch)" (rule 10.3.2).
fn volume_part(c: &Citation, volume: &str, reporter: &str) -> String {
    let number: Option<u32> = volume.parse().ok();
    let us_volume = if reporter == "U.S." {
        number
    } else if c
        .reporter_found
        .as_deref()
        .is_none_or(reporters::is_early_scotus_spelling)
    {
        number.and_then(|n| reporters::us_reports_volume(reporter, n))
    } else {
        None
    };
    match us_volume.and_then(|us| Some((us, reporters::nominative_volume(us)?))) {
        Some((us, (nominative, series))) => format!("{us} U.S. ({nominative} {series})"),
        None => format!("{volume} {}", series_written(c, reporter)),
    }
}

/// The reporter as the citation's spelling names it, when that spelling
/// picks out some of the series sharing the canonical abbreviation:
/// reporters-db files Cranch's circuit court reports under "Cranch" too,
/// and "1 Cranch 100" would be the Supreme Court's 5 U.S. 100.
fn series_written<'c>(c: &'c Citation, reporter: &'c str) -> &'c str {
    let Some(found) = c.reporter_found.as_deref() else {
        return reporter;
    };
    let series = |spelling: &str| {
        let mut series: Vec<_> = reporters::editions_for(spelling)
            .into_iter()
            .map(|edition| std::ptr::from_ref(reporters::reporter_of(edition)))
            .collect();
        series.sort();
        series.dedup();
        series
    };
    let named = series(found);
    if !named.is_empty() && named.len() < series(reporter).len() {
        found
    } else {
        reporter
    }
}

/// The court abbreviation the parenthetical needs: `Some(None)` when the
/// reporter already says which court, `None` when unknown.
fn court_part(c: &Citation, reporter: &str) -> Option<Option<String>> {
    let editions = reporters::editions_for(reporter);
    let implied = !editions.is_empty()
        && editions.iter().all(|e| {
            let r = reporters::reporter_of(e);
            r.is_scotus() || r.mlz_jurisdiction.len() == 1 && r.cite_type == "state"
        });
    match c.court {
        Some(_) if implied => Some(None),
        Some(id) => {
            let court = courts::court_by_id(id)?;
            let abbreviation = courts::bluebook_ordinals(court.citation_string.trim());
            (!abbreviation.is_empty() && abbreviation != "SCOTUS").then_some(Some(abbreviation))
        }
        None if implied => Some(None),
        None => None,
    }
}

/// "A v. B" with T6 abbreviations and without "et al."
fn case_name(
    plaintiff: Option<&str>,
    defendant: Option<&str>,
    written: Option<&str>,
) -> Option<String> {
    let name = match (plaintiff, defendant) {
        (Some(p), Some(d)) => format!("{} v. {}", abbreviate(p), abbreviate(d)),
        _ => abbreviate(written?),
    };
    (!name.trim().is_empty()).then_some(name)
}

/// A party with T6 words abbreviated (R. 10.2.2), "et al." and a leading
/// "The" dropped. A one-word party ("Commonwealth") stays whole.
fn abbreviate(party: &str) -> String {
    let party = party.replace(", et al.", "").replace(" et al.", "");
    let party = party.strip_prefix("The ").unwrap_or(&party);
    let words: Vec<&str> = party.split(' ').collect();
    if words.len() == 1 {
        return party.to_string();
    }
    words
        .iter()
        .map(|word| {
            let (bare, comma) = match word.strip_suffix(',') {
                Some(b) => (b, ","),
                None => (*word, ""),
            };
            match names::t6_abbreviation(bare) {
                Some(abbr) => format!("{abbr}{comma}"),
                None => word.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A pin after "Id." or a short form: a page takes "at", a paragraph or
/// section does not ("Id. ¶ 20").
fn at_pin(pin: &str) -> String {
    // A pin written across a line break ("at⏎362") reads as one line.
    let pin = pin.split_whitespace().collect::<Vec<_>>().join(" ");
    let pin = pin.trim_start_matches(',').trim();
    if let Some(mark) = pin
        .strip_prefix("at ")
        .map(str::trim_start)
        .filter(|rest| rest.starts_with(['¶', '§']))
    {
        return mark.to_string();
    }
    if pin.starts_with("at ") || pin.starts_with(['¶', '§']) {
        pin.to_string()
    } else {
        format!("at {pin}")
    }
}

fn short_case(c: &Citation) -> Option<String> {
    let name = c.case_name.as_deref()?;
    let volume = c.volume.as_deref()?;
    let reporter = c.reporter?;
    let pin = c.pin_cite.as_deref()?;
    Some(format!(
        "{}, {volume} {reporter} {}",
        abbreviate(name),
        at_pin(pin)
    ))
}

/// "§" for one section, "§§" for a range or list ("1981-1983", "51–60",
/// "5, 7"). A hyphen inside a section number ("2000e-2", "31-1") is not a
/// range: a range runs from a number to a larger one.
fn section_sign(section: &str) -> &'static str {
    let numbers: Vec<&str> = section
        .split(|c: char| matches!(c, '-' | '–') || crate::citations::laws::HYPHENS.contains(&c))
        .map(str::trim)
        .collect();
    let range = match numbers[..] {
        [from, to] => match (from.parse::<u64>(), to.parse::<u64>()) {
            (Ok(from), Ok(to)) => from < to,
            _ => false,
        },
        _ => false,
    };
    if range || section.contains(", ") {
        "§§"
    } else {
        "§"
    }
}

/// The annotated edition of the U.S. Code a citation names, West's
/// "U.S.C.A." or LexisNexis's "U.S.C.S." (written with or without periods,
/// in any case): the Bluebook form names the edition cited, not the
/// official code, though the section checked is the U.S. Code's.
fn annotated_code(c: &Citation) -> Option<&'static str> {
    let written: String = c
        .reporter_found
        .as_deref()?
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|letter| letter.to_ascii_uppercase())
        .collect();
    match written.as_str() {
        "USCA" => Some("U.S.C.A."),
        "USCS" => Some("U.S.C.S."),
        _ => None,
    }
}

fn law(c: &Citation) -> Option<String> {
    let key = c.law.as_ref()?;
    let section = key.section.as_deref();
    let subsection = key.subsection.as_deref().unwrap_or("");
    let supplement = c
        .supplement
        .as_deref()
        .map(|supplement| format!(" & {supplement}"))
        .unwrap_or_default();
    let year = match (&c.publisher, c.year) {
        (Some(publisher), Some(year)) => format!(" ({publisher} {year}{supplement})"),
        (Some(publisher), None) => format!(" ({publisher})"),
        (None, Some(year)) => format!(" ({year}{supplement})"),
        (None, None) => String::new(),
    };
    let code = key.code.as_str();
    if let (Some(title), Some(part), None) = (&key.title, &key.part, section) {
        return Some(format!("{title} {code} pt. {part}{year}"));
    }
    let text = match (code, &key.title, &key.chapter, section) {
        ("U.S.C." | "C.F.R.", Some(title), _, Some(section)) => {
            let code = annotated_code(c).unwrap_or(code);
            let app = if key.appendix { " app." } else { "" };
            let sign = section_sign(section);
            format!("{title} {code}{app} {sign} {section}{subsection}{year}")
        }
        ("U.S. Const.", _, _, _) => return None,
        (_, _, _, Some(rule)) if code.starts_with("Fed. R.") || code == "Sup. Ct. R." => {
            format!("{code} {rule}{subsection}")
        }
        (_, _, Some(chapter), Some(section)) => {
            let sign = section_sign(section);
            format!("{code} ch. {chapter}, {sign} {section}{subsection}{year}")
        }
        (_, None, None, Some(section)) if key.subject.is_none() => {
            let sign = section_sign(section);
            format!("{code} {sign} {section}{subsection}{year}")
        }
        _ => return None,
    };
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::citations::Extractor;

    fn first(text: &str) -> Option<String> {
        bluebook(&Extractor::shared().extract(text)[0])
    }

    #[test]
    fn full_case_citations() {
        assert_eq!(
            first("Brown v. Board of Education, 347 U.S. 483, 495 (1954)").as_deref(),
            Some("Brown v. Bd. of Educ., 347 U.S. 483, 495 (1954)")
        );
        assert_eq!(
            first("Wilson v. Mar. Overseas Corp., 150 F.3d 1, 6-7 (1st Cir. 1998)").as_deref(),
            Some("Wilson v. Mar. Overseas Corp., 150 F.3d 1, 6-7 (1st Cir. 1998)")
        );
    }

    #[test]
    fn a_pin_across_a_line_break_reads_as_one_line() {
        let citations = Extractor::shared().extract("Foo v. Bar, 1 U.S. 1 (1990). Id., at\n12.");
        assert_eq!(bluebook(&citations[1]).as_deref(), Some("Id. at 12"));
    }

    #[test]
    fn early_supreme_court_cases_name_both_reporters() {
        for written in [
            "Marbury v. Madison, 1 Cranch 137, 177 (1803)",
            "Marbury v. Madison, 5 U.S. 137, 177 (1803)",
            "Marbury v. Madison, 5 U.S. (1 Cranch) 137, 177 (1803)",
        ] {
            assert_eq!(
                first(written).as_deref(),
                Some("Marbury v. Madison, 5 U.S. (1 Cranch) 137, 177 (1803)"),
                "{written}"
            );
        }
        assert_eq!(
            first("McCulloch v. Maryland, 4 Wheat. 316 (1819)").as_deref(),
            Some("McCulloch v. Maryland, 17 U.S. (4 Wheat.) 316 (1819)")
        );
        assert_eq!(
            first("Pennoyer v. Neff, 95 U.S. 714 (1878)").as_deref(),
            Some("Pennoyer v. Neff, 95 U.S. 714 (1878)")
        );
    }

    #[test]
    fn refuses_to_guess() {
        // No year.
        assert_eq!(first("Brown v. Board of Education, 347 U.S. 483"), None);
        // F.3d does not say which circuit.
        assert_eq!(first("Foo v. Bar, 150 F.3d 1 (1998)"), None);
        // A court the parenthetical names but courts-db does not know.
        assert_eq!(first("Foo v. Bar, 150 F.3d 1 (Nowhere Ct. 1998)"), None);
        // No name.
        assert_eq!(first("347 U.S. 483 (1954)"), None);
        // Blank page.
        assert_eq!(first("Foo v. Bar, 576 U.S. ___ (2015)"), None);
    }

    #[test]
    fn statutes_and_rules() {
        // Already in Bluebook form, each is kept as written: the publisher
        // and the supplement are part of the date, and so is a main volume
        // with its supplement.
        for kept in [
            "42 U.S.C. § 1983",
            "42 U.S.C. §§ 1981-1983",
            "42 U.S.C. § 2000e-2",
            "2 U.S.C. § 31-1",
            "50 U.S.C. app. § 1989",
            "Fed. R. Civ. P. 12(b)(6)",
            "Fla. Stat. § 120.68 (2007)",
            "42 U.S.C. § 1983 (Supp. V 2023)",
            "Fla. Stat. § 120.68 (West 2009)",
            "42 U.S.C. § 1983 (2018 & Supp. V 2023)",
            "Fla. Stat. § 120.68 (West 2007 & Supp. 2015)",
        ] {
            assert_eq!(first(kept).as_deref(), Some(kept), "{kept}");
        }
        // West's and LexisNexis's annotated codes keep their names.
        for (written, form) in [
            (
                "42 U.S.C.A. § 1983 (West 2012)",
                "42 U.S.C.A. § 1983 (West 2012)",
            ),
            ("42 u.s.c.a. § 1983", "42 U.S.C.A. § 1983"),
            ("18 U.S.C.S. § 924(c)", "18 U.S.C.S. § 924(c)"),
        ] {
            assert_eq!(first(written).as_deref(), Some(form), "{written}");
        }
    }
}
