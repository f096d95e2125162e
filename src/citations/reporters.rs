//! Reporter and law metadata lookups for other modules: the canonical
//! form of any spelling, and the editions (with their dates) it may mean.
//! The case-law library keys its citation index by (volume, canonical
//! reporter, page) using these. Spellings compare as the scanner compares
//! text: spaces after periods ignored, other runs of whitespace as one.

use super::extract::Extractor;
use super::scanner::Target;
use super::vocab::{Edition, Law, Reporter, Vocabulary};

/// Every edition a reporter spelling may stand for ("So." is the Southern
/// Reporter; "P.R." several reporters).
pub fn editions_for(spelling: &str) -> Vec<&'static Edition> {
    let vocabulary = Vocabulary::get();
    let mut editions: Vec<&'static Edition> = Vec::new();
    for target in Extractor::shared().targets_of(spelling) {
        if let Target::Edition { id, .. } = target {
            let edition = &vocabulary.editions[*id as usize];
            if !editions.iter().any(|e| std::ptr::eq(*e, edition)) {
                editions.push(edition);
            }
        }
    }
    editions
}

/// The canonical edition abbreviation of a reporter spelling ("F. 3d",
/// "F3d" → "F.3d"); `None` if unknown or if it stands for editions with
/// different abbreviations.
pub fn canonical_reporter(spelling: &str) -> Option<&'static str> {
    let editions = editions_for(spelling);
    let first = editions.first()?.abbreviation.as_ref();
    editions
        .iter()
        .all(|e| e.abbreviation == first)
        .then_some(first)
}

/// Whether two canonical edition abbreviations are editions of one
/// reporter ("L. Ed." and "L. Ed. 2d"), where a decision has one citation
/// at most.
pub fn same_reporter(a: &str, b: &str) -> bool {
    let editions_b = editions_for(b);
    editions_for(a)
        .iter()
        .any(|ea| editions_b.iter().any(|eb| ea.reporter == eb.reporter))
}

/// The reporter series an edition belongs to.
pub fn reporter_of(edition: &Edition) -> &'static Reporter {
    &Vocabulary::get().reporters[edition.reporter]
}

/// The canonical key of a statute, regulation or rule collection ("USC"
/// → "U.S.C.", "Fed.R.Civ.P." → "Fed. R. Civ. P.").
pub fn canonical_law(spelling: &str) -> Option<&'static str> {
    let vocabulary = Vocabulary::get();
    let keys: Vec<&'static str> = Extractor::shared()
        .targets_of(spelling)
        .iter()
        .filter_map(|t| match t {
            Target::Law { id, .. } => Some(vocabulary.laws[*id as usize].key.as_ref()),
            _ => None,
        })
        .collect();
    let first = *keys.first()?;
    keys.iter().all(|k| *k == first).then_some(first)
}

/// The law collection with a canonical key.
pub fn law(key: &str) -> Option<&'static Law> {
    Vocabulary::get().laws.iter().find(|l| l.key == key)
}

/// Whether `reporter` is a reporter's abbreviation or spelling the
/// citation engine knows.
pub fn is_known(reporter: &str) -> bool {
    !editions_for(reporter).is_empty()
}

/// Whether a reporter's volumes are paged books, so that a page between
/// two cases belongs to the first and a whole volume can be held. Westlaw
/// and LEXIS number documents, and neutral citations ("2013-Ohio-55")
/// number decisions, so neither holds when any series under the
/// abbreviation is of that kind ("Ohio" is also the Ohio Reports).
pub fn has_pages(reporter: &str) -> bool {
    !editions_for(reporter).iter().any(|edition| {
        matches!(
            reporter_of(edition).cite_type.as_ref(),
            "neutral" | "specialty_west" | "specialty_lexis"
        )
    })
}

/// Whether a reporter is a neutral (public-domain) citation's, whose
/// opinions are cited at numbered paragraphs ("2015 IL 116725, ¶ 12").
pub fn is_neutral(reporter: &str) -> bool {
    editions_for(reporter)
        .iter()
        .any(|edition| reporter_of(edition).cite_type == "neutral")
}

