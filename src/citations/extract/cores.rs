//! The first pass: every place a reporter, law or journal template matches
//! around a string the scanner found, plus the "Id.", "supra" and "§"
//! tokens. Metadata (names, years, courts) is read later around these.

use std::ops::Range;

use crate::citations::pattern::{Backtrack, Program};
use crate::citations::reporters;
use crate::citations::scanner::{Hit, Scanner, Target};
use crate::citations::templates::{Template, Trigger};
use crate::citations::text::{char_after, char_before};

use super::tail::{count_digits, skip_spaces, skip_spaces_back};
use crate::citations::vocab::Vocabulary;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum CoreKind {
    /// Candidate editions; exact spellings are preferred over variations.
    /// None for a reporter cited in a series it does not have ("16 L. Ed.
    /// 3d 694").
    Case {
        editions: Vec<u32>,
        short: bool,
    },
    Journal {
        journal: u32,
        short: bool,
    },
    Law {
        law: u32,
    },
    Id,
    Supra,
    SectionSign,
    Record,
}

/// A citation's fixed part, as matched.
#[derive(Debug, Clone)]
pub(crate) struct Core {
    pub kind: CoreKind,
    pub span: Range<usize>,
    pub reporter_span: Range<usize>,
    /// Named template groups ("volume", "page", "title", …).
    pub groups: Vec<(&'static str, Range<usize>)>,
}

impl Core {
    pub fn group(&self, name: &str) -> Option<Range<usize>> {
        self.groups
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| r.clone())
    }

    pub fn is_short(&self) -> bool {
        matches!(
            self.kind,
            CoreKind::Case { short: true, .. } | CoreKind::Journal { short: true, .. }
        )
    }
}

/// A template match before the best one is chosen.
struct Candidate {
    rank: u8,
    span: Range<usize>,
    reporter_span: Range<usize>,
    groups: Vec<(&'static str, Range<usize>)>,
    exact: bool,
    short: bool,
    target: Target,
}

/// Scans `text` and returns the cores in text order (overlaps resolved).
/// The `any_case` reporter and code spellings are looked for only after a
/// number and a space, where a volume or title would be, and only where
/// `scanner` found nothing.
pub(crate) fn find(
    text: &str,
    scanner: &Scanner,
    any_case: &Scanner,
    vocabulary: &'static Vocabulary,
) -> Vec<Core> {
    let bytes = text.as_bytes();
    let mut hits: Vec<Hit> = Vec::new();
    let mut cores: Vec<Core> = Vec::new();
    let mut work = Work::default();
    let starts = scanner.starts();
    let any_case_starts = any_case.starts();
    let any_starts: [bool; 256] = std::array::from_fn(|b| starts[b] || any_case_starts[b]);
    let mut i = 0;
    while i < bytes.len() {
        // The next byte that can start a pattern at the start of a token
        // (one matched in any case only after a number).
        let Some(next) = bytes[i..].iter().enumerate().position(|(k, &b)| {
            let at = i + k;
            any_starts[b as usize]
                && (at == 0 || !INSIDE_WORD[bytes[at - 1] as usize])
                && (starts[b as usize] || after_a_number(&bytes[..at]))
        }) else {
            break;
        };
        i += next;
        let b = bytes[i] as usize;
        let found = if starts[b] {
            scanner.walk(bytes, i, &mut hits);
            best_for_hits(text, i, &hits, scanner, vocabulary, &mut work)
        } else {
            None
        };
        let found = match found {
            None if any_case_starts[b] && after_a_number(&bytes[..i]) => {
                any_case.walk(bytes, i, &mut hits);
                best_for_hits(text, i, &hits, any_case, vocabulary, &mut work)
                    .filter(|core| clearly_a_citation(text, core))
            }
            found => found,
        };
        let found = found.filter(|core| periods_or_context(text, core, vocabulary));
        match found {
            Some(core) => {
                i = core.reporter_span.end.max(i + 1);
                cores.push(core);
            }
            None => i += 1,
        }
    }
    drop_overlaps(cores)
}

/// Whether a case core is written with its reporter's periods, or else
/// stands where a citation clearly does. Without periods a reporter is
/// also a word or a model's name ("we had 5 US 10 times", "Model 410 F2d
/// 7"): it is read after a comma, semicolon or bracket (a name's or a
/// list's end), or before a pin or a parenthetical with a year.
fn periods_or_context(text: &str, core: &Core, vocabulary: &Vocabulary) -> bool {
    let CoreKind::Case { editions, .. } = &core.kind else {
        return true;
    };
    let written = &text[core.reporter_span.clone()];
    let dotted = |&e: &u32| vocabulary.editions[e as usize].abbreviation.contains('.');
    if written.contains('.') || !editions.iter().any(dotted) {
        return true;
    }
    let before = text[..core.span.start].trim_end();
    let after_a_break = before.is_empty() || before.ends_with([',', ';', '(', '[']);
    let after = text[core.span.end..].trim_start();
    let pin = after
        .strip_prefix(',')
        .map(str::trim_start)
        .is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_digit()) || rest.starts_with("at ")
        });
    let year_parenthetical = after.strip_prefix('(').is_some_and(|inside| {
        let bytes = &inside.as_bytes()[..inside.len().min(60)];
        let inside = &bytes[..bytes.iter().position(|&b| b == b')').unwrap_or(bytes.len())];
        inside.windows(4).any(|w| w.iter().all(u8::is_ascii_digit))
    });
    after_a_break || pin || year_parenthetical
}

