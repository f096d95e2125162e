//! The text of a DOCX: a zip archive whose `word/document.xml` holds the
//! body, and `word/footnotes.xml` and `word/endnotes.xml` the notes, where
//! briefs keep many of their citations.

use std::io::{Cursor, Read};

use quick_xml::Reader;
use quick_xml::events::{BytesRef, Event};
use zip::ZipArchive;
use zip::read::{ArchiveOffset, Config};

use super::read::{Document, DocumentKind, MAX_TEXT_BYTES, Unreadable, describe_size};

const BODY: &str = "word/document.xml";
const NOTES: [&str; 2] = ["word/footnotes.xml", "word/endnotes.xml"];

/// Zip-bomb bounds. The declared sizes in the central directory are checked
/// before anything is inflated, and the parts read are bounded again while
/// they inflate, since declared sizes can lie.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// A real DOCX has tens of parts, a few hundred with many images.
    pub max_entries: usize,
    /// Declared uncompressed size of all entries together.
    pub max_total_uncompressed: u64,
    /// Largest uncompressed size of one part that is read.
    pub max_part_bytes: u64,
    /// Largest inflation ratio of an entry above `RATIO_FLOOR` bytes; Word's
    /// XML deflates about 10:1.
    pub max_ratio: u64,
}

impl Limits {
    pub const DEFAULT: Limits = Limits {
        max_entries: 5_000,
        max_total_uncompressed: 256 * 1024 * 1024,
        max_part_bytes: 64 * 1024 * 1024,
        max_ratio: 100,
    };
}

/// Small entries may compress well beyond any ratio without harm.
const RATIO_FLOOR: u64 = 1024 * 1024;

pub(super) fn read(bytes: &[u8], limits: &Limits) -> Result<Document, Unreadable> {
    // The archive must start where its first local header is: no offset
    // detection that would let a zip hide behind other data.
    let config = Config {
        archive_offset: ArchiveOffset::Known(0),
    };
    let mut archive = ZipArchive::with_config(config, Cursor::new(bytes))
        .map_err(|err| Unreadable(format!("not a readable zip archive: {err}")))?;
    check_archive(&archive, limits)?;
    if archive.index_for_name(BODY).is_none() {
        return Err(Unreadable(
            "a zip archive without word/document.xml: not a DOCX document".into(),
        ));
    }
    let mut text = String::new();
    let body = read_part(&mut archive, BODY, limits)?;
    append_xml_text(&body, &mut text)?;
    for name in NOTES {
        if archive.index_for_name(name).is_some() {
            let notes = read_part(&mut archive, name, limits)?;
            text.push('\n');
            append_xml_text(&notes, &mut text)?;
        }
    }
    Ok(Document {
        text,
        kind: DocumentKind::Docx,
        pages: None,
    })
}

fn check_archive(archive: &ZipArchive<Cursor<&[u8]>>, limits: &Limits) -> Result<(), Unreadable> {
    if archive.len() > limits.max_entries {
        return Err(Unreadable(format!(
            "the DOCX has {} entries; at most {} are accepted",
            archive.len(),
            limits.max_entries
        )));
    }
    // Two entries of one name can make a reader and a validator disagree on
    // which one is the document.
    if archive.has_duplicate_names() {
        return Err(Unreadable(
            "the DOCX has two entries of the same name".into(),
        ));
    }
    let mut total: u64 = 0;
    for index in 0..archive.len() {
        let entry = archive
            .by_index_data(index)
            .map_err(|err| Unreadable(format!("the DOCX is malformed: {err}")))?;
        if entry.encrypted() {
            return Err(Unreadable(
                "the DOCX is encrypted; upload an unprotected copy".into(),
            ));
        }
        check_ratio(entry.size(), entry.compressed_size(), limits)?;
        total = total.saturating_add(entry.size());
        if total > limits.max_total_uncompressed {
            return Err(Unreadable(format!(
                "the DOCX inflates to more than {}",
                describe_size(limits.max_total_uncompressed)
            )));
        }
    }
    Ok(())
}

fn check_ratio(size: u64, compressed_size: u64, limits: &Limits) -> Result<(), Unreadable> {
    if size > RATIO_FLOOR && size / compressed_size.max(1) > limits.max_ratio {
        return Err(Unreadable(format!(
            "the DOCX has an entry that inflates more than {}:1 (a zip bomb?)",
            limits.max_ratio
        )));
    }
    Ok(())
}

