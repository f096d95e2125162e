//! The extractor: scanner, template matching, metadata, references and
//! resolution, in that order.

mod build;
mod case_name;
mod cores;
mod references;
mod tail;

use std::sync::OnceLock;

pub(crate) use build::Context;

use super::model::Citation;
use super::resolve;
use super::scanner::{Scanner, Target};
use super::templates::Trigger;
use super::vocab::Vocabulary;

/// Abbreviations of record and filing cites ("Compl. ¶ 12").
const RECORD_CITES: [&str; 24] = [
    "Compl.",
    "Am. Compl.",
    "Complaint",
    "Tr.",
    "Hr'g Tr.",
    "Trial Tr.",
    "Dkt.",
    "Dkt",
    "ECF",
    "Doc.",
    "J.A.",
    "Pet. App.",
    "App.",
    "R.",
    "Rec.",
    "Br.",
    "Mem.",
    "Mot.",
    "Opp'n",
    "Ex.",
    "Decl.",
    "Aff.",
    "Dep.",
    "Pl.'s",
];

/// Finds citations in text. Build it once ([`Extractor::shared`]); it is
/// immutable and can be used from many threads at once.
pub struct Extractor {
    scanner: Scanner,
    vocabulary: &'static Vocabulary,
}

impl Extractor {
    /// The process-wide extractor, built on first use from the embedded
    /// vocabularies.
    pub fn shared() -> &'static Extractor {
        static EXTRACTOR: OnceLock<Extractor> = OnceLock::new();
        EXTRACTOR.get_or_init(|| Extractor::build(Vocabulary::get()))
    }

    fn build(vocabulary: &'static Vocabulary) -> Extractor {
        let mut patterns: Vec<(&'static str, Target)> = Vec::new();
        for (id, edition) in vocabulary.editions.iter().enumerate() {
            let id = id as u32;
            patterns.push((
                edition.abbreviation.as_ref(),
                Target::Edition { id, exact: true },
            ));
            for variation in &edition.variations {
                patterns.push((variation.as_ref(), Target::Edition { id, exact: false }));
            }
        }
        for (id, law) in vocabulary.laws.iter().enumerate() {
            let id = id as u32;
            patterns.push((law.key.as_ref(), Target::Law { id, exact: true }));
            for variation in &law.variations {
                patterns.push((variation.as_ref(), Target::Law { id, exact: false }));
            }
            for &t in &law.templates {
                if let Trigger::Literal(literal) = &vocabulary.templates[t].trigger {
                    let target = Target::LawTemplate {
                        law: id,
                        template: t as u32,
                    };
                    patterns.push((literal.as_str(), target));
                }
            }
        }
        for (id, journal) in vocabulary.journals.iter().enumerate() {
            let id = id as u32;
            patterns.push((journal.key.as_ref(), Target::Journal { id, exact: true }));
            for variation in &journal.variations {
                patterns.push((variation.as_ref(), Target::Journal { id, exact: false }));
            }
        }
        for id in ["Id.", "id.", "ID.", "Ibid.", "ibid.", "IBID."] {
            patterns.push((id, Target::Id));
        }
        for supra in ["supra", "Supra", "SUPRA"] {
            patterns.push((supra, Target::Supra));
        }
        patterns.push(("§", Target::SectionSign));
        for record in RECORD_CITES {
            patterns.push((record, Target::Record));
        }
        Extractor {
            scanner: Scanner::build(patterns),
            vocabulary,
        }
    }

    /// Every citation in `text`, in text order, with metadata and
    /// resolution. Never panics; linear in the length of `text`.
    pub fn extract(&self, text: &str) -> Vec<Citation> {
        let cores = cores::find(text, &self.scanner, self.vocabulary);
        let (mut citations, mut contexts) = build::build(text, &cores, self.vocabulary);
        references::add(text, &mut citations, &mut contexts);
        resolve::resolve(&mut citations, &contexts);
        citations
    }
}
