use lexstack::citations::CitationKind;

use crate::{extract, find};

#[test]
fn full_citation_with_every_field() {
    let text = "See Wilson v. Mar. Overseas Corp., 150 F.3d 1, 6-7 (1st Cir. 1998) (holding that the \
                rule applies (in part)), cert. denied, 525 U.S. 1041 (1998).";
    let citations = extract(text);
    let c = find(&citations, text, "150 F.3d 1");
    assert_eq!(c.kind, CitationKind::FullCase);
    assert_eq!(c.volume.as_deref(), Some("150"));
    assert_eq!(c.reporter, Some("F.3d"));
    assert_eq!(c.page.as_deref(), Some("1"));
    assert_eq!(c.pin_cite.as_deref(), Some("6-7"));
    assert_eq!(c.year, Some(1998));
    assert_eq!(c.court, Some("ca1"));
    assert_eq!(c.plaintiff.as_deref(), Some("Wilson"));
    assert_eq!(c.defendant.as_deref(), Some("Mar. Overseas Corp."));
    assert_eq!(
        c.parenthetical.as_deref(),
        Some("holding that the rule applies (in part)")
    );
    assert_eq!(c.subsequent_history.len(), 1);
    assert_eq!(c.subsequent_history[0].phrase, "cert. denied");
    let later = c.subsequent_history[0].citation.unwrap();
    assert_eq!(citations[later].text(text), "525 U.S. 1041");
    assert_eq!(citations[later].court, Some("scotus"));
    assert_eq!(
        &text[c.full_span.clone()],
        &text[4..text.find(", cert.").unwrap()]
    );
}

#[test]
fn spans_are_bytes_and_code_points_are_available() {
    let text = "“Schön” — Müller v. Bär, 1 F.3d 2 (2d Cir. 1993).";
    let citations = extract(text);
    let c = find(&citations, text, "1 F.3d 2");
    let points = lexstack::citations::CodePoints::new(text);
    assert_eq!(
        points.offset(c.span.start),
        text[..c.span.start].chars().count()
    );
    assert_eq!(c.plaintiff.as_deref(), Some("Müller"));
    assert_eq!(c.court, Some("ca2"));
}

#[test]
fn zero_width_characters_inside_names_and_reporters_are_read_through() {
    let text = "in Johnson v. \u{200d}United\nStates, 559 U.S. 133 (2010), and Stokeling v. United \
                States, 139 S.\u{200d} Ct. 544 (2019), under 18 \u{200d}U.S.C. \u{a7} \u{200d}16(a)";
    let citations = extract(text);
    let johnson = find(&citations, text, "559 U.S. 133");
    assert_eq!(johnson.plaintiff.as_deref(), Some("Johnson"));
    assert_eq!(johnson.defendant.as_deref(), Some("United States"));
    let stokeling = find(&citations, text, "139 S.\u{200d} Ct. 544");
    assert_eq!(stokeling.reporter, Some("S. Ct."));
    assert_eq!(stokeling.page.as_deref(), Some("544"));
    assert_eq!(stokeling.plaintiff.as_deref(), Some("Stokeling"));
    let law = citations
        .iter()
        .find(|c| c.kind == CitationKind::Law)
        .expect("the U.S.C. citation");
    assert_eq!(law.reporter, Some("U.S.C."));
    assert_eq!(law.pin_cite.as_deref(), Some("(a)"));
    assert!(law.text(text).starts_with("18 \u{200d}U.S.C."));
}

/// Marks of bidirectional text are read through like zero-width
/// characters; a stray control character (NUL, \x01 from a PDF) stands
/// between words as a space, and is part of no name.
#[test]
fn bidi_marks_and_stray_control_characters_are_not_part_of_names() {
    let text = "Roe v.\u{1}Wade, 460 U.S. 730 (1983). See \u{202b}Texas v. Brown\u{202c}, 461 U.S. \
                730 (1983). Ohio v.\u{7f}Smith\u{0}, 462 U.S. 730\u{0} (1983).";
    let citations = extract(text);
    for (cited, plaintiff, defendant) in [
        ("460 U.S. 730", "Roe", "Wade"),
        ("461 U.S. 730", "Texas", "Brown"),
        ("462 U.S. 730", "Ohio", "Smith"),
    ] {
        let citation = find(&citations, text, cited);
        assert_eq!(citation.plaintiff.as_deref(), Some(plaintiff), "{cited}");
        assert_eq!(citation.defendant.as_deref(), Some(defendant), "{cited}");
        assert_eq!(citation.year, Some(1983), "{cited}");
    }
}

