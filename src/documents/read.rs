//! Plain text from the bytes of a PDF or DOCX, whatever the server called
//! them: the type is sniffed from the bytes, and the Content-Type and the URL
//! only help explain a refusal.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{docx, pdf};

/// More text than this is not a brief: a PDF of 2,000 dense pages holds
/// about 8 MiB.
pub const MAX_TEXT_BYTES: usize = 16 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    Pdf,
    Docx,
}

#[derive(Debug, Clone)]
pub struct Document {
    /// Paragraphs and lines separated by `\n`; a DOCX's footnotes and
    /// endnotes follow its body.
    pub text: String,
    pub kind: DocumentKind,
    /// The page count of a PDF. A DOCX has no pages until a word processor
    /// lays it out, so `None`.
    pub pages: Option<u32>,
}

/// Why fetched bytes yield no text; the message is safe to show the client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Unreadable(pub String);

/// Reads the text of a PDF (its text layer) or a DOCX. Never panics: bytes
/// that make a parser panic are refused as malformed. Memory and time are
/// bounded by the readers' limits (pages, stream and part sizes, text size).
pub fn extract_text(
    bytes: &[u8],
    content_type: Option<&str>,
    url_path: &str,
) -> Result<Document, Unreadable> {
    if let Some(start) = pdf_start(bytes) {
        return guarded(|| pdf::read(&bytes[start..]));
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return guarded(|| docx::read(bytes, &docx::Limits::DEFAULT));
    }
    Err(Unreadable(describe_other(bytes, content_type, url_path)))
}

/// Readers accept a `%PDF-` header within the first 1,024 bytes, after mail
/// or HTTP debris some servers leave in front of it.
fn pdf_start(bytes: &[u8]) -> Option<usize> {
    let head = &bytes[..bytes.len().min(1024)];
    head.windows(5).position(|window| window == b"%PDF-")
}

fn guarded(read: impl FnOnce() -> Result<Document, Unreadable>) -> Result<Document, Unreadable> {
    // The parsers are third-party code fed hostile bytes; a panic in one must
    // refuse this document, not take the job worker down.
    catch_unwind(AssertUnwindSafe(read)).unwrap_or_else(|_| {
        Err(Unreadable(
            "the file is malformed: its reader gave up on it".into(),
        ))
    })
}

/// Why bytes that are neither PDF nor DOCX were refused, in words a lawyer
/// can act on.
fn describe_other(bytes: &[u8], content_type: Option<&str>, url_path: &str) -> String {
    const OLE2: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
    let path = url_path.to_ascii_lowercase();
    let media_type = content_type
        .and_then(|value| value.split(';').next())
        .map(|value| value.trim().to_ascii_lowercase());
    if bytes.starts_with(OLE2) {
        return "a legacy Word .doc or a password-protected Office file, not a PDF or DOCX \
                document; save it as PDF or DOCX"
            .into();
    }
    if bytes.starts_with(b"{\\rtf") {
        return "an RTF file, not a PDF or DOCX document; save it as PDF or DOCX".into();
    }
    if media_type.as_deref() == Some("text/html") || looks_like_html(bytes) {
        let named = if path.ends_with(".pdf") || path.ends_with(".docx") {
            " (the link names a document, so the server probably sent a login, error or \
             cookie page instead)"
        } else {
            ""
        };
        return format!("a web page, not a PDF or DOCX document{named}");
    }
    match media_type {
        Some(media_type) => {
            format!("not a PDF or DOCX document (the server called it {media_type})")
        }
        None => "not a PDF or DOCX document".into(),
    }
}

/// A size for a message: whole MiB when it is one, else bytes.
pub(super) fn describe_size(bytes: u64) -> String {
    const MIB: u64 = 1024 * 1024;
    if bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else {
        format!("{bytes} bytes")
    }
}

fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(512)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let start = head
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(head.len());
    let head = head[start..].to_ascii_lowercase();
    [b"<!doctype html".as_slice(), b"<html", b"<head", b"<body"]
        .iter()
        .any(|tag| head.starts_with(tag))
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::documents::pdf::MAX_PAGES;
    use crate::documents::testing::*;

    fn refusal(result: Result<Document, Unreadable>) -> String {
        match result {
            Err(Unreadable(reason)) => reason,
            Ok(document) => panic!("expected Unreadable, read {document:?}"),
        }
    }

    #[test]
    fn a_pdf_text_layer_is_read() {
        let document = extract_text(&brief_pdf(), Some("application/pdf"), "/brief.pdf").unwrap();
        assert_eq!(document.kind, DocumentKind::Pdf);
        assert_eq!(document.pages, Some(2));
        for line in BRIEF_LINES {
            assert_eq!(
                document.text.matches(line).count(),
                2,
                "{line} in {:?}",
                document.text
            );
        }
    }

    #[test]
    fn the_type_comes_from_the_bytes_not_the_headers() {
        let pdf = extract_text(&brief_pdf(), Some("text/html"), "/index.html").unwrap();
        assert_eq!(pdf.kind, DocumentKind::Pdf);
        let docx = extract_text(&brief_docx(), Some("application/pdf"), "/brief.pdf").unwrap();
        assert_eq!(docx.kind, DocumentKind::Docx);
    }

    #[test]
    fn a_pdf_header_after_leading_debris_is_found() {
        let mut bytes = b"Content-Type: application/pdf\r\n\r\n".to_vec();
        bytes.extend_from_slice(&brief_pdf());
        let document = extract_text(&bytes, None, "/brief").unwrap();
        assert!(document.text.contains("410 U.S. 113"));
    }

    #[test]
    fn a_pdf_without_a_text_layer_is_a_scan() {
        let refused = refusal(extract_text(&pdf_without_text(3), None, "/scan.pdf"));
        assert!(
            refused.contains("3 of 3 pages have no text layer"),
            "{refused}"
        );
    }

    #[test]
    fn a_scan_with_e_filing_stamps_is_still_a_scan() {
        let stamp: &[&str] =
            &["Case 1:23-cv-01234-ABC Document 54 Filed 05/01/23 Page 1 of 3 PageID #: 210"];
        let refused = refusal(extract_text(
            &pdf_with_text(&[stamp, stamp, stamp]),
            None,
            "/x.pdf",
        ));
        assert!(refused.contains("no text layer"), "{refused}");
    }

    #[test]
    fn a_typed_brief_with_a_few_image_pages_is_read() {
        let exhibit: &[&str] = &["Exhibit A"];
        let bytes = pdf_with_text(&[&BRIEF_LINES, &BRIEF_LINES, exhibit]);
        let document = extract_text(&bytes, None, "/brief.pdf").unwrap();
        assert_eq!(document.pages, Some(3));
        assert!(document.text.contains("Exhibit A"));
    }

    #[test]
    fn a_pdf_over_the_page_limit_is_refused() {
        let refused = refusal(extract_text(
            &pdf_without_text(MAX_PAGES + 1),
            None,
            "/x.pdf",
        ));
        assert_eq!(refused, "the PDF has 2001 pages; at most 2000 are read");
    }

    #[test]
    fn a_docx_is_read_as_paragraphs() {
        let body = r#"
            <w:p><w:pPr><w:tabs><w:tab w:val="left" w:pos="720"/></w:tabs></w:pPr>
              <w:r><w:t>See</w:t></w:r><w:r><w:t xml:space="preserve"> Roe v. Wade, </w:t></w:r>
              <w:r><w:t>410 U.S. 113</w:t></w:r><w:r><w:tab/><w:t>(1973).</w:t></w:r></w:p>
            <w:p/>
            <w:p><w:r><w:t>AT&amp;T Corp. &#167; 12&#x2014;cited</w:t><w:br/><w:t>next line</w:t></w:r></w:p>
            <w:p><w:r><w:delText>Deleted v. Case, 1 U.S. 1</w:delText></w:r>
              <w:r><w:fldChar w:fldCharType="begin"/></w:r>
              <w:r><w:instrText> HYPERLINK "https://example.com" </w:instrText></w:r>
              <w:r><w:t>Brown v. Board</w:t></w:r></w:p>
            <w:p><w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:t>in a text box</w:t></mc:Choice>
              <mc:Fallback><w:t>in a text box</w:t></mc:Fallback></mc:AlternateContent></w:r></w:p>
            <w:p><w:r><w:t>self</w:t><w:noBreakHyphen/><w:t>evident</w:t></w:r></w:p>"#;
        let document = extract_text(&docx_with_body(body), None, "/brief.docx").unwrap();
        assert_eq!(document.kind, DocumentKind::Docx);
        assert_eq!(document.pages, None);
        assert_eq!(
            document.text,
            "See Roe v. Wade, 410 U.S. 113\t(1973).\n\
             \n\
             AT&T Corp. \u{a7} 12\u{2014}cited\nnext line\n\
             Brown v. Board\n\
             in a text box\n\
             self-evident\n"
        );
    }

    #[test]
    fn docx_footnotes_and_endnotes_follow_the_body() {
        let body = document_xml("<w:p><w:r><w:t>Body text.</w:t></w:r></w:p>");
        let footnotes = r#"<w:footnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
            <w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>
            <w:footnote w:id="1"><w:p><w:r><w:t>Marbury v. Madison, 5 U.S. 137 (1803).</w:t></w:r></w:p></w:footnote>
            </w:footnotes>"#;
        let endnotes = r#"<w:endnotes xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
            <w:endnote w:id="1"><w:p><w:r><w:t>28 U.S.C. 1331.</w:t></w:r></w:p></w:endnote></w:endnotes>"#;
        let bytes = docx_with_parts(&[
            ("word/document.xml", body.as_bytes()),
            ("word/footnotes.xml", footnotes.as_bytes()),
            ("word/endnotes.xml", endnotes.as_bytes()),
        ]);
        let document = extract_text(&bytes, None, "/brief.docx").unwrap();
        assert_eq!(
            document.text,
            "Body text.\n\n\nMarbury v. Madison, 5 U.S. 137 (1803).\n\n28 U.S.C. 1331.\n"
        );
    }

    #[test]
    fn other_formats_are_refused_with_a_reason() {
        let cases: [(&[u8], Option<&str>, &str, &str); 7] = [
            (
                b"<!DOCTYPE html><html><body>Login</body></html>",
                Some("text/html; charset=utf-8"),
                "/brief.pdf",
                "a web page, not a PDF or DOCX document (the link names a document, so the server probably sent a login, error or cookie page instead)",
            ),
            (
                b"\xEF\xBB\xBF  <html lang=en>",
                None,
                "/opinion",
                "a web page, not a PDF or DOCX document",
            ),
            (
                b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00\x00",
                None,
                "/brief.doc",
                "a legacy Word .doc or a password-protected Office file, not a PDF or DOCX document; save it as PDF or DOCX",
            ),
            (
                b"{\\rtf1\\ansi Roe v. Wade}",
                Some("application/rtf"),
                "/brief.rtf",
                "an RTF file, not a PDF or DOCX document; save it as PDF or DOCX",
            ),
            (
                b"Roe v. Wade, 410 U.S. 113",
                Some("text/plain"),
                "/brief.txt",
                "not a PDF or DOCX document (the server called it text/plain)",
            ),
            (
                b"\x89PNG\r\n\x1a\n",
                None,
                "/scan.png",
                "not a PDF or DOCX document",
            ),
            (b"", None, "/", "not a PDF or DOCX document"),
        ];
        for (bytes, content_type, path, expected) in cases {
            assert_eq!(refusal(extract_text(bytes, content_type, path)), expected);
        }
    }

    #[test]
    fn a_zip_that_is_not_a_docx_is_refused() {
        let xlsx = zip_with(
            &[("xl/workbook.xml", b"<workbook/>")],
            zip::CompressionMethod::Deflated,
        );
        let refused = refusal(extract_text(&xlsx, None, "/book.xlsx"));
        assert_eq!(
            refused,
            "a zip archive without word/document.xml: not a DOCX document"
        );
    }

    #[test]
    fn a_docx_whose_document_is_another_zip_is_refused() {
        let inner = brief_docx();
        let nested = docx_with_parts(&[("word/document.xml", &inner)]);
        let refused = refusal(extract_text(&nested, None, "/brief.docx"));
        assert!(
            refused.starts_with("the DOCX holds malformed XML"),
            "{refused}"
        );
    }

    #[test]
    fn a_zip_bomb_is_refused_before_it_inflates() {
        let padding = " ".repeat(8 * 1024 * 1024);
        let xml = document_xml(&format!("<w:p><w:r><w:t>{padding}</w:t></w:r></w:p>"));
        let bomb = docx_with_parts(&[("word/document.xml", xml.as_bytes())]);
        assert!(bomb.len() < 64 * 1024, "the bomb is {} bytes", bomb.len());
        let refused = refusal(extract_text(&bomb, None, "/brief.docx"));
        assert_eq!(
            refused,
            "the DOCX has an entry that inflates more than 100:1 (a zip bomb?)"
        );
    }

    #[test]
    fn truncated_files_are_refused_or_read_without_panicking() {
        let pdf = brief_pdf();
        let docx = brief_docx();
        for file in [&pdf, &docx] {
            for end in (0..file.len()).step_by(7) {
                let _ = extract_text(&file[..end], None, "/brief");
            }
        }
        // A zip without its central directory has no index to read from.
        let refused = refusal(extract_text(&docx[..docx.len() / 2], None, "/brief.docx"));
        assert!(
            refused.starts_with("not a readable zip archive"),
            "{refused}"
        );
    }

    /// Random and mutated bytes straight into the parsers, without the panic
    /// guard, so a panic in lopdf, zip or quick-xml fails this test.
    #[test]
    fn random_and_mutated_bytes_never_panic_the_readers() {
        let mut rng = StdRng::seed_from_u64(0x1e75_7ac4);
        let seeds = [brief_pdf(), brief_docx(), pdf_without_text(1)];
        for round in 0..1_500 {
            let mut bytes = match round % 4 {
                0 => {
                    let mut bytes = b"%PDF-1.7\n".to_vec();
                    bytes.extend((0..rng.random_range(0..4096)).map(|_| rng.random::<u8>()));
                    bytes
                }
                1 => {
                    let mut bytes = b"PK\x03\x04".to_vec();
                    bytes.extend((0..rng.random_range(0..4096)).map(|_| rng.random::<u8>()));
                    bytes
                }
                _ => seeds[rng.random_range(0..seeds.len())].clone(),
            };
            if round % 4 >= 2 {
                for _ in 0..rng.random_range(1..24) {
                    let at = rng.random_range(0..bytes.len());
                    bytes[at] = rng.random();
                }
            }
            let _ = if bytes.starts_with(b"%PDF-") {
                pdf::read(&bytes)
            } else {
                docx::read(&bytes, &docx::Limits::DEFAULT)
            };
            let _ = extract_text(&bytes, None, "/fuzz");
        }
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..rng.random_range(0..2048))
                .map(|_| rng.random())
                .collect();
            let _ = extract_text(&bytes, None, "/fuzz");
        }
    }
}
