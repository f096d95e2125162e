//! `POST /v1/cases/lookup`: a citation (read as resolve reads it) or a case
//! id → `found` with the case id, `not_in_library` with an external link,
//! or `unresolved`.

use serde::Serialize;

use super::{Status, Verifier, urls};
use crate::library::lookup::{AuthorityLookup, CitationQuery, find_authority};
use crate::library::model::CaseRecord;
use crate::library::{Library, store};
use crate::store::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LookupStatus {
    Found,
    NotInLibrary,
    Unresolved,
}

/// public-api.md §2.6.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseLookupResult {
    pub status: LookupStatus,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub external_source_url: Option<String>,
}

const UNRESOLVED: CaseLookupResult = CaseLookupResult {
    status: LookupStatus::Unresolved,
    case_id: None,
    external_source_url: None,
};

/// A case the library holds with text is `found`; one it knows only from
/// metadata is `not_in_library`, with the source's link (CourtListener's
/// citation link when the record has none).
fn of_case(case: &CaseRecord) -> CaseLookupResult {
    if case.has_text() {
        return CaseLookupResult {
            status: LookupStatus::Found,
            case_id: Some(case.id.clone()),
            external_source_url: None,
        };
    }
    let external = case.source_url.clone().or_else(|| {
        case.citations
            .iter()
            .find_map(|c| c.key.as_ref())
            .map(|key| {
                format!(
                    "https://www.courtlistener.com/c/{}/{}/{}/",
                    key.reporter.replace(' ', "%20"),
                    key.volume,
                    key.page
                )
            })
    });
    CaseLookupResult {
        status: LookupStatus::NotInLibrary,
        case_id: Some(case.id.clone()),
        external_source_url: external,
    }
}

pub fn by_case_id(library: &Library, id: &str) -> Result<CaseLookupResult, StoreError> {
    if let Some(case) = library.case(id)? {
        return Ok(of_case(&case));
    }
    let mut parts = id.splitn(3, '/');
    let (code, first, second) = (parts.next(), parts.next(), parts.next());
    let (code, title, section) = match (code, first, second) {
        (Some(code), Some(title), Some(section)) => (code, title, section),
        (Some(code), Some(section), None) => (code, "", section),
        _ => return Ok(UNRESOLVED),
    };
    let held = library
        .store
        .read(|txn| store::authority(txn, code, title, section))?;
    Ok(match held {
        Some(authority) => CaseLookupResult {
            status: LookupStatus::Found,
            case_id: Some(authority.id()),
            external_source_url: Some(urls::authority_page(&authority)),
        },
        None => UNRESOLVED,
    })
}

/// A citation string → the case or authority it names, when resolve
/// verifies it as written: a name, year or pin that does not fit the case
/// at that page leaves it `unresolved`, so lookup never hands out the id of
/// another case than the one cited (resolve and lookup agree).
pub fn by_citation(verifier: &Verifier, text: &str) -> Result<CaseLookupResult, StoreError> {
    let checked = verifier.resolve(&[text.to_string()], false)?;
    let Some(checked) = checked.first().filter(|c| c.status == Status::Verified) else {
        return Ok(UNRESOLVED);
    };
    if let Some(case_status) = &checked.case_status {
        return by_case_id(verifier.library, &case_status.case_id);
    }
    let Some(CitationQuery::Authority {
        code,
        title,
        section,
    }) = verifier.library.parse_citation(text)?
    else {
        // A Constitution part, or a string of several authorities.
        return Ok(UNRESOLVED);
    };
    verifier.library.store.read(|txn| {
        Ok(match find_authority(txn, &code, &title, &section)? {
            AuthorityLookup::Found { authority } => CaseLookupResult {
                status: LookupStatus::Found,
                case_id: Some(authority.id()),
                external_source_url: Some(urls::authority_page(&authority)),
            },
            _ => UNRESOLVED,
        })
    })
}
