//! The phrases a search query quotes, and whether a document holds them.
//!
//! Opinion text is indexed without positions (an import's budget: see
//! `docs/performance.md`), so the index finds the documents holding a
//! phrase's words, and a quoted phrase is then checked against each
//! document's own words, in order.

use tantivy::tokenizer::TextAnalyzer;

use super::index::{IndexDoc, ligatures_spelt_out};

/// The quoted phrases of one query, each as the words an analyzer reads.
pub struct QuotedPhrases {
    phrases: Vec<Vec<String>>,
    analyzer: TextAnalyzer,
}

impl QuotedPhrases {
    /// The phrases between straight or curly double quotes; an unclosed
    /// quote runs to the query's end. None when the query quotes no word.
    pub fn of(query: &str, mut analyzer: TextAnalyzer) -> Option<Self> {
        let phrases: Vec<Vec<String>> = query
            .split(['"', '“', '”'])
            .skip(1)
            .step_by(2)
            .map(|quoted| words(&mut analyzer, quoted))
            .filter(|words| !words.is_empty())
            .collect();
        (!phrases.is_empty()).then_some(Self { phrases, analyzer })
    }

    /// Whether one field of `doc` (its name, another name, a citation, a
    /// docket number or its text) holds each phrase, word for word. A name
    /// is also read without its "et al.", which names of record hold and
    /// names as cited drop ("BROWN et al. v. BOARD OF EDUCATION" holds
    /// "Brown v. Board").
    pub fn held_by(&mut self, doc: &IndexDoc) -> bool {
        let names: Vec<Vec<String>> = std::iter::once(&doc.name)
            .chain(&doc.other_names)
            .map(|name| words(&mut self.analyzer, name))
            .collect();
        let cited_names: Vec<Vec<String>> = names.iter().map(|name| without_et_al(name)).collect();
        let others: Vec<Vec<String>> = doc
            .citations
            .iter()
            .chain(&doc.docket_numbers)
            .chain(std::iter::once(&doc.text))
            .map(|field| words(&mut self.analyzer, field))
            .collect();
        let fields = [names, cited_names, others].concat();
        self.phrases.iter().all(|phrase| {
            fields.iter().any(|field| {
                field
                    .windows(phrase.len())
                    .any(|run| run == phrase.as_slice())
            })
        })
    }
}

fn without_et_al(words: &[String]) -> Vec<String> {
    let mut kept = Vec::with_capacity(words.len());
    let mut rest = words;
    while let Some((word, after)) = rest.split_first() {
        if word == "et" && after.first().is_some_and(|next| next == "al") {
            rest = &after[1..];
        } else {
            kept.push(word.clone());
            rest = after;
        }
    }
    kept
}

/// The words `analyzer` reads in `text`, ligatures spelt out as the
/// search's queries are.
fn words(analyzer: &mut TextAnalyzer, text: &str) -> Vec<String> {
    let spelt = ligatures_spelt_out(text);
    let mut stream = analyzer.token_stream(&spelt);
    let mut words = Vec::new();
    while stream.advance() {
        words.push(stream.token().text.clone());
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str, text: &str) -> IndexDoc {
        IndexDoc {
            id: "x".into(),
            kind: "case".into(),
            name: name.into(),
            other_names: Vec::new(),
            citations: vec!["347 U.S. 483".into()],
            docket_numbers: Vec::new(),
            court: None,
            date: None,
            text: text.into(),
            cites: Vec::new(),
            initials: Vec::new(),
        }
    }

    fn phrases(query: &str) -> Option<QuotedPhrases> {
        QuotedPhrases::of(query, super::super::index::names_analyzer())
    }

    #[test]
    fn only_quoted_words_make_phrases() {
        assert!(phrases("failure to state a claim").is_none());
        assert!(phrases("\"\" \" \"").is_none());
        let quoted = phrases("rule \"failure to state\" claim “Upon Which”").unwrap();
        assert_eq!(
            quoted.phrases,
            vec![vec!["failure", "to", "state"], vec!["upon", "which"]]
        );
        // An unclosed quote runs to the end.
        assert_eq!(phrases("a \"b c").unwrap().phrases, vec![vec!["b", "c"]]);
    }

    #[test]
    fn a_phrase_is_held_word_for_word_in_one_field() {
        let brown = doc(
            "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.",
            "(6) failure to state a claim upon which relief can be granted; the ﬁrst Muñoz",
        );
        for held in [
            "\"failure to state a claim\"",
            "\"FAILURE, to state\"",
            "\"brown v. board\"",
            "\"Brown et al. v. Board of Education\"",
            "\"Board of Education of Topeka\"",
            "\"347 U.S.\"",
            "\"the first munoz\"",
            "\"relief\" \"upon which\"",
        ] {
            assert!(phrases(held).unwrap().held_by(&brown), "{held}");
        }
        for not_held in [
            "\"claim state failure\"",
            "\"failure to state a\" \"exclusionary rule\"",
            // Across two fields.
            "\"topeka failure\"",
        ] {
            assert!(!phrases(not_held).unwrap().held_by(&brown), "{not_held}");
        }
    }
}
