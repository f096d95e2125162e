//! Verify and resolve never claim more than the library knows: names the
//! extractor reads in their common forms, short forms checked on their own,
//! every part of a resolved string, reversed and loosely matched names,
//! every pin page.

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

/// The checked citations of `text`, each as (citation, status, reason).
async fn checked(app: &TestApp, key: &str, text: &str) -> Vec<(String, String, String)> {
    let (status, body) = app
        .post("/v1/citations/verify", Some(key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["citations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let field = |name: &str| c[name].as_str().unwrap_or_default().to_string();
            (field("citation"), field("status"), field("reason"))
        })
        .collect()
}

/// Each answer's citation and status.
fn statuses(answers: &[(String, String, String)]) -> Vec<(&str, &str)> {
    answers
        .iter()
        .map(|(c, s, _)| (c.as_str(), s.as_str()))
        .collect()
}

/// Asserts that an answer's reason says `says`.
fn assert_reason(answer: &Value, says: &str) {
    let reason = answer["reason"].as_str().unwrap_or_default();
    assert!(reason.contains(says), "{says:?} not in {answer}");
}

/// The one checked citation of `text`, which must have `status`.
async fn only_with_status(app: &TestApp, key: &str, text: &str, status: &str) -> Value {
    let answer = only(app, key, text).await;
    assert_eq!(answer["status"], status, "{text}: {answer}");
    answer
}

/// The one checked citation of `text`.
async fn only(app: &TestApp, key: &str, text: &str) -> Value {
    let (status, body) = app
        .post("/v1/citations/verify", Some(key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    let citations = body["data"]["citations"].as_array().unwrap();
    assert_eq!(citations.len(), 1, "{text}: {body}");
    citations[0].clone()
}

/// Names with "et al.", a caption parenthetical or quotes are read, so a
/// wrong one is caught; a name that still cannot be read is `unavailable`,
/// never verified as if no name were given.
#[tokio::test]
async fn names_in_common_forms_are_read_and_unread_names_are_not_verified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for text in [
        "Mata v. Avianca, Inc., et al., 410 U.S. 113 (1973).",
        "Smith v. Jones, et al., 347 U.S. 483.",
        "Jones v. Smith (In re Smith), 347 U.S. 483.",
        "See \"Smith v. Jones,\" 347 U.S. 483.",
        "Smith v. Jones (per curiam), 347 U.S. 483.",
    ] {
        only_with_status(&app, &key, text, "unverified").await;
    }
    let answer = only(
        &app,
        &key,
        "Brown v. Board of Education, et al., 347 U.S. 483.",
    )
    .await;
    assert_eq!(answer["status"], "verified", "{answer}");
    // SCDB runs a few names' "v." into the "et al." before it ("CONLEY et
    // al.v. GIBSON et al."): stored spaced, their parties match.
    for text in [
        "Conley v. Gibson, 355 U.S. 41 (1957).",
        "Safford Unified Sch. Dist. No. 1 v. Redding, 557 U.S. 364 (2009).",
    ] {
        only_with_status(&app, &key, text, "verified").await;
    }

    let unread = only(
        &app,
        &key,
        "Smith v. Jones (opinion of Alito, J.), 347 U.S. 483.",
    )
    .await;
    assert_eq!(unread["status"], "unavailable", "{unread}");
    assert_reason(&unread, "could not be read");

    // The end of a name read after a word the extractor stops at is checked
    // with the party before its "v.": "Wyoming Corporation" alone would
    // pass for "The State of Wyoming", "Guam Shipyard" for "People of Guam".
    for text in [
        "See Acme Drilling, LLC v. Beta Dozers, Inc., a Wyoming Corporation, 2014 WY 30 (Wyo. 2014).",
        "See Acme Drilling, LLC v. Beta Dozers, Inc., a Wyoming corporation, 2014 WY 30 (Wyo. 2014).",
        "See Port Authority of Guam v. Guam Industrial Services, Inc. dba Guam Shipyard, 2026 Guam 4.",
    ] {
        let answer = only(&app, &key, text).await;
        assert_ne!(answer["status"], "verified", "{text}: {answer}");
    }
    // Read whole, the names of record verify.
    for text in [
        "See Black Diamond Energy, Inc., a Delaware Corporation v. Encana Oil and Gas (Usa) Inc., a Delaware Corporation, 2014 WY 64 (Wyo. 2014).",
        "See Wells Fargo Bank, N.A. v. 16th St. Regency, LLC, 2026 NYSlipOp 01553.",
    ] {
        only_with_status(&app, &key, text, "verified").await;
    }

    // Names in italics or bold (Markdown or HTML) are read without the
    // marks, so a made-up party is still caught and a real name verifies.
    for text in [
        "*Zyzzogeton v. Board of Education*, 347 U.S. 483 (1954).",
        "_Zyzzogeton v. Board of Education_, 347 U.S. 483 (1954).",
        "<i>Smith v. Jones</i>, 347 U.S. 483 (1954).",
    ] {
        let answer = only(&app, &key, text).await;
        assert_ne!(answer["status"], "verified", "{text}: {answer}");
    }
    for text in [
        "*Brown v. Board of Education*, 347 U.S. 483 (1954).",
        "**Brown v. Board of Education**, 347 U.S. 483 (1954).",
        "<em>Brown</em> v. <em>Board of Education</em>, 347 U.S. 483 (1954).",
    ] {
        only_with_status(&app, &key, text, "verified").await;
    }

    let unnamed = only(&app, &key, "The rule is settled. 347 U.S. 483.").await;
    assert_eq!(unnamed["status"], "verified", "{unnamed}");
    let reason = unnamed["reason"].as_str().unwrap();
    assert!(
        !reason.contains("name given") && reason.contains("no name was given"),
        "{unnamed}"
    );
}

/// A short form with no full citation before it is checked on its own (and
/// billed as one citation): the case whose pages hold the pin must be the
/// one named.
#[tokio::test]
async fn a_short_form_without_a_full_citation_is_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let text = "The court erred. Henderson v. Kessler, 512 U.S. at 214 (holding that x). \
                Bolling v. Sharpe, 347 U.S. at 499. Again 347 U.S. at 499.";
    let (status, body) = app
        .post("/v1/citations/verify", Some(&key), json!({ "text": text }))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["extractedCount"], 3, "{body}");
    let answers = checked(&app, &key, text).await;
    let statuses = statuses(&answers);
    assert_eq!(
        statuses,
        [
            ("512 U.S. at 214", "unverified"),
            ("347 U.S. at 499", "verified"),
            ("347 U.S. at 499", "unavailable"),
        ],
        "{answers:?}"
    );
    assert!(answers[0].2.contains("WEST LYNN"), "{answers:?}");
    let wallet = app.get("/v1/wallet", Some(&key)).await.1;
    assert_eq!(
        wallet["data"]["balanceMicroUsd"],
        10_000_000 - 2 * 3 * 15_000,
        "three citations checked, twice"
    );
}

