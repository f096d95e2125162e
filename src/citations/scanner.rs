//! Finds the fixed strings citations hang on — reporter, law and journal
//! abbreviations, "Id.", "supra", "§" — with one byte trie.
//!
//! Spacing inside abbreviations varies ("F.3d", "F. 3d", "N. Y. S. 2d"), so
//! both the patterns and the text are folded the same way while walking:
//! whitespace after a period is ignored, any other whitespace run counts as
//! one space, and a typographic apostrophe counts as `'`.

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
}

/// A pattern ending at `end` (exclusive), and what it stands for.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hit {
    pub end: usize,
    pub terminal: u32,
}

struct BuildNode {
    edges: Vec<(u8, u32)>,
    terminal: u32,
}

impl Scanner {
    pub fn build<'a>(patterns: impl IntoIterator<Item = (&'a str, Target)>) -> Scanner {
        let mut nodes = vec![BuildNode {
            edges: Vec::new(),
            terminal: NONE,
        }];
        let mut targets: Vec<Vec<Target>> = Vec::new();
        for (pattern, target) in patterns {
            let folded = fold_pattern(pattern);
            if folded.is_empty() {
                continue;
            }
            let mut node = 0usize;
            for &b in folded.as_bytes() {
                node = match nodes[node].edges.iter().find(|(eb, _)| *eb == b) {
                    Some(&(_, child)) => child as usize,
                    None => {
                        nodes.push(BuildNode {
                            edges: Vec::new(),
                            terminal: NONE,
                        });
                        let child = nodes.len() - 1;
                        nodes[node].edges.push((b, child as u32));
                        child
                    }
                };
            }
            if nodes[node].terminal == NONE {
                targets.push(Vec::new());
                nodes[node].terminal = (targets.len() - 1) as u32;
            }
            let list = &mut targets[nodes[node].terminal as usize];
            if !list.contains(&target) {
                list.push(target);
            }
        }
        let mut root = Box::new([NONE; 256]);
        let mut edge_start = Vec::with_capacity(nodes.len() + 1);
        let mut edge_bytes = Vec::new();
        let mut edge_targets = Vec::new();
        let mut terminal = Vec::with_capacity(nodes.len());
        for (index, node) in nodes.iter_mut().enumerate() {
            node.edges.sort_unstable_by_key(|(b, _)| *b);
            edge_start.push(edge_bytes.len() as u32);
            for &(b, child) in &node.edges {
                if index == 0 {
                    root[b as usize] = child;
                }
                edge_bytes.push(b);
                edge_targets.push(child);
            }
            terminal.push(node.terminal);
        }
        edge_start.push(edge_bytes.len() as u32);
        Scanner {
            root,
            edge_start,
            edge_bytes,
            edge_targets,
            terminal,
            targets,
        }
    }

    /// Whether some pattern starts with byte `b`.
    #[inline]
    pub fn can_start(&self, b: u8) -> bool {
        self.root[b as usize] != NONE
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

    /// Every pattern that matches `text` at `start`, shortest first.
    pub fn walk(&self, text: &[u8], start: usize, hits: &mut Vec<Hit>) {
        hits.clear();
        let mut node = 0u32;
        let mut i = start;
        let mut previous = 0u8;
        while i < text.len() {
            let b = text[i];
            let (folded, width) = match b {
                b' ' | b'\t' | b'\n' | b'\r' => (b' ', whitespace_run(text, i)),
                0xC2 if text.get(i + 1) == Some(&0xA0) => (b' ', whitespace_run(text, i)),
                0xE2 if text.get(i + 1..i + 3) == Some(&[0x80, 0x99]) => (b'\'', 3),
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

/// A pattern folded the way [`Scanner::walk`] folds text.
pub(crate) fn fold_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len());
    let mut pending_space = false;
    for c in pattern.trim().chars() {
        let c = if c == '’' { '\'' } else { c };
        if c.is_whitespace() {
            pending_space = true;
            continue;
        }
        if pending_space && !out.ends_with('.') {
            out.push(' ');
        }
        pending_space = false;
        out.push(c);
    }
    out
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
