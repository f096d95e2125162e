//! The case name given with a citation: reading it, and what it says when
//! it is not the name of the case at the page.

use redb::ReadTransaction;

use crate::citations::extract::{name_before, split_parties};
use crate::citations::names::{
    distinctive_tokens, is_abbreviation, names_one_party, reversed, squash_word, word_tokens,
};
use crate::citations::{Citation, case_names_match};
use crate::library::model::CaseRecord;
use crate::library::{Library, store};
use crate::store::StoreError;
use crate::verification::{CheckedCitation, ContentType};

/// The case name written with a citation, or with the citation it is
/// given in parallel with ("347 U.S. 483, 74 S. Ct. 686").
pub(super) fn cited_name(citations: &[Citation], index: usize) -> Option<String> {
    let named = |c: &Citation| {
        c.case_name
            .clone()
            .or_else(|| match (&c.plaintiff, &c.defendant) {
                (Some(p), Some(d)) => Some(format!("{p} v. {d}")),
                (Some(p), None) => Some(p.clone()),
                _ => None,
            })
            .filter(|n| !n.trim().is_empty())
    };
    named(&citations[index]).or_else(|| {
        citations[index]
            .parallel
            .iter()
            .filter_map(|&i| citations.get(i))
            .find_map(named)
    })
}

/// Whether the text before a citation that was read without a name
/// plainly holds one ("v.", "In re", "Ex parte") between the previous
/// citation (or the sentence's start) and the citation's group: a name
/// the extractor could not read, which must not pass as no name at all.
fn unread_case_name(citations: &[Citation], index: usize, text: &str) -> bool {
    let (sentence, _) = clause_before(citations, index, text, |c| c.span.start);
    [" v. ", " vs. ", " v "]
        .iter()
        .any(|marker| sentence.contains(marker))
        || crate::citations::names::holds_caption_words(sentence)
        || ends_with_given_name(sentence)
}

/// The name a citation is checked under, as [`name_as_checked`] reads it.
pub(super) enum NameAsChecked {
    /// The name read, or none.
    AsRead(Option<String>),
    /// A name read as the end of a longer one, with the party before its
    /// "v." ("Acme Drilling, LLC v. Wyoming Corporation").
    WithFirstParty(String),
    /// A name is written but could not be read.
    Unread,
}

/// The name to check a citation under, `name` being the one read
/// ([`cited_name`]). A name read as one party
/// ("Wyoming Corporation") may be only the end of a longer one, whose
/// clause holds a "v." before it ("Acme Drilling, LLC v. Beta Dozers, Inc.,
/// a Wyoming Corporation") where the extractor stopped at a word it does
/// not take for a name's: it is checked with the party before that "v.",
/// and is unread when none is read there. An end alone shares a word with
/// many a case ("Wyoming" with State of Wyoming) and names none. A whole
/// second party read after its "v." is a name ("Bur ns v. Richardson": a
/// first party a PDF broke). No name is unread when the text before the
/// citation plainly holds one ([`unread_case_name`]).
pub(super) fn name_as_checked(
    citations: &[Citation],
    index: usize,
    name: Option<String>,
    text: &str,
) -> NameAsChecked {
    let Some(name) = name else {
        return if unread_case_name(citations, index, text) {
            NameAsChecked::Unread
        } else {
            NameAsChecked::AsRead(None)
        };
    };
    if reversed(&name).is_some() || names_one_party(&name) {
        return NameAsChecked::AsRead(Some(name));
    }
    let (clause, clause_start) = clause_before(citations, index, text, |c| c.full_span.start);
    let is_versus = |word: &str| matches!(word, "v." | "v" | "vs." | "vs");
    let after_versus = clause.split_whitespace().next_back().is_some_and(is_versus);
    let versus = clause
        .split_whitespace()
        .rfind(|word| is_versus(word))
        .map(|word| word.as_ptr() as usize - clause.as_ptr() as usize);
    match versus {
        Some(at) if !after_versus => {
            let end = clause_start + clause[..at].trim_end().len();
            match name_before(text, end, clause_start) {
                Some(first) => NameAsChecked::WithFirstParty(format!("{first} v. {name}")),
                None => NameAsChecked::Unread,
            }
        }
        _ => NameAsChecked::AsRead(Some(name)),
    }
}