/// Whether a core read in another case than its spelling's is clearly a
/// citation: a case whose page ends there, or a code whose section is
/// marked ("42 u.s.c. § 1983", "sec. 1983"; "42 u.s.c. 1983" may be prose
/// about a count).
fn clearly_a_citation(text: &str, core: &Core) -> bool {
    match core.kind {
        CoreKind::Case { .. } => page_ends(text, core.span.end),
        CoreKind::Law { .. } => core.group("section").is_some_and(|section| {
            let marker = text[core.reporter_span.end..section.start].to_ascii_lowercase();
            marker.contains('§') || marker.contains("sec")
        }),
        _ => false,
    }
}

/// Whether a page ends the number there, rather than run on into a price,
/// a model or a share ("400 u.s. 12.50", "500 u.s. 10-k", "3 %").
fn page_ends(text: &str, end: usize) -> bool {
    let mut rest = text[end..].chars();
    match (rest.next(), rest.next()) {
        (Some('-' | '%' | '–'), _) => false,
        (Some('.' | ','), Some(c)) => !c.is_ascii_digit(),
        _ => true,
    }
}

/// Whether `before` ends in a number and a space or two ("347 ").
fn after_a_number(before: &[u8]) -> bool {
    let number = before.trim_ascii_end();
    let gap = before.len() - number.len();
    (1..=2).contains(&gap) && number.last().is_some_and(u8::is_ascii_digit)
}

/// Bytes after which no pattern starts: a pattern must not begin inside a
/// word. A digit may precede, for neutral citations written solid
/// ("2021COA112").
const INSIDE_WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = matches!(b as u8, b'A'..=b'Z' | b'a'..=b'z' | b'.' | b'_' | b'\'');
        b += 1;
    }
    table
};

/// Buffers reused across the whole scan.
#[derive(Default)]
struct Work {
    candidates: Vec<Candidate>,
    backtrack: Backtrack,
}

/// The best citation core around the strings found at `start`: case
/// reporters before laws before journals, then the longest match, then
/// exact spellings before variations, then the longer reporter name
/// ("N.Y. Penal Law" over "N.Y.").
fn best_for_hits(
    text: &str,
    start: usize,
    hits: &[Hit],
    scanner: &Scanner,
    vocabulary: &'static Vocabulary,
    work: &mut Work,
) -> Option<Core> {
    work.candidates.clear();
    for hit in hits {
        candidates_for_hit(text, start, *hit, scanner, vocabulary, work);
    }
    let chosen = choose(&work.candidates);
    if chosen
        .as_ref()
        .is_some_and(|core| matches!(core.kind, CoreKind::Case { .. }))
    {
        return chosen;
    }
    in_a_series(text, start, hits, scanner)
        .or_else(|| page_run_into_series(text, start, hits, scanner))
        .or(chosen)
}

