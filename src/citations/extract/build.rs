//! The second pass: from cores to citations. Groups parallel citations
//! ("347 U.S. 483, 74 S. Ct. 686"), reads the case name before a group and
//! the pin cites, parentheticals and history after it.

use std::ops::Range;

use super::case_name::{self, Before};
use super::cores::{Core, CoreKind};
use super::tail::{self, PinLead};
use crate::citations::courts;
use crate::citations::laws::{LawKey, section_id};
use crate::citations::model::{Citation, CitationKind, SubsequentHistory};
use crate::citations::vocab::Vocabulary;

/// How many parentheticals are read after one citation.
const MAX_PARENS: usize = 6;

/// Facts about a citation that resolution needs but callers do not.
#[derive(Debug, Clone, Default)]
pub(crate) struct Context {
    /// Inside an explanatory parenthetical of an earlier citation
    /// ("(quoting X, 1 U.S. 1)"); "Id." never refers to these.
    pub nested: bool,
    /// For references: the full citation whose name they repeat.
    pub refers_to: Option<usize>,
    /// A record cite ("Compl. ¶ 12") came between this citation and the
    /// previous one.
    pub after_record: bool,
}

pub(crate) fn build(
    text: &str,
    cores: &[Core],
    vocabulary: &'static Vocabulary,
) -> (Vec<Citation>, Vec<Context>) {
    let mut builder = Builder {
        text,
        cores,
        vocabulary,
        citation_of_core: vec![None; cores.len()],
        citations: Vec::with_capacity(cores.len()),
        contexts: Vec::with_capacity(cores.len()),
        explanatory: Vec::new(),
        floor: 0,
        last_end: 0,
        history_of: None,
        after_record: false,
    };
    let mut i = 0;
    while i < cores.len() {
        builder.explanatory.retain(|p| p.end > cores[i].span.start);
        i = match cores[i].kind {
            CoreKind::Case { .. } | CoreKind::Journal { .. } => builder.case_group(i),
            CoreKind::Law { law } => builder.law(i, law),
            CoreKind::Id | CoreKind::Supra => builder.id_or_supra(i),
            CoreKind::SectionSign => builder.unknown(i),
            CoreKind::Record => {
                builder.after_record = true;
                builder.last_end = cores[i].span.end;
                builder.floor = builder.floor.max(cores[i].span.end);
                i + 1
            }
        };
    }
    // Links were made between cores; make them between citations.
    let map = builder.citation_of_core;
    let mut citations = builder.citations;
    for citation in &mut citations {
        citation.parallel = citation
            .parallel
            .iter()
            .filter_map(|&core| map[core])
            .collect();
        for history in &mut citation.subsequent_history {
            history.citation = history.citation.and_then(|core| map[core]);
        }
    }
    (citations, builder.contexts)
}

struct Builder<'t> {
    text: &'t str,
    cores: &'t [Core],
    vocabulary: &'static Vocabulary,
    /// Which citation each core became (records and some "supra" become
    /// none).
    citation_of_core: Vec<Option<usize>>,
    citations: Vec<Citation>,
    contexts: Vec<Context>,
    /// Explanatory parentheticals still open at the current position.
    explanatory: Vec<Range<usize>>,
    /// Names are never read before here (the end of the previous citation
    /// with its parentheticals).
    floor: usize,
    /// Where the previous citation's own text ended; inside an explanatory
    /// parenthetical this bounds names instead of `floor`.
    last_end: usize,
    /// Set when the previous group ends in subsequent history: the index of
    /// its first citation, whose name the next group inherits if it has
    /// none.
    history_of: Option<usize>,
    /// Set by a record cite, until the next citation.
    after_record: bool,
}

/// After-citation facts shared by a group.
#[derive(Default)]
struct Tail {
    end: usize,
    year: Option<i32>,
    court: Option<Range<usize>>,
    parenthetical: Option<Range<usize>>,
}

