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
}
