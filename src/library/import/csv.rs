//! A streaming CSV reader for the two dialects the bulk files use:
//! Postgres `COPY … (FORMAT csv, HEADER, ESCAPE '\', FORCE_QUOTE *)` — every
//! value quoted, backslash escapes, an unquoted empty field is NULL — and
//! plain RFC 4180 (doubled quotes), as in SCDB. Fields may hold newlines.
//! A malformed row is reported with its line and column and skipped; the
//! reader goes on with the next row.

use std::io::BufRead;
use std::ops::Range;
use std::sync::Arc;

use super::{InputMeter, MAX_RECORD_BYTES, longer_than_any_record};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// CourtListener's bulk files.
    Postgres,
    /// RFC 4180: `""` inside quotes is one quote; no escape character.
    Rfc4180,
}

/// One row: its fields' text in one string (one allocation a row, not one
/// a field: the reader is the import's one serial stage).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Line (1-based) where the row starts.
    pub line: u64,
    text: String,
    /// Each field's place in `text`; `None` is SQL NULL (an unquoted empty
    /// field).
    spans: Vec<Option<Range<usize>>>,
    /// Some field was not UTF-8 and was read as Windows-1252.
    pub recoded: bool,
}

impl Row {
    /// A row of these fields.
    pub fn of<'a>(line: u64, fields: impl IntoIterator<Item = Option<&'a str>>) -> Self {
        let mut text = String::new();
        let spans = fields
            .into_iter()
            .map(|field| {
                field.map(|value| {
                    text.push_str(value);
                    text.len() - value.len()..text.len()
                })
            })
            .collect();
        Self {
            line,
            text,
            spans,
            recoded: false,
        }
    }

    /// Field `index`: `None` when it is NULL or the row has no such field.
    pub fn field(&self, index: usize) -> Option<&str> {
        let span = self.spans.get(index)?.clone()?;
        self.text.get(span)
    }

    pub fn len(&self) -> usize {
        self.spans.len()
    }

    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }
}

/// A row that cannot be read: where, and why. Columns are bytes counted
/// from 1 (the byte at fault); column 0 is the row as a whole (its count of
/// fields), so no column is named.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}{}: {message}", at_column(*column))]
pub struct RowError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

fn at_column(column: u64) -> String {
    if column == 0 {
        String::new()
    } else {
        format!(" column {column}")
    }
}

pub struct CsvReader<R> {
    input: R,
    dialect: Dialect,
    line: u64,
    column: u64,
    header: Vec<String>,
    done: bool,
    /// The size of the last row, to size the next one's buffer.
    row_bytes_hint: usize,
    /// Whether the row being read outgrew [`MAX_RECORD_BYTES`]: the rest of
    /// it is read but not kept.
    row_overflow: bool,
    /// Where a file that ends inside a quoted field is reported as cut
    /// short ([`Self::reporting_cuts_to`]).
    cuts: Option<Arc<InputMeter>>,
}

/// Rows are sized after the last one up to this; a longer one grows.
const MAX_ROW_BYTES_HINT: usize = 1 << 16;

/// A header with more columns than this is not a bulk file's.
const MAX_HEADER_FIELDS: usize = 10_000;

enum Step {
    Row(RawRow),
    Malformed(RowError),
    End,
}

/// A row's bytes as read, with its fields' places in them: the places of
/// at most `max_fields` fields (a row of more is malformed, and a row of a
/// million empty fields must not take a million places), all counted.
struct RawRow {
    bytes: Vec<u8>,
    spans: Vec<Option<Range<usize>>>,
    fields: usize,
    max_fields: usize,
}

impl RawRow {
    /// Ends the field that began at `start`; an unquoted empty field is
    /// NULL.
    fn end_field(&mut self, start: usize, quoted: bool) {
        self.fields += 1;
        if self.spans.len() < self.max_fields {
            let span = start..self.bytes.len();
            self.spans
                .push((quoted || !span.is_empty()).then_some(span));
        }
    }

    /// A line with nothing on it: one unquoted, empty field.
    fn is_blank(&self) -> bool {
        self.fields == 1 && self.spans.first() == Some(&None)
    }