/// Most words of its clause read before a name cut short
/// ([`longer_name`]).
const LONGER_NAME_WORDS: usize = 10;

/// The case at the page that the name `read` names when read with the
/// words before it in its clause, one word more at a time, and that longer
/// name. The extractor stops at a lower-case word or a number it does not
/// take for a name's ("First National Bank in Plant City v. Dickinson" is
/// read from "Plant City", "BLDG 89-41 164th St., LLC" from "St."). Such
/// words more often begin the sentence's own ("the Court in Brown v.
/// Board", "Shannon, like the defendant in Smith v. United States"), which
/// the name matcher, reading a party up to its first comma, would pass. So
/// a longer reading is taken only when the party its words were added to
/// is, word for word, a party of the name of record
/// ([`party_of_record`]), and the whole is that case's name.
pub(super) fn longer_name<'r>(
    citations: &[Citation],
    index: usize,
    text: &str,
    read: &str,
    records: &'r [CaseRecord],
) -> Option<(&'r CaseRecord, String)> {
    let (clause, _) = clause_before(citations, index, text, |c| c.full_span.start);
    let words: Vec<&str> = clause.split_whitespace().collect();
    let joining = words
        .iter()
        .rev()
        .take(LONGER_NAME_WORDS)
        .take_while(|word| may_run_on_into_a_name(word))
        .count();
    // Read without a "v.", the name's words were all of its second party
    // ("Costa County"), which the longer reading adds to as well.
    let read_second_party_whole = split_parties(read).0.is_some();
    (1..=joining).find_map(|taken| {
        let longer = format!("{} {read}", words[words.len() - taken..].join(" "));
        let (Some(first), Some(second)) = split_parties(&longer) else {
            return None;
        };
        let record = records.iter().find(|record| {
            !record.name.is_empty()
                && party_of_record(&first, Side::First, record)
                && (read_second_party_whole || party_of_record(&second, Side::Second, record))
                && names_match(&longer, record)
        })?;
        Some((record, longer))
    })
}

/// Whether a word before a name may be part of it: not one that ends a
/// phrase, clause or sentence before the name ("Third National Bank, in
/// Nashville v. Impac", "… Bank. in Plant City", a closing quote), nor
/// one that opens a parenthetical or quotation. The period of an initial
/// or of a word the name lexicon knows as another's abbreviation ("Bd.")
/// ends nothing; a short word's ("Bank.") may end a sentence, which
/// [`is_abbreviation`] allows for elsewhere, but not here, where running on
/// could verify a name.
fn may_run_on_into_a_name(word: &str) -> bool {
    let opens = word.starts_with(['(', '[', '"', '“', '‘', '\'']);
    let ends = word.ends_with([',', ';', ':', ')', ']', '"', '”', '’', '\'', '?', '!'])
        || word.ends_with('.') && !abbreviates_a_word(word);
    !opens && !ends
}

/// An initial ("J.", "U.S.") or a word the lexicon reads as another's
/// abbreviation ("Bd." for Board).
fn abbreviates_a_word(word: &str) -> bool {
    let stem = word.trim_end_matches('.');
    stem.contains('.') || stem.chars().count() == 1 || word_tokens(word) != [squash_word(word)]
}

#[derive(Clone, Copy)]
enum Side {
    First,
    Second,
}

/// Whether `party` is that side's party of the record's name (or of its
/// abbreviated or short name) as written there, up to one of its commas
/// (after which a record adds offices: "DICKINSON, COMPTROLLER OF
/// FLORIDA"), compared by [`party_letters`].
fn party_of_record(party: &str, side: Side, record: &CaseRecord) -> bool {
    let written = party_letters(party);
    if written.is_empty() {
        return false;
    }
    names_of(record)
        .filter_map(|name| {
            let (first, second) = split_parties(name);
            match side {
                Side::First => first,
                Side::Second => second,
            }
        })
        .any(|of_record| {
            of_record
                .match_indices(',')
                .map(|(at, _)| &of_record[..at])
                .chain([of_record.as_str()])
                .any(|prefix| party_letters(prefix) == written)
        })
}

