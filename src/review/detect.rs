//! Clause detection: score every unit for every clause category, decide per
//! category whether the contract has such a clause at all (a document-level
//! model over the unit scores), and if it does, emit the units at or above
//! the category's calibrated threshold (neighbours merged where the
//! category's clauses run over several sentences) or else its best unit.
//! The short-span categories (title, parties, dates) are read by the
//! extractors.

use serde::Serialize;

use super::contract_type::{self, ContractType};
use super::features::{DocTokens, Feature, bag_features, unit_features};
use super::key_terms::{self, DateMention, Party};
use super::model::{Calibration, PRESENCE_FEATURES, ReviewModel};
use super::segment::{Segmented, segment};

/// The CUAD categories answered by extractors rather than the unit model.
pub const DOCUMENT_NAME: &str = "Document Name";
pub const PARTIES: &str = "Parties";
pub const AGREEMENT_DATE: &str = "Agreement Date";
pub const EFFECTIVE_DATE: &str = "Effective Date";

/// Confidence given to extractor spans: they are rules, so their scores are
/// the precision each rule showed in cross-validation on the dev split.
const SCORE_DOCUMENT_NAME: f32 = 0.85;
const SCORE_PARTIES: f32 = 0.9;
const SCORE_SIGNATURES: f32 = 0.5;
const SCORE_AGREEMENT_DATE: f32 = 0.8;
const SCORE_EFFECTIVE_DATE: f32 = 0.6;
/// A contract with no explicit effective date takes effect when made: its
/// agreement date answers Effective Date too, less surely.
const SCORE_EFFECTIVE_FROM_AGREEMENT: f32 = 0.4;
/// A key term is read from the best unit of its category when that unit is
/// at least this probable, even if below the emission threshold.
const KEY_TERM_MIN_PROBABILITY: f32 = 0.2;
/// The floor for units whose wording alone states the term ("renew for
/// successive one-year periods"): the model's doubt matters less there.
const STATED_KEY_TERM_MIN_PROBABILITY: f32 = 0.02;

/// One detected clause. Offsets are byte offsets into the analysed text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Clause {
    pub category: String,
    pub start: usize,
    pub end: usize,
    pub score: f32,
    /// The section number in force where the clause starts.
    pub section: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KeyTerms {
    pub document_name: Option<String>,
    pub parties: Vec<Party>,
    pub agreement_date: Option<String>,
    pub effective_date: Option<String>,
    pub expiration_date: Option<String>,
    pub renewal_term: Option<String>,
    pub notice_period_to_terminate_renewal: Option<String>,
    pub governing_law: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Detection {
    pub clauses: Vec<Clause>,
    pub key_terms: KeyTerms,
    pub contract_type: ContractType,
}

/// How many of a category's best units the rescoring model sees.
pub const CANDIDATES: usize = 5;

/// Everything the model computes about one document, owned.
pub struct UnitScores {
    pub seg: Segmented,
    pub margins: Vec<f32>,
    pub probs: Vec<f32>,
    pub rescored: Vec<f32>,
    pub document_margins: Vec<f32>,
    pub n: usize,
}

impl UnitScores {
    pub fn view(&self) -> ScoresView<'_> {
        ScoresView {
            seg: &self.seg,
            margins: &self.margins,
            probs: &self.probs,
            rescored: &self.rescored,
            document_margins: &self.document_margins,
            n: self.n,
        }
    }
}

/// Everything the decisions read about one document, borrowed (the trainer
/// builds one from out-of-fold scores). Per-unit arrays are indexed
/// `[unit * n + category]`.
#[derive(Clone, Copy)]
pub struct ScoresView<'a> {
    pub seg: &'a Segmented,
    /// Margins of the unit model.
    pub margins: &'a [f32],
    /// The same, calibrated to probabilities.
    pub probs: &'a [f32],
    /// Margins of the rescoring model; detection computes them only for
    /// the units that are some category's candidates, and leaves 0 on the
    /// others, which nothing reads.
    pub rescored: &'a [f32],
    /// Margins of the document-level model, one per category.
    pub document_margins: &'a [f32],
    pub n: usize,
}