    /// The row as text: UTF-8, or else each field that is not UTF-8 read as
    /// Windows-1252 ([`text`]).
    fn into_row(self, line: u64) -> Row {
        // Fields are read apart: a character whose bytes two fields share
        // (a field ending in half of one) makes neither field UTF-8.
        let whole_characters = |text: &str| {
            self.spans
                .iter()
                .flatten()
                .all(|span| text.is_char_boundary(span.start) && text.is_char_boundary(span.end))
        };
        match String::from_utf8(self.bytes) {
            Ok(text) if whole_characters(&text) => Row {
                line,
                text,
                spans: self.spans,
                recoded: false,
            },
            read => {
                let bytes = match read {
                    Ok(text) => text.into_bytes(),
                    Err(err) => err.into_bytes(),
                };
                let fields: Vec<Option<String>> = self
                    .spans
                    .iter()
                    .map(|span| span.clone().map(|span| text(&bytes[span])))
                    .collect();
                Row {
                    recoded: true,
                    ..Row::of(line, fields.iter().map(Option::as_deref))
                }
            }
        }
    }
}

impl<R: BufRead> CsvReader<R> {
    /// Reports a file that ends inside a quoted field to `meter` as cut
    /// short, so its import fails as a truncated compressed file's does: a
    /// whole file ends between rows.
    pub fn reporting_cuts_to(mut self, meter: Arc<InputMeter>) -> Self {
        self.cuts = Some(meter);
        self
    }

    /// Reads the header row.
    pub fn new(mut input: R, dialect: Dialect) -> Result<Self, RowError> {
        super::skip_byte_order_mark(&mut input);
        let mut reader = Self {
            input,
            dialect,
            line: 1,
            column: 0,
            header: Vec::new(),
            done: false,
            row_bytes_hint: 0,
            row_overflow: false,
            cuts: None,
        };
        match reader.next() {
            Some(Ok(row)) => {
                reader.header = (0..row.len())
                    .map(|i| row.field(i).unwrap_or_default().to_string())
                    .collect();
                Ok(reader)
            }
            Some(Err(err)) => Err(err),
            None => Err(RowError {
                line: 1,
                column: 0,
                message: "empty file: no header row".into(),
            }),
        }
    }

    pub fn header(&self) -> &[String] {
        &self.header
    }

