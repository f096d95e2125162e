//! Hostile input: nothing panics, every span is a char-boundary range
//! inside the text, and pathological inputs finish (their speed is in the
//! benchmark, not here).

use lexstack::citations::{Citation, CitationKind, Extractor};
use proptest::prelude::*;

use crate::extract;

const SAMPLE: &str = include_str!("../fixtures/citations/opinion_excerpt.txt");

/// What the graph's extraction must agree on with the full one.
fn full_case_facts(citations: &[Citation]) -> Vec<String> {
    citations
        .iter()
        .filter(|c| c.kind == CitationKind::FullCase)
        .map(|c| {
            format!(
                "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
                c.span, c.full_span, c.volume, c.reporter, c.page, c.year, c.plaintiff, c.defendant
            )
        })
        .collect()
}

/// The graph's extractions find exactly the full case citations the full
/// one does.
fn check_full_cases(text: &str) {
    let extractor = Extractor::shared();
    let full = extract(text);
    let lean = extractor.extract_full_cases(text);
    check(text, &lean);
    assert_eq!(full_case_facts(&lean), full_case_facts(&full));
    let addresses: Vec<String> = extractor
        .case_addresses(text)
        .iter()
        .map(|a| format!("{:?} {} {} {}", a.span, a.volume, a.reporter, a.page))
        .collect();
    let expected: Vec<String> = full
        .iter()
        .filter(|c| c.kind == CitationKind::FullCase)
        .filter_map(|c| {
            let volume: u32 = c.volume.as_deref()?.parse().ok()?;
            let page: u32 = c.page.as_deref()?.parse().ok()?;
            Some(format!("{:?} {volume} {} {page}", c.span, c.reporter?))
        })
        .collect();
    assert_eq!(addresses, expected);
}

fn check(text: &str, citations: &[Citation]) {
    for c in citations {
        for span in [&c.span, &c.full_span] {
            assert!(
                span.start <= span.end && span.end <= text.len(),
                "{span:?} in {}",
                text.len()
            );
            assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        }
        for &i in c.parallel.iter().chain(c.resolves_to.iter()) {
            assert!(i < citations.len());
        }
        for h in &c.subsequent_history {
            assert!(h.citation.is_none_or(|i| i < citations.len()));
        }
    }
}

/// The sample with `edits` applied: (position, kind, character).
fn edited(edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = SAMPLE.chars().collect();
    for &(at, kind, c) in edits {
        if chars.is_empty() {
            break;
        }
        let at = at % chars.len();
        match kind % 3 {
            0 => {
                chars.remove(at);
            }
            1 => chars.insert(at, c),
            _ => chars[at] = c,
        }
    }
    chars.into_iter().collect()
}

// 256 cases per property by default; PROPTEST_CASES=100000 for a long run.
proptest! {

    #[test]
    fn arbitrary_text(text in any::<String>()) {
        check(&text, &extract(&text));
    }

    #[test]
    fn citation_alphabet(text in "[0-9A-Za-z .,;:()\\[\\]§¶*_—–'’\"“”\n-]{0,400}") {
        check(&text, &extract(&text));
    }

    #[test]
    fn randomly_edited_opinion(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<char>()), 0..40)) {
        let text = edited(&edits);
        check(&text, &extract(&text));
    }

    #[test]
    fn full_cases_alone_agree_with_full_extraction(edits in prop::collection::vec((any::<usize>(), any::<u8>(), any::<char>()), 0..40)) {
        check_full_cases(&edited(&edits));
    }
}

#[test]
fn the_sample_itself() {
    let citations = extract(SAMPLE);
    check(SAMPLE, &citations);
    assert!(citations.len() >= 10);
    check_full_cases(SAMPLE);
    let zero_width = SAMPLE.replace("U.S.", "U.\u{200d}S.");
    check_full_cases(&zero_width);
}

#[test]
fn a_long_run_of_bare_citations_is_not_one_case() {
    // Every member of a parallel group lists the others: a run of
    // thousands grouped whole would print millions of indexes.
    let text = "400 U.S. 3 ".repeat(12_000);
    let citations = extract(&text);
    assert_eq!(citations.len(), 12_000);
    assert!(citations.iter().all(|c| c.parallel.len() < 12));
}

#[test]
fn adversarial_inputs_finish() {
    let inputs = [
        "1".repeat(200_000),
        "v. ".repeat(70_000),
        format!("{}{}", "(".repeat(100_000), ")".repeat(100_000)),
        "1 U.S. ".repeat(30_000),
        "Id. at ".repeat(30_000),
        "§ ".repeat(100_000),
        "A v. B, 1 F.3d 1 (".repeat(10_000),
        "Smith v. Jones, ".repeat(20_000) + "1 U.S. 1",
        "[".repeat(100_000),
        "— U.S. —, ".repeat(20_000),
        format!("1 U.S. {}", "9".repeat(100_000)),
    ];
    for text in &inputs {
        check(text, &extract(text));
    }
}