/// Every page a pin names is checked: footnotes, lists, both ends of a
/// range, a page past the next case the library knows, and the pins of
/// short forms, "Id." and "supra" that stand for the case.
#[tokio::test]
async fn every_pin_page_is_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for (text, want, says) in [
        (
            "Brown v. Board of Education, 347 U.S. 483, 499 n.11 (1954).",
            "unverified",
            "BOLLING",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 490, 499 (1954).",
            "unverified",
            "BOLLING",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 495-501 (1954).",
            "unverified",
            "page 501",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 495–501 (1954).",
            "unverified",
            "page 501",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 495 to 501 (1954).",
            "unverified",
            "page 501",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 495 — 501 (1954).",
            "unverified",
            "page 501",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 495, and 501 (1954).",
            "unverified",
            "page 501",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483, 494-95 (1954).",
            "verified",
            "",
        ),
        // A page the dates index lists a document at, which no source
        // names, may be another decision or a page of this one (Reynolds v.
        // Sims runs over 377 U.S. 563): the library cannot tell.
        (
            "Reynolds v. Sims, 377 U.S. 533, 568 (1964).",
            "unavailable",
            "page 563",
        ),
        (
            "Miranda v. Arizona, 86 S. Ct. 1602, 1670 (1966).",
            "unverified",
            "page 1665",
        ),
        (
            "Miranda v. Arizona, 86 S. Ct. 1602, 1630 (1966).",
            "verified",
            "",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (1954). Brown, 347 U.S. at 600.",
            "unverified",
            "page 600",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (1954). Brown, supra, at 600.",
            "unverified",
            "page 600",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (1954). Id. at 495.",
            "verified",
            "",
        ),
        // "Id." may mean another authority than the one the reader takes.
        (
            "Brown v. Board of Education, 347 U.S. 483 (1954). Id. at 499.",
            "unavailable",
            "Id. at 499",
        ),
        // So may a short form with no name: the case at its pin, cited in
        // full elsewhere.
        (
            "Brown v. Board of Education, 347 U.S. 483 (1954). Strict scrutiny applies. 347 U.S., at 499.",
            "unavailable",
            "347 U.S., at 499: if it means this case",
        ),
    ] {
        let answer = only_with_status(&app, &key, text, want).await;
        assert_reason(&answer, says);
    }
    // A short form naming another party does not stand for Brown.
    let answers = checked(
        &app,
        &key,
        "Brown v. Board of Education, 347 U.S. 483 (1954). Smith, 347 U.S. at 495.",
    )
    .await;
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[0].1, "verified", "{answers:?}");
    assert_eq!(answers[1].1, "unavailable", "{answers:?}");
    assert!(answers[1].2.contains("BROWN"), "{answers:?}");
}

/// Parallel citations must be of one case. Given without a name, each is
/// checked against the citations the case at its page has in the others'
/// reporters; given with one, the parallel that is not the named case's own
/// citation in its reporter is the one at fault.
#[tokio::test]
async fn parallel_citations_of_different_cases_are_caught() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    // 74 S. Ct. 548 and 98 L. Ed. 803 are Brownell v. Singer, not Brown.
    let answers = checked(
        &app,
        &key,
        "See 347 U.S. 483, 74 S. Ct. 548, 98 L. Ed. 803 (1954).",
    )
    .await;
    assert_eq!(answers.len(), 3, "{answers:?}");
    for (citation, status, reason) in &answers {
        assert_eq!(status, "unverified", "{citation}: {reason}");
        assert!(reason.contains("is given with it"), "{reason}");
    }
    assert!(answers[0].2.contains("74 S. Ct. 686"), "{answers:?}");
    // Named, the parallel that is not the case's own citation is at fault:
    // another edition of the reporter (Brown is in the L. Ed.'s first
    // series), a mistyped page in a volume the library does not hold whole.
    for (text, statuses, at_fault, own) in [
        (
            "Brown v. Board of Education, 347 U.S. 483, 74 S. Ct. 686, 98 L. Ed. 2d 873 (1954).",
            ["verified", "verified", "unverified"],
            2,
            "is at 98 L. Ed. 873",
        ),
        (
            "Mapp v. Ohio, 367 U.S. 643, 81 S. Ct. 1648, 6 L. Ed. 2d 1081 (1961).",
            ["verified", "unverified", "verified"],
            1,
            "is at 81 S. Ct. 1684",
        ),
    ] {
        let answers = checked(&app, &key, text).await;
        let read: Vec<&str> = answers
            .iter()
            .map(|(_, status, _)| status.as_str())
            .collect();
        assert_eq!(read, statuses, "{answers:?}");
        let reason = &answers[at_fault].2;
        assert!(
            reason.contains("is given with it") && reason.ends_with(own),
            "{reason}"
        );
    }
    let answers = checked(
        &app,
        &key,
        "See 347 U.S. 483, 74 S. Ct. 686, 98 L. Ed. 873 (1954).",
    )
    .await;
    assert!(
        answers.iter().all(|(_, status, _)| status == "verified"),
        "{answers:?}"
    );
}