impl<'t> Builder<'t> {
    fn next_start(&self, i: usize) -> usize {
        self.cores
            .get(i + 1)
            .map_or(self.text.len(), |c| c.span.start)
    }

    fn group_text(&self, name: &str, core: &Core) -> Option<String> {
        core.group(name).map(|r| self.text[r].to_string())
    }

    fn nested(&self, span: &Range<usize>) -> bool {
        self.explanatory
            .iter()
            .any(|p| p.start <= span.start && span.end <= p.end)
    }

    /// How far back the name of a citation starting at `start` may reach:
    /// the previous citation's end, or inside a parenthetical ("(quoting
    /// Foo v. Bar, …)"), the later of its opening and the previous
    /// citation's own text.
    fn name_floor(&self, start: usize) -> usize {
        if self.floor <= start {
            return self.floor;
        }
        let paren = self
            .explanatory
            .iter()
            .filter(|p| p.start < start && start < p.end)
            .map(|p| p.start + 1)
            .max()
            .unwrap_or(start);
        paren.max(self.last_end.min(start))
    }

    fn push(&mut self, core: usize, citation: Citation) {
        self.citation_of_core[core] = Some(self.citations.len());
        let nested = self.nested(&citation.span);
        self.citations.push(citation);
        self.contexts.push(Context {
            nested,
            refers_to: None,
            after_record: std::mem::take(&mut self.after_record),
        });
    }

    /// Where a short form ends when its page is a footnote's number at the
    /// foot of a printed page ("471 U. S., at⏎2 Although it was…"): before
    /// its "at", since the number follows "at" across a line break and runs
    /// straight into a sentence. The true pin is past the footnotes, where
    /// the extractor cannot follow it, so the short form has no page.
    fn end_before_footnote_mark(&self, core: &Core) -> Option<usize> {
        let page = core.group("page")?;
        let before = &self.text[..page.start];
        let at = before.trim_end().strip_suffix("at")?;
        let mut after = self.text[page.end..].chars();
        let footnote = before[before.trim_end().len()..].contains('\n')
            && after.next() == Some(' ')
            && after.next().is_some_and(char::is_uppercase)
            && after.next().is_some_and(char::is_lowercase);
        footnote.then(|| at.trim_end().trim_end_matches(',').len())
    }

    /// The span a member citation covers: the core plus, for short forms,
    /// the rest of the pin cite ("at 20-25"); a short form whose page is a
    /// footnote's number ends before its "at".
    fn member(&self, i: usize) -> (Range<usize>, Option<Range<usize>>) {
        let core = &self.cores[i];
        let limit = self.next_start(i);
        if core.is_short() {
            if let Some(end) = self.end_before_footnote_mark(core) {
                return (core.span.start..end.max(core.span.start), None);
            }
            let page = core.group("page");
            let pin = page
                .as_ref()
                .and_then(|p| tail::pin_cite(self.text, p.start, PinLead::Page, limit))
                .map(|p| p.span)
                .or(page);
            let end = pin
                .as_ref()
                .map_or(core.span.end, |p| p.end.max(core.span.end));
            (core.span.start..end, pin)
        } else {
            let pin =
                tail::pin_cite(self.text, core.span.end, PinLead::Comma, limit).map(|p| p.span);
            (core.span.clone(), pin)
        }
    }

    /// Whether the text between two citations makes them parallel, and
    /// which bracket (if any) the second one sits in.
    fn parallel_gap(&self, from: usize, to: usize) -> Option<Option<char>> {
        if to.saturating_sub(from) > 24 {
            return None;
        }
        let gap: String = self
            .text
            .get(from..to)?
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        match gap.as_str() {
            "," | "" => Some(None),
            "[" | ",[" => Some(Some(']')),
            "(" | ",(" => Some(Some(')')),
            _ => None,
        }
    }

