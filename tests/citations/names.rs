use lexstack::citations::{case_names_match, court_by_abbreviation, normalize_case_name};

use crate::extract;

#[test]
fn matcher_accepts_names_briefs_write() {
    for (cited, actual) in [
        (
            "Ashcroft v. Iqbal",
            "Ashcroft, Former Attorney General, et al. v. Iqbal et al.",
        ),
        ("Iqbal", "Ashcroft v. Iqbal"),
        (
            "Celotex Corp. v. Catrett",
            "Celotex Corporation v. Catrett, Administratrix of the Estate of Catrett",
        ),
        (
            "Anderson v. Liberty Lobby, Inc.",
            "Anderson et al. v. Liberty Lobby, Inc., et al.",
        ),
        (
            "United States v. Morrison",
            "UNITED STATES v. MORRISON et al.",
        ),
        (
            "Chevron U.S.A. Inc. v. Natural Res. Def. Council, Inc.",
            "Chevron, U.S.A., Inc. v. Natural Resources Defense Council, Inc., et al.",
        ),
        (
            "Ne. Pa. Fed'n v. Smith",
            "Northeastern Pennsylvania Federation v. Smith",
        ),
        // New York's given name in parentheses.
        ("People v. Romero", "People v. Romero (Wilbert)"),
        ("People v. Romero (Wilbert)", "People v. Romero"),
        // A parenthetical that is part of a party's name.
        (
            "Smiley v. Citibank (South Dakota), N.A.",
            "BARBARA SMILEY v. CITIBANK (SOUTH DAKOTA), N. A.",
        ),
    ] {
        assert!(case_names_match(cited, actual), "{cited} ~ {actual}");
    }
}

#[test]
fn matcher_rejects_a_different_case_at_the_same_page() {
    for (cited, actual) in [
        (
            "Varghese v. China Southern Airlines Co.",
            "Mata v. Avianca, Inc.",
        ),
        ("Shaboon v. Egyptair", "Bell Atlantic Corp. v. Twombly"),
        (
            "Estate of Durden v. KLM Royal Dutch Airlines",
            "Durden v. United States",
        ),
        ("Miller v. United States", "Miller v. Johnson"),
        ("Petersen v. Iran Air", "Petersen v. Iraq"),
        ("People v. Wilbert", "People v. Romero (Wilbert)"),
        // Two given names that differ are two people, however the cited
        // one is written.
        (
            "Causey (Julie) v. Dist. Ct.",
            "Causey (Kasie) v. Dist. Ct. (State)",
        ),
        (
            "Julie Causey v. Dist. Ct.",
            "Causey (Kasie) v. Dist. Ct. (State)",
        ),
        ("State v. Salazar (Ricky)", "State v. Salazar (Rocky)"),
    ] {
        assert!(!case_names_match(cited, actual), "{cited} !~ {actual}");
    }
}

#[test]
fn normalisation_unifies_t6_forms() {
    assert_eq!(
        normalize_case_name("Nat'l Ass'n of Mfrs. v. Dep't of Def."),
        normalize_case_name("National Association of Manufacturers v. Department of Defense")
    );
}

#[test]
fn extracted_names_feed_the_matcher() {
    let text = "See Bell Atl. Corp. v. Twombly, 550 U.S. 544, 555 (2007).";
    let c = &extract(text)[0];
    let written = format!(
        "{} v. {}",
        c.plaintiff.as_deref().unwrap(),
        c.defendant.as_deref().unwrap()
    );
    assert!(case_names_match(
        &written,
        "Bell Atlantic Corp. et al. v. Twombly et al."
    ));
    assert!(!case_names_match(&written, "Erickson v. Pardus"));
}

#[test]
fn courts_from_parentheticals() {
    for (written, id) in [
        ("9th Cir.", "ca9"),
        ("S.D.N.Y.", "nysd"),
        ("Cal. Ct. App.", "calctapp"),
        ("Tex. App.", "texapp"),
        ("N.D. Ill.", "ilnd"),
        ("Bankr. S.D.N.Y.", "nysb"),
    ] {
        assert_eq!(
            court_by_abbreviation(written).map(|c| c.id.as_ref()),
            Some(id),
            "{written}"
        );
    }
}