/// A volume, a reporter name, a series number and a page, when no template
/// of the reporter read them: a series spelled in a way the data does not
/// list ("123 F.2nd 456" is F.2d, "P.3RD" P.3d), or a series the reporter
/// does not have ("16 L. Ed. 3d 694"), whose core has no edition. Either
/// way it is a citation, and must not vanish unread. Every reporter name
/// found is tried, longest first: "P.3rd" begins with "P.3", a spelling of
/// P.3d, but its name is "P.".
fn in_a_series(text: &str, start: usize, hits: &[Hit], scanner: &Scanner) -> Option<Core> {
    let is_edition = |t: &Target| matches!(t, Target::Edition { .. });
    // The cheapest test that prose fails, asked once for every name.
    let volume = volume_before(text, start)?;
    hits.iter()
        .rev()
        .filter(|hit| scanner.targets(hit.terminal).iter().any(is_edition))
        .find_map(|hit| series_after(text, start..hit.end, volume.clone(), scanner))
}

/// Longest series number as written after a reporter's name ("12th").
const MAX_SERIES_LEN: usize = 4;

/// The citation when the reporter name at `name`, after `volume`, is
/// followed by a series number and a page.
fn series_after(
    text: &str,
    name: Range<usize>,
    volume: Range<usize>,
    scanner: &Scanner,
) -> Option<Core> {
    let written = &text[name.clone()];
    let series_start = skip_spaces(text, name.end);
    if series_start == name.end && !written.ends_with('.') {
        return None;
    }
    // A series is a few letters ("2nd", "4th"); a longer word is not
    // one, and is not scanned to its end again for each name tried.
    let series_len = text[series_start..]
        .bytes()
        .take(MAX_SERIES_LEN + 1)
        .take_while(u8::is_ascii_alphanumeric)
        .count();
    if series_len > MAX_SERIES_LEN {
        return None;
    }
    let series_end = series_start + series_len;
    let series = series_in_case_of(written, &text[series_start..series_end])?;
    let series = reporters::series_name(&series)?;
    let page_start = skip_spaces(text, series_end);
    let page_end = page_start + count_digits(text, page_start);
    if page_start == series_end
        || page_end == page_start
        || char_after(text, page_end).is_some_and(char::is_alphanumeric)
        || !page_ends(text, page_end)
    {
        return None;
    }
    let mut editions: Vec<u32> = Vec::new();
    for target in scanner.exact(&format!("{written} {series}")) {
        if let Target::Edition { id, .. } = *target
            && !editions.contains(&id)
        {
            editions.push(id);
        }
    }
    Some(Core {
        kind: CoreKind::Case {
            editions,
            short: false,
        },
        span: volume.start..page_end,
        reporter_span: name.start..series_end,
        groups: vec![("volume", volume), ("page", page_start..page_end)],
    })
}

/// A series as written after a reporter's name, in lower case: "3rd", or
/// "3RD" after a name in capitals ("F.3RD", not "So.3RD").
fn series_in_case_of(name: &str, series: &str) -> Option<String> {
    if !series.bytes().any(|b| b.is_ascii_uppercase()) {
        return Some(series.to_string());
    }
    let capitals = |s: &str| !s.bytes().any(|b| b.is_ascii_lowercase());
    (capitals(name) && capitals(series)).then(|| series.to_ascii_lowercase())
}

