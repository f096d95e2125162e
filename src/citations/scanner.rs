//! Finds the fixed strings citations hang on — reporter, law and journal
//! abbreviations, "Id.", "supra", "§" — with one byte trie.
//!
//! Spacing inside abbreviations varies ("F.3d", "F. 3d", "N. Y. S. 2d"), so
//! both the patterns and the text are folded the same way while walking:
//! whitespace after a period is ignored, any other whitespace run counts as
//! one space, and a typographic apostrophe counts as `'`. A scanner built
//! with [`Scanner::build_ignoring_case`] also folds ASCII letters to lower
//! case.

/// What a pattern found by the scanner stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// A reporter edition, by its own abbreviation (`exact`) or a variation.
    Edition {
        id: u32,
        exact: bool,
    },
    Law {
        id: u32,
        exact: bool,
    },
    /// A law template whose reporter begins with this fixed text.
    LawTemplate {
        law: u32,
        template: u32,
    },
    Journal {
        id: u32,
        exact: bool,
    },
    /// "Id." or "Ibid."
    Id,
    Supra,
    /// A section sign not claimed by a law citation.
    SectionSign,
    /// A cite to the record or a filing ("Compl. ¶ 12", "Tr. 45"): not
    /// returned, but "Id." after it refers to it, not to a case.
    Record,
}

const NONE: u32 = u32::MAX;
/// Longest whitespace run folded inside an abbreviation, in bytes.
const MAX_FOLDED_SPACE: usize = 8;

/// The trie. Nodes keep their edges in one flat array, sorted by byte.
pub(crate) struct Scanner {
    root: Box<[u32; 256]>,
    edge_start: Vec<u32>,
    edge_bytes: Vec<u8>,
    edge_targets: Vec<u32>,
    terminal: Vec<u32>,
    targets: Vec<Vec<Target>>,
    ignore_case: bool,
}

/// A pattern ending at `end` (exclusive), and what it stands for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hit {
    pub end: usize,
    pub terminal: u32,
}