/// A case's name of record, abbreviated name and short name, those it has.
fn names_of(record: &CaseRecord) -> impl Iterator<Item = &str> {
    [
        Some(record.name.as_str()),
        record.name_abbreviation.as_deref(),
        record.name_short.as_deref(),
    ]
    .into_iter()
    .flatten()
}

/// A party's words as the tokens names compare by, run together: neither
/// a word a PDF broke ("C hevron") nor an abbreviation ("Bd.") tells it
/// from its name of record; "et al." at its end is left out.
fn party_letters(party: &str) -> String {
    let mut tokens: Vec<String> = party.split_whitespace().flat_map(word_tokens).collect();
    if tokens.ends_with(&["et".to_string(), "al".to_string()]) {
        tokens.truncate(tokens.len() - 2);
    }
    tokens.concat()
}

/// The text of the sentence or clause before the citation `index` and its
/// parallels, up to where `start` says each begins, and after any earlier
/// citation.
fn clause_before<'t>(
    citations: &[Citation],
    index: usize,
    text: &'t str,
    start: impl Fn(&Citation) -> usize,
) -> (&'t str, usize) {
    let group: Vec<usize> = std::iter::once(index)
        .chain(citations[index].parallel.iter().copied())
        .collect();
    let end = group
        .iter()
        .filter_map(|&i| citations.get(i))
        .map(&start)
        .min()
        .unwrap_or(citations[index].span.start);
    let floor = citations
        .iter()
        .enumerate()
        .filter(|(i, c)| !group.contains(i) && c.full_span.end <= end)
        .map(|(_, c)| c.full_span.end)
        .max()
        .unwrap_or(0);
    let before = text.get(floor..end).unwrap_or("");
    let from = sentence_start(before);
    (&before[from..], floor + from)
}

/// Whether text ends with a word and a parenthetical given name, as a
/// one-party name with its given name does ("Causey (Julie), "), which the
/// extractor does not take for a name.
fn ends_with_given_name(text: &str) -> bool {
    use crate::citations::names::{is_name_parenthetical, parentheticals};
    let text = text.trim_end().trim_end_matches(',').trim_end();
    let Some((span, given)) = parentheticals(text).last() else {
        return false;
    };
    let word_before = text[..span.start].split_whitespace().next_back();
    span.end == text.len()
        && is_name_parenthetical(given)
        && word_before.is_some_and(|w| w.starts_with(|c: char| c.is_uppercase()))
}

/// Where the last sentence or string-cite clause of `text` starts: after a
/// ";" or after a sentence-ending punctuation mark followed by a space
/// ("v." and other abbreviations do not end one).
fn sentence_start(text: &str) -> usize {
    let mut start = 0;
    for (at, c) in text.char_indices() {
        let after = at + c.len_utf8();
        let followed_by_space = text[after..].starts_with(char::is_whitespace);
        let ends = match c {
            ';' | '?' | '!' => followed_by_space,
            '.' => {
                // After the last whitespace, which may be wider than a
                // byte (a no-break space).
                let word_start = text[..at]
                    .char_indices()
                    .rfind(|(_, c)| c.is_whitespace())
                    .map_or(0, |(w, c)| w + c.len_utf8());
                followed_by_space && !is_abbreviation(&text[word_start..after])
            }
            _ => false,
        };
        if ends {
            start = after;
        }
    }
    start
}

/// The answer when the name given says nothing about which case it means:
/// "United States" or "State" alone, often all a PDF's broken line left of
/// the name ("N evada v. United States"). It can neither confirm nor
/// contradict the case at the page.
pub(super) fn vague_name(name: &str, written: &str) -> Option<CheckedCitation> {
    distinctive_tokens(name).is_empty().then(|| {
        CheckedCitation::unavailable(
            written.to_string(),
            Some(ContentType::Case),
            format!("the name given ({name}) does not say which case it means"),
        )
    })
}

