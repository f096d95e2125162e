//! Runs a playbook's checks over a detection: one finding per check, with
//! where it was decided (section number and code-point offsets), the clause
//! text, and suggested language when the check fails.

use serde::Serialize;

use super::char_offsets;
use super::detect::{Clause, Detection};
use super::key_terms;
use super::playbooks::{CheckKind, LimitedTerm, Playbook, Status};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Citation {
    pub section: Option<String>,
    /// Code-point offsets into the submitted text.
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub rule_name: String,
    pub status: Status,
    pub reason: String,
    pub citation: Option<Citation>,
    pub clause: Option<String>,
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggested_language: Option<String>,
}

pub fn evaluate(playbook: &Playbook, detection: &Detection, text: &str) -> Vec<Finding> {
    playbook
        .checks
        .iter()
        .map(|check| {
            let (status, reason, clause) = decide(&check.kind, detection);
            let citation = clause.map(|c| {
                let chars = char_offsets(text, &[c.start, c.end]);
                Citation {
                    section: c.section.clone(),
                    start: chars[0],
                    end: chars[1],
                }
            });
            Finding {
                rule_name: check.rule_name.clone(),
                status,
                reason,
                citation,
                clause: clause.map(|c| text[c.start..c.end].to_string()),
                score: clause.map(|c| super::rounded(c.score)),
                suggested_language: (status == Status::Fail)
                    .then(|| check.suggested_language.clone()),
            }
        })
        .collect()
}

fn best<'a>(detection: &'a Detection, category: &str) -> Option<&'a Clause> {
    detection
        .clauses
        .iter()
        .filter(|c| c.category == category)
        .max_by(|a, b| a.score.total_cmp(&b.score))
}

fn decide<'a>(kind: &CheckKind, detection: &'a Detection) -> (Status, String, Option<&'a Clause>) {
    match kind {
        CheckKind::ClausePresent { category } => match best(detection, category) {
            Some(c) => (
                Status::Pass,
                format!("{category} clause found{}", section_note(c)),
                Some(c),
            ),
            None => (
                Status::Fail,
                format!("no {category} clause was found"),
                None,
            ),
        },
        CheckKind::ClauseAbsent { category } => match best(detection, category) {
            Some(c) => (
                Status::Fail,
                format!("{category} clause found{}", section_note(c)),
                Some(c),
            ),
            None => (
                Status::Pass,
                format!("no {category} clause was found"),
                None,
            ),
        },
        CheckKind::TermLimit {
            term,
            min_days,
            max_days,
            when_absent,
        } => {
            let (category, value) = match term {
                LimitedTerm::RenewalTerm => {
                    ("Renewal Term", detection.key_terms.renewal_term.as_deref())
                }
                LimitedTerm::NoticePeriodToTerminateRenewal => (
                    "Notice Period To Terminate Renewal",
                    detection
                        .key_terms
                        .notice_period_to_terminate_renewal
                        .as_deref(),
                ),
            };
            let clause = best(detection, category);
            let label = category.to_lowercase();
            let days = value.and_then(|v| {
                if v == "perpetual" {
                    Some(f64::INFINITY)
                } else {
                    key_terms::amounts(v, 0)
                        .first()
                        .map(key_terms::Amount::days)
                }
            });
            let (Some(value), Some(days)) = (value, days) else {
                return (*when_absent, format!("no {label} was found"), clause);
            };
            let too_short = min_days.is_some_and(|lo| days < f64::from(lo));
            let too_long = max_days.is_some_and(|hi| days > f64::from(hi));
            let bounds = match (min_days, max_days) {
                (Some(lo), Some(hi)) => format!("between {lo} and {hi} days"),
                (Some(lo), None) => format!("at least {lo} days"),
                (None, Some(hi)) => format!("at most {hi} days"),
                (None, None) => "unbounded".to_string(),
            };
            let status = if too_short || too_long {
                Status::Fail
            } else {
                Status::Pass
            };
            let verdict = if status == Status::Pass {
                "within"
            } else {
                "outside"
            };
            (
                status,
                format!("{label} is {value}, {verdict} the limit of {bounds}"),
                clause,
            )
        }
    }
}

fn section_note(clause: &Clause) -> String {
    clause
        .section
        .as_deref()
        .map_or(String::new(), |s| format!(" in section {s}"))
}
