//! The extractor: scanner, template matching, metadata, references and
//! resolution, in that order.

mod build;
mod case_name;
mod cores;
mod references;
mod tail;

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;
use std::sync::OnceLock;

pub(crate) use build::Context;
pub use case_name::name_before;
pub(crate) use case_name::split as split_parties;

use super::model::{Citation, CitationKind};
use super::resolve;
use super::scanner::{Scanner, Target};
use super::templates::Trigger;
use super::text::is_invisible_mark;
use super::vocab::{Edition, Vocabulary};

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
    /// Reporters and codes matched in any case ("347 u.s. 483", "74 S.ct.
    /// 686", "5 F.3D 10", "42 u.s.c. § 1983"), looked for only after a
    /// volume number where the main scanner found nothing: most words start
    /// in lower case, and walking a trie that holds these at each of them
    /// would slow every document down.
    any_case: Scanner,
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
        let mut patterns: Vec<(Cow<'static, str>, Target)> = Vec::new();
        let mut any_case: Vec<(Cow<'static, str>, Target)> = Vec::new();
        let written: HashSet<&str> = vocabulary
            .editions
            .iter()
            .flat_map(|edition| std::iter::once(&edition.abbreviation).chain(&edition.variations))
            .map(|spelling| spelling.as_ref())
            .collect();
        for (id, edition) in vocabulary.editions.iter().enumerate() {
            let id = id as u32;
            patterns.push((
                edition.abbreviation.clone(),
                Target::Edition { id, exact: true },
            ));
            for variation in &edition.variations {
                patterns.push((variation.clone(), Target::Edition { id, exact: false }));
            }
            if read_in_any_case(vocabulary, edition) {
                let spellings = std::iter::once(&edition.abbreviation).chain(&edition.variations);
                let target = Target::Edition { id, exact: false };
                for spelling in spellings.clone().filter(|s| abbreviated_in_parts(s)) {
                    any_case.push((Cow::Borrowed(spelling.as_ref()), target));
                }
                let loose = spellings.flat_map(|spelling| loose_spellings(spelling));
                for spelling in loose.filter(|s| !written.contains(s.as_str())) {
                    any_case.push((Cow::Owned(spelling), target));
                }
            }
        }
        for (id, law) in vocabulary.laws.iter().enumerate() {
            let id = id as u32;
            patterns.push((law.key.clone(), Target::Law { id, exact: true }));
            let spellings = || std::iter::once(&law.key).chain(&law.variations);
            for spelling in spellings() {
                // Written without its periods ("Fed R Civ P"), a law of three
                // words or more is still plainly itself.
                let loose = spelling.replace('.', "");
                if loose.split_whitespace().count() >= 3 && !spellings().any(|s| *s == loose) {
                    patterns.push((Cow::Owned(loose), Target::Law { id, exact: false }));
                }
                if abbreviated_in_parts(spelling) {
                    any_case.push((
                        Cow::Borrowed(spelling.as_ref()),
                        Target::Law { id, exact: false },
                    ));
                }
                // Small capitals come out of PDFs and web pages as capitals
                // ("WIS. STAT. § 66.0217").
                patterns.push((spelling.clone(), Target::Law { id, exact: false }));
                patterns.push((
                    Cow::Owned(spelling.to_uppercase()),
                    Target::Law { id, exact: false },
                ));
            }
            for &t in &law.templates {
                if !vocabulary.names_its_reporter(t) {
                    continue;
                }
                let trigger = vocabulary.template(t).map(|template| &template.trigger);
                if let Some(Trigger::Literal(literal)) = trigger {
                    let target = Target::LawTemplate {
                        law: id,
                        template: t as u32,
                    };
                    patterns.push((Cow::Owned(literal.clone()), target));
                }
            }
        }
        for (id, journal) in vocabulary.journals.iter().enumerate() {
            let id = id as u32;
            patterns.push((journal.key.clone(), Target::Journal { id, exact: true }));
            for spelling in std::iter::once(&journal.key).chain(&journal.variations) {
                patterns.push((spelling.clone(), Target::Journal { id, exact: false }));
                patterns.push((
                    Cow::Owned(spelling.to_uppercase()),
                    Target::Journal { id, exact: false },
                ));
            }
        }
        let fixed = [
            (
                &["Id.", "id.", "ID.", "Ibid.", "ibid.", "IBID."][..],
                Target::Id,
            ),
            (&["supra", "Supra", "SUPRA"][..], Target::Supra),
            (&["§"][..], Target::SectionSign),
            (&RECORD_CITES[..], Target::Record),
        ];
        for (strings, target) in fixed {
            patterns.extend(strings.iter().map(|s| (Cow::Borrowed(*s), target)));
        }
        Extractor {
            scanner: Scanner::build(patterns.iter().map(|(s, t)| (s.as_ref(), *t))),
            any_case: Scanner::build_ignoring_case(any_case.iter().map(|(s, t)| (s.as_ref(), *t))),
            vocabulary,
        }
    }

    /// What a reporter, law or journal spelling stands for.
    pub(crate) fn targets_of(&self, spelling: &str) -> &[Target] {
        match self.scanner.exact(spelling) {
            [] => self.any_case.exact(spelling),
            targets => targets,
        }
    }

    /// Every citation in `text`, in text order, with metadata and
    /// resolution. Never panics; linear in the length of `text`.
    pub fn extract(&self, text: &str) -> Vec<Citation> {
        on_visible_text(text, |visible| self.extract_visible(visible))
    }

    /// Where the full case citations of `text` point, for those with a
    /// numeric volume and page and a known reporter: what the citation graph
    /// needs. The same citations [`Extractor::extract`] finds, read faster:
    /// when every edition a reporter string can stand for has the same
    /// abbreviation, nothing around the citation (name, year, court) changes
    /// its address, so none of it is read.
    pub fn case_addresses(&self, text: &str) -> Vec<CaseAddress> {
        if Visible::of(text).is_none() {
            let cores = cores::find(text, &self.scanner, &self.any_case, self.vocabulary);
            if let Some(addresses) = self.addresses_of_cores(text, &cores) {
                return addresses;
            }
        }
        self.extract_full_cases(text)
            .iter()
            .filter_map(CaseAddress::of)
            .collect()
    }

    /// The addresses of the full case cores; `None` when a reporter string
    /// could stand for several reporters (the year decides then).
    fn addresses_of_cores(&self, text: &str, cores: &[cores::Core]) -> Option<Vec<CaseAddress>> {
        let mut addresses = Vec::new();
        for core in cores {
            let cores::CoreKind::Case {
                editions,
                short: false,
            } = &core.kind
            else {
                continue;
            };
            let mut abbreviations = editions
                .iter()
                .map(|&e| self.vocabulary.editions[e as usize].abbreviation.as_ref());
            let Some(reporter) = abbreviations.next() else {
                continue;
            };
            if abbreviations.any(|other| other != reporter) {
                return None;
            }
            let number = |group: &str| {
                core.group(group)
                    .map(|range| &text[range])
                    .filter(|n| !n.starts_with('_'))
                    .and_then(|n| n.parse().ok())
            };
            if let (Some(volume), Some(page)) = (number("volume"), number("page")) {
                addresses.push(CaseAddress {
                    span: core.span.clone(),
                    volume,
                    reporter,
                    page,
                });
            }
        }
        Some(addresses)
    }

    /// The full case citations in `text`, as [`Extractor::extract`] finds
    /// them, without the later passes that only point back at them (short
    /// forms, "Id.", "supra" and references, and their resolution).
    pub fn extract_full_cases(&self, text: &str) -> Vec<Citation> {
        on_visible_text(text, |visible| {
            let cores = cores::find(visible, &self.scanner, &self.any_case, self.vocabulary);
            let (citations, _) = build::build(visible, &cores, self.vocabulary);
            citations
                .into_iter()
                .filter(|c| c.kind == CitationKind::FullCase)
                .map(|mut c| {
                    // Indexes into the whole list mean nothing in this one.
                    c.parallel.clear();
                    c.subsequent_history
                        .iter_mut()
                        .for_each(|h| h.citation = None);
                    c
                })
                .collect()
        })
    }

    fn extract_visible(&self, text: &str) -> Vec<Citation> {
        let cores = cores::find(text, &self.scanner, &self.any_case, self.vocabulary);
        let (mut citations, mut contexts) = build::build(text, &cores, self.vocabulary);
        references::add(text, &mut citations, &mut contexts);
        resolve::resolve(&mut citations, &contexts);
        citations
    }
}

