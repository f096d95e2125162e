//! Pin pages: whether each page a pin names lies inside the case cited.

use std::cell::OnceCell;

use redb::ReadTransaction;

use crate::citations::range_end_in_full;
use crate::library::lookup::{CaseLookup, find_case, pages_at_most};
use crate::library::model::{CaseRecord, CiteKey, numbers_documents};
use crate::library::store;
use crate::library::text::star_pages;
use crate::store::StoreError;

/// A pin page the case cited does not hold, and why.
pub(super) struct PinOutside {
    pub reason: String,
    /// The library shows it (the case's pages, or another decision it
    /// names); otherwise only an unnamed record of the dates index
    /// suggests it, which may be the index's error.
    pub proven: bool,
    /// The name of the case the library shows holding the page, when it
    /// shows one.
    pub holder: Option<String>,
}

impl PinOutside {
    fn new(reason: String, proven: bool) -> Self {
        Self {
            reason,
            proven,
            holder: None,
        }
    }
}

/// Why the pin page cannot be a page of `record` (cited at `key`), when the
/// library can tell: it comes before the case's first page, after its known
/// last page, or on a page another case holds. When the library cannot
/// tell (a page past the last case it knows of the volume), none.
pub(super) fn pin_outside_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    pin: Option<&str>,
    record: &CaseRecord,
) -> Result<Option<PinOutside>, StoreError> {
    if numbers_documents(&key.reporter) {
        return Ok(None);
    }
    // A page shown to be outside outweighs an earlier page only suspected.
    let mut suspected = None;
    // The pages the case's text marks, read once for every page of the pin.
    let marked = OnceCell::new();
    for page in pin.map(pin_pages).unwrap_or_default() {
        match page_outside_case(txn, key, page, record, &marked)? {
            Some(outside) if outside.proven => return Ok(Some(outside)),
            Some(outside) => {
                suspected.get_or_insert(outside);
            }
            None => {}
        }
    }
    Ok(suspected)
}

/// The pages a pin names: each item of a list ("490, 499"), both ends of
/// a range ("495-501"; "1602-05" ends at 1605, "67-123" at 123), the page of a footnote
/// ("499 n.11"). A star page, a paragraph or a footnote alone names none.
fn pin_pages(pin: &str) -> Vec<u32> {
    let pin = pin.trim();
    let pin = pin.strip_prefix("at").map_or(pin, str::trim_start);
    let mut pages: Vec<u32> = Vec::new();
    for item in pin.split([',', '&']).flat_map(|item| item.split(" and ")) {
        let item = item.trim();
        let digits: String = item.chars().take_while(char::is_ascii_digit).collect();
        let Some(first) = page_number(&digits) else {
            continue;
        };
        if pages.last().is_some_and(|&last| first < last) {
            // Pages of a list ascend; a smaller number is not one of them
            // (a footnote mark of PDF text: "at 541,1 and").
            break;
        }
        pages.push(first);
        let rest = item[digits.len()..].trim_start();
        let joined = ["-", "–", "—", "to ", "through ", "thru "]
            .iter()
            .find_map(|join| rest.strip_prefix(join));
        let Some(end) = joined.map(str::trim_start) else {
            continue;
        };
        let end: String = end.chars().take_while(char::is_ascii_digit).collect();
        if end.is_empty() {
            continue;
        }
        if let Some(last) = page_number(&range_end_in_full(&digits, &end))
            && last > first
        {
            pages.push(last);
        }
    }
    pages
}

/// A pin page as a reason shows it: one read from a number too large for
/// any page is not shown as the largest page there is.
struct ShownPage(u32);

impl std::fmt::Display for ShownPage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            u32::MAX => write!(f, "{} or more", u32::MAX),
            page => write!(f, "{page}"),
        }
    }
}

/// A page of a pin; a number too large for any page is still a page past
/// the case (the largest there is), not one to leave unchecked.
fn page_number(digits: &str) -> Option<u32> {
    (!digits.is_empty()).then(|| digits.parse().unwrap_or(u32::MAX))
}

