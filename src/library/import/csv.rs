//! A streaming CSV reader for the two dialects the bulk files use:
//! Postgres `COPY … (FORMAT csv, HEADER, ESCAPE '\', FORCE_QUOTE *)` — every
//! value quoted, backslash escapes, an unquoted empty field is NULL — and
//! plain RFC 4180 (doubled quotes), as in SCDB. Fields may hold newlines.
//! A malformed row is reported with its line and column and skipped; the
//! reader goes on with the next row.

use std::io::BufRead;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// CourtListener's bulk files.
    Postgres,
    /// RFC 4180: `""` inside quotes is one quote; no escape character.
    Rfc4180,
}

/// One row: `None` is SQL NULL (an unquoted empty field).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Line (1-based) where the row starts.
    pub line: u64,
    pub fields: Vec<Option<String>>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line} column {column}: {message}")]
pub struct RowError {
    pub line: u64,
    pub column: u64,
    pub message: String,
}

pub struct CsvReader<R> {
    input: R,
    dialect: Dialect,
    line: u64,
    column: u64,
    header: Vec<String>,
    done: bool,
}

enum Step {
    Row(Vec<Option<String>>),
    Malformed(RowError),
    End,
}

impl<R: BufRead> CsvReader<R> {
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
        };
        match reader.next() {
            Some(Ok(row)) => {
                reader.header = row
                    .fields
                    .into_iter()
                    .map(Option::unwrap_or_default)
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
    /// `None` at the end of the input.
    fn take_until(&mut self, field: &mut Vec<u8>, stops: &[u8]) -> Option<u8> {
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
            field.extend_from_slice(&buffer[..taken]);
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
        let mut skipped = Vec::new();
        if self.take_until(&mut skipped, b"\n").is_some() {
            self.byte();
        }
        Step::Malformed(error)
    }

    fn read_row(&mut self) -> Step {
        let mut fields = Vec::new();
        let mut field: Vec<u8> = Vec::new();
        if self.peek().is_none() {
            return Step::End;
        }
        loop {
            if self.peek() == Some(b'"') {
                // Where the quote opens: the end of the file says nothing
                // about which field was left open.
                let (line, column) = (self.line, self.column);
                self.byte();
                if !self.read_quoted(&mut field) {
                    return Step::Malformed(RowError {
                        line,
                        column,
                        message: "end of file inside the quoted field that starts here".into(),
                    });
                }
                fields.push(Some(text(&field)));
                field.clear();
                match self.byte() {
                    Some(b',') => continue,
                    Some(b'\n') | None => return Step::Row(fields),
                    Some(b'\r') if self.peek() == Some(b'\n') => {
                        self.byte();
                        return Step::Row(fields);
                    }
                    Some(other) => {
                        return self.malformed(format!(
                            "unexpected {:?} after a closing quote",
                            char::from(other)
                        ));
                    }
                }
            }
            // Unquoted: up to the next comma or end of line.
            let stops: &[u8] = match self.dialect {
                Dialect::Postgres => b",\n\"",
                Dialect::Rfc4180 => b",\n",
            };
            match self.take_until(&mut field, stops) {
                Some(b',') => {
                    self.byte();
                    if field.last() == Some(&b'\r') {
                        field.pop();
                    }
                    fields.push(unquoted(&field));
                    field.clear();
                }
                Some(b'"') => return self.malformed("quote inside an unquoted field"),
                stop => {
                    if stop.is_some() {
                        self.byte();
                    }
                    if field.last() == Some(&b'\r') {
                        field.pop();
                    }
                    fields.push(unquoted(&field));
                    return Step::Row(fields);
                }
            }
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
            match self.take_until(field, stops) {
                None => return false,
                Some(b'\\') => {
                    self.byte();
                    match self.peek() {
                        Some(next @ (b'"' | b'\\')) => {
                            self.byte();
                            field.push(next);
                        }
                        _ => field.push(b'\\'),
                    }
                }
                Some(_) => {
                    self.byte();
                    if self.peek() == Some(b'"') {
                        self.byte();
                        field.push(b'"');
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

fn unquoted(bytes: &[u8]) -> Option<String> {
    if bytes.is_empty() {
        None
    } else {
        Some(text(bytes))
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
        let line = self.line;
        match self.read_row() {
            Step::End => {
                self.done = true;
                None
            }
            Step::Row(fields) => {
                if !self.header.is_empty() && fields.len() != self.header.len() {
                    return Some(Err(RowError {
                        line,
                        column: 0,
                        message: format!(
                            "{} fields where the header has {}",
                            fields.len(),
                            self.header.len()
                        ),
                    }));
                }
                Some(Ok(Row { line, fields }))
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
        let names: Vec<String> = reader
            .map(|row| row.unwrap().fields[1].clone().unwrap())
            .collect();
        assert_eq!(names, ["Pérez v. Niño", "é", "O’BRIEN – “X”"]);
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
        assert_eq!(first.fields[1].as_deref(), Some("say \"hi\"\nnext line"));
        assert_eq!(first.fields[2], None, "unquoted empty is NULL");
        let second = rows[1].as_ref().unwrap();
        assert_eq!(second.line, 4);
        assert_eq!(second.fields[1].as_deref(), Some("back\\slash"));
        assert_eq!(
            second.fields[2].as_deref(),
            Some(""),
            "quoted empty is an empty string"
        );
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
        assert_eq!(rows[2].as_ref().unwrap().fields[1].as_deref(), Some("5"));
    }

    #[test]
    fn unterminated_quote_at_the_end() {
        let (_, rows) = rows("\"a\"\n\"b\"\n\"open\n", Dialect::Postgres);
        assert_eq!(rows.len(), 2);
        let error = rows[1].as_ref().unwrap_err();
        assert!(error.message.contains("end of file"));
        assert_eq!(
            (error.line, error.column),
            (3, 0),
            "where the open quote is"
        );
    }

    #[test]
    fn rfc4180_doubled_quotes_and_crlf() {
        let text = "a,b\r\n\"x \"\"y\"\"\",2\r\n,\r\n";
        let (_, rows) = rows(text, Dialect::Rfc4180);
        assert_eq!(
            rows[0].as_ref().unwrap().fields[0].as_deref(),
            Some("x \"y\"")
        );
        assert_eq!(rows[1].as_ref().unwrap().fields, vec![None, None]);
    }
}
