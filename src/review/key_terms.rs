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
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        if let Some((mention, used)) = date_at(&w, i) {
            out.push(mention);
            i += used;
        } else {
            i += 1;
        }
    }
    out
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
        if let Some(day) = get(1).and_then(ordinal_day)
            && let Some(year) = get(2).and_then(year_of)
        {
            return Some(span(2, date(Some(year), Some(month), Some(day))));
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
    // D(th) [day] of Month, YYYY / D Month YYYY
    if let Some(day) = ordinal_day(first).or_else(|| is_blank(first).then_some(0)) {
        let mut k = 1;
        if get(k).is_some_and(|x| x.eq_ignore_ascii_case("day")) {
            k += 1;
        }
        if get(k).is_some_and(|x| x.eq_ignore_ascii_case("of")) {
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
    // MM/DD/YY(YY)
    let parts: Vec<&str> = first.trim_end_matches(['.', ';', ',']).split('/').collect();
    if parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    {
        let month: u8 = parts[0].parse().ok()?;
        let day: u8 = parts[1].parse().ok()?;
        let mut year: u16 = parts[2].parse().ok()?;
        if parts[2].len() == 2 {
            year += if year >= 50 { 1900 } else { 2000 };
        }
        if (1..=12).contains(&month) && (1..=31).contains(&day) && (1900..=2100).contains(&year) {
            return Some(span(0, date(Some(year), Some(month), Some(day))));
        }
    }
    None
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
            let mut words: Vec<(usize, &str)> = piece
                .split_whitespace()
                .map(|w| (offset_in(piece, w), w))
                .collect();
            // "EXHIBIT 10.1 SUPPLY AGREEMENT" -> "SUPPLY AGREEMENT".
            if words
                .first()
                .is_some_and(|(_, w)| w.eq_ignore_ascii_case("exhibit"))
            {
                words.drain(..words.len().min(2));
            }
            let upper_run = words
                .iter()
                .enumerate()
                .take_while(|(k, (_, w))| {
                    is_upper_word(w) && !(*k > 0 && matches!(*w, "THIS" | "THE"))
                })
                .count();
            let last_title_word = words[..upper_run]
                .iter()
                .rposition(|(_, w)| names_agreement(w) && w.chars().any(char::is_alphabetic));
            if let Some(last) = last_title_word {
                let (s, _) = words[0];
                let (ls, lw) = words[last];
                let e = ls + lw.trim_end_matches([',', '.', '(', ':', ';']).len();
                if e > s + 5 {
                    return Some((base + s, base + e));
                }
            }
            let small = ["and", "of", "to", "for", "the", "on", "in", "a"];
            let titled = !words.is_empty()
                && words.len() <= 10
                && words.iter().all(|(_, w)| {
                    w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
                        || small.contains(w)
                })
                && words.iter().any(|(_, w)| names_agreement(w));
            if titled && fallback.is_none() {
                let (s, _) = words[0];
                let (ls, lw) = words[words.len() - 1];
                let e = ls + lw.trim_end_matches([',', '.', '(', ':', ';']).len();
                fallback = Some((base + s, base + e));
            }
        }
    }
    if fallback.is_some() {
        return fallback;
    }
    let at = find_ci(head, "this ")?;
    let rest = &head[at + 5..];
    let end = find_ci(rest, "agreement")? + "agreement".len();
    let name = &rest[..end];
    let capitalised = name
        .split_whitespace()
        .all(|w| w.chars().next().is_some_and(char::is_uppercase));
    (end < 80 && capitalised).then_some((at + 5, at + 5 + end))
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

/// The preamble's party list: the byte range from the first party to the
/// end of the sentence that introduces them, and each party.
pub fn parties(text: &str) -> (Option<(usize, usize)>, Vec<Party>) {
    let head = &text[..preamble_end(text)];
    let Some((from, to)) = preamble_span(head) else {
        return (None, Vec::new());
    };
    let intro = [
        "by and between",
        "by and among",
        " between ",
        " among ",
        "between:",
    ]
    .iter()
    .filter_map(|k| find_ci(&head[..to], k).map(|i| i + k.len()))
    .min();
    let intro = intro.unwrap_or_else(|| {
        let alias = head[..to].find("(\"").unwrap_or(0);
        head[..alias].rfind('\n').map_or(0, |k| k + 1)
    });
    // Alias definitions are the surest reading; a plain "A and B" split
    // adds parties defined without an alias.
    let mut parties = parties_by_alias(text, intro, to);
    for extra in split_parties(text, intro, to) {
        let known = parties.iter().any(|p| {
            let (a, b) = (p.name.to_ascii_lowercase(), extra.name.to_ascii_lowercase());
            a.contains(&b) || b.contains(&a)
        });
        if !known {
            parties.push(extra);
        }
    }
    parties.retain(|p| plausible_name(&p.name));
    (Some((from, to)), parties)
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
        match party_of(
            text,
            from + offset_in(body, segment),
            from + offset_in(body, segment) + segment.len(),
        ) {
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

/// A party name is capitalised words, not a run of prose.
fn plausible_name(name: &str) -> bool {
    let small = [
        "and", "of", "the", "de", "du", "la", "von", "van", "d/b/a", "for", "in", "&",
    ];
    let words: Vec<&str> = name.split_whitespace().collect();
    !words.is_empty()
        && words.len() <= 10
        && words
            .iter()
            .all(|w| !w.starts_with(|c: char| c.is_lowercase()) || small.contains(w))
}

fn preamble_span(head: &str) -> Option<(usize, usize)> {
    let intro = [
        "by and between",
        "by and among",
        " between ",
        " among ",
        "between:",
    ]
    .iter()
    .filter_map(|k| find_ci(head, k).map(|i| (i, k.len())))
    .min_by_key(|(i, _)| *i);
    let alias = head.find("(\"").or_else(|| head.find("(\u{201c}"));
    let intro_at = match (intro, alias) {
        (Some((i, len)), _) => i + len,
        (None, Some(a)) => head[..a].rfind('\n').map_or(0, |k| k + 1),
        (None, None) => return None,
    };
    let rest = &head[intro_at..];
    let mut end = rest.len().min(2500);
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
    ] {
        if let Some(k) = rest.find(stop) {
            end = end.min(k);
        }
    }
    let mut to = intro_at + end;
    while !head.is_char_boundary(to) {
        to -= 1;
    }
    let to = intro_at + head[intro_at..to].trim_end().len();
    // The title block above the preamble often names the parties too.
    (to > 0).then_some((0, to))
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

fn split_parties(text: &str, from: usize, to: usize) -> Vec<Party> {
    let body = &text[from..to];
    // Split at " and " / ";" outside parentheses and quotes.
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
            let and = bytes.len() - i >= 5 && bytes[i..i + 5].eq_ignore_ascii_case(b" and ");
            if and && !looks_like_name_continuation(&body[i + 5..]) || bytes[i] == b';' {
                pieces.push((start, i));
                start = i + if bytes[i] == b';' { 1 } else { 5 };
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

/// "and Beta LLC" starts a party; "and existing under" does not.
fn looks_like_name_continuation(after: &str) -> bool {
    let next = after.trim_start();
    !next.starts_with(|c: char| c.is_uppercase() || c == '"' || c == '\u{201c}')
        || next.starts_with("Delaware")
}

/// Where `part`, a subslice of `text`, starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

fn party_of(text: &str, s: usize, e: usize) -> Option<Party> {
    let mut piece = text[s..e]
        .trim_start()
        .trim_start_matches([',', ';', ' ', '\n']);
    for lead in ["and ", "AND ", "And "] {
        if let Some(rest) = piece.strip_prefix(lead) {
            piece = rest.trim_start();
        }
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
    let name = piece[..cut].trim().trim_end_matches([',', ';', ':']).trim();
    let name = name.trim_end_matches(" and").trim();
    let words = name.split_whitespace().count();
    if name.len() < 2
        || words > 12
        || !name.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
    {
        return None;
    }
    let name_offset = offset_in(text, name);
    let mut aliases = Vec::new();
    for open in find_ci_all(piece, "\"").into_iter().step_by(2) {
        let rest = &piece[open + 1..];
        if let Some(close) = rest.find('"') {
            let alias = rest[..close].trim();
            if !alias.is_empty() && alias.len() < 60 && !aliases.iter().any(|a| a == alias) {
                aliases.push(alias.to_string());
            }
        }
    }
    for (open, _) in piece.match_indices('\u{201c}') {
        let rest = &piece[open + 3..];
        if let Some(close) = rest.find('\u{201d}') {
            let alias = rest[..close].trim();
            if !alias.is_empty() && alias.len() < 60 && !aliases.iter().any(|a| a == alias) {
                aliases.push(alias.to_string());
            }
        }
    }
    Some(Party {
        name: name.to_string(),
        aliases,
        start: name_offset,
        end: name_offset + name.len(),
    })
}

/// The date the agreement was made: the first date of the preamble.
pub fn agreement_date(text: &str) -> Option<DateMention> {
    let head = &text[..preamble_end(text)];
    let all: Vec<DateMention> = dates(head, 0)
        .into_iter()
        .filter(|d| d.date.year.is_some())
        .collect();
    let cues = [
        "dated",
        "made",
        "entered",
        "as of",
        "effective",
        "executed",
        "date:",
        "agreement",
        "day of",
        "on this",
        "this ",
    ];
    all.iter()
        .find(|d| {
            let before = head[d.start.saturating_sub(100)..d.start].to_ascii_lowercase();
            cues.iter().any(|c| before.contains(c))
        })
        .or_else(|| all.first())
        .copied()
}

/// The effective date: a date written next to "effective" near the top,
/// else the agreement date when the preamble makes the agreement effective
/// as of it.
pub fn effective_date(text: &str, agreement: Option<DateMention>) -> Option<DateMention> {
    let head = &text[..preamble_end(text)];
    let all = dates(head, 0);
    for at in find_ci_all(head, "effective") {
        if let Some(d) = all
            .iter()
            .find(|d| d.start > at && d.start - at < 80 && d.date.year.is_some())
        {
            return Some(*d);
        }
    }
    let agreement = agreement?;
    let before = &head[agreement.start.saturating_sub(40)..agreement.start];
    let lower = before.to_ascii_lowercase();
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

/// The renewal term of a renewal clause: "successive one-year periods",
/// "renew for an additional two (2) years", "year-to-year".
pub fn renewal_term(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    if lower.contains("perpetual") || lower.contains("indefinite") {
        return Some("perpetual".into());
    }
    let anchors: Vec<usize> = ["successive", "renew", "extend", "additional", "further"]
        .iter()
        .filter_map(|k| lower.find(k))
        .collect();
    let first_anchor = anchors.iter().min().copied().unwrap_or(0);
    let amounts = amounts(clause, 0);
    let pick = amounts
        .iter()
        .filter(|a| a.start >= first_anchor)
        .find(|a| {
            !lower[a.end..].trim_start().starts_with("prior")
                && !lower[a.end..].trim_start().starts_with("notice")
                && !lower[a.end..].trim_start().starts_with("written")
        })
        .or_else(|| amounts.first());
    if let Some(a) = pick {
        return Some(a.text());
    }
    if lower.contains("year-to-year") || lower.contains("year to year") || lower.contains("annual")
    {
        return Some("1 year".into());
    }
    if lower.contains("month-to-month") || lower.contains("month to month") {
        return Some("1 month".into());
    }
    None
}

/// The notice needed to stop a renewal: the amount written before "notice"
/// or "prior to".
pub fn notice_period(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    let amounts = amounts(clause, 0);
    amounts
        .iter()
        .find(|a| {
            let after = lower[a.end..].trim_start();
            [
                "prior",
                "notice",
                "written",
                "advance",
                "before",
                "in advance",
            ]
            .iter()
            .any(|k| after.starts_with(k))
                || lower[a.start.saturating_sub(30)..a.start].contains("least")
        })
        .or_else(|| amounts.iter().find(|a| a.unit != Unit::Year))
        .map(Amount::text)
}

/// The law named in a governing-law clause.
pub fn governing_law(clause: &str) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    for anchor in ["laws of", "law of", "accordance with"] {
        for at in find_ci_all(&lower, anchor) {
            let mut rest = &clause[at + anchor.len()..];
            loop {
                let t = rest.trim_start();
                let next = [
                    "the ",
                    "The ",
                    "State of ",
                    "state of ",
                    "Commonwealth of ",
                    "Province of ",
                    "Republic of ",
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
            let name = name.trim_end_matches(" of").to_string();
            let junk = ["United", "U", "Agreement", "This"];
            if !name.is_empty() && !junk.contains(&name.as_str()) {
                return Some(name);
            }
        }
    }
    None
}

/// The expiration of the initial term: "perpetual", a date written in the
/// clause, or the start date plus the term ("for five (5) years").
pub fn expiration(clause: &str, start: Option<Date>) -> Option<String> {
    let lower = clause.to_ascii_lowercase();
    let all: Vec<DateMention> = dates(clause, 0)
        .into_iter()
        .filter(|d| d.date.year.is_some())
        .collect();
    let end_cues = [
        "until", "through", "expire", "ending", "end on", "terminat", "ends", " to ",
    ];
    let end_date = all.iter().find(|d| {
        let before = &lower[d.start.saturating_sub(40)..d.start];
        end_cues.iter().any(|c| before.contains(c))
    });
    if let Some(d) = end_date.or(if all.len() >= 2 { all.last() } else { None }) {
        return Some(d.date.iso());
    }
    if lower.contains("perpetu") || lower.contains("indefinite") {
        return Some("perpetual".into());
    }
    let term = amounts(clause, 0).into_iter().find(|a| {
        matches!(a.unit, Unit::Year | Unit::Month)
            && !lower[a.end..].trim_start().starts_with("prior")
    });
    let (Some(term), Some(start)) = (term, start.or_else(|| all.first().map(|d| d.date))) else {
        let open_ended = [
            "until terminated",
            "unless and until",
            "until the expiration of",
            "until expiration of",
            "until the last",
            "remain in effect until",
            "continue in effect until",
            "in full force and effect until",
        ];
        return open_ended
            .iter()
            .any(|k| lower.contains(k))
            .then(|| "perpetual".to_string());
    };
    let year = start.year?;
    let months = match term.unit {
        Unit::Year => term.count * 12,
        _ => term.count,
    };
    let total = u32::from(start.month.unwrap_or(1)) - 1 + months;
    let end = Date {
        year: u16::try_from(u32::from(year) + total / 12).ok(),
        month: start.month.map(|_| (total % 12) as u8 + 1),
        day: start.month.and(start.day),
    };
    Some(end.iso())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
