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
pub mod segment;
pub mod train;

use std::sync::OnceLock;

use serde_json::{Value, json};

use detect::Detection;
use model::{ModelError, ReviewModel};

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
        assert_eq!(char_offsets(text, &[8, 0, 1, 4, 9]), vec![4, 0, 1, 2, 5]);
    }
}