/// Resolve checks every citation of a string as verify does and answers
/// with the worst, naming the part at fault.
#[tokio::test]
async fn resolve_checks_every_citation_of_a_string() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let strings = [
        "Brown v. Board of Education, 347 U.S. 483, 74 S. Ct. 693, 98 L. Ed. 884 (1954)",
        "347 U.S. 483; 999 U.S. 1",
        "42 U.S.C. § 1983; Fed. R. Civ. P. 99",
        "Brown v. Board of Education, 347 U.S. 483 (1954)",
    ];
    let (status, body) = app
        .post(
            "/v1/citations/resolve",
            Some(&key),
            json!({ "citations": strings }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let answers = body["data"]["citations"].as_array().unwrap();
    let statuses: Vec<&str> = answers
        .iter()
        .map(|a| a["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        statuses,
        ["unverified", "unavailable", "unverified", "verified"],
        "{body}"
    );
    // The parallel at fault is named, with Brown's own page.
    assert!(
        answers[0]["reason"]
            .as_str()
            .unwrap()
            .starts_with("74 S. Ct. 693: 347 U.S. 483 is given with it"),
        "{body}"
    );
    assert!(
        answers[1]["reason"]
            .as_str()
            .unwrap()
            .starts_with("999 U.S. 1"),
        "{body}"
    );
    assert_reason(&answers[2], "Fed. R. Civ. P. 99");
    for (string, answer) in strings.iter().zip(answers) {
        let verified = checked(&app, &key, string).await;
        let worst = ["unverified", "unavailable", "verified"]
            .into_iter()
            .find(|status| verified.iter().any(|(_, s, _)| s == status))
            .unwrap();
        assert_eq!(
            answer["status"], worst,
            "resolve and verify agree on {string}"
        );
    }
}

/// Parties the other way round, or a party named by the office its record
/// adds, are not the case's name: `unavailable`, or `unverified` when the
/// name written is another case's. No Bluebook form echoes such a name.
#[tokio::test]
async fn reversed_and_loosely_matched_names_are_not_verified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for (text, want) in [
        ("Johnson v. Texas, 491 U.S. 397 (1989).", "unverified"),
        ("United States v. Nixon, 506 U.S. 224 (1993).", "unverified"),
        ("Georgia v. Hardwick, 478 U.S. 186 (1986).", "unavailable"),
        ("Roe v. Dallas County, 410 U.S. 113 (1973).", "unavailable"),
        (
            "United States v. President, 418 U.S. 683 (1974).",
            "unavailable",
        ),
        ("Texas v. Johnson, 491 U.S. 397 (1989).", "verified"),
        ("Bowers v. Hardwick, 478 U.S. 186 (1986).", "verified"),
        ("United States v. Nixon, 418 U.S. 683 (1974).", "verified"),
    ] {
        let answer = only_with_status(&app, &key, text, want).await;
        if want != "verified" {
            assert_eq!(answer["bluebookCitation"], Value::Null, "{answer}");
        }
    }
    let johnson = only(&app, &key, "Johnson v. Texas, 491 U.S. 397 (1989).").await;
    assert_reason(&johnson, "509 U.S. 350");
}

/// An initial shared with the case at the page is no part of its name: a
/// name that shares nothing else is another case's, `unverified`.
#[tokio::test]
async fn a_shared_initial_is_no_partial_match() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for text in [
        "Carman L. Deck v. Missouri, 544 U.S. 581 (2005).",
        "Quillfeather L. Brannigan v. Zork, 544 U.S. 581 (2005).",
    ] {
        let answer = only_with_status(&app, &key, text, "unverified").await;
        assert_reason(&answer, "CLINGMAN");
    }
    // A party word shared is still a partial match.
    only_with_status(
        &app,
        &key,
        "Clingman v. Deck, 544 U.S. 581 (2005).",
        "unavailable",
    )
    .await;
}

/// A name the extractor reads from a word inside it (after "in", "at",
/// "for", or a number) is checked as written in full when that is the
/// name of the case at the page; a sentence's own words before a name do
/// not change it.
#[tokio::test]
async fn a_name_read_short_is_checked_as_written_in_full() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for text in [
        "First National Bank in Plant City v. Dickinson, 396 U.S. 122 (1969).",
        "Long Island Care at Home v. Evelyn Coke, 551 U.S. 158 (2007).",
        "Hughes v. Superior Court of California for Contra Costa County, 339 U.S. 460 (1950).",
        "The Court in Brown v. Board of Education, 347 U.S. 483 (1954), held as much.",
        // A short form with no full citation before it too.
        "First National Bank in Plant City v. Dickinson, 396 U.S. at 131.",
    ] {
        only_with_status(&app, &key, text, "verified").await;
    }
    // The Bluebook form names the case as written in full.
    let plant_city = only(
        &app,
        &key,
        "First National Bank in Plant City v. Dickinson, 396 U.S. 122 (1969).",
    )
    .await;
    assert_eq!(
        plant_city["bluebookCitation"],
        "First Nat'l Bank in Plant City v. Dickinson, 396 U.S. 122 (1969)"
    );
    // Words before a wrong name are the sentence's, even where they hold a
    // party of the case at the page up to a comma, or the name's own end.
    for (text, status) in [
        (
            "As the Court held in Deck v. Missouri, 544 U.S. 581 (2005), that is so.",
            "unverified",
        ),
        (
            "Terry Lee Shannon, like the defendant in Smith v. United States, 512 U.S. 573 (1994), lost.",
            "unverified",
        ),
        (
            "As in First National Bank in Plant City, the Court in Jones v. Dickinson, 396 U.S. 122 (1969), held.",
            "unavailable",
        ),
        (
            "Smith v. 564.54 Acres of Land, 441 U.S. 506 (1979).",
            "unavailable",
        ),
        // Nor do words a comma, a period, a quote or a parenthesis keep
        // apart from it.
        (
            "The loan came from First National Bank, in Plant City v. Dickinson, 396 U.S. 122 (1969), the Court said.",
            "unavailable",
        ),
        (
            "The lender was First National Bank. in Plant City v. Dickinson, 396 U.S. 122 (1969).",
            "unavailable",
        ),
        (
            "Compare \"First National Bank\" in Plant City v. Dickinson, 396 U.S. 122 (1969).",
            "unavailable",
        ),
        (
            "See First National Bank (in Plant City v. Dickinson, 396 U.S. 122 (1969)).",
            "unavailable",
        ),
        (
            "The lender was First National Bank. in Plant City v. Dickinson, 396 U.S. at 131.",
            "unavailable",
        ),
        (
            "Hughes v. Whatever Court for Contra Costa County, 339 U.S. 460 (1950).",
            "unavailable",
        ),
    ] {
        only_with_status(&app, &key, text, status).await;
    }
}

/// A year the library knows is wrong is never printed: more than a year
/// off is `unverified`, one year off verifies with the decision's year.
/// A page inside the case given as its first page says so.
#[tokio::test]
async fn wrong_years_and_first_pages_are_told() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let wrong = only(
        &app,
        &key,
        "Brown v. Board of Education, 347 U.S. 483 (2021).",
    )
    .await;
    assert_eq!(wrong["status"], "unverified", "{wrong}");
    assert_reason(&wrong, "1954");
    // The Supreme Court Database dates a decision to its day: a year off
    // by one is wrong too.
    let near = only(
        &app,
        &key,
        "Brown v. Board of Education, 347 U.S. 483 (1953).",
    )
    .await;
    assert_eq!(near["status"], "unverified", "{near}");
    assert_reason(&near, "decided on 1954-05-17, not in 1953");
    // A year behind another parenthetical is checked too.
    let behind = only(
        &app,
        &key,
        "Brown v. Board of Education, 347 U.S. 483 (per curiam) (1960).",
    )
    .await;
    assert_eq!(behind["status"], "unverified", "{behind}");
    assert_reason(&behind, "not in 1960");
    let court_alone = only(&app, &key, "Miranda v. Arizona, 384 U.S. 436 (9th Cir.).").await;
    assert_eq!(court_alone["status"], "unverified", "{court_alone}");
    assert_reason(&court_alone, "not the court named (9th Cir.)");
    // A year given only the second time a case or code is cited (a table of
    // authorities lists cases without one) is checked, and billed once.
    for (text, says) in [
        (
            "Terry v. Ohio, 392 U.S. 1 ..... 4\n\nThe stop was lawful. Terry v. Ohio, 392 U.S. 1 (1975).",
            "not in 1975",
        ),
        (
            "Plaintiff sues under 42 U.S.C. § 1983 (2018), as 42 U.S.C. § 1983 (2018 & Supp. V 2090) allows.",
            "2090",
        ),
    ] {
        let later = only(&app, &key, text).await;
        assert_eq!(later["status"], "unverified", "{later}");
        assert_reason(&later, says);
    }
    // Other sources' dates may be a rehearing's: Korematsu was decided in
    // December 1944, and the dates index gives February 1945.
    let near = only(
        &app,
        &key,
        "Korematsu v. United States, 323 U.S. 214 (1944).",
    )
    .await;
    assert_eq!(near["status"], "verified", "{near}");
    assert_reason(&near, "the year given is 1944");
    let inside = only(&app, &key, "Roe v. Wade, 410 U.S. 150.").await;
    assert_eq!(inside["status"], "verified", "{inside}");
    assert_reason(&inside, "not the case's first page (113)");
}

