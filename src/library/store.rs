//! The library's records in redb: reads on a snapshot, and a writer that
//! holds every table open for the length of one import transaction.

use redb::{
    ReadTransaction, ReadableTable, ReadableTableMetadata, Table, TableDefinition, WriteTransaction,
};
use serde::{Deserialize, Serialize};

use super::cite_snapshot::CiteSnapshot;
use super::graph::{self, CitedCase, Edge, Link, OutEdges, PassageAt};
use super::model::{
    Authority, BodyFormat, CaseCitation, CaseRecord, CiteKey, LawCoverage, NewCase, NewOpinion,
    OpinionMeta, Provenance, order_series, reporter_spelling, shown_name,
};
use super::names::names_compatible;
use super::text::markup_to_text;
use std::collections::{BTreeMap, BTreeSet};

use crate::citations::reporters;
use crate::store::tables::{
    AUTHORITIES, CASES, CITATIONS_LISTED, CITE_INDEX, COURTLISTENER_OPINIONS, COVERAGE,
    COVERAGE_PENDING, EXTERNAL_IDS, GRAPH_OUT, IMPORT_DOCKETS, IMPORT_PROGRESS, INDEX_PENDING,
    LAW_COVERAGE, LIBRARY_META, OPINION_TEXTS, OVERRULINGS, UNRESOLVED_CITES,
};
use crate::store::{StoreError, encode};

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
    nearest_at_or_before(&txn.open_table(CITE_INDEX)?, reporter, volume, page)
}

/// [`case_starting_before`] in a citation index open for reading or
/// writing.
fn nearest_at_or_before(
    cite_index: &impl ReadableTable<(&'static str, u32, u32), &'static str>,
    reporter: &str,
    volume: u32,
    page: u32,
) -> Result<Option<(u32, Vec<String>)>, StoreError> {
    let mut range = cite_index.range((reporter, volume, 0)..=(reporter, volume, page))?;
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

/// An opinion's text with its markup removed: what citations were read
/// from (and what [`PassageAt`] offsets count in).
pub fn opinion_plain_text(
    txn: &ReadTransaction,
    case: &CaseRecord,
    number: u32,
) -> Result<Option<String>, StoreError> {
    let Some(opinion) = case.opinions.iter().find(|o| o.number == number) else {
        return Ok(None);
    };
    Ok(opinion_text(txn, &case.id, number)?.map(|body| plain_text(opinion.format, body)))
}

/// The sentence of `citing`'s opinion where it cites a case.
pub fn passage(
    txn: &ReadTransaction,
    citing: &str,
    at: PassageAt,
) -> Result<Option<String>, StoreError> {
    let Some(case) = case(txn, citing)? else {
        return Ok(None);
    };
    Ok(opinion_plain_text(txn, &case, at.opinion)?
        .map(|text| graph::passage(&text, at.start as usize..at.end as usize)))
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

/// The authorities of a code title whose section starts with `prefix`, in
/// section order.
pub fn authorities_with_prefix(
    txn: &ReadTransaction,
    code: &str,
    title: &str,
    prefix: &str,
) -> Result<Vec<Authority>, StoreError> {
    let table = txn.open_table(AUTHORITIES)?;
    let mut found = Vec::new();
    for row in table.range((code, title, prefix)..)? {
        let (key, value) = row?;
        let (c, t, section) = key.value();
        if c != code || t != title || !section.starts_with(prefix) {
            break;
        }
        found.push(serde_json::from_slice(value.value())?);
    }
    Ok(found)
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

/// Cases this case cites, with the edges, in cited-id order.
pub fn cited_by_case(
    txn: &ReadTransaction,
    citing: &str,
) -> Result<Vec<(String, Edge)>, StoreError> {
    let table = txn.open_table(GRAPH_OUT)?;
    match table.get(citing)? {
        Some(bytes) => Ok(OutEdges::decode(bytes.value())?.0),
        None => Ok(Vec::new()),
    }
}

/// Every id of `source` held, with its case id.
pub fn external_ids(
    txn: &ReadTransaction,
    source: &str,
    each: impl FnMut(&str, &str),
) -> Result<(), StoreError> {
    each_external_id(&txn.open_table(EXTERNAL_IDS)?, source, each)
}

/// [`external_ids`] of a table read or written.
fn each_external_id(
    table: &impl ReadableTable<(&'static str, &'static str), &'static str>,
    source: &str,
    mut each: impl FnMut(&str, &str),
) -> Result<(), StoreError> {
    for row in table.range((source, "")..)? {
        let (key, case_id) = row?;
        let (from, id) = key.value();
        if from != source {
            break;
        }
        each(id, case_id.value());
    }
    Ok(())
}

/// The ids rows of an import file name, which the library may lack (a
/// citation names its cluster, a citation-map row its opinions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamedIds {
    /// The case ids of a source (CourtListener cluster ids).
    Cases(&'static str),
    CourtListenerOpinions,
}

/// How many ids of that kind the library holds: it grows when an import
/// brings a case or opinion such rows name. A source's case ids are
/// counted by a scan of them, so this is asked only of files that had
/// rows naming missing ones.
pub fn count_named_ids(txn: &ReadTransaction, named: NamedIds) -> Result<u64, StoreError> {
    Ok(match named {
        NamedIds::Cases(source) => {
            let mut held = 0;
            external_ids(txn, source, |_, _| held += 1)?;
            held
        }
        NamedIds::CourtListenerOpinions => txn.open_table(COURTLISTENER_OPINIONS)?.len()?,
    })
}

/// Every CourtListener opinion id held, with its case id.
pub fn courtlistener_opinions(
    txn: &ReadTransaction,
    mut each: impl FnMut(u64, &str),
) -> Result<(), StoreError> {
    let table = txn.open_table(COURTLISTENER_OPINIONS)?;
    for row in table.iter()? {
        let (opinion, case_id) = row?;
        each(opinion.value(), case_id.value());
    }
    Ok(())
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

/// An opinion made ready to store: compressed, hashed, and read for the
/// cases it cites. Preparing needs no store, so importers prepare opinions
/// on other cores and the writer only stores them.
pub struct PreparedOpinion {
    /// Everything but the number, which the case decides when it is stored.
    meta: OpinionMeta,
    compressed: Vec<u8>,
    cited: Vec<CitedCase>,
    /// The case ids at each cited address, when they were looked up in a
    /// [`CiteSnapshot`] while preparing; otherwise the writer reads them.
    cited_ids: Option<Vec<Vec<String>>>,
}

impl PreparedOpinion {
    pub fn new(opinion: NewOpinion) -> Self {
        let NewOpinion {
            kind,
            author,
            format,
            text,
            provenance,
        } = opinion;
        let meta = OpinionMeta {
            number: 0,
            kind,
            author,
            format,
            provenance,
            chars: text.chars().count() as u64,
            text_hash: stable_hash(&text),
        };
        let compressed = compress(&text);
        let cited = graph::cited_cases(&plain_text(format, text));
        Self {
            meta,
            compressed,
            cited,
            cited_ids: None,
        }
    }

    /// Looks up the cases this opinion cites in `snapshot`, so that the
    /// writer need not.
    pub fn resolve_cited(&mut self, snapshot: &CiteSnapshot) {
        self.cited_ids = Some(
            self.cited
                .iter()
                .map(|case| snapshot.cases_at(&case.key))
                .collect(),
        );
    }
}

/// An opinion body as plain text: markup removed, other formats as they are.
pub fn plain_text(format: BodyFormat, body: String) -> String {
    match format {
        BodyFormat::Html => markup_to_text(&body),
        BodyFormat::Markdown | BodyFormat::Text => body,
    }
}

/// What storing a case did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub id: String,
    pub created: bool,
    /// False when the record was already exactly this (a re-import).
    pub changed: bool,
    /// The other sources' ids the record named that belong to a decision
    /// of another name or year: not joined, and left out of the record.
    pub unjoined: Vec<Unjoined>,
    /// Opinions not stored: the case already held
    /// [`MAX_OPINIONS_PER_CASE`].
    pub opinions_refused: usize,
}

/// What adding an opinion to a case did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpinionAdded {
    Stored,
    /// The case holds this opinion already, the same text.
    Unchanged,
    /// The case already holds [`MAX_OPINIONS_PER_CASE`] opinions; this one
    /// is not stored.
    CaseFull,
}

/// Another source's id that names a decision a record does not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unjoined {
    pub source: Provenance,
    /// The decision the id names.
    pub held: String,
}

/// More opinions than any decision has: a source giving one case more
/// (a hostile dump of a million opinion rows for one cluster) has the
/// rest refused, since each one more re-reads and re-writes the case.
pub const MAX_OPINIONS_PER_CASE: usize = 1_000;

/// The pending-coverage mark of a volume a file brings a case of that the
/// library lacks: "withheld:" and the source ("withheld" alone from builds
/// before the source was kept).
const WITHHELD: &str = "withheld";

/// A pending volume's mark: whether it is withheld, and the source of the
/// file that brings it (when known).
fn pending_mark(mark: &str) -> (bool, Option<&str>) {
    match mark.strip_prefix(WITHHELD) {
        Some("") => (true, None),
        Some(rest) => match rest.strip_prefix(':') {
            Some(source) => (true, Some(source)),
            None => (false, Some(mark)),
        },
        None => (false, Some(mark)),
    }
}

/// Citations a file no longer lists, withdrawn from the cases it alone gives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Withdrawn {
    /// Cases the file listed citations for.
    pub listed: usize,
    pub citations: usize,
    pub cases: usize,
}

impl std::ops::AddAssign for Withdrawn {
    fn add_assign(&mut self, more: Self) {
        self.listed += more.listed;
        self.citations += more.citations;
        self.cases += more.cases;
    }
}

/// Every library table, open for one write transaction.
pub struct LibraryWriter<'txn> {
    cases: Table<'txn, &'static str, &'static [u8]>,
    texts: Table<'txn, (&'static str, u32), &'static [u8]>,
    cite_index: Table<'txn, (&'static str, u32, u32), &'static str>,
    external: Table<'txn, (&'static str, &'static str), &'static str>,
    coverage: Table<'txn, (&'static str, u32), &'static str>,
    coverage_pending: Table<'txn, (&'static str, &'static str, u32), &'static str>,
    /// The checkpoint key of the file being imported: its volumes wait in
    /// `coverage_pending` until the whole file is in.
    import_key: Option<String>,
    citations_listed: Table<'txn, (u64, &'static str), &'static str>,
    law_coverage: Table<'txn, (&'static str, &'static str), &'static [u8]>,
    authorities: Table<'txn, (&'static str, &'static str, &'static str), &'static [u8]>,
    graph_out: Table<'txn, &'static str, &'static [u8]>,
    unresolved: Table<'txn, (&'static str, u32, u32, &'static str), &'static [u8]>,
    overrulings: Table<'txn, (&'static str, &'static str), &'static [u8]>,
    pending: Table<'txn, &'static str, ()>,
    meta: Table<'txn, &'static str, &'static [u8]>,
    progress: Table<'txn, &'static str, &'static [u8]>,
    dockets: Table<'txn, u64, &'static [u8]>,
    courtlistener_opinions: Table<'txn, u64, &'static str>,
    counts: BTreeMap<String, i64>,
}

