//! Key terms read from the text: document name, parties with their defined
//! aliases, dates, durations and the governing law.
//!
//! These are extractors over the preamble and over the clauses the model
//! found (the renewal clause for the renewal term, and so on). All offsets
//! are byte offsets; every cut is at an ASCII character, so slices stay on
//! char boundaries.

use serde::Serialize;

/// How far into the document the title and preamble are looked for.
const PREAMBLE_BYTES: usize = 6000;
/// How far the preamble is looked for behind a table of contents.
const PREAMBLE_AFTER_CONTENTS_BYTES: usize = 30_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Party {
    pub name: String,
    pub aliases: Vec<String>,
    #[serde(skip)]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
}

/// A calendar date, any part of which may be unknown (redacted or blank).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date {
    pub year: Option<u16>,
    pub month: Option<u8>,
    pub day: Option<u8>,
}

impl Date {
    /// ISO form with `XX` for unknown parts ("2004-XX-XX").
    pub fn iso(&self) -> String {
        let year = self.year.map_or("XXXX".to_string(), |y| format!("{y:04}"));
        let month = self.month.map_or("XX".to_string(), |m| format!("{m:02}"));
        let day = self.day.map_or("XX".to_string(), |d| format!("{d:02}"));
        format!("{year}-{month}-{day}")
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateMention {
    pub start: usize,
    pub end: usize,
    pub date: Date,
}

/// A span of time in days, or open-ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Duration {
    Days(f64),
    Perpetual,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Day,
    Week,
    Month,
    Year,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Amount {
    pub count: u32,
    pub unit: Unit,
    pub start: usize,
    pub end: usize,
}

impl Amount {
    pub fn days(&self) -> f64 {
        let per = match self.unit {
            Unit::Day => 1.0,
            Unit::Week => 7.0,
            Unit::Month => 30.4375,
            Unit::Year => 365.25,
        };
        f64::from(self.count) * per
    }

    pub fn text(&self) -> String {
        let unit = match self.unit {
            Unit::Day => "day",
            Unit::Week => "week",
            Unit::Month => "month",
            Unit::Year => "year",
        };
        let plural = if self.count == 1 { "" } else { "s" };
        format!("{} {unit}{plural}", self.count)
    }
}

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn month_of(word: &str) -> Option<u8> {
    let lower = word.trim_end_matches('.').to_ascii_lowercase();
    if lower.len() < 3 {
        return None;
    }
    if lower == "sept" {
        return Some(9);
    }
    MONTHS
        .iter()
        .position(|m| *m == lower || (lower.len() == 3 && m.starts_with(&lower)))
        .map(|i| i as u8 + 1)
}

/// A word of the text with its byte range.
#[derive(Debug, Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

/// Words split on whitespace and the punctuation dates use.
fn words(text: &str, base: usize) -> Vec<Word<'_>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || matches!(c, ',' | '(' | ')' | '"' | '\u{201c}' | '\u{201d}');
        match (sep, start) {
            (true, Some(s)) => {
                out.push(Word {
                    text: &text[s..i],
                    start: base + s,
                    end: base + i,
                });
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: &text[s..],
            start: base + s,
            end: base + text.len(),
        });
    }
    out
}

fn ordinal_day(word: &str) -> Option<u8> {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let rest = word[digits.len()..].to_ascii_lowercase();
    if digits.is_empty() || !matches!(rest.as_str(), "" | "st" | "nd" | "rd" | "th" | ".") {
        return None;
    }
    digits.parse().ok().filter(|d| (1..=31).contains(d))
}

fn year_of(word: &str) -> Option<u16> {
    let w = word.trim_end_matches(['.', ';', ':']);
    (w.len() == 4 && w.bytes().all(|b| b.is_ascii_digit()))
        .then(|| w.parse().ok())
        .flatten()
        .filter(|y| (1900..=2100).contains(y))
}

fn is_blank(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| matches!(c, '_' | '[' | ']' | '*' | '-'))
}

/// Every date written in `text` (offsets shifted by `base`): "June 1,
/// 2020", "1st day of June, 2020", "the 1st of March, 2003", "1 June
/// 2020", "06/01/2020", "June ___, 2006", "___________ __, 2000".
pub fn dates(text: &str, base: usize) -> Vec<DateMention> {
    let w = words(text, base);
    // Every date has a year or is numeric, so it holds a word with a digit
    // within DATE_MAX_WORDS of its start: stretches of prose without
    // one are skipped rather than tried word by word.
    let mut next_digit = vec![w.len(); w.len() + 1];
    for j in (0..w.len()).rev() {
        next_digit[j] = if w[j].text.bytes().any(|b| b.is_ascii_digit()) {
            j
        } else {
            next_digit[j + 1]
        };
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        if next_digit[i] >= i + DATE_MAX_WORDS {
            if next_digit[i] == w.len() {
                break;
            }
            i = next_digit[i] + 1 - DATE_MAX_WORDS;
            continue;
        }
        if let Some((mention, used)) = date_at(&w, i) {
            out.push(mention);
            i += used;
        } else {
            i += 1;
        }
    }
    out
}

const ORDINAL_WORDS: [&str; 31] = [
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
    "twenty-fifth",
    "twenty-sixth",
    "twenty-seventh",
    "twenty-eighth",
    "twenty-ninth",
    "thirtieth",
    "thirty-first",
];

const WEEKDAYS: [&str; 7] = [
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
];

/// The most words a date spans: "the 5th day of the month of Monday,
/// January 2005" and longer forms stay within it.
const DATE_MAX_WORDS: usize = 10;

