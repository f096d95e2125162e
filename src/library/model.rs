//! What the library holds: cases (decisions) with their opinions and
//! citations, and authorities that are not cases (rules, code sections,
//! regulations). `data-schema/library.md` documents the model.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::citations::{is_invisible_mark, reporters};

/// A citation's address in a reporter: (volume, canonical reporter, page).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct CiteKey {
    pub volume: u32,
    pub reporter: String,
    pub page: u32,
}

impl CiteKey {
    /// The address of `page` of `volume` of a reporter (canonical
    /// abbreviation) that a citation spelled `written` names. A volume of
    /// the Supreme Court's early reporters is the U.S. Reports volume that
    /// reprints it with the same pages ("1 Cranch 137" is 5 U.S. 137), so
    /// either citation finds the case; a circuit court's series of the same
    /// abbreviation ("1 Cranch C.C. 100") keeps its own address.
    pub fn new(volume: u32, reporter: &str, written: &str, page: u32) -> Self {
        match reporters::us_reports_volume(reporter, volume) {
            Some(us_volume) if reporters::is_early_scotus_spelling(written) => Self {
                volume: us_volume,
                reporter: "U.S.".into(),
                page,
            },
            _ => Self {
                volume,
                reporter: reporter.to_string(),
                page,
            },
        }
    }

    /// The address a citation's page as written names: a page number, or
    /// the number of an unpublished order with its suffix ("2020 IL App (2d)
    /// 190775-U", "2019 NY Slip Op 51234(U)", New York's decisions printed
    /// in abstract, "88 Misc 3d 130(A)") or an Illinois workers'
    /// compensation number ("190486WC", "190486WC-U"), each addressed in a
    /// series of its own ([`order_series`]) so that it is never taken for
    /// the published decision of the same number.
    pub fn of_page_text(volume: u32, reporter: &str, written: &str, page: &str) -> Option<Self> {
        let page = page.trim();
        let digits = page.len() - page.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let number: u32 = page[..digits].parse().ok().filter(|&n| n > 0)?;
        if digits == page.len() {
            return Some(Self::new(volume, reporter, written, number));
        }
        let suffix = order_suffix(&page[digits..])?;
        Some(Self {
            volume,
            reporter: format!("{reporter} {suffix}"),
            page: number,
        })
    }
}

/// The suffix after an order's number in its one form ("-U", "-UB", "WC",
/// "WC-U", "(U)"), from any of the ways briefs write it: another dash or
/// an underscore for the hyphen, a space before it, lower case, "[U]".
fn order_suffix(written: &str) -> Option<String> {
    let suffix: String = written
        .trim_start()
        .chars()
        .map(|c| match c {
            '‐' | '‑' | '–' | '—' | '_' => '-',
            '[' => '(',
            ']' => ')',
            other => other.to_ascii_uppercase(),
        })
        .collect();
    is_order_suffix(&suffix).then_some(suffix)
}

/// "(U)" and "(A)" (New York), or Illinois' "WC" and "-" with one or two
/// capitals, either or both ("WC-U").
fn is_order_suffix(suffix: &str) -> bool {
    if matches!(suffix, "(U)" | "(A)") {
        return true;
    }
    let rest = suffix.strip_prefix("WC").unwrap_or(suffix);
    let letters = match rest.strip_prefix('-') {
        Some(letters) => letters,
        None => return rest.is_empty() && !suffix.is_empty(),
    };
    (1..=2).contains(&letters.len()) && letters.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether the numbers after a series' volume number documents, not pages:
/// Westlaw, LEXIS and neutral citations, unpublished orders' series, and
/// advance opinions cited by opinion number ("142 Nev. Adv. Op. No. 43").
/// No page range is inferred there, and a pin there ("at 3") is a page of
/// the document, which the library cannot check.
pub fn numbers_documents(reporter: &str) -> bool {
    !reporters::has_pages(reporter)
        || order_series(reporter).is_some()
        || reporter.contains("Adv. Op.")
}

/// The reporter and suffix of an order series ("IL App (2d) -U"), which
/// holds no volume: orders are numbered, not paged, and no source lists
/// them all. The reporter before the suffix must be one the citation
/// engine knows ("TN WC" is a reporter of its own).
pub fn order_series(reporter: &str) -> Option<(&str, &str)> {
    let (base, suffix) = reporter.rsplit_once(' ')?;
    (is_order_suffix(suffix) && crate::citations::reporters::is_known(base))
        .then_some((base, suffix))
}

/// The reporter as a citation "VOLUME REPORTER PAGE" spells it
/// ("Cranch C.C." of "1 Cranch C.C. 100").
pub fn reporter_spelling(citation: &str) -> &str {
    citation
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim()
}

impl fmt::Display for CiteKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match order_series(&self.reporter) {
            Some((reporter, suffix)) => {
                write!(f, "{} {reporter} {}{suffix}", self.volume, self.page)
            }
            None => write!(f, "{} {} {}", self.volume, self.reporter, self.page),
        }
    }
}