/// What [`LibraryWriter::settle_coverage`] made of a file's volumes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Settled {
    /// Volumes it brings that are not held: rows were skipped.
    pub withheld: usize,
    /// Volumes held from now on.
    pub newly_held: usize,
    /// Of those, volumes where [`Self::SPARSE_CASES`] pages or fewer start
    /// a case the library holds: a reporter volume prints dozens of cases,
    /// so a file whose volumes are mostly so is likely a sample imported as
    /// a whole dump.
    pub sparse: usize,
    /// The source its volumes are held by.
    pub source: Option<String>,
}

impl Settled {
    pub const SPARSE_CASES: usize = 2;
}

/// What a cluster needs from its docket during a CourtListener import.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocketInfo {
    pub court: Option<String>,
    pub number: Option<String>,
}

/// The counters kept in `LIBRARY_META["counts"]`.
pub type Counts = BTreeMap<String, i64>;

/// Whether the file imported under checkpoint `key` has citations listed
/// ([`LibraryWriter::list_citations`]) still to settle.
pub fn lists_citations(txn: &ReadTransaction, key: &str) -> Result<bool, StoreError> {
    let table = match txn.open_table(CITATIONS_LISTED) {
        Ok(table) => table,
        // A library no import has written to since the table was added.
        Err(redb::TableError::TableDoesNotExist(_)) => return Ok(false),
        Err(err) => return Err(err.into()),
    };
    let file = stable_hash(key);
    let first = table.range((file, "")..)?.next().transpose()?;
    Ok(first.is_some_and(|(listing, _)| listing.value().0 == file))
}

pub fn counts(txn: &ReadTransaction) -> Result<Counts, StoreError> {
    let table = txn.open_table(LIBRARY_META)?;
    match table.get("counts")? {
        Some(bytes) => Ok(serde_json::from_slice(bytes.value())?),
        None => Ok(Counts::new()),
    }
}

