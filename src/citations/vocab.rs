//! The Free Law Project vocabularies compiled into the binary: reporters,
//! laws and journals from reporters-db, read once into [`Vocabulary`].
//!
//! Strings borrow from the embedded JSON wherever it has no escapes, so
//! loading allocates little; the vocabulary lives for the whole process.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::OnceLock;

use chrono::NaiveDate;
use serde::Deserialize;

use super::templates::{self, Template, TemplateError, Variables};
use super::{laws, reporter_forms};

const REPORTERS_JSON: &[u8] = include_bytes!("../../assets/citations/reporters_db/reporters.json");
const LAWS_JSON: &[u8] = include_bytes!("../../assets/citations/reporters_db/laws.json");
const JOURNALS_JSON: &[u8] = include_bytes!("../../assets/citations/reporters_db/journals.json");
const REGEXES_JSON: &[u8] = include_bytes!("../../assets/citations/reporters_db/regexes.json");

/// The standard template of reporters and journals that name none.
const DEFAULT_TEMPLATE: &str = "$full_cite";

type Text = Cow<'static, str>;

#[derive(Deserialize)]
struct RawReporter<'a> {
    #[serde(borrow)]
    cite_type: Cow<'a, str>,
    #[serde(borrow)]
    editions: BTreeMap<Cow<'a, str>, RawEdition<'a>>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    variations: BTreeMap<Cow<'a, str>, Cow<'a, str>>,
    #[serde(default, borrow)]
    mlz_jurisdiction: Vec<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawEdition<'a> {
    #[serde(borrow)]
    start: Option<Cow<'a, str>>,
    #[serde(borrow)]
    end: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    regexes: Vec<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawLaw<'a> {
    #[serde(borrow)]
    cite_type: Cow<'a, str>,
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    jurisdiction: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    regexes: Vec<Cow<'a, str>>,
    #[serde(default, borrow)]
    variations: Vec<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct RawJournal<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default, borrow)]
    variations: Vec<Cow<'a, str>>,
}

/// A reporter series as reporters-db describes it ("Federal Reporter").
#[derive(Debug)]
pub struct Reporter {
    /// The reporters-db key, e.g. `"F."`.
    pub key: Text,
    pub name: Text,
    /// `federal`, `state`, `state_regional`, `neutral`, `specialty`,
    /// `scotus_early`, `specialty_west`, `specialty_lexis`.
    pub cite_type: Text,
    /// Multi-Lingual Zotero jurisdiction codes of the courts it reports.
    pub mlz_jurisdiction: Vec<Text>,
    /// Indexes into [`Vocabulary::editions`].
    pub editions: Vec<usize>,
}

impl Reporter {
    /// Whether it reports the Supreme Court of the United States only, so a
    /// citation to it names the court (the rule eyecite uses).
    pub fn is_scotus(&self) -> bool {
        self.cite_type == "scotus_early"
            || (self.cite_type == "federal" && self.name.contains("Supreme"))
    }
}

/// One edition (series) of a reporter, e.g. `F.3d`, with its dates.
#[derive(Debug)]
pub struct Edition {
    /// The canonical abbreviation, e.g. `"F.3d"`.
    pub abbreviation: Text,
    /// Index into [`Vocabulary::reporters`].
    pub reporter: usize,
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    /// Other spellings reporters-db knows for it ("F. 3d", "F3d").
    pub variations: Vec<Text>,
    /// Indexes into [`Vocabulary::templates`].
    pub(crate) templates: Vec<usize>,
}

impl Edition {
    /// Whether the edition was being published in `year` (inclusive; an
    /// open end means still published).
    pub fn covers_year(&self, year: i32) -> bool {
        use chrono::Datelike;
        self.start.is_none_or(|s| s.year() <= year) && self.end.is_none_or(|e| e.year() >= year)
    }
}

/// A statute, regulation or rule collection ("U.S.C.", "Fla. Stat.").
#[derive(Debug)]
pub struct Law {
    /// The canonical key, e.g. `"U.S.C."`.
    pub key: Text,
    pub name: Text,
    /// `leg_statute`, `leg_session`, `admin_compilation`, `admin_register`,
    /// `court_rule`, `constitution` …
    pub cite_type: Text,
    pub jurisdiction: Option<Text>,
    pub variations: Vec<Text>,
    pub(crate) templates: Vec<usize>,
}