/// Runs the unit, rescoring and document models over `text`.
pub fn unit_scores(model: &ReviewModel, text: &str) -> UnitScores {
    let seg = segment(text);
    let tokens = DocTokens::new(text, &seg);
    let n = model.clauses.len();
    let mut margins = Vec::with_capacity(seg.units.len() * n);
    let mut features: Vec<Feature> = Vec::new();
    let mut out = Vec::new();
    for i in 0..seg.units.len() {
        unit_features(&seg, &tokens, text.len(), i, &mut features);
        model.clauses.margins(&features, &mut out);
        margins.extend_from_slice(&out);
    }
    // The presence decisions read the rescoring model only on candidate
    // units, a few per category: scoring every unit added a quarter to the
    // detection time for margins nothing reads.
    let mut rescored = vec![0f32; seg.units.len() * n];
    let mut candidate = vec![false; seg.units.len()];
    for c in 0..n {
        for i in candidates(&seg, &margins, n, c) {
            candidate[i] = true;
        }
    }
    for (i, _) in candidate.iter().enumerate().filter(|(_, c)| **c) {
        unit_features(&seg, &tokens, text.len(), i, &mut features);
        model.rescoring.margins(&features, &mut out);
        rescored[i * n..(i + 1) * n].copy_from_slice(&out);
    }
    bag_features(&tokens, &mut features);
    let mut document_margins = Vec::new();
    model.documents.margins(&features, &mut document_margins);
    let mut probs = margins.clone();
    for row in probs.chunks_mut(n.max(1)) {
        for (p, cal) in row.iter_mut().zip(&model.calibration) {
            *p = cal.probability(*p);
        }
    }
    UnitScores {
        seg,
        margins,
        probs,
        rescored,
        document_margins,
        n,
    }
}

/// Spans of one category: units at or above the threshold, adjacent ones
/// merged when the calibration says so; each scored by its best unit.
pub fn decode_category(
    scores: &ScoresView<'_>,
    category: usize,
    cal: &Calibration,
) -> Vec<(usize, usize, f32)> {
    let mut out: Vec<(usize, usize, f32)> = Vec::new();
    let mut last_unit = usize::MAX;
    for (i, unit) in scores.seg.units.iter().enumerate() {
        let p = scores.probs[i * scores.n + category];
        if p < cal.threshold || unit.is_heading {
            continue;
        }
        match out.last_mut() {
            Some(span) if cal.merge && last_unit + 1 == i => {
                span.1 = unit.end;
                span.2 = span.2.max(p);
            }
            _ => out.push((unit.start, unit.end, p)),
        }
        last_unit = i;
    }
    out
}

/// The `CANDIDATES` units (headings excluded) with the highest margins of a
/// category, best first; ties go to the earlier unit.
pub fn candidates(seg: &Segmented, margins: &[f32], n: usize, category: usize) -> Vec<usize> {
    let mut best: Vec<usize> = Vec::with_capacity(CANDIDATES + 1);
    for (i, unit) in seg.units.iter().enumerate() {
        if unit.is_heading {
            continue;
        }
        let m = margins[i * n + category];
        // Most units fall below a full list's last: settle them at once.
        if best.len() == CANDIDATES && best.last().is_some_and(|&j| margins[j * n + category] >= m)
        {
            continue;
        }
        let at = best.partition_point(|&j| margins[j * n + category] >= m);
        if at < CANDIDATES {
            best.insert(at, i);
            best.truncate(CANDIDATES);
        }
    }
    best
}

/// Log-odds of a probability, bounded so that saturated scores stay finite.
fn log_odds(p: f32) -> f32 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