fn read_part(
    archive: &mut ZipArchive<Cursor<&[u8]>>,
    name: &str,
    limits: &Limits,
) -> Result<Vec<u8>, Unreadable> {
    let malformed =
        |err: &dyn std::fmt::Display| Unreadable(format!("{name} is unreadable: {err}"));
    let entry = archive.by_name(name).map_err(|err| malformed(&err))?;
    if entry.is_dir() {
        return Err(Unreadable(format!("{name} is a folder, not a file")));
    }
    let compressed_size = entry.compressed_size();
    let mut bytes = Vec::new();
    entry
        .take(limits.max_part_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| malformed(&err))?;
    let size = bytes.len() as u64;
    if size > limits.max_part_bytes {
        return Err(Unreadable(format!(
            "{name} inflates to more than {}",
            describe_size(limits.max_part_bytes)
        )));
    }
    check_ratio(size, compressed_size, limits)?;
    Ok(bytes)
}

/// Appends the text of a WordprocessingML part: the content of `t` elements
/// in reading order, a newline after each paragraph and for each line break,
/// a tab for each tab. Deleted text (`delText`), field instructions
/// (`instrText`) and the fallback copy of alternate content are left out, as
/// the reader of the document does not see them.
fn append_xml_text(xml: &[u8], text: &mut String) -> Result<(), Unreadable> {
    let malformed =
        |err: &dyn std::fmt::Display| Unreadable(format!("the DOCX holds malformed XML: {err}"));
    let xml = std::str::from_utf8(xml).map_err(|err| malformed(&err))?;
    let mut reader = Reader::from_str(xml.strip_prefix('\u{feff}').unwrap_or(xml));
    let mut runs = 0usize;
    let mut texts = 0usize;
    let mut fallbacks = 0usize;
    loop {
        let event = reader.read_event().map_err(|err| malformed(&err))?;
        let visible = fallbacks == 0;
        match event {
            Event::Start(element) => match element.local_name().as_ref() {
                "r" => runs += 1,
                "t" => texts += 1,
                "Fallback" => fallbacks += 1,
                _ => {}
            },
            Event::End(element) => match element.local_name().as_ref() {
                "r" => runs = runs.saturating_sub(1),
                "t" => texts = texts.saturating_sub(1),
                "Fallback" => fallbacks = fallbacks.saturating_sub(1),
                "p" if visible => text.push('\n'),
                _ => {}
            },
            // Tab stops (`tabs/tab` in paragraph properties) are outside runs.
            Event::Empty(element) if visible => match (element.local_name().as_ref(), runs > 0) {
                ("p", _) => text.push('\n'),
                ("tab", true) => text.push('\t'),
                ("br" | "cr", true) => text.push('\n'),
                ("noBreakHyphen", true) => text.push('-'),
                _ => {}
            },
            Event::Text(content) if visible && texts > 0 => text.push_str(&content.xml10_content()),
            Event::CData(content) if visible && texts > 0 => {
                text.push_str(&content.xml10_content());
            }
            Event::GeneralRef(reference) if visible && texts > 0 => {
                if let Some(c) = resolve_reference(&reference) {
                    text.push(c);
                }
            }
            Event::Eof => break,
            _ => {}
        }
        if text.len() > MAX_TEXT_BYTES {
            return Err(Unreadable(format!(
                "the DOCX holds more than {} of text",
                describe_size(MAX_TEXT_BYTES as u64)
            )));
        }
    }
    Ok(())
}