/// Whether a reporter or code spelling is read in any case ("u.s.", "s.
/// ct.", "F.3D", "u.s.c.", as typed in e-mails and read from some scans):
/// only spellings of two parts or more, since one word in lower case
/// ("cal.", "so.", "p.") is far more often an ordinary word or
/// abbreviation than a reporter.
fn abbreviated_in_parts(spelling: &str) -> bool {
    let parts = spelling
        .split(|c: char| !c.is_alphanumeric())
        .filter(|part| !part.is_empty())
        .count();
    // "l ed", "s ct" or "p.3" in lower case are prose far more often.
    let abbreviated = spelling.contains('.') && !spelling.ends_with(|c: char| c.is_ascii_digit());
    parts >= 2 && abbreviated
}

/// The spellings of a reporter that briefs write with periods left out,
/// which reporters-db lists for some editions only ("F3d" but not "F2d"):
/// the last period dropped ("U.S", "F. Supp"), and for an edition with a
/// series, every period dropped ("F 2d", "So 3d") or periods and spaces
/// both ("F2d", "NE2d"). Read like the other any-case spellings: only after
/// a volume, where nothing else matched, with a page that ends there.
fn loose_spellings(spelling: &str) -> Vec<String> {
    let mut loose = Vec::new();
    if let Some(cut) = spelling.strip_suffix('.')
        && cut.contains('.')
    {
        loose.push(cut.to_string());
    }
    let series = spelling
        .rsplit([' ', '.'])
        .next()
        .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_digit()));
    if series && spelling.contains('.') {
        loose.push(spelling.replace('.', ""));
        loose.push(spelling.replace(['.', ' '], ""));
    }
    loose
}