/// What the document-level decision of a category reads: from the unit
/// model the log-odds of the best and second-best unit, the mean
/// probability of the three best, how many units reach 0.5 and 0.2
/// (log-scaled), the length of the document in units (log-scaled); the
/// margin of the document-level model; and from the rescoring model the
/// best margin among the category's candidates and the margin of its best
/// unit.
pub fn presence_features(scores: &ScoresView<'_>, category: usize) -> [f32; PRESENCE_FEATURES] {
    let n = scores.n;
    let best = candidates(scores.seg, scores.margins, n, category);
    let prob = |k: usize| best.get(k).map_or(0.0, |&i| scores.probs[i * n + category]);
    let rescored = |i: usize| scores.rescored[i * n + category];
    let (mut above_half, mut above_fifth, mut units) = (0u32, 0u32, 0u32);
    for (i, unit) in scores.seg.units.iter().enumerate() {
        if !unit.is_heading {
            let p = scores.probs[i * n + category];
            units += 1;
            above_half += u32::from(p >= 0.5);
            above_fifth += u32::from(p >= 0.2);
        }
    }
    let log1p = |k: u32| (1.0 + k as f32).ln();
    let best_rescored = best
        .iter()
        .map(|&i| rescored(i))
        .fold(None, |acc: Option<f32>, m| {
            Some(acc.map_or(m, |a| a.max(m)))
        });
    [
        log_odds(prob(0)),
        log_odds(prob(1)),
        (prob(0) + prob(1) + prob(2)) / 3.0,
        log1p(above_half),
        log1p(above_fifth),
        log1p(units) / 8.0,
        scores.document_margins[category],
        best_rescored.unwrap_or(-10.0),
        best.first().map_or(-10.0, |&i| rescored(i)),
    ]
}

/// Spans of one category as emitted: none when the document-level decision
/// says the contract has no such clause; otherwise the decoded spans, or
/// the category's best unit when no unit reaches the span threshold.
pub fn emit_category(
    scores: &ScoresView<'_>,
    category: usize,
    cal: &Calibration,
    present: bool,
) -> Vec<(usize, usize, f32)> {
    if !present {
        return Vec::new();
    }
    let spans = decode_category(scores, category, cal);
    if !spans.is_empty() {
        return spans;
    }
    candidates(scores.seg, scores.margins, scores.n, category)
        .first()
        .map(|&i| {
            let unit = &scores.seg.units[i];
            (unit.start, unit.end, scores.probs[i * scores.n + category])
        })
        .into_iter()
        .collect()
}