/// Why `pin` cannot be a page of `record` (cited at `key`), when the library
/// can tell: see [`pin_outside_case`].
fn page_outside_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    pin: u32,
    record: &CaseRecord,
    marked: &OnceCell<Option<u32>>,
) -> Result<Option<PinOutside>, StoreError> {
    let shown = ShownPage(pin);
    let proven = |reason: String| PinOutside::new(reason, true);
    let Some(own) = record.citations.iter().find(|c| {
        c.key.as_ref().is_some_and(|k| {
            k.reporter == key.reporter && k.volume == key.volume && k.page <= key.page
        })
    }) else {
        return Ok(None);
    };
    let first = own.key.as_ref().map_or(key.page, |k| k.page);
    if pin < first {
        return Ok(Some(proven(format!(
            "the pin page {shown} comes before the case's first page, {first}"
        ))));
    }
    if let Some(last) = own.last_page {
        return Ok((pin > last).then(|| {
            proven(format!(
                "the case runs from page {first} to {last}; page {shown} is not in it"
            ))
        }));
    }
    let at_pin = CiteKey {
        page: pin,
        ..key.clone()
    };
    let other = match find_case(txn, &at_pin)? {
        CaseLookup::Found {
            cases,
            by_page_range,
        } if !cases.contains(&record.id) => {
            first_other(txn, &cases, record)?.map(|other| (other, !by_page_range))
        }
        _ => None,
    };
    if let Some((other, starts_there)) = other {
        if !is_named(&other) {
            let start = start_in_volume(&other, key).unwrap_or(pin);
            return Ok(Some(PinOutside::new(
                format!(
                    "page {shown} is at or past page {start}, where the library knows {} that no \
                     source names, so it cannot tell whether the page is still in the case",
                    described(&other)
                ),
                false,
            )));
        }
        // Most reporters run one case on after another: the case cited may
        // end on the page where the next begins. The U.S. Reports start
        // each on a page of its own.
        if starts_there && key.reporter != "U.S." {
            return Ok(Some(PinOutside::new(
                format!(
                    "page {shown} starts another case ({}); the case named may end on it",
                    described(&other)
                ),
                false,
            )));
        }
        return Ok(Some(PinOutside {
            holder: Some(other.name.clone()),
            ..PinOutside::new(
                format!(
                    "page {shown} belongs to another case ({})",
                    described(&other)
                ),
                true,
            )
        }));
    }
    // Another case the library knows starts between the first page and the
    // pin: the pin is past this case's end, held volume or not.
    if let Some((next, case)) = next_other_case(txn, key, first, record)?
        && pin > next
    {
        return Ok(Some(PinOutside::new(
            format!(
                "page {shown} is past the start of the next case the library knows in the volume ({}, page {next})",
                described(&case)
            ),
            is_named(&case),
        )));
    }
    // The text's own page marks end before the pin: no proof, since an
    // opinion of the case (a dissent) may be missing from the library.
    let marked = match marked.get() {
        Some(last) => *last,
        None => {
            let last = last_page_marked(txn, record, first)?;
            *marked.get_or_init(|| last)
        }
    };
    match marked {
        Some(last) if pin > last => {
            return Ok(Some(PinOutside::new(
                format!(
                    "the library's text of the case marks its pages from {first} to {last}; page {shown} is past them"
                ),
                false,
            )));
        }
        Some(_) => return Ok(None),
        None => {}
    }
    if let Some(most) = pages_at_most(txn, record, &key.reporter)?
        && pin - first > most
    {
        return Ok(Some(PinOutside::new(
            format!(
                "the library does not know where the case ends, and page {shown} is {} pages past \
                 its first page, {first}: more than its S. Ct. and L. Ed. pages allow ({most})",
                pin - first
            ),
            false,
        )));
    }
    // Nothing bounds the case (the last the library knows of its volume):
    // a page farther on than cases run is not placed in it.
    Ok((pin - first > LONGEST_CASE_PAGES).then(|| PinOutside::new(format!(
            "the library does not know where the case ends, and page {shown} is {} pages past its \
             first page, {first}",
            pin - first
        ), false)))
}

/// Pages past its first that a case whose end the library does not know
/// may still run to. The longest opinions of the U.S. Reports run under
/// 300 pages (Furman v. Georgia, 408 U.S. 238 to 470; McConnell v. FEC,
/// 540 U.S. 93 to 365).
const LONGEST_CASE_PAGES: u32 = 500;

/// The page `case` starts on in `key`'s volume.
fn start_in_volume(case: &CaseRecord, key: &CiteKey) -> Option<u32> {
    case.citations
        .iter()
        .filter_map(|c| c.key.as_ref())
        .find(|k| k.reporter == key.reporter && k.volume == key.volume)
        .map(|k| k.page)
}

