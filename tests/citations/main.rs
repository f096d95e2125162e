//! The citation engine, end to end, on text written for these tests.

mod extraction;
mod laws;
mod names;
mod resolution;
mod robustness;

use lexstack::citations::{Citation, Extractor};

pub fn extract(text: &str) -> Vec<Citation> {
    Extractor::shared().extract(text)
}

/// The one citation whose text is `written`.
pub fn find<'a>(citations: &'a [Citation], text: &str, written: &str) -> &'a Citation {
    citations
        .iter()
        .find(|c| c.text(text) == written)
        .unwrap_or_else(|| {
            let found: Vec<&str> = citations.iter().map(|c| c.text(text)).collect();
            panic!("no citation {written:?} in {found:?}")
        })
}