/// A page run into a reporter that ends in its series ("5 F.3d10",
/// "5 F.4th10"), when no template read it: a known reporter, then digits
/// alone up to the end of the number. "F.3d10x" or "F.3d10.5" is not one.
fn page_run_into_series(text: &str, start: usize, hits: &[Hit], scanner: &Scanner) -> Option<Core> {
    let hit = hits.last()?;
    let written = &text[start..hit.end];
    let series = written.rsplit(['.', ' ']).next()?;
    reporters::series_name(series)?;
    // The editions spelled so exactly, else those it is a variation of.
    let targets = scanner.targets(hit.terminal);
    let spelled_exactly = targets
        .iter()
        .any(|t| matches!(t, Target::Edition { exact: true, .. }));
    let mut editions: Vec<u32> = Vec::new();
    for target in targets {
        if let Target::Edition { id, exact } = *target
            && exact == spelled_exactly
            && !editions.contains(&id)
        {
            editions.push(id);
        }
    }
    let page_end = hit.end + count_digits(text, hit.end);
    if editions.is_empty()
        || page_end == hit.end
        || char_after(text, page_end).is_some_and(char::is_alphanumeric)
        || !page_ends(text, page_end)
    {
        return None;
    }
    let volume = volume_before(text, start)?;
    Some(Core {
        kind: CoreKind::Case {
            editions,
            short: false,
        },
        span: volume.start..page_end,
        reporter_span: start..hit.end,
        groups: vec![("volume", volume), ("page", hit.end..page_end)],
    })
}

/// The volume before a reporter name at `start`: up to five digits, a
/// space apart, not ending a word.
fn volume_before(text: &str, start: usize) -> Option<Range<usize>> {
    let end = skip_spaces_back(text, start);
    // Six digits back at most: a longer number is no volume, and is not
    // walked back over again for each reporter name tried after it.
    let digits = text[..end]
        .bytes()
        .rev()
        .take(6)
        .take_while(u8::is_ascii_digit)
        .count();
    let volume_start = end - digits;
    if end == start
        || digits == 0
        || digits > 5
        || char_before(text, volume_start).is_some_and(char::is_alphanumeric)
    {
        return None;
    }
    Some(volume_start..end)
}

fn candidates_for_hit(
    text: &str,
    start: usize,
    hit: Hit,
    scanner: &Scanner,
    vocabulary: &'static Vocabulary,
    work: &mut Work,
) {
    let trigger = start..hit.end;
    let Work {
        candidates,
        backtrack,
    } = work;
    for &target in scanner.targets(hit.terminal) {
        let attempt = |rank: u8, exact: bool, is_law: bool| Attempt {
            text,
            trigger: trigger.clone(),
            law_scanner: is_law.then_some(scanner),
            rank,
            exact,
            target,
        };
        match target {
            Target::Edition { id, exact } => {
                let attempt = attempt(0, exact, false);
                for &t in &vocabulary.editions[id as usize].templates {
                    if let Some(template) = vocabulary.template(t) {
                        candidates.extend(attempt.run(template, backtrack));
                    }
                }
            }
            Target::Journal { id, exact } => {
                let attempt = attempt(2, exact, false);
                for &t in &vocabulary.journals[id as usize].templates {
                    if let Some(template) = vocabulary.template(t) {
                        candidates.extend(attempt.run(template, backtrack));
                    }
                }
            }
            Target::Law { id, exact } => {
                let attempt = attempt(1, exact, true);
                for &t in &vocabulary.laws[id as usize].templates {
                    let template = vocabulary.template(t);
                    if let Some(template) = template.filter(|t| t.trigger == Trigger::Edition) {
                        candidates.extend(attempt.run(template, backtrack));
                    }
                }
            }
            Target::LawTemplate { template, .. } => {
                if let Some(template) = vocabulary.template(template as usize) {
                    candidates.extend(attempt(1, true, true).run(template, backtrack));
                }
            }
            Target::Id => {
                if id_ends_well(text, trigger.end) {
                    candidates.push(token(trigger.clone(), 3, target));
                }
            }
            Target::Supra => {
                if !char_after(text, trigger.end).is_some_and(char::is_alphanumeric) {
                    candidates.push(token(trigger.clone(), 3, target));
                }
            }
            Target::SectionSign => {
                let span = section_token(text, trigger.clone());
                candidates.push(token(span, 4, target));
            }
            Target::Record => {
                if let Some(end) = record_pin(text, trigger.end) {
                    candidates.push(token(trigger.start..end, 5, target));
                }
            }
        }
    }
}

