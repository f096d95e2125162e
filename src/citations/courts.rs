//! courts-db: from the court abbreviation of a citation parenthetical
//! ("9th Cir.", "S.D.N.Y.", "Pa.Super.") to a court id ("ca9", "nysd",
//! "pasuperct").
//!
//! Abbreviations are compared without punctuation or spacing, because
//! citations write them loosely ("D Kan", "Pa.Super.", "SC"). An exact match
//! wins; otherwise the abbreviation must be the beginning of exactly one
//! court's citation string ("2d Cir" for "2d Cir."). Anything else stays
//! unknown rather than guessed.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::Deserialize;

const COURTS_JSON: &[u8] = include_bytes!("../../assets/citations/courts_db/courts.json");

type Text = Cow<'static, str>;

#[derive(Deserialize)]
struct RawCourt<'a> {
    #[serde(borrow)]
    id: Cow<'a, str>,
    #[serde(default, borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    citation_string: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    jurisdiction: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    system: Option<Cow<'a, str>>,
    #[serde(default, rename = "type", borrow)]
    court_type: Option<Cow<'a, str>>,
}

/// A court as courts-db describes it.
#[derive(Debug)]
pub struct Court {
    /// CourtListener court id ("ca9").
    pub id: Text,
    pub name: Text,
    /// Bluebook abbreviation ("9th Cir."); empty for courts without one.
    pub citation_string: Text,
    pub jurisdiction: Option<Text>,
    /// `federal`, `state`, `tribal`, …
    pub system: Text,
    /// `appellate`, `trial`, `bankruptcy`, …
    pub court_type: Text,
}

/// Where a court sits, at the grain a citation's court and a record's can
/// both be trusted on: any court of one state (a citation's "(Ariz.)" and a
/// source's Arizona Court of Appeals are not told apart), the federal courts
/// sitting in one state (a district and its bankruptcy court alike), or a
/// federal court of its own (a circuit, the Court of Federal Claims).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forum {
    /// An index into the place names.
    State(usize),
    FederalIn(usize),
    /// The court's own index.
    Federal(usize),
}

/// Places with courts of their own besides the fifty states, which
/// reporters-db lists, with their abbreviations.
const OTHER_PLACES: [(&str, &str); 6] = [
    ("D.C.", "District of Columbia"),
    ("P.R.", "Puerto Rico"),
    ("Guam", "Guam"),
    ("V.I.", "Virgin Islands"),
    ("N. Mar. I.", "Northern Mariana Islands"),
    ("Am. Samoa", "American Samoa"),
];

struct Courts {
    courts: Vec<Court>,
    /// Squashed citation strings with their court, sorted: exact and prefix
    /// lookups by binary search. The first court (in courts-db order) wins
    /// a shared string.
    keys: Vec<(String, usize)>,
    /// Squashed citation strings without their "Ct." ("N.J. Super. App.
    /// Div.", "Ky. App."), which sources often drop, that name one court
    /// only, sorted.
    keys_without_ct: Vec<(String, usize)>,
    /// Squashed full names that name one court only, sorted.
    names: Vec<(String, usize)>,
    /// Court indexes sorted by id.
    by_id: Vec<usize>,
    /// Each court's forum, where its name tells it.
    forums: Vec<Option<Forum>>,
    /// Places with courts ("Ariz.", "Arizona"; "P.R.", "Puerto Rico"): a
    /// [`Forum`]'s place is an index here.
    places: Vec<(String, String)>,
}

impl Courts {
    fn exact(&self, key: &str) -> Option<&Court> {
        find_key(&self.keys, key).map(|index| &self.courts[index])
    }
}

/// Each court's `text` squashed, with the court's index, sorted; courts
/// without it left out.
fn squashed_keys(courts: &[Court], text: impl Fn(&Court) -> &str) -> Vec<(String, usize)> {
    let mut keys: Vec<(String, usize)> = courts
        .iter()
        .enumerate()
        .map(|(index, court)| (squash(text(court)), index))
        .filter(|(key, _)| !key.is_empty())
        .collect();
    keys.sort();
    keys
}