impl Scanner {
    /// Builds the trie. Patterns are folded and sorted first, so each one
    /// shares its prefix with the one before and nodes are made in one pass.
    pub fn build<'a>(patterns: impl IntoIterator<Item = (&'a str, Target)>) -> Scanner {
        Scanner::build_folded(patterns, false)
    }

    /// Builds a trie that matches its patterns in any case ("S.ct.",
    /// "F.3D" for "S.Ct.", "F.3d").
    pub fn build_ignoring_case<'a>(
        patterns: impl IntoIterator<Item = (&'a str, Target)>,
    ) -> Scanner {
        Scanner::build_folded(patterns, true)
    }

    fn build_folded<'a>(
        patterns: impl IntoIterator<Item = (&'a str, Target)>,
        ignore_case: bool,
    ) -> Scanner {
        // All folded patterns in one buffer, to sort without an allocation
        // per pattern.
        let mut buffer = String::new();
        let mut entries: Vec<(std::ops::Range<usize>, Target)> = Vec::new();
        for (pattern, target) in patterns {
            let start = buffer.len();
            fold_into(pattern, &mut buffer);
            if ignore_case {
                buffer[start..].make_ascii_lowercase();
            }
            if buffer.len() > start {
                entries.push((start..buffer.len(), target));
            }
        }
        entries.sort_by(|a, b| buffer[a.0.clone()].cmp(&buffer[b.0.clone()]));
        let folded = entries
            .iter()
            .map(|(range, target)| (&buffer[range.clone()], target));

        // (parent, byte, child) in creation order; children of one parent
        // are created in byte order.
        let mut edges: Vec<(u32, u8, u32)> = Vec::new();
        let mut terminal: Vec<u32> = vec![NONE];
        let mut targets: Vec<Vec<Target>> = Vec::new();
        let mut path: Vec<u32> = vec![0];
        let mut previous: &[u8] = &[];
        for (pattern, target) in folded {
            let bytes = pattern.as_bytes();
            let shared = bytes
                .iter()
                .zip(previous)
                .take_while(|(a, b)| a == b)
                .count();
            path.truncate(shared + 1);
            for &b in &bytes[shared..] {
                let child = terminal.len() as u32;
                terminal.push(NONE);
                edges.push((*path.last().unwrap_or(&0), b, child));
                path.push(child);
            }
            let node = *path.last().unwrap_or(&0) as usize;
            if terminal[node] == NONE {
                targets.push(Vec::new());
                terminal[node] = (targets.len() - 1) as u32;
            }
            let list = &mut targets[terminal[node] as usize];
            if !list.contains(target) {
                list.push(*target);
            }
            previous = bytes;
        }

        // Edges grouped by parent (counting sort keeps byte order).
        let mut edge_start = vec![0u32; terminal.len() + 1];
        for &(parent, _, _) in &edges {
            edge_start[parent as usize + 1] += 1;
        }
        for i in 1..edge_start.len() {
            edge_start[i] += edge_start[i - 1];
        }
        let mut next = edge_start.clone();
        let mut edge_bytes = vec![0u8; edges.len()];
        let mut edge_targets = vec![0u32; edges.len()];
        let mut root = Box::new([NONE; 256]);
        for &(parent, b, child) in &edges {
            let slot = next[parent as usize] as usize;
            next[parent as usize] += 1;
            edge_bytes[slot] = b;
            edge_targets[slot] = child;
            if parent == 0 {
                root[b as usize] = child;
            }
        }
        if ignore_case {
            for lower in b'a'..=b'z' {
                root[lower.to_ascii_uppercase() as usize] = root[lower as usize];
            }
        }
        Scanner {
            root,
            edge_start,
            edge_bytes,
            edge_targets,
            terminal,
            targets,
            ignore_case,
        }
    }

    /// For each byte, whether some pattern starts with it.
    pub fn starts(&self) -> [bool; 256] {
        std::array::from_fn(|b| self.root[b] != NONE)
    }

    pub fn targets(&self, terminal: u32) -> &[Target] {
        &self.targets[terminal as usize]
    }

    fn child(&self, node: u32, b: u8) -> u32 {
        let node = node as usize;
        let (from, to) = (
            self.edge_start[node] as usize,
            self.edge_start[node + 1] as usize,
        );
        match self.edge_bytes[from..to].binary_search(&b) {
            Ok(i) => self.edge_targets[from + i],
            Err(_) => NONE,
        }
    }

    /// What the pattern spelled `spelling` stands for, if it is one of
    /// the patterns (compared folded, like text).
    pub fn exact(&self, spelling: &str) -> &[Target] {
        let folded = fold_pattern(spelling);
        let mut hits = Vec::new();
        self.walk(folded.as_bytes(), 0, &mut hits);
        match hits.last() {
            Some(hit) if hit.end == folded.len() => self.targets(hit.terminal),
            _ => &[],
        }
    }

    /// Every pattern that matches `text` at `start`, shortest first.
    pub fn walk(&self, text: &[u8], start: usize, hits: &mut Vec<Hit>) {
        hits.clear();
        let mut node = 0u32;
        let mut i = start;
        let mut previous = 0u8;
        while i < text.len() {
            let b = if self.ignore_case {
                text[i].to_ascii_lowercase()
            } else {
                text[i]
            };
            let (folded, width) = match b {
                b' ' | b'\t' | b'\n' | b'\r' => (b' ', whitespace_run(text, i)),
                0xC2 if text.get(i + 1) == Some(&0xA0) => (b' ', whitespace_run(text, i)),
                // ’ and ‘; ʻ and ʼ (Hawaiʻi's ʻokina).
                0xE2 if matches!(text.get(i + 1..i + 3), Some(&[0x80, 0x98 | 0x99])) => (b'\'', 3),
                0xCA if matches!(text.get(i + 1), Some(&(0xBB | 0xBC))) => (b'\'', 2),
                _ => (b, 1),
            };
            if folded == b' ' {
                if width > MAX_FOLDED_SPACE {
                    break;
                }
                if previous == b'.' {
                    i += width;
                    continue;
                }
            }
            node = if node == 0 {
                self.root[folded as usize]
            } else {
                self.child(node, folded)
            };
            if node == NONE {
                break;
            }
            i += width;
            previous = folded;
            let terminal = self.terminal[node as usize];
            if terminal != NONE && folded != b' ' {
                hits.push(Hit { end: i, terminal });
            }
        }
    }
}