/// One citation of a case, as the source gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseCitation {
    /// The citation as printed, e.g. "347 U.S. 483" or "2013-Ohio-55".
    pub cite: String,
    /// Its reporter address, when it has numeric volume and page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<CiteKey>,
    /// The last page of the case in that reporter, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_page: Option<u32>,
}

impl CaseCitation {
    /// Whether `other` is this citation written again: the same text, or
    /// the same address written with the same letters and digits ("347 U. S.
    /// 483" is "347 U.S. 483"). A nominative citation is another citation
    /// of its U.S. Reports address ("1 Cranch 137" of 5 U.S. 137), kept
    /// with it among the case's parallel citations.
    pub fn is_written_as(&self, other: &CaseCitation) -> bool {
        self.cite == other.cite
            || (self.key.is_some()
                && self.key == other.key
                && squashed(&self.cite) == squashed(&other.cite))
    }

    /// Whether `printed` is this citation, in the same letters and digits.
    pub fn reads_as(&self, printed: &str) -> bool {
        self.cite == printed || squashed(&self.cite) == squashed(printed)
    }
}

/// A citation's letters and digits alone.
fn squashed(cite: &str) -> String {
    cite.chars().filter(|c| c.is_alphanumeric()).collect()
}

/// How an opinion's text is stored (public-api.md §2.7 `Body.format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BodyFormat {
    Html,
    Markdown,
    Text,
}

/// One writing within a decision: majority, dissent, concurrence…
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpinionMeta {
    pub number: u32,
    /// CourtListener's opinion type words (`combined`, `lead`, `dissent`, …)
    /// or CAP's (`majority`, `dissent`, `concurrence`).
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    pub format: BodyFormat,
    /// Where the text came from (source name, and its id there).
    pub provenance: Provenance,
    pub chars: u64,
    /// Hash of the text, so that re-importing an unchanged opinion changes
    /// nothing (and is not read into the citation graph twice).
    #[serde(default)]
    pub text_hash: u64,
}

/// A source and the id of the record there.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Provenance {
    pub source: String,
    pub id: String,
}

/// A decision.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseRecord {
    /// Stable id: `<first source>-<its id there>`, e.g. `scdb-1953-089`.
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_short: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_abbreviation: Option<String>,
    /// The names of the cases decided with this one and reported under its
    /// citation (SCDB's dockets: "VIGNERA v. NEW YORK" with Miranda).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub companion_names: Vec<String>,
    /// courts-db id (CourtListener court id), e.g. `scotus`, `ca9`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub court: Option<String>,
    /// ISO date; may be only a year or a year and month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision_date: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub docket_numbers: Vec<String>,
    #[serde(default)]
    pub citations: Vec<CaseCitation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precedential_status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judges: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub syllabus: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head_matter: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default)]
    pub opinions: Vec<OpinionMeta>,
    /// The external page of the decision (court site, CourtListener, CAP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_url: Option<String>,
    /// Every source that contributed to this record.
    #[serde(default)]
    pub provenance: Vec<Provenance>,
    /// The source that gave each field a later source filled in; a field
    /// not listed came from the first source in `provenance`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub field_sources: BTreeMap<String, Provenance>,
}