/// Whether a reporter edition is read in any case: the federal reporters
/// ("u.s.", "f. supp.") and the editions with a series number ("n.w.2d",
/// "a.d.3d"). A first series in lower case is mostly something else: "n.w."
/// and "s.e." are directions, "a.d." a year, "b.r." a bedroom.
fn read_in_any_case(vocabulary: &Vocabulary, edition: &Edition) -> bool {
    let federal = vocabulary.reporters[edition.reporter].cite_type.as_ref() == "federal";
    let series = edition
        .abbreviation
        .rsplit([' ', '.'])
        .next()
        .is_some_and(|last| last.starts_with(|c: char| c.is_ascii_digit()));
    federal || series
}

/// Where a full case citation points: its reporter address and its span
/// (the volume, reporter and page, without the name before them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseAddress {
    pub span: Range<usize>,
    pub volume: u32,
    pub reporter: &'static str,
    pub page: u32,
}

impl CaseAddress {
    fn of(citation: &Citation) -> Option<CaseAddress> {
        if citation.kind != CitationKind::FullCase {
            return None;
        }
        Some(CaseAddress {
            span: citation.span.clone(),
            volume: citation.volume.as_deref()?.parse().ok()?,
            reporter: citation.reporter?,
            page: citation.page.as_deref()?.parse().ok()?,
        })
    }
}

/// Runs `extract` on `text` read without its invisible characters and
/// emphasis marks, with the spans mapped back to `text`.
fn on_visible_text(text: &str, extract: impl FnOnce(&str) -> Vec<Citation>) -> Vec<Citation> {
    let Some(visible) = Visible::of(text) else {
        return extract(text);
    };
    let mut citations = extract(&visible.text);
    for citation in &mut citations {
        citation.span = visible.original(&citation.span);
        citation.full_span = visible.original(&citation.full_span);
    }
    citations
}

/// Whether `byte` is an ASCII control character that is not whitespace
/// (NUL, a stray \x01 from a PDF, DEL): read as a space, since it stands
/// between words ("Roe v.\u{1}Wade") but is not part of them.
const fn is_stray_control(byte: u8) -> bool {
    matches!(byte, 0x00..=0x08 | 0x0E..=0x1F | 0x7F)
}

/// Inline HTML elements that style a case name ("<i>Brown</i>") without
/// being part of it; a footnote mark in `<sup>` or `<sub>` is hidden with
/// its tags.
const STYLE_TAGS: [&str; 12] = [
    "i", "em", "b", "strong", "u", "cite", "span", "font", "small", "a", "sup", "sub",
];