/// A JSON value kept in `LIBRARY_META`.
/// Whether a CourtListener import keeps dockets for clusters still to
/// come ([`LibraryWriter::holds_dockets`]).
pub fn holds_import_dockets(txn: &ReadTransaction) -> Result<bool, StoreError> {
    Ok(txn.open_table(IMPORT_DOCKETS)?.first()?.is_some())
}

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
            coverage_pending: txn.open_table(COVERAGE_PENDING)?,
            import_key: None,
            citations_listed: txn.open_table(CITATIONS_LISTED)?,
            law_coverage: txn.open_table(LAW_COVERAGE)?,
            authorities: txn.open_table(AUTHORITIES)?,
            graph_out: txn.open_table(GRAPH_OUT)?,
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

    /// Removes every checkpoint whose key starts with `prefix`; returns
    /// how many there were.
    pub fn forget_checkpoints(&mut self, prefix: &str) -> Result<usize, StoreError> {
        let mut keys = Vec::new();
        for row in self.progress.range(prefix..)? {
            let (key, _) = row?;
            if !key.value().starts_with(prefix) {
                break;
            }
            keys.push(key.value().to_string());
        }
        for key in &keys {
            self.progress.remove(key.as_str())?;
        }
        Ok(keys.len())
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

    /// Whether this import keeps any dockets: a run that read a dockets
    /// file, where a cluster's docket it lacks is missing from the dump.
    pub fn holds_dockets(&self) -> Result<bool, StoreError> {
        Ok(self.dockets.first()?.is_some())
    }

    pub fn set_courtlistener_opinion(
        &mut self,
        opinion: u64,
        case_id: &str,
    ) -> Result<(), StoreError> {
        self.courtlistener_opinions.insert(opinion, case_id)?;
        Ok(())
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
        let link = Link {
            cited: cited.to_string(),
            count: 1,
            passage: None,
            parentheticals: vec![text.to_string()],
        };
        self.add_links(citing, vec![link])
    }

    /// Changes the edges of `citing` with `change` (which says how many
    /// edges it made) and stores them when they changed; the case's search
    /// document then lists what it cites anew.
    fn update_edges(
        &mut self,
        citing: &str,
        change: impl FnOnce(&mut OutEdges) -> u64,
    ) -> Result<(), StoreError> {
        let mut edges = match self.graph_out.get(citing)? {
            Some(bytes) => OutEdges::decode(bytes.value())?,
            None => OutEdges::default(),
        };
        let before = edges.clone();
        let made = change(&mut edges);
        if edges != before {
            self.graph_out.insert(citing, edges.encode().as_slice())?;
            self.mark_for_index(citing)?;
            self.bump("edges", made as i64);
        }
        Ok(())
    }

    /// Marks every case and authority for the indexing pass.
    pub fn mark_all_for_index(&mut self) -> Result<(), StoreError> {
        let mut ids: Vec<String> = Vec::new();
        for row in self.cases.iter()? {
            ids.push(row?.0.value().to_string());
        }
        for row in self.authorities.iter()? {
            let authority: Authority = serde_json::from_slice(row?.1.value())?;
            ids.push(authority_index_id(&authority));
        }
        for id in ids {
            self.pending.insert(id.as_str(), ())?;
        }
        Ok(())
    }

    /// Marks a record for the indexing pass (authorities use their id).
    pub fn mark_for_index(&mut self, id: &str) -> Result<(), StoreError> {
        // A read is cheaper than a write, and in a bulk import most
        // records are already marked.
        if self.pending.get(id)?.is_none() {
            self.pending.insert(id, ())?;
        }
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

    /// The cases that start nearest at or before `key`'s page in its
    /// volume, with their first page: the only ones that can hold it.
    pub fn case_starting_before(
        &self,
        key: &CiteKey,
    ) -> Result<Option<(u32, Vec<String>)>, StoreError> {
        nearest_at_or_before(&self.cite_index, &key.reporter, key.volume, key.page)
    }

    /// Stores a case: the same source record again changes nothing; a new
    /// source on a decision already held (same citation, compatible name and
    /// year) is merged into it; anything else is a new case.
    pub fn put_case(&mut self, new: NewCase) -> Result<Stored, StoreError> {
        self.put_case_keeping(new, &[])
    }

    /// [`Self::put_case`] of a source's row some of whose citation cells
    /// could not be read: the case keeps what it holds in those reporters,
    /// since a cell that is no citation is no correction withdrawing one.
    pub fn put_case_keeping(
        &mut self,
        new: NewCase,
        unread_reporters: &[&str],
    ) -> Result<Stored, StoreError> {
        let NewCase {
            mut record,
            opinions,
        } = new;
        record.clean_names();
        let (existing, unjoined) = self.find_existing(&mut record)?;
        let (mut stored, created, before, held_citations) = match existing {
            Some(id) => {
                let current = self.case(&id)?.unwrap_or_default();
                let before = encode(&current)?;
                let held_citations = current.citations.clone();
                for held in &current.citations {
                    let unread = held
                        .key
                        .as_ref()
                        .is_some_and(|key| unread_reporters.contains(&key.reporter.as_str()));
                    if unread && !record.citations.iter().any(|c| c.is_written_as(held)) {
                        record.citations.push(held.clone());
                    }
                }
                let mut merged = current;
                merged.merge(record);
                (merged, false, Some(before), held_citations)
            }
            None => (record, true, None, Vec::new()),
        };
        let mut opinions_refused = 0;
        for opinion in opinions {
            if self.attach_opinion(&mut stored, PreparedOpinion::new(opinion))?
                == OpinionAdded::CaseFull
            {
                opinions_refused += 1;
            }
        }
        let bytes = encode(&stored)?;
        let changed = before.as_deref() != Some(bytes.as_slice());
        if changed {
            self.cases.insert(stored.id.as_str(), bytes.as_slice())?;
            let new_citations: Vec<CaseCitation> = stored
                .citations
                .iter()
                .filter(|c| !held_citations.iter().any(|held| held.key == c.key))
                .cloned()
                .collect();
            self.index_citations(&stored.id, &new_citations)?;
            let withdrawn: Vec<CiteKey> = held_citations
                .iter()
                .filter_map(|held| held.key.clone())
                .filter(|key| !stored.citations.iter().any(|c| c.key.as_ref() == Some(key)))
                .collect();
            self.unindex_citations(&stored.id, &withdrawn)?;
            for source in &stored.provenance {
                self.register_source(source, &stored.id)?;
            }
            self.mark_for_index(&stored.id)?;
        }
        if created {
            self.bump("cases", 1);
        }
        Ok(Stored {
            id: stored.id,
            created,
            changed,
            unjoined,
            opinions_refused,
        })
    }

    /// Adds (or, from the same source, replaces) an opinion of a stored case.
    pub fn add_opinion(
        &mut self,
        case_id: &str,
        opinion: PreparedOpinion,
    ) -> Result<Option<OpinionAdded>, StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(None);
        };
        let added = self.attach_opinion(&mut record, opinion)?;
        if added == OpinionAdded::Stored {
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.mark_for_index(case_id)?;
        }
        Ok(Some(added))
    }

    /// Adds citations to a stored case (and to the citation index); returns
    /// the case they went to, none when the case is not held, and the
    /// citations added beside another page the case holds in their reporter
    /// (sources that disagree: both are kept, and the import says so). A case that
    /// came without citations or opinions (a CourtListener cluster: its
    /// citations are a table of their own) first joins the decision held at
    /// one of them, as [`Self::put_case`] joins a record that brings its
    /// citations along.
    pub fn add_citations(
        &mut self,
        case_id: &str,
        citations: Vec<CaseCitation>,
    ) -> Result<Option<CitationsAdded>, StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(None);
        };
        if record.citations.is_empty()
            && record.opinions.is_empty()
            && let Some(held) = self.decision_held_at(&record, &citations)?
        {
            self.join(record, &held)?;
            return self.add_citations(&held, citations);
        }
        let mut added: Vec<CaseCitation> = Vec::new();
        let mut beside_held = Vec::new();
        // A case of one source giving another page corrects it (a later
        // file withdraws the old); of several, the sources disagree.
        let several_sources = record.provenance.len() > 1;
        for citation in citations {
            let known = record
                .citations
                .iter()
                .chain(&added)
                .any(|c| c.is_written_as(&citation));
            if known {
                continue;
            }
            let elsewhere = citation
                .key
                .as_ref()
                .filter(|_| several_sources)
                .and_then(|key| record.cite_keys_in(&key.reporter).find(|k| *k != key));
            if let Some(held) = elsewhere {
                beside_held.push((citation.cite.clone(), held.to_string()));
            }
            added.push(citation);
        }
        if !added.is_empty() {
            self.index_citations(case_id, &added)?;
            record.citations.extend(added);
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.mark_for_index(case_id)?;
        }
        Ok(Some(CitationsAdded {
            case_id: case_id.to_string(),
            beside_held,
        }))
    }

    /// Adds citations `giver` gives a stored case, `giver` becoming one of
    /// its sources: a record whose only source gives it again withdraws the
    /// citations it no longer gives, and must not take these for its own.
    pub fn add_citations_given_by(
        &mut self,
        case_id: &str,
        citations: Vec<CaseCitation>,
        giver: Provenance,
    ) -> Result<(), StoreError> {
        let Some(CitationsAdded {
            case_id: held_by, ..
        }) = self.add_citations(case_id, citations)?
        else {
            return Ok(());
        };
        let Some(mut record) = self.case(&held_by)? else {
            return Ok(());
        };
        if record.provenance.contains(&giver) {
            return Ok(());
        }
        self.register_source(&giver, &held_by)?;
        record.provenance.push(giver);
        self.cases
            .insert(held_by.as_str(), encode(&record)?.as_slice())?;
        self.mark_for_index(&held_by)?;
        Ok(())
    }

    /// Finds case `case_id` by `source`'s id for it from now on, counting
    /// it among that source's cases the first time.
    fn register_source(&mut self, source: &Provenance, case_id: &str) -> Result<(), StoreError> {
        let key = (source.source.as_str(), source.id.as_str());
        if self.external.get(key)?.is_none() {
            self.external.insert(key, case_id)?;
            self.bump(&format!("source:{}", source.source), 1);
        }
        Ok(())
    }

    /// Moves a case nothing refers to yet but its sources (no citations, no
    /// opinions) into the held decision `into`: its fields and sources, as a
    /// later source of that decision. Its id leaves the search index.
    fn join(&mut self, record: CaseRecord, into: &str) -> Result<(), StoreError> {
        let Some(mut held) = self.case(into)? else {
            return Ok(());
        };
        let joined = record.id.clone();
        for source in &record.provenance {
            self.external
                .insert((source.source.as_str(), source.id.as_str()), into)?;
        }
        held.merge(record);
        self.cases.insert(into, encode(&held)?.as_slice())?;
        self.cases.remove(joined.as_str())?;
        self.mark_for_index(&joined)?;
        self.mark_for_index(into)?;
        self.bump("cases", -1);
        Ok(())
    }

    /// Records a case decided with `case_id` and reported under its
    /// citation: its name, and its docket number.
    pub fn add_companion(
        &mut self,
        case_id: &str,
        name: &str,
        docket: Option<&str>,
    ) -> Result<(), StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(());
        };
        let name = shown_name(name);
        let name = name.as_ref();
        let mut changed = false;
        // A docket decided under the case's own caption adds no name.
        if !name.is_empty()
            && name != record.name
            && !record.companion_names.iter().any(|n| n == name)
        {
            record.companion_names.push(name.to_string());
            changed = true;
        }
        if let Some(docket) = docket
            && !record.docket_numbers.iter().any(|d| d == docket)
        {
            record.docket_numbers.push(docket.to_string());
            changed = true;
        }
        if changed {
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.mark_for_index(case_id)?;
        }
        Ok(())
    }

    /// Gives a case the name a later source knows, when it has none.
    pub fn fill_missing_name(&mut self, case_id: &str, name: &str) -> Result<(), StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(());
        };
        let name = shown_name(name);
        if record.name.is_empty() && !name.trim().is_empty() {
            record.name = name.trim().to_string();
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.mark_for_index(case_id)?;
        }
        Ok(())
    }

    pub fn add_alias(&mut self, source: &str, id: &str, case_id: &str) -> Result<(), StoreError> {
        self.external.insert((source, id), case_id)?;
        Ok(())
    }

    /// Removes the alias `(source, id)` when it names `case_id`; returns
    /// whether it did.
    pub fn remove_alias(
        &mut self,
        source: &str,
        id: &str,
        case_id: &str,
    ) -> Result<bool, StoreError> {
        let names_it = self
            .external
            .get((source, id))?
            .is_some_and(|held| held.value() == case_id);
        if names_it {
            self.external.remove((source, id))?;
        }
        Ok(names_it)
    }

    /// The cases that hold a record of `source`.
    pub fn case_ids_of(&self, source: &str) -> Result<BTreeSet<String>, StoreError> {
        let mut cases = BTreeSet::new();
        each_external_id(&self.external, source, |_, case_id| {
            cases.insert(case_id.to_string());
        })?;
        Ok(cases)
    }

    /// Removes a case without opinions: its record, its citations from the
    /// index, and its sources' ids (which no longer count for their
    /// source). Its id leaves the search index. The caller removes any
    /// other alias naming it ([`Self::remove_alias`]).
    pub fn remove_case_without_opinions(&mut self, case: &CaseRecord) -> Result<(), StoreError> {
        let keys: Vec<CiteKey> = case.cite_keys().cloned().collect();
        self.unindex_citations(&case.id, &keys)?;
        for source in &case.provenance {
            if self.remove_alias(&source.source, &source.id, &case.id)? {
                self.bump(&format!("source:{}", source.source), -1);
            }
        }
        if self.cases.remove(case.id.as_str())?.is_some() {
            self.bump("cases", -1);
        }
        self.mark_for_index(&case.id)
    }

    /// Drops from a case's companion names its own name, which builds
    /// before version 20 of the default library could list there.
    pub fn drop_own_name_from_companions(&mut self, case_id: &str) -> Result<(), StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(());
        };
        let before = record.companion_names.len();
        let own = record.name.clone();
        record.companion_names.retain(|name| *name != own);
        if record.companion_names.len() < before {
            self.cases.insert(case_id, encode(&record)?.as_slice())?;
            self.mark_for_index(case_id)?;
        }
        Ok(())
    }

    /// Holds back the volumes marked from now on until [`Self::settle_coverage`]
    /// for the file under `key`.
    pub fn import_file(&mut self, key: &str) {
        self.import_key = Some(key.to_string());
    }

    /// `source` brought the whole volume (held once the file being imported
    /// is all in). A series without pages (Westlaw, LEXIS, neutral
    /// citations) is never held: a bulk dump carries some of its documents.
    /// False when it is no volume the library can speak for: volume 0, or
    /// of a reporter the citation engine does not know (a citation to it is
    /// never read, and a source's typo or junk must not show as a held
    /// reporter). A known series without pages is not held either, but is
    /// no fault of the source's: true.
    pub fn mark_volume_held(
        &mut self,
        reporter: &str,
        volume: u32,
        source: &str,
    ) -> Result<bool, StoreError> {
        if let Some((reporter, _)) = order_series(reporter) {
            return Ok(reporters::is_known(reporter));
        }
        if volume == 0 || !reporters::is_known(reporter) {
            return Ok(false);
        }
        if !reporters::has_pages(reporter) {
            return Ok(true);
        }
        match &self.import_key {
            Some(key) => {
                let pending = (key.as_str(), reporter, volume);
                if self.coverage_pending.get(pending)?.is_none() {
                    self.coverage_pending.insert(pending, source)?;
                }
            }
            None => {
                if self.coverage.get((reporter, volume))?.is_none() {
                    self.coverage.insert((reporter, volume), source)?;
                }
            }
        }
        Ok(true)
    }

    /// Forgets the volumes `source` said it held (of reporter `only`, when
    /// given); returns how many. A volume two sources' lists hold together
    /// ("scotus_dates+scdb") is forgotten when either is: neither list
    /// alone names every case there.
    pub fn forget_volumes_held_by(
        &mut self,
        source: &str,
        only: Option<&str>,
    ) -> Result<usize, StoreError> {
        // A label of several ("scotus_dates+scdb", as `library status`
        // names volumes they hold together) names those volumes alone.
        let label: BTreeSet<&str> = source.split('+').collect();
        let mut stale = Vec::new();
        for row in self.coverage.iter()? {
            let (key, held_by) = row?;
            let (reporter, volume) = key.value();
            let held_by_source = match label.len() {
                1 => holders(held_by.value()).any(|held| held == source),
                _ => holders(held_by.value()).collect::<BTreeSet<_>>() == label,
            };
            if held_by_source && only.is_none_or(|only| only == reporter) {
                stale.push((reporter.to_string(), volume));
            }
        }
        for (reporter, volume) in &stale {
            self.coverage.remove((reporter.as_str(), *volume))?;
        }
        Ok(stale.len())
    }

    /// The sources that hold whole volumes of `reporter` (of any, when not
    /// given).
    pub fn sources_holding_volumes(
        &self,
        reporter: Option<&str>,
    ) -> Result<BTreeSet<String>, StoreError> {
        let mut sources = BTreeSet::new();
        for row in self.coverage.iter()? {
            let (key, held_by) = row?;
            if reporter.is_none_or(|reporter| reporter == key.value().0) {
                sources.extend(holders(held_by.value()).map(str::to_string));
            }
        }
        Ok(sources)
    }

    /// A case of the file being imported is in this volume but not in the
    /// library (at a page not given, or of a record the library lacks): the
    /// volume will not be held, whatever else the file brings.
    pub fn withhold_volume(
        &mut self,
        reporter: &str,
        volume: u32,
        source: &str,
    ) -> Result<(), StoreError> {
        if let Some(key) = &self.import_key {
            let mark = format!("{WITHHELD}:{source}");
            self.coverage_pending
                .insert((key.as_str(), reporter, volume), mark.as_str())?;
        }
        Ok(())
    }

    /// Malformed rows of the file being imported were skipped: the volumes
    /// it brings may lack them, so none will be held.
    pub fn mark_import_incomplete(&mut self) -> Result<(), StoreError> {
        if let Some(key) = &self.import_key {
            self.coverage_pending
                .insert((key.as_str(), "", 0), "incomplete")?;
        }
        Ok(())
    }

    /// The file under `key` is all in: its volumes become held, unless rows
    /// were skipped (in this run or a killed one before it). A volume it
    /// brings but cannot hold, that an earlier file of the same source held,
    /// is no longer held: this file has a case there the library lacks.
    pub fn settle_coverage(&mut self, key: &str) -> Result<Settled, StoreError> {
        let mut settled = Settled::default();
        let mut volumes = Vec::new();
        for entry in self
            .coverage_pending
            .range((key, "", 0)..=(key, "\u{10ffff}", u32::MAX))?
        {
            let (pending, source) = entry?;
            let (_, reporter, volume) = pending.value();
            volumes.push((reporter.to_string(), volume, source.value().to_string()));
        }
        let incomplete = volumes.iter().any(|(reporter, _, _)| reporter.is_empty());
        let file_source = volumes
            .iter()
            .filter(|(reporter, _, _)| !reporter.is_empty())
            .find_map(|(_, _, mark)| pending_mark(mark).1)
            .map(str::to_string);
        for (reporter, volume, mark) in &volumes {
            self.coverage_pending
                .remove((key, reporter.as_str(), *volume))?;
            if reporter.is_empty() {
                continue;
            }
            let held_by = self
                .coverage
                .get((reporter.as_str(), *volume))?
                .map(|held| held.value().to_string());
            let (withheld, source) = pending_mark(mark);
            let holds = !incomplete && !withheld;
            match (held_by, source) {
                (None, Some(source)) if holds => {
                    self.coverage.insert((reporter.as_str(), *volume), source)?;
                    settled.newly_held += 1;
                    let cases = self
                        .cite_index
                        .range(
                            (reporter.as_str(), *volume, 0)
                                ..=(reporter.as_str(), *volume, u32::MAX),
                        )?
                        .take(Settled::SPARSE_CASES + 1)
                        .count();
                    if cases <= Settled::SPARSE_CASES {
                        settled.sparse += 1;
                    }
                }
                (Some(held_by), _)
                    if !holds && file_source.as_deref() == Some(held_by.as_str()) =>
                {
                    self.coverage.remove((reporter.as_str(), *volume))?;
                }
                _ => {}
            }
        }
        settled.withheld = if incomplete { volumes.len() - 1 } else { 0 };
        settled.source = file_source;
        Ok(settled)
    }

    /// The file being imported lists `citations` for case `case_id`: once
    /// it is all in, [`Self::settle_listed_citations`] withdraws the ones
    /// it does not list.
    pub fn list_citations(
        &mut self,
        case_id: &str,
        citations: &[CaseCitation],
    ) -> Result<(), StoreError> {
        let Some(key) = &self.import_key else {
            return Ok(());
        };
        let entry = (stable_hash(key), case_id);
        let mut listed: String = self
            .citations_listed
            .get(entry)?
            .map(|held| held.value().to_string())
            .unwrap_or_default();
        for citation in citations {
            if !listed.split('\n').any(|cite| cite == citation.cite) {
                if !listed.is_empty() {
                    listed.push('\n');
                }
                listed.push_str(&citation.cite);
            }
        }
        self.citations_listed.insert(entry, listed.as_str())?;
        Ok(())
    }

    /// Settles up to `max_cases` of the cases the file `key` listed
    /// citations for, once it is all in: unless a row of it was malformed
    /// (it may have been any case's citation), a case whose every source is
    /// one source (the file's) loses the citations it held that the file
    /// does not list. A case another source also gives keeps them all: the
    /// records do not say which source gave a citation. A settled case's
    /// listing is dropped, so settling is done in chunks until none is
    /// left.
    pub fn settle_listed_citations(
        &mut self,
        key: &str,
        withdraw: bool,
        max_cases: usize,
    ) -> Result<Withdrawn, StoreError> {
        let file = stable_hash(key);
        let mut chunk = Vec::new();
        for entry in self.citations_listed.range((file, "")..)? {
            let (listing, cites) = entry?;
            let (listed_by, case_id) = listing.value();
            if listed_by != file || chunk.len() == max_cases {
                break;
            }
            chunk.push((case_id.to_string(), cites.value().to_string()));
        }
        let mut withdrawn = Withdrawn::default();
        for (case_id, listed) in chunk {
            self.citations_listed.remove((file, case_id.as_str()))?;
            withdrawn.listed += 1;
            if withdraw {
                let dropped = self.withdraw_unlisted(&case_id, &listed)?;
                if dropped > 0 {
                    withdrawn.citations += dropped;
                    withdrawn.cases += 1;
                }
            }
        }
        Ok(withdrawn)
    }

    /// Withdraws the citations of a case of one source that `listed` (as
    /// printed, one a line) does not hold; how many.
    fn withdraw_unlisted(&mut self, case_id: &str, listed: &str) -> Result<usize, StoreError> {
        let Some(mut record) = self.case(case_id)? else {
            return Ok(0);
        };
        let one_source = record.provenance.first().is_some_and(|first| {
            record
                .provenance
                .iter()
                .all(|source| source.source == first.source)
        });
        if !one_source {
            return Ok(0);
        }
        let (kept, dropped): (Vec<CaseCitation>, Vec<CaseCitation>) =
            std::mem::take(&mut record.citations)
                .into_iter()
                .partition(|held| listed.split('\n').any(|cite| held.reads_as(cite)));
        record.citations = kept;
        if dropped.is_empty() {
            return Ok(0);
        }
        // An address a kept citation has too ("1 Cranch 137" and "5 U.S.
        // 137") stays in the index.
        let unindexed: Vec<CiteKey> = dropped
            .iter()
            .filter_map(|c| c.key.clone())
            .filter(|key| !record.citations.iter().any(|c| c.key.as_ref() == Some(key)))
            .collect();
        self.unindex_citations(case_id, &unindexed)?;
        self.cases.insert(case_id, encode(&record)?.as_slice())?;
        self.mark_for_index(case_id)?;
        Ok(dropped.len())
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
        passage: Option<PassageAt>,
    ) -> Result<(), StoreError> {
        let link = Link {
            cited: cited.to_string(),
            count,
            passage,
            parentheticals: Vec::new(),
        };
        self.add_links(citing, vec![link])
    }

    /// Adds the edges a bulk format links (citing, cited, count), each
    /// keeping the larger of its counts ([`Edge::count`]). Each citing
    /// case's edges are read and written once.
    pub fn add_edges(&mut self, mut edges: Vec<(String, String, u32)>) -> Result<(), StoreError> {
        edges.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        let mut rest = edges.as_slice();
        while let Some((citing, _, _)) = rest.first() {
            let same = rest.iter().take_while(|(c, _, _)| c == citing).count();
            let (group, after) = rest.split_at(same);
            rest = after;
            let links = group
                .iter()
                .map(|(_, cited, count)| Link {
                    cited: cited.clone(),
                    count: *count,
                    ..Link::default()
                })
                .collect();
            self.add_links(citing, links)?;
        }
        Ok(())
    }

    /// Adds links to the edges of `citing` in one write ([`OutEdges::add_all`]);
    /// a case citing itself makes no edge.
    pub fn add_links(&mut self, citing: &str, mut links: Vec<Link>) -> Result<(), StoreError> {
        links.retain(|link| link.cited != citing);
        if links.is_empty() {
            return Ok(());
        }
        self.update_edges(citing, |stored| stored.add_all(links))
    }

    /// Remembers a citation to a case the library does not hold yet.
    pub fn add_unresolved(
        &mut self,
        key: &CiteKey,
        citing: &str,
        count: u32,
        passage: Option<PassageAt>,
    ) -> Result<(), StoreError> {
        let address = (key.reporter.as_str(), key.volume, key.page, citing);
        let waiting = match self.unresolved.get(address)? {
            Some(bytes) => Some(Edge::decode(bytes.value())?),
            None => None,
        };
        let edge = Edge {
            count: waiting.as_ref().map_or(count, |w| w.count.max(count)),
            passage: waiting.and_then(|w| w.passage).or(passage),
            parentheticals: Vec::new(),
        };
        self.unresolved.insert(
            (key.reporter.as_str(), key.volume, key.page, citing),
            edge.encode().as_slice(),
        )?;
        Ok(())
    }

    /// The held decision `record` describes: by one of its sources' ids, its
    /// own id, or a citation. Another source's id (after the record's own)
    /// joins it only to a decision of a fitting name and year; one that
    /// does not fit is taken off the record and returned, with the id of
    /// the decision it names.
    fn find_existing(
        &self,
        record: &mut CaseRecord,
    ) -> Result<(Option<String>, Vec<Unjoined>), StoreError> {
        let mut unjoined = Vec::new();
        let mut found = None;
        let mut index = 0;
        while index < record.provenance.len() {
            let source = &record.provenance[index];
            let Some(id) = self.external_case(&source.source, &source.id)? else {
                index += 1;
                continue;
            };
            let fits = index == 0
                || self
                    .case(&id)?
                    .is_none_or(|held| same_decision(&held, record));
            if fits {
                found = Some(id);
                break;
            }
            unjoined.push(Unjoined {
                source: record.provenance.remove(index),
                held: id,
            });
        }
        if found.is_none()
            && let Some(current) = self.case(&record.id)?
        {
            found = Some(current.id);
        }
        if found.is_none() {
            found = self.decision_held_at(record, &record.citations)?;
        }
        Ok((found, unjoined))
    }

    /// The decision held at one of `citations` that `record` describes: the
    /// one other case there whose name and year fit.
    fn decision_held_at(
        &self,
        record: &CaseRecord,
        citations: &[CaseCitation],
    ) -> Result<Option<String>, StoreError> {
        for citation in citations {
            let Some(key) = &citation.key else { continue };
            let mut candidates = Vec::new();
            for id in self.cases_at(key)? {
                if id != record.id
                    && let Some(held) = self.case(&id)?
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

    /// Gives `record` the opinion (a new one, or a new text of the same
    /// source's); false when it already holds that text.
    fn attach_opinion(
        &mut self,
        record: &mut CaseRecord,
        opinion: PreparedOpinion,
    ) -> Result<OpinionAdded, StoreError> {
        let existing = record
            .opinions
            .iter()
            .find(|o| o.provenance == opinion.meta.provenance);
        if existing.is_some_and(|o| o.text_hash == opinion.meta.text_hash) {
            return Ok(OpinionAdded::Unchanged);
        }
        if existing.is_none() && record.opinions.len() >= MAX_OPINIONS_PER_CASE {
            return Ok(OpinionAdded::CaseFull);
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
        let PreparedOpinion {
            meta,
            compressed,
            cited,
            cited_ids,
        } = opinion;
        let meta = OpinionMeta { number, ..meta };
        match record.opinions.iter_mut().find(|o| o.number == number) {
            Some(slot) => *slot = meta,
            None => {
                record.opinions.push(meta);
                self.bump("opinions", 1);
            }
        }
        self.texts
            .insert((record.id.as_str(), number), compressed.as_slice())?;
        let cited_ids = match cited_ids {
            Some(ids) => ids,
            None => cited
                .iter()
                .map(|case| self.cases_at(&case.key))
                .collect::<Result<_, _>>()?,
        };
        self.link_cited(&record.id, number, &cited, cited_ids)?;
        Ok(OpinionAdded::Stored)
    }

    /// Makes an edge for every case an opinion cites that the library
    /// holds (`cited_ids`: the cases at each cited address); a citation to
    /// a case not held waits for it.
    fn link_cited(
        &mut self,
        citing: &str,
        opinion: u32,
        cited: &[CitedCase],
        cited_ids: Vec<Vec<String>>,
    ) -> Result<(), StoreError> {
        let mut held = Vec::with_capacity(cited.len());
        for (case, ids) in cited.iter().zip(cited_ids) {
            let at = PassageAt {
                opinion,
                start: case.first.start,
                end: case.first.end,
            };
            match ids.as_slice() {
                [one] => held.push(Link {
                    cited: one.clone(),
                    count: case.count,
                    passage: Some(at),
                    parentheticals: Vec::new(),
                }),
                [] => self.add_unresolved(&case.key, citing, case.count, Some(at))?,
                // Ambiguous: several cases start at that page; no edge is guessed.
                _ => {}
            }
        }
        self.add_links(citing, held)
    }

    /// Takes case `id` off the citation index at `keys` (citations its source
    /// no longer gives).
    fn unindex_citations(&mut self, id: &str, keys: &[CiteKey]) -> Result<(), StoreError> {
        for key in keys {
            let index_key = (key.reporter.as_str(), key.volume, key.page);
            let Some(ids) = self
                .cite_index
                .get(index_key)?
                .map(|held| split_ids(held.value()))
            else {
                continue;
            };
            let staying: Vec<String> = ids.into_iter().filter(|held| held != id).collect();
            self.set_cases_at(index_key, &staying)?;
        }
        Ok(())
    }

    /// Makes `ids` the cases the citation index holds at `index_key` (none
    /// removes the key).
    fn set_cases_at(
        &mut self,
        index_key: (&str, u32, u32),
        ids: &[String],
    ) -> Result<(), StoreError> {
        if ids.is_empty() {
            self.cite_index.remove(index_key)?;
        } else {
            self.cite_index.insert(index_key, ids.join("\n").as_str())?;
        }
        Ok(())
    }

    /// Links citations of case `id` into the index; and any citation that
    /// was waiting for this case becomes a graph edge.
    fn index_citations(&mut self, id: &str, citations: &[CaseCitation]) -> Result<(), StoreError> {
        for citation in citations {
            let Some(key) = &citation.key else { continue };
            let index_key = (key.reporter.as_str(), key.volume, key.page);
            let held = self
                .cite_index
                .insert(index_key, id)?
                .map(|previous| split_ids(previous.value()));
            if let Some(mut ids) = held {
                // The key was there: keep every id it had, with this one.
                if !ids.iter().any(|held| held == id) {
                    ids.push(id.to_string());
                }
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
                    found.push((citing.to_string(), Edge::decode(v.value())?));
                }
                found
            };
            for (citing, edge) in waiting {
                self.add_edge(&citing, id, edge.count, edge.passage)?;
                self.unresolved
                    .remove((index_key.0, index_key.1, index_key.2, citing.as_str()))?;
            }
        }
        Ok(())
    }
}

/// The sources a volume's coverage label names: one, or two whose lists
/// hold it together ([`super::import::default::US_REPORTS_LISTS`]).
fn holders(label: &str) -> impl Iterator<Item = &str> {
    label.split('+')
}

/// Schema 2 → 3: early Supreme Court addresses move to the U.S. Reports
/// ([`LibraryWriter::readdress_early_us_reports`]).
pub fn migrate_to_v3(txn: &WriteTransaction) -> Result<(), StoreError> {
    let mut writer = LibraryWriter::new(txn)?;
    writer.readdress_early_us_reports()?;
    writer.finish()
}

/// Schema 3 → 4: the volumes of series without pages that earlier builds
/// held are held no more (schema 3 as first released kept them), and the
/// checkpoints no import will read again go with the coverage they held
/// back: those under the keys of builds before a file's modification time
/// was part of its key, those that cannot be read, and pending coverage of
/// files that are done.
pub fn migrate_to_v4(txn: &WriteTransaction) -> Result<(), StoreError> {
    let mut writer = LibraryWriter::new(txn)?;
    writer
        .coverage
        .retain(|(reporter, _), _| reporters::has_pages(reporter))?;
    // A checkpoint that cannot be read cannot be resumed either: its file
    // is read again from the start.
    let mut unfinished = std::collections::HashSet::new();
    writer.progress.retain(|key, checkpoint| {
        if super::import::is_pre_modification_time_key(key) {
            return false;
        }
        match serde_json::from_slice::<super::import::Checkpoint>(checkpoint) {
            Ok(checkpoint) => {
                if !checkpoint.done {
                    unfinished.insert(key.to_string());
                }
                true
            }
            Err(_) => false,
        }
    })?;
    writer.coverage_pending.retain(|(key, reporter, _), _| {
        unfinished.contains(key) && (reporter.is_empty() || reporters::has_pages(reporter))
    })?;
    writer.finish()
}

impl LibraryWriter<'_> {
    /// Schema 3: an early Supreme Court reporter's address ("1 Cranch 137")
    /// becomes the U.S. Reports address that reprints it (5 U.S. 137), as
    /// [`CiteKey::new`] now makes it. A stored citation moves when its
    /// spelling is the Supreme Court's series and its case is of that court
    /// (or of none known): the CourtListener importer wrote the D.C.
    /// circuit court's "Cranch" as "Cranch" too. A waiting citation moves
    /// when the citing text spells it so, and links when its case is held.
    /// Which series brought a nominative volume's coverage cannot be told,
    /// so that coverage is forgotten (the U.S. volume keeps its own).
    fn readdress_early_us_reports(&mut self) -> Result<(), StoreError> {
        for reporter in reporters::nominative_reporters() {
            let whole = (reporter, 0, 0)..=(reporter, u32::MAX, u32::MAX);
            let mut indexed = Vec::new();
            for row in self.cite_index.range(whole)? {
                let (key, ids) = row?;
                let (_, volume, page) = key.value();
                indexed.push((volume, page, split_ids(ids.value())));
            }
            for (volume, page, ids) in indexed {
                self.readdress_indexed(reporter, volume, page, ids)?;
            }
            let mut waiting = Vec::new();
            for row in self.unresolved.range((reporter, 0, 0, "")..)? {
                let (key, edge) = row?;
                let (at, volume, page, citing) = key.value();
                if at != reporter {
                    break;
                }
                waiting.push((
                    volume,
                    page,
                    citing.to_string(),
                    Edge::decode(edge.value())?,
                ));
            }
            for (volume, page, citing, edge) in waiting {
                self.readdress_waiting(reporter, volume, page, &citing, edge)?;
            }
            self.coverage.retain(|(at, volume), _| {
                at != reporter || reporters::us_reports_volume(at, volume).is_none()
            })?;
            self.coverage_pending.retain(|(_, at, volume), _| {
                at != reporter || reporters::us_reports_volume(at, volume).is_none()
            })?;
        }
        Ok(())
    }

    /// Moves the cases indexed at one nominative address.
    fn readdress_indexed(
        &mut self,
        reporter: &str,
        volume: u32,
        page: u32,
        ids: Vec<String>,
    ) -> Result<(), StoreError> {
        let old = CiteKey {
            volume,
            reporter: reporter.to_string(),
            page,
        };
        let mut staying = Vec::new();
        for id in ids {
            let Some(mut record) = self.case(&id)? else {
                staying.push(id);
                continue;
            };
            let of_the_court = record
                .court
                .as_deref()
                .is_none_or(|court| court == "scotus");
            let mut moved = Vec::new();
            for citation in &mut record.citations {
                if citation.key.as_ref() != Some(&old) || !of_the_court {
                    continue;
                }
                let key = CiteKey::new(volume, reporter, reporter_spelling(&citation.cite), page);
                if key != old {
                    citation.key = Some(key);
                    moved.push(citation.clone());
                }
            }
            if record
                .citations
                .iter()
                .any(|c| c.key.as_ref() == Some(&old))
            {
                staying.push(id.clone());
            }
            if !moved.is_empty() {
                self.cases
                    .insert(id.as_str(), encode(&record)?.as_slice())?;
                self.index_citations(&id, &moved)?;
            }
        }
        self.set_cases_at((reporter, volume, page), &staying)
    }

    /// Moves a citation waiting at a nominative address, when the citing
    /// opinion spells it as the Supreme Court's series.
    fn readdress_waiting(
        &mut self,
        reporter: &str,
        volume: u32,
        page: u32,
        citing: &str,
        edge: Edge,
    ) -> Result<(), StoreError> {
        let Some(at) = edge.passage else {
            return Ok(());
        };
        let Some(text) = self.opinion_plain_text(citing, at.opinion)? else {
            return Ok(());
        };
        let written = text
            .get(at.start as usize..at.end as usize)
            .map_or("", reporter_spelling);
        let key = CiteKey::new(volume, reporter, written, page);
        if key.reporter == reporter {
            return Ok(());
        }
        self.unresolved.remove((reporter, volume, page, citing))?;
        let already = (key.reporter.as_str(), key.volume, key.page, citing);
        let waiting_there = match self.unresolved.get(already)? {
            Some(bytes) => Edge::decode(bytes.value())?.count,
            None => 0,
        };
        let cited = CitedCase {
            count: edge.count.saturating_add(waiting_there),
            first: at.start..at.end,
            key,
        };
        let ids = self.cases_at(&cited.key)?;
        self.link_cited(citing, at.opinion, &[cited], vec![ids])
    }

    /// An opinion's text with its markup removed, read in this transaction.
    fn opinion_plain_text(&self, case_id: &str, number: u32) -> Result<Option<String>, StoreError> {
        let Some(record) = self.case(case_id)? else {
            return Ok(None);
        };
        let Some(opinion) = record.opinions.iter().find(|o| o.number == number) else {
            return Ok(None);
        };
        match self.texts.get((case_id, number))? {
            Some(bytes) => Ok(Some(plain_text(opinion.format, decompress(bytes.value())?))),
            None => Ok(None),
        }
    }
}

/// Citations added to a case: the case they went to, and each added
/// citation that stands beside another of the case in its reporter (the
/// added one, the held one).
pub struct CitationsAdded {
    pub case_id: String,
    pub beside_held: Vec<(String, String)>,
}

/// Whether two records at the same citation describe one decision: names
/// that fit each other and, when both are dated, the same year.
fn same_decision(held: &CaseRecord, new: &CaseRecord) -> bool {
    let years_agree = match (held.year(), new.year()) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    };
    years_agree
        && !other_record_of_a_source(held, new)
        && !citations_conflict(held, new)
        && (held.name.is_empty() || new.name.is_empty() || names_compatible(&held.name, &new.name))
}