/// A reporter series number as written after a reporter's name, in the
/// form reporter abbreviations give it: "2nd" and "2d" are "2d", "3rd" is
/// "3d", "4th" is "4th". `None` for the first series, which is written
/// without a number, and for anything else.
pub(crate) fn series_name(written: &str) -> Option<String> {
    series_number(written).map(series_label)
}

/// The number of a series as written ("2nd", "2d" → 2; "4th" → 4).
fn series_number(written: &str) -> Option<u32> {
    let digits = written.bytes().take_while(u8::is_ascii_digit).count();
    let number: u32 = written[..digits].parse().ok()?;
    match (number, &written[digits..]) {
        (2, "d" | "nd") | (3, "d" | "rd") | (4..=9, "th") => Some(number),
        _ => None,
    }
}

/// A reporter cited in a series reporters-db does not list for it ("L. Ed.
/// 3d", "F.5th").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnlistedSeries {
    /// Every edition listed under the reporter's name ("L. Ed.", "L. Ed.
    /// 2d").
    pub published: Vec<&'static str>,
    /// Whether it is the series after the last one listed while that one
    /// still runs: it may have begun after the data was compiled ("F.5th"
    /// after F.4th), so its absence proves nothing. A series further on, or
    /// after a reporter that has ended, cannot exist.
    pub may_be_newer: bool,
}

/// What the data says of a reporter cited in a series it does not list.
/// `None` when the spelling is a known edition, or is not a known reporter
/// followed by a series number.
pub fn unlisted_series(spelling: &str) -> Option<UnlistedSeries> {
    let spelling = spelling.trim();
    let (name, series) = split_series(spelling)?;
    let series = series?;
    if !editions_for(&format!("{name} {}", series_label(series))).is_empty() {
        return None;
    }
    let mut published: Vec<&'static Edition> = Vec::new();
    for edition in editions_for(name) {
        for &other in &reporter_of(edition).editions {
            let other = &Vocabulary::get().editions[other];
            if !published.iter().any(|e| std::ptr::eq(*e, other)) {
                published.push(other);
            }
        }
    }
    // The series of each edition of that name; the first has no number.
    // (A reporter's other editions, "Wash. Terr." beside "Wash. 2d", are
    // no series of it.)
    let series_of_name: Vec<(u32, &Edition)> = published
        .iter()
        .filter_map(|e| match split_series(&e.abbreviation)? {
            (n, number) if n == name => Some((number.unwrap_or(1), *e)),
            _ => None,
        })
        .collect();
    let &(last_series, last) = series_of_name.iter().max_by_key(|(number, _)| *number)?;
    Some(UnlistedSeries {
        published: series_of_name
            .iter()
            .map(|(_, e)| e.abbreviation.as_ref())
            .collect(),
        may_be_newer: series == last_series + 1 && last.end.is_none(),
    })
}

/// A reporter abbreviation's name and series number: "L. Ed. 2d" is ("L.
/// Ed.", Some(2)), "F.4th" ("F.", Some(4)), "L. Ed." ("L. Ed.", None).
fn split_series(spelling: &str) -> Option<(&str, Option<u32>)> {
    // After the last space (a no-break space too) or period.
    let split = spelling
        .char_indices()
        .rev()
        .find(|&(_, c)| c.is_whitespace() || c == '.')
        .map(|(at, c)| at + c.len_utf8())?;
    Some(match series_number(&spelling[split..]) {
        Some(number) => (spelling[..split].trim_end(), Some(number)),
        None => (spelling, None),
    })
}

/// How reporter abbreviations write a series: "2d", "3d", "4th".
fn series_label(number: u32) -> String {
    match number {
        2 => "2d".into(),
        3 => "3d".into(),
        n => format!("{n}th"),
    }
}

/// The Supreme Court's own reporters that the first 90 volumes of the U.S.
/// Reports reprint, with the U.S. volumes each became. The reprints keep
/// the nominative page numbers, so "1 Cranch 137" is page 137 of 5 U.S.
const NOMINATIVE_US_REPORTS: [(&str, u32, u32); 7] = [
    ("Dall.", 1, 4),
    ("Cranch", 5, 13),
    ("Wheat.", 14, 25),
    ("Pet.", 26, 41),
    ("How.", 42, 65),
    ("Black", 66, 67),
    ("Wall.", 68, 90),
];

