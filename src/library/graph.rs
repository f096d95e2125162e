//! The citation graph: edges (citing case → cited case) and the case
//! citations read out of opinion text to make them. Reading a text needs
//! no store, so importers do it on other cores; the writer only links the
//! result ([`super::store::LibraryWriter`]).

use std::collections::BTreeMap;
use std::ops::Range;

use super::model::{CiteKey, reporter_spelling};
use crate::citations::Extractor;
use crate::store::StoreError;

/// Longest passage shown with an edge.
const MAX_PASSAGE_CHARS: usize = 300;

/// A citing→cited link in the citation graph.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Edge {
    /// How many times the citing case cites the cited one: the most any
    /// one record says (an opinion's text, a citation-map row, a CAP
    /// `cites_to` entry). Sources repeat each other, so their counts are not
    /// added: the count is the same whatever the order of imports, and a
    /// re-import leaves it alone.
    pub count: u32,
    /// Where the first citation is in the citing case's text, when the
    /// text was read ([`passage`] turns it back into the sentence).
    pub passage: Option<PassageAt>,
    /// How the citing case describes the cited one (CourtListener's
    /// parentheticals).
    pub parentheticals: Vec<String>,
}

/// A citation's place in an opinion: the opinion's number within its case
/// and the byte range of the citation in the opinion's plain text (the
/// stored body, with markup removed). Kept instead of a copy of the
/// sentence, which would make the graph most of the library's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassageAt {
    pub opinion: u32,
    pub start: u32,
    pub end: u32,
}

const HAS_PASSAGE: u8 = 1;