/// What the preamble extractors read: a span per category they answer, and
/// the key terms that come with them.
pub struct Preamble {
    pub spans: Vec<(&'static str, (usize, usize), f32)>,
    pub document_name: Option<(usize, usize)>,
    pub parties: Vec<Party>,
    pub agreement: Option<DateMention>,
    pub effective: Option<DateMention>,
}

pub fn read_preamble(text: &str) -> Preamble {
    let mut spans = Vec::new();
    let document_name = key_terms::document_name(text);
    if let Some(span) = document_name {
        spans.push((DOCUMENT_NAME, span, SCORE_DOCUMENT_NAME));
    }
    let (party_span, parties) = key_terms::parties(text);
    if let Some(span) = party_span {
        spans.push((PARTIES, span, SCORE_PARTIES));
    }
    // Without a party list or a witness clause, the parties are those who sign.
    let signatures = key_terms::signature_block(text).or_else(|| {
        party_span
            .is_none()
            .then(|| key_terms::signature_lines(text))?
    });
    if let Some(span) = signatures {
        spans.push((PARTIES, span, SCORE_SIGNATURES));
    }
    let agreement = key_terms::agreement_date(text);
    if let Some(d) = agreement {
        spans.push((AGREEMENT_DATE, (d.start, d.end), SCORE_AGREEMENT_DATE));
    }
    let effective = key_terms::effective_date(text, agreement);
    match (effective, agreement) {
        (Some(d), _) => spans.push((EFFECTIVE_DATE, (d.start, d.end), SCORE_EFFECTIVE_DATE)),
        (None, Some(d)) => spans.push((
            EFFECTIVE_DATE,
            (d.start, d.end),
            SCORE_EFFECTIVE_FROM_AGREEMENT,
        )),
        (None, None) => {}
    }
    Preamble {
        spans,
        document_name,
        parties,
        agreement,
        effective,
    }
}

pub fn detect(model: &ReviewModel, text: &str) -> Detection {
    let scores = unit_scores(model, text);
    detect_with_scores(model, text, &scores)
}

pub fn detect_with_scores(model: &ReviewModel, text: &str, scores: &UnitScores) -> Detection {
    let seg = &scores.seg;
    let section_at = |start: usize| {
        let k = seg.units.partition_point(|u| u.start <= start);
        k.checked_sub(1)
            .and_then(|k| seg.units[k].section)
            .map(|s| seg.sections[s].clone())
    };
    let view = scores.view();
    let mut clauses = Vec::new();
    for (c, (cal, presence)) in model.calibration.iter().zip(&model.presence).enumerate() {
        let present = presence.probability(&presence_features(&view, c)) >= presence.threshold;
        for (start, end, score) in emit_category(&view, c, cal, present) {
            clauses.push(Clause {
                category: model.clauses.labels[c].clone(),
                start,
                end,
                score: (score * 100.0).round() / 100.0,
                section: section_at(start),
            });
        }
    }
    let preamble = read_preamble(text);
    for &(category, (start, end), score) in &preamble.spans {
        clauses.push(Clause {
            category: category.to_string(),
            start,
            end,
            score,
            section: section_at(start),
        });
    }
    let mut terms = KeyTerms {
        document_name: preamble.document_name.map(|(s, e)| text[s..e].to_string()),
        parties: preamble.parties,
        agreement_date: preamble.agreement.map(|d| d.date.iso()),
        // Without an explicit effective date, a contract takes effect when
        // made.
        effective_date: preamble
            .effective
            .or(preamble.agreement)
            .map(|d| d.date.iso()),
        ..KeyTerms::default()
    };
    // A key term is read from its category's candidate units in turn, the
    // most probable first, each with the unit after it: a clause may run on
    // ("... for successive one-year terms; unless either party gives notice").
    let read = |name: &str, floor: f32, extract: &dyn Fn(&str) -> Option<String>| {
        let c = model.clauses.labels.iter().position(|l| l == name)?;
        candidates(seg, &scores.margins, scores.n, c)
            .into_iter()
            .filter(|&i| scores.probs[i * scores.n + c] >= floor)
            .find_map(|i| {
                let unit = &seg.units[i];
                let end = seg.units.get(i + 1).map_or(unit.end, |next| next.end);
                extract(&text[unit.start..end])
            })
    };
    let floor = KEY_TERM_MIN_PROBABILITY;
    terms.governing_law = read("Governing Law", floor, &key_terms::governing_law)
        .or_else(|| key_terms::governing_law_anywhere(text));
    terms.renewal_term = read("Renewal Term", floor, &key_terms::renewal_term).or_else(|| {
        read(
            "Renewal Term",
            STATED_KEY_TERM_MIN_PROBABILITY,
            &key_terms::stated_renewal_term,
        )
    });
    // The notice is often written into the renewal clause itself.
    terms.notice_period_to_terminate_renewal = read(
        "Notice Period To Terminate Renewal",
        floor,
        &key_terms::notice_period,
    )
    .or_else(|| {
        read(
            "Notice Period To Terminate Renewal",
            STATED_KEY_TERM_MIN_PROBABILITY,
            &key_terms::stated_notice_period,
        )
    })
    .or_else(|| read("Renewal Term", floor, &key_terms::stated_notice_period));
    let start = preamble.effective.or(preamble.agreement).map(|d| d.date);
    // A stated end date in any candidate beats a term computed from the
    // most probable one.
    terms.expiration_date =
        read("Expiration Date", 0.0, &key_terms::stated_expiration).or_else(|| {
            read("Expiration Date", floor, &|c| {
                key_terms::expiration(c, start)
            })
            .or_else(|| {
                read("Expiration Date", STATED_KEY_TERM_MIN_PROBABILITY, &|c| {
                    key_terms::stated_term_expiration(c, start)
                })
            })
        });
    clauses.sort_by(|a, b| a.start.cmp(&b.start).then(a.category.cmp(&b.category)));
    let title_text = preamble.document_name.map_or("", |(s, e)| &text[s..e]);
    let contract_type = contract_type::classify(model, title_text, text);
    Detection {
        clauses,
        key_terms: terms,
        contract_type,
    }
}