/// A day of the month at word `i`: "18", "18th", and the forms PDF
/// conversion leaves ("18t h", "1 st"), or a word ("first", "thirtieth
/// (30th)"). Returns the day and how many words it takes.
fn day_at(w: &[Word<'_>], i: usize) -> Option<(u8, usize)> {
    let word = w.get(i)?.text;
    let next = w.get(i + 1).map(|x| x.text.to_ascii_lowercase());
    if let Some(k) = ORDINAL_WORDS
        .iter()
        .position(|o| o.eq_ignore_ascii_case(word))
    {
        let day = k as u8 + 1;
        let repeated = w.get(i + 1).and_then(|x| ordinal_day(x.text)) == Some(day);
        return Some((day, if repeated { 2 } else { 1 }));
    }
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let day: u8 = word[..digits]
        .parse()
        .ok()
        .filter(|d| (1..=31).contains(d))?;
    let rest = word[digits..].to_ascii_lowercase();
    let suffixes = ["st", "nd", "rd", "th"];
    match rest.as_str() {
        "" if next.as_deref().is_some_and(|n| suffixes.contains(&n)) => Some((day, 2)),
        "" | "st" | "nd" | "rd" | "th" | "." => Some((day, 1)),
        "s" | "n" | "r" | "t"
            if next
                .as_deref()
                .is_some_and(|n| suffixes.contains(&format!("{rest}{n}").as_str())) =>
        {
            Some((day, 2))
        }
        _ => None,
    }
}

fn date_at(w: &[Word<'_>], i: usize) -> Option<(DateMention, usize)> {
    let get = |k: usize| w.get(i + k).map(|x| x.text);
    let span = |last: usize, date: Date| {
        (
            DateMention {
                start: w[i].start,
                end: w[i + last].end,
                date,
            },
            last + 1,
        )
    };
    let first = get(0)?;
    // Month D, YYYY / Month YYYY / Month __, YYYY
    if let Some(month) = month_of(first) {
        if let Some((day, used)) = day_at(w, i + 1)
            && let Some(year) = get(1 + used).and_then(year_of)
        {
            return Some(span(1 + used, date(Some(year), Some(month), Some(day))));
        }
        if get(1).is_some_and(is_blank)
            && let Some(year) = get(2).and_then(year_of)
        {
            return Some(span(2, date(Some(year), Some(month), None)));
        }
        if let Some(year) = get(1).and_then(year_of) {
            return Some(span(1, date(Some(year), Some(month), None)));
        }
        return None;
    }
    // D(th) [day] of [the month of] [weekday] Month, YYYY / D Month YYYY
    if let Some((day, used)) = day_at(w, i).or_else(|| is_blank(first).then_some((0, 1))) {
        let mut k = used;
        for filler in ["day", "of", "the", "month", "of"] {
            if get(k).is_some_and(|x| x.eq_ignore_ascii_case(filler)) {
                k += 1;
            }
        }
        if get(k).is_some_and(|x| WEEKDAYS.contains(&x.to_ascii_lowercase().as_str())) {
            k += 1;
        }
        if let Some(month) = get(k).and_then(month_of)
            && let Some(year) = get(k + 1).and_then(year_of)
        {
            let day = (day > 0).then_some(day);
            return Some(span(k + 1, date(Some(year), Some(month), day)));
        }
        if get(k).is_some_and(is_blank) && k > 1 {
            // "___ day of _______, 2004"
            if let Some(year) = get(k + 1).and_then(year_of) {
                return Some(span(k + 1, date(Some(year), None, None)));
            }
        }
        if day == 0 {
            // "[___], 2020"
            if let Some(year) = get(1).and_then(year_of) {
                return Some(span(1, date(Some(year), None, None)));
            }
        }
        if day == 0 && get(1).is_some_and(is_blank) {
            // "___________ __, 2000"
            if let Some(year) = get(2).and_then(year_of) {
                return Some(span(2, date(Some(year), None, None)));
            }
        }
        return None;
    }
    numeric_date(first).map(|d| span(0, d))
}

/// "06/01/2020", "04-01-06"; month first as in US usage, unless the first
/// number cannot be a month ("13/07/05").
fn numeric_date(word: &str) -> Option<Date> {
    let word = word.trim_end_matches(['.', ';', ',', ':']);
    let separator = if word.contains('/') { '/' } else { '-' };
    let parts: Vec<&str> = word.split(separator).collect();
    if parts.len() != 3
        || !parts
            .iter()
            .all(|p| (1..=4).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    let (mut month, mut day): (u8, u8) = (parts[0].parse().ok()?, parts[1].parse().ok()?);
    if month > 12 {
        (month, day) = (day, month);
    }
    let mut year: u16 = parts[2].parse().ok()?;
    if parts[2].len() == 2 {
        year += if year >= 50 { 1900 } else { 2000 };
    }
    ((1..=12).contains(&month) && (1..=31).contains(&day) && (1900..=2100).contains(&year))
        .then(|| date(Some(year), Some(month), Some(day)))
}

/// Whether `at` lies on an EDGAR filing line ("Source: ACME INC, 8-K,
/// 2/5/2020"), whose date is the filing's, not the contract's.
fn in_filing_header(text: &str, at: usize) -> bool {
    let line_start = text[..at].rfind('\n').map_or(0, |k| k + 1);
    text[line_start..at].contains("Source:")
}

fn date(year: Option<u16>, month: Option<u8>, day: Option<u8>) -> Date {
    Date { year, month, day }
}

fn find_ci(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

fn find_ci_all(haystack: &str, needle: &str) -> Vec<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| w.eq_ignore_ascii_case(needle.as_bytes()))
        .map(|(i, _)| i)
        .collect()
}

fn preamble_end(text: &str) -> usize {
    super::features::floor_char_boundary(text, PREAMBLE_BYTES)
}

const TITLE_WORDS: [&str; 7] = [
    "agreement",
    "contract",
    "amendment",
    "license",
    "licence",
    "addendum",
    "endorsement",
];

fn names_agreement(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    TITLE_WORDS.iter().any(|k| lower.contains(k))
}

fn is_upper_word(word: &str) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic());
    let mut any = false;
    for c in letters {
        if c.is_lowercase() {
            return false;
        }
        any = true;
    }
    any || word
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '&' | '-' | '#' | '.'))
}

/// The title: near the top, the upper-case run of words ending in a word
/// like AGREEMENT (layout columns split at runs of spaces), else a short
/// title-case line naming an agreement, else the agreement the preamble
/// names ("this Consulting Agreement").
pub fn document_name(text: &str) -> Option<(usize, usize)> {
    let head = &text[..preamble_end(text)];
    let mut fallback = None;
    let mut offset = 0;
    for line in head.split_inclusive('\n').take(80) {
        let line_start = offset;
        offset += line.len();
        for piece in column_pieces(line) {
            let base = line_start + offset_in(line, piece);
            let lower = piece.to_ascii_lowercase();
            if [
                "section", "article", "page", "table", "schedule", "annex", "appendix",
            ]
            .iter()
            .any(|k| lower.starts_with(k))
            {
                continue;
            }
            let mut words = words_at(piece);
            // "EXHIBIT 10.1 SUPPLY AGREEMENT" -> "SUPPLY AGREEMENT".
            if words
                .first()
                .is_some_and(|(_, w)| w.eq_ignore_ascii_case("exhibit"))
            {
                words.drain(..words.len().min(2));
            }
            // "EXHIBIT 10.4 Page 1 of 7 DISTRIBUTOR AGREEMENT" (a piece that
            // opens with "Page" was skipped above).
            if words.len() > 4
                && words[0].1.eq_ignore_ascii_case("page")
                && words[2].1.eq_ignore_ascii_case("of")
            {
                words.drain(..4);
            }
            // "(TRANSLATION) ...", "THIS ... AGREEMENT".
            if words.len() > 1 && (words[0].1 == "(TRANSLATION)" || words[0].1 == "THIS") {
                words.drain(..1);
            }
            if words.len() == 1 && matches!(words[0].1, "AGREEMENT" | "CONTRACT") {
                continue;
            }
            let upper_run = words
                .iter()
                .enumerate()
                .take_while(|(k, (_, w))| is_upper_word(w) && !(*k > 0 && *w == "THIS"))
                .count();
            // The first AGREEMENT ends the title ("SERVICES AGREEMENT
            // SERVICES AGREEMENT" is one title set twice); else the last
            // word naming an agreement ("SUBLICENSE").
            let run = &words[..upper_run];
            let last_title_word = run
                .iter()
                .position(|(_, w)| w.starts_with("AGREEMENT") || w.starts_with("CONTRACT"))
                .or_else(|| {
                    run.iter().rposition(|(_, w)| {
                        names_agreement(w) && w.chars().any(char::is_alphabetic)
                    })
                });
            if let Some(last) = last_title_word {
                // "CISCO SYSTEMS, INC. NONEXCLUSIVE ... AGREEMENT": the
                // title starts after the company's name.
                let first = run[..last]
                    .iter()
                    .rposition(|(_, w)| is_company_suffix(w))
                    .map_or(0, |k| k + 1);
                let first = if run.get(first).is_some_and(|(_, w)| *w == "DBA") {
                    (first + 2).min(last)
                } else {
                    first
                };
                let (s, _) = words[first];
                let (ls, lw) = words[last];
                let e = ls + lw.trim_end_matches([',', '.', '(', ':', ';']).len();
                // "AGREEMENT made as of ...": a bare word is no title; the
                // preamble may name the agreement ("this Sponsorship
                // Agreement").
                let bare = first == last && names_bare_agreement(lw);
                if e > s + 5 && !bare {
                    let amends = ["AMENDMENT", "ADDENDUM"].contains(&words[first].1)
                        && !words.iter().any(|(_, w)| w.starts_with("AGREEMENT"));
                    if amends {
                        return Some(amended_title(text, base + s, base + piece.len()));
                    }
                    return Some((base + s, base + e));
                }
            }
            if fallback.is_none()
                && let Some((first, last)) =
                    title_case_title(&words).or_else(|| upper_title_after_legend(&words))
            {
                let (s, _) = words[first];
                let (ls, lw) = words[last];
                let e = ls + lw.trim_end_matches([',', '.', '(', ':', ';']).len();
                fallback = Some((base + s, base + e));
            }
        }
    }
    if fallback.is_some() {
        return fallback;
    }
    find_ci_all(head, "this ")
        .into_iter()
        .take(PREAMBLE_NAME_TRIES)
        .find_map(|at| {
            let rest = &head[at + 5..];
            let end = find_ci(rest, "agreement")? + "agreement".len();
            let name = &rest[..end];
            let capitalised = name.split_whitespace().all(is_title_word);
            let more_than_a_word = name.split_whitespace().count() > 1;
            (end < 80 && capitalised && more_than_a_word).then_some((at + 5, at + 5 + end))
        })
}

/// Words a title-case title may hold in lower case.
const TITLE_SMALL_WORDS: [&str; 8] = ["and", "of", "to", "for", "the", "on", "in", "a"];