/// A name as it is shown and matched: control characters (a NUL, a
/// newline, DEL) read as spaces, and invisible marks
/// ([`is_invisible_mark`]) left out. "CTRL\0CHARS\u{202e} v. ROW" would
/// otherwise garble or reverse what a reader of the name sees. A name that
/// holds none is returned as it is.
pub fn shown_name(name: &str) -> Cow<'_, str> {
    if !name.chars().any(|c| c.is_control() || is_invisible_mark(c)) {
        return Cow::Borrowed(name);
    }
    let spaced: String = name
        .chars()
        .filter(|&c| !is_invisible_mark(c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    Cow::Owned(spaced.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// "CONLEY et al.v. GIBSON" as "CONLEY et al. v. GIBSON": SCDB runs a
/// few names' "v." into the abbreviation before it, and a name whose
/// parties are not apart is not matched by them.
pub fn versus_spaced(name: &str) -> Cow<'_, str> {
    let glued = |at: usize| {
        let before = &name[..at];
        before.ends_with('.')
            && before[..before.len() - 1]
                .chars()
                .next_back()
                .is_some_and(char::is_alphabetic)
    };
    let mut places: Vec<usize> = [".v. ", ".vs. "]
        .iter()
        .flat_map(|glue| name.match_indices(glue))
        .map(|(at, _)| at + 1)
        .filter(|&at| glued(at))
        .collect();
    places.sort_unstable();
    if places.is_empty() {
        return Cow::Borrowed(name);
    }
    let mut spaced = String::with_capacity(name.len() + places.len());
    let mut from = 0;
    for at in places {
        spaced.push_str(&name[from..at]);
        spaced.push(' ');
        from = at;
    }
    spaced.push_str(&name[from..]);
    Cow::Owned(spaced)
}

impl CaseRecord {
    /// The reporter addresses it is cited at.
    pub fn cite_keys(&self) -> impl Iterator<Item = &CiteKey> {
        self.citations.iter().filter_map(|c| c.key.as_ref())
    }

    /// The addresses it is cited at in `reporter`.
    pub fn cite_keys_in<'a>(&'a self, reporter: &'a str) -> impl Iterator<Item = &'a CiteKey> {
        self.cite_keys().filter(move |k| k.reporter == reporter)
    }

    /// Its names as shown ([`shown_name`]), a "v." run into the period
    /// before it spaced ([`versus_spaced`]).
    pub fn clean_names(&mut self) {
        let clean = |name: &mut String| {
            if let Cow::Owned(shown) = shown_name(name) {
                *name = shown;
            }
            if let Cow::Owned(spaced) = versus_spaced(name) {
                *name = spaced;
            }
        };
        clean(&mut self.name);
        self.name_short.iter_mut().for_each(clean);
        self.name_abbreviation.iter_mut().for_each(clean);
        self.companion_names.iter_mut().for_each(clean);
    }

    /// The year of decision, when the date has one.
    pub fn year(&self) -> Option<i32> {
        self.decision_date.as_deref()?.get(..4)?.parse().ok()
    }

    pub fn has_text(&self) -> bool {
        !self.opinions.is_empty()
    }

    /// Takes in `other`, a record of the same decision: the fields its source
    /// gave before are replaced (so a corrected re-import lands, and a value
    /// the source no longer gives is removed); fields another source gave
    /// stay, and only those this record lacks are filled. Docket numbers,
    /// citations and sources are added to, except that the record's only
    /// source, giving its citations again, gives all of them: one it no
    /// longer gives is withdrawn; and giving its one docket number again
    /// replaces it (a corrected dump). A decision of several dockets keeps
    /// them all: SCDB gives each in a row of its own.
    pub fn merge(&mut self, other: CaseRecord) {
        let only_source_again =
            self.provenance.len() == 1 && other.provenance.first() == self.provenance.first();
        if only_source_again && !other.citations.is_empty() {
            self.citations
                .retain(|held| other.citations.iter().any(|c| c.is_written_as(held)));
        }
        if only_source_again && self.docket_numbers.len() == 1 && other.docket_numbers.len() == 1 {
            self.docket_numbers.clear();
        }
        let other_caption = other
            .provenance
            .first()
            .is_some_and(|source| !self.provenance.contains(source))
            .then(|| other.name.clone())
            .filter(|name| {
                !self.name.is_empty()
                    && another_caption(&self.name, name)
                    && self
                        .companion_names
                        .iter()
                        .all(|companion| another_caption(companion, name))
            });
        let mut fields = FieldGivers {
            givers: &mut self.field_sources,
            first: self.provenance.first(),
            sole_source: self.provenance.len() <= 1,
            giver: other.provenance.first(),
        };
        if !other.name.is_empty() {
            let mut name = Some(std::mem::take(&mut self.name));
            fields.take("name", &mut name, Some(other.name));
            self.name = name.unwrap_or_default();
        }
        fields.take("nameShort", &mut self.name_short, other.name_short);
        fields.take(
            "nameAbbreviation",
            &mut self.name_abbreviation,
            other.name_abbreviation,
        );
        fields.take("court", &mut self.court, other.court);
        fields.take("decisionDate", &mut self.decision_date, other.decision_date);
        fields.take(
            "precedentialStatus",
            &mut self.precedential_status,
            other.precedential_status,
        );
        fields.take("judges", &mut self.judges, other.judges);
        fields.take("syllabus", &mut self.syllabus, other.syllabus);
        fields.take("headMatter", &mut self.head_matter, other.head_matter);
        fields.take("summary", &mut self.summary, other.summary);
        fields.take("sourceUrl", &mut self.source_url, other.source_url);
        for docket in other.docket_numbers {
            if !self.docket_numbers.contains(&docket) {
                self.docket_numbers.push(docket);
            }
        }
        for name in other.companion_names.into_iter().chain(other_caption) {
            if name != self.name && !self.companion_names.contains(&name) {
                self.companion_names.push(name);
            }
        }
        for citation in other.citations {
            let known = self
                .citations
                .iter_mut()
                .find(|c| c.is_written_as(&citation));
            match known {
                Some(known) => {
                    if known.last_page.is_none() {
                        known.last_page = citation.last_page;
                    }
                    if known.key.is_none() {
                        known.key = citation.key;
                    }
                }
                None => self.citations.push(citation),
            }
        }
        for source in other.provenance {
            if !self.provenance.contains(&source) {
                self.provenance.push(source);
            }
        }
    }
}

/// Whether `other`, a new source's name for a decision, is another
/// caption than `name`: a case decided in the same opinion under its own
/// docket ("Nelson v. Lindvig" with "Nelson v. Persons Unknown", both 2024
/// ND 208), kept among the companions so search and name checks find it.
fn another_caption(name: &str, other: &str) -> bool {
    use crate::citations::names::case_names_match;
    !other.is_empty() && !case_names_match(other, name) && !case_names_match(name, other)
}

/// Who gave a record's fields, while another record of the decision is
/// merged into it.
struct FieldGivers<'a> {
    givers: &'a mut BTreeMap<String, Provenance>,
    /// The record's first source: the giver of every field not listed.
    first: Option<&'a Provenance>,
    /// The record has no other source, so its first gave every field. With
    /// several, an unlisted field is only presumed the first's: records
    /// stored before `fieldSources` existed list no givers.
    sole_source: bool,
    /// The source of the record being merged in.
    giver: Option<&'a Provenance>,
}

impl FieldGivers<'_> {
    fn take(&mut self, field: &str, mine: &mut Option<String>, theirs: Option<String>) {
        let theirs = theirs.filter(|t| !t.is_empty());
        if mine.as_deref().is_none_or(str::is_empty) {
            if theirs.is_some() {
                *mine = theirs;
                self.record_giver(field);
            }
        } else if self.gave(field) {
            if theirs.is_some() {
                *mine = theirs;
            } else if self.sole_source || self.givers.contains_key(field) {
                // Removed only when surely the giver's, not on a presumption.
                *mine = None;
                self.givers.remove(field);
            }
        }
    }

    /// Whether the source being merged in gave the value held now.
    fn gave(&self, field: &str) -> bool {
        let holder = self.givers.get(field).or(self.first);
        self.giver.is_some() && holder == self.giver
    }

    fn record_giver(&mut self, field: &str) {
        match self.giver {
            Some(giver) if self.first != Some(giver) => {
                self.givers.insert(field.to_string(), giver.clone());
            }
            _ => {
                self.givers.remove(field);
            }
        }
    }
}