/// Whether the records are cited at different places in one reporter (one
/// both are cited in, at no place in common): two decisions that share a
/// page elsewhere (New York's table cases, many to one "88 Misc 3d
/// 130(A)", each with its own slip opinion number).
fn citations_conflict(held: &CaseRecord, new: &CaseRecord) -> bool {
    new.cite_keys().any(|key| {
        let mut held_there = held.cite_keys_in(&key.reporter).peekable();
        held_there.peek().is_some()
            && !held_there.any(|held_key| new.cite_keys().any(|k| k == held_key))
    })
}

/// Whether a source gave both records under different ids. SCDB gives each
/// decision one caseId, so two of its cases sharing a page (short
/// dispositions printed together, or a cite SCDB got wrong) are two
/// decisions, whatever words their names share.
fn other_record_of_a_source(held: &CaseRecord, new: &CaseRecord) -> bool {
    const ONE_RECORD_A_DECISION: [&str; 1] = [super::import::scdb::SOURCE];
    held.provenance.iter().any(|mine| {
        ONE_RECORD_A_DECISION.contains(&mine.source.as_str())
            && new
                .provenance
                .iter()
                .any(|theirs| theirs.source == mine.source && theirs.id != mine.id)
    })
}

pub(super) fn split_ids(joined: &str) -> Vec<String> {
    joined
        .split('\n')
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// A hash that is the same in every process and build (std's is seeded per
/// process): of an opinion's text, to tell a text imported again from a new
/// one. Eight bytes a step: FNV-1a's byte a step was 3–4 CPU-seconds of a
/// million-opinion import.
pub fn stable_hash(text: &str) -> u64 {
    const MULTIPLIER: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |hash: u64, word: u64| (hash.rotate_left(23) ^ word).wrapping_mul(MULTIPLIER);
    let mut words = text.as_bytes().chunks_exact(8);
    let mut hash = words.by_ref().fold(0xcbf2_9ce4_8422_2325, |hash, word| {
        mix(
            hash,
            u64::from_le_bytes(word.try_into().unwrap_or_default()),
        )
    });
    let mut tail = [0u8; 8];
    tail[..words.remainder().len()].copy_from_slice(words.remainder());
    hash = mix(hash, u64::from_le_bytes(tail));
    hash = mix(hash, text.len() as u64);
    // Murmur3's finalizer: every input bit reaches every output bit.
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xff51_afd7_ed55_8ccd);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    hash ^ (hash >> 33)
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

/// Library schema 1 → 2: graph edges were one JSON row per edge (with a
/// copy of the citing sentence) in `cites_out`, mirrored in `cites_in`;
/// they become one [`OutEdges`] record per citing case in `graph_out`,
/// holding the sentence's place in the citing opinion (found by searching
/// its text; a sentence no longer there is dropped, count and
/// parentheticals kept). The search index is rebuilt for its new `cites`
/// field by [`super::Library::open`].
pub fn migrate_edges_to_v2(txn: &WriteTransaction) -> Result<(), StoreError> {
    const OLD_OUT: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("cites_out");
    const OLD_IN: TableDefinition<(&str, &str), ()> = TableDefinition::new("cites_in");
    #[derive(Deserialize)]
    struct OldEdge {
        count: u32,
        #[serde(default)]
        passage: Option<String>,
        #[serde(default)]
        parentheticals: Vec<String>,
    }
    let mut texts = CitingTexts::default();
    let mut convert = |citing: &str, bytes: &[u8]| -> Result<Edge, StoreError> {
        let old: OldEdge = serde_json::from_slice(bytes)?;
        let passage = match old.passage {
            Some(sentence) => texts.locate(txn, citing, &sentence)?,
            None => None,
        };
        Ok(Edge {
            count: old.count,
            passage,
            parentheticals: old.parentheticals,
        })
    };
    {
        let old = txn.open_table(OLD_OUT)?;
        let mut graph = txn.open_table(GRAPH_OUT)?;
        let mut current: Option<(String, OutEdges)> = None;
        for row in old.iter()? {
            let (key, value) = row?;
            let (citing, cited) = key.value();
            if current.as_ref().is_some_and(|(c, _)| c != citing)
                && let Some((done, edges)) = current.take()
            {
                graph.insert(done.as_str(), edges.encode().as_slice())?;
            }
            let edge = convert(citing, value.value())?;
            let (_, edges) =
                current.get_or_insert_with(|| (citing.to_string(), OutEdges::default()));
            *edges.entry(cited).0 = edge;
        }
        if let Some((done, edges)) = current {
            graph.insert(done.as_str(), edges.encode().as_slice())?;
        }
    }
    txn.delete_table(OLD_OUT)?;
    txn.delete_table(OLD_IN)?;
    let mut unresolved = txn.open_table(UNRESOLVED_CITES)?;
    let mut rows = Vec::new();
    for row in unresolved.iter()? {
        let (key, value) = row?;
        let (reporter, volume, page, citing) = key.value();
        rows.push((
            reporter.to_string(),
            volume,
            page,
            citing.to_string(),
            value.value().to_vec(),
        ));
    }
    for (reporter, volume, page, citing, bytes) in rows {
        let edge = convert(&citing, &bytes)?;
        unresolved.insert(
            (reporter.as_str(), volume, page, citing.as_str()),
            edge.encode().as_slice(),
        )?;
    }
    Ok(())
}

/// The plain texts of one citing case at a time, for the migration.
#[derive(Default)]
struct CitingTexts {
    case_id: String,
    texts: Vec<(u32, String)>,
}

impl CitingTexts {
    /// Where `sentence` is in the case's opinions.
    fn locate(
        &mut self,
        txn: &WriteTransaction,
        citing: &str,
        sentence: &str,
    ) -> Result<Option<PassageAt>, StoreError> {
        if self.case_id != citing {
            self.case_id = citing.to_string();
            self.texts.clear();
            let cases = txn.open_table(CASES)?;
            let record: Option<CaseRecord> = match cases.get(citing)? {
                Some(bytes) => Some(serde_json::from_slice(bytes.value())?),
                None => None,
            };
            let texts = txn.open_table(OPINION_TEXTS)?;
            for opinion in record.map(|r| r.opinions).unwrap_or_default() {
                if let Some(bytes) = texts.get((citing, opinion.number))? {
                    let body = decompress(bytes.value())?;
                    self.texts
                        .push((opinion.number, plain_text(opinion.format, body)));
                }
            }
        }
        let needle = sentence.trim_end_matches('…');
        Ok(self.texts.iter().find_map(|(number, text)| {
            let start = text.find(needle)?;
            Some(PassageAt {
                opinion: *number,
                start: u32::try_from(start).ok()?,
                end: u32::try_from(start + needle.len()).ok()?,
            })
        }))
    }
}

#[cfg(test)]
mod tests {
    use redb::{Database, ReadableDatabase, TableHandle};

    use super::*;
    use crate::library::model::Provenance;
    use crate::store::tables::META;
    use crate::store::{LIBRARY_FILE, Store};

    #[test]
    fn only_volumes_of_reporters_the_engine_knows_are_held() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        store
            .write(|txn| -> Result<(), StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                assert!(writer.mark_volume_held("F.3d", 245, "test")?);
                for (reporter, volume) in [("Zz. Qq. 9th", 245), ("U.S.\0", 359), ("F.3d", 0)] {
                    assert!(
                        !writer.mark_volume_held(reporter, volume, "test")?,
                        "{reporter}"
                    );
                }
                writer.finish()
            })
            .unwrap();
        store
            .read(|txn| -> Result<(), StoreError> {
                assert_eq!(txn.open_table(COVERAGE)?.len()?, 1);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn a_pending_volumes_mark_says_whether_it_is_withheld_and_by_which_source() {
        assert_eq!(
            pending_mark("courtlistener"),
            (false, Some("courtlistener"))
        );
        assert_eq!(pending_mark("withheld:cap"), (true, Some("cap")));
        // A killed import of an earlier build left the mark without a source.
        assert_eq!(pending_mark("withheld"), (true, None));
    }

    #[test]
    fn a_settled_listing_withdraws_only_what_a_case_of_one_source_no_longer_has() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let cite = |text: &str, volume: u32, reporter: &str, page: u32| CaseCitation {
            cite: text.to_string(),
            key: Some(CiteKey::new(volume, reporter, reporter, page)),
            last_page: None,
        };
        let marbury = [
            cite("5 U.S. 137", 5, "U.S.", 137),
            cite("1 Cranch 137", 5, "U.S.", 137),
            cite("2 L. Ed. 60", 2, "L. Ed.", 60),
        ];
        let new_case = |id: &str, sources: &[&str], citations: &[CaseCitation]| NewCase {
            record: CaseRecord {
                id: id.to_string(),
                name: format!("Case {id}"),
                citations: citations.to_vec(),
                provenance: sources
                    .iter()
                    .map(|source| Provenance {
                        source: source.to_string(),
                        id: id.to_string(),
                    })
                    .collect(),
                ..CaseRecord::default()
            },
            opinions: Vec::new(),
        };
        let listed = [cite("5 U.S. 137", 5, "U.S.", 137)];
        let other = [
            cite("7 F.3d 1", 7, "F.3d", 1),
            cite("8 F.3d 2", 8, "F.3d", 2),
        ];
        let list = || {
            store
                .write(|txn| -> Result<(), StoreError> {
                    let mut writer = LibraryWriter::new(txn)?;
                    writer.import_file("file");
                    writer.list_citations("one", &listed)?;
                    writer.list_citations("two", &other[..1])?;
                    writer.finish()
                })
                .unwrap()
        };
        // A transaction a chunk, as an import settles (a kill between two
        // leaves the rest listed for the run that resumes).
        let settle = |withdraw: bool, cases_per_chunk: usize| {
            let mut total = Withdrawn::default();
            loop {
                let chunk = store
                    .write(|txn| -> Result<Withdrawn, StoreError> {
                        let mut writer = LibraryWriter::new(txn)?;
                        let chunk =
                            writer.settle_listed_citations("file", withdraw, cases_per_chunk)?;
                        writer.finish()?;
                        Ok(chunk)
                    })
                    .unwrap();
                assert!(chunk.listed <= cases_per_chunk);
                if chunk.listed == 0 {
                    return total;
                }
                total += chunk;
            }
        };
        store
            .write(|txn| -> Result<(), StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                writer.put_case(new_case("one", &["courtlistener"], &marbury))?;
                writer.put_case(new_case("two", &["courtlistener", "scdb"], &other))?;
                writer.finish()
            })
            .unwrap();

        list();
        let kept = settle(false, 10);
        assert_eq!((kept.listed, kept.citations), (2, 0));
        list();
        let withdrawn = settle(true, 1);
        assert_eq!(
            (withdrawn.listed, withdrawn.citations, withdrawn.cases),
            (2, 2, 1)
        );
        store
            .read(|txn| -> Result<(), StoreError> {
                let one = case(txn, "one")?.unwrap();
                assert_eq!(one.citations, listed);
                assert_eq!(
                    cases_at(txn, &CiteKey::new(5, "U.S.", "U.S.", 137))?,
                    ["one"],
                    "the nominative citation's address is the kept one's"
                );
                assert!(cases_at(txn, &CiteKey::new(2, "L. Ed.", "L. Ed.", 60))?.is_empty());
                assert_eq!(case(txn, "two")?.unwrap().citations, other);
                assert_eq!(txn.open_table(CITATIONS_LISTED)?.len()?, 0);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn a_text_hash_stays_what_stored_opinions_hold_and_tells_texts_apart() {
        // Stored with every opinion: a change would make every text
        // imported again look new.
        assert_eq!(
            stable_hash("Brown v. Board of Education"),
            0x8b9e_925c_975d_4ae5
        );
        let texts = [
            "",
            "a",
            "a\0",
            "\0",
            "abcdefgh",
            "abcdefgh\0",
            "abcdefgi",
            "bacdefgh",
        ];
        let hashes: std::collections::BTreeSet<u64> =
            texts.iter().map(|t| stable_hash(t)).collect();
        assert_eq!(hashes.len(), texts.len());
    }

    /// A library written by schema 1: JSON edges in `cites_out` and
    /// `cites_in`, the citing sentence copied into each.
    fn write_schema_1_library(dir: &std::path::Path, text: &str) {
        const OLD_OUT: TableDefinition<(&str, &str), &[u8]> = TableDefinition::new("cites_out");
        const OLD_IN: TableDefinition<(&str, &str), ()> = TableDefinition::new("cites_in");
        let db = Database::create(dir.join(LIBRARY_FILE)).unwrap();
        let txn = db.begin_write().unwrap();
        {
            txn.open_table(META)
                .unwrap()
                .insert("schema_version", 1)
                .unwrap();
            let record = CaseRecord {
                id: "cl-1".into(),
                name: "Alpha v. Beta".into(),
                opinions: vec![OpinionMeta {
                    number: 0,
                    kind: "combined".into(),
                    author: None,
                    format: BodyFormat::Text,
                    provenance: Provenance {
                        source: "courtlistener".into(),
                        id: "1".into(),
                    },
                    chars: text.chars().count() as u64,
                    text_hash: stable_hash(text),
                }],
                ..CaseRecord::default()
            };
            txn.open_table(CASES)
                .unwrap()
                .insert("cl-1", encode(&record).unwrap().as_slice())
                .unwrap();
            txn.open_table(OPINION_TEXTS)
                .unwrap()
                .insert(("cl-1", 0), compress(text).as_slice())
                .unwrap();
            let mut out = txn.open_table(OLD_OUT).unwrap();
            let with_passage = r#"{"count":2,"passage":"See Gamma v. Delta, 5 U.S. 7 (1801).","parentheticals":["holding so"]}"#;
            out.insert(("cl-1", "cl-2"), with_passage.as_bytes())
                .unwrap();
            out.insert(("cl-1", "cl-3"), r#"{"count":1}"#.as_bytes())
                .unwrap();
            txn.open_table(OLD_IN)
                .unwrap()
                .insert(("cl-2", "cl-1"), ())
                .unwrap();
            txn.open_table(UNRESOLVED_CITES)
                .unwrap()
                .insert(
                    ("U.S.", 9, 9, "cl-1"),
                    r#"{"count":1,"passage":"Not in the text."}"#.as_bytes(),
                )
                .unwrap();
        }
        txn.commit().unwrap();
    }

    #[test]
    fn a_citation_its_only_source_no_longer_gives_is_withdrawn() {
        use crate::library::import::parse_simple_cite;
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let record = |cites: &[&str], source: &str| NewCase {
            record: CaseRecord {
                id: format!("{source}-1"),
                name: "Alpha v. Beta".into(),
                citations: cites.iter().map(|c| parse_simple_cite(c)).collect(),
                provenance: vec![Provenance {
                    source: source.into(),
                    id: "1".into(),
                }],
                ..CaseRecord::default()
            },
            opinions: Vec::new(),
        };
        let put = |case: NewCase| {
            store
                .write(|txn| -> Result<(), StoreError> {
                    let mut writer = LibraryWriter::new(txn)?;
                    writer.put_case(case)?;
                    writer.finish()
                })
                .unwrap();
        };
        let at = |cite: &str| {
            let key = parse_simple_cite(cite).key.unwrap();
            store.read(|txn| cases_at(txn, &key)).unwrap()
        };
        put(record(&["597 U.S. 1", "141 S. Ct. 2111"], "scdb"));
        assert_eq!(at("141 S. Ct. 2111"), ["scdb-1"]);
        // The source's corrected record: the wrong cite goes, the right one
        // comes.
        put(record(&["597 U.S. 1", "142 S. Ct. 2111"], "scdb"));
        assert!(at("141 S. Ct. 2111").is_empty());
        assert_eq!(at("142 S. Ct. 2111"), ["scdb-1"]);
        assert_eq!(at("597 U.S. 1"), ["scdb-1"]);
        // With a second source, a cite may be that source's: it stays.
        put(record(&["597 U.S. 1", "213 L. Ed. 2d 387"], "cap"));
        put(record(&["597 U.S. 1"], "scdb"));
        assert_eq!(at("142 S. Ct. 2111"), ["scdb-1"]);
    }

    #[test]
    fn an_opinion_again_changes_nothing_and_a_new_text_of_its_source_replaces_it() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let opinion = |text: &str| {
            PreparedOpinion::new(NewOpinion {
                kind: "combined".into(),
                author: None,
                format: BodyFormat::Text,
                text: text.into(),
                provenance: Provenance {
                    source: "courtlistener".into(),
                    id: "7".into(),
                },
            })
        };
        store
            .write(|txn| -> Result<(), StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                writer.put_case(NewCase {
                    record: alpha_v_beta(),
                    opinions: Vec::new(),
                })?;
                writer.finish()
            })
            .unwrap();
        let add = |text: &str| {
            store
                .write(|txn| -> Result<(), StoreError> {
                    txn.open_table(INDEX_PENDING)?.remove("cl-1")?;
                    Ok(())
                })
                .unwrap();
            store
                .write(|txn| -> Result<(), StoreError> {
                    let mut writer = LibraryWriter::new(txn)?;
                    assert!(writer.add_opinion("cl-1", opinion(text))?.is_some());
                    writer.finish()
                })
                .unwrap();
            store
                .read(|txn| -> Result<_, StoreError> {
                    let pending = txn.open_table(INDEX_PENDING)?.get("cl-1")?.is_some();
                    Ok((case(txn, "cl-1")?.unwrap(), pending))
                })
                .unwrap()
        };

        let (first, pending) = add("First text.");
        assert!(pending, "a new opinion is indexed");
        let (again, pending) = add("First text.");
        assert_eq!(encode(&again).unwrap(), encode(&first).unwrap());
        assert!(!pending, "the same text again writes nothing");
        let (replaced, pending) = add("Corrected text.");
        assert!(pending);
        assert_eq!(replaced.opinions.len(), 1, "replaced in place");
        assert_ne!(replaced.opinions[0].text_hash, first.opinions[0].text_hash);
        let text = store.read(|txn| opinion_text(txn, "cl-1", 0)).unwrap();
        assert_eq!(text.as_deref(), Some("Corrected text."));
        let totals = store.read(counts).unwrap();
        assert_eq!(totals.get("opinions"), Some(&1));
    }

    fn alpha_v_beta() -> CaseRecord {
        CaseRecord {
            id: "cl-1".into(),
            name: "Alpha v. Beta".into(),
            ..CaseRecord::default()
        }
    }

    #[test]
    fn a_case_holds_at_most_its_limit_of_opinions() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        let opinion = |n: usize| NewOpinion {
            kind: "combined".into(),
            author: None,
            format: BodyFormat::Text,
            text: format!("Opinion {n}."),
            provenance: Provenance {
                source: "courtlistener".into(),
                id: n.to_string(),
            },
        };
        let (stored, added, held) = store
            .write(|txn| -> Result<_, StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                let stored = writer.put_case(NewCase {
                    record: alpha_v_beta(),
                    opinions: (0..MAX_OPINIONS_PER_CASE + 5).map(opinion).collect(),
                })?;
                let added = writer.add_opinion(
                    "cl-1",
                    PreparedOpinion::new(opinion(MAX_OPINIONS_PER_CASE + 9)),
                )?;
                let held = writer.case("cl-1")?.unwrap().opinions.len();
                writer.finish()?;
                Ok((stored, added, held))
            })
            .unwrap();
        assert_eq!(held, MAX_OPINIONS_PER_CASE);
        assert_eq!(stored.opinions_refused, 5, "told, not only logged");
        assert_eq!(added, Some(OpinionAdded::CaseFull));
    }

    #[test]
    fn schema_1_edges_become_one_record_per_citing_case() {
        let dir = tempfile::tempdir().unwrap();
        let text = "Facts.\nSee Gamma v. Delta, 5 U.S. 7 (1801). More.";
        write_schema_1_library(dir.path(), text);

        let store = Store::open_library(dir.path()).unwrap();
        let edges = store.read(|txn| cited_by_case(txn, "cl-1")).unwrap();
        let ids: Vec<&str> = edges.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["cl-2", "cl-3"]);
        let (_, to_gamma) = &edges[0];
        assert_eq!(to_gamma.count, 2);
        assert_eq!(to_gamma.parentheticals, ["holding so"]);
        let at = to_gamma
            .passage
            .expect("the sentence was found in the text");
        let sentence = store.read(|txn| passage(txn, "cl-1", at)).unwrap();
        // Read back as passages are: from the sentence of the citation to
        // the end of its paragraph.
        assert_eq!(
            sentence.as_deref(),
            Some("See Gamma v. Delta, 5 U.S. 7 (1801). More.")
        );
        assert_eq!(edges[1].1.passage, None);
        let waiting = store
            .read(|txn| -> Result<Edge, StoreError> {
                let table = txn.open_table(UNRESOLVED_CITES)?;
                let row = table.get(("U.S.", 9, 9, "cl-1"))?;
                Edge::decode(row.expect("kept").value())
            })
            .unwrap();
        assert_eq!(waiting.count, 1);
        assert_eq!(
            waiting.passage, None,
            "a sentence not in the text is dropped"
        );
        drop(store);

        let db = Database::open(dir.path().join(LIBRARY_FILE)).unwrap();
        let tables: Vec<String> = db
            .begin_read()
            .unwrap()
            .list_tables()
            .unwrap()
            .map(|t| t.name().to_string())
            .collect();
        assert!(!tables.iter().any(|t| t == "cites_out" || t == "cites_in"));
    }

    /// A library written by schema 2, with early Supreme Court citations
    /// at their nominative addresses.
    fn write_schema_2_library(dir: &std::path::Path, citing_text: &str) {
        let db = Database::create(dir.join(LIBRARY_FILE)).unwrap();
        let txn = db.begin_write().unwrap();
        {
            txn.open_table(META)
                .unwrap()
                .insert("schema_version", 2)
                .unwrap();
            let mut cases = txn.open_table(CASES).unwrap();
            let mut index = txn.open_table(CITE_INDEX).unwrap();
            let mut put = |id: &str, court: Option<&str>, cites: &[(&str, &str, u32, u32)]| {
                let record = CaseRecord {
                    id: id.into(),
                    court: court.map(str::to_string),
                    citations: cites
                        .iter()
                        .map(|(cite, reporter, volume, page)| CaseCitation {
                            cite: cite.to_string(),
                            key: Some(CiteKey {
                                volume: *volume,
                                reporter: reporter.to_string(),
                                page: *page,
                            }),
                            last_page: None,
                        })
                        .collect(),
                    ..CaseRecord::default()
                };
                cases
                    .insert(id, encode(&record).unwrap().as_slice())
                    .unwrap();
                for (_, reporter, volume, page) in cites {
                    index.insert((*reporter, *volume, *page), id).unwrap();
                }
            };
            put(
                "marbury",
                Some("scotus"),
                &[
                    ("5 U.S. 137", "U.S.", 5, 137),
                    ("1 Cranch 137", "Cranch", 1, 137),
                ],
            );
            // CourtListener wrote the D.C. circuit court's series as "Cranch".
            put(
                "circuit",
                Some("dcd"),
                &[("1 Cranch 100", "Cranch", 1, 100)],
            );
            put("mcculloch", None, &[("4 Wheat. 316", "Wheat.", 4, 316)]);
            put("wheaton-9", Some("scotus"), &[("22 U.S. 9", "U.S.", 22, 9)]);
            put("citing", Some("nd"), &[("1 N.D. 1", "N.D.", 1, 1)]);
            let citing = CaseRecord {
                id: "citing".into(),
                court: Some("nd".into()),
                opinions: vec![OpinionMeta {
                    number: 0,
                    kind: "combined".into(),
                    author: None,
                    format: BodyFormat::Text,
                    provenance: Provenance {
                        source: "cap".into(),
                        id: "9".into(),
                    },
                    chars: citing_text.chars().count() as u64,
                    text_hash: stable_hash(citing_text),
                }],
                ..CaseRecord::default()
            };
            cases
                .insert("citing", encode(&citing).unwrap().as_slice())
                .unwrap();
            txn.open_table(OPINION_TEXTS)
                .unwrap()
                .insert(("citing", 0), compress(citing_text).as_slice())
                .unwrap();
            let mut waiting = txn.open_table(UNRESOLVED_CITES).unwrap();
            let mut wait = |reporter: &str, volume: u32, page: u32, cited: &str| {
                let start = citing_text.find(cited).unwrap() as u32;
                let edge = Edge {
                    count: 1,
                    passage: Some(PassageAt {
                        opinion: 0,
                        start,
                        end: start + cited.len() as u32,
                    }),
                    parentheticals: Vec::new(),
                };
                waiting
                    .insert((reporter, volume, page, "citing"), edge.encode().as_slice())
                    .unwrap();
            };
            wait("Pet.", 2, 1, "2 Pet. 1");
            wait("Wheat.", 9, 9, "9 Wheat. 9");
            wait("Cranch", 1, 50, "1 Cranch C.C. 50");
            let mut coverage = txn.open_table(COVERAGE).unwrap();
            coverage.insert(("Cranch", 1), "cap").unwrap();
            coverage.insert(("U.S.", 5), "scdb").unwrap();
            coverage.insert(("Wall.", 24), "cap").unwrap();
            coverage.insert(("WL", 2010), "courtlistener").unwrap();
        }
        txn.commit().unwrap();
    }

    #[test]
    fn schema_2_early_supreme_court_addresses_become_the_us_reports() {
        let dir = tempfile::tempdir().unwrap();
        let text = "See 2 Pet. 1; 9 Wheat. 9; 1 Cranch C.C. 50.";
        write_schema_2_library(dir.path(), text);

        let store = Store::open_library(dir.path()).unwrap();
        let at = |reporter: &str, volume: u32, page: u32| {
            let key = CiteKey {
                volume,
                reporter: reporter.into(),
                page,
            };
            store.read(|txn| cases_at(txn, &key)).unwrap()
        };
        assert_eq!(at("U.S.", 5, 137), ["marbury"]);
        assert!(at("Cranch", 1, 137).is_empty());
        assert_eq!(
            at("U.S.", 17, 316),
            ["mcculloch"],
            "no court known: the spelling decides"
        );
        assert_eq!(
            at("Cranch", 1, 100),
            ["circuit"],
            "another court's series stays"
        );
        assert!(at("U.S.", 5, 100).is_empty());
        let marbury = store.read(|txn| case(txn, "marbury")).unwrap().unwrap();
        let keys: Vec<String> = marbury
            .citations
            .iter()
            .map(|c| c.key.as_ref().unwrap().to_string())
            .collect();
        assert_eq!(keys, ["5 U.S. 137", "5 U.S. 137"]);

        let edges = store.read(|txn| cited_by_case(txn, "citing")).unwrap();
        let cited: Vec<&str> = edges.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(
            cited,
            ["wheaton-9"],
            "9 Wheat. 9 is 22 U.S. 9, which is held"
        );
        let waiting: Vec<(String, u32, u32)> = store
            .read(|txn| -> Result<_, StoreError> {
                let mut rows = Vec::new();
                for row in txn.open_table(UNRESOLVED_CITES)?.iter()? {
                    let (key, _) = row?;
                    let (reporter, volume, page, _) = key.value();
                    rows.push((reporter.to_string(), volume, page));
                }
                Ok(rows)
            })
            .unwrap();
        assert_eq!(
            waiting,
            [("Cranch".to_string(), 1, 50), ("U.S.".to_string(), 27, 1)]
        );
        let held: Vec<(String, u32)> = store
            .read(|txn| -> Result<_, StoreError> {
                let mut rows = Vec::new();
                for row in txn.open_table(COVERAGE)?.iter()? {
                    let (key, _) = row?;
                    let (reporter, volume) = key.value();
                    rows.push((reporter.to_string(), volume));
                }
                Ok(rows)
            })
            .unwrap();
        assert_eq!(
            held,
            [("U.S.".to_string(), 5), ("Wall.".to_string(), 24)],
            "a nominative volume's coverage cannot be told apart, so it goes; \
             a Westlaw year was never a volume"
        );
    }

    /// Schema 3 as first released: Westlaw volumes held, and checkpoints
    /// under keys no import reads any more.
    #[test]
    fn schema_3_forgets_unpaged_volumes_and_checkpoints_no_import_reads() {
        let dir = tempfile::tempdir().unwrap();
        let current = "courtlistener-citations:citations.csv:90:1700000000";
        let done = "cap:volume.jsonl:70:1700000000";
        let earlier_build = "courtlistener-clusters:clusters.csv:120";
        let default_library = "default-v3:scdb";
        let unreadable = "cap:broken.jsonl:10:1700000000";
        {
            let db = Database::create(dir.path().join(LIBRARY_FILE)).unwrap();
            let txn = db.begin_write().unwrap();
            {
                txn.open_table(META)
                    .unwrap()
                    .insert("schema_version", 3)
                    .unwrap();
                let mut coverage = txn.open_table(COVERAGE).unwrap();
                coverage.insert(("WL", 2010), "courtlistener").unwrap();
                coverage.insert(("F.3d", 406), "courtlistener").unwrap();
                let mut progress = txn.open_table(IMPORT_PROGRESS).unwrap();
                for (key, finished) in [
                    (current, false),
                    (done, true),
                    (earlier_build, false),
                    (default_library, false),
                ] {
                    let checkpoint = crate::library::import::Checkpoint {
                        rows_committed: 5,
                        done: finished,
                        ..Default::default()
                    };
                    progress
                        .insert(key, encode(&checkpoint).unwrap().as_slice())
                        .unwrap();
                }
                progress
                    .insert(unreadable, b"{not json".as_slice())
                    .unwrap();
                let mut pending = txn.open_table(COVERAGE_PENDING).unwrap();
                for key in [current, done, earlier_build, default_library, unreadable] {
                    pending.insert((key, "F.3d", 407), "courtlistener").unwrap();
                }
                pending.insert((current, "", 0), "incomplete").unwrap();
                pending
                    .insert((current, "WL", 2011), "courtlistener")
                    .unwrap();
            }
            txn.commit().unwrap();
        }

        let store = Store::open_library(dir.path()).unwrap();
        let (held, pending, checkpoints) = store
            .read(|txn| -> Result<_, StoreError> {
                let mut held = Vec::new();
                for row in txn.open_table(COVERAGE)?.iter()? {
                    let (key, _) = row?;
                    let (reporter, volume) = key.value();
                    held.push(format!("{volume} {reporter}"));
                }
                let mut pending = Vec::new();
                for row in txn.open_table(COVERAGE_PENDING)?.iter()? {
                    let (at, _) = row?;
                    let (key, reporter, volume) = at.value();
                    pending.push(format!("{key} {volume} {reporter}"));
                }
                let mut checkpoints = Vec::new();
                for row in txn.open_table(IMPORT_PROGRESS)?.iter()? {
                    checkpoints.push(row?.0.value().to_string());
                }
                Ok((held, pending, checkpoints))
            })
            .unwrap();
        assert_eq!(held, ["406 F.3d"]);
        assert_eq!(
            pending,
            [
                format!("{current} 0 "),
                format!("{current} 407 F.3d"),
                format!("{default_library} 407 F.3d")
            ],
            "an unfinished import keeps what it held back"
        );
        assert_eq!(checkpoints, [done, current, default_library]);
    }
}