impl Edge {
    /// The stored form: a flags byte, the count, the passage when there is
    /// one, then each parenthetical with its length (little-endian u32s).
    pub fn encode(&self) -> Vec<u8> {
        let texts: usize = self.parentheticals.iter().map(|p| 4 + p.len()).sum();
        let mut out = Vec::with_capacity(1 + 4 + 12 + 4 + texts);
        out.push(if self.passage.is_some() {
            HAS_PASSAGE
        } else {
            0
        });
        out.extend_from_slice(&self.count.to_le_bytes());
        if let Some(at) = self.passage {
            for n in [at.opinion, at.start, at.end] {
                out.extend_from_slice(&n.to_le_bytes());
            }
        }
        if !self.parentheticals.is_empty() {
            out.extend_from_slice(&(self.parentheticals.len() as u32).to_le_bytes());
            for text in &self.parentheticals {
                out.extend_from_slice(&(text.len() as u32).to_le_bytes());
                out.extend_from_slice(text.as_bytes());
            }
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<Edge, StoreError> {
        let mut reader = Reader { bytes };
        let flags = reader.take(1)?[0];
        let count = reader.u32()?;
        let passage = if flags & HAS_PASSAGE != 0 {
            Some(PassageAt {
                opinion: reader.u32()?,
                start: reader.u32()?,
                end: reader.u32()?,
            })
        } else {
            None
        };
        let mut parentheticals = Vec::new();
        if !reader.bytes.is_empty() {
            for _ in 0..reader.u32()? {
                let len = reader.u32()? as usize;
                let text = std::str::from_utf8(reader.take(len)?)
                    .map_err(|_| StoreError::Corrupt("edge parenthetical is not utf-8".into()))?;
                parentheticals.push(text.to_string());
            }
        }
        Ok(Edge {
            count,
            passage,
            parentheticals,
        })
    }
}

/// A link to add to a citing case's edges ([`OutEdges::add_all`]).
#[derive(Debug, Clone, Default)]
pub struct Link {
    pub cited: String,
    pub count: u32,
    pub passage: Option<PassageAt>,
    pub parentheticals: Vec<String>,
}

/// The edges of one citing case, as stored: one record per citing case
/// (so an opinion's links are one write), cited case ids in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OutEdges(pub Vec<(String, Edge)>);

impl OutEdges {
    /// Each edge with its cited id, both length-prefixed, after their number.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.0.len() * 32);
        out.extend_from_slice(&(self.0.len() as u32).to_le_bytes());
        for (cited, edge) in &self.0 {
            let edge = edge.encode();
            out.extend_from_slice(&(cited.len() as u32).to_le_bytes());
            out.extend_from_slice(cited.as_bytes());
            out.extend_from_slice(&(edge.len() as u32).to_le_bytes());
            out.extend_from_slice(&edge);
        }
        out
    }

    pub fn decode(bytes: &[u8]) -> Result<OutEdges, StoreError> {
        let mut reader = Reader { bytes };
        let n = reader.u32()?;
        let mut edges = Vec::with_capacity(n.min(1 << 16) as usize);
        for _ in 0..n {
            let len = reader.u32()? as usize;
            let cited = std::str::from_utf8(reader.take(len)?)
                .map_err(|_| StoreError::Corrupt("cited case id is not utf-8".into()))?;
            let len = reader.u32()? as usize;
            edges.push((cited.to_string(), Edge::decode(reader.take(len)?)?));
        }
        Ok(OutEdges(edges))
    }

    /// Adds `links` (each keeping the larger count and the first passage,
    /// as [`Edge::count`] says), in one pass over the edges held: a case
    /// citing thousands of others is not re-sorted once per link. Returns
    /// how many edges are new.
    pub fn add_all(&mut self, mut links: Vec<Link>) -> u64 {
        links.sort_by(|a, b| a.cited.cmp(&b.cited));
        let mut held = std::mem::take(&mut self.0).into_iter().peekable();
        let mut merged: Vec<(String, Edge)> = Vec::with_capacity(held.len() + links.len());
        let mut made = 0;
        for link in links {
            while let Some((id, _)) = held.peek()
                && id.as_str() < link.cited.as_str()
            {
                merged.extend(held.next());
            }
            if merged.last().is_none_or(|(id, _)| *id != link.cited) {
                match held.next_if(|(id, _)| *id == link.cited) {
                    Some(edge) => merged.push(edge),
                    None => {
                        made += 1;
                        merged.push((link.cited.clone(), Edge::default()));
                    }
                }
            }
            if let Some((_, edge)) = merged.last_mut() {
                edge.count = edge.count.max(link.count);
                edge.passage = edge.passage.or(link.passage);
                for text in link.parentheticals {
                    if !edge.parentheticals.contains(&text) {
                        edge.parentheticals.push(text);
                    }
                }
            }
        }
        merged.extend(held);
        self.0 = merged;
        made
    }

    /// The edge to `cited`, made (empty) when absent; `true` when new.
    pub fn entry(&mut self, cited: &str) -> (&mut Edge, bool) {
        match self.0.binary_search_by(|(id, _)| id.as_str().cmp(cited)) {
            Ok(at) => (&mut self.0[at].1, false),
            Err(at) => {
                self.0.insert(at, (cited.to_string(), Edge::default()));
                (&mut self.0[at].1, true)
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], StoreError> {
        if self.bytes.len() < n {
            return Err(StoreError::Corrupt("edge record is cut short".into()));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self) -> Result<u32, StoreError> {
        let mut word = [0u8; 4];
        word.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(word))
    }
}

/// A case an opinion cites in full: where, and how often.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CitedCase {
    pub key: CiteKey,
    pub count: u32,
    /// The first citation's byte range in the plain text (volume, reporter
    /// and page; [`passage`] finds the name and sentence around it).
    pub first: Range<u32>,
}

/// The cases a plain text cites in full (volume, reporter and page), in
/// citation-key order.
pub fn cited_cases(text: &str) -> Vec<CitedCase> {
    let mut cited: BTreeMap<CiteKey, CitedCase> = BTreeMap::new();
    for address in Extractor::shared().case_addresses(text) {
        let span = address.span;
        let written = text.get(span.clone()).map_or("", reporter_spelling);
        let key = CiteKey::new(address.volume, address.reporter, written, address.page);
        cited
            .entry(key.clone())
            .or_insert_with(|| CitedCase {
                key,
                count: 0,
                first: offset(span.start)..offset(span.end),
            })
            .count += 1;
    }
    cited.into_values().collect()
}

fn offset(at: usize) -> u32 {
    u32::try_from(at).unwrap_or(u32::MAX)
}

/// How far around a citation [`passage`] reads to find its case name.
const NAME_WINDOW: usize = 1_000;

/// The sentence around the citation at `span` of `text` (from its case
/// name on), cut to a readable length.
pub fn passage(text: &str, span: Range<usize>) -> String {
    let (start, end) = (span.start.min(text.len()), span.end.min(text.len()));
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return String::new();
    }
    // Where the name begins is read again here, from the text around the
    // citation, rather than at import for every citation.
    let window_start = text.floor_char_boundary(start.saturating_sub(NAME_WINDOW));
    let window_end = text.ceil_char_boundary((end + NAME_WINDOW).min(text.len()));
    let named_from = Extractor::shared()
        .extract_full_cases(&text[window_start..window_end])
        .iter()
        .find(|c| c.span == (start - window_start..end - window_start))
        .map_or(start, |c| window_start + c.full_span.start);
    let from = text[..named_from]
        .rfind(['.', '\n'])
        .map(|i| i + 1)
        .unwrap_or(0);
    let to = text[end..]
        .find(['\n'])
        .map(|i| end + i)
        .unwrap_or(text.len());
    let sentence = text[from..to].trim();
    if sentence.chars().count() <= MAX_PASSAGE_CHARS {
        return sentence.to_string();
    }
    sentence.chars().take(MAX_PASSAGE_CHARS).collect::<String>() + "…"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_merge_into_the_edges_held_in_order() {
        let link = |cited: &str, count: u32, parenthetical: &str| Link {
            cited: cited.into(),
            count,
            passage: None,
            parentheticals: [parenthetical]
                .into_iter()
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect(),
        };
        let mut edges = OutEdges::default();
        assert_eq!(edges.add_all(vec![link("c", 2, ""), link("a", 1, "")]), 2);
        let made = edges.add_all(vec![
            link("b", 1, "x"),
            link("c", 1, "y"),
            link("b", 3, "x"),
            link("d", 1, ""),
        ]);
        assert_eq!(made, 2, "b and d are new");
        let summary: Vec<(&str, u32, Vec<String>)> = edges
            .0
            .iter()
            .map(|(id, e)| (id.as_str(), e.count, e.parentheticals.clone()))
            .collect();
        assert_eq!(
            summary,
            [
                ("a", 1, vec![]),
                ("b", 3, vec!["x".to_string()]),
                ("c", 2, vec!["y".to_string()]),
                ("d", 1, vec![]),
            ]
        );
    }

    #[test]
    fn edges_read_back_as_written() {
        let edges = [
            Edge::default(),
            Edge {
                count: 3,
                passage: Some(PassageAt {
                    opinion: 1,
                    start: 40,
                    end: 77,
                }),
                parentheticals: vec!["holding that \"x\" is y".into(), "é".into()],
            },
            Edge {
                count: u32::MAX,
                passage: None,
                parentheticals: vec![String::new()],
            },
        ];
        for edge in edges {
            assert_eq!(Edge::decode(&edge.encode()).unwrap(), edge);
        }
        assert!(Edge::decode(&[1, 2, 0, 0, 0, 9]).is_err());
        assert!(Edge::decode(&[]).is_err());
    }

    #[test]
    fn out_edges_stay_in_cited_order() {
        let mut edges = OutEdges::default();
        for cited in ["cl-9", "cl-10", "scdb-1953-069", "cl-10"] {
            let (edge, _) = edges.entry(cited);
            edge.count += 1;
        }
        let ids: Vec<&str> = edges.0.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["cl-10", "cl-9", "scdb-1953-069"]);
        assert_eq!(edges.0[0].1.count, 2);
        let bytes = edges.encode();
        assert_eq!(OutEdges::decode(&bytes).unwrap(), edges);
        assert!(OutEdges::decode(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn cited_cases_count_repeats_and_keep_the_first_place() {
        let text = "The rule is old. See Smith v. Jones, 12 F.3d 40 (9th Cir. 1994).\n\
                    Again: Smith v. Jones, 12 F.3d 40, 42 (9th Cir. 1994); Doe v. Roe, 5 U.S. 7 (1801).";
        let cited = cited_cases(text);
        assert_eq!(cited.len(), 2);
        let smith = cited.iter().find(|c| c.key.reporter == "F.3d").unwrap();
        assert_eq!(smith.count, 2);
        let span = smith.first.start as usize..smith.first.end as usize;
        assert_eq!(&text[span.clone()], "12 F.3d 40");
        assert_eq!(
            passage(text, span),
            "See Smith v. Jones, 12 F.3d 40 (9th Cir. 1994)."
        );
    }
}