/// An opinion about to be stored.
#[derive(Debug, Clone)]
pub struct NewOpinion {
    pub kind: String,
    pub author: Option<String>,
    pub format: BodyFormat,
    pub text: String,
    pub provenance: Provenance,
}

/// A case about to be stored. Its `record.provenance` says which source
/// brought it (and makes re-imports idempotent); `record.opinions` is filled
/// from `opinions` when stored.
#[derive(Debug, Clone, Default)]
pub struct NewCase {
    pub record: CaseRecord,
    pub opinions: Vec<NewOpinion>,
}

/// The codes and rule sets an authority can belong to.
pub mod codes {
    pub const USC: &str = "usc";
    pub const CFR: &str = "cfr";
    pub const FRCP: &str = "frcp";
    pub const FRCRP: &str = "frcrp";
    pub const FRE: &str = "fre";
    pub const FRAP: &str = "frap";
    pub const SUP_CT_R: &str = "supctr";
}

/// An authority that is not a case: a rule, a code section, a regulation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Authority {
    /// One of [`codes`].
    pub code: String,
    /// Title number for codes (`42`), empty for rule sets.
    pub title: String,
    /// Section or rule number (`1983`, `12`, `1910.1200`).
    pub section: String,
    pub heading: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// `live`, or the status a dead section carries (repealed, transferred…).
    pub status: String,
    pub source: String,
}