    fn case_group(&mut self, first: usize) -> usize {
        let first_citation = self.citations.len();
        let mut members = vec![first];
        let (span, pin) = self.member(first);
        let mut pos = pin.as_ref().map_or(span.end, |p| p.end);
        let mut spans = vec![(span, pin)];
        let mut next = first + 1;
        while let Some(core) = self.cores.get(next) {
            if !matches!(core.kind, CoreKind::Case { .. } | CoreKind::Journal { .. })
                || members.len() == MAX_PARALLEL
            {
                break;
            }
            let Some(bracket) = self.parallel_gap(pos, core.span.start) else {
                break;
            };
            let (span, pin) = self.member(next);
            let mut end = pin.as_ref().map_or(span.end, |p| p.end.max(span.end));
            if let Some(close) = bracket {
                // "[92 Cal.Rptr.3d 784]" or "(686 SE2d 786)", possibly with
                // a year inside: "(63 NY2d 582 [1984])".
                let mut at = tail::skip_spaces(self.text, end);
                if let Some(inner) = tail::paren_at(self.text, at)
                    && tail::court_year(self.text, inner.inner.clone()).is_some()
                {
                    at = tail::skip_spaces(self.text, inner.span.end);
                }
                if self.text[at..].starts_with(close) {
                    end = at + close.len_utf8();
                }
            }
            members.push(next);
            spans.push((span, pin));
            pos = end;
            next += 1;
        }
        if let Some(end) = tail::placeholder_citation(self.text, pos) {
            pos = end;
        }
        let tail = self.tail(pos, next, true);
        let before = case_name::before(
            self.text,
            self.cores[first].span.start,
            self.name_floor(self.cores[first].span.start),
            true,
        );
        let inherited = match (&before.name, self.history_of.take()) {
            (None, Some(earlier)) => self.citations.get(earlier).cloned(),
            _ => None,
        };
        let history = self
            .cores
            .get(next)
            .and_then(|c| tail::history(self.text, tail.end, c.span.start))
            .map(|phrase| SubsequentHistory {
                phrase: self.text[phrase].to_string(),
                citation: Some(next),
            });
        if history.is_some() {
            self.history_of = Some(first_citation);
        }
        let court = self.court(&tail, &before, &members);
        let year = tail.year.or(before.court_year.as_ref().map(|cy| cy.year));
        let full_start = before
            .name_span
            .as_ref()
            .map_or(span_start(&spans), |s| s.start);
        let full_span = full_start..tail.end.max(pos);
        for (k, (&i, (span, pin))) in members.iter().zip(spans).enumerate() {
            let core = &self.cores[i];
            let short = core.is_short();
            let kind = match (&core.kind, short) {
                (CoreKind::Journal { .. }, _) => CitationKind::Journal,
                (_, true) => CitationKind::ShortCase,
                (_, false) => CitationKind::FullCase,
            };
            let mut citation = Citation::new(kind, span);
            citation.full_span = full_span.clone();
            citation.volume = self.group_text("volume", core);
            citation.page = self
                .group_text("page", core)
                .filter(|p| !p.starts_with('_'))
                .filter(|_| !short || self.end_before_footnote_mark(core).is_none());
            citation.reporter_found = Some(self.text[core.reporter_span.clone()].to_string());
            citation.pin_cite = pin.map(|p| self.text[p].to_string());
            citation.year = year;
            citation.court = court.0;
            citation.court_found = court.1.clone();
            citation.parenthetical = tail.parenthetical.clone().map(|p| self.text[p].to_string());
            citation.parallel = members.iter().copied().filter(|&m| m != i).collect();
            self.set_reporter(&mut citation, core, year);
            if citation.year.is_none() && self.is_neutral(core) {
                // A neutral citation's volume is the year of decision.
                citation.year = citation.volume.as_deref().and_then(|v| v.parse().ok());
            }
            if short {
                citation.case_name = before.name.clone();
            } else if let Some(earlier) = &inherited {
                citation.case_name = earlier.case_name.clone();
                citation.plaintiff = earlier.plaintiff.clone();
                citation.defendant = earlier.defendant.clone();
            } else {
                citation.case_name = before.name.clone();
                citation.plaintiff = before.plaintiff.clone();
                citation.defendant = before.defendant.clone();
            }
            if k + 1 == members.len() || history.is_some() {
                citation.subsequent_history = history.iter().cloned().collect();
            }
            self.push(i, citation);
        }
        self.last_end = pos;
        self.floor = self.floor.max(full_span.end);
        next
    }

