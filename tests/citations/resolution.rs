use lexstack::citations::CitationKind;

use crate::{extract, find};

#[test]
fn short_forms_resolve_to_their_case() {
    let text = "Foo v. Bar, 1 U.S. 1 (1990). Qwerty v. Uiop, 2 F.3d 500 (2d Cir. 1993). \
                Foo, 1 U.S. at 9. Qwerty, supra, at 567. Lorem v. Ipsum, 1 U.S. 50 (1991). \
                1 U.S., at 51. Lorem, 1 U.S., at 52.";
    let citations = extract(text);
    assert_eq!(find(&citations, text, "1 U.S. at 9").resolves_to, Some(0));
    assert_eq!(find(&citations, text, "supra, at 567").resolves_to, Some(1));
    // Two cases in 1 U.S. could hold page 51 and nothing names one.
    assert_eq!(find(&citations, text, "1 U.S., at 51").resolves_to, None);
    let lorem = citations
        .iter()
        .position(|c| c.text(text) == "1 U.S. 50")
        .unwrap();
    assert_eq!(
        find(&citations, text, "1 U.S., at 52").resolves_to,
        Some(lorem)
    );
}

#[test]
fn identical_full_citations_resolve_to_the_first() {
    let text = "Foo v. Bar, 1 U.S. 1. Foo v. Bar, 1 U.S. 1. Baz v. Qux, 1 U.S. ___.";
    let citations = extract(text);
    let resolved: Vec<Option<usize>> = citations.iter().map(|c| c.resolves_to).collect();
    assert_eq!(resolved, vec![Some(0), Some(0), Some(2)]);
}

#[test]
fn id_follows_the_last_authority_but_not_into_parentheticals() {
    // eyecite#348.
    let text = "Foo v. Bar, 1 F.3d 10, 12 (2d Cir. 1993) (quoting Baz v. Qux, 5 U.S. 7 (1801)). \
                Id. at 13.";
    let citations = extract(text);
    let id = citations
        .iter()
        .find(|c| c.kind == CitationKind::Id)
        .unwrap();
    assert_eq!(id.resolves_to, Some(0));
}

#[test]
fn id_written_without_a_space_before_its_pin_is_read() {
    let text = "Brown v. Board, 347 U.S. 483 (1954). Id.at 495. Id.attached is a word.";
    let citations = extract(text);
    let id = find(&citations, text, "Id.at 495");
    assert_eq!(
        (id.kind, id.pin_cite.as_deref(), id.resolves_to),
        (CitationKind::Id, Some("at 495"), Some(0))
    );
    assert_eq!(citations.len(), 2, "{citations:?}");
}

#[test]
fn id_after_a_record_cite_is_the_record() {
    // eyecite#349.
    let text = "Foo v. Bar, 1 F.3d 10 (2d Cir. 1993). Plaintiffs allege fraud. Compl. ¶ 12. \
                Id. ¶ 14.";
    let citations = extract(text);
    let id = citations
        .iter()
        .find(|c| c.kind == CitationKind::Id)
        .unwrap();
    assert_eq!(id.resolves_to, None);
}

#[test]
fn id_with_a_pin_that_cannot_fit_stays_unresolved() {
    let text =
        "Foo v. Bar, 1 U.S. 100 (1800). Id. at 500. Baz v. Qux, 2 U.S. 100 (1801). Id. at 101.";
    let citations = extract(text);
    let ids: Vec<Option<usize>> = citations
        .iter()
        .filter(|c| c.kind == CitationKind::Id)
        .map(|c| c.resolves_to)
        .collect();
    assert_eq!(ids, vec![None, Some(2)]);
}

#[test]
fn id_picks_the_parallel_reporter_whose_pages_fit() {
    let text = "Brown v. Board of Educ., 347 U.S. 483, 74 S. Ct. 686 (1954). Id. at 691.";
    let citations = extract(text);
    let id = citations
        .iter()
        .find(|c| c.kind == CitationKind::Id)
        .unwrap();
    assert_eq!(id.resolves_to, Some(1));
}

#[test]
fn id_is_the_first_parallel_reporter_when_several_fit() {
    let text = "Texas v. Johnson, 491 U.S. 397, 414, 109 S. Ct. 2533, 105 L. Ed. 2d 342 (1989). \
                Id. at 414.";
    let citations = extract(text);
    let id = citations
        .iter()
        .find(|c| c.kind == CitationKind::Id)
        .unwrap();
    assert_eq!(
        id.resolves_to,
        Some(0),
        "414 fits 491 U.S. 397 and 105 L. Ed. 2d 342"
    );
}

#[test]
fn id_after_a_statute_is_the_statute() {
    let text = "Foo v. Bar, 1 U.S. 1 (1800). Ala. Code § 92 Id. at 2000";
    let citations = extract(text);
    let law = citations
        .iter()
        .position(|c| c.kind == CitationKind::Law)
        .unwrap();
    let id = citations
        .iter()
        .find(|c| c.kind == CitationKind::Id)
        .unwrap();
    assert_eq!(id.resolves_to, Some(law));
}

#[test]
fn a_short_form_naming_another_party_does_not_stand_for_the_case() {
    let text = "Brown v. Board of Education, 347 U.S. 483 (1954). Smith, 347 U.S. at 495. \
                Brown, 347 U.S. at 494. 347 U.S. at 493.";
    let citations = extract(text);
    assert_eq!(find(&citations, text, "347 U.S. at 495").resolves_to, None);
    assert_eq!(
        find(&citations, text, "347 U.S. at 494").resolves_to,
        Some(0)
    );
    assert_eq!(
        find(&citations, text, "347 U.S. at 493").resolves_to,
        Some(0)
    );
}

#[test]
fn a_supra_naming_another_case_resolves_to_none() {
    let text = "Smith v. City of Jackson, 544 U.S. 228, 240 (2005). As we held in \
                Employment Div. v. Smith, supra, at 879, neutral laws apply. \
                United States v. American Library Assn., Inc., 539 U.S. 194 (2003). \
                See Perry Ed. Assn., supra, at 45. Jackson, supra, at 241.";
    let citations = extract(text);
    let supra_at = |pin: &str| find(&citations, text, &format!("supra, at {pin}")).resolves_to;
    // Both parties written: both must be the antecedent's.
    assert_eq!(supra_at("879"), None);
    // "Assn." is no party's own word.
    assert_eq!(supra_at("45"), None);
    assert_eq!(supra_at("241"), Some(0));
}