/// A rule's subdivision is checked against the rule's text, distinct
/// subdivisions are distinct citations, every section of a "§§" list is
/// checked, and parts of a Constitution citation that could not be read are
/// not passed over.
#[tokio::test]
async fn subdivisions_lists_and_unread_parts_are_not_taken_at_face_value() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "Fed. R. Civ. P. 12(b)(6); Fed. R. Civ. P. 12(b)(9). Fed. R. Civ. P. 12(z). \
         Fed. R. Evid. 801(d)(2)(F). Fed. R. Evid. 801(d)(2)(E). \
         U.S. Const. amend. XIV, §§ 6-7. U.S. Const. art. I, § 8, cls. 17, 19. \
         U.S. Const. amend. V, cl. 9. 35 U.S.C. §§ 101, 999. 35 U.S.C. §§ 101, 102.",
    )
    .await;
    let statuses = statuses(&answers);
    assert_eq!(
        statuses,
        [
            ("Fed. R. Civ. P. 12", "verified"),
            ("Fed. R. Civ. P. 12", "unavailable"),
            ("Fed. R. Civ. P. 12", "unavailable"),
            ("Fed. R. Evid. 801", "unavailable"),
            ("Fed. R. Evid. 801", "verified"),
            ("U.S. Const. amend. XIV", "unavailable"),
            ("U.S. Const. art. I, § 8", "unavailable"),
            ("U.S. Const. amend. V", "unavailable"),
            ("35 U.S.C. §§ 101", "unavailable"),
            ("35 U.S.C. §§ 101", "verified"),
        ],
        "{answers:?}"
    );
    assert!(answers[1].2.contains("(b)(9)"), "{answers:?}");
    assert!(answers[8].2.starts_with("§ 999: "), "{answers:?}");
    assert!(
        answers[0].2.contains("subdivision (b)(6) is in its text"),
        "{answers:?}"
    );
    // A marker the rule's text only cross-references ("Rule 12(b), (e), or
    // (f)" in Rule 15, "Rule 801(d)(2)" in Rule 613) is no subdivision of
    // it; one that opens an item after such a cross-reference is.
    for (text, status) in [
        ("Fed. R. Civ. P. 15(f).", "unavailable"),
        ("Fed. R. Evid. 613(d).", "unavailable"),
        ("Fed. R. Evid. 613(b)(2).", "unavailable"),
        ("Fed. R. Civ. P. 15(a)(2).", "verified"),
        ("Fed. R. Civ. P. 26(a)(1)(A)(i).", "verified"),
        // The transcription spaces "( l )" and indents the "(m)" after it.
        ("Fed. R. Civ. P. 4(l)(1).", "verified"),
        ("Fed. R. Civ. P. 4(m).", "verified"),
        ("Fed. R. Civ. P. 12(h)(2).", "verified"),
        ("Fed. R. Civ. P. 87(c)(2)(B)(ii).", "verified"),
        ("Fed. R. Civ. P. 87(d).", "unavailable"),
    ] {
        only_with_status(&app, &key, text, status).await;
    }
    // The Supreme Court's Rules number paragraphs after the rule: "Rule
    // 14.1(a)" is paragraph 1(a) of Rule 14, not a rule 14.1.
    for (text, status) in [
        ("Sup. Ct. R. 14.1(a).", "verified"),
        ("Sup. Ct. R. 14.1(z).", "unavailable"),
        // A listed rule's subdivisions are checked as the first's are.
        ("Fed. R. Civ. P. 12(b)(6), 12(b)(9).", "unavailable"),
        ("Fed. R. Civ. P. 12(b)(6) and 56(h)(3).", "unavailable"),
        ("Fed. R. Civ. P. 12(b)(6), 56(a), and 26(b)(1).", "verified"),
    ] {
        only_with_status(&app, &key, text, status).await;
    }
    // A list joined by "and" is a list; a part number that goes on past
    // what was read is not checked as the part read.
    for text in [
        "42 U.S.C. §§ 1981 and 99999 (2018).",
        "29 C.F.R. pt. 1630.999.",
    ] {
        only_with_status(&app, &key, text, "unavailable").await;
    }
    // The Code and the CFR are held as section indexes: a subsection
    // verifies with its section, and the reason says it was not checked.
    let code = only(&app, &key, "42 U.S.C. § 2000e-2(zz)(9).").await;
    assert_eq!(code["status"], "verified", "{code}");
    assert_reason(&code, "subsection (zz)(9) is not checked");
}

/// The hyphens word processors and PDFs write in section numbers are
/// hyphens: a number is never cut at one into another, shorter section
/// ("§ 2000e\u{2010}2" was verified as § 2000e, and "§ 78j\u{2011}99" as §
/// 78j). A soft hyphen in a section number is read as a hyphen too.
#[tokio::test]
async fn a_section_number_is_read_whole_whatever_its_hyphen() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for hyphen in [
        '\u{2010}', '\u{2011}', '\u{2012}', '\u{2212}', '\u{fe63}', '\u{ff0d}',
    ] {
        let real = only(&app, &key, &format!("42 U.S.C. § 2000e{hyphen}2(a).")).await;
        assert_eq!(real["status"], "verified", "{real}");
        assert_eq!(real["bluebookCitation"], "42 U.S.C. § 2000e-2(a)", "{real}");
        let fake = only(&app, &key, &format!("15 U.S.C. § 78j{hyphen}99.")).await;
        assert_ne!(fake["status"], "verified", "{fake}");
    }
    let soft = only(&app, &key, "42 U.S.C. § 2000e\u{ad}2.").await;
    assert_eq!(soft["bluebookCitation"], "42 U.S.C. § 2000e-2", "{soft}");
    let soft = only(&app, &key, "42 U.S.C. § 2000e\u{ad}99.").await;
    assert_ne!(soft["status"], "verified", "{soft}");
}

/// A party named with small words ("Citizens for a Better Environment")
/// is read whole: read from "a" on, any first party passed.
#[tokio::test]
async fn a_party_with_small_words_in_its_name_is_read_whole() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let real = only(
        &app,
        &key,
        "Steel Co. v. Citizens for a Better Env't, 523 U.S. 83, 94 (1998).",
    )
    .await;
    assert_eq!(real["status"], "verified", "{real}");
    let wrong = only(
        &app,
        &key,
        "Smith v. Citizens for a Better Env't, 523 U.S. 83, 94 (1998).",
    )
    .await;
    assert_ne!(wrong["status"], "verified", "{wrong}");
}

