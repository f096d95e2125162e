//! The citation index copied into memory for a bulk import: an opinion's
//! cited cases are looked up on the cores that read the opinion rather
//! than by the one writer in redb, where random lookups in a citation index
//! larger than the page cache were the writer's largest cost.
//!
//! A snapshot is only right while nothing writes the citation index, so an
//! importer takes one for a table whose rows never add citations.

use redb::{ReadTransaction, ReadableTable, ReadableTableMetadata};
use rustc_hash::FxHashMap;

use super::model::CiteKey;
use super::store::split_ids;
use crate::store::StoreError;
use crate::store::tables::CITE_INDEX;

/// Above this many citations the snapshot is not taken (about 40 bytes
/// each: 8 M is ~320 MB) and lookups stay in the store.
pub const MAX_SNAPSHOT_KEYS: u64 = 8_000_000;

pub struct CiteSnapshot {
    reporters: FxHashMap<String, u16>,
    /// (reporter, volume, page) → a span of `ids`: the case ids at that
    /// address as the index stores them (newline-separated).
    slots: FxHashMap<(u16, u32, u32), (u32, u32)>,
    ids: String,
}

impl CiteSnapshot {
    /// Copies the citation index, or `None` when it holds more than
    /// `max_keys` citations (or more reporters or id text than the compact
    /// layout addresses).
    pub fn load(txn: &ReadTransaction, max_keys: u64) -> Result<Option<Self>, StoreError> {
        let table = txn.open_table(CITE_INDEX)?;
        let len = table.len()?;
        if len > max_keys {
            return Ok(None);
        }
        let mut snapshot = Self {
            reporters: FxHashMap::default(),
            slots: FxHashMap::with_capacity_and_hasher(
                usize::try_from(len).unwrap_or(0),
                Default::default(),
            ),
            ids: String::new(),
        };
        for row in table.iter()? {
            let (key, ids) = row?;
            let (reporter, volume, page) = key.value();
            let next = snapshot.reporters.len();
            let reporter = match snapshot.reporters.get(reporter) {
                Some(&id) => id,
                None => {
                    let Ok(id) = u16::try_from(next) else {
                        return Ok(None);
                    };
                    snapshot.reporters.insert(reporter.to_string(), id);
                    id
                }
            };
            let ids = ids.value();
            // Spans are u32: a snapshot whose ids outgrow that is not taken.
            if u32::try_from(snapshot.ids.len() + ids.len()).is_err() {
                return Ok(None);
            }
            let span = (snapshot.ids.len() as u32, ids.len() as u32);
            snapshot.ids.push_str(ids);
            snapshot.slots.insert((reporter, volume, page), span);
        }
        Ok(Some(snapshot))
    }

    /// The cases whose citation starts at exactly this address, as
    /// [`super::store::cases_at`] would read them.
    pub fn cases_at(&self, key: &CiteKey) -> Vec<String> {
        let Some(&reporter) = self.reporters.get(key.reporter.as_str()) else {
            return Vec::new();
        };
        match self.slots.get(&(reporter, key.volume, key.page)) {
            Some(&(start, len)) => {
                let start = start as usize;
                split_ids(&self.ids[start..start + len as usize])
            }
            None => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::model::{CaseCitation, CaseRecord, NewCase};
    use crate::library::store::{LibraryWriter, cases_at};
    use crate::store::Store;

    fn key(volume: u32, reporter: &str, page: u32) -> CiteKey {
        CiteKey {
            volume,
            reporter: reporter.into(),
            page,
        }
    }

    fn case(id: &str, name: &str, citation: CiteKey) -> NewCase {
        NewCase {
            record: CaseRecord {
                id: id.into(),
                name: name.into(),
                citations: vec![CaseCitation {
                    cite: citation.to_string(),
                    key: Some(citation),
                    last_page: None,
                }],
                ..CaseRecord::default()
            },
            opinions: Vec::new(),
        }
    }

    /// A library in a temporary directory holding `cases`.
    fn library_with(cases: Vec<NewCase>) -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_library(dir.path()).unwrap();
        store
            .write(|txn| -> Result<(), StoreError> {
                let mut writer = LibraryWriter::new(txn)?;
                for new in cases {
                    writer.put_case(new)?;
                }
                writer.finish()
            })
            .unwrap();
        (dir, store)
    }

    #[test]
    fn answers_every_lookup_as_the_store_does() {
        // Two different decisions at one page: the index holds both.
        let (_dir, store) = library_with(vec![
            case("a", "Alpha v. Beta", key(347, "U.S.", 483)),
            case("b", "Gamma v. Delta", key(10, "F.3d", 5)),
            case("c", "Epsilon v. Zeta", key(10, "F.3d", 5)),
        ]);
        let probes = [
            key(347, "U.S.", 483),
            key(10, "F.3d", 5),
            key(347, "U.S.", 484),
            key(347, "S. Ct.", 483),
            key(1, "Nowhere", 1),
        ];
        store
            .read(|txn| -> Result<(), StoreError> {
                let snapshot = CiteSnapshot::load(txn, MAX_SNAPSHOT_KEYS)?.unwrap();
                for probe in &probes {
                    assert_eq!(snapshot.cases_at(probe), cases_at(txn, probe)?, "{probe}");
                }
                assert_eq!(snapshot.cases_at(&probes[1]).len(), 2);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn is_not_taken_above_its_limit() {
        let (_dir, store) = library_with(vec![
            case("a", "Alpha v. Beta", key(347, "U.S.", 483)),
            case("b", "Gamma v. Delta", key(348, "U.S.", 1)),
        ]);
        store
            .read(|txn| -> Result<(), StoreError> {
                assert!(CiteSnapshot::load(txn, 1)?.is_none());
                assert!(CiteSnapshot::load(txn, 2)?.is_some());
                Ok(())
            })
            .unwrap();
    }
}