    /// Court from the parenthetical, else implied by a Supreme Court
    /// reporter in the group.
    fn court(
        &self,
        tail: &Tail,
        before: &Before,
        members: &[usize],
    ) -> (Option<&'static str>, Option<String>) {
        let written = tail
            .court
            .clone()
            .or_else(|| before.court_year.as_ref().and_then(|cy| cy.court.clone()));
        if let Some(range) = written {
            let found = self.text[range].to_string();
            let id = courts::court_by_abbreviation(&found).map(|c| c.id.as_ref());
            return (id, Some(found));
        }
        let scotus = members.iter().any(|&i| match &self.cores[i].kind {
            CoreKind::Case { editions, .. } => {
                !editions.is_empty()
                    && editions.iter().all(|&e| {
                        let edition = &self.vocabulary.editions[e as usize];
                        self.vocabulary.reporters[edition.reporter].is_scotus()
                    })
            }
            _ => false,
        });
        (scotus.then_some("scotus"), None)
    }

    fn is_neutral(&self, core: &Core) -> bool {
        let CoreKind::Case { editions, .. } = &core.kind else {
            return false;
        };
        !editions.is_empty()
            && editions.iter().all(|&e| {
                let edition = &self.vocabulary.editions[e as usize];
                self.vocabulary.reporters[edition.reporter].cite_type == "neutral"
            })
    }

    fn set_reporter(&self, citation: &mut Citation, core: &Core, year: Option<i32>) {
        match &core.kind {
            CoreKind::Case { editions, .. } => {
                let editions: Vec<&'static crate::citations::vocab::Edition> = editions
                    .iter()
                    .map(|&e| &self.vocabulary.editions[e as usize])
                    .collect();
                let mut chosen: Vec<&str> = Vec::new();
                let dated: Vec<_> = match year {
                    Some(y) => editions.iter().filter(|e| e.covers_year(y)).collect(),
                    None => Vec::new(),
                };
                let pool = if dated.is_empty() {
                    editions.iter().collect()
                } else {
                    dated
                };
                for e in pool {
                    if !chosen.contains(&e.abbreviation.as_ref()) {
                        chosen.push(e.abbreviation.as_ref());
                    }
                }
                if chosen.len() == 1 {
                    citation.reporter = Some(chosen[0]);
                } else {
                    citation.reporter_candidates = chosen;
                }
            }
            CoreKind::Journal { journal, .. } => {
                citation.reporter = Some(self.vocabulary.journals[*journal as usize].key.as_ref());
            }
            CoreKind::Law { law } => {
                citation.reporter = Some(self.vocabulary.laws[*law as usize].key.as_ref());
            }
            _ => {}
        }
    }

    /// Parentheticals after a citation or group: the court and year, then
    /// explanatory ones (the first is kept).
    fn tail(&mut self, mut pos: usize, next: usize, court_year_allowed: bool) -> Tail {
        let limit = self
            .cores
            .get(next)
            .map_or(self.text.len(), |c| c.span.start);
        let mut tail = Tail::default();
        for _ in 0..MAX_PARENS {
            let Some(paren) = tail::paren_at(self.text, pos) else {
                break;
            };
            if paren.span.start > limit && paren.inner.start > limit {
                break;
            }
            match tail::court_year(self.text, paren.inner.clone()) {
                Some(cy) if court_year_allowed && tail.year.is_none() => {
                    tail.year = Some(cy.year);
                    tail.court = cy.court.or(tail.court.take());
                }
                Some(_) => {}
                // A court named with no year is still the court cited.
                None if court_year_allowed
                    && tail.year.is_none()
                    && tail.court.is_none()
                    && let Some(court) = tail::court_alone(self.text, paren.inner.clone()) =>
                {
                    tail.court = Some(court);
                }
                None => {
                    let inner = trim_range(self.text, paren.inner.clone());
                    if tail.parenthetical.is_none() && !inner.is_empty() {
                        tail.parenthetical = Some(inner);
                    }
                    self.explanatory.push(paren.span.clone());
                }
            }
            pos = paren.span.end;
        }
        tail.end = pos;
        tail
    }

