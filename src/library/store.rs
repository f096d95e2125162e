//! The library's records in redb: reads on a snapshot, and a writer that
//! holds every table open for the length of one import transaction.

use redb::{ReadTransaction, ReadableTable, Table, WriteTransaction};
use serde::{Deserialize, Serialize};

use super::model::{
    Authority, BodyFormat, CaseCitation, CaseRecord, CiteKey, LawCoverage, NewCase, NewOpinion,
    OpinionMeta,
};
use super::names::names_compatible;
use super::text::markup_to_text;
use std::collections::BTreeMap;

use crate::store::tables::{
    AUTHORITIES, CASES, CITE_INDEX, CITES_IN, CITES_OUT, COURTLISTENER_OPINIONS, COVERAGE,
    EXTERNAL_IDS, IMPORT_DOCKETS, IMPORT_PROGRESS, INDEX_PENDING, LAW_COVERAGE, LIBRARY_META,
    OPINION_TEXTS, OVERRULINGS, UNRESOLVED_CITES,
};
use crate::store::{StoreError, encode};

/// A citing→cited link in the citation graph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Edge {
    /// How many times the citing case cites the cited one.
    pub count: u32,
    /// The sentence around the first citation, when the text was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passage: Option<String>,
    /// How the citing case describes the cited one (CourtListener's
    /// parentheticals).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parentheticals: Vec<String>,
}

/// A later decision that overruled a case (ConAn's table).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Overruling {
    pub by_name: String,
    pub by_citation: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_case_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
    /// "in part", "plurality opinion"… when ConAn qualifies it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qualifier: Option<String>,
    pub source: String,
}

// ---- reads -------------------------------------------------------------

