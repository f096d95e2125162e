use lexstack::citations::{CitationKind, LawKey, bluebook};

use crate::{extract, find};

fn key(text: &str, written: &str) -> LawKey {
    let citations = extract(text);
    let c = find(&citations, text, written);
    assert_eq!(c.kind, CitationKind::Law, "{written}");
    *c.law.clone().unwrap()
}

#[test]
fn united_states_code_in_every_usual_form() {
    let k = key("42 U.S.C. § 1983", "42 U.S.C. § 1983");
    assert_eq!(
        (k.code.as_str(), k.title.as_deref(), k.section.as_deref()),
        ("U.S.C.", Some("42"), Some("1983"))
    );
    // eyecite#300: no section sign.
    let k = key("under 50 U.S.C. 1701, the President", "50 U.S.C. 1701");
    assert_eq!(
        (k.title.as_deref(), k.section.as_deref()),
        (Some("50"), Some("1701"))
    );
    // The appendix.
    let k = key("50 U.S.C. app. § 1989", "50 U.S.C. app. § 1989");
    assert!(k.appendix);
    assert_eq!(k.section.as_deref(), Some("1989"));
    // Sections with letters, subsections as the pin.
    let text = "42 U.S.C. § 2000e-2(a)(1)";
    let citations = extract(text);
    let c = find(&citations, text, "42 U.S.C. § 2000e-2");
    assert_eq!(c.pin_cite.as_deref(), Some("(a)(1)"));
    assert_eq!(
        c.law.as_ref().unwrap().subsection.as_deref(),
        Some("(a)(1)")
    );
    // Spelled out.
    let k = key(
        "a claim under section 1983 of title 42 of the United States Code",
        "section 1983 of title 42",
    );
    assert_eq!(
        (k.code.as_str(), k.title.as_deref(), k.section.as_deref()),
        ("U.S.C.", Some("42"), Some("1983"))
    );
    let k = key("28 USC 1331", "28 USC 1331");
    assert_eq!(k.code, "U.S.C.");
    let k = key("8 U.S.C. §\u{200d}1229a (2018)", "8 U.S.C. §\u{200d}1229a");
    assert_eq!(k.section.as_deref(), Some("1229a"));
    // Capital letters without a section sign, and the annotated codes
    // without periods.
    let k = key("See 18 U.S.C. 2252A.", "18 U.S.C. 2252A");
    assert_eq!(k.section.as_deref(), Some("2252A"));
    let k = key("42 USCA § 1983", "42 USCA § 1983");
    assert_eq!(
        (k.code.as_str(), k.section.as_deref()),
        ("U.S.C.", Some("1983"))
    );
    // The Code's longest letter suffixes run to four ("§ 460ffff-3").
    let k = key("16 U.S.C. § 460ffff-3 (2024)", "16 U.S.C. § 460ffff-3");
    assert_eq!(k.section.as_deref(), Some("460ffff-3"));
}

#[test]
fn a_laws_number_is_not_the_next_citations_volume() {
    let text = "Pub. L. No. 89-732, 80 Stat. 1161 (1966)";
    let citations = extract(text);
    let reporters: Vec<_> = citations.iter().map(|c| c.reporter).collect();
    assert_eq!(reporters, vec![Some("Pub. L."), Some("Stat.")]);
    assert_eq!(citations[1].volume.as_deref(), Some("80"));
}

#[test]
fn regulations_rules_and_the_constitution() {
    let k = key("40 C.F.R. § 52.21(b)", "40 C.F.R. § 52.21");
    assert_eq!(
        (k.code.as_str(), k.title.as_deref(), k.section.as_deref()),
        ("C.F.R.", Some("40"), Some("52.21"))
    );
    for (text, code, rule) in [
        ("Fed. R. Civ. P. 12(b)(6)", "Fed. R. Civ. P.", "12"),
        ("Fed.R.Evid. 403", "Fed. R. Evid.", "403"),
        ("Fed. R. App. P. 4(a)", "Fed. R. App. P.", "4"),
        ("Fed. R. Crim. P. 11", "Fed. R. Crim. P.", "11"),
        ("Fed R Civ P 12(b)(6)", "Fed. R. Civ. P.", "12"),
        ("Fed R Evid 403", "Fed. R. Evid.", "403"),
        ("Sup. Ct. R. 10", "Sup. Ct. R.", "10"),
        (
            "Rule 56 of the Federal Rules of Civil Procedure",
            "Fed. R. Civ. P.",
            "56",
        ),
        (
            "Rule 10 of the Rules of the Supreme Court",
            "Sup. Ct. R.",
            "10",
        ),
        (
            "Rule 14.1(a) of the Rules of the Supreme Court of the United States",
            "Sup. Ct. R.",
            "14.1",
        ),
    ] {
        let citations = extract(text);
        let law = citations[0]
            .law
            .as_ref()
            .unwrap_or_else(|| panic!("{text}"));
        assert_eq!(
            (law.code.as_str(), law.section.as_deref()),
            (code, Some(rule)),
            "{text}"
        );
    }
    let k = key(
        "U.S. Const. art. I, § 8, cl. 3",
        "U.S. Const. art. I, § 8, cl. 3",
    );
    assert_eq!(k.code, "U.S. Const.");
    assert_eq!(
        (
            k.article.as_deref(),
            k.section.as_deref(),
            k.clause.as_deref()
        ),
        (Some("I"), Some("8"), Some("3"))
    );
    let k = key("U.S. Const. amend. XIV, § 1", "U.S. Const. amend. XIV, § 1");
    assert_eq!(
        (k.amendment.as_deref(), k.section.as_deref()),
        (Some("XIV"), Some("1"))
    );
}