    fn law(&mut self, i: usize, law: u32) -> usize {
        let core = &self.cores[i];
        let text = self.text;
        let limit = self.next_start(i);
        let pin = law_pin(text, core.span.end, limit);
        let after_pin = pin.as_ref().map_or(core.span.end, |p| p.end);
        let code_unnamed = matches!(
            &text[core.reporter_span.clone()],
            "title" | "Title" | "section" | "Section" | "§"
        );
        if code_unnamed && names_another_code(text, after_pin) {
            self.last_end = after_pin;
            self.floor = self.floor.max(after_pin);
            return i + 1;
        }
        let mut pos = after_pin;
        let mut dated = None;
        let mut parenthetical = None;
        for _ in 0..MAX_PARENS {
            let Some(paren) = tail::paren_at(text, pos) else {
                break;
            };
            if paren.span.start >= limit {
                break;
            }
            let inner = &text[paren.inner.clone()];
            match date_parenthetical(inner) {
                Some(found) if dated.is_none() && parenthetical.is_none() => dated = Some(found),
                _ => {
                    if parenthetical.is_none() {
                        parenthetical = Some(inner.trim().to_string());
                    }
                    self.explanatory.push(paren.span.clone());
                }
            }
            pos = paren.span.end;
        }
        let mut citation = Citation::new(CitationKind::Law, core.span.clone());
        citation.full_span = core.span.start..pos;
        citation.reporter_found = Some(text[core.reporter_span.clone()].to_string());
        citation.volume = self.group_text("volume", core);
        citation.page = self.group_text("page", core);
        citation.pin_cite = pin.map(|p| text[p].to_string());
        if let Some(dated) = dated {
            citation.year = dated.year;
            citation.publisher = dated.publisher;
            citation.supplement = dated.supplement;
        }
        self.set_reporter(&mut citation, core, None);
        let (unit, section) = ["section", "rule", "reg", "law", "number", "docket_number"]
            .iter()
            .find_map(|g| self.group_text(g, core).map(|s| (*g, Some(section_id(&s)))))
            .unwrap_or(("section", None));
        citation.year = citation
            .year
            .or_else(|| self.group_text("year", core)?.parse().ok());
        citation.law = Some(Box::new(LawKey {
            code: self.vocabulary.laws[law as usize].key.to_string(),
            subject: self.group_text("subject", core),
            title: self
                .group_text("title", core)
                .or_else(|| self.group_text("volume", core)),
            chapter: self.group_text("chapter", core),
            part: self
                .group_text("part", core)
                .filter(|_| !part_goes_on(&text[core.span.end..])),
            article: self.group_text("article", core),
            amendment: self.group_text("amendment", core),
            clause: self.group_text("clause", core),
            section,
            unit,
            subsection: self
                .group_text("subsection", core)
                .filter(|s| !s.is_empty())
                .or_else(|| citation.pin_cite.clone().filter(|p| p.starts_with('('))),
            page: self.group_text("page", core),
            appendix: core.group("appendix").is_some(),
        }));
        self.push(i, citation);
        self.last_end = after_pin;
        self.floor = self.floor.max(pos);
        i + 1
    }

