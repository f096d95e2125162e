//! Links to the source of an authority.

use crate::library::model::{Authority, CaseRecord, codes};

/// The case's external source page when the library has one, else this
/// server's own page of the case.
pub fn case_page(public_url: &str, case: &CaseRecord) -> String {
    case.source_url
        .clone()
        .unwrap_or_else(|| own_case_page(public_url, &case.id))
}

pub fn own_case_page(public_url: &str, case_id: &str) -> String {
    format!(
        "{}/library/cases/{case_id}",
        public_url.trim_end_matches('/')
    )
}

/// The official publication of a code section, regulation or rule.
pub fn authority_page(authority: &Authority) -> String {
    let section = &authority.section;
    let title = &authority.title;
    match authority.code.as_str() {
        codes::USC => format!(
            "https://uscode.house.gov/view.xhtml?req=granuleid:USC-prelim-title{title}-section{section}&num=0&edition=prelim"
        ),
        codes::CFR => format!("https://www.ecfr.gov/current/title-{title}/section-{section}"),
        codes::FRCP => format!(
            "https://www.uscourts.gov/rules-policies/current-rules-practice-procedure/federal-rules-civil-procedure#rule-{section}"
        ),
        codes::FRCRP => format!(
            "https://www.uscourts.gov/rules-policies/current-rules-practice-procedure/federal-rules-criminal-procedure#rule-{section}"
        ),
        codes::FRE => format!(
            "https://www.uscourts.gov/rules-policies/current-rules-practice-procedure/federal-rules-evidence#rule-{section}"
        ),
        codes::FRAP => format!(
            "https://www.uscourts.gov/rules-policies/current-rules-practice-procedure/federal-rules-appellate-procedure#rule-{section}"
        ),
        _ => format!(
            "https://www.supremecourt.gov/filingandrules/rules_guidance.aspx#rule-{section}"
        ),
    }
}

/// The official publication of a CFR part.
pub fn regulation_part_page(title: &str, part: &str) -> String {
    format!("https://www.ecfr.gov/current/title-{title}/part-{part}")
}

pub fn constitution_page(part: &str, number: u32) -> String {
    format!("https://constitution.congress.gov/constitution/{part}-{number}/")
}