fn find_key(keys: &[(String, usize)], key: &str) -> Option<usize> {
    let at = keys.partition_point(|(k, _)| k.as_str() < key);
    let (k, index) = keys.get(at)?;
    (k == key).then_some(*index)
}

/// Keeps the sorted keys that only one court has.
fn only_once(keys: &mut Vec<(String, usize)>) {
    let shared: Vec<String> = keys
        .windows(2)
        .filter(|pair| pair[0].0 == pair[1].0)
        .map(|pair| pair[0].0.clone())
        .collect();
    keys.retain(|(key, _)| shared.binary_search(key).is_err());
}

fn courts() -> &'static Courts {
    static COURTS: OnceLock<Courts> = OnceLock::new();
    COURTS.get_or_init(|| {
        let raw: Vec<RawCourt<'static>> =
            serde_json::from_slice(COURTS_JSON).expect("embedded courts.json is valid");
        let courts: Vec<Court> = raw
            .into_iter()
            .map(|c| Court {
                id: c.id,
                name: c.name.unwrap_or_default(),
                citation_string: c.citation_string.unwrap_or_default(),
                jurisdiction: c.jurisdiction,
                system: c.system.unwrap_or_default(),
                court_type: c.court_type.unwrap_or_default(),
            })
            .collect();
        let keys = squashed_keys(&courts, |court| &court.citation_string);
        let mut keys_without_ct: Vec<(String, usize)> = courts
            .iter()
            .enumerate()
            .filter_map(|(index, court)| {
                let words: Vec<&str> = court.citation_string.split_whitespace().collect();
                let kept: Vec<&str> = words.iter().copied().filter(|w| *w != "Ct.").collect();
                (kept.len() < words.len() && !kept.is_empty())
                    .then(|| (squash(&kept.join(" ")), index))
            })
            .collect();
        keys_without_ct.sort();
        only_once(&mut keys_without_ct);
        let mut names = squashed_keys(&courts, |court| &court.name);
        only_once(&mut names);
        let mut by_id: Vec<usize> = (0..courts.len()).collect();
        by_id.sort_by(|&a, &b| courts[a].id.cmp(&courts[b].id).then(a.cmp(&b)));
        let places = places();
        let forums = forums(&courts, &places);
        Courts {
            courts,
            keys,
            keys_without_ct,
            names,
            by_id,
            forums,
            places,
        }
    })
}

/// Lowercase letters and digits only, with ordinals in Bluebook form
/// ("3rd" and "3d" alike, as courts-db writes "3rd Cir.").
fn squash(text: &str) -> String {
    bluebook_ordinals(text)
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(|c| c.to_lowercase())
        .collect()
}

/// "2nd" → "2d", "3rd" → "3d" (R. 6.2(b)).
pub(crate) fn bluebook_ordinals(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let after_digit = i > 0 && bytes[i - 1].is_ascii_digit();
        let ordinal = [&b"nd"[..], b"rd"]
            .iter()
            .any(|suffix| bytes[i..].starts_with(suffix));
        let ends_word = bytes.get(i + 2).is_none_or(|b| !b.is_ascii_alphabetic());
        if after_digit && ordinal && ends_word {
            out.push('d');
            i += 2;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The court an abbreviation names, e.g. `court_by_abbreviation("9th Cir.")`
/// is the Ninth Circuit (`ca9`). `None` when nothing or several match.
pub fn court_by_abbreviation(abbreviation: &str) -> Option<&'static Court> {
    if let Some(court) = lookup(abbreviation) {
        return Some(court);
    }
    // Texas writes the district after a dash: "Tex. App.—Houston [1st
    // Dist.]" is the Texas Court of Appeals.
    let main = abbreviation.split(['—', '–']).next().unwrap_or("");
    if main.len() < abbreviation.len() {
        return lookup(main);
    }
    None
}

/// The court a full name names ("Supreme Court of the United States"),
/// when no other court has that name.
pub fn court_by_name(name: &str) -> Option<&'static Court> {
    let all = courts();
    find_key(&all.names, &squash(name)).map(|index| &all.courts[index])
}