/// The paragraph or page after a record cite ("¶ 12", "No. 5 at 3",
/// "45:3"); `None` when no number follows.
fn record_pin(text: &str, end: usize) -> Option<usize> {
    let rest = text.get(end..)?;
    let mut at = rest.len() - rest.trim_start().len();
    for word in ["No.", "at"] {
        if let Some(r) = rest[at..].strip_prefix(word) {
            at += word.len() + (r.len() - r.trim_start().len());
        }
    }
    let r = &rest[at..];
    let marks = r.len() - r.trim_start_matches('¶').len();
    at += marks;
    at += rest[at..].len() - rest[at..].trim_start().len();
    let digits = rest[at..].bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then_some(end + at + digits)
}

fn choose(candidates: &[Candidate]) -> Option<Core> {
    let best = candidates.iter().min_by(|a, b| {
        a.rank
            .cmp(&b.rank)
            .then(b.span.len().cmp(&a.span.len()))
            .then(b.exact.cmp(&a.exact))
            .then(b.reporter_span.len().cmp(&a.reporter_span.len()))
    })?;
    let kind = match best.target {
        Target::Edition { .. } => {
            let mut editions: Vec<u32> = Vec::new();
            for c in candidates {
                if let Target::Edition { id, .. } = c.target
                    && c.rank == best.rank
                    && c.span == best.span
                    && c.reporter_span == best.reporter_span
                    && c.exact == best.exact
                    && c.short == best.short
                    && !editions.contains(&id)
                {
                    editions.push(id);
                }
            }
            CoreKind::Case {
                editions,
                short: best.short,
            }
        }
        Target::Journal { id, .. } => CoreKind::Journal {
            journal: id,
            short: best.short,
        },
        Target::Law { id, .. } => CoreKind::Law { law: id },
        Target::LawTemplate { law, .. } => CoreKind::Law { law },
        Target::Id => CoreKind::Id,
        Target::Supra => CoreKind::Supra,
        Target::SectionSign => CoreKind::SectionSign,
        Target::Record => CoreKind::Record,
    };
    Some(Core {
        kind,
        span: best.span.clone(),
        reporter_span: best.reporter_span.clone(),
        groups: best.groups.clone(),
    })
}

fn token(span: Range<usize>, rank: u8, target: Target) -> Candidate {
    Candidate {
        rank,
        reporter_span: span.clone(),
        span,
        groups: Vec::new(),
        exact: true,
        short: false,
        target,
    }
}

/// "Id." must end a word: followed by space, punctuation or the end.
fn id_ends_well(text: &str, end: usize) -> bool {
    match char_after(text, end) {
        None => true,
        // "Id.at 495": the space after the period left out.
        Some('a') => text[end..]
            .strip_prefix("at")
            .and_then(|rest| rest.chars().next())
            .is_some_and(char::is_whitespace),
        Some(c) => c.is_whitespace() || ",;:)]”\"'’".contains(c),
    }
}

/// The whitespace-delimited token around a section sign ("§99", "§§").
fn section_token(text: &str, sign: Range<usize>) -> Range<usize> {
    let mut start = sign.start;
    while let Some(c) = char_before(text, start) {
        if c.is_whitespace() || start + 16 < sign.start {
            break;
        }
        start -= c.len_utf8();
    }
    let mut end = sign.end;
    while let Some(c) = char_after(text, end) {
        if c.is_whitespace() || end > sign.end + 16 {
            break;
        }
        end += c.len_utf8();
    }
    start..end
}

/// One way of reading the text around a reporter string.
struct Attempt<'a> {
    text: &'a str,
    trigger: Range<usize>,
    /// For laws: keeps a law's trailing number from being the volume of
    /// the next citation ("Pub. L. No. 89-732, 80 Stat. 1161").
    law_scanner: Option<&'a Scanner>,
    rank: u8,
    exact: bool,
    target: Target,
}