    fn id_or_supra(&mut self, i: usize) -> usize {
        let core = &self.cores[i];
        // "Kaiser Foundation, supra, 13 Cal.App.5th at 1146" is one short
        // form; "supra" there only flags the name.
        let leads_a_citation = core.kind == CoreKind::Supra
            && self.cores.get(i + 1).is_some_and(|next| {
                matches!(next.kind, CoreKind::Case { .. } | CoreKind::Journal { .. })
                    && self
                        .text
                        .get(core.span.end..next.span.start)
                        .is_some_and(|gap| gap.trim() == ",")
            });
        if leads_a_citation {
            return i + 1;
        }
        let limit = self.next_start(i);
        let pin = tail::pin_cite(self.text, core.span.end, PinLead::Loose, limit).map(|p| p.span);
        let end = pin.as_ref().map_or(core.span.end, |p| p.end);
        let is_id = core.kind == CoreKind::Id;
        let mut citation = Citation::new(
            if is_id {
                CitationKind::Id
            } else {
                CitationKind::Supra
            },
            core.span.start..end,
        );
        citation.pin_cite = pin.map(|p| self.text[p].to_string());
        let tail = self.tail(end, i + 1, false);
        citation.parenthetical = tail
            .parenthetical
            .map(|p| self.text[p].to_string())
            .filter(|p| !is_year(p));
        if !is_id {
            let before = case_name::before(
                self.text,
                core.span.start,
                self.name_floor(core.span.start),
                false,
            );
            if let Some(span) = &before.name_span {
                citation.full_span = span.start..end;
            }
            citation.case_name = before.name;
        }
        self.push(i, citation);
        self.last_end = end;
        self.floor = self.floor.max(end);
        i + 1
    }

    fn unknown(&mut self, i: usize) -> usize {
        let core = &self.cores[i];
        self.push(i, Citation::new(CitationKind::Unknown, core.span.clone()));
        self.last_end = core.span.end;
        self.floor = self.floor.max(core.span.end);
        i + 1
    }
}

/// Whether the words after a code cited only by title and section name
/// another code ("Title 35, section 780-113 of the Pennsylvania
/// Consolidated Statutes"): then the citation is not to the U.S. Code.
fn names_another_code(text: &str, after: usize) -> bool {
    let rest = text.get(after..).unwrap_or_default().trim_start();
    let Some(named) = rest
        .strip_prefix("of the ")
        .or_else(|| rest.strip_prefix("of "))
    else {
        return false;
    };
    let named = named.trim_start();
    let federal = [
        "United States Code",
        "U.S. Code",
        "U.S.C.",
        "U. S. C.",
        "title ",
    ]
    .iter()
    .any(|prefix| named.starts_with(prefix));
    !federal && named.starts_with(char::is_uppercase)
}

fn span_start(spans: &[(Range<usize>, Option<Range<usize>>)]) -> usize {
    spans.first().map_or(0, |(s, _)| s.start)
}

fn trim_range(text: &str, range: Range<usize>) -> Range<usize> {
    let inner = &text[range.clone()];
    let start = range.start + (inner.len() - inner.trim_start().len());
    let end = range.end - (inner.len() - inner.trim_end().len());
    start..end.max(start)
}

fn is_year(s: &str) -> bool {
    let s = s.trim();
    s.len() == 4 && s.bytes().all(|b| b.is_ascii_digit())
}

/// A law's pin cite right after the section: subsections "(a)(2)",
/// "(a)(2) and (d)", and "et seq.".
fn law_pin(text: &str, pos: usize, limit: usize) -> Option<Range<usize>> {
    let mut limit = limit.min(text.len()).min(pos + 120);
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let window = text.get(pos..limit)?;
    let mut at = 0;
    let subsections = |s: &str| -> usize {
        let mut n = 0;
        while s[n..].starts_with('(') {
            let Some(close) = s[n..].find(')') else { break };
            let inner = &s[n + 1..n + close];
            if inner.is_empty()
                || inner.len() > 4
                || !inner.chars().all(|c| c.is_ascii_alphanumeric())
            {
                break;
            }
            n += close + 1;
        }
        n
    };
    at += subsections(window);
    if at > 0
        && let Some(rest) = window[at..].strip_prefix(" and ")
    {
        let more = subsections(rest);
        if more > 0 {
            at += 5 + more;
        }
    }
    let rest = &window[at..];
    let lead = rest.len() - rest.trim_start().len();
    if rest.trim_start().starts_with("et seq.") {
        let start = if at == 0 { lead } else { 0 };
        return Some(pos + start..pos + at + lead + "et seq.".len());
    }
    (at > 0).then(|| pos..pos + at)
}