#[test]
fn regulation_parts_cited_whole() {
    for (text, written, title, part) in [
        (
            "see 29 C.F.R. pt. 1630, which",
            "29 C.F.R. pt. 1630",
            "29",
            "1630",
        ),
        (
            "see 29 C.F.R. Part 1630.",
            "29 C.F.R. Part 1630",
            "29",
            "1630",
        ),
        ("40 CFR part 230", "40 CFR part 230", "40", "230"),
        ("29 CFR Pt 1630", "29 CFR Pt 1630", "29", "1630"),
    ] {
        let k = key(text, written);
        assert_eq!(
            (k.code.as_str(), k.title.as_deref(), k.part.as_deref()),
            ("C.F.R.", Some(title), Some(part)),
            "{text}"
        );
        assert_eq!(k.section, None, "{text}");
    }
    let text = "29 C.F.R. Part 1630 (2023)";
    let citations = extract(text);
    assert_eq!(
        bluebook(find(&citations, text, "29 C.F.R. Part 1630")).as_deref(),
        Some("29 C.F.R. pt. 1630 (2023)")
    );
}

#[test]
fn state_codes() {
    let k = key("Fla. Stat. § 120.68 (2007)", "Fla. Stat. § 120.68");
    assert_eq!(
        (k.code.as_str(), k.section.as_deref()),
        ("Fla. Stat.", Some("120.68"))
    );
    let k = key(
        "Mass. Gen. Laws ch. 93A, § 2",
        "Mass. Gen. Laws ch. 93A, § 2",
    );
    assert_eq!(
        (k.chapter.as_deref(), k.section.as_deref()),
        (Some("93A"), Some("2"))
    );
    let k = key("Cal. Lab. Code § 1102", "Cal. Lab. Code § 1102");
    assert_eq!(
        (k.code.as_str(), k.subject.as_deref()),
        ("Cal. Code", Some("Lab."))
    );
    let k = key("N.Y. Penal Law § 140.35", "N.Y. Penal Law § 140.35");
    assert_eq!(
        (k.code.as_str(), k.subject.as_deref()),
        ("N.Y. Law", Some("Penal"))
    );
    let k = key(
        "Va.Code Ann. § 18.2–94 (West 2014)",
        "Va.Code Ann. § 18.2–94",
    );
    // Title 18.2, section 94: one section, held as "18.2-94".
    assert_eq!(k.section.as_deref(), Some("18.2-94"));
    let k = key("WIS. STAT. § 66.0217(2)", "WIS. STAT. § 66.0217");
    assert_eq!(
        (k.code.as_str(), k.section.as_deref()),
        ("Wis. Stat.", Some("66.0217"))
    );
    let text = "Ariz. Rev. Stat. Ann. § 36-3701 et seq. (West 2009)";
    let c = &extract(text)[0];
    assert_eq!(
        (c.pin_cite.as_deref(), c.year),
        (Some("et seq."), Some(2009))
    );
}

#[test]
fn bluebook_forms_of_laws() {
    let text = "42 U.S.C. § 1983; Fed. R. Civ. P. 12(b)(6); Mass. Gen. Laws ch. 93A, § 2";
    let forms: Vec<Option<String>> = extract(text).iter().map(bluebook).collect();
    assert_eq!(
        forms,
        vec![
            Some("42 U.S.C. § 1983".to_string()),
            Some("Fed. R. Civ. P. 12(b)(6)".to_string()),
            Some("Mass. Gen. Laws ch. 93A, § 2".to_string()),
        ]
    );
}