    /// The index of a header column.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// Those of `names` the header lacks.
    pub fn missing_columns<'a>(&self, names: &[&'a str]) -> Vec<&'a str> {
        names
            .iter()
            .copied()
            .filter(|name| self.column(name).is_none())
            .collect()
    }

    fn byte(&mut self) -> Option<u8> {
        let buffer = self.input.fill_buf().ok()?;
        let byte = *buffer.first()?;
        self.input.consume(1);
        self.advance_position(&[byte]);
        Some(byte)
    }

    fn peek(&mut self) -> Option<u8> {
        self.input.fill_buf().ok()?.first().copied()
    }

    fn advance_position(&mut self, consumed: &[u8]) {
        let (lines, column) = position_step(consumed);
        self.apply_position(lines, column, consumed.len());
    }

    fn apply_position(&mut self, lines: u64, column_after_newline: Option<u64>, len: usize) {
        self.line += lines;
        match column_after_newline {
            Some(column) => self.column = column,
            None => self.column += len as u64,
        }
    }

    /// Appends bytes to `field` up to (not including) the first of `stops`,
    /// scanning the buffer a slice at a time; returns that stop byte, or
    /// `None` at the end of the input. Once the row outgrows
    /// [`MAX_RECORD_BYTES`], and always when `field` is `None` (skipping a
    /// malformed row), the bytes are read but not kept.
    fn take_until(&mut self, mut field: Option<&mut Vec<u8>>, stops: &[u8]) -> Option<u8> {
        loop {
            let buffer = match self.input.fill_buf() {
                Ok(buffer) if !buffer.is_empty() => buffer,
                _ => return None,
            };
            let found = match stops {
                [a] => memchr::memchr(*a, buffer),
                [a, b] => memchr::memchr2(*a, *b, buffer),
                [a, b, c, ..] => memchr::memchr3(*a, *b, *c, buffer),
                [] => None,
            };
            let (taken, stop) = match found {
                Some(at) => (at, Some(buffer[at])),
                None => (buffer.len(), None),
            };
            if let Some(field) = field.as_deref_mut()
                && !self.row_overflow
            {
                if field.len() + taken <= MAX_RECORD_BYTES {
                    field.extend_from_slice(&buffer[..taken]);
                } else {
                    self.row_overflow = true;
                }
            }
            let (lines, column) = position_step(&buffer[..taken]);
            self.input.consume(taken);
            self.apply_position(lines, column, taken);
            if stop.is_some() {
                return stop;
            }
        }
    }

    /// Reports a malformed field where it was found, then skips to the end
    /// of that line so the next row can be read.
    fn malformed(&mut self, message: impl Into<String>) -> Step {
        let error = RowError {
            line: self.line,
            column: self.column,
            message: message.into(),
        };
        if self.take_until(None, b"\n").is_some() {
            self.byte();
        }
        Step::Malformed(error)
    }

    fn read_row(&mut self) -> Step {
        if self.peek().is_none() {
            return Step::End;
        }
        self.row_overflow = false;
        let max_fields = match self.header.len() {
            0 => MAX_HEADER_FIELDS,
            columns => columns,
        };
        let mut row = RawRow {
            bytes: Vec::with_capacity(self.row_bytes_hint),
            spans: Vec::with_capacity(max_fields.min(1024)),
            fields: 0,
            max_fields,
        };
        loop {
            let start = row.bytes.len();
            if self.peek() == Some(b'"') {
                // Where the quote opens: the end of the file says nothing
                // about which field was left open. `self.column` counts the
                // bytes before it.
                let (line, column) = (self.line, self.column + 1);
                self.byte();
                if !self.read_quoted(&mut row.bytes) {
                    if let Some(meter) = &self.cuts {
                        meter.record_fault(format!(
                            "the file ends inside a quoted field (line {line}{}), as a file cut \
                             short does",
                            at_column(column)
                        ));
                    }
                    return Step::Malformed(RowError {
                        line,
                        column,
                        message: "end of file inside the quoted field that starts here".into(),
                    });
                }
                row.end_field(start, true);
                match self.byte() {
                    Some(b',') => continue,
                    Some(b'\n') | None => return Step::Row(row),
                    Some(b'\r') if self.peek() == Some(b'\n') => {
                        self.byte();
                        return Step::Row(row);
                    }
                    Some(other) => {
                        // The quote may have been left open lines before:
                        // say where, since that row and those after it
                        // are what was lost.
                        let opened = (line < self.line).then(|| {
                            format!(
                                "; the quoted field it closes opened on line {line}{}: a \
                                 quote left open there took in the lines after it, and the \
                                 rows on them",
                                at_column(column)
                            )
                        });
                        return self.malformed(format!(
                            "unexpected {:?} after a closing quote{}",
                            char::from(other),
                            opened.unwrap_or_default()
                        ));
                    }
                }
            }
            // Unquoted: up to the next comma or end of line.
            let stops: &[u8] = match self.dialect {
                Dialect::Postgres => b",\n\"",
                Dialect::Rfc4180 => b",\n",
            };
            let stop = self.take_until(Some(&mut row.bytes), stops);
            if stop == Some(b'"') {
                // Taken, so the column counted is the quote's own.
                self.byte();
                return self.malformed("quote inside an unquoted field");
            }
            if stop.is_some() {
                self.byte();
            }
            if row.bytes.len() > start && row.bytes.last() == Some(&b'\r') {
                row.bytes.pop();
            }
            row.end_field(start, false);
            if stop != Some(b',') {
                return Step::Row(row);
            }
        }
    }

    /// Appends a byte read by itself (an escaped quote) to the row, within
    /// [`MAX_RECORD_BYTES`].
    fn keep(&mut self, field: &mut Vec<u8>, byte: u8) {
        if self.row_overflow {
            return;
        }
        if field.len() < MAX_RECORD_BYTES {
            field.push(byte);
        } else {
            self.row_overflow = true;
        }
    }

    /// Reads a quoted value after its opening quote, up to and including the
    /// closing quote; false when the input ends first.
    fn read_quoted(&mut self, field: &mut Vec<u8>) -> bool {
        let stops: &[u8] = match self.dialect {
            Dialect::Postgres => b"\"\\",
            Dialect::Rfc4180 => b"\"",
        };
        loop {
            match self.take_until(Some(field), stops) {
                None => return false,
                Some(b'\\') => {
                    self.byte();
                    match self.peek() {
                        Some(next @ (b'"' | b'\\')) => {
                            self.byte();
                            self.keep(field, next);
                        }
                        _ => self.keep(field, b'\\'),
                    }
                }
                Some(_) => {
                    self.byte();
                    if self.peek() == Some(b'"') {
                        self.byte();
                        self.keep(field, b'"');
                    } else {
                        return true;
                    }
                }
            }
        }
    }
}