/// How many bytes at `at` are markup around words rather than text: an
/// invisible character, a Markdown emphasis mark at a word's edge
/// ("*Brown v. Board*", "__Roe__"; not a star page "*3", a blank "___" or
/// a mark inside a word), or an inline style tag.
fn hidden_at(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    match bytes[at] {
        b'*' | b'_' => {
            let mark = bytes[at];
            let most = if mark == b'*' { 3 } else { 2 };
            // Counted no further than one past the most, so that a long run
            // of marks costs a constant at each of its bytes.
            let run = bytes[at..]
                .iter()
                .take(most + 1)
                .take_while(|&&b| b == mark)
                .count();
            if run > most {
                return None;
            }
            let before = text[..at].chars().next_back();
            let after = text[at + run..].chars().next();
            let wordy = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
            let opens = !wordy(before)
                && !before.is_some_and(|c| c == '*' || c == '_')
                && after.is_some_and(|c| c.is_alphabetic() || matches!(c, '"' | '\u{201c}' | '\''));
            let closes = before
                .is_some_and(|c| c.is_alphanumeric() || matches!(c, '.' | ')' | '"' | '\u{201d}'))
                && !wordy(after);
            (opens || closes).then_some(run)
        }
        b'<' => {
            let tag = &text[at + 1..];
            let name = tag.strip_prefix('/').unwrap_or(tag);
            let length = name.bytes().take_while(u8::is_ascii_alphabetic).count();
            let known = STYLE_TAGS
                .iter()
                .any(|t| t.eq_ignore_ascii_case(&name[..length]));
            let rest = &name[length..];
            let close = rest
                .bytes()
                .take(300)
                .position(|b| b == b'>' || b == b'<')?;
            let well_formed =
                rest.as_bytes()[close] == b'>' && (close == 0 || rest.starts_with([' ', '/']));
            if !(known && length > 0 && well_formed) {
                return None;
            }
            let end = text.len() - rest.len() + close + 1;
            let element = &name[..length];
            if !(element.eq_ignore_ascii_case("sup") || element.eq_ignore_ascii_case("sub")) {
                return Some(end - at);
            }
            // A raised or lowered mark is a footnote's, read with what it
            // marks: hidden whole from its opening tag, or not at all
            // ("483<sup>1</sup>" is page 483, not 4831).
            if tag.starts_with('/') {
                return None;
            }
            let closing = [b"</", element.as_bytes(), b">"].concat();
            let near = &bytes[end..bytes.len().min(end + 24)];
            let found = near
                .windows(closing.len())
                .position(|window| window.eq_ignore_ascii_case(&closing))?;
            Some(end + found + closing.len() - at)
        }
        // The extractor reads the text without them ([`is_invisible_mark`]).
        _ => text[at..]
            .chars()
            .next()
            .filter(|&c| is_invisible_mark(c))
            .map(char::len_utf8),
    }
}

/// The bytes at which [`unseen_at`] may find something: the first bytes
/// of the invisible characters, of emphasis marks and of tags, and the
/// stray control characters.
const MAY_HIDE: [bool; 256] = {
    let mut table = [false; 256];
    table[b'*' as usize] = true;
    table[b'_' as usize] = true;
    table[b'<' as usize] = true;
    // The invisible marks: U+200B–U+2069 start with 0xE2, U+FEFF with 0xEF.
    table[0xE2] = true;
    table[0xEF] = true;
    let mut byte = 0;
    while byte < 128 {
        if is_stray_control(byte as u8) {
            table[byte] = true;
        }
        byte += 1;
    }
    table
};

/// What the extractor does not read as it stands at a byte.
enum Unseen {
    /// So many bytes of markup or invisible characters, read as nothing.
    Hidden(usize),
    /// A stray control character, read as a space.
    Blank,
}

fn unseen_at(text: &str, at: usize) -> Option<Unseen> {
    match is_stray_control(text.as_bytes()[at]) {
        true => Some(Unseen::Blank),
        false => hidden_at(text, at).map(Unseen::Hidden),
    }
}

/// A text with its invisible characters and markup removed and its stray
/// control characters read as spaces, and the way back to the original
/// offsets.
struct Visible {
    text: String,
    /// For each byte of `text`, its offset in the original.
    origin: Vec<usize>,
}

impl Visible {
    /// `None` when nothing in the text is hidden (the common case, which
    /// costs one scan).
    fn of(original: &str) -> Option<Visible> {
        let bytes = original.as_bytes();
        let first = (0..bytes.len())
            .find(|&at| MAY_HIDE[bytes[at] as usize] && unseen_at(original, at).is_some())?;
        let mut text = String::with_capacity(original.len());
        let mut origin = Vec::with_capacity(original.len());
        text.push_str(&original[..first]);
        origin.extend(0..first);
        let mut at = first;
        while at < bytes.len() {
            let unseen = match MAY_HIDE[bytes[at] as usize] {
                true => unseen_at(original, at),
                false => None,
            };
            match unseen {
                Some(Unseen::Hidden(length)) => at += length,
                Some(Unseen::Blank) => {
                    text.push(' ');
                    origin.push(at);
                    at += 1;
                }
                None => {
                    let c = original[at..].chars().next().unwrap_or_default();
                    text.push(c);
                    origin.extend(at..at + c.len_utf8());
                    at += c.len_utf8();
                }
            }
        }
        Some(Visible { text, origin })
    }

    /// The original byte range of a range of `text`.
    fn original(&self, range: &Range<usize>) -> Range<usize> {
        let start = self.origin.get(range.start).copied();
        let end = range
            .end
            .checked_sub(1)
            .and_then(|last| self.origin.get(last))
            .map(|last| last + 1);
        match (start, end) {
            (Some(start), Some(end)) if start < end => start..end,
            (Some(start), _) => start..start,
            _ => {
                let past = self.origin.last().map_or(0, |last| last + 1);
                past..past
            }
        }
    }
}
