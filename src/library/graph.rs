//! The citation graph from opinion text: the citation engine reads each
//! opinion as it is stored, and every full case citation becomes an edge to
//! the case it names — or waits in `unresolved_cites` until that case
//! arrives.

use std::collections::BTreeMap;

use super::model::CiteKey;
use super::store::LibraryWriter;
use crate::citations::{CitationKind, Extractor};
use crate::store::StoreError;

/// Longest passage kept with an edge.
const MAX_PASSAGE_CHARS: usize = 300;

/// Links the case citations in `text` (plain text) from `citing`; returns
/// how many distinct cases it cites.
pub fn link_text(
    writer: &mut LibraryWriter<'_>,
    citing: &str,
    text: &str,
) -> Result<usize, StoreError> {
    let citations = Extractor::shared().extract(text);
    let mut cited: BTreeMap<CiteKey, (u32, String)> = BTreeMap::new();
    for citation in &citations {
        if citation.kind != CitationKind::FullCase {
            continue;
        }
        let (Some(volume), Some(reporter), Some(page)) = (
            citation.volume.as_deref().and_then(|v| v.parse().ok()),
            citation.reporter,
            citation.page.as_deref().and_then(|p| p.parse().ok()),
        ) else {
            continue;
        };
        let key = CiteKey {
            volume,
            reporter: reporter.to_string(),
            page,
        };
        let entry = cited
            .entry(key)
            .or_insert_with(|| (0, passage(text, citation.full_span.clone())));
        entry.0 += 1;
    }
    for (key, (count, passage)) in &cited {
        let at = writer.cases_at(key)?;
        match at.as_slice() {
            [one] => writer.add_edge(citing, one, *count, Some(passage.clone()))?,
            [] => writer.add_unresolved(key, citing, Some(passage.clone()))?,
            // Ambiguous: several cases start at that page; no edge is guessed.
            _ => {}
        }
    }
    Ok(cited.len())
}

/// The sentence around a citation, cut to a readable length.
fn passage(text: &str, span: std::ops::Range<usize>) -> String {
    let start = text[..span.start.min(text.len())]
        .rfind(['.', '\n'])
        .map(|i| i + 1)
        .unwrap_or(0);
    let end = text[span.end.min(text.len())..]
        .find(['\n'])
        .map(|i| span.end + i)
        .unwrap_or(text.len());
    let sentence = text[start..end].trim();
    if sentence.chars().count() <= MAX_PASSAGE_CHARS {
        return sentence.to_string();
    }
    sentence.chars().take(MAX_PASSAGE_CHARS).collect::<String>() + "…"
}