/// The most citations one case is given in parallel (U.S., S. Ct., L. Ed.,
/// LEXIS, WL, a state's official and regional reporters…). A longer run of
/// bare citations is not one case, and grouping it whole would make every
/// member list every other (quadratic in the run's length).
const MAX_PARALLEL: usize = 12;

/// Whether a regulation part number goes on past what was read ("pt.
/// 1630.999", "pt. 1,630", "pts. 1630-1635"): then the part read is not
/// the one cited, and the citation is left without one rather than
/// checked as the wrong part.
fn part_goes_on(after: &str) -> bool {
    let mut chars = after.chars();
    matches!(
        (chars.next(), chars.next()),
        (Some('.' | ',' | '-' | '–' | '('), Some(c)) if c.is_ascii_digit() || c.is_alphabetic()
    )
}

/// A law's date parenthetical: its publisher or supplement as written
/// ("West", "Lexis Supp.", "Supp. V"), its year, and the supplement a
/// main volume is cited with ("Supp. V 2023" of "2018 & Supp. V 2023").
#[derive(Debug, PartialEq)]
struct DateParenthetical {
    publisher: Option<String>,
    year: Option<i32>,
    supplement: Option<String>,
}

/// Reads a law's date parenthetical ("West 2009", "Supp. V 2023", "2007",
/// "West", "2018 & Supp. V 2023", "West 2007 & Supp. 2015"); `None` when
/// it is some other parenthetical.
fn date_parenthetical(inner: &str) -> Option<DateParenthetical> {
    let Some((main, supplement)) = inner.split_once('&') else {
        return main_volume_date(inner);
    };
    let supplement = supplement.split_whitespace().collect::<Vec<_>>().join(" ");
    let is_supplement = supplement.split(' ').any(|w| w == "Supp.")
        && matches!(publisher_year(&supplement), Some(Some(_)));
    let mut dated = main_volume_date(main).filter(|d| d.year.is_some() && is_supplement)?;
    dated.supplement = Some(supplement);
    Some(dated)
}

/// The date of a code's volume: a publisher or supplement, a year or both.
fn main_volume_date(inner: &str) -> Option<DateParenthetical> {
    let year = publisher_year(inner)?;
    let words: Vec<&str> = inner.split_whitespace().collect();
    let publisher_words = if year.is_some() {
        &words[..words.len() - 1]
    } else {
        &words[..]
    };
    let publisher = publisher_words.join(" ");
    let publisher = publisher.trim_end_matches(',');
    // A court ("S.D.N.Y. 2009") is no publisher.
    let is_court = courts::court_by_abbreviation(publisher).is_some();
    Some(DateParenthetical {
        publisher: (!publisher.is_empty() && !is_court).then(|| publisher.to_string()),
        year,
        supplement: None,
    })
}