/// A word of a title-case title: capitalised ("Supply"), a number or
/// number sign ("#3", "2"), a hyphenated word ("e-business") or a small
/// word ("and", "of").
fn is_title_word(word: &str) -> bool {
    word.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit() || c == '#')
        || (word.contains('-') && word.starts_with(char::is_alphabetic))
        || TITLE_SMALL_WORDS.contains(&word)
}

/// A title-case title at the start of a line, as word indices: the whole
/// line when it is at most ten title words naming an agreement; else its
/// opening words up to the first "Agreement" or "Contract" when a
/// connective follows ("Corporate Sponsorship Agreement Between ...",
/// "Cooperation Agreement of ..."); else a short line ending in such a word
/// whatever its case ("Distributorship agreement", "Maintenance and support
/// contract").
fn title_case_title(words: &[(usize, &str)]) -> Option<(usize, usize)> {
    if words.len() < 2 || !is_title_word(words[0].1) {
        return None;
    }
    let whole_line = words.len() <= 10
        && words.iter().all(|(_, w)| is_title_word(w))
        && words.iter().any(|(_, w)| names_agreement(w));
    if whole_line {
        return Some((0, words.len() - 1));
    }
    let kind = words
        .iter()
        .take(9)
        .position(|(_, w)| names_bare_agreement(w))?;
    let title_cased = kind > 0
        && words[..kind].iter().all(|(_, w)| is_title_word(w))
        && words[kind].1.starts_with(char::is_uppercase);
    if !title_cased {
        return short_line_title(words, kind);
    }
    let connective = words.get(kind + 1).is_none_or(|(_, w)| {
        [
            "between", "by", "of", "dated", "made", "for", "with", "among",
        ]
        .iter()
        .any(|c| w.eq_ignore_ascii_case(c))
    });
    connective.then_some((0, kind))
}

/// A line of at most six words ending in "agreement" or "contract".
fn short_line_title(words: &[(usize, &str)], kind: usize) -> Option<(usize, usize)> {
    (kind > 0 && kind + 1 == words.len() && words.len() <= 6).then_some((0, kind))
}

/// An upper-case title that follows a legend on the same line ("... IF
/// PUBLICLY DISCLOSED. SUPPLY AGREEMENT This Supply Agreement ..."): the
/// upper-case words before the first AGREEMENT or CONTRACT, back to the end
/// of the legend's last sentence, when they are two to eight words.
fn upper_title_after_legend(words: &[(usize, &str)]) -> Option<(usize, usize)> {
    let last = words.iter().position(|(_, w)| {
        is_upper_word(w) && (w.starts_with("AGREEMENT") || w.starts_with("CONTRACT"))
    })?;
    let mut first = last;
    while first > 0 {
        let before = words[first - 1].1;
        let sentence_end = before.ends_with('.') && before != "NO.";
        if !is_upper_word(before) || sentence_end || before == "THIS" {
            break;
        }
        first -= 1;
    }
    // "EXECUTION VERSION", "EXECUTION COPY": a draft's label.
    if first > 0 && words[first].1 == "EXECUTION" && first + 2 < last {
        first += 2;
    }
    let heading = words[first..last]
        .iter()
        .any(|(_, w)| ["ARTICLE", "SECTION", "SCHEDULE", "EXHIBIT"].contains(w));
    (first > 0 && !heading && (2..=8).contains(&(last - first + 1))).then_some((first, last))
}

/// How many "this ..." phrases of the preamble are tried for the name of
/// the agreement.
const PREAMBLE_NAME_TRIES: usize = 5;

/// "AGREEMENT", "Contract:": a word that names an agreement without saying which.
fn names_bare_agreement(word: &str) -> bool {
    let w = word.trim_end_matches([',', '.', '(', ':', ';']);
    w.eq_ignore_ascii_case("agreement") || w.eq_ignore_ascii_case("contract")
}

/// "INC.", "CORPORATION", "LLC,": the word that ends a company's name.
fn is_company_suffix(word: &str) -> bool {
    let w = word.trim_end_matches([',', '.']).to_ascii_uppercase();
    matches!(
        w.as_str(),
        "INC" | "CORPORATION" | "CORP" | "LLC" | "LTD" | "LIMITED" | "PLC" | "L.P" | "LP"
    )
}

/// An amendment's heading ("AMENDMENT NO. 2") names the agreement it
/// amends on a following line ("MANUFACTURING AGREEMENT"): the title runs
/// on to that line when it comes within two lines; else it is the heading.
fn amended_title(text: &str, start: usize, heading_end: usize) -> (usize, usize) {
    let heading_end = start + text[start..heading_end].trim_end().len();
    let mut at = heading_end;
    for line in text[heading_end..].split_inclusive('\n').take(6) {
        let trimmed = line.trim();
        let line_at = at + offset_in(line, line.trim_start());
        at += line.len();
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        // Blank lines and connectors ("OF", "TO THE") keep the title going.
        if words
            .iter()
            .all(|w| matches!(w.to_ascii_uppercase().as_str(), "OF" | "TO" | "THE"))
        {
            continue;
        }
        let titled = words.len() <= 12
            && words.iter().all(|w| {
                w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
                    || matches!(*w, "and" | "of" | "to" | "the" | "for")
            })
            && words.iter().any(|w| names_agreement(w));
        return if titled {
            (start, line_at + trimmed.len())
        } else {
            (start, heading_end)
        };
    }
    (start, heading_end)
}

/// The pieces of a line separated by layout gaps (three or more spaces).
fn column_pieces(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b' ' && bytes.get(i + 1) == Some(&b' ') && bytes.get(i + 2) == Some(&b' ') {
            out.push(&line[start..i]);
            while i < bytes.len() && bytes[i] == b' ' {
                i += 1;
            }
            start = i;
            continue;
        }
        i += 1;
    }
    out.push(&line[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|p| p.len() >= 4)
        .collect()
}

/// The preamble's parties, and the byte range from the top of the contract
/// to the end of the party list (title blocks above the preamble often name
/// the parties too). Several readings are tried (each "between ..." or
/// "among ..." list, a paragraph defining aliases, "Party A:" lines) and the
/// one that defines the most parties, aliases first, wins.
pub fn parties(text: &str) -> (Option<(usize, usize)>, Vec<Party>) {
    let head = &text[..preamble_end(text)];
    // A table of contents can push the preamble far down.
    let head = if head.contains("TABLE OF CONTENTS") || head.contains("Table of Contents") {
        &text[..super::features::floor_char_boundary(text, PREAMBLE_AFTER_CONTENTS_BYTES)]
    } else {
        head
    };
    let mut best: Option<(usize, Vec<Party>)> = None;
    let mut reach = 0;
    let score = |parties: &[Party]| {
        let aliased = parties.iter().filter(|p| !p.aliases.is_empty()).count();
        3 * aliased.min(6) + parties.len().min(6)
    };
    for (from, to) in party_lists(head) {
        let parties = read_party_list(text, from, to);
        if parties.is_empty() {
            continue;
        }
        reach = reach.max(to);
        if best
            .as_ref()
            .is_none_or(|(_, b)| score(&parties) > score(b))
        {
            best = Some((to, parties));
        }
    }
    let labelled = labelled_parties(head);
    if !labelled.is_empty()
        && best
            .as_ref()
            .is_none_or(|(_, b)| score(&labelled) > score(b))
    {
        reach = reach.max(labelled.iter().map(|p| p.end).max().unwrap_or(0));
        best = Some((reach, labelled));
    }
    match best {
        Some((_, parties)) => (Some((0, reach)), parties),
        None => (None, Vec::new()),
    }
}

/// Where party lists may be: after each "between" or "among" near the top,
/// and in paragraphs that define an alias ("Acme Inc. (\"Acme\") and ..."),
/// each up to the recitals or the first section.
fn party_lists(head: &str) -> Vec<(usize, usize)> {
    let lower = head.to_ascii_lowercase();
    let mut starts: Vec<usize> = Vec::new();
    for intro in ["between", "among"] {
        for (at, _) in lower.match_indices(intro) {
            let end = at + intro.len();
            let word_start = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphabetic();
            let word_end = lower
                .as_bytes()
                .get(end)
                .is_none_or(|b| !b.is_ascii_alphabetic());
            if word_start && word_end {
                starts.push(end + usize::from(lower.as_bytes().get(end) == Some(&b':')));
            }
        }
    }
    for open in ["(\"", "(\u{201c}", "( \""] {
        if let Some(at) = head.find(open) {
            starts.push(head[..at].rfind("\n\n").map_or(0, |k| k + 2));
        }
    }
    starts.sort_unstable();
    starts.dedup();
    starts
        .into_iter()
        .map(|from| (from, party_list_end(head, from)))
        .filter(|(from, to)| to > from)
        .collect()
}