#[test]
fn codes_in_lower_case_need_a_section_sign_or_word() {
    for (text, written, code, title, section) in [
        (
            "42 u.s.c. § 1983",
            "42 u.s.c. § 1983",
            "U.S.C.",
            "42",
            "1983",
        ),
        (
            "29 c.f.r. § 1630.2",
            "29 c.f.r. § 1630.2",
            "C.F.R.",
            "29",
            "1630.2",
        ),
        (
            "under 42 u.s.c. sec. 1983",
            "42 u.s.c. sec. 1983",
            "U.S.C.",
            "42",
            "1983",
        ),
        (
            "42 U.s.c. Section 1983",
            "42 U.s.c. Section 1983",
            "U.S.C.",
            "42",
            "1983",
        ),
        (
            "42 u.s.c.a. §1983",
            "42 u.s.c.a. §1983",
            "U.S.C.",
            "42",
            "1983",
        ),
    ] {
        let k = key(text, written);
        assert_eq!(
            (k.code.as_str(), k.title.as_deref(), k.section.as_deref()),
            (code, Some(title), Some(section)),
            "{text}"
        );
    }
    let text = "42 u.s.c. § 1983(a)";
    assert_eq!(
        bluebook(find(&extract(text), text, "42 u.s.c. § 1983")).as_deref(),
        Some("42 U.S.C. § 1983(a)")
    );
    // Without the sign or the word, a number after the code is prose.
    for text in [
        "we filed 42 u.s.c. 1983 forms",
        "the 42 u.s.c. provisions",
        "about 29 c.f.r. 1630",
        "at 29 c.f.r. s. 1630",
        "see 29 c.f.r. pt. 1630",
    ] {
        let laws: Vec<_> = extract(text)
            .into_iter()
            .filter(|c| c.kind == CitationKind::Law)
            .collect();
        assert!(laws.is_empty(), "{text:?}: {laws:?}");
    }
}

#[test]
fn regulation_part_lists_begin_with_their_first_part() {
    for (text, written) in [
        ("29 C.F.R. Parts 1630 and 1635", "29 C.F.R. Parts 1630"),
        ("29 C.F.R. pts. 1630, 1635", "29 C.F.R. pts. 1630"),
        ("29 CFR PTS. 1630 & 1635", "29 CFR PTS. 1630"),
    ] {
        let k = key(text, written);
        assert_eq!(
            (k.title.as_deref(), k.part.as_deref(), k.section.as_deref()),
            (Some("29"), Some("1630"), None),
            "{text}"
        );
    }
}

#[test]
fn a_main_volume_with_its_supplement_keeps_both() {
    let text = "42 U.S.C. § 1983 (2018 & Supp. V 2023)";
    let citations = extract(text);
    let c = find(&citations, text, "42 U.S.C. § 1983");
    assert_eq!(
        (c.year, c.publisher.as_deref(), c.supplement.as_deref()),
        (Some(2018), None, Some("Supp. V 2023"))
    );
    assert_eq!(c.parenthetical, None);
    assert_eq!(&text[c.full_span.clone()], text);
    assert_eq!(
        bluebook(c).as_deref(),
        Some("42 U.S.C. § 1983 (2018 & Supp. V 2023)")
    );
    let text = "Fla. Stat. § 120.68 (West 2007 & Supp. 2015)";
    let c = &extract(text)[0];
    assert_eq!(
        (c.year, c.publisher.as_deref(), c.supplement.as_deref()),
        (Some(2007), Some("West"), Some("Supp. 2015"))
    );
    // Another "&" is no date.
    let text = "42 U.S.C. § 1983 (Smith & Jones 2015)";
    let c = &extract(text)[0];
    assert_eq!((c.year, c.supplement.as_deref()), (None, None));
    assert_eq!(bluebook(c).as_deref(), Some("42 U.S.C. § 1983"));
}

#[test]
fn annotated_codes_keep_their_names_in_bluebook_form() {
    let text = "42 U.S.C.A. § 1983 (West 2012); 18 U.S.C.S. § 924(c); 42 U.S.C. § 1983";
    let citations = extract(text);
    let codes: Vec<_> = citations
        .iter()
        .map(|c| c.law.as_ref().unwrap().code.as_str())
        .collect();
    assert_eq!(codes, ["U.S.C.", "U.S.C.", "U.S.C."]);
    let forms: Vec<_> = citations.iter().map(bluebook).collect();
    assert_eq!(
        forms,
        [
            Some("42 U.S.C.A. § 1983 (West 2012)".to_string()),
            Some("18 U.S.C.S. § 924(c)".to_string()),
            Some("42 U.S.C. § 1983".to_string()),
        ]
    );
}