/// A law the library holds no data of is `unavailable`, with the content
/// type of its kind: a court rule is a rule, a regulation a regulation.
#[tokio::test]
async fn a_law_not_held_is_unavailable_and_typed_by_its_kind() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for (text, content_type) in [
        ("Fed. R. Bankr. P. 7001.", "rule"),
        ("85 Fed. Reg. 1234.", "regulation"),
        ("Cal. Civ. Proc. Code § 425.16.", "statute"),
    ] {
        let answer = only_with_status(&app, &key, text, "unavailable").await;
        assert_eq!(answer["contentType"], content_type, "{text}: {answer}");
    }
}

/// A decision cited after "rev'd" under the caption below, whose parties the
/// appeal turned round, is that decision; another name there is not.
#[tokio::test]
async fn a_reversal_cited_under_the_caption_below_is_the_decision() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "Ramirez v. TransUnion LLC, 951 F.3d 1008 (9th Cir. 2020), rev'd, 141 S. Ct. 2190 (2021). \
         Smith v. Jones, 951 F.3d 1009 (9th Cir. 2020), rev'd, 141 S. Ct. 2190 (2021).",
    )
    .await;
    let reversal = |n: usize| {
        answers
            .iter()
            .filter(|(c, ..)| c == "141 S. Ct. 2190")
            .nth(n)
    };
    let (_, status, reason) = reversal(0).expect("the reversal is checked");
    assert_eq!(status, "verified", "{answers:?}");
    assert!(
        reason.contains("parties the other way round"),
        "{answers:?}"
    );
    assert_eq!(
        reversal(1).expect("the second is its own claim").1,
        "unverified",
        "{answers:?}"
    );
}

/// A wrong nominative volume is a claim of its own even when the right one
/// is cited before it: grouped with it, its error was never reported.
#[tokio::test]
async fn a_wrong_nominative_volume_after_the_right_one_is_reported() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "Marbury v. Madison, 5 U.S. (1 Cranch) 137 (1803). \
         Marbury v. Madison, 5 U.S. (2 Cranch) 137, 177 (1803).",
    )
    .await;
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert_eq!(answers[1].1, "unverified", "{answers:?}");
    assert!(answers[1].2.contains("not 2 Cranch"), "{answers:?}");
}

/// A Supreme Court case cited as a lower court's decision is not the case
/// cited: the court is part of the claim, like the year.
#[tokio::test]
async fn a_supreme_court_case_cited_to_another_court_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let wrong = only(
        &app,
        &key,
        "Miranda v. Arizona, 384 U.S. 436, 444 (9th Cir. 1966).",
    )
    .await;
    assert_eq!(wrong["status"], "unverified", "{wrong}");
    assert_reason(&wrong, "not the court named (9th Cir.)");
    let right = only(&app, &key, "Miranda v. Arizona, 384 U.S. 436, 444 (1966).").await;
    assert_eq!(right["status"], "verified", "{right}");
}

/// A lower court's case cited to a court of another state, or to a
/// federal court, is not the case cited; a court of the same state at
/// another level is not told apart (sources and citations differ there).
#[tokio::test]
async fn a_case_cited_to_a_court_of_another_place_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for wrong in [
        "State v. Ramirez, 254 P.3d 649, 651 (Ariz. 2011).",
        "State v. Ramirez, 254 P.3d 649, 651 (10th Cir. 2011).",
        // Forms courts-db does not spell so, read by their state.
        "State v. Ramirez, 254 P.3d 649, 651 (D. Md. 2011).",
        "State v. Ramirez, 254 P.3d 649, 651 (Cal. App. 4th Dist. 2011).",
    ] {
        let answer = only(&app, &key, wrong).await;
        assert_eq!(answer["status"], "unverified", "{answer}");
        assert_reason(&answer, "New Mexico Supreme Court, not the court named");
    }
    let right = only(
        &app,
        &key,
        "State v. Ramirez, 254 P.3d 649, 651 (N.M. 2011).",
    )
    .await;
    assert_eq!(right["status"], "verified", "{right}");
    // Another court of the same state: verified, saying which court.
    let level = only(
        &app,
        &key,
        "State v. Ramirez, 254 P.3d 649, 651 (N.M. Ct. App. 2011).",
    )
    .await;
    assert_eq!(level["status"], "verified", "{level}");
    assert_reason(&level, "gives the court as the New Mexico Supreme Court");
    // A territory's court is placed too.
    let territory = only(
        &app,
        &key,
        "State v. Ramirez, 254 P.3d 649, 651 (P.R. 2011).",
    )
    .await;
    assert_eq!(territory["status"], "unverified", "{territory}");
    // "Ct. Cl." may be a state's Court of Claims, cited without its state.
    let claims = only(
        &app,
        &key,
        "Leibovitz v. State of New York, 2023 NY Slip Op 51366(U) (Ct. Cl. 2023).",
    )
    .await;
    assert_eq!(claims["status"], "verified", "{claims}");
    // The first volumes of the U.S. Reports also print Pennsylvania's cases.
    let dallas = only(&app, &key, "See 1 Dall. 41 (Pa. 1779).").await;
    assert_ne!(dallas["status"], "unverified", "{dallas}");
    // The same citation again, to another place's court, is checked again.
    let again = checked(
        &app,
        &key,
        "See State v. Ramirez, 254 P.3d 649, 651 (N.M. 2011). Later: State v. Ramirez, \
         254 P.3d 649, 651 (10th Cir. 2011).",
    )
    .await;
    assert_eq!(
        statuses(&again),
        [("254 P.3d 649", "verified"), ("254 P.3d 649", "unverified")]
    );
}

/// SCDB's few S. Ct. cites of another document than the decision (Bruen's
/// grant of certiorari, "141 S. Ct. 2111") are not the decision's: they
/// verified the wrong citation and put the case really there off its page.
#[tokio::test]
async fn an_sct_cite_outside_its_terms_volume_is_not_taken() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let real = only(
        &app,
        &key,
        "California v. Texas, 141 S. Ct. 2104, 2113 (2021).",
    )
    .await;
    assert_eq!(real["status"], "verified", "{real}");
    let wrong = only(
        &app,
        &key,
        "N.Y. State Rifle & Pistol Ass'n v. Bruen, 141 S. Ct. 2111, 2126 (2022).",
    )
    .await;
    assert_ne!(wrong["status"], "verified", "{wrong}");
}