/// How far a party list may run.
const PARTY_LIST_BYTES: usize = 2500;

/// Where a party list that starts at `from` ends: at the recitals, the
/// first section or a date line, at most 2,500 bytes on.
fn party_list_end(head: &str, from: usize) -> usize {
    // A stop starting past the first 2,500 bytes changes nothing, so the
    // search ends there (plus the longest stop's length).
    let limit = super::features::floor_char_boundary(head, from + PARTY_LIST_BYTES) - from;
    let rest =
        &head[from..super::features::floor_char_boundary(head, from + PARTY_LIST_BYTES + 16)];
    let mut end = limit;
    for stop in [
        "WHEREAS",
        "Whereas",
        "RECITALS",
        "Recitals",
        "W I T N E S S",
        "WITNESSETH",
        "NOW, THEREFORE",
        "NOW THEREFORE",
        "BACKGROUND",
        "Background",
        "\n1.",
        "\nARTICLE",
        "\nSection 1",
        "IN CONSIDERATION",
        "TABLE OF CONTENTS",
        "Dated as of",
        "DATED AS OF",
    ] {
        if let Some(k) = rest.find(stop) {
            end = end.min(k);
        }
    }
    let mut to = from + end;
    while !head.is_char_boundary(to) {
        to -= 1;
    }
    from + head[from..to].trim_end().len()
}

/// The parties of one list: alias definitions are the surest reading; a
/// plain "A and B" split adds parties defined without an alias.
fn read_party_list(text: &str, from: usize, to: usize) -> Vec<Party> {
    let mut parties = parties_by_alias(text, from, to);
    for extra in split_parties(text, from, to) {
        let known = parties.iter().any(|p| {
            let (a, b) = (p.name.to_ascii_lowercase(), extra.name.to_ascii_lowercase());
            a.contains(&b) || b.contains(&a)
        });
        if !known {
            parties.push(extra);
        }
    }
    parties.retain(|p| plausible_name(&p.name));
    parties
}

/// Parties written as labelled lines: "Party A: Beike Internet Co., Ltd.".
fn labelled_parties(head: &str) -> Vec<Party> {
    let mut out: Vec<Party> = Vec::new();
    for label in [
        "Party A", "Party B", "Party C", "PARTY A", "PARTY B", "PARTY C",
    ] {
        let Some(at) = head.find(&format!("{label}:")) else {
            continue;
        };
        let after = &head[at + label.len() + 1..];
        // The name may stand on a line of its own ("Party A:\n\n  Beijing ...").
        let from = head.len() - after.trim_start().len();
        let line_end = head[from..].find('\n').map_or(head.len(), |k| from + k);
        // Layout columns, the representative and the next label end the name.
        let end = ["   ", " Legal ", " Party ", " PARTY ", " Address"]
            .iter()
            .filter_map(|stop| head[from..line_end].find(stop))
            .min()
            .map_or(line_end, |k| from + k);
        let Some(mut party) = party_of(head, from, end) else {
            continue;
        };
        party.aliases = vec![label.to_string()];
        if plausible_name(&party.name) && !out.iter().any(|p| p.name == party.name) {
            out.push(party);
        }
    }
    out
}

/// Defined terms that name a role of everyone, not one party.
const GENERIC_ALIASES: [&str; 6] = [
    "party",
    "parties",
    "agreement",
    "effective date",
    "affiliate",
    "affiliates",
];

/// Parties as the text defines them: each alias parenthesis ("Acme") closes
/// a party whose name opens the text since the previous one.
fn parties_by_alias(text: &str, from: usize, to: usize) -> Vec<Party> {
    let body = &text[from..to];
    let mut out: Vec<Party> = Vec::new();
    let mut segment_start = 0;
    let mut i = 0;
    while let Some(open) = body[i..].find('(').map(|k| i + k) {
        let Some(close) = body[open..].find(')').map(|k| open + k) else {
            break;
        };
        let inside = &body[open + 1..close];
        let aliases = quoted(inside);
        i = close + 1;
        if aliases.is_empty() {
            continue;
        }
        let specific: Vec<String> = aliases
            .into_iter()
            .filter(|a| !GENERIC_ALIASES.contains(&a.to_ascii_lowercase().as_str()))
            .collect();
        let mut segment = &body[segment_start..open];
        segment_start = close + 1;
        // "... ("Effective Date") by and between Acme": the name follows
        // the last introducing word.
        for intro in ["between", "among", "BETWEEN", "AMONG", "Between"] {
            if let Some(k) = segment.rfind(intro) {
                segment = &segment[k + intro.len()..];
            }
        }
        if specific.is_empty() {
            continue;
        }
        let segment_start = from + offset_in(body, segment);
        let segment_end = segment_start + segment.len();
        // The name may follow a description of the previous party
        // ("..., a Maryland corporation, Hyde Park Bancorp, MHC") or open a
        // line of a list ("the following parties:\n(a) Kathy Ireland, Inc.").
        let named = std::iter::once(segment_start)
            .chain(
                segment
                    .match_indices([',', ':', '\n'])
                    .map(|(k, _)| segment_start + k + 1),
            )
            .find_map(|s| party_of(text, s, segment_end).filter(|p| plausible_name(&p.name)));
        match named {
            Some(mut party) if !segment.trim().is_empty() => {
                party.aliases = specific;
                out.push(party);
            }
            // A second parenthesis right after a party adds aliases to it.
            _ => {
                if let Some(last) = out.last_mut()
                    && segment.trim().len() < 3
                {
                    last.aliases.extend(specific);
                }
            }
        }
    }
    out
}

fn quoted(inside: &str) -> Vec<String> {
    let mut out = Vec::new();
    let normalised = inside.replace(['\u{201c}', '\u{201d}'], "\"");
    let mut parts = normalised.split('"');
    parts.next();
    while let (Some(alias), rest) = (parts.next(), parts.next()) {
        let alias = alias.trim().trim_end_matches(',').trim();
        if !alias.is_empty() && alias.len() < 60 && !out.iter().any(|a| a == alias) {
            out.push(alias.to_string());
        }
        if rest.is_none() {
            break;
        }
    }
    out
}

/// "a California corporation", "an Ontario limited partnership": a
/// description that ends a party's name.
fn describes_entity(rest: &str) -> bool {
    let mut words = rest.split_whitespace();
    if !matches!(words.next(), Some("a" | "an")) {
        return false;
    }
    let kinds = [
        "corporation",
        "company",
        "limited",
        "partnership",
        "entity",
        "bank",
        "association",
        "individual",
        "organization",
    ];
    words
        .take(4)
        .any(|w| kinds.iter().any(|k| w.to_ascii_lowercase().starts_with(k)))
}

/// A party name is capitalised words, not a run of prose.
fn plausible_name(name: &str) -> bool {
    let small = [
        "and", "of", "the", "de", "du", "la", "von", "van", "d/b/a", "for", "in", "&",
    ];
    let words: Vec<&str> = name.split_whitespace().collect();
    // Page and section numbers after the first word mean a table of
    // contents was read ("2205925 Ontario Limited" is a name).
    let numbered = words
        .iter()
        .skip(1)
        .any(|w| w.bytes().all(|b| b.is_ascii_digit() || b == b'.'));
    // "This Co-Branding Agreement" is the contract, not a party.
    let titled = words.iter().any(|w| {
        let lower = w.to_ascii_lowercase();
        lower.starts_with("agreement") || lower == "this" || lower == "amendment"
    });
    !words.is_empty()
        && words.len() <= 10
        && !numbered
        && !titled
        && !is_address(&words)
        && words.iter().all(|w| {
            !w.starts_with(|c: char| c.is_lowercase()) || small.contains(w) || w.contains('.')
        })
}

