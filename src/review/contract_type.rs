//! Contract-type detection: the six CUAD families, or `none` for text that
//! is not a contract.
//!
//! A title that names its family ("SOFTWARE LICENSE AGREEMENT", "HOSTING
//! AGREEMENT") decides it: CUAD's types are the agreements' own names.
//! Otherwise a softmax model over document features (title words weighted
//! heavily, the opening, the whole vocabulary) picks the family. CUAD's dev
//! split has no restrictive-covenant contract to learn from, so that family
//! is read from the title ("NON-COMPETITION AGREEMENT", "NONDISCLOSURE
//! AGREEMENT").

use serde::Serialize;

use super::features::{Feature, document_features};
use super::model::ReviewModel;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    DistributionSupply,
    ServicesMsa,
    LicenseIp,
    SaasHosting,
    RestrictiveCovenant,
    OtherCommercial,
    None,
}

impl Family {
    pub const ALL: [Family; 7] = [
        Family::DistributionSupply,
        Family::ServicesMsa,
        Family::LicenseIp,
        Family::SaasHosting,
        Family::RestrictiveCovenant,
        Family::OtherCommercial,
        Family::None,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Family::DistributionSupply => "distribution_supply",
            Family::ServicesMsa => "services_msa",
            Family::LicenseIp => "license_ip",
            Family::SaasHosting => "saas_hosting",
            Family::RestrictiveCovenant => "restrictive_covenant",
            Family::OtherCommercial => "other_commercial",
            Family::None => "none",
        }
    }

    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.into_iter().find(|f| f.as_str() == name)
    }

    /// The family of a CUAD contract type, as CUAD files it: the folder
    /// name ("Part_III/Distributor", "Part_II/Consulting Agreements").
    /// This mapping is how training labels are derived.
    pub fn of_cuad_type(folder: &str) -> Family {
        let kind = folder
            .rsplit('/')
            .next()
            .unwrap_or(folder)
            .to_ascii_lowercase();
        let has = |k: &str| kind.contains(k);
        if has("non_compete") || has("non-compete") || has("non compete") || has("solicit") {
            Family::RestrictiveCovenant
        } else if has("hosting") {
            Family::SaasHosting
        } else if [
            "distributor",
            "manufactur",
            "reseller",
            "supply",
            "transportation",
        ]
        .iter()
        .any(|k| has(k))
        {
            Family::DistributionSupply
        } else if ["development", "license", "ip"]
            .iter()
            .any(|k| kind == *k || has(k) && *k != "ip")
        {
            Family::LicenseIp
        } else if ["maintenance", "outsourcing", "service", "consulting"]
            .iter()
            .any(|k| has(k))
        {
            Family::ServicesMsa
        } else {
            Family::OtherCommercial
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ContractType {
    pub family: Family,
    /// Probability of the family under the model (rules give 0.9).
    pub confidence: f32,
}

/// Words a contract can hardly do without; text with too few of them is
/// not reviewed as a contract.
const CONTRACT_CUES: &[&str] = &[
    "agree",
    "party",
    "parties",
    "shall",
    "hereby",
    "hereto",
    "hereunder",
    "term",
    "terminate",
    "termination",
    "obligations",
    "breach",
    "governed",
];
const MIN_CONTRACT_CUES: usize = 5;
/// Fewer cues suffice under a title that names an agreement: short
/// contracts (joint filing agreements, amendments) use few of the words.
const MIN_CONTRACT_CUES_UNDER_TITLE: usize = 2;

const RESTRICTIVE_TITLES: &[&str] = &[
    "non-compet",
    "noncompet",
    "non-solicit",
    "nonsolicit",
    "non-disclosure",
    "nondisclosure",
    "confidentiality agreement",
    "restrictive covenant",
    "non-disparagement",
];

/// Words of a title that name a family, as CUAD's own types do (its types
/// are the agreements' names: "Distributor Agreement", "Hosting
/// Agreement"). A title naming exactly one family, and none of the
/// commercial types outside them, decides the family.
const FAMILY_TITLES: &[(Family, &[&str])] = &[
    (
        Family::DistributionSupply,
        &[
            "distribut",
            "manufactur",
            "reseller",
            "resale",
            "supply",
            "transportation",
        ],
    ),
    (
        Family::LicenseIp,
        &["license", "licence", "development", "intellectual property"],
    ),
    (Family::SaasHosting, &["hosting"]),
    (
        Family::ServicesMsa,
        &["maintenance", "outsourc", "service", "consult"],
    ),
];

/// Commercial agreements of CUAD's other types: a title naming one of them
/// and no family above is `other_commercial`.
const OTHER_COMMERCIAL_TITLES: &[&str] = &[
    "sponsor",
    "alliance",
    "joint venture",
    "collaborat",
    "cooperat",
    "endorse",
    "marketing",
    "promotion",
    "affiliate",
    "agency",
    "franchise",
    "co-brand",
    "cobrand",
];

/// The family a (lowercase) title names, when it names one unambiguously.
fn family_of_title(title: &str) -> Option<Family> {
    let mut named = FAMILY_TITLES
        .iter()
        .filter(|(_, words)| words.iter().any(|w| title.contains(w)))
        .map(|(family, _)| *family);
    let other = OTHER_COMMERCIAL_TITLES.iter().any(|w| title.contains(w));
    match (named.next(), named.next(), other) {
        (Some(family), None, false) => Some(family),
        (None, _, true) => Some(Family::OtherCommercial),
        _ => None,
    }
}

pub fn looks_like_contract(title: &str, text: &str) -> bool {
    let mut seen = 0;
    let lower = text.to_ascii_lowercase();
    for cue in CONTRACT_CUES {
        if lower
            .match_indices(cue)
            .any(|(i, _)| !lower[..i].ends_with(|c: char| c.is_ascii_alphabetic()))
        {
            seen += 1;
        }
    }
    let titled = [
        "agreement",
        "contract",
        "amendment",
        "addendum",
        "endorsement",
    ]
    .iter()
    .any(|k| title.to_ascii_lowercase().contains(k));
    seen >= MIN_CONTRACT_CUES || titled && seen >= MIN_CONTRACT_CUES_UNDER_TITLE
}

pub fn classify(model: &ReviewModel, title: &str, text: &str) -> ContractType {
    if !looks_like_contract(title, text) {
        return ContractType {
            family: Family::None,
            confidence: 1.0,
        };
    }
    let lower_title = title.to_ascii_lowercase();
    if RESTRICTIVE_TITLES.iter().any(|k| lower_title.contains(k)) {
        return ContractType {
            family: Family::RestrictiveCovenant,
            confidence: 0.9,
        };
    }
    if let Some(family) = family_of_title(&lower_title) {
        return ContractType {
            family,
            confidence: 0.9,
        };
    }
    let mut features: Vec<Feature> = Vec::new();
    document_features(title, text, &mut features);
    let mut margins = Vec::new();
    model.contract_type.margins(&features, &mut margins);
    let probabilities = softmax(&margins);
    let best = probabilities
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .map(|(i, p)| (i, *p));
    match best.and_then(|(i, p)| Some((Family::parse(&model.contract_type.labels[i])?, p))) {
        Some((family, confidence)) => ContractType { family, confidence },
        None => ContractType {
            family: Family::OtherCommercial,
            confidence: 0.0,
        },
    }
}

pub fn softmax(margins: &[f32]) -> Vec<f32> {
    let max = margins.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let exp: Vec<f32> = margins.iter().map(|m| (m - max).exp()).collect();
    let sum: f32 = exp.iter().sum();
    exp.iter().map(|e| e / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_cuad_folders_to_families() {
        let cases = [
            ("Part_I/Distributor", Family::DistributionSupply),
            ("Part_III/Transportation", Family::DistributionSupply),
            ("Part_II/Consulting Agreements", Family::ServicesMsa),
            ("Part_I/License_Agreements", Family::LicenseIp),
            ("Part_III/IP", Family::LicenseIp),
            ("Part_I/Development", Family::LicenseIp),
            ("Part_II/Hosting", Family::SaasHosting),
            (
                "Part_I/Non_Compete_Non_Solicit",
                Family::RestrictiveCovenant,
            ),
            ("Part_III/Strategic Alliance", Family::OtherCommercial),
            ("Part_I/Joint Venture", Family::OtherCommercial),
        ];
        for (folder, family) in cases {
            assert_eq!(Family::of_cuad_type(folder), family, "{folder}");
        }
    }

    #[test]
    fn a_title_naming_one_family_decides_it() {
        let cases = [
            ("software license agreement", Some(Family::LicenseIp)),
            ("web site hosting agreement", Some(Family::SaasHosting)),
            ("master services agreement", Some(Family::ServicesMsa)),
            (
                "exclusive distributor agreement",
                Some(Family::DistributionSupply),
            ),
            ("co-branding agreement", Some(Family::OtherCommercial)),
            ("license and distribution agreement", None),
            ("marketing services agreement", None),
            ("agreement", None),
        ];
        for (title, family) in cases {
            assert_eq!(family_of_title(title), family, "{title}");
        }
    }

    #[test]
    fn prose_is_not_a_contract() {
        assert!(!looks_like_contract(
            "",
            "The quick brown fox jumps over the lazy dog."
        ));
        assert!(looks_like_contract(
            "",
            "This Agreement between the parties hereto shall terminate on breach of the obligations hereunder."
        ));
        let filing = "The undersigned hereby agree to file this statement jointly.";
        assert!(looks_like_contract("JOINT FILING AGREEMENT", filing));
        assert!(!looks_like_contract("", filing));
    }
}
