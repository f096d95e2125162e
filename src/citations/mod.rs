//! The citation engine: finds every U.S. legal citation in a document,
//! normalises it and writes it in Bluebook form. No HTTP here; the verify
//! and resolve endpoints and the case-law library build on this module.
//!
//! ```
//! use lexstack::citations::{CitationKind, Extractor};
//!
//! let text = "See Brown v. Board of Educ., 347 U.S. 483, 495 (1954). Id. at 494.";
//! let citations = Extractor::shared().extract(text);
//! assert_eq!(citations[0].kind, CitationKind::FullCase);
//! assert_eq!(citations[0].reporter, Some("U.S."));
//! assert_eq!(citations[0].plaintiff.as_deref(), Some("Brown"));
//! assert_eq!(citations[1].resolves_to, Some(0));
//! ```
//!
//! Vocabularies come from Free Law Project's reporters-db and courts-db
//! (BSD-2-Clause), embedded from `assets/citations/`. Map of the module:
//! - [`extract`]: scanning, template matching, names, parentheticals;
//! - `pattern`, `templates`, `scanner`: the reporters-db template
//!   language and the trie that anchors it;
//! - [`names`]: case-name normalisation and matching;
//! - [`courts`]: courts-db lookup; [`reporters`]: reporter metadata;
//! - [`bluebook`]: Bluebook form; `resolve`: short forms to full ones.

pub mod bluebook;
pub mod courts;
pub mod extract;
mod laws;
mod model;
pub mod names;
mod pattern;
mod reporter_forms;
pub mod reporters;
mod resolve;
mod scanner;
mod templates;
mod text;
mod vocab;

pub use bluebook::bluebook;
pub use courts::{
    Court, court_and_words, court_by_abbreviation, court_by_id, court_by_name,
    court_named_by_query, courts_differ, written_court_differs,
};
pub use extract::Extractor;
pub use laws::{
    CONSTITUTION, LawKey, law_cite_type, one_section, range_end_in_full, section_range,
    treasury_tail_len,
};
pub use model::{Citation, CitationKind, SubsequentHistory};
pub use names::{case_names_match, normalize_case_name};
pub use reporters::{canonical_law, canonical_reporter, editions_for};
pub use text::{CodePoints, is_invisible_mark};
pub use vocab::{Edition, Journal, Law, Reporter, Vocabulary};