/// "1900 Avenue of the Stars", "Suite 1640", "P.O. Box 12": a place
/// written where a party list runs, not a party.
fn is_address(words: &[&str]) -> bool {
    const PLACES: [&str; 12] = [
        "avenue",
        "street",
        "st.",
        "road",
        "rd.",
        "suite",
        "floor",
        "blvd.",
        "boulevard",
        "drive",
        "box",
        "highway",
    ];
    let is_one_of = |word: &str, places: &[&str]| {
        places
            .iter()
            .any(|p| word.trim_end_matches(',').eq_ignore_ascii_case(p))
    };
    let numbered = words
        .first()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
    let first_is_place = words
        .first()
        .is_some_and(|w| is_one_of(w, &["suite", "po", "p.o.", "p.o"]));
    first_is_place || numbered && words.iter().any(|w| is_one_of(w, &PLACES))
}

/// The signature block: from "IN WITNESS WHEREOF" to the end, where the
/// parties sign under their full names.
pub fn signature_block(text: &str) -> Option<(usize, usize)> {
    let at = text
        .rfind("IN WITNESS WHEREOF")
        .or_else(|| text.rfind("In Witness Whereof"))?;
    let end = super::features::floor_char_boundary(text, at + 2500);
    let end = at + text[at..end].trim_end().len();
    (text.len() - at < 20_000).then_some((at, end))
}

/// Signatures without a witness clause (joint filing agreements, letters):
/// from the line above the first "By:" or "/s/" of the last
/// [`SIGNATURE_TAIL_BYTES`], where the signer's name stands, on to the end
/// of the block.
pub fn signature_lines(text: &str) -> Option<(usize, usize)> {
    let tail = text.len().saturating_sub(SIGNATURE_TAIL_BYTES);
    let tail = super::features::floor_char_boundary(text, tail);
    let by = ["By:", "/s/"]
        .iter()
        .filter_map(|mark| text[tail..].find(mark))
        .min()?
        + tail;
    let above = text[..by].trim_end();
    let line_start = above.rfind('\n').map_or(0, |k| k + 1).max(tail);
    let end = super::features::floor_char_boundary(text, line_start + 2500);
    let end = line_start + text[line_start..end].trim_end().len();
    (end > line_start).then_some((line_start, end))
}

/// How far from the end [`signature_lines`] looks for a signature.
const SIGNATURE_TAIL_BYTES: usize = 3000;

fn split_parties(text: &str, from: usize, to: usize) -> Vec<Party> {
    let body = &text[from..to];
    // Split at "and" between white space (cover pages put it on a line of
    // its own) and at ";", outside parentheses and quotes.
    let mut pieces = Vec::new();
    let mut depth = 0i32;
    let mut quoted = false;
    let mut start = 0;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'(' => depth += 1,
            b')' => depth -= 1,
            b'"' => quoted = !quoted,
            _ => {}
        }
        if depth <= 0 && !quoted {
            let and = bytes.len() - i >= 5
                && bytes[i].is_ascii_whitespace()
                && bytes[i + 1..i + 4].eq_ignore_ascii_case(b"and")
                && bytes[i + 4].is_ascii_whitespace();
            if and && !looks_like_name_continuation(&body[i + 4..]) || bytes[i] == b';' {
                pieces.push((start, i));
                start = i + if bytes[i] == b';' { 1 } else { 4 };
                i = start;
                continue;
            }
        }
        i += 1;
    }
    pieces.push((start, body.len()));
    let mut out = Vec::new();
    for (s, e) in pieces {
        if let Some(party) = party_of(text, from + s, from + e) {
            out.push(party);
        }
    }
    out
}

/// "and Beta LLC" or "and ebix.com, Inc." starts a party; "and existing
/// under" does not.
fn looks_like_name_continuation(after: &str) -> bool {
    let next = after.trim_start();
    let domain = next
        .split_whitespace()
        .next()
        .is_some_and(|w| w.contains(".com"));
    !domain && !next.starts_with(|c: char| c.is_uppercase() || c == '"' || c == '\u{201c}')
        || next.starts_with("Delaware")
        || next.starts_with("Wales")
}

/// The words of `text` with their offsets in it.
fn words_at(text: &str) -> Vec<(usize, &str)> {
    text.split_whitespace()
        .map(|w| (offset_in(text, w), w))
        .collect()
}

/// Where `part`, a subslice of `text`, starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

fn party_of(text: &str, s: usize, e: usize) -> Option<Party> {
    // Layout debris ("---", "___") and list punctuation come first.
    let debris = |c: char| c.is_whitespace() || matches!(c, ',' | ';' | '-' | '_' | '*');
    let mut piece = text[s..e].trim_start_matches(debris);
    for lead in ["and", "AND", "And"] {
        if let Some(rest) = piece.strip_prefix(lead)
            && rest.starts_with(|c: char| c.is_whitespace() || c == ':' || c == ',')
        {
            piece = rest
                .trim_start_matches([':', ','])
                .trim_start_matches(debris);
        }
    }
    // A letter agreement's salutation precedes the first party.
    if let Some(k) = piece.find("Gentlemen:").filter(|&k| k < 20) {
        piece = piece[k + "Gentlemen:".len()..].trim_start();
    }
    // "(1) Acme Ltd" numbers the parties.
    if piece.starts_with('(') && piece.find(')').is_some_and(|k| k <= 4) {
        piece = piece[piece.find(')').map_or(0, |k| k + 1)..].trim_start();
    }
    for article in ["the ", "The "] {
        if let Some(rest) = piece.strip_prefix(article)
            && rest.starts_with(|c: char| c.is_uppercase())
        {
            piece = rest;
        }
    }
    let lower = piece.to_ascii_lowercase();
    let mut cut = piece.len();
    for stop in [
        "(",
        ", a ",
        ", an ",
        " a corporation",
        ", with ",
        ", having",
        ", located",
        ", whose",
        " with its",
        " having its",
        " with a place",
        " with offices",
        ", organized",
        ", incorporated",
        ", acting",
        ", on behalf",
        " located at",
        " whose ",
        ", registered",
        " (hereinafter",
        " having ",
        " represented by",
        " with an ",
        " and its affiliates",
        " and its subsidiaries",
        " with an address",
        " with a principal",
        " a company",
        " a limited",
        " a delaware",
        ", hereinafter",
        ", each",
        ", as ",
    ] {
        if let Some(k) = lower.find(stop) {
            cut = cut.min(k);
        }
    }
    // A street address after the name: "Uniquest Corporation 780 Montague".
    let street = piece[..cut].match_indices(' ').map(|(k, _)| k).find(|&k| {
        let word = piece[k + 1..cut].split_whitespace().next().unwrap_or("");
        word.len() >= 2 && word.bytes().all(|b| b.is_ascii_digit())
    });
    let cut = street.unwrap_or(cut);
    // "Snap Technologies, Inc. a California corporation".
    let described = piece[..cut]
        .match_indices([' '])
        .map(|(k, _)| k)
        .find(|&k| describes_entity(&piece[k + 1..cut]));
    let cut = described.unwrap_or(cut);
    let name = piece[..cut].trim().trim_end_matches([',', ';', ':']).trim();
    let name = name.trim_end_matches(" and").trim();
    let words = name.split_whitespace().count();
    // Lower-case names are internet companies: "ebix.com, Inc.".
    let first_word = name.split_whitespace().next().unwrap_or("");
    let opens_name = name.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
        || first_word.contains('.');
    if name.len() < 2 || words > 12 || !opens_name {
        return None;
    }
    let name_offset = offset_in(text, name);
    let aliases = quoted(piece)
        .into_iter()
        .filter(|a| !GENERIC_ALIASES.contains(&a.to_ascii_lowercase().as_str()))
        .collect();
    Some(Party {
        name: name.to_string(),
        aliases,
        start: name_offset,
        end: name_offset + name.len(),
    })
}

/// Up to `n` bytes of `text` before `at`, cut on a char boundary.
fn before(text: &str, at: usize, n: usize) -> &str {
    let mut from = at.saturating_sub(n);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    &text[from..at]
}

/// Up to `n` bytes of `text` from `at`, cut on a char boundary.
fn after(text: &str, at: usize, n: usize) -> &str {
    &text[at..super::features::floor_char_boundary(text, at + n)]
}

/// Dates with a year, outside EDGAR filing lines.
fn contract_dates(text: &str) -> Vec<DateMention> {
    dates(text, 0)
        .into_iter()
        .filter(|d| d.date.year.is_some() && !in_filing_header(text, d.start))
        .collect()
}