impl Authority {
    /// The id the API uses for it, e.g. `usc/42/1983`, `frcp/12`.
    pub fn id(&self) -> String {
        if self.title.is_empty() {
            format!("{}/{}", self.code, self.section)
        } else {
            format!("{}/{}/{}", self.code, self.title, self.section)
        }
    }
}

/// How completely the library holds a code title or rule set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LawCoverage {
    /// Every live section (or rule) is held: a number not held is not live.
    pub live_complete: bool,
    /// Dead sections (repealed, transferred…) are held too: a number not
    /// held never existed (for rule sets: is above the highest rule).
    pub history_complete: bool,
    /// For rule sets: the highest rule number; a number above it cannot exist.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub highest: Option<u32>,
    /// For rule sets numbered by article (the Federal Rules of Evidence:
    /// 101–107, 201, 301–302, …): each article's last rule.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub last_of_article: Vec<u32>,
    pub sections: u64,
    pub source: String,
}

impl LawCoverage {
    /// Why rule `number` of this set cannot exist, when it cannot.
    pub fn rule_number_fault(&self, number: u32) -> Option<String> {
        rule_number_fault(self.highest?, &self.last_of_article, number)
    }
}

/// Why rule `number` cannot exist in a set whose last rule is `highest`
/// and, when it is numbered by article, whose articles end at
/// `last_of_article` (article N's rules are N01 to its last).
pub fn rule_number_fault(highest: u32, last_of_article: &[u32], number: u32) -> Option<String> {
    if !(1..=highest).contains(&number) {
        return Some(format!("the rules of this set are numbered 1 to {highest}"));
    }
    if last_of_article.is_empty() {
        return None;
    }
    let article = number / 100;
    let Some(last) = article
        .checked_sub(1)
        .and_then(|index| last_of_article.get(index as usize))
    else {
        // Below 101 ("Fed. R. Evid. 50"): no article numbers it.
        return Some(format!(
            "the rules of this set are numbered by article, from rule 101 to {highest}"
        ));
    };
    let first = article * 100 + 1;
    (number < first || number > *last)
        .then(|| format!("article {article} of this set runs from rule {first} to {last}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_versus_run_into_an_abbreviation_is_spaced() {
        for (name, shown) in [
            (
                "CONLEY et al.v. GIBSON et al.",
                "CONLEY et al. v. GIBSON et al.",
            ),
            ("A Corp.vs. B Inc.v. C", "A Corp. vs. B Inc. v. C"),
            ("Brown v. Board", "Brown v. Board"),
            // Not a "v." run into a word's period.
            ("In re U.S.v", "In re U.S.v"),
            ("A. 1.v. B", "A. 1.v. B"),
        ] {
            assert_eq!(versus_spaced(name), shown);
        }
    }

    #[test]
    fn names_are_shown_without_control_characters_or_bidi_marks() {
        assert_eq!(
            shown_name("CTRL\0CHARS\u{202e} V. ROW"),
            "CTRL CHARS V. ROW"
        );
        assert_eq!(shown_name("Roe\n v.\u{200b} Wade"), "Roe v. Wade");
        assert!(matches!(shown_name("Brown v. Board"), Cow::Borrowed(_)));
        assert_eq!(shown_name("Émile Nuñez v.  北京"), "Émile Nuñez v.  北京");
    }

    #[test]
    fn a_rule_numbered_by_article_is_inside_one() {
        let articles = [107, 201, 302, 415];
        let fault = |n| rule_number_fault(415, &articles, n);
        for real in [101, 107, 201, 301, 401, 415] {
            assert_eq!(fault(real), None, "{real}");
        }
        for not_one in [0, 1, 50, 100, 108, 200, 303, 400, 416, 1000] {
            assert!(fault(not_one).is_some(), "{not_one}");
        }
    }

    fn from(source: &str, id: &str) -> CaseRecord {
        CaseRecord {
            id: format!("{source}-{id}"),
            provenance: vec![Provenance {
                source: source.into(),
                id: id.into(),
            }],
            ..CaseRecord::default()
        }
    }

    #[test]
    fn an_unpublished_orders_number_is_addressed_in_its_own_series() {
        let order = |page: &str| CiteKey::of_page_text(2020, "IL App (2d)", "IL App (2d)", page);
        let key = order("190775-U").unwrap();
        assert_eq!(
            (key.reporter.as_str(), key.page),
            ("IL App (2d) -U", 190775)
        );
        assert_eq!(key.to_string(), "2020 IL App (2d) 190775-U");
        assert_eq!(order("190775-UB").unwrap().reporter, "IL App (2d) -UB");
        assert_eq!(order(" 190775 ").unwrap().reporter, "IL App (2d)");
        for written in ["190775–U", "190775 -u", "190775_U", "190775‑U"] {
            assert_eq!(order(written), order("190775-U"), "{written}");
        }
        let workers_compensation = order("190486WC-U").unwrap();
        assert_eq!(workers_compensation.reporter, "IL App (2d) WC-U");
        assert_eq!(
            workers_compensation.to_string(),
            "2020 IL App (2d) 190486WC-U"
        );
        assert_eq!(order("190486WC").unwrap().reporter, "IL App (2d) WC");
        for not_a_page in [
            "0",
            "-U",
            "12a-U",
            "0-U",
            "190775-X1",
            "1 9-U",
            "190775-Ufoo",
            "190775-UBX",
            "190775WCX",
            "190775U",
        ] {
            assert_eq!(order(not_a_page), None, "{not_a_page}");
        }
        assert_eq!(order_series("NY Slip Op (U)"), Some(("NY Slip Op", "(U)")));
        assert_eq!(
            CiteKey::of_page_text(2024, "NY Slip Op", "NY Slip Op", "51192[U]")
                .unwrap()
                .reporter,
            "NY Slip Op (U)"
        );
        let abstract_decision = CiteKey::of_page_text(88, "Misc. 3d", "Misc 3d", "130(A)").unwrap();
        assert_eq!(
            (abstract_decision.reporter.as_str(), abstract_decision.page),
            ("Misc. 3d (A)", 130)
        );
        assert_eq!(abstract_decision.to_string(), "88 Misc. 3d 130(A)");
        assert_eq!(order_series("U.S."), None);
        assert_eq!(order_series("TN WC"), None, "a reporter of its own");
    }

    #[test]
    fn a_keyless_citation_takes_the_key_a_later_record_gives_it() {
        let cite = "2020 IL App (2d) 190775-U";
        let mut held = from("juriscraper", "1");
        held.citations.push(CaseCitation {
            cite: cite.into(),
            key: None,
            last_page: None,
        });
        let mut again = from("juriscraper", "1");
        let key = CiteKey::of_page_text(2020, "IL App (2d)", "IL App (2d)", "190775-U");
        again.citations.push(CaseCitation {
            cite: cite.into(),
            key: key.clone(),
            last_page: None,
        });
        held.merge(again);
        assert_eq!(held.citations.len(), 1);
        assert_eq!(held.citations[0].key, key);
    }

    #[test]
    fn a_sources_new_docket_number_replaces_its_old_one_and_adds_to_anothers() {
        let with_docket = |source: &str, docket: &str| CaseRecord {
            docket_numbers: vec![docket.into()],
            ..from(source, "9101")
        };
        let mut held = with_docket("courtlistener", "02-9101");
        held.merge(with_docket("courtlistener", "02-9101-CORR"));
        assert_eq!(held.docket_numbers, ["02-9101-CORR"]);
        held.merge(from("courtlistener", "9101"));
        assert_eq!(held.docket_numbers, ["02-9101-CORR"], "none given: kept");
        held.merge(with_docket("cap", "9101"));
        assert_eq!(held.docket_numbers, ["02-9101-CORR", "9101"]);
        let mut companions = from("scdb", "1965-059");
        companions.docket_numbers = vec!["759".into(), "760".into()];
        let mut again = with_docket("scdb", "759");
        again.provenance = companions.provenance.clone();
        companions.merge(again);
        assert_eq!(
            companions.docket_numbers,
            ["759", "760"],
            "a decision's companion dockets stay"
        );
    }

    #[test]
    fn a_source_replaces_the_fields_it_gave_and_only_fills_the_others() {
        let mut held = CaseRecord {
            name: "BROWN v. BOARD".into(),
            decision_date: Some("1954-05-17".into()),
            ..from("scdb", "1953-089")
        };
        let cap = |name: &str, date: Option<&str>, judges: Option<&str>| CaseRecord {
            name: name.into(),
            decision_date: date.map(str::to_string),
            judges: judges.map(str::to_string),
            name_abbreviation: Some("Brown v. Bd.".into()),
            ..from("cap", "9")
        };
        held.merge(cap(
            "Brown v. Board of Education",
            Some("1954-05-18"),
            Some("Warren"),
        ));
        assert_eq!(held.name, "BROWN v. BOARD", "SCDB gave the name");
        assert_eq!(held.decision_date.as_deref(), Some("1954-05-17"));
        assert_eq!(held.judges.as_deref(), Some("Warren"), "filled in by CAP");
        let before = held.clone();
        held.merge(cap(
            "Brown v. Board of Education",
            Some("1954-05-18"),
            Some("Warren"),
        ));
        assert_eq!(held, before, "the same record again changes nothing");

        held.merge(cap("Other name", None, Some("Warren, C.J.")));
        assert_eq!(
            held.judges.as_deref(),
            Some("Warren, C.J."),
            "CAP's correction"
        );
        assert_eq!(held.name, "BROWN v. BOARD");
        held.merge(cap("Other name", None, None));
        assert_eq!(
            held.judges, None,
            "CAP, listed as their giver, no longer gives them"
        );
        assert!(!held.field_sources.contains_key("judges"));

        let mut scdb_again = CaseRecord {
            name: "BROWN v. BOARD OF EDUCATION".into(),
            ..from("scdb", "1953-089")
        };
        scdb_again.name_abbreviation = Some("Brown v. Board".into());
        held.merge(scdb_again);
        assert_eq!(
            held.name, "BROWN v. BOARD OF EDUCATION",
            "SCDB's correction"
        );
        assert_eq!(
            held.decision_date.as_deref(),
            Some("1954-05-17"),
            "unlisted, so only presumed SCDB's: its silence removes nothing"
        );
        assert_eq!(
            held.name_abbreviation.as_deref(),
            Some("Brown v. Bd."),
            "CAP's"
        );
    }

    #[test]
    fn a_record_written_before_field_sources_counts_every_field_as_its_first_sources() {
        let json = r#"{"id":"cap-9","name":"Alpha v. Beta","decisionDate":"24-2013-12",
            "citations":[],"opinions":[],"provenance":[{"source":"cap","id":"9"}]}"#;
        let mut held: CaseRecord = serde_json::from_str(json).unwrap();
        held.merge(CaseRecord {
            name: "Alpha v. Beta".into(),
            decision_date: Some("2013-12-24".into()),
            ..from("cap", "9")
        });
        assert_eq!(held.decision_date.as_deref(), Some("2013-12-24"));
        assert!(held.field_sources.is_empty());

        // With two sources and no givers listed, the judges may be either's:
        // the first source's silence does not remove them.
        let json = r#"{"id":"scdb-1","name":"A v. B","judges":"Warren",
            "citations":[],"opinions":[],
            "provenance":[{"source":"scdb","id":"1"},{"source":"cap","id":"2"}]}"#;
        let mut held: CaseRecord = serde_json::from_str(json).unwrap();
        held.merge(CaseRecord {
            name: "A v. B".into(),
            ..from("scdb", "1")
        });
        assert_eq!(held.judges.as_deref(), Some("Warren"));
    }

    #[test]
    fn a_citation_written_again_is_one_and_a_nominative_one_is_another() {
        use crate::library::import::parse_simple_cite;
        let us = parse_simple_cite("5 U.S. 137");
        assert!(us.is_written_as(&parse_simple_cite("5 U. S. 137")));
        let cranch = parse_simple_cite("1 Cranch 137");
        assert_eq!(cranch.key, us.key, "one address");
        assert!(!us.is_written_as(&cranch));
        let mut marbury = CaseRecord {
            citations: vec![us],
            ..from("scdb", "1803-001")
        };
        marbury.merge(CaseRecord {
            citations: vec![parse_simple_cite("5 U. S. 137"), cranch],
            ..from("courtlistener", "84759")
        });
        let cites: Vec<&str> = marbury.citations.iter().map(|c| c.cite.as_str()).collect();
        assert_eq!(cites, ["5 U.S. 137", "1 Cranch 137"]);
    }
}