/// SCDB's few L. Ed. cites far from their neighbours' volumes (Henderson v.
/// United States given Judulang v. Holder's "181 L. Ed. 2d 449") are not
/// the decision's.
#[tokio::test]
async fn an_led_cite_far_from_its_neighbours_is_not_taken() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let wrong = only(
        &app,
        &key,
        "Henderson v. United States, 181 L. Ed. 2d 449 (2015).",
    )
    .await;
    assert_eq!(wrong["status"], "unverified", "{wrong}");
    let real = only(&app, &key, "Judulang v. Holder, 181 L. Ed. 2d 449 (2011).").await;
    assert_eq!(real["status"], "verified", "{real}");
}

/// Two SCDB decisions sharing a page (Kloeckner v. Solis, given Bormes's L.
/// Ed. cite; short dispositions printed together) stay two cases: merged,
/// the one at the page answered for the other.
#[tokio::test]
async fn scdb_decisions_sharing_a_page_stay_apart() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for real in [
        "Kloeckner v. Solis, 568 U.S. 41, 44 (2012).",
        "Symons v. California, 372 U.S. 711 (1963).",
    ] {
        let answer = only(&app, &key, real).await;
        assert_eq!(answer["status"], "verified", "{answer}");
    }
    let wrong = only(&app, &key, "United States v. Bormes, 568 U.S. 41 (2012).").await;
    assert_eq!(wrong["status"], "unverified", "{wrong}");
}

/// The dates index's unnamed record of a decision is often the only sign of
/// where a case ends: a pin past it is not verified, but not called wrong
/// either, before SCDB's years and in them (the index has records inside
/// cases: "377 U.S. 563" is inside Reynolds v. Sims; but the order lists
/// after Milliken v. Bradley, the last opinion of 418 U.S., start at 911).
#[tokio::test]
async fn a_pin_past_an_unnamed_decision_of_another_day_is_unavailable() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let past = only(&app, &key, "Plessy v. Ferguson, 163 U.S. 537, 600 (1896).").await;
    assert_eq!(past["status"], "unavailable", "{past}");
    assert_reason(&past, "a decision of 1896-05-25, page 564");
    let inside = only(&app, &key, "Plessy v. Ferguson, 163 U.S. 537, 550 (1896).").await;
    assert_eq!(inside["status"], "verified", "{inside}");
    let reynolds = only(&app, &key, "Reynolds v. Sims, 377 U.S. 533, 568 (1964).").await;
    assert_eq!(reynolds["status"], "unavailable", "{reynolds}");
    assert_reason(
        &reynolds,
        "page 563, where the library knows a decision of 1964-06-22",
    );
    let before = only(&app, &key, "Reynolds v. Sims, 377 U.S. 533, 560 (1964).").await;
    assert_eq!(before["status"], "verified", "{before}");
    let orders = only(&app, &key, "Milliken v. Bradley, 418 U.S. 717, 912 (1974).").await;
    assert_eq!(orders["status"], "unavailable", "{orders}");
    assert_reason(&orders, "page 911");
    let opinion = only(&app, &key, "Milliken v. Bradley, 418 U.S. 717, 745 (1974).").await;
    assert_eq!(opinion["status"], "verified", "{opinion}");
    // Hinderlider, decided the same day as Erie, starts at 304 U.S. 92.
    let erie = only(
        &app,
        &key,
        "Erie R.R. Co. v. Tompkins, 304 U.S. 64, 95 (1938).",
    )
    .await;
    assert_eq!(erie["status"], "unavailable", "{erie}");
}

/// A case nothing bounds (the last the library knows of its volume: no
/// later decision of 597 U.S. has its U.S. cite in the data) runs on as far
/// as cases do, and no farther.
#[tokio::test]
async fn a_pin_far_past_a_case_whose_end_is_unknown_is_unavailable() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let dobbs = "Dobbs v. Jackson Women's Health Organization, 597 U.S. 215";
    let far = only(&app, &key, &format!("{dobbs}, 2000 (2022).")).await;
    assert_eq!(far["status"], "unavailable", "{far}");
    assert_reason(&far, "does not know where the case ends");
    let near = only(&app, &key, &format!("{dobbs}, 300 (2022).")).await;
    assert_eq!(near["status"], "verified", "{near}");
}

/// A U.S. Reports case whose end no source gives runs no farther than its
/// S. Ct. and L. Ed. pages allow: the pages after the last decision of a
/// volume's opinions are its orders, not that decision's.
#[tokio::test]
async fn a_pin_past_what_a_cases_parallel_citations_allow_is_unavailable() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let first_options = "First Options of Chicago, Inc. v. Kaplan, 514 U.S. 938";
    let far = only(&app, &key, &format!("{first_options}, 1075 (1995).")).await;
    assert_eq!(far["status"], "unavailable", "{far}");
    assert_reason(&far, "more than its S. Ct. and L. Ed. pages allow");
    let near = only(&app, &key, &format!("{first_options}, 944 (1995).")).await;
    assert_eq!(near["status"], "verified", "{near}");
}

/// A pin past the last page the case's text marks ("*655") is `unavailable`
/// (a dissent may be missing from the library's text), and so is one on the
/// page where the next case begins; inside, verified.
#[tokio::test]
async fn a_pin_past_the_pages_the_text_marks_is_unavailable() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for pin in ["700", "655-56"] {
        let text = format!("State v. Ramirez, 254 P.3d 649, {pin} (N.M. 2011).");
        let past = only_with_status(&app, &key, &text, "unavailable").await;
        assert_reason(&past, "marks its pages from 649 to 655");
    }
    for pin in ["650", "655"] {
        let text = format!("State v. Ramirez, 254 P.3d 649, {pin} (N.M. 2011).");
        only_with_status(&app, &key, &text, "verified").await;
    }
    // N.W.3d runs its cases on: State v. Garza may end on page 23, where
    // Willenberg v. Frye begins; page 24 is past that start.
    for (pin, status) in [
        ("22-23", "unavailable"),
        ("23", "unavailable"),
        ("22", "verified"),
        ("24", "unverified"),
    ] {
        let text = format!("State v. Garza, 3 N.W.3d 18, {pin} (Minn. 2024).");
        only_with_status(&app, &key, &text, status).await;
    }
}

/// A page whose every decision is dated more than a year from the year
/// given is no decision of that year, name known or not; an SCDB date its
/// term contradicts still dates the decision.
#[tokio::test]
async fn a_year_no_decision_at_the_page_has_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for wrong in [
        "McCulloch v. Maryland, 17 U.S. 316 (1919).",
        "Richardson v. Morris, 409 U.S. 464 (1985).",
    ] {
        let answer = only(&app, &key, wrong).await;
        assert_eq!(answer["status"], "unverified", "{answer}");
    }
    let decree = only(&app, &key, "Arizona v. California, 84 S. Ct. 755 (1964).").await;
    assert_eq!(decree["status"], "verified", "{decree}");
}