/// The date the agreement was made: the first date of the preamble written
/// after words that date a contract ("dated", "made ... as of", "entered
/// into"), else its first date.
pub fn agreement_date(text: &str) -> Option<DateMention> {
    let head = &text[..preamble_end(text)];
    let all = contract_dates(head);
    let cues = [
        "dated",
        "made",
        "entered",
        "as of",
        "effective",
        "executed",
        "date:",
        "agreement",
        "on this",
        "this ",
    ];
    all.iter()
        .find(|d| {
            let lower = before(head, d.start, 60).to_ascii_lowercase();
            cues.iter().any(|c| lower.contains(c))
        })
        .or_else(|| all.first())
        .copied()
}

/// How far into the contract the term clause is looked for.
const TERM_SEARCH_BYTES: usize = 60_000;

/// The effective date: a date defined as the Effective Date, else one
/// written just after "effective" in the preamble, else the date the term
/// commences on, else the agreement date when the preamble makes the
/// agreement effective as of it.
pub fn effective_date(text: &str, agreement: Option<DateMention>) -> Option<DateMention> {
    let region = &text[..super::features::floor_char_boundary(text, TERM_SEARCH_BYTES)];
    let head_end = preamble_end(text);
    let all = contract_dates(region);
    let defined = all.iter().find(|d| {
        let next = after(region, d.end, 40).to_ascii_lowercase();
        next.trim_start().starts_with('(') && next.contains("effective date")
    });
    if let Some(d) = defined {
        return Some(*d);
    }
    let cued = |cues: &[&str], window: usize, limit: usize| {
        all.iter()
            .filter(|d| d.start < limit)
            .find(|d| {
                let lower = before(region, d.start, window).to_ascii_lowercase();
                cues.iter().any(|c| lower.contains(c))
            })
            .copied()
    };
    let commencement = [
        "commence",
        "commencing",
        "begin on",
        "beginning on",
        "begins on",
        "into force",
        "effective from",
        "effective on",
        "start:",
    ];
    let found =
        cued(&["effective"], 80, head_end).or_else(|| cued(&commencement, 40, region.len()));
    if found.is_some() {
        return found;
    }
    let agreement = agreement?;
    let lower = before(text, agreement.start, 40).to_ascii_lowercase();
    (lower.contains("as of") || lower.contains("effective")).then_some(agreement)
}

const NUMBER_WORDS: [(&str, u32); 32] = [
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("eighteen", 18),
    ("twenty", 20),
    ("twenty-four", 24),
    ("thirty", 30),
    ("thirty-six", 36),
    ("forty", 40),
    ("forty-five", 45),
    ("fifty", 50),
    ("sixty", 60),
    ("seventy-five", 75),
    ("ninety", 90),
    ("hundred", 100),
    ("a", 1),
    ("an", 1),
    ("successive", 1),
    ("additional", 1),
];

fn unit_of(word: &str) -> Option<Unit> {
    let w = word
        .trim_end_matches(|c: char| !c.is_alphabetic())
        .to_ascii_lowercase();
    let w = w.trim_end_matches("'s");
    match w {
        "day" | "days" => Some(Unit::Day),
        "week" | "weeks" => Some(Unit::Week),
        "month" | "months" => Some(Unit::Month),
        "year" | "years" => Some(Unit::Year),
        _ => None,
    }
}

fn count_of(word: &str) -> Option<u32> {
    let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '-');
    if let Ok(n) = w.parse::<u32>() {
        return (n > 0 && n < 10_000).then_some(n);
    }
    let lower = w.to_ascii_lowercase();
    NUMBER_WORDS
        .iter()
        .find(|(name, _)| *name == lower)
        .map(|(_, n)| *n)
}

/// Every "N unit" amount: "thirty (30) days", "one-year", "12 months",
/// "one hundred eighty (180) days".
pub fn amounts(text: &str, base: usize) -> Vec<Amount> {
    let mut out = Vec::new();
    let raw: Vec<Word<'_>> = words(text, base)
        .into_iter()
        .flat_map(|w| {
            // "one-year" and "30-day" split into number and unit.
            match w.text.split_once('-') {
                Some((a, b)) if unit_of(b).is_some() && count_of(a).is_some() => vec![
                    Word {
                        text: a,
                        start: w.start,
                        end: w.start + a.len(),
                    },
                    Word {
                        text: b,
                        start: w.start + a.len() + 1,
                        end: w.end,
                    },
                ],
                _ => vec![w],
            }
        })
        .collect();
    for (k, w) in raw.iter().enumerate() {
        let Some(unit) = unit_of(w.text) else {
            continue;
        };
        // The number is the word before, or a parenthesised figure two
        // words before ("thirty (30) days" splits as thirty, 30, days).
        let mut count = None;
        let mut start = w.start;
        for back in 1..=3 {
            let Some(prev) = k.checked_sub(back).map(|j| raw[j]) else {
                break;
            };
            if let Some(n) = count_of(prev.text) {
                if prev.text.bytes().any(|b| b.is_ascii_digit()) || count.is_none() {
                    count = Some(n);
                }
                start = prev.start;
                if back == 1 && prev.text.bytes().all(|b| b.is_ascii_alphabetic()) {
                    break;
                }
            } else {
                break;
            }
        }
        if let Some(count) = count {
            out.push(Amount {
                count,
                unit,
                start,
                end: w.end,
            });
        }
    }
    out
}

/// Whether an amount reads as a notice period: "thirty (30) days prior
/// written notice", "at least 60 days before", "30 days' notice".
fn is_notice_amount(lower: &str, amount: &Amount) -> bool {
    let next = lower[amount.end..].trim_start_matches(['\'', ')', ' ', '\u{2019}']);
    let lead = before(lower, amount.start, 30);
    [
        "prior",
        "notice",
        "written",
        "advance",
        "before",
        "in advance",
        "notification",
    ]
    .iter()
    .any(|k| next.starts_with(k))
        || [
            "at least",
            "not less than",
            "no less than",
            "no later than",
            "not later than",
            "minimum of",
            "within",
        ]
        .iter()
        .any(|k| lead.contains(k))
}

/// Where a clause speaks of renewing or extending.
const RENEWAL_ANCHORS: [&str; 8] = [
    "renew",
    "extend",
    "extension",
    "successive",
    "additional",
    "further",
    "subsequent",
    "thereafter",
];

/// The renewal term of a renewal clause: "successive one-year periods",
/// "renew for an additional two (2) years", "year-to-year"; the initial
/// term again when renewals are "of the same duration"; perpetual when the
/// contract then runs until terminated.
pub fn renewal_term(clause: &str) -> Option<String> {
    let (lower, amounts) = term_amounts(clause);
    if let Some(a) = amount_after(&lower, &amounts, &RENEWAL_ANCHORS) {
        return Some(a.text());
    }
    let yearly = [
        "year-to-year",
        "year to year",
        "annual",
        "every year",
        "each year",
        "yearly",
    ];
    if yearly.iter().any(|k| lower.contains(k)) {
        return Some("1 year".into());
    }
    if ["month-to-month", "month to month", "monthly"]
        .iter()
        .any(|k| lower.contains(k))
    {
        return Some("1 month".into());
    }
    if lower.contains("same duration") || lower.contains("equal to the initial") {
        return amounts.first().map(Amount::text);
    }
    let open_ended = ["indefinite", "perpetual", "until terminated"];
    open_ended
        .iter()
        .any(|k| lower.contains(k))
        .then(|| "perpetual".to_string())
}

/// The notice that stops a renewal, in text that speaks of renewing: "...
/// renew for one-year terms unless either party gives sixty (60) days'
/// notice". For text the model is less sure of.
pub fn stated_notice_period(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    if !lower.contains("renew") {
        return None;
    }
    amounts(clause, 0)
        .iter()
        .find(|a| is_notice_amount(&lower, a))
        .map(Amount::text)
}

/// Words that can only introduce a renewal: an amount shortly after one
/// is a renewal term wherever it is read.
const RENEWAL_ONLY_ANCHORS: [&str; 3] = ["renew", "successive", "extension"];