/// Newlines in `bytes`, and the column after the last one if any.
fn position_step(bytes: &[u8]) -> (u64, Option<u64>) {
    match memchr::memrchr(b'\n', bytes) {
        Some(last) => (
            memchr::memchr_iter(b'\n', bytes).count() as u64,
            Some((bytes.len() - last - 1) as u64),
        ),
        None => (0, None),
    }
}

/// A field's text: UTF-8, or else Windows-1252, which older SCDB releases
/// are written in, rather than U+FFFD for every accented letter.
fn text(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&byte| windows_1252(byte)).collect(),
    }
}

/// The Windows-1252 character of a byte: Latin-1's, but for the
/// punctuation and letters it puts at 0x80–0x9F ("O’BRIEN" has 0x92). The
/// five bytes it leaves undefined stay Latin-1's.
fn windows_1252(byte: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match byte {
        0x80..=0x9f => HIGH[usize::from(byte - 0x80)],
        _ => char::from(byte),
    }
}

impl<R: BufRead> Iterator for CsvReader<R> {
    type Item = Result<Row, RowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut line = self.line;
        let mut step = self.read_row();
        // A blank line ("\n" or "\r\n", wherever the buffer splits it)
        // holds no row (a file's last line break doubled, say), unless the
        // file has one column, where it is a row with an empty field.
        while matches!(&step, Step::Row(row) if row.is_blank() && self.header.len() != 1) {
            line = self.line;
            step = self.read_row();
        }
        match step {
            Step::End => {
                self.done = true;
                None
            }
            Step::Row(row) => {
                let fields = row.fields;
                if self.row_overflow {
                    return Some(Err(RowError {
                        line,
                        column: 0,
                        message: format!("the row is {}", longer_than_any_record()),
                    }));
                }
                if self.header.is_empty() && fields > MAX_HEADER_FIELDS {
                    return Some(Err(RowError {
                        line,
                        column: 0,
                        message: format!("the header has more than {MAX_HEADER_FIELDS} columns"),
                    }));
                }
                if !self.header.is_empty() && fields != self.header.len() {
                    return Some(Err(RowError {
                        line,
                        column: 0,
                        message: format!(
                            "{fields} fields where the header has {}",
                            self.header.len()
                        ),
                    }));
                }
                self.row_bytes_hint = row.bytes.len().min(MAX_ROW_BYTES_HINT);
                Some(Ok(row.into_row(line)))
            }
            Step::Malformed(error) => {
                if self.peek().is_none() {
                    self.done = true;
                }
                Some(Err(error))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Writes rows as the dialect's writer does: every value quoted, NULL an
    /// unquoted empty field.
    fn write(rows: &[Vec<Option<String>>], dialect: Dialect, crlf: bool) -> String {
        let mut out = String::new();
        for row in rows {
            let fields: Vec<String> = row
                .iter()
                .map(|field| match field {
                    None => String::new(),
                    Some(value) => {
                        let escaped = match dialect {
                            Dialect::Postgres => value.replace('\\', "\\\\").replace('"', "\\\""),
                            Dialect::Rfc4180 => value.replace('"', "\"\""),
                        };
                        format!("\"{escaped}\"")
                    }
                })
                .collect();
            out.push_str(&fields.join(","));
            out.push_str(if crlf { "\r\n" } else { "\n" });
        }
        out
    }

    /// Values with everything the formats escape or carry: quotes,
    /// backslashes, commas, line breaks, and letters beyond ASCII.
    fn value() -> impl Strategy<Value = Option<String>> {
        prop::option::of("[a-z\"\\\\,\n\r é’]{0,12}")
    }

    proptest! {
        #[test]
        fn rows_read_back_as_written(
            rows in prop::collection::vec(prop::collection::vec(value(), 3), 1..8),
            rfc in any::<bool>(),
            crlf in any::<bool>(),
            blank_lines in any::<bool>(),
            buffer_bytes in 1usize..8,
        ) {
            let dialect = if rfc { Dialect::Rfc4180 } else { Dialect::Postgres };
            let header = vec![Some("a".to_string()), Some("b".into()), Some("c".into())];
            let mut text = write(&[header], dialect, crlf);
            for row in &rows {
                text.push_str(&write(std::slice::from_ref(row), dialect, crlf));
                if blank_lines {
                    // A doubled line break, which a small buffer splits
                    // anywhere (between "\r" and "\n" too).
                    text.push_str(if crlf { "\r\n" } else { "\n" });
                }
            }
            let input = std::io::BufReader::with_capacity(buffer_bytes, text.as_bytes());
            let reader = CsvReader::new(input, dialect).unwrap();
            let read: Vec<Vec<Option<String>>> = reader
                .map(|row| {
                    let row = row.unwrap();
                    (0..row.len()).map(|i| row.field(i).map(str::to_string)).collect()
                })
                .collect();
            prop_assert_eq!(read, rows);
        }
    }

    fn rows(text: &str, dialect: Dialect) -> (Vec<String>, Vec<Result<Row, RowError>>) {
        let reader = CsvReader::new(text.as_bytes(), dialect).unwrap();
        let header = reader.header().to_vec();
        (header, reader.collect())
    }

    #[test]
    fn a_field_that_is_not_utf8_is_read_as_windows_1252() {
        let bytes =
            b"\"id\",\"name\"\n\"1\",\"P\xe9rez v. Ni\xf1o\"\n\"2\",\"\xc3\xa9\"\n\"3\",\"O\x92BRIEN \x96 \x93X\x94\"\n";
        let reader = CsvReader::new(&bytes[..], Dialect::Rfc4180).unwrap();
        let rows: Vec<Row> = reader.map(Result::unwrap).collect();
        let names: Vec<&str> = rows.iter().map(|row| row.field(1).unwrap()).collect();
        assert_eq!(names, ["Pérez v. Niño", "é", "O’BRIEN – “X”"]);
        // So that the import can say which rows it read otherwise.
        let recoded: Vec<bool> = rows.iter().map(|row| row.recoded).collect();
        assert_eq!(recoded, [true, false, true]);
    }

    #[test]
    fn a_row_longer_than_the_limit_is_read_to_its_end_but_not_kept() {
        use std::io::Read;
        let long = std::io::repeat(b'x').take(MAX_RECORD_BYTES as u64 + 10);
        let input = (&b"\"a\",\"b\"\n\"1\",\""[..])
            .chain(long)
            .chain(&b"\"\n\"2\",\"ok\"\n"[..]);
        let mut reader = CsvReader::new(std::io::BufReader::new(input), Dialect::Postgres).unwrap();
        let error = reader.next().unwrap().unwrap_err();
        assert!(error.message.contains("longer than 64 MiB"), "{error}");
        assert_eq!(error.line, 2);
        let next = reader.next().unwrap().unwrap();
        assert_eq!((next.line, next.field(1)), (3, Some("ok")));
        assert!(reader.next().is_none());
    }

    #[test]
    fn a_row_of_more_fields_than_the_header_is_counted_not_kept() {
        let mut text = String::from("\"a\",\"b\"\n\"1\"");
        text.push_str(&",".repeat(100_000));
        text.push_str("\n\"2\",\"3\"\n");
        let (_, rows) = rows(&text, Dialect::Postgres);
        let error = rows[0].as_ref().unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 2: 100001 fields where the header has 2",
            "the row as a whole: no column"
        );
        assert_eq!(rows[1].as_ref().unwrap().field(1), Some("3"));
    }

    #[test]
    fn blank_lines_hold_no_row_unless_the_file_has_one_column() {
        let (_, rows_read) = rows("\"a\",\"b\"\n\n\"1\",\"2\"\n\r\n\n", Dialect::Postgres);
        assert_eq!(rows_read.len(), 1);
        let row = rows_read[0].as_ref().unwrap();
        assert_eq!((row.line, row.field(0)), (3, Some("1")));
        let (_, one_column) = rows("a\n1\n\n2\n", Dialect::Rfc4180);
        let values: Vec<Option<String>> = one_column
            .iter()
            .map(|row| row.as_ref().unwrap().field(0).map(str::to_string))
            .collect();
        assert_eq!(values, [Some("1".into()), None, Some("2".into())]);
    }

    #[test]
    fn a_character_split_between_two_fields_is_neither_fields_utf8() {
        // "\xc3" ends one field and "\xa9" begins the next: together the
        // bytes of "é", apart two Windows-1252 characters.
        let bytes = b"\"a\",\"b\"\n\"x\xc3\",\"\xa9y\"\n";
        let mut reader = CsvReader::new(&bytes[..], Dialect::Postgres).unwrap();
        let row = reader.next().unwrap().unwrap();
        assert_eq!((row.field(0), row.field(1)), (Some("xÃ"), Some("©y")));
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_header() {
        let (header, rows) = rows("\u{feff}\"id\",\"name\"\n\"1\",\"A\"\n", Dialect::Postgres);
        assert_eq!(header, ["id", "name"]);
        assert_eq!(rows.len(), 1);
    }

    #[test]
    fn postgres_quirks() {
        let text = "\"id\",\"text\",\"n\"\n\"1\",\"say \\\"hi\\\"\nnext line\",\n\"2\",\"back\\\\slash\",\"\"\n";
        let (header, rows) = rows(text, Dialect::Postgres);
        assert_eq!(header, ["id", "text", "n"]);
        let first = rows[0].as_ref().unwrap();
        assert_eq!(first.line, 2);
        assert_eq!(first.field(1), Some("say \"hi\"\nnext line"));
        assert_eq!(first.field(2), None, "unquoted empty is NULL");
        let second = rows[1].as_ref().unwrap();
        assert_eq!(second.line, 4);
        assert_eq!(second.field(1), Some("back\\slash"));
        assert_eq!(second.field(2), Some(""), "quoted empty is an empty string");
    }

    #[test]
    fn malformed_rows_are_reported_and_skipped() {
        let text = "\"a\",\"b\"\n\"1\",\"2\"x\n\"3\"\n\"4\",\"5\"\n";
        let (_, rows) = rows(text, Dialect::Postgres);
        assert_eq!(rows.len(), 3);
        let err = rows[0].as_ref().unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.contains("after a closing quote"));
        let err = rows[1].as_ref().unwrap_err();
        assert!(err.message.contains("1 fields"), "{err}");
        assert_eq!(rows[2].as_ref().unwrap().field(1), Some("5"));
    }

    #[test]
    fn unterminated_quote_at_the_end() {
        let (_, read) = rows("\"a\"\n\"b\"\n\"open\n", Dialect::Postgres);
        assert_eq!(read.len(), 2);
        let error = read[1].as_ref().unwrap_err();
        assert!(error.message.contains("end of file"));
        assert_eq!(
            (error.line, error.column),
            (3, 1),
            "where the open quote is"
        );
        let (_, open) = rows("\"a\",\"b\"\n\"1\",\"open\n", Dialect::Postgres);
        assert_eq!(open[0].as_ref().unwrap_err().column, 5);
        let (_, left_open) = rows(
            "\"a\",\"b\"\n\"1\",\"open\n\"2\",\"x\"\n\"3\",\"y\"\n",
            Dialect::Postgres,
        );
        let error = left_open[0].as_ref().unwrap_err();
        assert_eq!(error.line, 3, "where the quote closed");
        assert!(
            error.message.contains("opened on line 2 column 5"),
            "{error}"
        );
        assert_eq!(left_open[1].as_ref().unwrap().field(1), Some("y"));
        let (_, stray) = rows("\"a\",\"b\"\n\"5\"7\",\"2\"\n", Dialect::Postgres);
        assert_eq!(
            stray[0].as_ref().unwrap_err().column,
            4,
            "the byte after the closing quote, counted the same way"
        );
        let (_, quote) = rows("\"a\",\"b\"\nF\"5\",\"2\"\n", Dialect::Postgres);
        assert_eq!(quote[0].as_ref().unwrap_err().column, 2, "the quote itself");
    }

    #[test]
    fn rfc4180_doubled_quotes_and_crlf() {
        let text = "a,b\r\n\"x \"\"y\"\"\",2\r\n,\r\n";
        let (_, rows) = rows(text, Dialect::Rfc4180);
        assert_eq!(rows[0].as_ref().unwrap().field(0), Some("x \"y\""));
        let empty = rows[1].as_ref().unwrap();
        assert_eq!(
            (empty.len(), empty.field(0), empty.field(1)),
            (2, None, None)
        );
    }
}