pub fn case(txn: &ReadTransaction, id: &str) -> Result<Option<CaseRecord>, StoreError> {
    let table = txn.open_table(CASES)?;
    match table.get(id)? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

/// The cases whose citation starts at exactly this page.
pub fn cases_at(txn: &ReadTransaction, key: &CiteKey) -> Result<Vec<String>, StoreError> {
    let table = txn.open_table(CITE_INDEX)?;
    let found = table.get((key.reporter.as_str(), key.volume, key.page))?;
    Ok(found.map(|ids| split_ids(ids.value())).unwrap_or_default())
}

/// The case that starts nearest at or before `page` in this volume, with
/// its first page: the only case that can hold `page`.
pub fn case_starting_before(
    txn: &ReadTransaction,
    reporter: &str,
    volume: u32,
    page: u32,
) -> Result<Option<(u32, Vec<String>)>, StoreError> {
    let table = txn.open_table(CITE_INDEX)?;
    let mut range = table.range((reporter, volume, 0)..=(reporter, volume, page))?;
    match range.next_back() {
        Some(row) => {
            let (key, ids) = row?;
            Ok(Some((key.value().2, split_ids(ids.value()))))
        }
        None => Ok(None),
    }
}

/// The first page of the next case in the volume after `page`, if any.
pub fn next_case_page(
    txn: &ReadTransaction,
    reporter: &str,
    volume: u32,
    page: u32,
) -> Result<Option<u32>, StoreError> {
    if page == u32::MAX {
        return Ok(None);
    }
    let table = txn.open_table(CITE_INDEX)?;
    let mut range = table.range((reporter, volume, page + 1)..=(reporter, volume, u32::MAX))?;
    match range.next() {
        Some(row) => Ok(Some(row?.0.value().2)),
        None => Ok(None),
    }
}

/// The source that brought this whole volume, if one did.
pub fn volume_coverage(
    txn: &ReadTransaction,
    reporter: &str,
    volume: u32,
) -> Result<Option<String>, StoreError> {
    let table = txn.open_table(COVERAGE)?;
    Ok(table
        .get((reporter, volume))?
        .map(|s| s.value().to_string()))
}

pub fn external_case(
    txn: &ReadTransaction,
    source: &str,
    id: &str,
) -> Result<Option<String>, StoreError> {
    let table = txn.open_table(EXTERNAL_IDS)?;
    Ok(table.get((source, id))?.map(|v| v.value().to_string()))
}

pub fn opinion_text(
    txn: &ReadTransaction,
    case_id: &str,
    number: u32,
) -> Result<Option<String>, StoreError> {
    let table = txn.open_table(OPINION_TEXTS)?;
    match table.get((case_id, number))? {
        Some(bytes) => Ok(Some(decompress(bytes.value())?)),
        None => Ok(None),
    }
}

pub fn authority(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    section: &str,
) -> Result<Option<Authority>, StoreError> {
    let table = txn.open_table(AUTHORITIES)?;
    match table.get((code, title, section))? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

pub fn law_coverage(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
) -> Result<Option<LawCoverage>, StoreError> {
    let table = txn.open_table(LAW_COVERAGE)?;
    match table.get((code, title))? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

/// Cases this case cites, with the edges.
pub fn cited_by_case(
    txn: &ReadTransaction,
    citing: &str,
) -> Result<Vec<(String, Edge)>, StoreError> {
    let table = txn.open_table(CITES_OUT)?;
    let mut edges = Vec::new();
    for row in table.range((citing, "")..)? {
        let (key, value) = row?;
        let (from, to) = key.value();
        if from != citing {
            break;
        }
        edges.push((to.to_string(), serde_json::from_slice(value.value())?));
    }
    Ok(edges)
}

/// Cases citing this case.
pub fn citing_cases(txn: &ReadTransaction, cited: &str) -> Result<Vec<String>, StoreError> {
    let table = txn.open_table(CITES_IN)?;
    let mut citing = Vec::new();
    for row in table.range((cited, "")..)? {
        let (key, _) = row?;
        let (to, from) = key.value();
        if to != cited {
            break;
        }
        citing.push(from.to_string());
    }
    Ok(citing)
}

pub fn overrulings(txn: &ReadTransaction, case_id: &str) -> Result<Vec<Overruling>, StoreError> {
    let table = txn.open_table(OVERRULINGS)?;
    let mut found = Vec::new();
    for row in table.range((case_id, "")..)? {
        let (key, value) = row?;
        if key.value().0 != case_id {
            break;
        }
        found.push(serde_json::from_slice(value.value())?);
    }
    Ok(found)
}

// ---- writes ------------------------------------------------------------

/// What storing a case did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub id: String,
    pub created: bool,
    /// False when the record was already exactly this (a re-import).
    pub changed: bool,
}

/// Every library table, open for one write transaction.
pub struct LibraryWriter<'txn> {
    cases: Table<'txn, &'static str, &'static [u8]>,
    texts: Table<'txn, (&'static str, u32), &'static [u8]>,
    cite_index: Table<'txn, (&'static str, u32, u32), &'static str>,
    external: Table<'txn, (&'static str, &'static str), &'static str>,
    coverage: Table<'txn, (&'static str, u32), &'static str>,
    law_coverage: Table<'txn, (&'static str, &'static str), &'static [u8]>,
    authorities: Table<'txn, (&'static str, &'static str, &'static str), &'static [u8]>,
    cites_out: Table<'txn, (&'static str, &'static str), &'static [u8]>,
    cites_in: Table<'txn, (&'static str, &'static str), ()>,
    unresolved: Table<'txn, (&'static str, u32, u32, &'static str), &'static [u8]>,
    overrulings: Table<'txn, (&'static str, &'static str), &'static [u8]>,
    pending: Table<'txn, &'static str, ()>,
    meta: Table<'txn, &'static str, &'static [u8]>,
    progress: Table<'txn, &'static str, &'static [u8]>,
    dockets: Table<'txn, u64, &'static [u8]>,
    courtlistener_opinions: Table<'txn, u64, &'static str>,
    counts: BTreeMap<String, i64>,
}

/// What a cluster needs from its docket during a CourtListener import.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocketInfo {
    pub court: Option<String>,
    pub number: Option<String>,
}

/// The counters kept in `LIBRARY_META["counts"]`.
pub type Counts = BTreeMap<String, i64>;

pub fn counts(txn: &ReadTransaction) -> Result<Counts, StoreError> {
    let table = txn.open_table(LIBRARY_META)?;
    match table.get("counts")? {
        Some(bytes) => Ok(serde_json::from_slice(bytes.value())?),
        None => Ok(Counts::new()),
    }
}

/// A JSON value kept in `LIBRARY_META`.
pub fn meta_value<T: serde::de::DeserializeOwned>(
    txn: &ReadTransaction,
    key: &str,
) -> Result<Option<T>, StoreError> {
    let table = txn.open_table(LIBRARY_META)?;
    match table.get(key)? {
        Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
        None => Ok(None),
    }
}