/// The court a search query names all by itself: its id ("ca9"), its
/// full name ("Supreme Court of the United States"), or its abbreviation
/// holding a court's word ("9th Cir.", "S.D.N.Y.", "Tex. App."), with a
/// circuit's number and "Circuit" spelt out or not ("Ninth Circuit",
/// "Federal Circuit"). A place alone ("Cal.") names no court here: a
/// query is more often a party by it.
pub fn court_named_by_query(query: &str) -> Option<&'static Court> {
    let query = query.trim();
    if let Some(court) = court_by_id(query) {
        return Some(court);
    }
    // "U.S. Court of Appeals for the Ninth Circuit": courts-db names the
    // federal courts without the country.
    let without_country = ["U.S. ", "United States "].iter().find_map(|country| {
        let head = query.get(..country.len())?;
        head.eq_ignore_ascii_case(country)
            .then(|| &query[country.len()..])
    });
    // "Supreme Court of Texas": courts-db names a state's court after the
    // state ("Texas Supreme Court").
    let state_first = query
        .rsplit_once(" of ")
        .map(|(court, state)| format!("{state} {court}"));
    if let Some(court) = [Some(query), without_country, state_first.as_deref()]
        .into_iter()
        .flatten()
        .find_map(court_by_name)
    {
        return Some(court);
    }
    let abbreviated = circuit_abbreviated(query);
    let holds_a_courts_word = abbreviated
        .split(|c: char| !c.is_alphanumeric())
        .any(|word| {
            ["cir", "ct", "app", "d", "dist", "super", "bankr"]
                .iter()
                .any(|court_word| word.eq_ignore_ascii_case(court_word))
        });
    holds_a_courts_word
        .then(|| court_by_abbreviation(&abbreviated))
        .flatten()
}

/// A query that names a court beside other words ("Ninth Circuit
/// immigration", "asylum 9th Cir."): the court, named at the query's start
/// or end by its name or an abbreviation with a court's word, and the other
/// words. A court's bare id names none here: ids are words too ("cal",
/// "mass", "tex").
pub fn court_and_words(query: &str) -> Option<(&'static Court, String)> {
    let words: Vec<&str> = query.split_whitespace().collect();
    let named = |phrase: &[&str]| {
        let phrase = phrase.join(" ");
        court_by_id(&phrase)
            .is_none()
            .then(|| court_named_by_query(&phrase))
            .flatten()
    };
    // The longest run of leading words that names a court, else of
    // trailing ones; no court's name is longer than a few words, and a
    // long query must not cost a join per word.
    let longest = words.len().saturating_sub(1).min(MOST_WORDS_OF_A_COURT);
    let leading = (1..=longest)
        .rev()
        .find_map(|n| named(&words[..n]).map(|court| (court, words[n..].join(" "))));
    leading.or_else(|| {
        (1..=longest).rev().find_map(|n| {
            let at = words.len() - n;
            named(&words[at..]).map(|court| (court, words[..at].join(" ")))
        })
    })
}

/// The most words a court's name in a query runs to ("United States Court
/// of Appeals for the District of Columbia Circuit" is 12).
const MOST_WORDS_OF_A_COURT: usize = 12;