/// The case at the page that the name given is the name of, if any.
pub(super) fn named_case<'r>(name: &str, records: &'r [CaseRecord]) -> Option<&'r CaseRecord> {
    records
        .iter()
        .find(|r| !r.name.is_empty() && names_match(name, r))
}

/// The answer when the name given is not the name of any case at the page
/// (`records`, never empty).
pub(super) fn name_mismatch(
    library: &Library,
    txn: &ReadTransaction,
    name: &str,
    records: &[CaseRecord],
    written: String,
) -> Result<CheckedCitation, StoreError> {
    let case = Some(ContentType::Case);
    if let Some(reversed) = reversed(name)
        && let Some(here) = named_case(&reversed, records)
        && let Some(other) = other_case_named(library, txn, name, records)?
    {
        // "Johnson v. Texas, 491 U.S. 397": the parties of the case here the
        // other way round, and that name is another case's.
        return Ok(CheckedCitation::unverified(
            written,
            case,
            Some(here.name.clone()),
            format!(
                "the case at this page is {}; {name} is another case ({other})",
                here.name
            ),
        ));
    }
    Ok(partial_or_different(name, records, written))
}

/// Another case than `records` that the library holds under `name`,
/// written as its first citation.
fn other_case_named(
    library: &Library,
    txn: &ReadTransaction,
    name: &str,
    records: &[CaseRecord],
) -> Result<Option<String>, StoreError> {
    let hits = library.search_names(name, 10)?;
    for hit in hits {
        if records.iter().any(|r| r.id == hit.id) || !case_names_match(name, &hit.name) {
            continue;
        }
        if let Some(record) = store::case(txn, &hit.id)? {
            let cite = record.citations.first().map(|c| c.cite.clone());
            return Ok(Some(match cite {
                Some(cite) => format!("{}, {cite}", record.name),
                None => record.name,
            }));
        }
    }
    Ok(None)
}

/// A name that only partly matches the case at the page (a misspelling,
/// parties the other way round) is `unavailable`; one that shares nothing
/// with it is `unverified`.
fn partial_or_different(name: &str, records: &[CaseRecord], written: String) -> CheckedCitation {
    let case = Some(ContentType::Case);
    if let Some(near) = records.iter().find(|r| shares_a_party_word(name, r)) {
        // Some of the name is right: a misspelling, an acronym, a line
        // break in the middle of a word. Calling it fabricated could wrong
        // a lawyer; calling it verified could pass a fabrication.
        return CheckedCitation {
            title: Some(near.name.clone()),
            ..CheckedCitation::unavailable(
                written,
                case,
                format!(
                    "the name only partly matches the case at this page ({}): check it",
                    near.name
                ),
            )
        };
    }
    if records.iter().any(|r| r.name.is_empty()) {
        return CheckedCitation::unavailable(
            written,
            case,
            "the library knows a decision at this page but not its name, so the name cannot be checked",
        );
    }
    let first = &records[0];
    let reason = match records {
        [_] => format!(
            "the case at this page is {}, a different case from the one named",
            first.name
        ),
        _ => {
            let names: Vec<&str> = records.iter().map(|r| r.name.as_str()).collect();
            format!(
                "the cases at this page are {}, each a different case from the one named",
                names.join("; ")
            )
        }
    };
    CheckedCitation::unverified(written, case, Some(first.name.clone()), reason)
}

/// Whether the cited name and the case's name share a word that
/// identifies a party (not "Inc.", "United States", "v.", nor an initial:
/// "Carman L. Deck" shares nothing with "Andrea L. Beaver").
fn shares_a_party_word(cited: &str, record: &CaseRecord) -> bool {
    let mut cited = distinctive_tokens(cited);
    cited.retain(|token| token.chars().nth(1).is_some());
    names_of(record).any(|actual| {
        let actual = distinctive_tokens(actual);
        cited.iter().any(|token| actual.contains(token))
    })
}

/// The cited name fits the case's name or its short name, or is the name
/// of a case decided with it under its citation.
fn names_match(cited: &str, record: &CaseRecord) -> bool {
    own_name_matches(cited, record) || companion_named(cited, record).is_some()
}