#[test]
fn treasury_regulation_sections_keep_their_letters_and_subdivisions() {
    for (text, written, section) in [
        ("26 C.F.R. § 1.409A-1.", "26 C.F.R. § 1.409A-1", "1.409A-1"),
        ("26 C.F.R. § 1.45G-0.", "26 C.F.R. § 1.45G-0", "1.45G-0"),
        // A temporary regulation numbered after a Code subsection.
        (
            "26 C.F.R. § 1.1031(d)-1T.",
            "26 C.F.R. § 1.1031(d)-1T",
            "1.1031(d)-1T",
        ),
        (
            "26 C.F.R. § 1.501(c)(3)-1.",
            "26 C.F.R. § 1.501(c)(3)-1",
            "1.501(c)(3)-1",
        ),
        // And one with an "A" ("(e)-1A").
        (
            "26 C.F.R. § 1.1402(e)-1A.",
            "26 C.F.R. § 1.1402(e)-1A",
            "1.1402(e)-1A",
        ),
        ("26 C.F.R. § 1.469-5T.", "26 C.F.R. § 1.469-5T", "1.469-5T"),
        // No section sign.
        ("26 C.F.R. 1.170A-6.", "26 C.F.R. 1.170A-6", "1.170A-6"),
        ("26 CFR 1.409A-3 and", "26 CFR 1.409A-3", "1.409A-3"),
        // Title 26 cited as the Treasury Regulations, cut at the
        // subdivision after the number.
        (
            "Treas. Reg. § 1.501(c)(3)-1(d)(2).",
            "Treas. Reg. § 1.501(c)(3)-1",
            "1.501(c)(3)-1",
        ),
        (
            "Temp. Treas. Reg. § 1.1031(d)-1T.",
            "Temp. Treas. Reg. § 1.1031(d)-1T",
            "1.1031(d)-1T",
        ),
        ("Treas. Reg. 1.41-2 and", "Treas. Reg. 1.41-2", "1.41-2"),
    ] {
        let k = key(text, written);
        let (code, title) = if written.contains("Treas.") {
            ("Treas. Reg.", None)
        } else {
            ("C.F.R.", Some("26"))
        };
        assert_eq!(
            (k.code.as_str(), k.title.as_deref(), k.section.as_deref()),
            (code, title, Some(section)),
            "{text}"
        );
        assert_eq!(k.chapter, None, "{text}");
    }
}

#[test]
fn a_dash_printed_inside_a_section_number_is_a_hyphen() {
    for (text, written, title, section) in [
        (
            "42 U.S.C. § 2000e–2.",
            "42 U.S.C. § 2000e–2",
            "42",
            "2000e-2",
        ),
        (
            "42 U.S.C. § 2000e—2.",
            "42 U.S.C. § 2000e—2",
            "42",
            "2000e-2",
        ),
        (
            "42 U.S.C. § 1320a–7b.",
            "42 U.S.C. § 1320a–7b",
            "42",
            "1320a-7b",
        ),
        (
            "26 C.F.R. § 1.409A–1.",
            "26 C.F.R. § 1.409A–1",
            "26",
            "1.409A-1",
        ),
    ] {
        let k = key(text, written);
        assert_eq!(
            (k.title.as_deref(), k.section.as_deref()),
            (Some(title), Some(section)),
            "{text}"
        );
    }
    let dashed = key("42 U.S.C. § 2000e–2(a)", "42 U.S.C. § 2000e–2");
    let hyphened = key("42 U.S.C. § 2000e-2(a)", "42 U.S.C. § 2000e-2");
    assert_eq!(dashed, hyphened);
}

#[test]
fn a_dash_between_two_sections_still_makes_a_range() {
    for (text, written, section) in [
        (
            "42 U.S.C. §§ 1981–1983.",
            "42 U.S.C. §§ 1981–1983",
            "1981–1983",
        ),
        (
            "42 U.S.C. § 1981–1983.",
            "42 U.S.C. § 1981–1983",
            "1981–1983",
        ),
        (
            "42 U.S.C. §§ 2000e–2000e–17.",
            "42 U.S.C. §§ 2000e–2000e–17",
            "2000e–2000e-17",
        ),
    ] {
        let k = key(text, written);
        assert_eq!(k.section.as_deref(), Some(section), "{text}");
    }
    // The first section of a range written with "to" is read alone.
    let k = key("42 U.S.C. §§ 2000e–2 to 2000e–5.", "42 U.S.C. §§ 2000e–2");
    assert_eq!(k.section.as_deref(), Some("2000e-2"));
}

#[test]
fn a_treasury_regulations_number_tail_is_read_with_any_dash() {
    use lexstack::citations::treasury_tail_len;
    assert_eq!(treasury_tail_len("(c)(4)-1, next"), "(c)(4)-1".len());
    assert_eq!(treasury_tail_len("(d)–1T;"), "(d)–1T".len());
    assert_eq!(treasury_tail_len("(d)(2)."), 0, "a subdivision, no number");
    assert_eq!(treasury_tail_len("-1"), 0, "no Code subsection before it");
    assert_eq!(treasury_tail_len("(toolong)-1"), 0);
}