/// A circuit named in words as the Bluebook abbreviates it: "Ninth
/// Circuit" as "9th Cir.", "Federal Circuit" as "Fed. Cir.".
fn circuit_abbreviated(query: &str) -> String {
    const SPELT: [(&str, &str); 12] = [
        ("first", "1st"),
        ("second", "2d"),
        ("third", "3d"),
        ("fourth", "4th"),
        ("fifth", "5th"),
        ("sixth", "6th"),
        ("seventh", "7th"),
        ("eighth", "8th"),
        ("ninth", "9th"),
        ("tenth", "10th"),
        ("eleventh", "11th"),
        ("federal", "Fed."),
    ];
    let words: Vec<&str> = query.split_whitespace().collect();
    let circuit_at = |i: usize| {
        words
            .get(i)
            .is_some_and(|w| w.eq_ignore_ascii_case("circuit") || w.eq_ignore_ascii_case("cir."))
    };
    (0..words.len())
        .map(|i| {
            let word = words[i];
            if word.eq_ignore_ascii_case("circuit") {
                return "Cir.";
            }
            SPELT
                .iter()
                .find(|(spelt, _)| circuit_at(i + 1) && word.eq_ignore_ascii_case(spelt))
                .map_or(word, |(_, abbreviated)| abbreviated)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn lookup(abbreviation: &str) -> Option<&'static Court> {
    let all = courts();
    let key = squash(abbreviation);
    if key.is_empty() {
        return None;
    }
    if let Some(court) = all.exact(&key) {
        return Some(court);
    }
    // "Ky. App." and "N.J. Super. App. Div." are common for "Ky. Ct. App.",
    // "N.J. Super. Ct. App. Div.".
    if let Some(index) = find_key(&all.keys_without_ct, &key) {
        return Some(&all.courts[index]);
    }
    // Florida's district courts of appeal cite as "Fla. 3d DCA".
    if key.starts_with("fla") && key.ends_with("dca") {
        return all.exact("fladistctapp");
    }
    let from = all.keys.partition_point(|(k, _)| k.as_str() < key.as_str());
    let mut matches = all.keys[from..]
        .iter()
        .take_while(|(k, _)| k.starts_with(&key));
    let first = matches.next()?;
    if matches.next().is_some() {
        return None;
    }
    let court = &all.courts[first.1];
    ends_a_word_of(&court.citation_string, &key).then_some(court)
}

/// Whether `key` (squashed) is the citation string squashed up to the end
/// of one of its words, or into a word by at least four letters (courts-db
/// spells some out: "Minn." of "D. Minnesota"): "App." begins "Appomattox
/// Cir. Ct." but is no word of it.
fn ends_a_word_of(citation_string: &str, key: &str) -> bool {
    const ABBREVIATED_WORD: usize = 4;
    let mut squashed = String::new();
    let mut word_letters = 0;
    for c in bluebook_ordinals(citation_string).chars() {
        if c.is_alphanumeric() {
            squashed.extend(c.to_lowercase());
            word_letters += 1;
            if squashed == key && word_letters >= ABBREVIATED_WORD {
                return true;
            }
        } else {
            if word_letters > 0 && squashed == key {
                return true;
            }
            word_letters = 0;
        }
    }
    squashed == key
}

/// Each court's forum: a state or federal court whose name names one
/// place (or a state court whose citation string starts with a state's
/// abbreviation: "N.Y. App. Div."), or a federal court naming none. Others
/// are left unknown.
fn forums(courts: &[Court], places: &[(String, String)]) -> Vec<Option<Forum>> {
    let names: Vec<&str> = places.iter().map(|(_, name)| name.as_str()).collect();
    // "Ct. Cl." and "Tax Ct." are the United States Court of Claims and Tax
    // Court, but also a state's courts of those names cited without their
    // state, as the Bluebook has it when the reporter names the state.
    let state_names: Vec<&str> = courts
        .iter()
        .filter(|court| court.system == "state")
        .map(|court| court.name.trim())
        .collect();
    let shares_a_state_courts_name = |name: &str| {
        name.trim()
            .strip_prefix("United States ")
            .is_some_and(|rest| {
                state_names.iter().any(|state| {
                    state
                        .strip_suffix(rest)
                        .is_some_and(|p| p.is_empty() || p.ends_with(' '))
                })
            })
    };
    courts
        .iter()
        .enumerate()
        .map(|(index, court)| {
            let place = place_named(&court.name, &names);
            match (court.system.as_ref(), place) {
                ("state", Some(place)) => Some(Forum::State(place)),
                ("state", None) => place_at_start(&court.citation_string, places).map(Forum::State),
                ("federal", Some(place)) => Some(Forum::FederalIn(place)),
                ("federal", None) if shares_a_state_courts_name(&court.name) => None,
                ("federal", None) => Some(Forum::Federal(index)),
                _ => None,
            }
        })
        .collect()
}

/// The one place a court's name names, as a whole word that is not a
/// county's ("Washington County"), nor part of a longer place ("Virginia"
/// of "West Virginia"). `None` for none or several.
fn place_named(name: &str, places: &[&str]) -> Option<usize> {
    let mut found: Vec<(usize, usize, usize)> = Vec::new();
    for (index, place) in places.iter().enumerate() {
        for (start, _) in name.match_indices(place) {
            let end = start + place.len();
            let whole_word = name[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric())
                && name[end..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_alphanumeric());
            let county = name[end..].trim_start().starts_with("County");
            if whole_word && !county {
                found.push((start, end, index));
            }
        }
    }
    let inside_another = |&(start, end, _): &(usize, usize, usize)| {
        found
            .iter()
            .any(|&(s, e, _)| s <= start && end <= e && (s, e) != (start, end))
    };
    let mut named = found
        .iter()
        .filter(|f| !inside_another(f))
        .map(|&(_, _, place)| place);
    let first = named.next()?;
    named.all(|place| place == first).then_some(first)
}

/// The fifty states and [`OTHER_PLACES`], as (abbreviation, name).
fn places() -> Vec<(String, String)> {
    super::names::states()
        .into_iter()
        .chain(
            OTHER_PLACES
                .iter()
                .map(|(abbreviation, name)| (abbreviation.to_string(), name.to_string())),
        )
        .collect()
}

/// What a place's or the nation's abbreviation written with periods
/// stands for when it is several words: "N.Y." → "New York", "D.C." →
/// "District of Columbia", "U.S." → "United States"; `None` for other
/// words ("Bd.", "NY", "Cal.", "N.Y.2d").
pub fn place_spelt_out(word: &str) -> Option<&'static str> {
    if !word.ends_with('.') {
        return None;
    }
    let squashed = super::names::squash_word(word);
    if matches!(squashed.as_str(), "us" | "usa") {
        return Some("United States");
    }
    courts()
        .places
        .iter()
        .find(|(abbreviation, name)| {
            name.contains(' ') && super::names::squash_word(abbreviation) == squashed
        })
        .map(|(_, name)| name.as_str())
}

/// The place whose abbreviation a court's text starts with, as a word
/// ("N.Y. App. Div.", "Cal. App. 4th Dist."; "W. Va." is not "Va.").
fn place_at_start(text: &str, places: &[(String, String)]) -> Option<usize> {
    places.iter().position(|(abbreviation, _)| {
        text.strip_prefix(abbreviation.as_str())
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
    })
}

/// The forum of a court as written, when courts-db has no court of that
/// abbreviation ("D. Md." for its "D. Maryland", "Cal. Ct. App. 2d
/// Dist."): a federal district or bankruptcy court's state ("[Bankr.]
/// [N.|S.|E.|W.|M.|C.]D. <state>"), else the state it starts with.
fn written_forum(written: &str) -> Option<Forum> {
    let places = &courts().places;
    let court = written.trim();
    let court = court.strip_prefix("Bankr.").map_or(court, str::trim_start);
    let after_direction = ["N.", "S.", "E.", "W.", "M.", "C."]
        .iter()
        .find_map(|direction| court.strip_prefix(direction))
        .unwrap_or(court);
    if let Some(state) = after_direction
        .strip_prefix("D.")
        .map(str::trim_start)
        .and_then(|rest| place_at_start(rest, places))
    {
        return Some(Forum::FederalIn(state));
    }
    place_at_start(court, places).map(Forum::State)
}

/// Whether a court as written that courts-db does not know ("D. Md.")
/// is a different court from the one of `held` (an id), at the grain of
/// [`courts_differ`]; `None` when either's forum is unknown.
pub fn written_court_differs(written: &str, held: &str) -> Option<bool> {
    let held = forum_of(held)?;
    written_forum(written).map(|written| written != held)
}

/// The forum of a court by id, when known.
fn forum_of(id: &str) -> Option<Forum> {
    index_of(id).and_then(|index| courts().forums[index])
}

/// Whether two courts (by id) are known to be different courts at the
/// grain of [`Forum`]: different states, a state's court and a federal one,
/// federal courts in different states, or two federal courts of their own.
/// The Supreme Court differs from every other court. Unknown courts differ
/// from none.
pub fn courts_differ(a: &str, b: &str) -> bool {
    const SUPREME_COURT: &str = "scotus";
    if a == b {
        return false;
    }
    if a == SUPREME_COURT || b == SUPREME_COURT {
        return true;
    }
    matches!((forum_of(a), forum_of(b)), (Some(x), Some(y)) if x != y)
}

/// The court with a courts-db id.
pub fn court_by_id(id: &str) -> Option<&'static Court> {
    index_of(id).map(|index| &courts().courts[index])
}