/// Character references and XML's five predefined entities. A DOCX declares
/// no others, and a document that does gets no expansion of them: no entity
/// can multiply text.
fn resolve_reference(reference: &BytesRef<'_>) -> Option<char> {
    if reference.is_char_ref() {
        return reference.resolve_char_ref().ok().flatten();
    }
    match reference.as_ref() {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use zip::CompressionMethod;

    use super::*;
    use crate::documents::testing::{brief_docx, document_xml, docx_with_parts, zip_with};

    fn refusal(bytes: &[u8], limits: &Limits) -> String {
        match read(bytes, limits) {
            Err(Unreadable(reason)) => reason,
            Ok(document) => panic!("expected Unreadable, read {document:?}"),
        }
    }

    /// Overwrites every occurrence of `from` with `to`, of the same length,
    /// in names of local and central headers alike.
    fn patch(bytes: &mut [u8], from: &[u8], to: &[u8]) {
        assert_eq!(from.len(), to.len());
        let mut found = 0;
        for at in 0..=bytes.len() - from.len() {
            if &bytes[at..at + from.len()] == from {
                bytes[at..at + from.len()].copy_from_slice(to);
                found += 1;
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn too_many_entries_are_refused() {
        let names: Vec<String> = (0..21).map(|i| format!("word/media/{i}.bin")).collect();
        let mut entries: Vec<(&str, &[u8])> =
            names.iter().map(|n| (n.as_str(), &b""[..])).collect();
        let xml = document_xml("");
        entries.push(("word/document.xml", xml.as_bytes()));
        let bytes = zip_with(&entries, CompressionMethod::Stored);
        let limits = Limits {
            max_entries: 20,
            ..Limits::DEFAULT
        };
        assert_eq!(
            refusal(&bytes, &limits),
            "the DOCX has 22 entries; at most 20 are accepted"
        );
    }

    #[test]
    fn too_much_declared_content_is_refused() {
        let image = vec![7u8; 40_000];
        let bytes = docx_with_parts(&[
            ("word/media/image1.png", &image),
            ("word/document.xml", document_xml("").as_bytes()),
        ]);
        let limits = Limits {
            max_total_uncompressed: 32 * 1024,
            ..Limits::DEFAULT
        };
        assert_eq!(
            refusal(&bytes, &limits),
            "the DOCX inflates to more than 32768 bytes"
        );
    }

    #[test]
    fn a_part_over_its_size_limit_is_refused_as_it_inflates() {
        let text = "Roe v. Wade, 410 U.S. 113. ".repeat(200);
        let xml = document_xml(&format!("<w:p><w:r><w:t>{text}</w:t></w:r></w:p>"));
        let bytes = docx_with_parts(&[("word/document.xml", xml.as_bytes())]);
        let limits = Limits {
            max_part_bytes: 4096,
            ..Limits::DEFAULT
        };
        assert_eq!(
            refusal(&bytes, &limits),
            "word/document.xml inflates to more than 4096 bytes"
        );
    }

    #[test]
    fn an_encrypted_entry_is_refused() {
        let mut bytes = brief_docx();
        // Bit 0 of the general purpose flags marks an entry encrypted, in the
        // local header (offset 6) and the central directory (offset 8).
        for (signature, offset) in [(&b"PK\x03\x04"[..], 6), (&b"PK\x01\x02"[..], 8)] {
            let at = bytes.windows(4).position(|w| w == signature).unwrap();
            bytes[at + offset] |= 1;
        }
        assert_eq!(
            refusal(&bytes, &Limits::DEFAULT),
            "the DOCX is encrypted; upload an unprotected copy"
        );
    }

    #[test]
    fn two_entries_of_one_name_are_refused() {
        let first = document_xml("<w:p><w:r><w:t>Roe v. Wade</w:t></w:r></w:p>");
        let second = document_xml("<w:p><w:r><w:t>Fake v. Case</w:t></w:r></w:p>");
        let mut bytes = docx_with_parts(&[
            ("word/document.xml", first.as_bytes()),
            ("word/documenX.xml", second.as_bytes()),
        ]);
        patch(&mut bytes, b"word/documenX.xml", b"word/document.xml");
        assert_eq!(
            refusal(&bytes, &Limits::DEFAULT),
            "the DOCX has two entries of the same name"
        );
    }

    #[test]
    fn a_folder_named_like_the_document_is_refused() {
        let bytes = docx_with_parts(&[("word/document.xml/", b"")]);
        let refused = refusal(&bytes, &Limits::DEFAULT);
        assert!(
            refused == "word/document.xml is a folder, not a file"
                || refused == "a zip archive without word/document.xml: not a DOCX document",
            "{refused}"
        );
    }

    #[test]
    fn custom_entities_are_not_expanded() {
        let xml = r#"<?xml version="1.0"?>
<!DOCTYPE w:document [<!ENTITY lol "lololololol"><!ENTITY lol2 "&lol;&lol;&lol;">]>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:t>a&lol2;b</w:t></w:r></w:p></w:body></w:document>"#;
        let bytes = docx_with_parts(&[("word/document.xml", xml.as_bytes())]);
        assert_eq!(read(&bytes, &Limits::DEFAULT).unwrap().text, "ab\n");
    }
}
