//! Clause detection: score every unit for every clause category, keep the
//! units at or above the category's calibrated threshold, merge neighbours
//! where the category's clauses run over several sentences, and add the
//! short-span categories read by the extractors (title, parties, dates).

use serde::Serialize;

use super::contract_type::{self, ContractType};
use super::features::{DocTokens, Feature, unit_features};
use super::key_terms::{self, Party};
use super::model::{Calibration, ReviewModel};
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
/// A key term is read from the best unit of its category when that unit is
/// at least this probable, even if below the emission threshold.
const KEY_TERM_MIN_PROBABILITY: f32 = 0.2;

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

/// Per-unit calibrated probabilities, `probs[unit * n + category]`.
pub struct UnitScores {
    pub seg: Segmented,
    pub probs: Vec<f32>,
    pub n: usize,
}

/// Raw margins of every unit for every clause category.
pub fn unit_margins(model: &ReviewModel, text: &str) -> (Segmented, Vec<f32>) {
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
    (seg, margins)
}

pub fn unit_scores(model: &ReviewModel, text: &str) -> UnitScores {
    let (seg, mut probs) = unit_margins(model, text);
    let n = model.clauses.len();
    for row in probs.chunks_mut(n.max(1)) {
        for (p, cal) in row.iter_mut().zip(&model.calibration) {
            *p = cal.probability(*p);
        }
    }
    UnitScores { seg, probs, n }
}

/// Spans of one category: units at or above the threshold, adjacent ones
/// merged when the calibration says so; each scored by its best unit.
pub fn decode_category(
    seg: &Segmented,
    probs: &[f32],
    n: usize,
    category: usize,
    cal: &Calibration,
) -> Vec<(usize, usize, f32)> {
    let mut out: Vec<(usize, usize, f32)> = Vec::new();
    let mut last_unit = usize::MAX;
    for (i, unit) in seg.units.iter().enumerate() {
        let p = probs[i * n + category];
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
    let mut clauses = Vec::new();
    let mut best_unit: Vec<Option<(usize, f32)>> = vec![None; scores.n];
    for (c, cal) in model.calibration.iter().enumerate() {
        for (start, end, score) in decode_category(seg, &scores.probs, scores.n, c, cal) {
            clauses.push(Clause {
                category: model.clauses.labels[c].clone(),
                start,
                end,
                score: (score * 100.0).round() / 100.0,
                section: section_at(start),
            });
        }
        for i in 0..seg.units.len() {
            let p = scores.probs[i * scores.n + c];
            if p >= KEY_TERM_MIN_PROBABILITY && best_unit[c].is_none_or(|(_, b)| p > b) {
                best_unit[c] = Some((i, p));
            }
        }
    }
    let mut terms = KeyTerms::default();
    let mut extracted = |category: &str, (start, end): (usize, usize), score: f32| {
        clauses.push(Clause {
            category: category.to_string(),
            start,
            end,
            score,
            section: section_at(start),
        });
    };
    let title = key_terms::document_name(text);
    if let Some(span) = title {
        terms.document_name = Some(text[span.0..span.1].to_string());
        extracted(DOCUMENT_NAME, span, SCORE_DOCUMENT_NAME);
    }
    let (party_span, parties) = key_terms::parties(text);
    if let Some(span) = party_span {
        extracted(PARTIES, span, SCORE_PARTIES);
    }
    if let Some(span) = key_terms::signature_block(text) {
        extracted(PARTIES, span, SCORE_SIGNATURES);
    }
    terms.parties = parties;
    let agreement = key_terms::agreement_date(text);
    if let Some(d) = agreement {
        terms.agreement_date = Some(d.date.iso());
        extracted(AGREEMENT_DATE, (d.start, d.end), SCORE_AGREEMENT_DATE);
    }
    let effective = key_terms::effective_date(text, agreement);
    if let Some(d) = effective {
        extracted(EFFECTIVE_DATE, (d.start, d.end), SCORE_EFFECTIVE_DATE);
    }
    // Without an explicit effective date, a contract takes effect when made.
    terms.effective_date = effective.or(agreement).map(|d| d.date.iso());
    let clause_text = |name: &str| {
        let c = model.clauses.labels.iter().position(|l| l == name)?;
        let (i, _) = best_unit[c]?;
        let unit = &seg.units[i];
        // The clause may run on into the next unit ("... for successive
        // one-year terms; unless either party gives notice ...").
        let end = seg.units.get(i + 1).map_or(unit.end, |next| next.end);
        Some(&text[unit.start..end])
    };
    terms.governing_law = clause_text("Governing Law").and_then(key_terms::governing_law);
    terms.renewal_term = clause_text("Renewal Term").and_then(key_terms::renewal_term);
    terms.notice_period_to_terminate_renewal =
        clause_text("Notice Period To Terminate Renewal").and_then(key_terms::notice_period);
    let start = effective.or(agreement).map(|d| d.date);
    terms.expiration_date =
        clause_text("Expiration Date").and_then(|c| key_terms::expiration(c, start));
    clauses.sort_by(|a, b| a.start.cmp(&b.start).then(a.category.cmp(&b.category)));
    let title_text = title.map_or("", |(s, e)| &text[s..e]);
    let contract_type = contract_type::classify(model, title_text, text);
    Detection {
        clauses,
        key_terms: terms,
        contract_type,
    }
}