fn index_of(id: &str) -> Option<usize> {
    let all = courts();
    let at = all
        .by_id
        .partition_point(|&i| all.courts[i].id.as_ref() < id);
    let index = *all.by_id.get(at)?;
    (all.courts[index].id == id).then_some(index)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(abbreviation: &str) -> Option<&'static str> {
        court_by_abbreviation(abbreviation).map(|c| c.id.as_ref())
    }

    #[test]
    fn maps_common_parenthetical_courts() {
        assert_eq!(id("9th Cir."), Some("ca9"));
        assert_eq!(id("2d Cir"), Some("ca2"));
        assert_eq!(id("S.D.N.Y."), Some("nysd"));
        assert_eq!(id("Cal. Ct. App."), Some("calctapp"));
        assert_eq!(id("Pa.Super."), Some("pasuperct"));
        assert_eq!(id("D Kan"), Some("ksd"));
        assert_eq!(id("SC"), Some("sc"));
        assert_eq!(id("D.C. Cir."), Some("cadc"));
        assert_eq!(id("Fed. Cir."), Some("cafc"));
        assert_eq!(id("3d Cir."), Some("ca3"));
        assert_eq!(id("3rd Cir."), Some("ca3"));
        assert_eq!(id("Ky. App."), Some("kyctapp"));
        assert_eq!(id("N.J. Super. App. Div."), Some("njsuperctappdiv"));
        assert_eq!(id("Tex. App.—Houston [1st Dist.]"), Some("texapp"));
        assert_eq!(id("Fla. 3d DCA"), Some("fladistctapp"));
    }

    #[test]
    fn refuses_to_guess() {
        assert_eq!(
            id("App."),
            None,
            "the beginning of Appomattox, not a word of it"
        );
        assert_eq!(id(""), None);
        assert_eq!(id("..."), None);
        assert_eq!(id("Nowhere Ct."), None);
        // "N." begins many abbreviations.
        assert_eq!(id("N"), None);
    }

    #[test]
    fn looks_up_by_id() {
        let court = court_by_id("scotus").unwrap();
        assert_eq!(court.citation_string, "SCOTUS");
        assert!(court_by_id("no-such-court").is_none());
    }

    #[test]
    fn a_query_names_a_court_by_its_id_name_or_abbreviation() {
        let id = |query: &str| court_named_by_query(query).map(|court| court.id.to_string());
        for (query, court) in [
            ("ca9", "ca9"),
            ("9th Cir.", "ca9"),
            ("Ninth Circuit", "ca9"),
            ("ninth circuit", "ca9"),
            ("Second Circuit", "ca2"),
            ("Federal Circuit", "cafc"),
            ("D.C. Circuit", "cadc"),
            ("S.D.N.Y.", "nysd"),
            ("Supreme Court of the United States", "scotus"),
            ("U.S. Court of Appeals for the Ninth Circuit", "ca9"),
            ("Supreme Court of Texas", "tex"),
            ("Supreme Judicial Court of Massachusetts", "mass"),
        ] {
            assert_eq!(id(query).as_deref(), Some(court), "{query}");
        }
        // A place alone, or a party's name, is no court.
        for query in [
            "Cal.",
            "Texas",
            "Brown v. Board",
            "Ninth",
            "Apple v. Samsung",
        ] {
            assert_eq!(id(query), None, "{query}");
        }
    }

    #[test]
    fn a_query_names_a_court_beside_other_words() {
        let split = |query: &str| {
            court_and_words(query).map(|(court, words)| (court.id.to_string(), words))
        };
        for (query, court, words) in [
            ("Ninth Circuit immigration", "ca9", "immigration"),
            ("asylum 9th Cir.", "ca9", "asylum"),
            (
                "Supreme Court of Texas parental rights",
                "tex",
                "parental rights",
            ),
            ("D.C. Circuit net neutrality", "cadc", "net neutrality"),
        ] {
            assert_eq!(
                split(query),
                Some((court.to_string(), words.to_string())),
                "{query}"
            );
        }
        for query in [
            "Ninth Circuit",
            "ca9 immigration",
            "Texas v. Johnson",
            "Brown v. Board of Education",
            "United States v. Nixon",
            "Circuit City Stores v. Adams",
            "Board of Regents v. Roth",
            "Mass. v. EPA",
        ] {
            assert_eq!(split(query), None, "{query}");
        }
    }

    #[test]
    fn courts_differ_only_where_their_places_or_federal_courts_do() {
        let differ = [
            ("ariz", "nm"),
            ("ariz", "ca9"),
            ("ca2", "ca9"),
            ("ca2", "nysd"),
            ("nysd", "cand"),
            ("wva", "va"),
            ("cadc", "dc"),
            ("nyappdiv", "fla"),
            ("scotus", "ca9"),
            ("scotus", "navajo"),
        ];
        for (a, b) in differ {
            assert!(courts_differ(a, b), "{a} {b}");
            assert!(courts_differ(b, a), "{b} {a}");
        }
        let same_or_unknown = [
            ("ariz", "arizctapp"),
            ("nysd", "nysb"),
            ("nyappdiv", "ny"),
            ("nyappdiv", "nysupct"),
            // Not the state of Washington, nor one of Ohio's counties alone.
            ("ohctapp4washing", "ohioctapp"),
            ("orccwashington", "or"),
            ("kycirctwashingt", "wash"),
            ("navajo", "ariz"),
            ("ca9", "no-such-court"),
            ("ca9", "ca9"),
            // "(Ct. Cl.)", "(Tax Ct.)" may be a state's court of that name.
            ("cc", "nyclaimsct"),
            ("tax", "indtc"),
            ("usdistct", "prd"),
        ];
        for (a, b) in same_or_unknown {
            assert!(!courts_differ(a, b), "{a} {b}");
            assert!(!courts_differ(b, a), "{b} {a}");
        }
    }

    #[test]
    fn courts_courts_db_does_not_know_are_placed_by_their_state() {
        for (written, held, differs) in [
            ("D. Md.", "nm", Some(true)),
            ("Bankr. S.D.N.Y.", "nm", Some(true)),
            ("M.D. Pa.", "paed", Some(false)),
            ("Cal. App. 4th Dist.", "nm", Some(true)),
            ("Cal. App. 4th Dist.", "cal", Some(false)),
            ("N.D.", "nd", Some(false)),
            ("W. Va. App.", "va", Some(true)),
            ("BIA", "bia", None),
            ("P.R.", "prd", Some(true)),
            ("D.D.C.", "dcd", Some(false)),
            ("D. Md.", "navajo", None),
        ] {
            assert_eq!(
                written_court_differs(written, held),
                differs,
                "{written} {held}"
            );
        }
    }
}