/// The renewal term as only a renewal clause states it ("renew for
/// successive one-year terms"): for text the model is less sure of.
pub fn stated_renewal_term(clause: &str) -> Option<String> {
    let (lower, amounts) = term_amounts(clause);
    amount_after(&lower, &amounts, &RENEWAL_ONLY_ANCHORS).map(Amount::text)
}

/// The clause in lower case and its amounts that are not notice periods.
fn term_amounts(clause: &str) -> (String, Vec<Amount>) {
    let lower = clause.to_ascii_lowercase();
    let amounts = amounts(clause, 0)
        .into_iter()
        .filter(|a| !is_notice_amount(&lower, a))
        .collect();
    (lower, amounts)
}

/// The first amount at most 120 bytes after one of `anchors`.
fn amount_after<'a>(lower: &str, amounts: &'a [Amount], anchors: &[&str]) -> Option<&'a Amount> {
    let at: Vec<usize> = anchors
        .iter()
        .flat_map(|k| lower.match_indices(k).map(|(i, _)| i))
        .collect();
    amounts
        .iter()
        .find(|a| at.iter().any(|&k| k <= a.start && a.start - k <= 120))
}

/// The notice needed to stop a renewal: an amount that reads as notice
/// ("sixty (60) days prior written notice"), else any amount shorter than
/// a year in a clause that speaks of notice.
pub fn notice_period(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    let amounts = amounts(clause, 0);
    amounts
        .iter()
        .find(|a| is_notice_amount(&lower, a))
        .or_else(|| {
            amounts
                .iter()
                .find(|a| a.unit != Unit::Year && lower.contains("notice"))
        })
        .map(Amount::text)
}

/// Names after "laws of" that say nothing about which law applies, or only
/// the federal part of it.
const GENERIC_LAWS: [&str; 8] = [
    "United",
    "U",
    "Agreement",
    "This",
    "State",
    "United States",
    "United States of America",
    "USA",
];

/// The law named in a governing-law clause: "the laws of the State of New
/// York" gives "New York", "Delaware law" gives "Delaware". A federal or
/// generic name is kept only when nothing more specific is named.
pub fn governing_law(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    let mut generic = None;
    for anchor in ["laws of", "law of", "accordance with"] {
        for at in find_ci_all(&lower, anchor) {
            let Some(name) = jurisdiction_after(&clause[at + anchor.len()..]) else {
                continue;
            };
            if GENERIC_LAWS.contains(&name.as_str()) {
                generic.get_or_insert(name);
                continue;
            }
            return Some(expand_jurisdiction(name));
        }
    }
    for at in find_ci_all(&lower, " law") {
        let lead: Vec<&str> = clause[..at]
            .rsplit(char::is_whitespace)
            .take_while(|w| w.starts_with(|c: char| c.is_uppercase()))
            .take(3)
            .collect();
        let governed = ["governed", "construed", "subject to"]
            .iter()
            .any(|k| before(&lower, at, 60).contains(k));
        if governed && !lead.is_empty() {
            let name: Vec<&str> = lead.into_iter().rev().collect();
            let name = name.join(" ");
            if !GENERIC_LAWS.contains(&name.as_str()) {
                return Some(expand_jurisdiction(name));
            }
        }
    }
    generic.filter(|g| g.starts_with("United States"))
}

/// The governing law read from the text around its usual wording, for
/// contracts whose governing-law clause the model did not find.
pub fn governing_law_anywhere(text: &str) -> Option<String> {
    ["governed by", "governing law", "construed in accordance"]
        .iter()
        .flat_map(|k| find_ci_all(text, k))
        .min()
        .and_then(|at| governing_law(after(text, at, 300)))
}

/// The capitalised name that follows "laws of", without "the State of".
fn jurisdiction_after(text: &str) -> Option<String> {
    let mut rest = text;
    loop {
        let t = rest.trim_start();
        let next = [
            "the ",
            "The ",
            "State of ",
            "state of ",
            "Commonwealth of ",
            "Province of ",
            "Kingdom of ",
        ]
        .iter()
        .find_map(|p| t.strip_prefix(p));
        match next {
            Some(r) => rest = r,
            None => {
                rest = t;
                break;
            }
        }
    }
    let name: Vec<&str> = rest
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '.' | ';' | ')' | '('))
        .filter(|w| !w.is_empty())
        .take_while(|w| w.starts_with(|c: char| c.is_uppercase()) || matches!(*w, "of"))
        .take(4)
        .collect();
    let name = name.join(" ");
    let name = name.trim_end_matches(" of");
    (!name.is_empty()).then(|| name.to_string())
}

fn expand_jurisdiction(name: String) -> String {
    match name.as_str() {
        "PRC" | "P.R.C" => "People's Republic of China".to_string(),
        "Swiss" => "Switzerland".to_string(),
        _ => name,
    }
}

/// "the third anniversary of the Effective Date" as a number of years.
fn anniversary_years(lower: &str) -> Option<u32> {
    let at = lower.find("anniversary")?;
    let word = lower[..at]
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')')
        .rfind(|w| !w.is_empty())?;
    if let Some(k) = ORDINAL_WORDS.iter().position(|o| *o == word) {
        return Some(k as u32 + 1);
    }
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// The date a term clause says it ends on: "expiring May 31, 2001",
/// "until July 29, 2012", "\"Expiration Date\" means March 31, 2020".
pub fn stated_expiration(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    let end_cues = [
        "until",
        "through",
        "expir",
        "ending",
        "end on",
        "end as of",
        "terminat",
        "ends",
        " to ",
        "conclud",
    ];
    contract_dates(clause)
        .iter()
        .find(|d| {
            let lead = before(&lower, d.start, 40);
            end_cues.iter().any(|c| lead.contains(c))
        })
        .map(|d| d.date.iso())
}

/// The expiration of the initial term: a date the clause ends on, else the
/// start plus the term ("for five (5) years"; the start is the date the
/// clause commences on, else `start`), else "perpetual" when the clause
/// runs on until an event rather than a date.
pub fn expiration(clause: &str, start: Option<Date>) -> Option<String> {
    if let Some(stated) = stated_expiration(clause) {
        return Some(stated);
    }
    let lower = clause.to_ascii_lowercase();
    let all = contract_dates(clause);
    let start_cues = ["commenc", "begin", "from", "effective", "start", "as of"];
    let starts_term = |d: &DateMention| {
        let lead = before(&lower, d.start, 40);
        start_cues.iter().any(|c| lead.contains(c))
    };
    let own_start = all.iter().find(|d| starts_term(d));
    let term = amounts(clause, 0)
        .into_iter()
        .find(|a| matches!(a.unit, Unit::Year | Unit::Month) && !is_notice_amount(&lower, a))
        .map(|a| match a.unit {
            Unit::Year => a.count * 12,
            _ => a.count,
        })
        .or_else(|| anniversary_years(&lower).map(|years| years * 12));
    let start = own_start.map(|d| d.date).or(start);
    if let (Some(months), Some(start)) = (term, start) {
        return add_months(start, months).map(|d| d.iso());
    }
    let open_ended = [
        "perpetu",
        "indefinite",
        "until",
        "unless terminated",
        "unless sooner terminated",
        "terminated by either party",
    ];
    // Dates the term starts on do not bound it: "commencing on May 1, 2004
    // and continuing until terminated" runs on.
    if term.is_none() && all.iter().all(starts_term) && open_ended.iter().any(|k| lower.contains(k))
    {
        return Some("perpetual".into());
    }
    (all.len() >= 2).then(|| all[all.len() - 1].date.iso())
}

/// Words with which a clause sets the contract's own term.
const TERM_CUES: [&str; 8] = [
    "term of",
    "term shall",
    "term will",
    "remain in",
    "continue in",
    "period of",
    "duration of",
    "in force for",
];

/// The end of the initial term as a clause that sets the term computes it
/// ("shall remain in effect for a period of two years"), never a guess
/// that it runs on: for text the model is less sure of.
pub fn stated_term_expiration(clause: &str, start: Option<Date>) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    if !TERM_CUES.iter().any(|cue| lower.contains(cue)) {
        return None;
    }
    expiration(clause, start).filter(|end| end != "perpetual")
}