/// The last page of a run the opinion texts of `record` mark, page by page,
/// from the page after its first (`first`): the pages the library's text
/// shows the case to hold.
fn last_page_marked(
    txn: &ReadTransaction,
    record: &CaseRecord,
    first: u32,
) -> Result<Option<u32>, StoreError> {
    let mut marked = std::collections::BTreeSet::<u32>::new();
    for opinion in &record.opinions {
        if let Some(body) = store::opinion_text(txn, &record.id, opinion.number)? {
            marked.extend(star_pages(&body).range(first..));
        }
    }
    let run = (first + 1..)
        .take_while(|page| marked.contains(page))
        .last();
    Ok(run)
}

/// The first of `ids` that is another decision than `record`. A record
/// with no name (a page of the Supreme Court dates index that no other
/// source names) is one too, though no proof ([`PinOutside::proven`]): it
/// is mostly an order or a decision of another day (Plessy v. Ferguson's
/// "163 U.S. 564"; Hinderlider, decided the same day as Erie at 304 U.S.
/// 92; the order lists after a volume's last opinion), but sometimes a
/// page of the case itself ("377 U.S. 563", inside Reynolds v. Sims). A pin
/// past one is `unavailable`: the library cannot tell which.
fn first_other(
    txn: &ReadTransaction,
    ids: &[String],
    record: &CaseRecord,
) -> Result<Option<CaseRecord>, StoreError> {
    for id in ids.iter().filter(|id| **id != record.id) {
        if let Some(case) = store::case(txn, id)? {
            return Ok(Some(case));
        }
    }
    Ok(None)
}

fn is_named(case: &CaseRecord) -> bool {
    !case.name.trim().is_empty()
}

/// A case as a reason names it: by name, or by its day.
pub(super) fn described(case: &CaseRecord) -> String {
    match (case.name.trim(), &case.decision_date) {
        ("", Some(date)) => format!("a decision of {date}"),
        (name, _) => name.to_string(),
    }
}

/// The first case after page `first` of `key`'s volume known to be another
/// than `record` (see [`first_other`]), with the page it starts on. Pages
/// of the others count among the few looked at.
fn next_other_case(
    txn: &ReadTransaction,
    key: &CiteKey,
    first: u32,
    record: &CaseRecord,
) -> Result<Option<(u32, CaseRecord)>, StoreError> {
    let mut from = first;
    // A record listed at a second page of its own volume is skipped over.
    for _ in 0..4 {
        let Some(next) = store::next_case_page(txn, &key.reporter, key.volume, from)? else {
            return Ok(None);
        };
        let at_next = CiteKey {
            page: next,
            ..key.clone()
        };
        let ids = store::cases_at(txn, &at_next)?;
        if !ids.contains(&record.id)
            && let Some(case) = first_other(txn, &ids, record)?
        {
            return Ok(Some((next, case)));
        }
        from = next;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::pin_pages;

    #[test]
    fn pages_a_pin_names() {
        assert_eq!(pin_pages("499"), [499]);
        assert_eq!(pin_pages("at 499"), [499]);
        assert_eq!(pin_pages("490, 499"), [490, 499]);
        assert_eq!(pin_pages("495-501"), [495, 501]);
        assert_eq!(pin_pages("495–501"), [495, 501]);
        assert_eq!(pin_pages("1602-05"), [1602, 1605]);
        assert_eq!(pin_pages("67-123"), [67, 123]);
        assert_eq!(pin_pages("99-1001"), [99, 1001]);
        assert_eq!(pin_pages("495 to 500"), [495, 500]);
        assert_eq!(pin_pages("495 — 500"), [495, 500]);
        assert_eq!(pin_pages("495 through 500"), [495, 500]);
        assert_eq!(pin_pages("495, and 500"), [495, 500]);
        assert_eq!(pin_pages("499 n.11"), [499]);
        assert_eq!(pin_pages("499 nn.11-12"), [499]);
        assert_eq!(pin_pages("20-25 & n. 4"), [20, 25]);
        assert_eq!(pin_pages("541,1"), [541]);
        assert_eq!(pin_pages("99999999999"), [u32::MAX]);
        assert_eq!(pin_pages("495-4294967297"), [495, u32::MAX]);
        assert_eq!(pin_pages("*4"), Vec::<u32>::new());
        assert_eq!(pin_pages("¶ 12"), Vec::<u32>::new());
    }
}