/// Cases decided together are reported under one citation: a companion's
/// name at that page is right, not a fabrication.
#[tokio::test]
async fn a_case_decided_with_another_is_found_at_its_citation() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for text in [
        "Vignera v. New York, 384 U.S. 436 (1966).",
        "Briggs v. Elliott, 347 U.S. 483 (1954).",
    ] {
        let answer = only_with_status(&app, &key, text, "verified").await;
        assert_reason(&answer, "was decided with");
    }
    let fabricated = only(&app, &key, "Smith v. Jones, 384 U.S. 436 (1966).").await;
    assert_eq!(fabricated["status"], "unverified", "{fabricated}");
}

/// Citations the extractor used to pass over unread are checked: an "Otto"
/// volume of the U.S. Reports, a page against the reporter, a reporter in
/// lower case, a CFR part (which the library answers from the sections it
/// holds), and reporter series the reporter data does not list.
#[tokio::test]
async fn citations_in_less_usual_forms_are_checked_not_skipped() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "Smith v. Jones, 94 U.S. (4 Otto) 999 (1877). Smith v. Jones, 347 U.S.483 (1954). \
         Miller v. Jones, 347 u.s. 483 (1954). See 29 C.F.R. pt. 1630; 29 C.F.R. Part 99999; 60 C.F.R. pt. 12. \
         Roe v. Wade, 410 U.S. 113, 16 L. Ed. 4th 694 (1973). Doe v. Roe, 5 F.5th 10 (2026).",
    )
    .await;
    let statuses = statuses(&answers);
    assert_eq!(
        statuses,
        [
            ("94 U.S. (4 Otto) 999", "unavailable"),
            ("347 U.S.483", "unverified"),
            ("347 u.s. 483", "unverified"),
            ("29 C.F.R. pt. 1630", "verified"),
            ("29 C.F.R. Part 99999", "unavailable"),
            ("60 C.F.R. pt. 12", "unverified"),
            ("410 U.S. 113", "verified"),
            ("16 L. Ed. 4th 694", "unverified"),
            ("5 F.5th 10", "unavailable"),
        ],
        "{answers:?}"
    );
    assert!(answers[0].2.contains("94 U.S."), "{answers:?}");
    assert!(answers[3].2.contains("part 1630"), "{answers:?}");
    assert!(answers[5].2.contains("1 to 50"), "{answers:?}");
    assert!(
        answers[7].2.contains("no such reporter series"),
        "{answers:?}"
    );
    // An Otto volume that is not the U.S. volume's is wrong.
    for text in [
        "Brown v. Board of Education, 347 U.S. (4 Otto) 483 (1954).",
        "Munn v. Illinois, 94 U.S. (5 Otto) 113 (1877).",
        "Munn v. Illinois, 108 U.S. (18 Otto) 113 (1877).",
    ] {
        only_with_status(&app, &key, text, "unverified").await;
    }
    // The series after the last one listed, which still runs, may have
    // begun since the reporter data was compiled.
    assert!(answers[8].2.contains("begun since"), "{answers:?}");
}

/// A part of which the library holds one section says so, in the singular.
#[tokio::test]
async fn a_part_with_one_section_held_is_named_with_it() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answer = only(&app, &key, "See 1 C.F.R. pt. 1.").await;
    assert_eq!(answer["status"], "verified", "{answer}");
    let reason = answer["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("one section of part 1 (in force), § 1.1"),
        "{answer}"
    );
}

/// Spellings the extractor used to pass over, so that a brief citing them
/// looked clean: a series spelt out or in capitals, a page run into the
/// series, a reporter in mixed case, a code in lower case, the parts of a
/// CFR part list (each checked as if cited alone) and West's annotated
/// code.
#[tokio::test]
async fn series_case_and_part_list_spellings_are_checked_not_skipped() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "Brown v. Board of Education, 74 S.ct. 686 (1954). Smith v. Jones, 347 U.s. 483 (1954). \
         Doe v. Roe, 100 P.3rd 200 (Utah 2004). Roe v. Wade, 93 S.CT. 705 (1973). Foo v. Bar, \
         5 F.3d10 (2d Cir. 1993). See 42 u.s.c. § 1983; 99 c.f.r. § 1630.2. 29 C.F.R. Parts 1630 \
         and 1635. 29 C.F.R. pts. 1636, 99999.",
    )
    .await;
    let statuses = statuses(&answers);
    assert_eq!(
        statuses,
        [
            ("74 S.ct. 686", "verified"),
            ("347 U.s. 483", "unverified"),
            ("100 P.3rd 200", "unavailable"),
            ("93 S.CT. 705", "verified"),
            ("5 F.3d10", "unavailable"),
            ("42 u.s.c. § 1983", "verified"),
            ("99 c.f.r. § 1630.2", "unverified"),
            ("29 C.F.R. Parts 1630", "verified"),
            ("29 C.F.R. pt. 1635", "verified"),
            ("29 C.F.R. pts. 1636", "verified"),
            ("29 C.F.R. pt. 99999", "unavailable"),
        ],
        "{answers:?}"
    );
    assert!(answers[2].2.contains("100 P.3d"), "{answers:?}");
    assert!(answers[8].2.contains("part 1635"), "{answers:?}");
    assert!(answers[10].2.contains("part 99999"), "{answers:?}");
    for (text, form) in [
        (
            "42 U.S.C.A. § 2000e-2 (West 2012).",
            "42 U.S.C.A. § 2000e-2 (West 2012)",
        ),
        (
            "42 U.S.C. § 1983 (2018 & Supp. V 2023).",
            "42 U.S.C. § 1983 (2018 & Supp. V 2023)",
        ),
    ] {
        let answer = only_with_status(&app, &key, text, "verified").await;
        assert_eq!(answer["bluebookCitation"], form, "{answer}");
    }
}

/// A code's year is its edition's: one before the code's first edition, or
/// still to come, names an edition that never was.
#[tokio::test]
async fn a_code_cited_in_an_edition_that_never_was_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "See 42 U.S.C. § 1983 (1920); 42 U.S.C. § 1981 (2018); 29 C.F.R. § 1630.2 (1930); \
         42 U.S.C. § 1985 (2090); 42 U.S.C. § 1986 (2018 & Supp. V 2090).",
    )
    .await;
    assert_eq!(
        statuses(&answers),
        [
            ("42 U.S.C. § 1983", "unverified"),
            ("42 U.S.C. § 1981", "verified"),
            ("29 C.F.R. § 1630.2", "unverified"),
            ("42 U.S.C. § 1985", "unverified"),
            ("42 U.S.C. § 1986", "unverified"),
        ],
        "{answers:?}"
    );
    assert!(
        answers[4].2.contains("2090 is still to come"),
        "{answers:?}"
    );
    assert!(
        answers[0].2.contains("first edition is of 1926"),
        "{answers:?}"
    );
    assert!(
        answers[2].2.contains("first edition is of 1938"),
        "{answers:?}"
    );
    assert!(answers[3].2.contains("still to come"), "{answers:?}");
}