/// A law journal ("Minn. L. Rev.").
#[derive(Debug)]
pub struct Journal {
    pub key: Text,
    pub name: Text,
    pub variations: Vec<Text>,
    pub(crate) templates: Vec<usize>,
}

/// Everything the extractor knows about reporters, laws and journals.
pub struct Vocabulary {
    pub reporters: Vec<Reporter>,
    pub editions: Vec<Edition>,
    pub laws: Vec<Law>,
    pub journals: Vec<Journal>,
    variables: Variables,
    /// Template sources, compiled on first use: a document triggers few.
    template_sources: Vec<String>,
    compiled: Vec<OnceLock<Result<Template, TemplateError>>>,
}

impl Vocabulary {
    /// The process-wide vocabulary, loaded on first use.
    pub fn get() -> &'static Vocabulary {
        static VOCABULARY: OnceLock<Vocabulary> = OnceLock::new();
        VOCABULARY.get_or_init(Vocabulary::load)
    }

    /// What kind of law the collection `key` is (`leg_statute`,
    /// `admin_compilation`, `court_rule`, …), when it is one.
    pub fn law_cite_type(&self, key: &str) -> Option<&str> {
        self.laws
            .iter()
            .find(|law| law.key.as_ref() == key)
            .map(|law| law.cite_type.as_ref())
    }

    /// The compiled template `id`, or `None` if it cannot be used.
    pub(crate) fn template(&self, id: usize) -> Option<&Template> {
        let slot = self.compiled.get(id)?;
        slot.get_or_init(|| templates::compile(&self.template_sources[id], &self.variables))
            .as_ref()
            .ok()
    }

    /// Whether template `id` may put fixed text where the reporter goes
    /// (so the scanner must look for that text); only such templates need
    /// compiling up front.
    pub(crate) fn names_its_reporter(&self, id: usize) -> bool {
        self.template_sources[id].contains("(?P<reporter>")
    }

    /// Templates from the data that cannot be compiled, as `(template,
    /// reason)`; citation forms written only that way are not recognised.
    pub fn unusable_templates(&self) -> Vec<(&str, &str)> {
        (0..self.template_sources.len())
            .filter_map(|id| {
                self.template(id);
                let error = self.compiled[id].get()?.as_ref().err()?;
                Some((error.source.as_str(), error.reason.as_str()))
            })
            .collect()
    }

    fn load() -> Vocabulary {
        let regexes: serde_json::Value =
            serde_json::from_slice(REGEXES_JSON).expect("embedded regexes.json is valid");
        let mut builder = Builder {
            sources: Vec::new(),
            ids: BTreeMap::new(),
        };
        let raw_reporters: BTreeMap<Text, Vec<RawReporter<'static>>> =
            serde_json::from_slice(REPORTERS_JSON).expect("embedded reporters.json is valid");
        let raw_laws: BTreeMap<Text, Vec<RawLaw<'static>>> =
            serde_json::from_slice(LAWS_JSON).expect("embedded laws.json is valid");
        let raw_journals: BTreeMap<Text, Vec<RawJournal<'static>>> =
            serde_json::from_slice(JOURNALS_JSON).expect("embedded journals.json is valid");

        let mut reporters = Vec::new();
        let mut editions = Vec::new();
        for (key, entries) in raw_reporters {
            for raw in entries {
                let reporter_index = reporters.len();
                let mut edition_indexes = Vec::new();
                for (abbreviation, raw_edition) in raw.editions {
                    let sources: Vec<&str> = if raw_edition.regexes.is_empty() {
                        vec![DEFAULT_TEMPLATE]
                    } else {
                        raw_edition.regexes.iter().map(|r| r.as_ref()).collect()
                    };
                    let templates = sources.iter().filter_map(|s| builder.template(s)).collect();
                    let mut variations: Vec<Text> = raw
                        .variations
                        .iter()
                        .filter(|(_, target)| **target == abbreviation)
                        .map(|(variation, _)| variation.clone())
                        .collect();
                    // Briefs write the vendor's name as a word ("1954 U.S.
                    // Lexis 2094"), which reporters-db does not list.
                    if abbreviation.contains("LEXIS") {
                        variations.push(abbreviation.replace("LEXIS", "Lexis").into());
                    }
                    edition_indexes.push(editions.len());
                    editions.push(Edition {
                        abbreviation,
                        reporter: reporter_index,
                        start: raw_edition.start.as_deref().and_then(parse_date),
                        end: raw_edition.end.as_deref().and_then(parse_date),
                        variations,
                        templates,
                    });
                }
                reporters.push(Reporter {
                    key: key.clone(),
                    name: raw.name,
                    cite_type: raw.cite_type,
                    mlz_jurisdiction: raw.mlz_jurisdiction,
                    editions: edition_indexes,
                });
            }
        }
        for extra in reporter_forms::EXTRA_FORMS {
            let template = builder.template(extra.template);
            for edition in editions.iter_mut() {
                if edition.abbreviation == extra.edition {
                    edition.templates.extend(template);
                }
            }
        }

        let mut laws = Vec::new();
        for (key, entries) in raw_laws {
            for raw in entries {
                // Sections are cited with "§" or "§§", spaced or not.
                let templates = raw
                    .regexes
                    .iter()
                    .filter_map(|s| builder.template(&s.replace("§ ", "§§? ?")))
                    .collect();
                laws.push(Law {
                    key: key.clone(),
                    name: raw.name,
                    cite_type: raw.cite_type,
                    jurisdiction: raw.jurisdiction,
                    variations: raw.variations,
                    templates,
                });
            }
        }
        for extra in laws::EXTRA_FORMS {
            let templates: Vec<usize> = extra
                .templates
                .iter()
                .filter_map(|s| builder.template(s))
                .collect();
            match laws.iter_mut().find(|law| law.key == extra.key) {
                // Extra forms are tried before the reporters-db ones, so the
                // more complete reading (appendix, section without §) wins.
                Some(law) => {
                    law.variations
                        .extend(extra.variations.iter().map(|v| Cow::Borrowed(*v)));
                    law.templates.splice(0..0, templates);
                }
                None => laws.push(Law {
                    key: Cow::Borrowed(extra.key),
                    name: Cow::Borrowed(extra.name),
                    cite_type: Cow::Borrowed(extra.cite_type),
                    jurisdiction: Some(Cow::Borrowed("United States")),
                    variations: extra.variations.iter().map(|v| Cow::Borrowed(*v)).collect(),
                    templates,
                }),
            }
        }

        let journal_template: Vec<usize> = builder.template(DEFAULT_TEMPLATE).into_iter().collect();
        let journals = raw_journals
            .into_iter()
            .flat_map(|(key, entries)| {
                let journal_template = journal_template.clone();
                entries.into_iter().map(move |raw| Journal {
                    key: key.clone(),
                    name: raw.name,
                    variations: raw.variations,
                    templates: journal_template.clone(),
                })
            })
            .collect();

        Vocabulary {
            reporters,
            editions,
            laws,
            journals,
            variables: Variables::from_json(&regexes),
            compiled: builder.sources.iter().map(|_| OnceLock::new()).collect(),
            template_sources: builder.sources,
        }
    }
}