#[test]
fn parallel_citations_share_name_year_and_parenthetical() {
    let text = "Brown v. Board of Education, 347 U.S. 483, 495, 74 S. Ct. 686, 98 L. Ed. 873 (1954) \
                (overruling Plessy).";
    let citations = extract(text);
    assert_eq!(citations.len(), 3);
    for c in &citations {
        assert_eq!(c.plaintiff.as_deref(), Some("Brown"));
        assert_eq!(c.defendant.as_deref(), Some("Board of Education"));
        assert_eq!(c.year, Some(1954));
        assert_eq!(c.court, Some("scotus"));
        assert_eq!(c.parenthetical.as_deref(), Some("overruling Plessy"));
        assert_eq!(c.parallel.len(), 2);
    }
    assert_eq!(citations[0].pin_cite.as_deref(), Some("495"));
    assert_eq!(citations[2].reporter, Some("L. Ed."));
}

/// A year written after another parenthetical ("(per curiam) (1960)") is
/// still the citation's year, and a court named alone ("(9th Cir.)") its
/// court, so verify checks them.
#[test]
fn a_year_after_another_parenthetical_is_read() {
    let text = "Brown v. Board of Education, 347 U.S. 483 (per curiam) (1960); Terry v. Ohio, \
                392 U.S. 1 (holding that a frisk is a search) (6th Cir. 1968).";
    let citations = extract(text);
    let brown = find(&citations, text, "347 U.S. 483");
    assert_eq!(brown.year, Some(1960));
    assert_eq!(brown.parenthetical.as_deref(), Some("per curiam"));
    let terry = find(&citations, text, "392 U.S. 1");
    assert_eq!((terry.year, terry.court), (Some(1968), Some("ca6")));
    assert_eq!(
        terry.parenthetical.as_deref(),
        Some("holding that a frisk is a search")
    );
    // A court named with no year is the court cited.
    let text = "Miranda v. Arizona, 384 U.S. 436 (9th Cir.); Terry v. Ohio, 392 U.S. 1 (en banc).";
    let citations = extract(text);
    let miranda = find(&citations, text, "384 U.S. 436");
    assert_eq!((miranda.year, miranda.court), (None, Some("ca9")));
    assert_eq!(miranda.parenthetical, None);
    let terry = find(&citations, text, "392 U.S. 1");
    assert_eq!(terry.parenthetical.as_deref(), Some("en banc"));
    // Read as a year is, after another parenthetical, and kept when the
    // year follows alone.
    let text = "Mapp v. Ohio, 367 U.S. 643 (per curiam) (9th Cir.); Gideon v. Wainwright, \
                372 U.S. 335 (5th Cir.) (1963).";
    let citations = extract(text);
    assert_eq!(find(&citations, text, "367 U.S. 643").court, Some("ca9"));
    let gideon = find(&citations, text, "372 U.S. 335");
    assert_eq!((gideon.year, gideon.court), (Some(1963), Some("ca5")));
}

#[test]
fn string_cites_keep_their_own_names_and_years() {
    // eyecite#321: parties and years attached to the neighbouring citation.
    let text = "See Foo v. Bar, 1 F.3d 10 (2d Cir. 1993); 2 F.3d 20 (3d Cir. 1994); Baz v. Qux, \
                3 F.3d 30, 31 (4th Cir. 1995).";
    let citations = extract(text);
    let second = find(&citations, text, "2 F.3d 20");
    assert_eq!(second.plaintiff, None);
    assert_eq!(second.defendant, None);
    assert_eq!(second.year, Some(1994));
    assert_eq!(second.court, Some("ca3"));
    let third = find(&citations, text, "3 F.3d 30");
    assert_eq!(third.plaintiff.as_deref(), Some("Baz"));
    assert_eq!(third.year, Some(1995));
    assert_eq!(find(&citations, text, "1 F.3d 10").year, Some(1993));
}

#[test]
fn names_stop_at_signals_sentences_and_earlier_citations() {
    let text = "The court agreed. Houston Cmty. Coll. Sys. v. Wilson, 595 U.S. 468 (2022). \
                But see, e.g., Cf. Akins v. State, 104 So. 3d 1173 (Fla. 1st DCA 2012).";
    let citations = extract(text);
    // eyecite#193: truncated plaintiffs.
    let c = find(&citations, text, "595 U.S. 468");
    assert_eq!(c.plaintiff.as_deref(), Some("Houston Cmty. Coll. Sys."));
    let c = find(&citations, text, "104 So. 3d 1173");
    assert_eq!(c.plaintiff.as_deref(), Some("Akins"));
    assert_eq!(c.reporter, Some("So. 3d"));
}

#[test]
fn party_names_are_not_reporters() {
    // eyecite#261: "Thompson", "Holmes" and "Chase" are also nominative
    // reporters.
    let text = "Shapiro v. Thompson, 394 U.S. 618 (1969); Connecticut v. Holmes, 221 A.3d 407 \
                (Conn. 2019); Ellenburg v. Chase, 2004 MT 66.";
    let citations = extract(text);
    assert_eq!(citations.len(), 3);
    assert_eq!(citations[0].defendant.as_deref(), Some("Thompson"));
    assert_eq!(citations[1].defendant.as_deref(), Some("Holmes"));
    assert_eq!(citations[2].reporter, Some("MT"));
    assert_eq!(citations[2].defendant.as_deref(), Some("Chase"));
}