/// No decision is dated in a year still to come, whether or not the library
/// holds the volume; a journal article may be ("forthcoming"). The same case
/// cited under another year is another claim (one of them is wrong); under
/// the same year, or none, it is not.
#[tokio::test]
async fn a_case_dated_in_a_year_to_come_is_unverified() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "See 5 F.4th 10 (2090); 6 F.4th 10 (2021); Brown v. Board of Education, 347 U.S. 483 \
         (2090); Brown v. Board of Education, 347 U.S. 483 (1954); \
         Note, 101 Harv. L. Rev. 1 (forthcoming 2090). See Brown v. Board of Education, \
         347 U.S. 483 (1954), and Brown v. Board of Education, 347 U.S. 483.",
    )
    .await;
    assert_eq!(
        statuses(&answers),
        [
            ("5 F.4th 10", "unverified"),
            ("6 F.4th 10", "unavailable"),
            ("347 U.S. 483", "unverified"),
            ("347 U.S. 483", "verified"),
            ("101 Harv. L. Rev. 1", "unavailable"),
        ],
        "{answers:?}"
    );
    for answer in [&answers[0], &answers[2]] {
        assert!(answer.2.contains("2090 is still to come"), "{answers:?}");
    }
    // A year past 2100 or before 1600, alone in its parenthetical, is a
    // mistyped year, not a note passed over ("(2106)" for 2016 verified).
    for (text, reason) in [
        (
            "Brown v. Board of Education, 347 U.S. 483 (2106).",
            "2106 is still to come",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (1054).",
            "not in 1054",
        ),
        // A number of another length there is no year either.
        (
            "Brown v. Board of Education, 347 U.S. 483 (954).",
            "not in 954",
        ),
        ("Brown v. Board of Education, 347 U.S. 483 (0).", "not in 0"),
        (
            "Roe v. Wade, 410 U.S. 113 (19730).",
            "more than four digits",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (99999999999999999999).",
            "more than four digits",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (9th Cir. 20000).",
            "more than four digits",
        ),
        (
            "Brown v. Board of Education, 347 U.S. 483 (Jan. 5, 20000).",
            "more than four digits",
        ),
        ("See 42 U.S.C. § 1983 (2106).", "2106 is still to come"),
        ("See 42 U.S.C. § 1983 (20000).", "more than four digits"),
    ] {
        let answer = only_with_status(&app, &key, text, "unverified").await;
        assert!(
            answer["reason"].as_str().unwrap().contains(reason),
            "{answer}"
        );
    }
}

/// A small number apart after a section is a subsection written with a
/// space, not a year.
#[tokio::test]
async fn a_subsection_written_apart_is_no_year() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    only_with_status(&app, &key, "See 29 U.S.C. § 158 (3).", "verified").await;
}

/// Every rule or section a citation names is checked, not only the first:
/// rules listed or ranged without a sign, sections in words or with a sign
/// each, ranges spaced or in words. A number that goes on to a word is no
/// item ("803(6), 1000 pages").
#[tokio::test]
async fn every_member_of_a_list_or_range_is_checked() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    for (text, status, reason) in [
        ("Fed. R. Evid. 401–1200.", "unverified", "Rule 1200"),
        ("Fed. R. Civ. P. 12, 56, and 92.", "unverified", "Rule 92"),
        // An item with subdivisions does not end the list.
        (
            "Fed. R. Civ. P. 12, 56(a), and 92.",
            "unverified",
            "Rule 92",
        ),
        (
            "42 U.S.C. §§ 1983, 1985(3), 99999.",
            "unavailable",
            "§ 99999",
        ),
        ("Fed. R. Civ. P. 26-99.", "unverified", "Rule 99"),
        ("Fed. R. Civ. P. 12(b)(6) and 99.", "unverified", "Rule 99"),
        (
            "42 U.S.C. sections 1981 and 99999.",
            "unavailable",
            "§ 99999",
        ),
        ("28 U.S.C. §§ 1331 - 99999.", "unavailable", "§ 99999"),
        ("28 U.S.C. §§ 1331 through 99999.", "unavailable", "§ 99999"),
        (
            "42 U.S.C. § 1983, § 1985, and § 99999.",
            "unavailable",
            "§ 99999",
        ),
        ("Fed. R. Evid. 401 to 403.", "verified", "in force"),
        // A range's end written short is read in full ("§ 1983", not 83).
        ("42 U.S.C. §§ 1981–83.", "verified", "in force"),
        // A dash to a lower number numbers a section (1582-1), no range.
        ("28 U.S.C. § 1582–1.", "unavailable", "live sections only"),
        // The Code prints a dash inside a section number as an en dash,
        // which also reads as a range written short: under one section sign
        // it is the section the library holds by that whole number; under
        // "§§", or when no section has that number, a range.
        (
            "42 U.S.C. § 1962–3.",
            "verified",
            "in force: Water resources principles and guidelines",
        ),
        (
            "16 U.S.C. § 460–1.",
            "verified",
            "in force: Inclusion of Ackia Battleground",
        ),
        ("42 U.S.C. §§ 1962–3.", "unavailable", "§ 1963: "),
        ("42 U.S.C. § 1981–83.", "verified", "in force"),
        // Regulations numbered within a part, ranged as eCFR writes them.
        ("26 C.F.R. §§ 1.61-1–1.61-3.", "verified", "in force"),
        ("26 C.F.R. §§ 1.61-1-1.61-3.", "verified", "in force"),
        ("26 C.F.R. §§ 1.61-1–1.61-99.", "unavailable", "§ 1.61-99"),
        (
            "Fed. R. Civ. P. 12(b)(6) and 56(c).",
            "verified",
            "in force",
        ),
        ("Fed. R. Evid. 803(6), 1000 pages.", "verified", "in force"),
        (
            "42 U.S.C. § 1983, § 1985, and § 1986.",
            "verified",
            "in force",
        ),
    ] {
        let answer = only_with_status(&app, &key, text, status).await;
        assert_reason(&answer, reason);
    }
}

/// A "§§" or parts list ends where the next citation begins: the title of
/// "50 U.S.C." is no section of the list before it, nor "42" a part.
#[tokio::test]
async fn a_list_ends_at_the_next_citation() {
    let app = spawn_app().await;
    let (_, key) = app.create_key("10").await;
    let answers = checked(
        &app,
        &key,
        "See 35 U.S.C. §§ 101, 102, and 50 U.S.C. § 1801. \
         See also 29 C.F.R. pts. 1630 and 1635, and 42 U.S.C. § 12101.",
    )
    .await;
    let cited: Vec<&str> = statuses(&answers).iter().map(|(c, _)| *c).collect();
    assert_eq!(
        cited,
        [
            "35 U.S.C. §§ 101",
            "50 U.S.C. § 1801",
            "29 C.F.R. pts. 1630",
            "29 C.F.R. pt. 1635",
            "42 U.S.C. § 12101"
        ],
        "{answers:?}"
    );
    assert_eq!(
        answers[0].1, "verified",
        "35 U.S.C. § 50 cannot exist: {answers:?}"
    );
}