impl Attempt<'_> {
    /// Runs `template` around the reporter string; the full form first,
    /// then (for case reporters and journals) the short form.
    fn run(&self, template: &'static Template, backtrack: &mut Backtrack) -> Option<Candidate> {
        let Attempt {
            text,
            ref trigger,
            law_scanner,
            rank,
            exact,
            target,
        } = *self;
        let allow_short = law_scanner.is_none();
        let mut groups: Vec<(&'static str, Range<usize>)> = Vec::new();
        let start = match &template.prefix {
            Some(prefix) => {
                let start = prefix.run(text, trigger.start, backtrack, &|pos| {
                    !char_before(text, pos).is_some_and(char::is_alphanumeric)
                })?;
                collect(prefix, &backtrack.slots, &mut groups);
                start
            }
            None => trigger.start,
        };
        let accept_end = |pos: usize| {
            !char_after(text, pos).is_some_and(char::is_alphanumeric)
                && !law_scanner.is_some_and(|scanner| volume_of_next_citation(text, pos, scanner))
        };
        let (end, short, suffix) =
            match template
                .suffix
                .run(text, trigger.end, backtrack, &accept_end)
            {
                Some(end) => (end, false, &template.suffix),
                None => {
                    let short_suffix = template.short_suffix.as_ref().filter(|_| allow_short)?;
                    let end = short_suffix.run(text, trigger.end, backtrack, &accept_end)?;
                    (end, true, short_suffix)
                }
            };
        collect(suffix, &backtrack.slots, &mut groups);
        // Optional trailing parts may leave ", " matched; it is not citation.
        let mut end = end;
        while let Some(c) = char_before(text, end).filter(|c| *c == ',' || c.is_whitespace()) {
            if end - c.len_utf8() <= trigger.end {
                break;
            }
            end -= c.len_utf8();
        }
        let mut reporter_span = trigger.clone();
        if let Some((_, tail)) = groups.iter().find(|(n, _)| *n == "reporter_tail") {
            reporter_span.end = tail.end;
        }
        if !plausible(text, &groups, &reporter_span, end, allow_short) {
            return None;
        }
        Some(Candidate {
            rank,
            span: start..end,
            reporter_span,
            groups,
            exact,
            short,
            target,
        })
    }
}

/// Whether the number ending at `end` is followed by a reporter or code
/// name, and so is the volume of another citation.
fn volume_of_next_citation(text: &str, end: usize, scanner: &Scanner) -> bool {
    if !char_before(text, end).is_some_and(|c| c.is_ascii_digit()) {
        return false;
    }
    let rest = &text[end..];
    let gap = rest.len() - rest.trim_start().len();
    if gap == 0
        || gap > 3
        || !rest
            .trim_start()
            .starts_with(|c: char| c.is_ascii_uppercase())
    {
        return false;
    }
    let mut hits = Vec::new();
    scanner.walk(text.as_bytes(), end + gap, &mut hits);
    hits.iter().any(|hit| {
        scanner.targets(hit.terminal).iter().any(|t| {
            matches!(
                t,
                Target::Edition { .. } | Target::Law { .. } | Target::Journal { .. }
            )
        })
    })
}

