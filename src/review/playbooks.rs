//! Playbooks are data: `assets/playbooks/*.json`, described by
//! `data-schema/playbook.schema.json` and validated by [`Playbook::validate`],
//! which checks the rules the schema states and the one it cannot (minDays
//! <= maxDays); a test keeps the two in step. Each names the contract
//! family it reviews, whether automatic detection may select it, and its
//! checks.

use serde::{Deserialize, Serialize};

use super::contract_type::Family;

/// The shipped playbooks, compiled in.
const EMBEDDED: [&str; 6] = [
    include_str!("../../assets/playbooks/distribution-supply.json"),
    include_str!("../../assets/playbooks/services-msa.json"),
    include_str!("../../assets/playbooks/license-ip.json"),
    include_str!("../../assets/playbooks/saas-hosting.json"),
    include_str!("../../assets/playbooks/restrictive-covenant.json"),
    include_str!("../../assets/playbooks/general-commercial.json"),
];

/// A key term a limit check can read, with its length in days.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitedTerm {
    RenewalTerm,
    NoticePeriodToTerminateRenewal,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum CheckKind {
    /// Passes when a clause of the CUAD category is found.
    ClausePresent { category: String },
    /// Passes when no clause of the CUAD category is found.
    ClauseAbsent { category: String },
    /// Passes when the key term lies within the bounds (in days). A
    /// contract without the term passes or fails as `when_absent` says.
    TermLimit {
        term: LimitedTerm,
        #[serde(rename = "minDays", default, skip_serializing_if = "Option::is_none")]
        min_days: Option<u32>,
        #[serde(rename = "maxDays", default, skip_serializing_if = "Option::is_none")]
        max_days: Option<u32>,
        #[serde(rename = "whenAbsent")]
        when_absent: Status,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    Fail,
}

/// Unknown fields of a check are refused by [`CheckKind`], which receives
/// every field the check itself does not name (serde's `flatten` does not
/// combine with `deny_unknown_fields` on the outer struct).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Check {
    pub rule_name: String,
    #[serde(flatten)]
    pub kind: CheckKind,
    /// Wording to propose when the check fails.
    pub suggested_language: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Playbook {
    pub id: String,
    pub name: String,
    pub contract_type: String,
    pub auto_detected: bool,
    pub checks: Vec<Check>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PlaybookError {
    #[error("playbook is not valid JSON for the schema: {0}")]
    Parse(String),
    #[error("playbook {id}: {problem}")]
    Invalid { id: String, problem: String },
}

impl Playbook {
    pub fn parse(json: &str, categories: &[&str]) -> Result<Self, PlaybookError> {
        let playbook: Playbook =
            serde_json::from_str(json).map_err(|e| PlaybookError::Parse(e.to_string()))?;
        playbook.validate(categories)?;
        Ok(playbook)
    }

    /// Checks the rules of `data-schema/playbook.schema.json` that parsing
    /// leaves (id form, names, known family and categories) and the bounds
    /// of term limits.
    pub fn validate(&self, categories: &[&str]) -> Result<(), PlaybookError> {
        let invalid = |problem: String| PlaybookError::Invalid {
            id: self.id.clone(),
            problem,
        };
        let id_ok = !self.id.is_empty()
            && self
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !id_ok {
            return Err(invalid(
                "id must be lower-case letters, digits and dashes".into(),
            ));
        }
        if self.name.trim().is_empty() {
            return Err(invalid("a playbook needs a name".into()));
        }
        if Family::parse(&self.contract_type).is_none_or(|f| f == Family::None) {
            return Err(invalid(format!(
                "unknown contract type {:?}",
                self.contract_type
            )));
        }
        if self.checks.is_empty() {
            return Err(invalid("a playbook needs at least one check".into()));
        }
        for check in &self.checks {
            if check.rule_name.trim().is_empty() || check.suggested_language.trim().is_empty() {
                return Err(invalid(
                    "every check needs a ruleName and suggestedLanguage".into(),
                ));
            }
            match &check.kind {
                CheckKind::ClausePresent { category } | CheckKind::ClauseAbsent { category } => {
                    if !categories.contains(&category.as_str()) {
                        return Err(invalid(format!("unknown CUAD category {category:?}")));
                    }
                }
                CheckKind::TermLimit {
                    min_days, max_days, ..
                } => {
                    if min_days.is_none() && max_days.is_none()
                        || min_days.zip(*max_days).is_some_and(|(lo, hi)| lo > hi)
                    {
                        return Err(invalid(format!(
                            "{}: a term limit needs minDays <= maxDays",
                            check.rule_name
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

/// The shipped playbooks, parsed and validated against `categories`.
pub fn embedded(categories: &[&str]) -> Result<Vec<Playbook>, PlaybookError> {
    let playbooks = EMBEDDED
        .iter()
        .map(|json| Playbook::parse(json, categories))
        .collect::<Result<Vec<_>, _>>()?;
    for (k, p) in playbooks.iter().enumerate() {
        if playbooks[..k].iter().any(|q| q.id == p.id) {
            return Err(PlaybookError::Invalid {
                id: p.id.clone(),
                problem: "duplicate id".into(),
            });
        }
    }
    Ok(playbooks)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CATEGORIES: [&str; 3] = ["Governing Law", "Cap On Liability", "Uncapped Liability"];

    #[test]
    fn parses_and_rejects() {
        let good = r#"{"id":"x","name":"X","contractType":"services_msa","autoDetected":true,
            "checks":[{"ruleName":"Law","kind":"clause_present","category":"Governing Law","suggestedLanguage":"Add one."},
                      {"ruleName":"Notice","kind":"term_limit","term":"notice_period_to_terminate_renewal","maxDays":90,"whenAbsent":"pass","suggestedLanguage":"Shorten."}]}"#;
        let playbook = Playbook::parse(good, &CATEGORIES).unwrap();
        assert_eq!(playbook.checks.len(), 2);
        let unknown = good.replace("Governing Law", "Governing Lore");
        assert!(matches!(
            Playbook::parse(&unknown, &CATEGORIES),
            Err(PlaybookError::Invalid { .. })
        ));
        let family = good.replace("services_msa", "cooking");
        assert!(Playbook::parse(&family, &CATEGORIES).is_err());
        let extra = good.replace("\"autoDetected\"", "\"surprise\":1,\"autoDetected\"");
        assert!(matches!(
            Playbook::parse(&extra, &CATEGORIES),
            Err(PlaybookError::Parse(_))
        ));
    }
}
