//! Contract review, with no HTTP in it: clause detection for the 41 CUAD
//! categories, key terms, contract-type detection and playbook checks.
//!
//! The model is learned from CUAD by `lexstack dev train-review` and
//! embedded in the binary (`assets/review/weights.bin.gz`). Everything runs
//! in-process and deterministically; no model server is involved.

pub mod contract_type;
pub mod detect;
pub mod eval;
pub mod features;
pub mod key_terms;
pub mod model;
pub mod playbooks;
pub mod rules;
pub mod segment;
pub mod train;

use std::sync::OnceLock;

use serde::Serialize;
use serde_json::{Value, json};

use contract_type::Family;
use detect::Detection;
use model::{ModelError, ReviewModel};
use playbooks::{Playbook, Status};
use rules::Finding;

/// Longest text accepted for review, in characters (public-api.md §8).
pub const MAX_REVIEW_CHARS: usize = 500_000;
/// How much of a longer text is analysed, in characters.
pub const ANALYZED_CHARS: usize = 200_000;

#[derive(Debug, thiserror::Error)]
pub enum ReviewError {
    #[error("document is {chars} characters, over the limit of {MAX_REVIEW_CHARS}")]
    TooLarge { chars: usize },
    #[error("no playbook has the id {0:?}")]
    UnknownPlaybook(String),
    #[error("the embedded review model could not be loaded: {0}")]
    Model(String),
}

/// A key term as the API returns it (`answers[]`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    pub key: &'static str,
    pub label: &'static str,
    pub value: Value,
}

/// The `data` of a review (public-api.md §2.8).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReviewResult {
    pub reviewed: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub contract_type: &'static str,
    pub contract_type_confidence: f64,
    pub playbook_id: Option<String>,
    pub checks_passed: usize,
    pub checks_total: usize,
    pub findings: Vec<Finding>,
    pub answers: Vec<Answer>,
    pub analyzed_chars: usize,
    pub total_chars: usize,
}

/// The review engine: the embedded model and the shipped playbooks.
pub struct Engine {
    model: &'static ReviewModel,
    playbooks: Vec<Playbook>,
}

impl Engine {
    /// The engine over the embedded model and playbooks, built once.
    pub fn embedded() -> Result<&'static Engine, &'static ReviewError> {
        static ENGINE: OnceLock<Result<Engine, ReviewError>> = OnceLock::new();
        ENGINE
            .get_or_init(|| {
                let model = embedded_model().map_err(|e| ReviewError::Model(e.to_string()))?;
                let mut categories: Vec<&str> =
                    model.clauses.labels.iter().map(String::as_str).collect();
                categories.extend(train::EXTRACTED);
                let playbooks = playbooks::embedded(&categories)
                    .map_err(|e| ReviewError::Model(e.to_string()))?;
                Ok(Engine { model, playbooks })
            })
            .as_ref()
    }

    pub fn playbooks(&self) -> &[Playbook] {
        &self.playbooks
    }

    pub fn detect(&self, text: &str) -> Detection {
        detect::detect(self.model, text)
    }

    /// Reviews `text` against the named playbook, or the playbook of the
    /// detected contract type when none is named.
    pub fn review(
        &self,
        text: &str,
        playbook_id: Option<&str>,
    ) -> Result<ReviewResult, ReviewError> {
        let total_chars = text.chars().count();
        if total_chars > MAX_REVIEW_CHARS {
            return Err(ReviewError::TooLarge { chars: total_chars });
        }
        let named = match playbook_id {
            Some(id) => Some(
                self.playbooks
                    .iter()
                    .find(|p| p.id == id)
                    .ok_or_else(|| ReviewError::UnknownPlaybook(id.to_string()))?,
            ),
            None => None,
        };
        let analysed = match text.char_indices().nth(ANALYZED_CHARS) {
            Some((cut, _)) => &text[..cut],
            None => text,
        };
        let analyzed_chars = total_chars.min(ANALYZED_CHARS);
        let detection = self.detect(analysed);
        let family = detection.contract_type.family;
        let auto = || {
            self.playbooks
                .iter()
                .find(|p| p.auto_detected && Family::parse(&p.contract_type) == Some(family))
        };
        let mut result = ReviewResult {
            reviewed: false,
            reason: None,
            contract_type: family.as_str(),
            contract_type_confidence: rounded(detection.contract_type.confidence),
            playbook_id: None,
            checks_passed: 0,
            checks_total: 0,
            findings: Vec::new(),
            answers: answers(&detection),
            analyzed_chars,
            total_chars,
        };
        let Some(playbook) = named.or_else(auto) else {
            result.reason = Some(if family == Family::None {
                "the text does not read as a contract".to_string()
            } else {
                format!(
                    "contract type {} has no validated playbook; name a playbookId to review it anyway",
                    family.as_str()
                )
            });
            return Ok(result);
        };
        let findings = rules::evaluate(playbook, &detection, analysed);
        result.reviewed = true;
        result.playbook_id = Some(playbook.id.clone());
        result.checks_total = findings.len();
        result.checks_passed = findings.iter().filter(|f| f.status == Status::Pass).count();
        result.findings = findings;
        Ok(result)
    }
}