impl<'txn> LibraryWriter<'txn> {
    pub fn new(txn: &'txn WriteTransaction) -> Result<Self, StoreError> {
        Ok(Self {
            cases: txn.open_table(CASES)?,
            texts: txn.open_table(OPINION_TEXTS)?,
            cite_index: txn.open_table(CITE_INDEX)?,
            external: txn.open_table(EXTERNAL_IDS)?,
            coverage: txn.open_table(COVERAGE)?,
            law_coverage: txn.open_table(LAW_COVERAGE)?,
            authorities: txn.open_table(AUTHORITIES)?,
            cites_out: txn.open_table(CITES_OUT)?,
            cites_in: txn.open_table(CITES_IN)?,
            unresolved: txn.open_table(UNRESOLVED_CITES)?,
            overrulings: txn.open_table(OVERRULINGS)?,
            pending: txn.open_table(INDEX_PENDING)?,
            meta: txn.open_table(LIBRARY_META)?,
            progress: txn.open_table(IMPORT_PROGRESS)?,
            dockets: txn.open_table(IMPORT_DOCKETS)?,
            courtlistener_opinions: txn.open_table(COURTLISTENER_OPINIONS)?,
            counts: BTreeMap::new(),
        })
    }

    /// Adds the counters gathered in this transaction to the stored ones.
    pub fn finish(mut self) -> Result<(), StoreError> {
        if self.counts.is_empty() {
            return Ok(());
        }
        let mut stored: Counts = match self.meta.get("counts")? {
            Some(bytes) => serde_json::from_slice(bytes.value())?,
            None => Counts::new(),
        };
        for (name, delta) in std::mem::take(&mut self.counts) {
            *stored.entry(name).or_insert(0) += delta;
        }
        self.meta.insert("counts", encode(&stored)?.as_slice())?;
        Ok(())
    }

    pub fn bump(&mut self, counter: &str, by: i64) {
        *self.counts.entry(counter.to_string()).or_insert(0) += by;
    }

    pub fn set_meta<T: Serialize>(&mut self, key: &str, value: &T) -> Result<(), StoreError> {
        self.meta.insert(key, encode(value)?.as_slice())?;
        Ok(())
    }

