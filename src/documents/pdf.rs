//! The text layer of a PDF, with lopdf.

use std::time::{Duration, Instant};

use lopdf::LoadOptions;

use super::read::{Document, DocumentKind, MAX_TEXT_BYTES, Unreadable, describe_size};

/// Longer documents are refused rather than cut short: a check that read
/// half of a document would pass the other half unread.
pub const MAX_PAGES: usize = 2_000;

/// Bound on what any one stream (object, xref or page content) may inflate
/// to; lopdf's own default, 256 MiB, is far above any real page.
const MAX_STREAM_BYTES: usize = 32 * 1024 * 1024;

/// Wall-clock bound on reading the pages of one PDF.
const MAX_READ_TIME: Duration = Duration::from_secs(60);

/// A page with fewer letters and digits than this has no real text layer.
/// It is above what a court's e-filing stamp (case number, document, filed
/// date, page) adds to a scanned page, and far below a typed page.
const MIN_CHARS_PER_TEXT_PAGE: usize = 100;

pub(super) fn read(bytes: &[u8]) -> Result<Document, Unreadable> {
    let options = LoadOptions {
        max_decompressed_size: Some(MAX_STREAM_BYTES),
        ..LoadOptions::default()
    };
    let document = lopdf::Document::load_mem_with_options(bytes, options)
        .map_err(|err| Unreadable(format!("not a readable PDF: {err}")))?;
    let pages = document.get_pages();
    if pages.is_empty() {
        return Err(Unreadable("the PDF has no pages".into()));
    }
    if pages.len() > MAX_PAGES {
        return Err(Unreadable(format!(
            "the PDF has {} pages; at most {MAX_PAGES} are read",
            pages.len()
        )));
    }
    let deadline = Instant::now() + MAX_READ_TIME;
    let mut text = String::new();
    let mut pages_with_text = 0;
    for &number in pages.keys() {
        if Instant::now() > deadline {
            return Err(Unreadable(format!(
                "the PDF takes more than {} s to read",
                MAX_READ_TIME.as_secs()
            )));
        }
        // A page lopdf cannot decode counts as a page without text: the scan
        // test below then decides whether the document is still worth reading.
        let page_text = document
            .extract_text_with_limit(&[number], MAX_STREAM_BYTES)
            .unwrap_or_default();
        let letters_and_digits = page_text.chars().filter(|c| c.is_alphanumeric()).count();
        if letters_and_digits >= MIN_CHARS_PER_TEXT_PAGE {
            pages_with_text += 1;
        }
        if text.len() + page_text.len() > MAX_TEXT_BYTES {
            return Err(Unreadable(format!(
                "the PDF holds more than {} of text",
                describe_size(MAX_TEXT_BYTES as u64)
            )));
        }
        text.push_str(&page_text);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    // Most pages without text is a scan, perhaps e-filing stamped: reading
    // only the stamps would report a brief full of citations as having none.
    if pages_with_text * 2 < pages.len() {
        return Err(Unreadable(format!(
            "{} of {} pages have no text layer (a scan?); run OCR on it or upload the original",
            pages.len() - pages_with_text,
            pages.len()
        )));
    }
    Ok(Document {
        text,
        kind: DocumentKind::Pdf,
        pages: Some(pages.len() as u32),
    })
}