fn answers(detection: &Detection) -> Vec<Answer> {
    let terms = &detection.key_terms;
    let mut out = Vec::new();
    let mut push = |key, label, value: Option<&String>| {
        if let Some(v) = value {
            out.push(Answer {
                key,
                label,
                value: Value::String(v.clone()),
            });
        }
    };
    push(
        "document_name",
        "Document name",
        terms.document_name.as_ref(),
    );
    push(
        "agreement_date",
        "Agreement date",
        terms.agreement_date.as_ref(),
    );
    push(
        "effective_date",
        "Effective date",
        terms.effective_date.as_ref(),
    );
    push(
        "expiration_date",
        "Expiration date",
        terms.expiration_date.as_ref(),
    );
    push("renewal_term", "Renewal term", terms.renewal_term.as_ref());
    push(
        "notice_period_to_terminate_renewal",
        "Notice period to terminate renewal",
        terms.notice_period_to_terminate_renewal.as_ref(),
    );
    push(
        "governing_law",
        "Governing law",
        terms.governing_law.as_ref(),
    );
    if !terms.parties.is_empty() {
        out.insert(
            0,
            Answer {
                key: "parties",
                label: "Parties",
                value: json!(terms.parties),
            },
        );
    }
    out
}

/// The trained weights shipped with the binary.
static WEIGHTS: &[u8] = include_bytes!("../../assets/review/weights.bin.gz");

/// The embedded model, decoded once.
pub fn embedded_model() -> Result<&'static ReviewModel, &'static ModelError> {
    static MODEL: OnceLock<Result<ReviewModel, ModelError>> = OnceLock::new();
    MODEL
        .get_or_init(|| ReviewModel::from_bytes(WEIGHTS))
        .as_ref()
}

/// Maps ascending-or-not byte offsets of `text` to code-point offsets in
/// one pass over the text.
pub fn char_offsets(text: &str, byte_offsets: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..byte_offsets.len()).collect();
    order.sort_by_key(|&k| byte_offsets[k]);
    let mut out = vec![0; byte_offsets.len()];
    let mut chars = 0;
    let mut at = 0;
    let bytes = text.as_bytes();
    for k in order {
        let target = byte_offsets[k].min(text.len());
        while at < target {
            // Count a char at each byte that starts one.
            if bytes[at] & 0xC0 != 0x80 {
                chars += 1;
            }
            at += 1;
        }
        out[k] = chars;
    }
    out
}

/// A score rounded to two decimals, as emitted: calibrated probabilities
/// are not meaningful beyond that, and it keeps PR sweeps cheap.
pub fn rounded(score: f32) -> f64 {
    (f64::from(score) * 100.0).round() / 100.0
}

/// One line of `lexstack review detect --jsonl`, in the benchmark's
/// prediction format (code-point offsets).
pub fn prediction_json(id: &str, text: &str, detection: &Detection) -> Value {
    let offsets: Vec<usize> = detection
        .clauses
        .iter()
        .flat_map(|c| [c.start, c.end])
        .collect();
    let chars = char_offsets(text, &offsets);
    let clauses: Vec<Value> = detection
        .clauses
        .iter()
        .enumerate()
        .map(|(k, c)| {
            json!({
                "category": c.category,
                "start": chars[2 * k],
                "end": chars[2 * k + 1],
                "score": rounded(c.score),
            })
        })
        .collect();
    let terms = &detection.key_terms;
    json!({
        "id": id,
        "clauses": clauses,
        "key_terms": {
            "document_name": terms.document_name,
            "parties": terms.parties,
            "agreement_date": terms.agreement_date,
            "effective_date": terms.effective_date,
            "expiration_date": terms.expiration_date,
            "renewal_term": terms.renewal_term,
            "notice_period_to_terminate_renewal": terms.notice_period_to_terminate_renewal,
            "governing_law": terms.governing_law,
        },
        "contract_type": detection.contract_type.family.as_str(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_offsets_become_code_points() {
        let text = "a€b😀c";
        assert_eq!(char_offsets(text, &[9, 0, 1, 4, 10]), vec![4, 0, 1, 2, 5]);
    }
}