#[test]
fn reporter_variants_are_canonical() {
    let text = "1 F. 3d 2; 3 F3d 4; 5 Fed. Appx. 6; 7 N. Y. S. 2d 8; 9 Wn.2d 10; 11 So.2d 12";
    let reporters: Vec<_> = extract(text).iter().map(|c| c.reporter).collect();
    assert_eq!(
        reporters,
        vec![
            Some("F.3d"),
            Some("F.3d"),
            Some("F. App'x"),
            Some("N.Y.S.2d"),
            Some("Wash. 2d"),
            Some("So. 2d")
        ]
    );
}

#[test]
fn any_apostrophe_mark_reads_as_one() {
    // Hawaiʻi's own reports spell the name with the ʻokina.
    let text = "1 Hawai'i 2; 3 Hawai’i 4; 5 Hawai‘i 6; 7 Hawaiʻi 8; 9 Hawaiʼi 10; 11 F. App‘x 12";
    let reporters: Vec<_> = extract(text).iter().map(|c| c.reporter).collect();
    assert_eq!(
        reporters,
        [[Some("Haw."); 5].as_slice(), &[Some("F. App'x")]].concat()
    );
}

#[test]
fn otto_volumes_of_the_us_reports_are_read() {
    let text = "Munn v. Illinois, 94 U.S. (4 Otto) 113, 125 (1877).";
    let citations = extract(text);
    let c = find(&citations, text, "94 U.S. (4 Otto) 113");
    assert_eq!(
        (c.volume.as_deref(), c.reporter, c.page.as_deref()),
        (Some("94"), Some("U.S."), Some("113"))
    );
    assert_eq!(c.pin_cite.as_deref(), Some("125"));
    assert_eq!(c.year, Some(1877));
    assert_eq!(c.case_name.as_deref(), Some("Munn v. Illinois"));
    for text in ["94 U.S. (4 Otto.) 113", "94 U.S. (4 otto) 113"] {
        let c = find(&extract(text), text, text).clone();
        assert_eq!((c.reporter, c.page.as_deref()), (Some("U.S."), Some("113")));
    }
}

