//! `caseStatus`: which case a citation names and whether it is still good
//! law, as far as the library can tell.

use redb::ReadTransaction;
use serde::Serialize;

use crate::library::model::CaseRecord;
use crate::library::store;
use crate::store::StoreError;

/// What the treatment of Supreme Court cases is read from.
const TREATMENT_SOURCE: &str = "Table of Supreme Court Decisions Overruled by Subsequent Decisions \
     (Constitution Annotated, to April 2020), and the overrulings since that the library lists \
     from the overruling opinions (Dobbs, 2022; Loper Bright, 2024)";

/// Whether a case is good law, by what the library holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Validity {
    /// A later decision overruled it (in whole or in part).
    Overruled,
    /// A Supreme Court case no decision the library lists has overruled
    /// ([`TREATMENT_SOURCE`]).
    NoKnownNegativeTreatment,
    /// The library holds no treatment data for this court.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OverruledBy {
    pub name: String,
    pub citation: String,
    pub case_id: Option<String>,
    pub year: Option<i32>,
    pub qualifier: Option<String>,
}

/// public-api.md §2.2/§2.3 `caseStatus`, beyond `caseId`: the case's own
/// facts and its treatment.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseStatus {
    pub case_id: String,
    pub case_name: String,
    pub court: Option<String>,
    pub decision_date: Option<String>,
    pub citations: Vec<String>,
    pub validity: Validity,
    pub overruled_by: Vec<OverruledBy>,
    /// Where the treatment comes from, when there is any.
    pub treatment_source: Option<String>,
}

impl CaseStatus {
    pub fn of(txn: &ReadTransaction, case: &CaseRecord) -> Result<Self, StoreError> {
        let overrulings = store::overrulings(txn, &case.id)?;
        let scotus = case.court.as_deref() == Some("scotus");
        let validity = if !overrulings.is_empty() {
            Validity::Overruled
        } else if scotus {
            Validity::NoKnownNegativeTreatment
        } else {
            Validity::Unknown
        };
        Ok(Self {
            case_id: case.id.clone(),
            case_name: case.name.clone(),
            court: case.court.clone(),
            decision_date: case.decision_date.clone(),
            citations: case.citations.iter().map(|c| c.cite.clone()).collect(),
            validity,
            overruled_by: overrulings
                .into_iter()
                .map(|o| {
                    let citation = match &o.by_case_id {
                        Some(id) => official_citation(txn, id)?.unwrap_or(o.by_citation),
                        None => o.by_citation,
                    };
                    Ok(OverruledBy {
                        name: o.by_name,
                        citation,
                        case_id: o.by_case_id,
                        year: o.year,
                        qualifier: o.qualifier,
                    })
                })
                .collect::<Result<_, StoreError>>()?,
            treatment_source: scotus.then(|| TREATMENT_SOURCE.to_string()),
        })
    }
}

/// The U.S. Reports citation of a case the library holds, which the Bluebook
/// cites a Supreme Court decision by once it is paged (the table of
/// overrulings gives a later decision's S. Ct. or slip citation).
fn official_citation(txn: &ReadTransaction, case_id: &str) -> Result<Option<String>, StoreError> {
    Ok(store::case(txn, case_id)?.and_then(|case| {
        case.citations
            .into_iter()
            .find(|c| c.key.as_ref().is_some_and(|k| k.reporter == "U.S."))
            .map(|c| c.cite)
    }))
}