fn collect(
    program: &'static Program,
    slots: &[Option<usize>],
    groups: &mut Vec<(&'static str, Range<usize>)>,
) {
    for (i, name) in program.group_names().iter().enumerate() {
        if let (Some(s), Some(e)) = (slots[2 * i], slots[2 * i + 1])
            && s <= e
            && !groups.iter().any(|(n, _)| n == name)
        {
            groups.push((name.as_str(), s..e));
        }
    }
}

/// Checks templates cannot express: Roman-numeral pages must be real
/// numerals, a number glued to an order's "-U" that is not one
/// ("190775-U2", "190775-Ufoo") is not the published decision's number,
/// and a reporter written as a bare word ("Holmes", "Chase") without a
/// volume must not sit where a party name would.
fn plausible(
    text: &str,
    groups: &[(&'static str, Range<usize>)],
    reporter: &Range<usize>,
    end: usize,
    is_case_or_journal: bool,
) -> bool {
    let group = |name: &str| {
        groups
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| &text[r.clone()])
    };
    if let Some(page) = group("page")
        && page.starts_with(|c: char| c.is_ascii_lowercase())
        && roman_value(page).is_none()
    {
        return false;
    }
    if let Some((_, page)) = groups.iter().find(|(name, _)| *name == "page")
        && text[page.clone()].bytes().all(|b| b.is_ascii_digit())
        && text[page.end..].starts_with("-U")
    {
        return false;
    }
    if is_case_or_journal && group("volume").is_none() {
        let written = &text[reporter.clone()];
        if !written.contains(['.', '(', ' ', '&']) && !bare_word_reporter_ok(text, reporter, end) {
            return false;
        }
    }
    true
}

/// A reporter written as a bare word without a volume ("Holmes, 272") is
/// a citation only where a party name could not be: not after "v." or
/// "and", and ending where citations end (not "Holmes, 272 pages").
fn bare_word_reporter_ok(text: &str, reporter: &Range<usize>, end: usize) -> bool {
    let before = text[..reporter.start].trim_end();
    let after_party = ["v.", " v", "vs.", " and", "&", "In re", "ex rel."]
        .iter()
        .any(|w| before.ends_with(w));
    let rest = &text[end..];
    let ends_well = match rest.chars().next() {
        None => true,
        Some(c) if ".,;:)]".contains(c) => true,
        Some(c) if c.is_whitespace() => {
            let next = rest.trim_start().chars().next();
            next.is_none() || next == Some('(') || next == Some('[')
        }
        _ => false,
    };
    !after_party && ends_well
}

/// The value of a lowercase Roman numeral page, rejecting the single
/// letters that are usually words or list markers ("v", "l", "c").
pub(crate) fn roman_value(s: &str) -> Option<u32> {
    if matches!(s, "v" | "l" | "c") {
        return None;
    }
    let digit = |c: char| match c {
        'i' => Some(1),
        'v' => Some(5),
        'x' => Some(10),
        'l' => Some(50),
        'c' => Some(100),
        _ => None,
    };
    let values: Vec<u32> = s.chars().map(digit).collect::<Option<_>>()?;
    let mut total = 0;
    for (i, &v) in values.iter().enumerate() {
        if values.get(i + 1).is_some_and(|&next| next > v) {
            total -= v as i64;
        } else {
            total += v as i64;
        }
    }
    let total = u32::try_from(total)
        .ok()
        .filter(|&t| (1..=199).contains(&t))?;
    (to_roman(total) == s).then_some(total)
}

fn to_roman(mut n: u32) -> String {
    const TABLE: [(u32, &str); 9] = [
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut out = String::new();
    for (value, numeral) in TABLE {
        while n >= value {
            out.push_str(numeral);
            n -= value;
        }
    }
    out
}

/// Keeps the better of overlapping cores: one with a volume over one
/// without ("Holmes, 221" against "221 A.3d 407"), then the longer, then
/// the earlier.
fn drop_overlaps(mut cores: Vec<Core>) -> Vec<Core> {
    cores.sort_by_key(|c| (c.span.start, std::cmp::Reverse(c.span.end)));
    let mut kept: Vec<Core> = Vec::with_capacity(cores.len());
    for core in cores {
        match kept.last() {
            Some(last) if last.span.end > core.span.start => {
                if better(&core, last) {
                    kept.pop();
                    kept.push(core);
                }
            }
            _ => kept.push(core),
        }
    }
    kept
}

fn better(a: &Core, b: &Core) -> bool {
    let has_volume = |c: &Core| c.group("volume").is_some() || c.group("title").is_some();
    let is_token = |c: &Core| matches!(c.kind, CoreKind::SectionSign);
    (is_token(b), has_volume(a), a.span.len()) > (is_token(a), has_volume(b), b.span.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_pages() {
        assert_eq!(roman_value("lxiv"), Some(64));
        assert_eq!(roman_value("ii"), Some(2));
        assert_eq!(roman_value("x"), Some(10));
        assert_eq!(roman_value("v"), None);
        assert_eq!(roman_value("iiii"), None);
        assert_eq!(roman_value("ivx"), None);
        assert_eq!(roman_value("cc"), None);
    }
}