/// Length in bytes of the whitespace run at `i` (ASCII whitespace and
/// no-break spaces).
fn whitespace_run(text: &[u8], mut i: usize) -> usize {
    let start = i;
    while i < text.len() {
        match text[i] {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            0xC2 if text.get(i + 1) == Some(&0xA0) => i += 2,
            _ => break,
        }
    }
    i - start
}

/// The marks [`Scanner::walk`] reads as an apostrophe.
pub(crate) fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | '‘' | 'ʻ' | 'ʼ')
}

/// A pattern folded the way [`Scanner::walk`] folds text.
pub(crate) fn fold_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    fold_into(pattern, &mut out);
    out
}

/// Appends `pattern`, folded, to `out`.
fn fold_into(pattern: &str, out: &mut String) {
    let start = out.len();
    let mut pending_space = false;
    for c in pattern.trim().chars() {
        let c = if is_apostrophe(c) { '\'' } else { c };
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && out.len() > start && !out.ends_with('.') {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanner() -> Scanner {
        Scanner::build([
            ("U.S.", Target::Id),
            ("U. S. C.", Target::Supra),
            ("F. Supp. 2d", Target::SectionSign),
            ("F Supp 2d", Target::SectionSign),
            ("F. App’x", Target::Id),
        ])
    }

    fn ends(s: &Scanner, text: &str) -> Vec<usize> {
        let mut hits = Vec::new();
        s.walk(text.as_bytes(), 0, &mut hits);
        hits.iter().map(|h| h.end).collect()
    }

    #[test]
    fn folds_spacing_after_periods_and_runs_of_whitespace() {
        let s = scanner();
        assert_eq!(ends(&s, "U.S. 1"), vec![4]);
        assert_eq!(ends(&s, "U. S. C. § 1"), vec![5, 8]);
        assert_eq!(ends(&s, "U.S.C."), vec![4, 6]);
        assert_eq!(ends(&s, "F.Supp.2d 5"), vec![9]);
        assert_eq!(ends(&s, "F  Supp\n2d 5"), vec![10]);
        assert_eq!(ends(&s, "F. App'x"), vec![8]);
        assert_eq!(ends(&s, "F. App’x"), vec![10]);
    }

    #[test]
    fn a_scanner_ignoring_case_matches_any_case() {
        let s = Scanner::build_ignoring_case([("S. Ct.", Target::Id), ("f.3d", Target::Supra)]);
        assert_eq!(ends(&s, "S.ct. 686"), vec![5]);
        assert_eq!(ends(&s, "s. CT. 686"), vec![6]);
        assert_eq!(ends(&s, "F.3D 10"), vec![4]);
        assert_eq!(s.exact("S.CT."), &[Target::Id]);
        assert!(s.starts()[b'S' as usize] && s.starts()[b's' as usize]);
        assert!(ends(&scanner(), "u.s. 1").is_empty());
    }

    #[test]
    fn stops_at_long_gaps_and_mismatches() {
        let s = scanner();
        assert!(ends(&s, "U.           S.").is_empty());
        assert!(ends(&s, "UX").is_empty());
        assert!(ends(&s, "").is_empty());
    }

    #[test]
    fn fold_pattern_normalises() {
        assert_eq!(fold_pattern(" N. Y. S. 2d "), "N.Y.S.2d");
        assert_eq!(fold_pattern("F Supp  2d"), "F Supp 2d");
        assert_eq!(fold_pattern("Dec. Comm’r Pat."), "Dec.Comm'r Pat.");
    }
}