#[test]
fn pages_against_the_reporter_and_reporters_in_lower_case_are_read() {
    let text = "Brown v. Board of Education, 347 U.S.483 (1954); Brown v. Board of Education, \
                347 u.s. 483, 74 s. ct. 686 (1954); 98 l. ed. 873; 5 f.3d 10.";
    let addresses: Vec<_> = extract(text)
        .iter()
        .map(|c| {
            (
                c.volume.clone().unwrap(),
                c.reporter,
                c.page.clone().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("347", "U.S.", "483"),
        ("347", "U.S.", "483"),
        ("74", "S. Ct.", "686"),
        ("98", "L. Ed.", "873"),
        ("5", "F.3d", "10"),
    ];
    assert_eq!(addresses.len(), expected.len(), "{addresses:?}");
    for ((volume, reporter, page), (v, r, p)) in addresses.iter().zip(expected) {
        assert_eq!((volume.as_str(), *reporter, page.as_str()), (v, Some(r), p));
    }
    // A one-word abbreviation in lower case is a word ("so.", "cal."), and
    // the page must not run into letters ("5 Cal.2d" is not page 2).
    for text in [
        "he said 5 so. 10 times",
        "5 cal. 10",
        "5 Cal.2d",
        // A first series in lower case is a direction, a year, a room; a
        // number run on after the page is a price or a model.
        "Suite 1200 n.w. 17 avenue",
        "In 70 a.d. 3 legions marched",
        "we rented 3 b.r. 2 bath",
        "Exhibit 12 p.3 14",
        "scored 5 s ct 4",
        "price 400 u.s. 12.50",
        "There are 500 u.s. 10-k filings",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
}

#[test]
fn reporter_series_are_read_in_any_ordinal_form_and_even_when_they_do_not_exist() {
    let text = "Roe v. Wade, 410 U.S. 113, 16 L. Ed. 3d 694 (1973); 123 F.2nd 456; 5 F.5th 10.";
    let citations = extract(text);
    let missing = find(&citations, text, "16 L. Ed. 3d 694");
    assert_eq!(missing.kind, CitationKind::FullCase);
    assert_eq!(
        (missing.volume.as_deref(), missing.page.as_deref()),
        (Some("16"), Some("694"))
    );
    assert_eq!(missing.reporter, None);
    assert!(missing.reporter_candidates.is_empty());
    assert_eq!(missing.reporter_found.as_deref(), Some("L. Ed. 3d"));
    assert_eq!(missing.year, Some(1973), "the string's year is read");
    assert_eq!(missing.case_name.as_deref(), Some("Roe v. Wade"));
    let roe = find(&citations, text, "410 U.S. 113");
    assert_eq!(roe.year, Some(1973));
    assert_eq!(roe.parallel.len(), 1);
    assert_eq!(
        find(&citations, text, "123 F.2nd 456").reporter,
        Some("F.2d")
    );
    let fifth = find(&citations, text, "5 F.5th 10");
    assert_eq!((fifth.reporter, fifth.court), (None, None));
    assert_eq!(
        lexstack::citations::reporters::unlisted_series("L. Ed. 3d").map(|u| u.published),
        Some(vec!["L. Ed.", "L. Ed. 2d"])
    );
    for text in ["the 5 F. 2d Cir. rule", "lorem 111 S.W. 4th St. 12"] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
    // Word and PDF text put no-break spaces between the parts.
    let spaced = "Doe v. Roe, 123 F.\u{a0}2nd\u{a0}456 (1990); 16 L. Ed.\u{a0}3d\u{a0}694 (1999).";
    let citations = extract(spaced);
    assert_eq!(citations.len(), 2, "{citations:?}");
    assert_eq!(citations[0].reporter, Some("F.2d"));
    assert_eq!(citations[1].page.as_deref(), Some("694"));
}

/// (volume, reporter, page) of each citation of `text`.
fn addresses(text: &str) -> Vec<(String, Option<&'static str>, String)> {
    extract(text)
        .iter()
        .map(|c| {
            let number = |n: &Option<String>| n.clone().unwrap_or_default();
            (number(&c.volume), c.reporter, number(&c.page))
        })
        .collect()
}

fn assert_addresses(text: &str, expected: &[(&str, &str, &str)]) {
    let found = addresses(text);
    let expected: Vec<_> = expected
        .iter()
        .map(|&(v, r, p)| (v.to_string(), Some(r), p.to_string()))
        .collect();
    assert_eq!(found, expected, "{text}");
}

#[test]
fn series_spelt_out_or_in_capitals_are_read_for_any_reporter() {
    assert_addresses(
        "100 P.3rd 200; 101 P.2nd 201; 102 P. 2nd 202; 103 So.2nd 203; 104 N.W.2nd 204",
        &[
            ("100", "P.3d", "200"),
            ("101", "P.2d", "201"),
            ("102", "P.2d", "202"),
            ("103", "So. 2d", "203"),
            ("104", "N.W.2d", "204"),
        ],
    );
    assert_addresses(
        "103 F.3RD 203; 104 F.2ND 204; 105 P.3RD 205; 106 N.W.2ND 206; 107 F.4TH 207",
        &[
            ("103", "F.3d", "203"),
            ("104", "F.2d", "204"),
            ("105", "P.3d", "205"),
            ("106", "N.W.2d", "206"),
            ("107", "F.4th", "207"),
        ],
    );
    let text = "Doe v. Roe, 105 P.3RD 205, 207 (Utah 2005).";
    let c = find(&extract(text), text, "105 P.3RD 205").clone();
    assert_eq!(
        (c.pin_cite.as_deref(), c.year, c.plaintiff.as_deref()),
        (Some("207"), Some(2005), Some("Doe"))
    );
    // Capitals only in a reporter written in capitals; no page, no citation.
    for text in [
        "103 So.3RD 203",
        "the 5 P. 2ND Street rule",
        "Unit 5 P.3rd floor",
        "Exhibit 12 P. 3rd 14b",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
}

#[test]
fn a_page_run_into_a_reporters_series_is_read() {
    assert_addresses(
        "5 F.3d10; 6 F.4th12; 7 So.2d14; 8 f.3d16",
        &[
            ("5", "F.3d", "10"),
            ("6", "F.4th", "12"),
            ("7", "So. 2d", "14"),
            ("8", "F.3d", "16"),
        ],
    );
    let text = "Foo v. Bar, 5 F.3d10, 12 (2d Cir. 1993)";
    let c = find(&extract(text), text, "5 F.3d10").clone();
    assert_eq!((c.pin_cite.as_deref(), c.court), (Some("12"), Some("ca2")));
    // Only digits, ending the number: a model, a measure, a price or a
    // share is no page; nor is a reporter without a volume.
    for text in [
        "Model 5 F.3d10x",
        "a 5 F.3d10.5 mm bolt",
        "form 5 F.3d10-k",
        "rose 5 F.3d10% today",
        "grid F.3d10 here",
        "bay 5 F.3d1O",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
}

#[test]
fn reporters_in_mixed_case_are_read_when_clearly_citations() {
    assert_addresses(
        "5 F.3D 10; 74 S.ct. 686; 74 S.Ct 686; 98 L.ed. 873; 347 U.s. 483; 9 N.w.2D 11",
        &[
            ("5", "F.3d", "10"),
            ("74", "S. Ct.", "686"),
            ("74", "S. Ct.", "686"),
            ("98", "L. Ed.", "873"),
            ("347", "U.S.", "483"),
            ("9", "N.W.2d", "11"),
        ],
    );
    let text = "Brown v. Board of Education, 74 S.ct. 686 (1954)";
    let c = find(&extract(text), text, "74 S.ct. 686").clone();
    assert_eq!(
        (c.court, c.year, c.reporter_found.as_deref()),
        (Some("scotus"), Some(1954), Some("S.ct."))
    );
    // The prose that lower case reads, in other cases.
    for text in [
        "Suite 1200 N.w. 17 Avenue",
        "In 70 A.d. 3 legions marched",
        "we rented 3 B.r. 2 bath",
        "Exhibit 12 p.3 14",
        "Price 400 U.s. 12.50",
        "There are 500 U.s. 10-K filings",
        "rose 5 F.3D 4% today",
        "Scored 5 s Ct 4",
        "Route 5 S.ct. ahead",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
}

#[test]
fn reporters_with_periods_left_out_are_read_after_a_volume() {
    assert_addresses(
        "347 U.S 483; 347 U. S 483; 410 F2d 701; 410 F 2d 701; 5 So2d 10; 12 F Supp 2d 40; \
         200 Cal Rptr 3d 10",
        &[
            ("347", "U.S.", "483"),
            ("347", "U.S.", "483"),
            ("410", "F.2d", "701"),
            ("410", "F.2d", "701"),
            ("5", "So. 2d", "10"),
            ("12", "F. Supp. 2d", "40"),
            ("200", "Cal. Rptr. 3d", "10"),
        ],
    );
    let text = "Brown v. Board of Education, 347 U.S 483 (1954)";
    let c = find(&extract(text), text, "347 U.S 483").clone();
    assert_eq!(
        (c.court, c.year, c.plaintiff.as_deref()),
        (Some("scotus"), Some(1954), Some("Brown"))
    );
    for text in [
        "gave 3 us 40 minutes",
        "model 410 F2d 7.5 kg",
        "at 5 So2d 4% more",
        // Without periods a reporter is read only where a citation clearly
        // stands: after a name's comma, before a pin or a year.
        "we had 5 US 10 times",
        "I live at 347 US 483.",
        "Model 410 F2d 7",
        "set 12 P2d 100 psi",
        "Ship 500 US 20 units",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
    assert_addresses(
        "Brown v. Board, 347 US 483; 410 F2d 701, 703; 5 F3d 10 (1993)",
        &[
            ("347", "U.S.", "483"),
            ("410", "F.2d", "701"),
            ("5", "F.3d", "10"),
        ],
    );
}

#[test]
fn names_are_read_without_their_emphasis_marks() {
    for text in [
        "*Brown v. Board of Education*, 347 U.S. 483 (1954)",
        "__Brown v. Board of Education__, 347 U.S. 483 (1954)",
        "<i>Brown</i> v. <i>Board of Education</i>, 347 U.S. 483 (1954)",
        "<span class=\"case\">Brown v. Board of Education</span>, 347 U.S. 483 (1954)",
    ] {
        let c = find(&extract(text), text, "347 U.S. 483").clone();
        assert_eq!(
            (c.plaintiff.as_deref(), c.defendant.as_deref()),
            (Some("Brown"), Some("Board of Education")),
            "{text}"
        );
    }
    // A footnote mark is hidden with its tags, not run into the page.
    let text = "Brown v. Board, 347 U.S. 483<sup>1</sup>, 495<sup>12</sup> (1954)";
    let c = find(&extract(text), text, "347 U.S. 483").clone();
    assert_eq!(
        (c.page.as_deref(), c.pin_cite.as_deref()),
        (Some("483"), Some("495"))
    );
    // Long runs of marks, and footnote tags before accented text, are read
    // in linear time.
    for mark in ["*", "_"] {
        let text = format!("{} 5 F.3d 10", mark.repeat(1 << 20));
        assert_eq!(extract(&text).len(), 1);
    }
    let text = format!(
        "{} 5 F.3d 10",
        "x<sup>a\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}"
            .repeat(40_000)
    );
    assert_eq!(extract(&text).len(), 1);
    // A star page, a blank and a mark inside a word are text.
    let text = "Lee v. Kim, 2019 WL 4639462, at *3; snake_case 5 F.3d 10";
    let c = find(&extract(text), text, "2019 WL 4639462").clone();
    assert_eq!(c.pin_cite.as_deref(), Some("at *3"));
    assert_eq!(extract("Smith v. Jones, 5 F.3d ___ (2024)").len(), 1);
}

#[test]
fn edition_dates_choose_among_same_spellings() {
    // "Johnson" is both New York (1806–1823) and New Mexico reports.
    let text = "1 Johnson 1 (1890)";
    assert_eq!(extract(text)[0].reporter, Some("N.M. (J.)"));
    let undated = extract("1 Johnson 1");
    assert_eq!(undated[0].reporter, None);
    assert!(undated[0].reporter_candidates.len() > 1);
}

#[test]
fn neutral_and_vendor_citations() {
    let text = "Smith v. Jones, 2013-Ohio-55; Doe v. Roe, 2013 IL App (1st) 111279-U; \
                Lee v. Kim, 2019 WL 4639462, at *3 (S.D.N.Y. Sept. 25, 2019); Ali v. Bo, \
                2005 U.S. LEXIS 123.";
    let citations = extract(text);
    let ohio = find(&citations, text, "2013-Ohio-55");
    assert_eq!(
        (ohio.volume.as_deref(), ohio.page.as_deref()),
        (Some("2013"), Some("55"))
    );
    let il = find(&citations, text, "2013 IL App (1st) 111279-U");
    assert_eq!(il.page.as_deref(), Some("111279-U"));
    let wl = find(&citations, text, "2019 WL 4639462");
    assert_eq!(wl.pin_cite.as_deref(), Some("at *3"));
    assert_eq!(wl.court, Some("nysd"));
    assert_eq!(wl.year, Some(2019));
    let lexis = find(&citations, text, "2005 U.S. LEXIS 123");
    assert_eq!(lexis.reporter, Some("U.S. LEXIS"));
    assert_eq!(lexis.plaintiff.as_deref(), Some("Ali"));
}

#[test]
fn illinois_rule_23_orders_keep_their_whole_number() {
    let text = "Doe v. Roe, 2018 IL App (4th) 130875-U, ¶ 12; Lee v. Kim, 2020 IL App (1st) \
                160592-UB; Ali v. Bo, 2020 IL App (1st) 160592-UC; Fox v. Hen, 2016 IL App (3d) \
                150284WC-U; Ng v. Ma, 2020 IL App (1st) 160592.";
    let citations = extract(text);
    for (written, year, reporter, page) in [
        (
            "2018 IL App (4th) 130875-U",
            "2018",
            "IL App (4th)",
            "130875-U",
        ),
        (
            "2020 IL App (1st) 160592-UB",
            "2020",
            "IL App (1st)",
            "160592-UB",
        ),
        (
            "2020 IL App (1st) 160592-UC",
            "2020",
            "IL App (1st)",
            "160592-UC",
        ),
        (
            "2016 IL App (3d) 150284WC-U",
            "2016",
            "IL App (3d)",
            "150284WC-U",
        ),
        ("2020 IL App (1st) 160592", "2020", "IL App (1st)", "160592"),
    ] {
        let c = find(&citations, text, written);
        assert_eq!(c.kind, CitationKind::FullCase, "{written}");
        assert_eq!(
            (c.volume.as_deref(), c.reporter, c.page.as_deref()),
            (Some(year), Some(reporter), Some(page)),
            "{written}"
        );
    }
    // A modified order is not the published opinion of the same number.
    let modified = find(&citations, text, "2020 IL App (1st) 160592-UB");
    let published = find(&citations, text, "2020 IL App (1st) 160592");
    assert_ne!(modified.resolves_to, published.resolves_to);
}

/// An order's suffix as briefs mistype it is still the order's, never the
/// published decision's number; a number glued to more than a suffix is no
/// citation.
#[test]
fn order_suffixes_written_loosely_stay_orders() {
    for (text, page) in [
        ("Doe v. Roe, 2019 IL App (2d) 190775–U, ¶ 3.", "190775–U"),
        ("Doe v. Roe, 2019 IL App (2d) 190775 -U, ¶ 3.", "190775 -U"),
        ("Doe v. Roe, 2019 IL App (2d) 190775-u.", "190775-u"),
        ("Doe v. Roe, 2019 IL App (2d) 190775_UB.", "190775_UB"),
        ("Doe v. Roe, 2026 NY Slip Op 50326 (U).", "50326 (U)"),
        ("Doe v. Roe, 2026 NY Slip Op 50326(u).", "50326(u)"),
        ("Doe v. Roe, 2026 NY Slip Op 50326[U].", "50326[U]"),
        // Prose after a dash is not a suffix.
        ("Doe v. Roe, 2015 IL 116725—Under that rule", "116725"),
    ] {
        let citations = extract(text);
        assert_eq!(citations.len(), 1, "{text}");
        assert_eq!(citations[0].page.as_deref(), Some(page), "{text}");
    }
    for glued in [
        "Doe v. Roe, 2019 IL App (2d) 190775-Ufoo.",
        "Doe v. Roe, 2019 IL App (2d) 190775-U2.",
    ] {
        assert!(extract(glued).is_empty(), "{glued}");
    }
}

/// Names with numbers, an entity after a comma, and New York's given name
/// in parentheses are read whole; a year or a section before a name is not
/// part of it.
#[test]
fn names_with_numbers_entities_and_given_names() {
    for (text, plaintiff, defendant) in [
        (
            "See INK 954 LLC v. Mann, 2026 NY Slip Op 50326(U).",
            Some("INK 954 LLC"),
            "Mann",
        ),
        (
            "See Velez v. LSG 105 W. 28th, LLC, 2026 NY Slip Op 50326(U).",
            Some("Velez"),
            "LSG 105 W. 28th, LLC",
        ),
        (
            "See Acupuncture Now, P.C. v. MVAIC, 2026 NY Slip Op 50326(U).",
            Some("Acupuncture Now, P.C."),
            "MVAIC",
        ),
        (
            "See People v. Romero (Wilbert), 2026 NY Slip Op 50326(U).",
            Some("People"),
            "Romero (Wilbert)",
        ),
        (
            "In 2019, Smith v. Jones, 1 F.3d 1 (2d Cir. 1993).",
            Some("Smith"),
            "Jones",
        ),
        (
            "The rule of KRS 439.3106 and Doe v. Roe, 1 F.3d 1 (2d Cir. 1993).",
            Some("Doe"),
            "Roe",
        ),
        // A label's number before a name is not part of it.
        (
            "Under Rule 23, Wal-Mart Stores, Inc. v. Dukes, 564 U.S. 338 (2011).",
            Some("Wal-Mart Stores, Inc."),
            "Dukes",
        ),
        (
            "Section 301 Textile Workers Union v. Lincoln Mills, 353 U.S. 448 (1957).",
            Some("Textile Workers Union"),
            "Lincoln Mills",
        ),
        (
            "No. 12-345, Doe v. Roe, 1 F.3d 1 (2d Cir. 1993).",
            Some("Doe"),
            "Roe",
        ),
        (
            "Motel 6 Operating L.P. v. Smith, 1 F.3d 1 (2d Cir. 1993).",
            Some("Motel 6 Operating L.P."),
            "Smith",
        ),
        (
            "HEADNOTE 3 Celotex Corp. v. Catrett, 477 U.S. 317 (1986).",
            Some("Celotex Corp."),
            "Catrett",
        ),
        (
            "On March 3 Terry v. Ohio, 392 U.S. 1 (1968).",
            Some("Terry"),
            "Ohio",
        ),
        (
            "Independent School District No. 283 v. S.D., 88 F.3d 556 (8th Cir. 1996).",
            Some("Independent School District No. 283"),
            "S.D.",
        ),
        (
            "See Causey (Kasie) v. Dist. Ct. (State), 142 Nev. Adv. Op. No. 43 (2026).",
            Some("Causey (Kasie)"),
            "Dist. Ct. (State)",
        ),
        (
            "Friends of the Earth, Inc. v. Laidlaw Environmental Services (TOC), Inc., 528 U.S. 167 (2000).",
            Some("Friends of the Earth, Inc."),
            "Laidlaw Environmental Services (TOC), Inc.",
        ),
        (
            "Smiley v. Citibank (South Dakota), N.A., 517 U.S. 735 (1996).",
            Some("Smiley"),
            "Citibank (South Dakota), N.A.",
        ),
        (
            "See Black Diamond Energy, Inc., a Delaware Corporation v. Encana Oil & Gas (USA) Inc., an Ohio Corporation, 2014 WY 64.",
            Some("Black Diamond Energy, Inc., a Delaware Corporation"),
            "Encana Oil & Gas (USA) Inc., an Ohio Corporation",
        ),
        (
            "See Wells Fargo Bank, N.A. v. 16th St. Regency, LLC, 2026 NYSlipOp 01553.",
            Some("Wells Fargo Bank, N.A."),
            "16th St. Regency, LLC",
        ),
    ] {
        let citations = extract(text);
        assert_eq!(
            (
                citations[0].plaintiff.as_deref(),
                citations[0].defendant.as_deref()
            ),
            (plaintiff, Some(defendant)),
            "{text}"
        );
    }
    // A parenthetical after a word that is no case name leaves no name.
    let text = "Plaintiffs cite the Manual (Fourth), 123 F.3d 456 (2d Cir. 1997).";
    assert_eq!(extract(text)[0].case_name, None, "{text}");
    // A given name after the last party stays in the name, to be checked.
    let text = "State v. Salazar (Ricky), 142 Nev. Adv. Op. No. 39 (2026).";
    assert_eq!(
        extract(text)[0].defendant.as_deref(),
        Some("Salazar (Ricky)")
    );
    let text = "Smiley v. Citibank (Nevada), N.A., 517 U.S. 735 (1996).";
    assert_eq!(
        extract(text)[0].defendant.as_deref(),
        Some("Citibank (Nevada), N.A.")
    );
}

/// A paragraph is the pin of a neutral citation: "Id. ¶ 20" after one is
/// that case, after a reporter's page is not.
#[test]
fn id_at_a_paragraph_follows_a_neutral_citation_only() {
    let text = "People v. Smith, 2015 IL 116725, ¶ 12. Id. ¶ 20. \
                Brown v. Board, 347 U.S. 483, 495 (1954). Id. ¶ 21.";
    let citations = extract(text);
    let ids: Vec<_> = citations
        .iter()
        .filter(|c| c.kind == CitationKind::Id)
        .collect();
    assert_eq!(ids.len(), 2);
    assert_eq!(ids[0].resolves_to, Some(0));
    assert_eq!(
        lexstack::citations::bluebook(ids[0]).as_deref(),
        Some("Id. ¶ 20")
    );
    assert_eq!(ids[1].resolves_to, None);
    // Westlaw numbers documents at star pages, not paragraphs.
    let text = "Smith v. Jones, 2017 WL 1234567, at *3 (D. Minn. 2017). Id. ¶ 4. \
                People v. Smith, 2015 IL 116725, ¶ 12. Id. at ¶ 30.";
    let citations = extract(text);
    assert_eq!(citations[0].court, Some("mnd"));
    assert_eq!(citations[1].resolves_to, None);
    assert_eq!(
        lexstack::citations::bluebook(&citations[3]).as_deref(),
        Some("Id. ¶ 30")
    );
}

#[test]
fn cranchs_circuit_court_reports_are_not_the_supreme_courts() {
    let text = "Smith v. Jones, 1 Cranch C.C. 100 (1801); Marbury v. Madison, 1 Cranch 137 (1803).";
    let citations = extract(text);
    let circuit = find(&citations, text, "1 Cranch C.C. 100");
    assert_eq!(circuit.reporter_found.as_deref(), Some("Cranch C.C."));
    assert_eq!(
        lexstack::citations::bluebook(circuit).as_deref(),
        Some("Smith v. Jones, 1 Cranch C.C. 100 (1801)")
    );
    let supreme = find(&citations, text, "1 Cranch 137");
    assert_eq!(
        lexstack::citations::bluebook(supreme).as_deref(),
        Some("Marbury v. Madison, 5 U.S. (1 Cranch) 137 (1803)")
    );
}

#[test]
fn short_forms_id_supra_and_journals() {
    let text = "Foo v. Bar, 1 U.S. 1, 3 (1990). Foo, 1 U.S., at 5 (quoting x). Id. at 6-7. \
                Foo, supra, at 8. See 66 B.U. L. Rev. 71, 80 (1986). Ibid.";
    let citations = extract(text);
    let kinds: Vec<CitationKind> = citations.iter().map(|c| c.kind).collect();
    assert_eq!(
        kinds,
        vec![
            CitationKind::FullCase,
            CitationKind::ShortCase,
            CitationKind::Id,
            CitationKind::Supra,
            CitationKind::Journal,
            CitationKind::Id
        ]
    );
    assert_eq!(citations[1].pin_cite.as_deref(), Some("5"));
    assert_eq!(citations[1].parenthetical.as_deref(), Some("quoting x"));
    assert_eq!(citations[2].pin_cite.as_deref(), Some("at 6-7"));
    assert_eq!(citations[3].case_name.as_deref(), Some("Foo"));
    assert_eq!(citations[4].reporter, Some("B.U. L. Rev."));
    assert_eq!(citations[4].year, Some(1986));
}

#[test]
fn a_vendors_name_written_as_a_word_is_its_reporter() {
    let text = "1954 U.S. Lexis 2094; 2020 U.S. Dist. Lexis 5 and 1954 U.S. LEXIS 2094";
    let reporters: Vec<_> = extract(text).iter().map(|c| c.reporter).collect();
    assert_eq!(
        reporters,
        [
            Some("U.S. LEXIS"),
            Some("U.S. Dist. LEXIS"),
            Some("U.S. LEXIS")
        ]
    );
}

#[test]
fn a_footnote_number_after_a_line_break_is_no_pin() {
    let text = "523 F. 3d 1078, 1085 (2008) (citing Burlington, 471 U. S., at \n\
                2 Although it was respondent's parents who sought reimbursement";
    let citations = extract(text);
    let short = find(&citations, text, "471 U. S.");
    assert_eq!(short.kind, CitationKind::ShortCase);
    assert_eq!(
        (short.page.as_deref(), short.pin_cite.as_deref()),
        (None, None)
    );
    let text = "Burlington, 471 U. S., at\n370 (quoting x). Burlington, 471 U. S., at\n371.";
    let citations = extract(text);
    let pins: Vec<_> = citations
        .iter()
        .filter(|c| c.kind == CitationKind::ShortCase)
        .map(|c| c.pin_cite.as_deref())
        .collect();
    assert_eq!(pins, [Some("370"), Some("371")]);
}

#[test]
fn references_repeat_a_cited_name() {
    let text = "Bivens v. Six Unknown Fed. Narcotics Agents, 403 U.S. 388 (1971). The Bivens \
                remedy is narrow; see Bivens at 395. Jin Fuey Moy v. United States, 254 U.S. 189 \
                (1920). In Jin Fuey Moy the Court held otherwise.";
    let citations = extract(text);
    let pin = find(&citations, text, "Bivens at 395");
    assert_eq!(pin.kind, CitationKind::Reference);
    assert_eq!(pin.pin_cite.as_deref(), Some("at 395"));
    assert_eq!(pin.resolves_to, Some(0));
    let bare = citations
        .iter()
        .filter(|c| c.kind == CitationKind::Reference)
        .count();
    assert_eq!(
        bare, 2,
        "one pin reference and one multi-word name; not the bare 'Bivens'"
    );
}

#[test]
fn not_citations() {
    for text in [
        "lorem 111 S.W. 12th St.",
        "foo1 U.S. 1, 1. U.S. 1foo",
        "Justice Holmes, 272 pages later, wrote",
        "He was 5 ft. 11 in. tall.",
        "",
    ] {
        assert!(extract(text).is_empty(), "{text:?}: {:?}", extract(text));
    }
}