/// The U.S. Reports volume that reprints a volume of an early Supreme
/// Court reporter (canonical abbreviation): "Cranch" 1 → 5. `None` for
/// other reporters and for volumes past the series' last.
pub fn us_reports_volume(reporter: &str, volume: u32) -> Option<u32> {
    let (_, first, last) = NOMINATIVE_US_REPORTS
        .iter()
        .find(|(abbreviation, _, _)| *abbreviation == reporter)?;
    us_volume_of((*first, *last), volume)
}

/// The U.S. volume of the `volume`th of a series reprinted as U.S.
/// `first..=last`.
fn us_volume_of((first, last): (u32, u32), volume: u32) -> Option<u32> {
    let us = first.checked_add(volume.checked_sub(1)?)?;
    (us <= last).then_some(us)
}

/// The U.S. volumes that first appeared as Otto's, the last nominative
/// reporter (1-17 Otto); reporters-db does not list it.
const OTTO_US_REPORTS: (u32, u32) = (91, 107);

/// The U.S. Reports volume of an Otto volume: 4 → 94.
pub fn otto_us_volume(volume: u32) -> Option<u32> {
    us_volume_of(OTTO_US_REPORTS, volume)
}

/// The Otto volume a U.S. Reports volume first appeared as: 94 → 4.
pub fn otto_volume(us_volume: u32) -> Option<u32> {
    let (first, last) = OTTO_US_REPORTS;
    (first..=last)
        .contains(&us_volume)
        .then(|| us_volume - first + 1)
}

/// The early Supreme Court reporters the U.S. Reports reprint.
pub fn nominative_reporters() -> impl Iterator<Item = &'static str> {
    NOMINATIVE_US_REPORTS
        .iter()
        .map(|(abbreviation, _, _)| *abbreviation)
}

/// The nominative volume a U.S. Reports volume first appeared as:
/// 22 → (9, "Wheat."). `None` past volume 90.
pub fn nominative_volume(us_volume: u32) -> Option<(u32, &'static str)> {
    NOMINATIVE_US_REPORTS
        .iter()
        .find(|(_, first, last)| (*first..=*last).contains(&us_volume))
        .map(|(abbreviation, first, _)| (us_volume - first + 1, *abbreviation))
}