fn add_months(start: Date, months: u32) -> Option<Date> {
    let year = start.year?;
    let total = u32::from(start.month.unwrap_or(1)) - 1 + months;
    Some(Date {
        year: u16::try_from(u32::from(year) + total / 12).ok(),
        month: start.month.map(|_| (total % 12) as u8 + 1),
        day: start.month.and(start.day),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_after_long_prose_and_in_long_forms_are_found() {
        let prose = "the parties shall cooperate in good faith ".repeat(50);
        let text = format!(
            "{prose}made on the first day of the month of Monday, January 2005 and {prose}ending March 3, 2010"
        );
        let found: Vec<String> = dates(&text, 0).iter().map(|d| d.date.iso()).collect();
        assert_eq!(found, vec!["2005-01-01", "2010-03-03"]);
    }

    #[test]
    fn terms_stated_outright_are_read_from_any_clause() {
        let renewal = "Thereafter this Agreement shall renew automatically for successive one year periods unless either party gives sixty (60) days prior written notice of non-renewal.";
        assert_eq!(stated_renewal_term(renewal).as_deref(), Some("1 year"));
        assert_eq!(stated_notice_period(renewal).as_deref(), Some("60 days"));
        assert_eq!(
            stated_renewal_term("Fees are payable within thirty (30) days."),
            None
        );
        assert_eq!(
            stated_notice_period("Either party may terminate on thirty (30) days prior notice."),
            None,
            "a notice without a renewal is not the notice to stop one"
        );
        let start = Some(Date {
            year: Some(2010),
            month: Some(4),
            day: Some(6),
        });
        let term = "This Agreement shall remain in force for an initial period of 1 year.";
        assert_eq!(
            stated_term_expiration(term, start).as_deref(),
            Some("2011-04-06")
        );
        assert_eq!(
            stated_term_expiration("The parties continue until terminated.", start),
            None,
            "no term is stated, and running on is not guessed here"
        );
    }

    #[test]
    fn a_bare_agreement_heading_gives_way_to_the_preamble() {
        let text = "AGREEMENT\n\nThis Strategic Alliance Agreement (the \"Agreement\") is made between Acme Inc. and Beta LLC.";
        let (s, e) = document_name(text).expect("named");
        assert_eq!(&text[s..e], "Strategic Alliance Agreement");
    }

    #[test]
    fn reads_dates_in_common_forms() {
        let text = "dated June 1, 2020, effective as of the 1st day of July, 2020 and 03/01/05; also November ___, 2006";
        let found: Vec<String> = dates(text, 0).iter().map(|d| d.date.iso()).collect();
        assert_eq!(
            found,
            vec!["2020-06-01", "2020-07-01", "2005-03-01", "2006-11-XX"]
        );
    }

    #[test]
    fn reads_durations() {
        let a = amounts("within thirty (30) days and a one-year term", 0);
        assert_eq!(
            a.iter().map(Amount::text).collect::<Vec<_>>(),
            vec!["30 days", "1 year"]
        );
        assert_eq!(
            renewal_term("shall automatically renew for successive one (1) year periods unless either party gives ninety (90) days prior written notice").as_deref(),
            Some("1 year")
        );
        assert_eq!(
            notice_period("renews for two years unless either party gives ninety (90) days prior written notice").as_deref(),
            Some("90 days")
        );
    }

    #[test]
    fn reads_governing_law() {
        assert_eq!(
            governing_law("This Agreement shall be governed by the laws of the State of New York, without regard").as_deref(),
            Some("New York")
        );
        assert_eq!(
            governing_law("construed under the laws of the Commonwealth of Pennsylvania.")
                .as_deref(),
            Some("Pennsylvania")
        );
    }

    #[test]
    fn reads_parties_and_aliases() {
        let text = "SUPPLY AGREEMENT\n\nThis Supply Agreement is made by and between Acme Widgets, Inc., a Delaware corporation (\"Acme\"), and Beta Retail LLC (\"Buyer\").\n\nWHEREAS";
        let (span, parties) = parties(text);
        assert!(span.is_some());
        let names: Vec<&str> = parties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, vec!["Acme Widgets, Inc.", "Beta Retail LLC"]);
        assert_eq!(parties[0].aliases, vec!["Acme"]);
        assert_eq!(&text[parties[1].start..parties[1].end], "Beta Retail LLC");
        let (s, e) = document_name(text).unwrap();
        assert_eq!(&text[s..e], "SUPPLY AGREEMENT");
    }

    #[test]
    fn reads_parties_set_out_as_a_list() {
        let text = "ENDORSEMENT AGREEMENT\n\nThis Endorsement Agreement is made by and among the following parties:\n\n   (a) Kathy Ireland, Inc. (\"KI Inc.\"), 1900 Avenue of the Stars;\n\n   (b) Diplomat Eyewear Group (\"Diplomat\").\n\n1. Recitals.";
        let (_, parties) = parties(text);
        let names: Vec<&str> = parties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, vec!["Kathy Ireland, Inc.", "Diplomat Eyewear Group"]);
        assert_eq!(parties[0].aliases, vec!["KI Inc."]);
    }

    fn title(text: &str) -> Option<&str> {
        document_name(text).map(|(s, e)| &text[s..e])
    }

    #[test]
    fn reads_titles_in_title_case_lower_case_and_after_legends() {
        assert_eq!(
            title(
                "Exhibit 10.2\n\nData Hosting Services Agreement Between Alpha Corp. and Beta LLC dated May 1, 2012"
            ),
            Some("Data Hosting Services Agreement")
        );
        assert_eq!(
            title("Exhibit 4.1\n\nReseller agreement\n\nbetween\n\nAlpha Corp."),
            Some("Reseller agreement")
        );
        assert_eq!(
            title("e-commerce Services Agreement\n\nbetween Alpha Corp. and Beta LLC"),
            Some("e-commerce Services Agreement")
        );
        assert_eq!(
            title(
                "EXHIBIT 10.4 Page 1 of 7 WAREHOUSING AGREEMENT This agreement is made on June 2, 2011."
            ),
            Some("WAREHOUSING AGREEMENT")
        );
        assert_eq!(
            title(
                "CERTAIN PORTIONS OF THIS EXHIBIT HAVE BEEN OMITTED AND FILED SEPARATELY. OEM SUPPLY AGREEMENT THIS OEM SUPPLY AGREEMENT is made"
            ),
            Some("OEM SUPPLY AGREEMENT")
        );
        assert_eq!(
            title(
                "Portions of this agreement were omitted. This Amendment #2 to the Logistics Agreement is made on May 3, 2010."
            ),
            Some("Amendment #2 to the Logistics Agreement")
        );
    }

    #[test]
    fn a_section_heading_is_no_title() {
        let text = "The parties have agreed as follows. ARTICLE 3 LICENSE AGREEMENT TERMS apply.";
        assert_eq!(upper_title_after_legend(&words_at(text)), None);
    }

    #[test]
    fn reads_labelled_parties_on_the_next_line_or_the_same_line() {
        let text = "COOPERATION AGREEMENT\n\nParty A:\n\n  Northwind Trading Co., Ltd.\n\nAddress: 1 Harbour Road\n\nParty B: Southgate Energy Co., Ltd. Legal Representative: J. Doe Party C: nobody";
        let (_, parties) = parties(text);
        let names: Vec<&str> = parties.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            vec!["Northwind Trading Co., Ltd.", "Southgate Energy Co., Ltd."]
        );
    }

    #[test]
    fn signatures_without_a_witness_clause_are_found() {
        let body = "The undersigned agree to file the statement jointly. ".repeat(80);
        let text = format!("{body}\n\nRIVERBEND CAPITAL LP\nBy: /s/ Ann Smith\nName: Ann Smith");
        let (s, e) = signature_lines(&text).expect("signatures");
        assert!(text[s..e].starts_with("RIVERBEND CAPITAL LP"));
        assert_eq!(signature_lines(&body), None);
    }

    #[test]
    fn expiration_from_term() {
        let start = Date {
            year: Some(2003),
            month: Some(3),
            day: Some(1),
        };
        assert_eq!(
            expiration("The term shall continue for six (6) months.", Some(start)).as_deref(),
            Some("2003-09-01")
        );
        assert_eq!(
            expiration("This Agreement shall continue in perpetuity.", None).as_deref(),
            Some("perpetual")
        );
        assert_eq!(
            expiration(
                "This Agreement shall commence on May 1, 2004 and continue until terminated by either party.",
                None
            )
            .as_deref(),
            Some("perpetual")
        );
    }
}