fn own_name_matches(cited: &str, record: &CaseRecord) -> bool {
    names_of(record).any(|name| case_names_match(cited, name))
}

/// The case decided with `record` that the cited name names, when it is
/// not `record`'s own name ("Vignera v. New York" at Miranda's page).
pub(super) fn companion_named<'r>(cited: &str, record: &'r CaseRecord) -> Option<&'r str> {
    if own_name_matches(cited, record) {
        return None;
    }
    record
        .companion_names
        .iter()
        .find(|name| case_names_match(cited, name))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::{ends_with_given_name, partial_or_different, unread_case_name};
    use crate::citations::Extractor;
    use crate::library::model::CaseRecord;
    use crate::verification::Status;

    #[test]
    fn a_name_unlike_every_case_at_a_shared_page_names_them_all() {
        let case = |name: &str| CaseRecord {
            name: name.into(),
            ..CaseRecord::default()
        };
        let records = [case("Epsilon v. Zeta"), case("Eta v. Theta")];
        let checked = partial_or_different("Sigma v. Tau", &records, "900 F.3d 300".into());
        assert_eq!(checked.status, Status::Unverified);
        assert_eq!(
            checked.reason,
            "the cases at this page are Epsilon v. Zeta; Eta v. Theta, each a different case \
             from the one named"
        );
    }

    #[test]
    fn a_word_with_a_given_name_is_a_name_not_read() {
        assert!(ends_with_given_name("See Causey (Julie), "));
        assert!(ends_with_given_name("Romero (Wilbert)"));
        for text in [
            "the Restatement (Second), ",
            "a statute (1994), ",
            "held (per curiam) ",
            "",
        ] {
            assert!(!ends_with_given_name(text), "{text}");
        }
    }

    /// Whether the last full case citation of `text` has a name written
    /// before it that was not read.
    fn name_unread(text: &str) -> bool {
        let found = Extractor::shared().extract(text);
        let last = found
            .iter()
            .rposition(|c| c.kind == crate::citations::CitationKind::FullCase)
            .unwrap();
        found[last].case_name.is_none() && unread_case_name(&found, last, text)
    }

    #[test]
    fn sentences_are_found_after_wide_spaces() {
        // A no-break space before the word that ends a sentence.
        for text in [
            "The Court\u{a0}agreed. See 347 U.S. 483.",
            "Pl.\u{a0}Br. 4. 347 U.S. 483",
        ] {
            assert!(!name_unread(text), "{text:?}");
        }
    }

    #[test]
    fn a_name_the_extractor_could_not_read_is_noticed() {
        assert!(name_unread(
            "Smith v. Jones (opinion of Alito, J.), 347 U.S. 483."
        ));
        assert!(name_unread("See [In re Smith], 347 U.S. 483."));
        // A caption's words in another case, however spaced.
        for caption in [
            "In Re: Amendments to Rules of Traffic Court & in Re: Amendments to Rule 6.455",
            "IN RE\nAMENDMENTS TO RULES OF TRAFFIC COURT & AMENDMENTS TO RULE 6.455",
            "IN THE MATTER OF: AMENDMENTS TO RULES & AMENDMENTS TO RULE 6.455",
            "Ex Parte: Amendments to Rules & Amendments to Rule 6.455",
            "In re\u{a0}Amendments to Rules & Amendments to Rule 6.455",
        ] {
            assert!(name_unread(&format!("{caption}, 2018 ME 95.")), "{caption}");
        }
        // Not prose that holds those words.
        for prose in [
            "As a matter of law, segregation is unconstitutional, 347 U.S. 483 (1954).",
            "This is settled ex parte practice, 347 U.S. 483 (1954).",
            "The transfer was a matter of right, see 347 U.S. 483, 495.",
        ] {
            assert!(!name_unread(prose), "{prose}");
        }
        assert!(!name_unread("The rule is settled. 347 U.S. 483."));
        assert!(!name_unread(
            "Smith v. Jones held it. The rule is settled. 347 U.S. 483."
        ));
        assert!(!name_unread(
            "Brown v. Board of Education, 347 U.S. 483 (1954); 349 U.S. 294 (1955)."
        ));
    }
}