/// Collects distinct template sources.
struct Builder {
    sources: Vec<String>,
    ids: BTreeMap<String, usize>,
}

impl Builder {
    /// The id of a template source, registered once.
    fn template(&mut self, source: &str) -> Option<usize> {
        if let Some(&id) = self.ids.get(source) {
            return Some(id);
        }
        self.sources.push(source.to_string());
        self.ids.insert(source.to_string(), self.sources.len() - 1);
        Some(self.sources.len() - 1)
    }
}

/// Reads reporters-db dates ("1875-01-01T00:00:00").
fn parse_date(text: &str) -> Option<NaiveDate> {
    let date = text.get(..10)?;
    NaiveDate::parse_from_str(date, "%Y-%m-%d").ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_every_vocabulary() {
        let v = Vocabulary::get();
        assert!(v.reporters.len() > 1_200);
        assert!(v.editions.len() > 1_300);
        assert!(v.laws.len() > 370);
        assert!(v.journals.len() > 790);
        for e in &v.editions {
            assert!(
                !e.templates.is_empty(),
                "{} has no usable template",
                e.abbreviation
            );
        }
    }

    /// One template spells S.W.2d as a pattern with nothing fixed to anchor
    /// on; the scanner finds the same spellings through S.W.2d's listed
    /// variations. Any other template that stops compiling fails here.
    #[test]
    fn only_one_template_is_unusable() {
        let unusable = Vocabulary::get().unusable_templates();
        assert_eq!(unusable.len(), 1, "{unusable:?}");
        assert!(unusable[0].0.contains(r"S\.?-? ?(?:W|w)"));
    }
}
