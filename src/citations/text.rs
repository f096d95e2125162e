//! Small helpers over document text: neighbouring characters and
//! code-point offsets.

/// The character ending at byte `pos`, if `pos` is a boundary inside text.
pub(crate) fn char_before(text: &str, pos: usize) -> Option<char> {
    text.get(..pos)?.chars().next_back()
}

/// The character starting at byte `pos`.
pub(crate) fn char_after(text: &str, pos: usize) -> Option<char> {
    text.get(pos..)?.chars().next()
}

/// Whether `c` is a character web pages and PDFs scatter inside words and
/// names that joins or marks, never separates, and shows nothing: the
/// zero-width characters and the invisible operators ("S.\u{200d} Ct."),
/// the marks, embeddings and isolates of bidirectional text
/// ("\u{202b}Texas v. Brown\u{202c}") and the byte-order mark. (A soft
/// hyphen is not one: before a line break it joins a word's halves.)
pub fn is_invisible_mark(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// Bytes per checkpoint of [`CodePoints`].
const BLOCK: usize = 256;

/// Converts byte offsets into code-point offsets (what Python and the
/// scorer count) in O(1) amortised per offset.
pub struct CodePoints<'t> {
    text: &'t str,
    /// Code points before each `BLOCK`-byte boundary.
    checkpoints: Vec<usize>,
}

impl<'t> CodePoints<'t> {
    pub fn new(text: &'t str) -> CodePoints<'t> {
        let bytes = text.as_bytes();
        let mut checkpoints = Vec::with_capacity(bytes.len() / BLOCK + 1);
        let mut count = 0;
        for block in bytes.chunks(BLOCK) {
            checkpoints.push(count);
            count += block.iter().filter(|&&b| !is_continuation(b)).count();
        }
        checkpoints.push(count);
        CodePoints { text, checkpoints }
    }

    /// The code-point offset of byte offset `byte` (clamped to the text).
    pub fn offset(&self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        let block = byte / BLOCK;
        let from = block * BLOCK;
        let within = self.text.as_bytes()[from..byte]
            .iter()
            .filter(|&&b| !is_continuation(b))
            .count();
        self.checkpoints[block] + within
    }
}

fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_points_match_char_counts() {
        let text = "§ 1983 — “Smith” ".repeat(40);
        let cp = CodePoints::new(&text);
        for (byte, _) in text.char_indices() {
            assert_eq!(cp.offset(byte), text[..byte].chars().count());
        }
        assert_eq!(cp.offset(text.len()), text.chars().count());
        assert_eq!(cp.offset(usize::MAX), text.chars().count());
    }

    #[test]
    fn neighbours() {
        assert_eq!(char_before("a§b", 3), Some('§'));
        assert_eq!(char_after("a§b", 1), Some('§'));
        assert_eq!(char_before("a§b", 2), None);
        assert_eq!(char_after("ab", 2), None);
    }
}