/// Whether a reporter spelling is the Supreme Court's own early series
/// ("Cranch", "Wheaton"), not a circuit court's series of a similar name
/// ("Cranch C.C.", which reporters-db also files under "Cranch").
pub fn is_early_scotus_spelling(spelling: &str) -> bool {
    editions_for(spelling)
        .iter()
        .any(|edition| reporter_of(edition).cite_type == "scotus_early")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        for spelling in ["F.3d", "F. 3d", "F3d"] {
            assert_eq!(canonical_reporter(spelling), Some("F.3d"), "{spelling}");
        }
        assert_eq!(canonical_reporter("Wn.2d"), Some("Wash. 2d"));
        assert_eq!(canonical_reporter("U. S."), Some("U.S."));
        assert_eq!(canonical_reporter("Fed. Appx."), Some("F. App'x"));
        assert_eq!(canonical_reporter("No Such Rptr."), None);
        assert_eq!(canonical_law("USC"), Some("U.S.C."));
        assert_eq!(canonical_law("Fed.R.Civ.P."), Some("Fed. R. Civ. P."));
    }

    #[test]
    fn edition_metadata() {
        let editions = editions_for("F.2d");
        assert_eq!(editions.len(), 1);
        let edition = editions[0];
        assert!(edition.covers_year(1950));
        assert!(!edition.covers_year(2005));
        let reporter = reporter_of(edition);
        assert_eq!(reporter.cite_type, "federal");
        assert_eq!(reporter.name, "Federal Reporter");
        assert!(editions_for("P.R.").len() > 1);
        assert_eq!(canonical_reporter("P.R."), None);
    }

    #[test]
    fn vendor_and_neutral_series_have_no_pages() {
        for reporter in ["WL", "U.S. Dist. LEXIS", "U.S. LEXIS", "Ohio"] {
            assert!(!has_pages(reporter), "{reporter}");
        }
        for reporter in [
            "U.S.",
            "F.3d",
            "L. Ed. 2d",
            "Ill. App. 3d",
            "Not In Reporters-db",
        ] {
            assert!(has_pages(reporter), "{reporter}");
        }
    }

    #[test]
    fn series_a_reporter_does_not_have() {
        assert_eq!(series_name("2nd").as_deref(), Some("2d"));
        assert_eq!(series_name("3rd").as_deref(), Some("3d"));
        assert_eq!(series_name("4th").as_deref(), Some("4th"));
        assert_eq!(series_name("1st"), None);
        assert_eq!(series_name("3th"), None);
        // L. Ed. 2d and F.4th still run: the next series may be newer than
        // the data. Two series on, it cannot exist.
        assert_eq!(
            unlisted_series("L. Ed. 3d"),
            Some(UnlistedSeries {
                published: vec!["L. Ed.", "L. Ed. 2d"],
                may_be_newer: true
            })
        );
        assert_eq!(
            unlisted_series("F.5th").map(|u| (u.published, u.may_be_newer)),
            Some((vec!["F.", "F.2d", "F.3d", "F.4th"], true))
        );
        assert_eq!(
            unlisted_series("L. Ed. 4th").map(|u| u.may_be_newer),
            Some(false)
        );
        // A no-break space before the series.
        assert!(unlisted_series("L. Ed.\u{a0}3d").is_some());
        // Another edition of a reporter of that name is no series of it.
        let washington = unlisted_series("Wash. 4th").unwrap().published;
        assert!(!washington.contains(&"Wash. Terr."), "{washington:?}");
        assert!(washington.contains(&"Wash. 3d"), "{washington:?}");
        assert_eq!(
            unlisted_series("F.6th").map(|u| u.may_be_newer),
            Some(false)
        );
        for known in [
            "L. Ed. 2d",
            "F.2nd",
            "F.4th",
            "Cal. App. 5th",
            "So.2nd",
            "U.S.",
        ] {
            assert_eq!(unlisted_series(known), None, "{known}");
        }
        assert_eq!(unlisted_series("No Such Rptr. 3d"), None);
    }

    #[test]
    fn otto_volumes() {
        assert_eq!(otto_us_volume(4), Some(94));
        assert_eq!(otto_us_volume(17), Some(107));
        assert_eq!(otto_us_volume(18), None);
        assert_eq!(otto_us_volume(0), None);
        assert_eq!(otto_volume(94), Some(4));
        assert_eq!(otto_volume(347), None);
    }

    #[test]
    fn early_supreme_court_volumes() {
        assert_eq!(us_reports_volume("Cranch", 1), Some(5));
        assert_eq!(us_reports_volume("Dall.", 1), Some(1));
        assert_eq!(us_reports_volume("Wheat.", 4), Some(17));
        assert_eq!(us_reports_volume("How.", 19), Some(60));
        assert_eq!(us_reports_volume("Wall.", 23), Some(90));
        assert_eq!(us_reports_volume("Wall.", 24), None);
        assert_eq!(us_reports_volume("Cranch", 0), None);
        assert_eq!(us_reports_volume("Cranch", u32::MAX), None);
        assert_eq!(us_reports_volume("U.S.", 5), None);
        assert_eq!(nominative_volume(22), Some((9, "Wheat.")));
        assert_eq!(nominative_volume(1), Some((1, "Dall.")));
        assert_eq!(nominative_volume(91), None);
        for spelling in ["Cranch", "Wheaton", "Dallas", "Wall.", "How."] {
            assert!(is_early_scotus_spelling(spelling), "{spelling}");
        }
        for spelling in ["Cranch C.C.", "F.3d", "U.S."] {
            assert!(!is_early_scotus_spelling(spelling), "{spelling}");
        }
    }
}