/// The year of a law's publisher parenthetical ("West 2009", "Lexis Supp.
/// 2010", "2007"); `Some(None)` for a publisher without a year.
fn publisher_year(inner: &str) -> Option<Option<i32>> {
    let words: Vec<&str> = inner.split_whitespace().collect();
    let (last, rest) = words.split_last()?;
    // A number of four digits or more alone is a year, mistyped if it is
    // none a code can have ("(2106)", "(20000)"); a shorter one may be a
    // subsection written apart ("§ 158 (3)").
    if rest.is_empty() && last.len() >= 4 && last.bytes().all(|b| b.is_ascii_digit()) {
        return Some(Some(last.parse().unwrap_or(i32::MAX)));
    }
    // Four digits, maybe a range after them ("2005-06"), never a longer
    // number cut to four ("20009").
    let longer = last.as_bytes().get(4).is_some_and(u8::is_ascii_digit);
    let year = last
        .get(..4)
        .filter(|y| !longer && y.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|y| y.parse::<i32>().ok())
        .filter(|y| (1700..=2100).contains(y));
    let publisher_like = rest.iter().all(|w| {
        w.chars().next().is_some_and(char::is_uppercase)
            || w.ends_with(',')
            || w.bytes().all(|b| b.is_ascii_digit() || b == b',')
    });
    match year {
        Some(y) if publisher_like && rest.len() <= 4 => Some(Some(y)),
        None if words.len() == 1
            && matches!(
                *last,
                "West" | "Lexis" | "LexisNexis" | "McKinney" | "Deering" | "Vernon"
            ) =>
        {
            Some(None)
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_named_after_title_and_section() {
        let text = "Title 35, section 780-113 of the Pennsylvania Consolidated Statutes";
        assert!(names_another_code(text, 25));
        assert!(!names_another_code(
            "section 1983 of title 42 of the United States Code",
            24
        ));
        assert!(!names_another_code("title 42, section 1983, which", 21));
        assert!(!names_another_code(
            "title 42, section 1983 of its text",
            21
        ));
    }

    #[test]
    fn law_pins() {
        let text = "§ 21-3516(a)(2) and (d) (1987)";
        let at = text.find('(').unwrap();
        assert_eq!(
            law_pin(text, at, text.len()).map(|r| &text[r]),
            Some("(a)(2) and (d)")
        );
        let text = "§ 36-3701 et seq. (West 2009)";
        let at = text.find(" et").unwrap();
        assert_eq!(
            law_pin(text, at, text.len()).map(|r| &text[r]),
            Some("et seq.")
        );
    }

    #[test]
    fn publisher_years() {
        assert_eq!(publisher_year("West 2009"), Some(Some(2009)));
        assert_eq!(publisher_year("Lexis Supp. 2010"), Some(Some(2010)));
        assert_eq!(publisher_year("2005-06"), Some(Some(2005)));
        assert_eq!(publisher_year("repealed"), None);
        assert_eq!(publisher_year("West 20009"), None);
        // Alone, a number of four digits or more is a year, however wrong.
        assert_eq!(publisher_year("2106"), Some(Some(2106)));
        assert_eq!(publisher_year("20000"), Some(Some(20000)));
        assert_eq!(publisher_year("3"), None, "a subsection written apart");
        let dated = |publisher: Option<&str>, year| {
            Some(DateParenthetical {
                publisher: publisher.map(str::to_string),
                year,
                supplement: None,
            })
        };
        assert_eq!(
            date_parenthetical("Supp. V 2023"),
            dated(Some("Supp. V"), Some(2023))
        );
        assert_eq!(date_parenthetical("West"), dated(Some("West"), None));
        assert_eq!(date_parenthetical("2018"), dated(None, Some(2018)));
        assert_eq!(date_parenthetical("repealed"), None);
        assert_eq!(date_parenthetical("S.D.N.Y. 2009"), dated(None, Some(2009)));
        let supplemented = |publisher: Option<&str>, year, supplement: &str| {
            Some(DateParenthetical {
                supplement: Some(supplement.to_string()),
                ..dated(publisher, Some(year))?
            })
        };
        assert_eq!(
            date_parenthetical("2018 & Supp. V 2023"),
            supplemented(None, 2018, "Supp. V 2023")
        );
        assert_eq!(
            date_parenthetical("West 2007 &\nSupp. 2015"),
            supplemented(Some("West"), 2007, "Supp. 2015")
        );
        // Not a date: no supplement after the "&", or no year before it.
        assert_eq!(date_parenthetical("2018 & 2019"), None);
        assert_eq!(date_parenthetical("West & Supp. 2015"), None);
        assert_eq!(date_parenthetical("Smith & Jones 2015"), None);
    }
}