    pub fn get_meta<T: serde::de::DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        match self.meta.get(key)? {
            Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
            None => Ok(None),
        }
    }

    pub fn checkpoint<T: serde::de::DeserializeOwned>(
        &self,
        key: &str,
    ) -> Result<Option<T>, StoreError> {
        match self.progress.get(key)? {
            Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
            None => Ok(None),
        }
    }

    pub fn set_checkpoint<T: Serialize>(&mut self, key: &str, value: &T) -> Result<(), StoreError> {
        self.progress.insert(key, encode(value)?.as_slice())?;
        Ok(())
    }

    pub fn put_docket(&mut self, id: u64, docket: &DocketInfo) -> Result<(), StoreError> {
        self.dockets.insert(id, encode(docket)?.as_slice())?;
        Ok(())
    }

    pub fn docket(&self, id: u64) -> Result<Option<DocketInfo>, StoreError> {
        match self.dockets.get(id)? {
            Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
            None => Ok(None),
        }
    }

    pub fn set_courtlistener_opinion(
        &mut self,
        opinion: u64,
        case_id: &str,
    ) -> Result<(), StoreError> {
        self.courtlistener_opinions.insert(opinion, case_id)?;
        Ok(())
    }

    pub fn courtlistener_opinion_case(&self, opinion: u64) -> Result<Option<String>, StoreError> {
        Ok(self
            .courtlistener_opinions
            .get(opinion)?
            .map(|v| v.value().to_string()))
    }

    /// Forgets the dockets kept for an import that has finished.
    pub fn clear_dockets(&mut self) -> Result<(), StoreError> {
        self.dockets.retain(|_, _| false)?;
        Ok(())
    }

    /// Adds a parenthetical (how `citing` describes `cited`) to their edge.
    pub fn add_parenthetical(
        &mut self,
        citing: &str,
        cited: &str,
        text: &str,
    ) -> Result<(), StoreError> {
        if citing == cited {
            return Ok(());
        }
        let existing = self.edge(citing, cited)?;
        let is_new = existing.is_none();
        let mut edge = existing.unwrap_or(Edge {
            count: 1,
            passage: None,
            parentheticals: Vec::new(),
        });
        if !edge.parentheticals.iter().any(|p| p == text) {
            edge.parentheticals.push(text.to_string());
        }
        self.put_edge(citing, cited, &edge, is_new)
    }

    fn edge(&self, citing: &str, cited: &str) -> Result<Option<Edge>, StoreError> {
        match self.cites_out.get((citing, cited))? {
            Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
            None => Ok(None),
        }
    }

    fn put_edge(
        &mut self,
        citing: &str,
        cited: &str,
        edge: &Edge,
        is_new: bool,
    ) -> Result<(), StoreError> {
        if is_new {
            self.bump("edges", 1);
        }
        self.cites_out
            .insert((citing, cited), encode(edge)?.as_slice())?;
        self.cites_in.insert((cited, citing), ())?;
        Ok(())
    }

    /// Marks a record for the indexing pass (authorities use their id).
    pub fn mark_for_index(&mut self, id: &str) -> Result<(), StoreError> {
        self.pending.insert(id, ())?;
        Ok(())
    }

    pub fn case(&self, id: &str) -> Result<Option<CaseRecord>, StoreError> {
        match self.cases.get(id)? {
            Some(bytes) => Ok(Some(serde_json::from_slice(bytes.value())?)),
            None => Ok(None),
        }
    }

    pub fn external_case(&self, source: &str, id: &str) -> Result<Option<String>, StoreError> {
        Ok(self
            .external
            .get((source, id))?
            .map(|v| v.value().to_string()))
    }

    pub fn cases_at(&self, key: &CiteKey) -> Result<Vec<String>, StoreError> {
        let found = self
            .cite_index
            .get((key.reporter.as_str(), key.volume, key.page))?;
        Ok(found.map(|ids| split_ids(ids.value())).unwrap_or_default())
    }

    /// Stores a case: the same source record again changes nothing; a new
    /// source on a decision already held (same citation, compatible name and
    /// year) is merged into it; anything else is a new case.
    pub fn put_case(&mut self, new: NewCase) -> Result<Stored, StoreError> {
        let NewCase { record, opinions } = new;
        let existing = self.find_existing(&record)?;
        let (mut stored, created, before) = match existing {
            Some(id) => {
                let current = self.case(&id)?.unwrap_or_default();
                let before = encode(&current)?;
                let mut merged = current;
                merged.merge(record);
                (merged, false, Some(before))
            }
            None => (record, true, None),
        };
        for opinion in opinions {
            self.attach_opinion(&mut stored, opinion)?;
        }
        let bytes = encode(&stored)?;
        let changed = before.as_deref() != Some(bytes.as_slice());
        if changed {
            self.cases.insert(stored.id.as_str(), bytes.as_slice())?;
            self.index_citations(&stored)?;
            for source in &stored.provenance {
                let key = (source.source.as_str(), source.id.as_str());
                if self.external.get(key)?.is_none() {
                    self.external.insert(key, stored.id.as_str())?;
                    self.bump(&format!("source:{}", source.source), 1);
                }
            }
            self.pending.insert(stored.id.as_str(), ())?;
        }
        if created {
            self.bump("cases", 1);
        }
        Ok(Stored {
            id: stored.id,
            created,
            changed,
        })
    }

    /// Adds (or, from the same source, replaces) an opinion of a stored case.
    pub fn add_opinion(&mut self, case_id: &str, opinion: NewOpinion) -> Result<bool, StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(false);
        };
        let before = encode(&record)?;
        self.attach_opinion(&mut record, opinion)?;
        let after = encode(&record)?;
        if after != before {
            self.cases.insert(case_id, after.as_slice())?;
            self.pending.insert(case_id, ())?;
        }
        Ok(true)
    }

    /// Adds a citation to a stored case (and to the citation index).
    pub fn add_citation(
        &mut self,
        case_id: &str,
        citation: CaseCitation,
    ) -> Result<bool, StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(false);
        };
        let known = record
            .citations
            .iter()
            .any(|c| c.cite == citation.cite || (c.key.is_some() && c.key == citation.key));
        if !known {
            record.citations.push(citation);
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.index_citations(&record)?;
            self.pending.insert(case_id, ())?;
            self.bump("citations", 1);
        }
        Ok(true)
    }

    /// Gives a case the name a later source knows, when it has none.
    pub fn fill_missing_name(&mut self, case_id: &str, name: &str) -> Result<(), StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(());
        };
        if record.name.is_empty() && !name.trim().is_empty() {
            record.name = name.trim().to_string();
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.pending.insert(case_id, ())?;
        }
        Ok(())
    }

    pub fn add_alias(&mut self, source: &str, id: &str, case_id: &str) -> Result<(), StoreError> {
        self.external.insert((source, id), case_id)?;
        Ok(())
    }

    pub fn mark_volume_held(
        &mut self,
        reporter: &str,
        volume: u32,
        source: &str,
    ) -> Result<(), StoreError> {
        if self.coverage.get((reporter, volume))?.is_none() {
            self.coverage.insert((reporter, volume), source)?;
        }
        Ok(())
    }

    pub fn put_authority(&mut self, authority: &Authority) -> Result<(), StoreError> {
        let key = (
            authority.code.as_str(),
            authority.title.as_str(),
            authority.section.as_str(),
        );
        let bytes = encode(authority)?;
        let previous = self
            .authorities
            .insert(key, bytes.as_slice())?
            .map(|old| old.value().to_vec());
        if previous.as_deref() != Some(bytes.as_slice()) {
            self.pending
                .insert(authority_index_id(authority).as_str(), ())?;
            if previous.is_none() {
                self.bump(&format!("authority:{}", authority.code), 1);
            }
        }
        Ok(())
    }

    pub fn put_law_coverage(
        &mut self,
        code: &str,
        title: &str,
        coverage: &LawCoverage,
    ) -> Result<(), StoreError> {
        self.law_coverage
            .insert((code, title), encode(coverage)?.as_slice())?;
        Ok(())
    }

    pub fn put_overruling(
        &mut self,
        case_id: &str,
        overruling: &Overruling,
    ) -> Result<(), StoreError> {
        self.overrulings.insert(
            (case_id, overruling.by_citation.as_str()),
            encode(overruling)?.as_slice(),
        )?;
        Ok(())
    }

    /// Records that `citing` cites `cited` (`count` more times); the first
    /// passage seen is kept.
    pub fn add_edge(
        &mut self,
        citing: &str,
        cited: &str,
        count: u32,
        passage: Option<String>,
    ) -> Result<(), StoreError> {
        if citing == cited {
            return Ok(());
        }
        let existing = self.edge(citing, cited)?;
        let is_new = existing.is_none();
        let edge = match existing {
            Some(mut edge) => {
                edge.count = edge.count.saturating_add(count);
                if edge.passage.is_none() {
                    edge.passage = passage;
                }
                edge
            }
            None => Edge {
                count,
                passage,
                parentheticals: Vec::new(),
            },
        };
        self.put_edge(citing, cited, &edge, is_new)
    }

    /// Sets the count of an edge (bulk formats give the final count; setting
    /// it keeps re-imports idempotent).
    pub fn set_edge(&mut self, citing: &str, cited: &str, count: u32) -> Result<(), StoreError> {
        if citing == cited {
            return Ok(());
        }
        let existing = self.edge(citing, cited)?;
        let is_new = existing.is_none();
        let edge = match existing {
            Some(edge) => Edge { count, ..edge },
            None => Edge {
                count,
                passage: None,
                parentheticals: Vec::new(),
            },
        };
        self.put_edge(citing, cited, &edge, is_new)
    }

    /// Remembers a citation to a case the library does not hold yet.
    pub fn add_unresolved(
        &mut self,
        key: &CiteKey,
        citing: &str,
        passage: Option<String>,
    ) -> Result<(), StoreError> {
        let edge = Edge {
            count: 1,
            passage,
            parentheticals: Vec::new(),
        };
        self.unresolved.insert(
            (key.reporter.as_str(), key.volume, key.page, citing),
            encode(&edge)?.as_slice(),
        )?;
        Ok(())
    }

    fn find_existing(&self, record: &CaseRecord) -> Result<Option<String>, StoreError> {
        for source in &record.provenance {
            if let Some(id) = self.external_case(&source.source, &source.id)? {
                return Ok(Some(id));
            }
        }
        if let Some(current) = self.case(&record.id)? {
            return Ok(Some(current.id));
        }
        for citation in &record.citations {
            let Some(key) = &citation.key else { continue };
            let at = self.cases_at(key)?;
            let mut candidates = Vec::new();
            for id in at {
                if let Some(held) = self.case(&id)?
                    && same_decision(&held, record)
                {
                    candidates.push(id);
                }
            }
            if candidates.len() == 1 {
                return Ok(candidates.pop());
            }
        }
        Ok(None)
    }

    fn attach_opinion(
        &mut self,
        record: &mut CaseRecord,
        opinion: NewOpinion,
    ) -> Result<(), StoreError> {
        let text_hash = text_hash(&opinion.text);
        let existing = record
            .opinions
            .iter()
            .find(|o| o.provenance == opinion.provenance);
        if existing.is_some_and(|o| o.text_hash == text_hash) {
            return Ok(());
        }
        let number = match existing {
            Some(existing) => existing.number,
            None => record
                .opinions
                .iter()
                .map(|o| o.number + 1)
                .max()
                .unwrap_or(0),
        };
        let meta = OpinionMeta {
            number,
            kind: opinion.kind,
            author: opinion.author,
            format: opinion.format,
            provenance: opinion.provenance,
            chars: opinion.text.chars().count() as u64,
            text_hash,
        };
        match record.opinions.iter_mut().find(|o| o.number == number) {
            Some(slot) => *slot = meta,
            None => {
                record.opinions.push(meta);
                self.bump("opinions", 1);
            }
        }
        self.texts.insert(
            (record.id.as_str(), number),
            compress(&opinion.text).as_slice(),
        )?;
        let plain = match opinion.format {
            BodyFormat::Html => markup_to_text(&opinion.text),
            BodyFormat::Markdown | BodyFormat::Text => opinion.text,
        };
        super::graph::link_text(self, &record.id, &plain)?;
        Ok(())
    }

    /// Links every citation of the case into the index; and any citation
    /// that was waiting for this case becomes a graph edge.
    fn index_citations(&mut self, record: &CaseRecord) -> Result<(), StoreError> {
        for citation in &record.citations {
            let Some(key) = &citation.key else { continue };
            let index_key = (key.reporter.as_str(), key.volume, key.page);
            let mut ids = self
                .cite_index
                .get(index_key)?
                .map(|v| split_ids(v.value()))
                .unwrap_or_default();
            if !ids.contains(&record.id) {
                ids.push(record.id.clone());
                self.cite_index.insert(index_key, ids.join("\n").as_str())?;
            }
            let waiting: Vec<(String, Edge)> = {
                let mut found = Vec::new();
                let start = (key.reporter.as_str(), key.volume, key.page, "");
                for row in self.unresolved.range(start..)? {
                    let (k, v) = row?;
                    let (reporter, volume, page, citing) = k.value();
                    if (reporter, volume, page) != index_key {
                        break;
                    }
                    found.push((citing.to_string(), serde_json::from_slice(v.value())?));
                }
                found
            };
            for (citing, edge) in waiting {
                self.add_edge(&citing, &record.id, edge.count, edge.passage)?;
                self.unresolved
                    .remove((index_key.0, index_key.1, index_key.2, citing.as_str()))?;
            }
        }
        Ok(())
    }
}

/// Whether two records at the same citation describe one decision: names
/// that fit each other and, when both are dated, the same year.
fn same_decision(held: &CaseRecord, new: &CaseRecord) -> bool {
    let years_agree = match (held.year(), new.year()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    years_agree
        && (held.name.is_empty() || new.name.is_empty() || names_compatible(&held.name, &new.name))
}

fn split_ids(joined: &str) -> Vec<String> {
    joined
        .split('\n')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// FNV-1a: a stable hash (std's is seeded per process).
fn text_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn compress(text: &str) -> Vec<u8> {
    lz4_flex::compress_prepend_size(text.as_bytes())
}

fn decompress(bytes: &[u8]) -> Result<String, StoreError> {
    let raw = lz4_flex::decompress_size_prepended(bytes)
        .map_err(|err| StoreError::Corrupt(format!("opinion text: {err}")))?;
    String::from_utf8(raw).map_err(|err| StoreError::Corrupt(format!("opinion text: {err}")))
}

/// The search-document id of an authority: `<code>/<title>/<section>`.
pub fn authority_index_id(authority: &Authority) -> String {
    format!("authority:{}", authority.id())
}
