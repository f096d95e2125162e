//! Hostile input: nothing panics, every span is a char-boundary range
//! inside the text, and pathological inputs finish (their speed is in the
//! benchmark, not here).

use lexstack::citations::Citation;
use proptest::prelude::*;

use crate::extract;

const SAMPLE: &str = include_str!("../fixtures/citations/opinion_excerpt.txt");

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

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
}

#[test]
fn the_sample_itself() {
    let citations = extract(SAMPLE);
    check(SAMPLE, &citations);
    assert!(citations.len() >= 10);
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
