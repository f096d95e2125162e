//! Case names: Bluebook T6 abbreviations, normalisation, and the matcher
//! the verify endpoint relies on.
//!
//! [`case_names_match`] decides whether the name a document gives a
//! citation is the name of the case actually at that page. Calling a
//! fabricated citation verified is the worst mistake the product can make,
//! so the matcher accepts only what differs by form — abbreviations, "et
//! al.", corporate suffixes, articles, one party given for two — and
//! rejects any difference in the distinctive words, parties in the other
//! order ("Johnson v. Texas" is not Texas v. Johnson) and a party named by
//! the description a record adds after its name ("Georgia" for "BOWERS,
//! ATTORNEY GENERAL OF GEORGIA").

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

const ABBREVIATIONS_JSON: &[u8] =
    include_bytes!("../../assets/citations/reporters_db/case_name_abbreviations.json");
const STATES_JSON: &[u8] =
    include_bytes!("../../assets/citations/reporters_db/state_abbreviations.json");

/// reporters-db's fifty states: abbreviation ("W. Va.") to name, in the
/// abbreviations' order.
pub(crate) fn states() -> std::collections::BTreeMap<String, String> {
    serde_json::from_slice(STATES_JSON).expect("embedded state table is valid")
}

/// Abbreviations common in case names that T6 does not list (the court
/// words are the Bluebook's T7, for courts as parties: "Superior Ct.",
/// "Sup. Ct. of N.H.").
const EXTRA_ABBREVIATIONS: [(&str, &str); 53] = [
    ("Ed.", "Education"),
    ("Am.", "American"),
    ("Rts.", "Rights"),
    ("Emp.", "Employment"),
    ("Hum.", "Human"),
    ("Acct.", "Accounting"),
    ("Acct.", "Accountant"),
    // T6 words reporters-db's list lacks or gives one sense of only
    // ("Tr." is Trust as well as Trustee; the 21st edition's "Env't" is
    // Environmental too), and "Harv." of college names.
    ("Aff.", "Affairs"),
    ("Affs.", "Affairs"),
    ("Env't", "Environmental"),
    ("Def.", "Defender"),
    ("Defs.", "Defenders"),
    ("Tr.", "Trust"),
    ("Trs.", "Trustees"),
    ("Harv.", "Harvard"),
    ("Ct.", "Court"),
    ("Sup.", "Supreme"),
    ("Super.", "Superior"),
    ("Jud.", "Judicial"),
    ("Cir.", "Circuit"),
    ("Servs.", "Services"),
    ("Env'l", "Environmental"),
    ("Dept.", "Department"),
    ("Inc.", "Incorporated"),
    ("Ltd.", "Limited"),
    ("Bros.", "Brothers"),
    ("Jr.", "Junior"),
    ("Sr.", "Senior"),
    ("St.", "Saint"),
    ("Ft.", "Fort"),
    ("Mt.", "Mount"),
    ("No.", "Number"),
    ("Twp.", "Township"),
    ("Mr.", "Mister"),
    ("Mrs.", "Missus"),
    ("Dr.", "Doctor"),
    ("Assn.", "Association"),
    // Common in briefs and reporters' captions, though not in T6.
    ("Hldg.", "Holding"),
    ("Petrol.", "Petroleum"),
    ("Contr.", "Contractor"),
    // Older Bluebooks', which SCDB's captions keep ("Sprint Communs. Co."
    // is its plural).
    ("Commun.", "Communication"),
    // T10's, in company names ("Nat'l Austl. Bank Ltd.") and the cities
    // whose one-word names it abbreviates ("Chi. Teachers Union"; not
    // "Det.", T6's Detention, nor "Hous.", its Housing).
    ("Austl.", "Australia"),
    ("Balt.", "Baltimore"),
    ("Bos.", "Boston"),
    ("Chi.", "Chicago"),
    ("Clev.", "Cleveland"),
    ("Dall.", "Dallas"),
    ("Mia.", "Miami"),
    ("Phila.", "Philadelphia"),
    ("Phx.", "Phoenix"),
    ("Pitt.", "Pittsburgh"),
    // The U.S. Reports write a railroad and a railway company alike ("Erie
    // R. Co.", "Norfolk & Western R. Co." for a Railway Company), and
    // briefs copy them: the two words are one.
    ("R.R.", "Railway"),
    ("Ry.", "Railroad"),
];

/// Tokens that say what kind of entity a party is, not which one.
const SUFFIXES: [&str; 18] = [
    "inc",
    "co",
    "corp",
    "llc",
    "llp",
    "lp",
    "ltd",
    "pty",
    "plc",
    "na",
    "pc",
    "pllc",
    "sa",
    "ag",
    "gmbh",
    "incorporated",
    "limited",
    "bros",
];

/// Words that carry no identity in a case name.
const STOPWORDS: [&str; 16] = [
    "the", "of", "a", "an", "and", "in", "re", "for", "on", "to", "at", "by", "ex", "rel", "et",
    "al",
];

/// A party's role in the court, which the Supreme Court Database writes
/// into names ("AMERICAN EXPRESS COMPANY, et al., PETITIONERS v. …") and a
/// citation leaves out.
const ROLES: [&str; 8] = [
    "petitioner",
    "petitioners",
    "respondent",
    "respondents",
    "appellant",
    "appellants",
    "appellee",
    "appellees",
];

/// Government parties: identical in thousands of cases, so they never
/// identify one by themselves.
const GOVERNMENT: [&str; 16] = [
    "united_states",
    "state",
    "people",
    "commonwealth",
    "government",
    "city",
    "county",
    "town",
    "township",
    "village",
    "borough",
    "parish",
    "territory",
    "republic",
    "nation",
    "district",
];

/// Phrases that open a non-adversarial case name.
const CAPTION_PREFIXES: [&str; 9] = [
    "in the matter of ",
    "in the interest of ",
    "in re the ",
    "in re ",
    "matter of ",
    "ex parte ",
    "application of ",
    "petition of ",
    "estate of ",
];

struct Lexicon {
    /// Lower-case word or abbreviation (no trailing period) → canonical
    /// token.
    canonical: HashMap<String, String>,
    /// Abbreviations with their period, as written ("Corp.", "Ass'n").
    abbreviations: HashSet<String>,
    /// Full word (lower case) → its T6 abbreviation, when T6 gives one
    /// abbreviation for it.
    bluebook: HashMap<String, String>,
    /// Squashed abbreviation → the squashed words it abbreviates, and
    /// squashed word → its abbreviations.
    expansions: HashMap<String, Vec<String>>,
    /// The tokens of a state named in several words whose abbreviation is
    /// one word ("new", "york"), and that abbreviation's token ("ny"): "N.Y.
    /// Times Co." is "New York Times Co.".
    state_phrases: Vec<(Vec<String>, String)>,
    /// The tokens of the words T6 and [`EXTRA_ABBREVIATIONS`] abbreviate:
    /// the words of institutions ("natl", "dept", "commn", "sch"), which
    /// name no party alone.
    institutional: HashSet<String>,
    /// The tokens of each state's name and of its abbreviation (`[del]` for
    /// Delaware, `[new, york]` and `[ny]` for New York).
    places: HashSet<Vec<String>>,
    /// Squashed abbreviation → how it is written with its apostrophe, lower
    /// case, without a period ("assn" → "ass'n").
    apostrophes: HashMap<String, String>,
}

/// Whether `words` (tokens) are a state's name or abbreviation, and
/// nothing more.
fn is_place(words: &[&str]) -> bool {
    lexicon()
        .places
        .contains(&words.iter().map(|w| w.to_string()).collect::<Vec<_>>())
}

fn lexicon() -> &'static Lexicon {
    static LEXICON: OnceLock<Lexicon> = OnceLock::new();
    LEXICON.get_or_init(|| {
        let t6: std::collections::BTreeMap<String, Vec<String>> =
            serde_json::from_slice(ABBREVIATIONS_JSON).expect("embedded T6 table is valid");
        let states = states();
        let mut canonical = HashMap::new();
        let mut abbreviations = HashSet::new();
        let mut bluebook: HashMap<String, Option<String>> = HashMap::new();
        let mut expansions: HashMap<String, Vec<String>> = HashMap::new();
        let mut expand = |from: String, to: String| {
            if from == to || to.is_empty() {
                return;
            }
            let forms = expansions.entry(from).or_default();
            if !forms.contains(&to) {
                forms.push(to);
            }
        };
        // Every spelling of a word (full, T6, extra) shares one token.
        let pairs = t6
            .iter()
            .flat_map(|(abbr, words)| words.iter().map(move |w| (abbr.as_str(), w.as_str(), true)))
            .chain(EXTRA_ABBREVIATIONS.iter().map(|&(a, w)| (a, w, false)));
        for (abbr, word, is_t6) in pairs {
            let abbr_key = squash_word(abbr);
            let word_key = squash_word(word);
            // "&" for "and" squashes to nothing: "and" stays a word of its
            // own rather than an empty token every "AND" would share.
            if abbr_key.is_empty() || word_key.is_empty() {
                continue;
            }
            expand(abbr_key.clone(), word_key.clone());
            expand(word_key.clone(), abbr_key.clone());
            let token = canonical
                .get(&word_key)
                .or_else(|| canonical.get(&abbr_key))
                .cloned()
                .unwrap_or_else(|| abbr_key.clone());
            // An abbreviation joins the words it stands for, however they
            // were grouped before ("Am." of American, which "Amer." had
            // grouped; "Env't" of Environment, and of Environmental): both
            // groups share a token.
            let joined = canonical.get(&abbr_key).cloned();
            if let Some(abbr_token) = joined
                && abbr_token != token
            {
                for value in canonical.values_mut() {
                    if *value == token {
                        *value = abbr_token.clone();
                    }
                }
            }
            canonical.entry(abbr_key).or_insert_with(|| token.clone());
            canonical.entry(word_key).or_insert(token);
            abbreviations.insert(abbr.to_string());
            if is_t6 && abbr != "&" {
                bluebook
                    .entry(word.to_lowercase())
                    .and_modify(|existing| {
                        if existing.as_deref() != Some(abbr) {
                            *existing = None;
                        }
                    })
                    .or_insert_with(|| Some(abbr.to_string()));
            }
        }
        for (abbr, state) in &states {
            expand(squash_word(abbr), squash_word(state));
            expand(squash_word(state), squash_word(abbr));
            abbreviations.insert(abbr.clone());
            let token = squash_word(abbr);
            canonical
                .entry(squash_word(state))
                .or_insert_with(|| token.clone());
            canonical.entry(token.clone()).or_insert(token);
        }
        let institutional = t6
            .values()
            .flatten()
            .map(String::as_str)
            .chain(EXTRA_ABBREVIATIONS.iter().map(|&(_, word)| word))
            .filter_map(|word| canonical.get(&squash_word(word)).cloned())
            .collect();
        let state_words = |state: &str| -> Vec<String> {
            state
                .split_whitespace()
                .map(|word| {
                    let squashed = squash_word(word);
                    canonical.get(&squashed).cloned().unwrap_or(squashed)
                })
                .collect()
        };
        let state_phrases = states
            .iter()
            .filter(|(abbr, state)| !abbr.contains(' ') && state.contains(' '))
            .map(|(abbr, state)| (state_words(state), squash_word(abbr)))
            .collect();
        let places = states
            .iter()
            .flat_map(|(abbr, state)| [vec![squash_word(abbr)], state_words(state)])
            .collect();
        let apostrophes = abbreviations
            .iter()
            .filter(|abbr| abbr.contains('\''))
            .map(|abbr| (squash_word(abbr), abbr.trim_end_matches('.').to_lowercase()))
            .collect();
        Lexicon {
            canonical,
            state_phrases,
            institutional,
            places,
            expansions,
            apostrophes,
            abbreviations,
            bluebook: bluebook
                .into_iter()
                .filter_map(|(word, abbr)| abbr.map(|a| (word, a)))
                .collect(),
        }
    })
}

/// Lower case, letters and digits only, typographic ligatures spelled out
/// ("Saﬂey", as PDF text has it, is "safley"), accents dropped.
pub fn squash_word(word: &str) -> String {
    let mut squashed = String::with_capacity(word.len());
    for c in word.chars().filter(|c| c.is_alphanumeric()) {
        match ligature_letters(c) {
            Some(letters) => squashed.push_str(letters),
            None => squashed.extend(c.to_lowercase().map(fold_accent)),
        }
    }
    squashed
}

/// The letters a typographic ligature joins ("ﬁ" is "fi"), as PDF text
/// keeps them.
pub fn ligature_letters(c: char) -> Option<&'static str> {
    Some(match c {
        'ﬀ' => "ff",
        'ﬁ' => "fi",
        'ﬂ' => "fl",
        'ﬃ' => "ffi",
        'ﬄ' => "ffl",
        'ﬅ' | 'ﬆ' => "st",
        _ => return None,
    })
}

fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
        'ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' => 'i',
        'ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' => 'u',
        'ý' | 'ÿ' => 'y',
        other => other,
    }
}

/// Whether a word ending in a period is an abbreviation rather than the
/// end of a sentence: "Corp.", "U.S.", "K.F.", "Cal.", a middle initial,
/// a short capitalised word ("Sys.", "Par."), or a plural of an
/// abbreviation ("Pharms.").
pub fn is_abbreviation(word: &str) -> bool {
    let word = word.trim_end_matches(',');
    let Some(stem) = word.strip_suffix('.') else {
        return false;
    };
    if stem.is_empty() {
        return false;
    }
    // A plural of one ("Pharms.", "Assocs.", "Hldgs.").
    let singular = stem
        .strip_suffix('s')
        .map(|singular| format!("{singular}."));
    if stem.contains('.')
        || lexicon().abbreviations.contains(word)
        || singular.is_some_and(|singular| lexicon().abbreviations.contains(singular.as_str()))
    {
        return true;
    }
    let first = stem.chars().next().unwrap_or(' ');
    let letters = stem.chars().filter(|c| c.is_alphabetic()).count();
    first.is_uppercase() && (letters <= 4 || stem.contains('\''))
        || matches!(stem, "v" | "vs" | "rel" | "al" | "ux" | "seq" | "etc")
}

/// The Bluebook T6 abbreviation of a word, when T6 gives exactly one
/// ("Corporation" → "Corp.").
pub fn t6_abbreviation(word: &str) -> Option<&'static str> {
    lexicon()
        .bluebook
        .get(&word.to_lowercase())
        .map(String::as_str)
}

/// The spellings of a word in case names, lower case and without periods:
/// itself, and the words it abbreviates or its abbreviations ("Bd." →
/// `bd`, `board`; "Board" → `board`, `bd`; "Educ." → `educ`, `education`,
/// `educational`; "Education" → `education`, `educ`, `ed`).
pub fn spellings(word: &str) -> Vec<String> {
    let squashed = squash_word(word);
    if squashed.is_empty() {
        return Vec::new();
    }
    let expansions = &lexicon().expansions;
    let mut forms = vec![squashed.clone()];
    match expansions.get(&squashed) {
        Some(others) => forms.extend(others.iter().cloned()),
        // A plural of a word the table has ("Mfrs."): its plurals.
        None => {
            if let Some(others) = squashed
                .strip_suffix('s')
                .and_then(|singular| expansions.get(singular))
            {
                forms.extend(others.iter().map(|other| format!("{other}s")));
            }
        }
    }
    forms
}

/// The spellings of [`spellings`] that T6 writes with an apostrophe, as
/// written ("nat'l" for "National" or "Nat'l"): an index that splits words
/// at apostrophes holds each as two words.
pub fn apostrophe_spellings(word: &str) -> Vec<&'static str> {
    let apostrophes = &lexicon().apostrophes;
    spellings(word)
        .iter()
        .filter_map(|form| apostrophes.get(form).map(String::as_str))
        .collect()
}

/// A case name reduced to comparable tokens, parties separated by `v`:
/// "Bell Atlantic Corporation et al. v. Twombly" → `bell atlantic corp v twombly`.
/// Abbreviated and spelled-out words normalise alike; "et al." and
/// leading articles are dropped; "U.S." and "United States" are one token.
pub fn normalize_case_name(name: &str) -> String {
    parties(name)
        .iter()
        .map(|party| party.join(" "))
        .collect::<Vec<_>>()
        .join(" v ")
}

/// Parties of a name, each as canonical tokens.
fn parties(name: &str) -> Vec<Vec<String>> {
    let mut parts = sides(name);
    parts.retain(|p| !p.is_empty());
    parts
}

/// The two sides of a case name's "v.", each as canonical tokens ("U.S."
/// and "United States" alike), the first empty when the name begins with
/// "v."; later "v."s are of the second side. `None` without a "v.".
pub fn case_sides(name: &str) -> Option<(Vec<String>, Vec<String>)> {
    let mut sides = sides(name).into_iter();
    let first = sides.next()?;
    let later: Vec<Vec<String>> = sides.collect();
    (!later.is_empty()).then(|| (first, later.into_iter().flatten().collect()))
}

/// A parenthetical of a few capitalised words after a name: New York's
/// given name of a party ("People v Romero (Wilbert)"), or the short name
/// of one of several decisions ("(Brown II)"). Names also compare without
/// it.
pub(crate) fn is_name_parenthetical(inner: &str) -> bool {
    let words: Vec<&str> = inner.split_whitespace().collect();
    // "Restatement (Second)": an edition.
    let edition = words.iter().any(|w| {
        matches!(
            *w,
            "First" | "Second" | "Third" | "Fourth" | "Fifth" | "Sixth" | "Seventh" | "Eighth"
        )
    });
    !edition
        && (1..=3).contains(&words.len())
        && words.iter().all(|word| {
            word.starts_with(|c: char| c.is_uppercase())
                && word
                    .chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '.' | '-' | '\''))
        })
}

/// The parentheticals of a name, in order: where each is, brackets
/// included, and what it holds.
pub(crate) fn parentheticals(name: &str) -> impl Iterator<Item = (std::ops::Range<usize>, &str)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        let open = from + name[from..].find('(')?;
        let close = open + name[open..].find(')')?;
        from = close + 1;
        Some((open..close + 1, &name[open + 1..close]))
    })
}

/// The name without its [`is_name_parenthetical`]s.
fn without_name_parentheticals(name: &str) -> std::borrow::Cow<'_, str> {
    let mut kept = String::new();
    let mut from = 0;
    for (span, inner) in parentheticals(name) {
        if is_name_parenthetical(inner) {
            kept.push_str(&name[from..span.start]);
            from = span.end;
        }
    }
    if from == 0 {
        return std::borrow::Cow::Borrowed(name);
    }
    kept.push_str(&name[from..]);
    std::borrow::Cow::Owned(kept)
}

/// Each side of a case name's "v."s as canonical tokens, an empty side
/// kept in its place.
fn sides(name: &str) -> Vec<Vec<String>> {
    let lowered: String = name
        .chars()
        .map(|c| match c {
            c if crate::citations::scanner::is_apostrophe(c) => '\'',
            other => other,
        })
        .collect();
    let mut parts: Vec<Vec<String>> = vec![Vec::new()];
    // The words each party is written in, for initials read as a suffix.
    let mut written: Vec<Vec<&str>> = vec![Vec::new()];
    let words: Vec<&str> = lowered.split_whitespace().collect();
    let versus = VersusWords::of(&words);
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let bare =
            word.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '“' | '”'));
        let lower = bare.to_lowercase();
        if versus.is_versus(word) {
            parts.push(Vec::new());
            written.push(Vec::new());
            i += 1;
            continue;
        }
        if lower == "et"
            && words.get(i + 1).is_some_and(|w| {
                matches!(
                    w.to_lowercase().trim_end_matches(','),
                    "al." | "al" | "ux." | "ux" | "vir" | "vir."
                )
            })
        {
            i += 2;
            continue;
        }
        let party = parts.last_mut().expect("parts is never empty");
        if let Some(initials) = railroad_initials(&words[i..]) {
            party.extend(word_tokens("Railroad"));
            i += initials;
            continue;
        }
        if let Some(initials) = united_states_initials(&words[i..]) {
            party.extend(word_tokens("U.S."));
            i += initials;
            continue;
        }
        for token in word_tokens(bare) {
            party.push(token);
        }
        written.last_mut().expect("one per party").push(bare);
        i += 1;
    }
    for (party, written) in parts.iter_mut().zip(&written) {
        strip_caption_prefix(party);
        merge_united_states(party);
        // A party of one word that is a company's suffix written as a
        // person's initials ("LP v. LF", "State v. A.G.", "In re P.C.")
        // names that person; a suffix cut from a company ("Ltd.", "N.A.",
        // "LLC") still names no one.
        if let ([only], [word]) = (party.as_mut_slice(), written.as_slice())
            && matches!(only.as_str(), "lp" | "pc" | "sa" | "ag")
            && word.chars().all(|c| c.is_ascii_uppercase() || c == '.')
        {
            only.push('.');
        }
    }
    parts
}

/// How many words of `words` are the "R." or "R. R." the U.S. Reports
/// abbreviate a railroad or railway company by ("Erie R. Co."): an initial
/// before a company's "Co.", which no person's initial stands before.
fn railroad_initials(words: &[&str]) -> Option<usize> {
    let initials = words.iter().take(2).take_while(|w| **w == "R.").count();
    let company = squash_word(words.get(initials)?);
    (initials > 0 && matches!(company.as_str(), "co" | "cos" | "corp" | "company"))
        .then_some(initials)
}

/// How many words of `words` are "U. S." or "U. S. A." spaced out, as the
/// U.S. Reports write them inside a name ("CHEVRON U. S. A. INC."): the
/// initials "U.S.A." stand for.
fn united_states_initials(words: &[&str]) -> Option<usize> {
    let initial = |i: usize, letter: &str| {
        words
            .get(i)
            .is_some_and(|w| w.trim_end_matches([',', ';']).eq_ignore_ascii_case(letter))
    };
    (initial(0, "U.") && initial(1, "S.")).then(|| if initial(2, "A.") { 3 } else { 2 })
}

/// One written word of a case name as the canonical tokens names compare
/// by: T6 forms unified ("Bd." and "Board", "Mfrs." and "Manufacturers"),
/// hyphenated words split, punctuation dropped.
pub fn word_tokens(word: &str) -> Vec<String> {
    let whole = squash_word(word);
    if whole.is_empty() {
        return Vec::new();
    }
    if matches!(whole.as_str(), "us" | "usa") && word.contains(['.', 'U']) || whole == "usa" {
        return vec!["united_states".to_string()];
    }
    // A state's one-word abbreviation, with its periods ("N.Y.", not a
    // PDF's broken "Ri chardson"), is the words of its name, as written in
    // full: the words, so a name split by a PDF ("N ew Jersey") still
    // shares one.
    if word.contains('.')
        && let Some((words, _)) = lexicon()
            .state_phrases
            .iter()
            .find(|(_, token)| *token == whole)
    {
        return words.clone();
    }
    // Initials that spell a small word ("In re A.N.") are a person's, and
    // the only words that tell such a case from another.
    let initials = word.len() >= 4
        && word
            .split_terminator('.')
            .all(|part| part.chars().count() == 1 && part.chars().all(char::is_alphabetic));
    if initials && word.ends_with('.') && STOPWORDS.contains(&whole.as_str()) {
        return vec![format!("{whole}.")];
    }
    if let Some(canonical) = lookup(&whole) {
        return vec![canonical];
    }
    word.split(['-', '/', '—', '–', '\u{2010}', '\u{2011}'])
        .map(squash_word)
        .filter(|t| !t.is_empty())
        .map(|t| lookup(&t).unwrap_or(t))
        .collect()
}

/// The canonical token of a squashed word, also for plurals ("mfrs",
/// "manufacturers" → "mfr"; "technologies", "techs" → "tech").
fn lookup(squashed: &str) -> Option<String> {
    let canonical = &lexicon().canonical;
    canonical
        .get(squashed)
        .or_else(|| {
            let stem = squashed.strip_suffix("ies")?;
            canonical.get(&format!("{stem}y"))
        })
        .or_else(|| canonical.get(squashed.strip_suffix('s')?))
        .cloned()
}

fn strip_caption_prefix(party: &mut Vec<String>) {
    let joined = party.join(" ") + " ";
    for prefix in CAPTION_PREFIXES {
        if joined.starts_with(prefix) {
            let n = prefix.split_whitespace().count();
            party.drain(..n.min(party.len()));
            return;
        }
    }
}

/// "united states of america" and "united states" are one party token.
fn merge_united_states(party: &mut Vec<String>) {
    let mut i = 0;
    while i + 1 < party.len() {
        if party[i] == "united" && party[i + 1] == "states" {
            party.splice(i..i + 2, ["united_states".to_string()]);
            if party.get(i + 1).map(String::as_str) == Some("of")
                && matches!(party.get(i + 2).map(String::as_str), Some("america" | "am"))
            {
                party.drain(i + 1..i + 3);
            }
        }
        i += 1;
    }
}

/// The words of a party that identify it.
fn distinctive(party: &[String]) -> Vec<&str> {
    party
        .iter()
        .map(String::as_str)
        .filter(|t| {
            !STOPWORDS.contains(t)
                && !SUFFIXES.contains(t)
                && !GOVERNMENT.contains(t)
                && !ROLES.contains(t)
        })
        .collect()
}

/// The identifying tokens of every party of a name, for indexing names
/// before comparing them with [`case_names_match`].
pub(crate) fn distinctive_tokens(name: &str) -> Vec<String> {
    parties(name)
        .iter()
        .flat_map(|party| {
            distinctive(party)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

fn is_government_only(party: &[String]) -> bool {
    distinctive(party).is_empty() && party.iter().any(|t| GOVERNMENT.contains(&t.as_str()))
}

/// The words of a name that may be acronyms: written in capitals
/// ("FCC", "N.L.R.B."), squashed. `None` when the whole name is in capitals,
/// as the Supreme Court Database writes names, so any word may be one.
fn acronyms(name: &str) -> Option<HashSet<String>> {
    if !name.chars().any(char::is_lowercase) {
        return None;
    }
    Some(
        name.split_whitespace()
            .filter(|word| {
                let letters = word.chars().filter(char::is_ascii_alphabetic);
                letters.clone().count() >= 3 && letters.clone().all(|c| c.is_ascii_uppercase())
            })
            .map(squash_word)
            .collect(),
    )
}

/// `party` with each acronym that spells the initials of a run of words of
/// `other` ("fcc" beside "federal communications commission", "naacp"
/// beside "national association for the advancement of colored people")
/// replaced by that run, so a party written either way compares alike.
/// Only words written as acronyms, and runs of three words or more:
/// shorter ones match ordinary words by chance.
fn expand_acronyms(
    party: &[String],
    other: &[String],
    acronyms: Option<&HashSet<String>>,
) -> Vec<String> {
    let words: Vec<&String> = other
        .iter()
        .filter(|t| !STOPWORDS.contains(&t.as_str()))
        .collect();
    let mut expanded = Vec::with_capacity(party.len());
    for token in party {
        let is_candidate = token.len() >= 3
            && token.chars().all(|c| c.is_ascii_lowercase())
            && acronyms.is_none_or(|set| set.contains(token))
            && !other.contains(token);
        let run = is_candidate
            .then(|| {
                words.windows(token.len()).find(|run| {
                    run.iter()
                        .zip(token.chars())
                        .all(|(word, initial)| word.starts_with(initial))
                })
            })
            .flatten();
        match run {
            Some(run) => expanded.extend(run.iter().map(|word| (*word).clone())),
            None => expanded.push(token.clone()),
        }
    }
    expanded
}

/// Words that join two names of one party: "Y & H Corp., dba The
/// Moonlight Cafe", "Chase & Sanborn Corp., fka General Coffee Corp.".
const ALIAS_WORDS: [&str; 4] = ["dba", "fka", "aka", "nka"];

/// A party and each of its names when it has several (see [`ALIAS_WORDS`]).
fn alias_names(party: &[String]) -> Vec<&[String]> {
    let mut names = vec![party];
    if party.iter().any(|t| ALIAS_WORDS.contains(&t.as_str())) {
        names.extend(
            party
                .split(|t| ALIAS_WORDS.contains(&t.as_str()))
                .filter(|name| !name.is_empty()),
        );
    }
    names
}

/// Whether two parties are the same, `*_acronyms` saying which words of
/// each name may be acronyms (see [`acronyms`]): any name of one may be
/// any name of the other.
fn party_matches(
    cited: &[String],
    actual: &[String],
    cited_acronyms: Option<&HashSet<String>>,
    actual_acronyms: Option<&HashSet<String>>,
    shape: ShapeOf<'_>,
) -> bool {
    let aliases = alias_names(actual);
    // A party's other names have no shape of their own.
    let shape = (aliases.len() == 1).then_some(shape);
    alias_names(cited).into_iter().any(|cited| {
        aliases
            .iter()
            .any(|actual| same_party(cited, actual, cited_acronyms, actual_acronyms, shape))
    })
}

/// A party's shape ([`PartyShape`]) when it is needed, and can be told.
type ShapeOf<'s> = &'s dyn Fn() -> Option<&'s PartyShape>;

/// Where a party's own name lies among its distinctive words (those of
/// its name of record, in order): the words before its first comma, after
/// which a name of record adds offices, places, given names and aliases
/// ("WEATHERFORD, AGENT OF THE S.C. LAW ENFORCEMENT DIVISION", "PENSON,
/// STEVEN A."), split into the names it joins with "and" ("GEORGE W. BUSH
/// AND RICHARD CHENEY"), "ex rel." or "for the use of" ("UNITED STATES FOR
/// THE USE OF INDUSTRIAL LUMBER CO.").
#[derive(Debug)]
struct PartyShape {
    /// How many distinctive words the party's own name has.
    own: usize,
    /// Each name in it: the range of its words, and whether it is an
    /// organisation's (a company's suffix, an institution's, an office's or
    /// a government's word), named by its words in a row from its lead,
    /// where a person is named by the surname.
    names: Vec<(std::ops::Range<usize>, bool)>,
}

impl PartyShape {
    fn of(party: &str) -> Self {
        let (own, added) = own_name(party);
        let words: Vec<&str> = own.split_whitespace().collect();
        let bare = |i: usize| words.get(i).map(|w| squash_word(w)).unwrap_or_default();
        // How many words at `i` join two names.
        let joint = |i: usize| match bare(i).as_str() {
            "and" => 1,
            "ex" if bare(i + 1) == "rel" => 2,
            "for" if bare(i + 1) == "the" && bare(i + 2) == "use" && bare(i + 3) == "of" => 4,
            _ => 0,
        };
        // A suffix after the comma is the first name's ("NATURAL RESOURCES
        // DEFENSE COUNCIL, INC.").
        let suffixed = added
            .and_then(|added| added.split(',').next())
            .map(|next| parties(next).concat())
            .is_some_and(|next| {
                !next.is_empty() && next.iter().all(|t| SUFFIXES.contains(&t.as_str()))
            });
        let mut names = Vec::new();
        let mut at = 0;
        let mut name_start = 0;
        let mut i = 0;
        while i <= words.len() {
            let joins = if i == words.len() { 1 } else { joint(i) };
            if joins == 0 {
                i += 1;
                continue;
            }
            let tokens = parties(&words[name_start..i].join(" ")).concat();
            let count = distinctive(&tokens).len();
            if count > 0 {
                let organization =
                    names.is_empty() && suffixed || tokens.iter().any(|t| is_organization_word(t));
                names.push((at..at + count, organization));
                at += count;
            }
            let end = (i + joins).min(words.len());
            at += distinctive(&parties(&words[i..end].join(" ")).concat()).len();
            name_start = end;
            i = end.max(i + 1);
        }
        // A name of record that begins with what its body is ("LOCAL
        // NUMBER 93, INTERNATIONAL ASSOCIATION OF FIREFIGHTERS") is named
        // by the words after it: no shape.
        const BODIES: [&str; 4] = ["local", "lodge", "number", "no"];
        let named = parties(own).concat().iter().any(|t| {
            t.chars().count() > 2
                && t.chars().all(char::is_alphabetic)
                && !is_organization_word(t)
                && ![&BODIES[..], &ROLES[..], &STOPWORDS[..]]
                    .iter()
                    .any(|list| list.contains(&t.as_str()))
        });
        PartyShape {
            own: if named { at } else { 0 },
            names,
        }
    }
}

/// A party's own name, before its first comma, and what a name of record
/// adds after it (offices, given names, a suffix), without who acts for it
/// ([`without_representative`]).
fn own_name(party: &str) -> (&str, Option<&str>) {
    let party = without_representative(party);
    match party.split_once(',') {
        Some((own, added)) => (own, Some(added)),
        None => (party, None),
    }
}

/// A word of an organisation's name: a company's suffix, or a
/// government's, an office's or an institution's word. An initial is a
/// person's ("GEORGE S. BENNETT").
fn is_organization_word(token: &str) -> bool {
    token.chars().count() > 1
        && (SUFFIXES.contains(&token)
            || GOVERNMENT.contains(&token)
            || OFFICES.contains(&token)
            || lexicon().institutional.contains(token))
}

/// Whether `part`, distinctive words all among a party's (`whole`, their
/// order of record), names that party by its own name ([`PartyShape`]):
/// an organisation by words in a row from the lead of one of its names
/// (not "Michigan Bank" for MICHIGAN NATIONAL BANK, nor "Housing Expediter"
/// for WOODS, HOUSING EXPEDITER), ending where that name ends when the
/// citation gives a suffix ("Weyerhaeuser Co." is not WEYERHAEUSER
/// STEAMSHIP CO.); a person by words in order that end at a surname ("Jerry
/// Wilson" for JERRY LEE WILSON, not "John E." for JOHN E. WETZEL nor
/// "Larry" for YOUNGBLOOD, LARRY). Initials the citation leaves out are
/// passed over.
fn named_by_its_own_name(
    part: &[&str],
    whole: &[&str],
    cites_a_suffix: bool,
    shape: &PartyShape,
) -> bool {
    if shape.own == 0 || shape.own > whole.len() {
        return true;
    }
    let kept: Vec<usize> = (0..whole.len())
        .filter(|&i| whole[i].chars().count() > 1 || part.contains(&whole[i]))
        .collect();
    // An organisation's name may hold an "and" ("RADIO AND TELEVISION
    // BROADCAST ENGINEERS UNION"): a run from the lead of any name counts
    // when it reaches an organisation's name.
    let of_an_organization = |from: usize, to: usize| {
        shape
            .names
            .iter()
            .any(|(name, organization)| *organization && name.start < to && from < name.end)
    };
    let as_organization = shape.names.iter().any(|(name, _)| {
        // Initials and numbers before the lead may be passed over
        // ("Reynolds Tobacco" for R.J. REYNOLDS TOBACCO CO.).
        let lead = (name.start..name.end)
            .find(|&i| whole[i].chars().count() > 2 && whole[i].chars().all(char::is_alphabetic))
            .unwrap_or(name.start);
        kept.iter().enumerate().any(|(k, &start)| {
            (name.start..=lead).contains(&start)
                && kept.len() >= k + part.len()
                && kept[k..k + part.len()]
                    .iter()
                    .zip(part)
                    .all(|(&i, word)| whole[i] == *word)
                && of_an_organization(start, kept[k + part.len() - 1] + 1)
                && (!cites_a_suffix
                    || shape
                        .names
                        .iter()
                        .any(|(name, _)| kept[k + part.len() - 1] + 1 == name.end))
        })
    });
    if as_organization {
        return true;
    }
    let mut last = None;
    let mut from = 0;
    for word in part {
        match (from..shape.own).find(|&i| whole[i] == *word) {
            Some(i) => {
                last = Some(i);
                from = i + 1;
            }
            None => return false,
        }
    }
    last.is_some_and(|last| {
        shape
            .names
            .iter()
            .any(|(name, organization)| !organization && name.end == last + 1)
    })
}

fn same_party(
    cited: &[String],
    actual: &[String],
    cited_acronyms: Option<&HashSet<String>>,
    actual_acronyms: Option<&HashSet<String>>,
    shape: Option<ShapeOf<'_>>,
) -> bool {
    let cited = expand_acronyms(cited, actual, cited_acronyms);
    let expanded = expand_acronyms(actual, &cited, actual_acronyms);
    // The shape counts the words of record, which an acronym spelt out
    // no longer are.
    let shape = shape.filter(|_| expanded.len() == actual.len());
    let actual = expanded;
    let (cited, actual) = (cited.as_slice(), actual.as_slice());
    let c = distinctive(cited);
    let a = distinctive(actual);
    if c.is_empty() {
        // "State", "People", "United States": the same government only.
        // "United States" is not "United States Steel Corp." (a state is
        // "the State of Wisconsin": no other government adds a word).
        let head = |p: &[String]| p.iter().find(|t| !STOPWORDS.contains(&t.as_str())).cloned();
        let united_states = head(cited).as_deref() == Some("united_states");
        return is_government_only(cited)
            && head(cited).is_some()
            && head(cited) == head(actual)
            && (!united_states || a.is_empty());
    }
    if a.is_empty() {
        return false;
    }
    // A state's name alone is the State, not a party its name leads
    // ("Wisconsin" is not Wisconsin Electric Power Co., "New York" not the
    // New York Times Co.), unless the party is the State itself, described
    // ("State of Washington, Office of Unemployment Compensation").
    // "Texas" is not the Texas Company either, whose only other word is
    // its suffix.
    let is_company = |party: &[String]| party.iter().any(|t| SUFFIXES.contains(&t.as_str()));
    let place_alone = |part: &[&str], whole: &[&str]| {
        (part.len() < whole.len() || is_company(actual) && !is_company(cited)) && is_place(part)
    };
    let the_state_itself = |place: &[&str], party: &[String]| {
        party
            .iter()
            .position(|t| GOVERNMENT.contains(&t.as_str()))
            .is_some_and(|at| {
                let named: Vec<&str> = party[at + 1..]
                    .iter()
                    .map(String::as_str)
                    .filter(|t| !STOPWORDS.contains(t))
                    .take(place.len())
                    .collect();
                named == place
            })
    };
    if place_alone(&c, &a) && !the_state_itself(&c, actual) {
        return false;
    }
    // Nor is a company named for a place the place ("Ohio Co.", "Arizona,
    // Inc." for OHIO, ARIZONA). A person's name of record cannot be told
    // from a company's the name of record gives without its suffix
    // ("SLACK TECHNOLOGIES v. PIRANI"), so only a place's is held to this.
    if is_company(cited) && !is_company(actual) && is_place(&a) {
        return false;
    }
    // A government's word inside a party's name is one of its words:
    // "Michigan State Bank" is not Michigan National Bank.
    let inside_from = cited.iter().position(|t| c.contains(&t.as_str()));
    if inside_from.is_some_and(|from| {
        cited[from..]
            .iter()
            .any(|t| GOVERNMENT.contains(&t.as_str()) && !actual.contains(t))
    }) {
        return false;
    }
    // The last test: the same letters broken into words differently, as PDF
    // text often is ("Ri chardson", "Flint kote").
    // Initials too ("J.A. Croson" and "J. A. Croson", whose "a" is no
    // distinctive word).
    let cites_a_suffix = cited.iter().any(|t| SUFFIXES.contains(&t.as_str()));
    (c.iter().all(|t| a.contains(t))
        && keeps_a_companys_lead(&c, actual, &a)
        && !an_institutions_word_alone(&c, &a)
        && shape
            .and_then(|shape| shape())
            .is_none_or(|shape| named_by_its_own_name(&c, &a, cites_a_suffix, shape)))
        || (a.iter().all(|t| c.contains(t))
            && keeps_a_companys_lead(&a, cited, &c)
            && adds_only_given_names(&c, &a))
        || c.concat() == a.concat()
        || cited.concat() == actual.concat()
}

/// Whether `part`, the distinctive words of one writing of a party that
/// are all among `whole_words` (those of the other writing, `whole`), keeps
/// the word a company's name leads with. A company is cut short from the
/// end ("Foshan Shunde" for "Foshan Shunde Yongjian Housewares & Hardware
/// Co."); its last words alone ("Hardware Co.") are a trade many companies
/// share. A person's surname is their last word, so only companies are
/// held to this. The company's name is the run of words before its "Co.",
/// after an "of", "for" or "and" ("Industrial Lumber" of "United States for
/// the use of Industrial Lumber Co."); initials and numbers are passed over
/// ("Reynolds Tobacco" for "R.J. Reynolds Tobacco Co.", "Sponsors" for
/// "27-21 27th St. Sponsors, LLC").
fn keeps_a_companys_lead(part: &[&str], whole: &[String], whole_words: &[&str]) -> bool {
    // "and" written out lists parties ("Md; And Freeway Surgery Center,
    // LLC"); a company's own "&" leaves no token.
    const BEFORE_A_NAME: [&str; 6] = ["of", "for", "to", "by", "rel", "and"];
    // A company's "Co." ends its name ("Edgar D. Brown, co-administrator
    // of …" is no company).
    let Some(end) = whole
        .iter()
        .rposition(|t| !STOPWORDS.contains(&t.as_str()) && !ROLES.contains(&t.as_str()))
    else {
        return true;
    };
    if !SUFFIXES.contains(&whole[end].as_str()) {
        return true;
    }
    let suffix = whole[..end]
        .iter()
        .rposition(|t| !SUFFIXES.contains(&t.as_str()))
        .map_or(0, |name_end| name_end + 1);
    let start = whole[..suffix]
        .iter()
        .rposition(|t| BEFORE_A_NAME.contains(&t.as_str()))
        .map_or(0, |boundary| boundary + 1);
    let name = &whole[start..suffix];
    // Words from elsewhere in the party ("Lorillard" of "Lorillard, a
    // division of Loew's Theatres, Inc.") are not the company's name cut
    // short.
    if !part.iter().all(|t| name.iter().any(|w| w == t)) {
        return true;
    }
    let lead = name.iter().find(|t| {
        t.chars().count() > 2
            && t.chars().all(char::is_alphabetic)
            && whole_words.contains(&t.as_str())
    });
    lead.is_none_or(|lead| part.contains(&lead.as_str()))
}

/// Whether `part`, one word of the longer `whole`, is a word of
/// institutions from inside the name ("School" of "East Carroll Parish
/// School Board", "Commission" of "Interstate Commerce Commission"): many
/// parties share it. The first word is the name's short form ("Brown v.
/// Board").
fn an_institutions_word_alone(part: &[&str], whole: &[&str]) -> bool {
    // A number first is a street address, which a reader may pass over
    // ("475 Bldg. Co. LLC").
    let first = whole
        .iter()
        .find(|t| !t.chars().all(|c| c.is_ascii_digit()));
    matches!(part, [word] if whole.len() > 1
        && first != Some(word)
        && lexicon().institutional.contains(*word))
}

/// Whether `longer`, the distinctive words of a party as cited, adds to
/// those of its name of record (`shorter`, all among them) only what a
/// name of record leaves out: a person's given names before the surname
/// ("Dollree Mapp" for "MAPP"), a generation ("Jr."), or anything when the
/// name of record is itself a long name cut short ("SIX UNKNOWN FED.
/// NARCOTICS AGENTS"). A word after a short name ("Roe Pharmaceuticals")
/// or any word beside a state's name makes another party.
fn adds_only_given_names(longer: &[&str], shorter: &[&str]) -> bool {
    const GENERATIONS: [&str; 5] = ["jr", "sr", "ii", "iii", "iv"];
    if shorter.len() >= 3 || longer.len() == shorter.len() {
        return true;
    }
    if is_place(shorter) {
        return false;
    }
    let mut named = longer;
    while let [rest @ .., last] = named
        && GENERATIONS.contains(last)
        && !shorter.contains(last)
    {
        named = rest;
    }
    named.ends_with(shorter)
}

/// The given names of the people a case name names: all but the last of
/// two or three words (initials aside) that make up a whole party, or a
/// whole part of one between commas or "and" ("donald" of "DONALD SAUCIER",
/// "jerry" and "lee" of "JERRY LEE WILSON", "elliot" of "ELLIOT M. KATZ
/// AND IN DEFENSE OF ANIMALS"; none in "WADE, DISTRICT ATTORNEY OF DALLAS
/// COUNTY"). A given name alone does not name the party.
fn forenames(name: &str) -> HashSet<String> {
    let plain = without_name_parentheticals(name);
    let mut given = given_names(name);
    let lowered = plain.to_lowercase();
    // In the matcher's own words ("corporation" is "corp").
    let words = |text: &str| parties(text).concat();
    let is_company = |party: &str| {
        party.contains('&') || words(party).iter().any(|w| SUFFIXES.contains(&w.as_str()))
    };
    // A state's or an institution's word leads a company's name, not a
    // person's ("MICHIGAN NATIONAL BANK").
    let lexicon = lexicon();
    let name_word = |w: &String| {
        w.chars().all(char::is_alphabetic)
            && !lexicon.institutional.contains(w)
            && !is_place(&[w.as_str()])
            && ![&STOPWORDS[..], &SUFFIXES[..], &GOVERNMENT[..]]
                .iter()
                .any(|list| list.contains(&w.as_str()))
    };
    lowered
        .split(" v. ")
        .filter(|party| !is_company(party))
        .flat_map(|party| party.split([',', ';']))
        .flat_map(|part| part.split(" and "))
        .filter_map(|part| {
            // Initials ("VICTOR A. RITA") are passed over.
            let named = |text: &str| -> Vec<String> {
                words(text)
                    .into_iter()
                    .filter(|w| w.chars().count() > 1)
                    .collect()
            };
            let words = named(part);
            // The surname is the last word written, hyphenated or not:
            // "SMITH-JONES" has no forename.
            let surname = part
                .split_whitespace()
                .rev()
                .map(|word| named(word).len())
                .find(|&tokens| tokens > 0)
                .unwrap_or(1);
            ((2..=3).contains(&words.len()) && words.len() > surname && words.iter().all(name_word))
                .then(|| words[..words.len() - surname].to_vec())
        })
        .flatten()
        .for_each(|first| {
            given.insert(first);
        });
    given
}

/// New York's given names in parentheses after a surname ("Romero
/// (Wilbert)"); not a decision's short name ("(Brown II)").
fn given_names(name: &str) -> HashSet<String> {
    parentheticals(name)
        .filter(|(_, inner)| {
            let numbered = inner
                .split_whitespace()
                .any(|w| w.chars().all(|c| matches!(c, 'I' | 'V' | 'X')));
            is_name_parenthetical(inner) && !numbered
        })
        .flat_map(|(_, inner)| inner.split_whitespace().map(squash_word))
        .collect()
}

/// Words of an office, or of who a person is in the case, that a name of
/// record adds after a party's name ("E. M. A., A MINOR, BY AND THROUGH
/// HER GUARDIAN").
const OFFICES: [&str; 30] = [
    "attorney",
    "general",
    "president",
    "secretary",
    "warden",
    "director",
    "commissioner",
    "sheriff",
    "governor",
    "superintendent",
    "chief",
    "judge",
    "mayor",
    "treasurer",
    "administrator",
    "clerk",
    "collector",
    "officer",
    "chairman",
    "comptroller",
    "auditor",
    "trustee",
    "executor",
    "administratrix",
    "minor",
    "minors",
    "guardian",
    "infant",
    "deceased",
    "individually",
];

/// The parties of a name (its `sides`, as [`split_versus`] gives them),
/// each without the office a name of record adds after a comma ("WADE,
/// DISTRICT ATTORNEY OF DALLAS COUNTY" is Wade): a party is named by its
/// name, not by its title or its county.
fn party_heads(name: &str, sides: &[String]) -> Vec<Vec<String>> {
    let whole = parties(name);
    let heads: Vec<Vec<String>> = sides
        .iter()
        .map(|party| {
            let named: Vec<&str> = without_representative(party)
                .split(',')
                .enumerate()
                .take_while(|(i, segment)| {
                    let office = || {
                        segment
                            .split_whitespace()
                            .any(|w| OFFICES.contains(&squash_word(w).as_str()))
                    };
                    // "TOWN OF HUNTINGTON, NEW YORK": where the party is.
                    let place = || lexicon().places.contains(&parties(segment).concat());
                    *i == 0 || !(office() || place())
                })
                .map(|(_, segment)| segment)
                .collect();
            parties(&named.join(",")).concat()
        })
        .collect();
    // Only when the parties line up, and no head is left empty.
    if heads.len() == whole.len() && heads.iter().all(|head| !head.is_empty()) {
        heads
    } else {
        whole
    }
}

/// A party without who acts for it, which a name of record adds after it
/// ("NORTH DAKOTA BY AND THROUGH ITS TAX COMMISSIONER", "DOE, BY HIS NEXT
/// FRIEND", "NEW HAMPSHIRE, BY WYMAN, ATTORNEY GENERAL", "LOUISIANA THROUGH
/// THE CHARITY HOSPITAL"), or in what capacity it is a party ("UNITED
/// STATES, AS OWNER OF THE CHRISTOPHER GALE", "FEDERAL DEPOSIT INSURANCE
/// CORPORATION AS RECEIVER FOR …"): the party is the one named first.
fn without_representative(party: &str) -> &str {
    const REPRESENTED: [&str; 17] = [
        ", by ",
        ", as ",
        " as receiver ",
        " as conservator ",
        " as trustee ",
        " through the ",
        " through its ",
        " through his ",
        " through her ",
        " by and through ",
        " by next friend",
        " by his friend",
        " by her friend",
        " by his next friend",
        " by her next friend",
        " by their next friend",
        " by its next friend",
    ];
    let cut = REPRESENTED
        .iter()
        .filter_map(|words| find_ascii_words(party, words))
        .min();
    match cut {
        Some(at) => party[..at].trim_end_matches([' ', ',']),
        None => party,
    }
}

/// The initials a party of three words or more goes by ("ins" for
/// IMMIGRATION AND NATURALIZATION SERVICE, "nrdc" for NATURAL RESOURCES
/// DEFENSE COUNCIL, INC.), for each party of a name: its words before any
/// comma, without joining words, corporate suffixes and roles; and without
/// a leading "United States" too ("epa" for UNITED STATES ENVIRONMENTAL
/// PROTECTION AGENCY). Briefs cite agencies by them ("INS v. Chadha").
pub(crate) fn party_initials(name: &str) -> Vec<String> {
    initials_by_party(name).concat()
}

/// [`party_initials`] party by party, in the order of the name's parties.
pub(crate) fn initials_by_party(name: &str) -> Vec<Vec<String>> {
    // Most names have no party of three words ("Petrov v. Young"): told
    // without reading them word by word.
    if name.split_whitespace().nth(3).is_none() {
        return Vec::new();
    }
    split_versus(name)
        .iter()
        .map(|party| {
            let mut initials = Vec::new();
            let (own, _) = own_name(party);
            push_initials(own, &mut initials);
            if let Some(acting) = acting_through(party) {
                push_initials(acting, &mut initials);
            }
            initials
        })
        .collect()
}

/// Adds the initials of one name of three words or more, with and without
/// the company's word it ends with ("fdic" and "fdi" for FEDERAL DEPOSIT
/// INSURANCE CORP., "ibm" for INTERNATIONAL BUSINESS MACHINES
/// CORPORATION), and of the rest of it after a leading "United States" or
/// "U.S." ([`party_initials`]).
fn push_initials(name: &str, initials: &mut Vec<String>) {
    // Initials stay, stopwords alike ("U. S. A.").
    let words: Vec<String> = name
        .split_whitespace()
        .map(squash_word)
        .filter(|word| {
            let word = word.as_str();
            let joining = word.len() > 1 && STOPWORDS.contains(&word);
            !(word.is_empty() || joining || ROLES.contains(&word))
        })
        .collect();
    let is_company_word =
        |word: &str| SUFFIXES.contains(&word) || matches!(word, "company" | "corporation");
    let body = words
        .iter()
        .rposition(|word| !is_company_word(word))
        .map_or(0, |last| last + 1);
    let mut from = 0;
    loop {
        for to in [body, words.len()] {
            let rest = &words[from.min(to)..to];
            let initialed: String = rest.iter().filter_map(|w| w.chars().next()).collect();
            if rest.len() >= 3
                && rest
                    .iter()
                    .all(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
                && !initials.contains(&initialed)
            {
                initials.push(initialed);
            }
        }
        match &words[from..] {
            [united, states, ..] if from == 0 && united == "united" && states == "states" => {
                from = 2
            }
            [us, ..] if from == 0 && us == "us" => from = 1,
            _ => break,
        }
    }
}

/// Who a party acts through, as a name of record writes it ("UNITED
/// STATES BY AND THROUGH INTERNAL REVENUE SERVICE"): the agency briefs may
/// cite the case by ("IRS v. McDermott"). Up to a comma.
fn acting_through(party: &str) -> Option<&str> {
    const THROUGH: &str = " by and through ";
    let at = find_ascii_words(party, THROUGH)?;
    let acting = &party[at + THROUGH.len()..];
    Some(acting.split(',').next().unwrap_or(acting))
}

/// Where ASCII `words` first stand in `text`, in any case. Matched byte for
/// byte, so where they match is a character boundary.
fn find_ascii_words(text: &str, words: &str) -> Option<usize> {
    text.as_bytes()
        .windows(words.len())
        .position(|here| here.eq_ignore_ascii_case(words.as_bytes()))
}

/// A name split at each "v." (any spelling [`parties`] reads).
fn split_versus(name: &str) -> Vec<String> {
    let mut parts = vec![String::new()];
    let words: Vec<&str> = name.split_whitespace().collect();
    let versus = VersusWords::of(&words);
    for word in words {
        if versus.is_versus(word) {
            parts.push(String::new());
        } else {
            let part = parts.last_mut().expect("parts is never empty");
            part.push_str(word);
            part.push(' ');
        }
    }
    parts.retain(|p| !p.trim().is_empty());
    parts
}

/// Which words of a name split its parties: "v.", "vs." or "versus" in any
/// case, except that beside a lower-case "v." a capital "V" is a middle
/// initial ("Law Offices of Curtis V. Trinko").
struct VersusWords {
    lower_case_present: bool,
}

impl VersusWords {
    fn of(words: &[&str]) -> Self {
        Self {
            lower_case_present: words
                .iter()
                .any(|w| matches!(Self::bare(w), "v." | "v" | "vs." | "vs" | "versus")),
        }
    }

    fn bare(word: &str) -> &str {
        word.trim_matches(|c: char| matches!(c, ',' | ';' | ':' | '(' | ')' | '"' | '“' | '”'))
    }

    fn is_versus(&self, word: &str) -> bool {
        let bare = Self::bare(word);
        matches!(
            bare.to_lowercase().as_str(),
            "v." | "v" | "vs." | "vs" | "versus"
        ) && (!self.lower_case_present || bare.starts_with(char::is_lowercase))
    }
}

/// A two-party name with its parties the other way round ("Texas v.
/// Johnson" for "Johnson v. Texas"), when it has two.
pub fn reversed(name: &str) -> Option<String> {
    match split_versus(name).as_slice() {
        [first, second] => Some(format!("{} v. {}", second.trim(), first.trim())),
        _ => None,
    }
}

/// Whether a text holds the words a caption of one party begins with
/// ([`CAPTION_PREFIXES`], or "Re:"), its first word capitalised, in any
/// case and however spaced or punctuated ("In re", "IN RE:", "In Re.", "Ex
/// Parte:", "IN THE MATTER\nOF"); not prose ("as a matter of law", "ex
/// parte practice").
pub(crate) fn holds_caption_words(text: &str) -> bool {
    let words: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ':')
        .filter(|w| !w.is_empty())
        .collect();
    let bare = |w: &str| {
        w.trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase()
    };
    (0..words.len()).any(|i| {
        let first = words[i].trim_matches(|c: char| !c.is_alphanumeric());
        first.starts_with(char::is_uppercase)
            && (first == "Re"
                || CAPTION_PREFIXES.iter().any(|caption| {
                    caption
                        .split_whitespace()
                        .enumerate()
                        .all(|(k, word)| words.get(i + k).is_some_and(|w| bare(w) == word))
                }))
    })
}

/// Whether a name is written as a case of one party ("In re Brown", "Ex
/// parte Young").
pub(crate) fn names_one_party(name: &str) -> bool {
    let lowered = name.trim_start().to_lowercase();
    CAPTION_PREFIXES
        .iter()
        .any(|prefix| lowered.starts_with(prefix))
}

/// Whether `cited` (a name as a document writes it) names the case
/// `actual` (the name of record). See the module documentation for what
/// counts as the same name.
pub fn case_names_match(cited: &str, actual: &str) -> bool {
    if names_match_as_written(cited, actual) {
        return true;
    }
    // A parenthetical given name or short name ("People v. Romero
    // (Wilbert)") may be left out on either side; one that is part of a
    // party's name ("Citibank (South Dakota), N.A.") is kept by the first
    // comparison.
    let (plain_cited, plain_actual) = (
        without_name_parentheticals(cited),
        without_name_parentheticals(actual),
    );
    // Only one side may give them: two given names that differ ("Causey
    // (Julie)", "Causey (Kasie)") are two people.
    let cited_gives = matches!(plain_cited, std::borrow::Cow::Owned(_));
    let actual_gives = matches!(plain_actual, std::borrow::Cow::Owned(_));
    if cited_gives == actual_gives {
        return false;
    }
    // A given name written another way ("Julie Causey" for "Causey
    // (Kasie)") is a word the name of record lacks.
    if actual_gives {
        let actual_words: HashSet<String> = parties(actual).concat().into_iter().collect();
        if parties(cited)
            .concat()
            .iter()
            .any(|w| !actual_words.contains(w))
        {
            return false;
        }
    }
    names_match_as_written(&plain_cited, &plain_actual)
}

fn names_match_as_written(cited: &str, actual: &str) -> bool {
    let cited_text = cited;
    let (cited_acronyms, actual_acronyms) = (acronyms(cited), acronyms(actual));
    // Read only for a one-word party that matched: the extractor calls this
    // for every short form it resolves. Each party's own: "Huntington" is a
    // given name of HUNTINGTON BRANCH as read, not of TOWN OF HUNTINGTON.
    let actual_forenames: std::cell::OnceCell<Vec<HashSet<String>>> = std::cell::OnceCell::new();
    // Both names by their parties' own names, without the offices a name
    // of record adds after a comma, and a citation may copy ("Gideon v.
    // Wainwright, Corrections Director").
    let cited_sides = split_versus(cited_text);
    let cited = party_heads(cited_text, &cited_sides);
    // A side that reads as nothing ("Et Ux. v. Mid Atlantic Medical
    // Services") leaves no one-party name to compare.
    if cited_sides.len() > cited.len() {
        return false;
    }
    let actual_text = actual;
    let actual_sides = split_versus(actual_text);
    let actual = party_heads(actual_text, &actual_sides);
    // Read only for a party whose words all matched, as the forenames are.
    let shapes = std::cell::OnceCell::new();
    let shapes = || {
        shapes
            .get_or_init(|| {
                let shapes: Vec<PartyShape> = actual_sides
                    .iter()
                    .map(|party| PartyShape::of(party))
                    .collect();
                (shapes.len() == actual.len()).then_some(shapes)
            })
            .as_ref()
    };
    let same = |c: &[String], i: usize| {
        let shape = || shapes().map(|shapes| &shapes[i]);
        let shape: ShapeOf<'_> = &shape;
        party_matches(
            c,
            &actual[i],
            cited_acronyms.as_ref(),
            actual_acronyms.as_ref(),
            shape,
        ) && !matches!(distinctive(c).as_slice(), [word]
                if actual_forenames.get_or_init(|| {
                    if actual_sides.len() == actual.len() {
                        actual_sides.iter().map(|side| forenames(side)).collect()
                    } else {
                        vec![forenames(actual_text); actual.len()]
                    }
                })[i]
                    .contains(*word))
    };
    match (cited.as_slice(), actual.as_slice()) {
        ([], _) | (_, []) => false,
        // "In re Brown" is not Brown v. Board: it says the case has one party.
        ([_], [_, _, ..]) if names_one_party(cited_text) => false,
        ([one], _) => !distinctive(one).is_empty() && (0..actual.len()).any(|i| same(one, i)),
        ([c1, c2], [_, _]) => same(c1, 0) && same(c2, 1),
        ([c1, c2], [_]) => {
            // "In re Smith" of record, cited as "Smith v. State": only if one
            // side is a government.
            same(c1, 0) && is_government_only(c2) || same(c2, 0) && is_government_only(c1)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts of each (cited name, name of record) pair that the names
    /// match, or that they do not.
    fn assert_each_matches(pairs: &[(&str, &str)], matching: bool) {
        for (cited, record) in pairs {
            assert_eq!(
                case_names_match(cited, record),
                matching,
                "{cited} / {record}"
            );
        }
    }

    #[test]
    fn abbreviations_are_not_sentence_ends() {
        for word in [
            "Corp.", "U.S.", "K.F.", "Cal.", "Sys.", "Ass'n.", "J.", "Mass.", "v.", "Pharms.",
            "Assocs.", "Hldgs.", "Props.", "Contrs.", "Petrol.", "Enters.",
        ] {
            assert!(is_abbreviation(word), "{word}");
        }
        for word in ["firmable.", "curiams.", "Curiams.", "Washington.", "held."] {
            assert!(!is_abbreviation(word), "{word}");
        }
    }

    #[test]
    fn a_words_spellings_are_its_abbreviations_and_full_forms() {
        assert_eq!(spellings("Bd."), ["bd", "board"]);
        assert_eq!(spellings("board"), ["board", "bd"]);
        assert_eq!(spellings("Educ."), ["educ", "education", "educational"]);
        assert_eq!(spellings("Education"), ["education", "educ", "ed"]);
        assert!(spellings("Mfrs.").contains(&"manufacturers".to_string()));
        assert_eq!(spellings("Brown"), ["brown"]);
        assert!(spellings("...").is_empty());
        assert_eq!(word_tokens("Bd."), word_tokens("Board"));
        // T6 words reporters-db lacks, and its other senses.
        for (abbreviation, word) in [
            ("Defs.", "Defenders"),
            ("Tr.", "Trust"),
            ("Tr.", "Trustee"),
            ("Harv.", "Harvard"),
            ("Affs.", "Affairs"),
            ("Env't", "Environmental"),
            ("Emp.", "Employment"),
            ("Hum.", "Human"),
            ("Am.", "American"),
        ] {
            assert_eq!(
                word_tokens(abbreviation),
                word_tokens(word),
                "{abbreviation}"
            );
        }
    }

    #[test]
    fn a_party_cited_with_more_words_than_its_name_of_record() {
        let roe = "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY";
        assert!(case_names_match("Jane Roe v. Wade", roe));
        assert!(!case_names_match("Roe Pharmaceuticals v. Wade", roe));
        assert!(!case_names_match(
            "Mandel Brothels v. Wallace",
            "MANDEL BROTHERS, INC. v. WALLACE"
        ));
        assert!(!case_names_match(
            "Harris v. Harrowgate New York",
            "HARRIS v. NEW YORK"
        ));
        assert!(case_names_match(
            "John Smith, Jr. v. State",
            "Smith v. State"
        ));
        assert!(case_names_match(
            "Bivens v. Six Unknown Named Agents of Federal Bureau of Narcotics",
            "BIVENS v. SIX UNKNOWN FED. NARCOTICS AGENTS"
        ));
    }

    #[test]
    fn a_capital_v_beside_a_lower_case_one_is_an_initial() {
        let record = "VERIZON COMMUNICATIONS INC. v. LAW OFFICES OF CURTIS V. TRINKO, LLP";
        assert!(case_names_match(
            "Verizon Commc'ns Inc. v. Law Offices of Curtis V. Trinko, LLP",
            record
        ));
        assert!(case_names_match(
            "Verizon Communications Inc. v. Law Offices of Curtis V Trinko",
            record
        ));
        assert!(case_names_match("SMITH V. JONES", "Smith v. Jones"));
    }

    #[test]
    fn a_name_of_record_matches_itself_with_its_offices() {
        for record in [
            "GIDEON v. WAINWRIGHT, CORRECTIONS DIRECTOR",
            "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY",
        ] {
            assert!(case_names_match(record, record), "{record}");
        }
        assert!(case_names_match(
            "Gideon v. Wainwright",
            "GIDEON v. WAINWRIGHT, CORRECTIONS DIRECTOR"
        ));
        // Who a party is in the case, after a comma.
        assert!(case_names_match(
            "Wos v. E.M.A.",
            "ALDONA WOS, SECRETARY v. E. M. A., A MINOR, BY AND THROUGH HER GUARDIAN AD LITEM"
        ));
        // Who acts for a party, without a comma.
        let quill =
            "QUILL CORPORATION v. NORTH DAKOTA BY AND THROUGH ITS TAX COMMISSIONER, HEIDI HEITKAMP";
        assert!(case_names_match("Quill Corp. v. North Dakota", quill));
        assert!(!case_names_match("Quill Corp. v. Heitkamp", quill));
        assert!(case_names_match(
            "Doe v. Smith",
            "JANE DOE BY HER NEXT FRIEND RICHARD ROE v. SMITH"
        ));
    }

    #[test]
    fn a_party_of_three_words_or_more_goes_by_its_initials() {
        assert_eq!(
            party_initials("IMMIGRATION AND NATURALIZATION SERVICE v. CHADHA et al."),
            ["ins"]
        );
        assert_eq!(
            party_initials(
                "CHEVRON U. S. A. INC. v. NATURAL RESOURCES DEFENSE COUNCIL, INC., et al."
            ),
            ["cusa", "cusai", "nrdc"]
        );
        assert_eq!(
            party_initials("WEST VIRGINIA v. UNITED STATES ENVIRONMENTAL PROTECTION AGENCY"),
            ["usepa", "epa"]
        );
        assert_eq!(
            party_initials("NATIONAL LABOR RELATIONS BOARD, PETITIONER v. BROWN"),
            ["nlrb"]
        );
        assert!(party_initials("Brown v. Board of Education").is_empty());
        assert_eq!(
            party_initials("FEDERAL ENERGY REGULATORY COMMISSION et al. v. MISSISSIPPI et al."),
            ["ferc"]
        );
        // With and without the company's word it ends with; after "U.S.".
        assert_eq!(
            party_initials("RODRIGUEZ v. FEDERAL DEPOSIT INSURANCE CORP."),
            ["fdi", "fdic"]
        );
        assert_eq!(
            party_initials("UNITED STATES v. INTERNATIONAL BUSINESS MACHINES CORPORATION"),
            ["ibm", "ibmc"]
        );
        assert_eq!(
            party_initials("SALINAS v. U.S. RAILROAD RETIREMENT BOARD"),
            ["urrb", "rrb"]
        );
        // The agency a party acts through.
        assert_eq!(
            party_initials(
                "UNITED STATES BY AND THROUGH INTERNAL REVENUE SERVICE v. McDERMOTT et ux."
            ),
            ["irs"]
        );
    }

    #[test]
    fn a_party_is_named_by_its_own_name_not_by_words_from_it() {
        // Wrong names whose words are all in the party of record.
        assert_each_matches(
            &[
                (
                    "Michigan Bank v. Robertson",
                    "MICHIGAN NATIONAL BANK v. ROBERTSON",
                ),
                (
                    "Pittsburgh Glass Co. v. United States",
                    "PITTSBURGH PLATE GLASS CO. v. UNITED STATES",
                ),
                (
                    "Weyerhaeuser Co. v. Nacirema Operating Co.",
                    "WEYERHAEUSER STEAMSHIP CO. v. NACIREMA OPERATING CO., INC.",
                ),
                (
                    "Rohr Corp. v. San Diego County",
                    "ROHR AIRCRAFT CORP. v. COUNTY OF SAN DIEGO",
                ),
                (
                    "Commissioner of Revenue v. Brown",
                    "COMMISSIONER OF INTERNAL REVENUE v. BROWN",
                ),
                (
                    "Agent v. Bursey",
                    "WEATHERFORD, AGENT OF THE S.C. LAW ENFORCEMENT DIVISION v. BURSEY",
                ),
                (
                    "Richland County v. Floyd",
                    "ANDERS, SOLICITOR OF RICHLAND COUNTY v. FLOYD",
                ),
                ("Arizona v. Larry", "ARIZONA v. YOUNGBLOOD, LARRY"),
                ("Steven A. v. Ohio", "PENSON, STEVEN A. v. OHIO"),
                (
                    "John E. v. Lambert",
                    "JOHN E. WETZEL, SECRETARY v. JAMES LAMBERT",
                ),
                ("Kansas v. II", "KANSAS v. MICHAEL LEE MARSH, II"),
                (
                    "Morales v. Bynum",
                    "MARTINEZ, AS NEXT FRIEND OF MORALES v. BYNUM",
                ),
                (
                    "AFL-CIO v. Hechler",
                    "INTERNATIONAL BROTHERHOOD OF ELECTRICAL WORKERS, AFL-CIO v. HECHLER",
                ),
                (
                    "Et Ux. v. Mid Atlantic Medical Services",
                    "SEREBOFF et ux. v. MID ATLANTIC MEDICAL SERVICES, INC.",
                ),
                (
                    "Missouri v. Agyei",
                    "MISSOURI v. JENKINS, BY HER FRIEND, AGYEI",
                ),
            ],
            false,
        );
        // Right names: a person by the surname, or given name and surname;
        // an organisation by its words from its lead, cut short or with an
        // "and" inside; one of two people joined by "and".
        assert_each_matches(
            &[
                (
                    "Wetzel v. Lambert",
                    "JOHN E. WETZEL, SECRETARY v. JAMES LAMBERT",
                ),
                ("Jerry Wilson v. Maryland", "JERRY LEE WILSON v. MARYLAND"),
                ("Youngblood v. Arizona", "YOUNGBLOOD, LARRY v. ARIZONA"),
                (
                    "Bush v. Gore",
                    "GEORGE W. BUSH AND RICHARD CHENEY v. ALBERT GORE, JR., et al.",
                ),
                (
                    "Mich. Nat'l Bank v. Robertson",
                    "MICHIGAN NATIONAL BANK v. ROBERTSON",
                ),
                (
                    "NLRB v. Radio & Television Broad. Engineers Union",
                    "NATIONAL LABOR RELATIONS BOARD v. RADIO AND TELEVISION BROADCAST ENGINEERS UNION, LOCAL 1212",
                ),
                (
                    "Firefighters v. Cleveland",
                    "LOCAL NUMBER 93, INTERNATIONAL ASSOCIATION OF FIREFIGHTERS, AFL-CIO, C. L. C. v. CITY OF CLEVELAND et al.",
                ),
                ("Smith v. Baldi", "UNITED STATES ex rel. SMITH v. BALDI"),
                (
                    "F. D. Rich Co. v. Industrial Lumber Co.",
                    "F. D. RICH CO., INC., et al. v. UNITED STATES FOR THE USE OF INDUSTRIAL LUMBER CO., INC.",
                ),
                (
                    "Natural Res. Def. Council, Inc. v. Train",
                    "NATURAL RESOURCES DEFENSE COUNCIL, INC. v. TRAIN",
                ),
            ],
            true,
        );
    }

    #[test]
    fn united_states_initials_spaced_out_are_the_united_states() {
        let chevron = "CHEVRON U. S. A. INC. v. NATURAL RESOURCES DEFENSE COUNCIL, INC., et al.";
        assert_each_matches(
            &[
                (
                    "Chevron U.S.A. Inc. v. Natural Res. Def. Council, Inc.",
                    chevron,
                ),
                ("Chevron USA Inc. v. NRDC", chevron),
                ("United States v. Smith", "U. S. v. SMITH"),
            ],
            true,
        );
        assert_each_matches(
            &[(
                "Chevron U.S.A. Inc. v. Natural Res. Def. Council, Inc.",
                "CHEVRON A. INC. v. NATURAL RESOURCES DEFENSE COUNCIL",
            )],
            false,
        );
    }

    #[test]
    fn a_state_or_the_united_states_alone_is_no_company() {
        assert_each_matches(
            &[
                (
                    "Wisconsin v. United States",
                    "WISCONSIN ELECTRIC POWER CO. v. UNITED STATES",
                ),
                (
                    "New York v. United States",
                    "NEW YORK TIMES CO. v. UNITED STATES",
                ),
                (
                    "United States v. Fortner Enters., Inc.",
                    "UNITED STATES STEEL CORP. v. FORTNER ENTERPRISES, INC.",
                ),
                (
                    "Michigan State Bank v. Michigan",
                    "MICHIGAN NATIONAL BANK et al. v. MICHIGAN et al.",
                ),
                (
                    "Michigan v. Michigan",
                    "MICHIGAN NATIONAL BANK et al. v. MICHIGAN et al.",
                ),
                (
                    "Okla. Tax Comm'n v. Texas",
                    "OKLAHOMA TAX COMMISSION v. TEXAS COMPANY",
                ),
                // Nor is a company named for a state the state.
                ("Terry v. Ohio Co.", "TERRY v. OHIO"),
                ("Miranda v. Arizona, Inc.", "MIRANDA v. ARIZONA"),
                // A given or middle name alone is not the party.
                ("Maryland v. Lee", "MARYLAND v. JERRY LEE WILSON"),
                ("Victor v. United States", "VICTOR A. RITA v. UNITED STATES"),
            ],
            false,
        );
        assert_each_matches(
            &[
                ("Wisconsin v. Smith", "STATE OF WISCONSIN v. SMITH"),
                ("United States v. Smith", "UNITED STATES v. SMITH"),
                ("Maryland v. Wilson", "MARYLAND v. JERRY LEE WILSON"),
                ("Rita v. United States", "VICTOR A. RITA v. UNITED STATES"),
                // A suffix the name of record leaves out ("SLACK
                // TECHNOLOGIES v. PIRANI").
                (
                    "Slack Technologies, LLC v. Pirani",
                    "SLACK TECHNOLOGIES v. PIRANI",
                ),
            ],
            true,
        );
    }

    #[test]
    fn a_state_or_institution_leading_a_name_is_no_first_name() {
        // "Michigan" led a three-word party, so was read as a person's
        // given name, and the State as the other party named nobody.
        assert_each_matches(
            &[
                (
                    "Mich. Nat'l Bank v. Michigan",
                    "MICHIGAN NATIONAL BANK et al. v. MICHIGAN et al.",
                ),
                // SCDB keeps an older Bluebook's "Communs.".
                (
                    "Sprint Commc'ns Co. v. APCC Servs., Inc.",
                    "SPRINT COMMUNS. CO., L.P. v. APCC SERVS.",
                ),
            ],
            true,
        );
    }

    #[test]
    fn a_city_abbreviated_as_t10_does_is_its_name() {
        assert_each_matches(
            &[
                (
                    "Chi. Teachers Union, Local No. 1 v. Hudson",
                    "CHICAGO TEACHERS UNION, LOCAL NO. 1, AFT, AFL-CIO, et al. v. HUDSON et al.",
                ),
                (
                    "Phila. Newspapers, Inc. v. Hepps",
                    "PHILADELPHIA NEWSPAPERS, INC., et al. v. HEPPS et al.",
                ),
                (
                    "Balt. City Dep't of Soc. Servs. v. Bouknight",
                    "BALTIMORE CITY DEPARTMENT OF SOCIAL SERVICES v. BOUKNIGHT et al.",
                ),
            ],
            true,
        );
        assert_each_matches(
            &[(
                "Chi. Teachers Union v. Hudson",
                "BOSTON TEACHERS UNION v. HUDSON",
            )],
            false,
        );
    }

    /// T6 plurals add "s" to the abbreviation, and a word's plural may end
    /// in "ies" ("Techs." for Technologies); an Australian company's "Pty."
    /// is its suffix.
    #[test]
    fn plurals_of_t6_abbreviations_and_other_suffixes() {
        assert_each_matches(
            &[
                (
                    "Slack Techs., LLC v. Pirani",
                    "SLACK TECHNOLOGIES v. PIRANI",
                ),
                (
                    "Jack Daniel's Props., Inc. v. VIP Prods. LLC",
                    "JACK DANIELS PROPERTIES v. VIP PRODUCTS LLC",
                ),
                (
                    "United States v. Cong. of Indus. Orgs.",
                    "UNITED STATES v. CONGRESS OF INDUSTRIAL ORGANIZATIONS",
                ),
                (
                    "Alice Corp. v. CLS Bank Int'l",
                    "ALICE CORP. PTY. LTD. v. CLS BANK INTERNATIONAL et al.",
                ),
            ],
            true,
        );
        assert_each_matches(
            &[("Slack Techs., LLC v. Pirani", "SLACK PROPERTIES v. PIRANI")],
            false,
        );
    }

    #[test]
    fn who_acts_for_a_party_and_where_it_is_are_not_its_name() {
        assert_each_matches(
            &[
                (
                    "Sweezy v. New Hampshire",
                    "SWEEZY v. NEW HAMPSHIRE, BY WYMAN, ATTORNEY GENERAL",
                ),
                (
                    "Town of Huntington v. Smith",
                    "TOWN OF HUNTINGTON, NEW YORK, et al. v. SMITH",
                ),
                (
                    "Levy v. Louisiana",
                    "LEVY, ADMINISTRATRIX v. LOUISIANA THROUGH THE CHARITY HOSPITAL OF LOUISIANA AT NEW ORLEANS BOARD OF ADMINISTRATORS",
                ),
                (
                    "O'Melveny & Myers v. FDIC",
                    "O'MELVENY & MYERS v. FEDERAL DEPOSIT INSURANCE CORPORATION AS RECEIVER FOR AMERICAN DIVERSIFIED SAVINGS BANK",
                ),
                (
                    "United States v. Nielson",
                    "UNITED STATES, AS OWNER OF THE CHRISTOPHER GALE, v. NIELSON et al., TRADING AS DAUNTLESS TOWING LINE",
                ),
                // A word of one party that reads as a given name of the
                // other ("Huntington Branch") is no given name of its own.
                (
                    "Town of Huntington v. Huntington Branch, NAACP",
                    "TOWN OF HUNTINGTON, NEW YORK, et al. v. HUNTINGTON BRANCH, NATIONAL ASSOCIATION FOR THE ADVANCEMENT OF COLORED PEOPLE, et al.",
                ),
                (
                    "TOWN OF HUNTINGTON, NEW YORK, et al. v. HUNTINGTON BRANCH, NATIONAL ASSOCIATION FOR THE ADVANCEMENT OF COLORED PEOPLE, et al.",
                    "TOWN OF HUNTINGTON, NEW YORK, et al. v. HUNTINGTON BRANCH, NATIONAL ASSOCIATION FOR THE ADVANCEMENT OF COLORED PEOPLE, et al.",
                ),
            ],
            true,
        );
        // The party is still the one named first.
        assert_each_matches(
            &[
                (
                    "Wyman v. Sweezy",
                    "NEW HAMPSHIRE, BY WYMAN, ATTORNEY GENERAL v. SWEEZY",
                ),
                (
                    "New York v. Smith",
                    "TOWN OF HUNTINGTON, NEW YORK, et al. v. SMITH",
                ),
                (
                    "Levy v. Charity Hospital",
                    "LEVY v. LOUISIANA THROUGH THE CHARITY HOSPITAL",
                ),
            ],
            false,
        );
    }

    #[test]
    fn initials_that_spell_a_companys_suffix_name_a_party() {
        assert_each_matches(
            &[
                ("LP v. LF", "LP v. LF"),
                ("P.C. v. L.C.", "P.C. v. L.C."),
                ("State v. A.G.", "State v. A.G."),
            ],
            true,
        );
        assert_each_matches(
            &[("LP v. LF", "LP v. KF"), ("P.C. v. L.C.", "J.C. v. L.C.")],
            false,
        );
        // A suffix cut from a company's name still names no one: "Ltd." is
        // not the initials of a party named "(HK) Ltd.".
        assert_each_matches(&[("Ltd. v. United States", "Ltd. v. United States")], false);
    }

    #[test]
    fn a_hyphenated_surname_has_no_first_name() {
        // "Dilenbeck-Brophy" was read as given name and surname, so
        // "Dilenbeck", the other party, as only a given name of it: the name
        // of record, given word for word, did not match itself.
        assert_each_matches(
            &[
                (
                    "Dilenbeck v. Dilenbeck-Brophy",
                    "Dilenbeck v. Dilenbeck-Brophy",
                ),
                ("Smith v. Smith-Jones", "Smith v. Smith-Jones"),
                ("Smith v. Smith-Jones", "SMITH v. MARY SMITH-JONES"),
            ],
            true,
        );
        // A given name before a hyphenated surname is still one.
        assert_each_matches(&[("Mary v. Smith", "MARY SMITH-JONES v. SMITH")], false);
    }

    #[test]
    fn initials_that_spell_a_small_word_are_a_persons() {
        assert_each_matches(
            &[("In re A.N.", "In re A.N."), ("In re A.N.", "IN RE A.N.")],
            true,
        );
        assert_each_matches(
            &[("In re A.T.", "In re A.N."), ("In re O.F.", "In re A.N.")],
            false,
        );
        assert!(!distinctive_tokens("In re A.N.").is_empty());
    }

    #[test]
    fn a_word_of_institutions_alone_names_no_party() {
        assert_each_matches(
            &[
                (
                    "Commission v. Oregon Pacific Industries",
                    "INTERSTATE COMMERCE COMMISSION v. OREGON PACIFIC INDUSTRIES, INC., et al.",
                ),
                (
                    "School v. Marshall",
                    "EAST CARROLL PARISH SCHOOL BOARD et al. v. MARSHALL",
                ),
                (
                    "Services v. Wrigley",
                    "Access Independent Health Services, Inc., d/b/a Red River Women's Clinic. v. Wrigley",
                ),
            ],
            false,
        );
        assert_each_matches(
            &[
                (
                    "NLRB v. E. C. Atkins & Co.",
                    "NATIONAL LABOR RELATIONS BOARD v. E. C. ATKINS & CO.",
                ),
                (
                    "Brown v. Board",
                    "OLIVER BROWN v. BOARD OF EDUCATION OF TOPEKA",
                ),
                (
                    "Fernandez v. Bldg. Co. LLC",
                    "Fernandez v. 475 Bldg. Co. LLC",
                ),
            ],
            true,
        );
    }

    #[test]
    fn a_company_cut_short_keeps_its_leading_word() {
        let record = "Foshan Shunde Yongjian Housewares & Hardware Co. v. United States";
        assert!(case_names_match("Foshan Shunde v. United States", record));
        assert!(case_names_match(
            "Foshan Shunde Yongjian Housewares & Hardware Co. v. United States",
            record
        ));
        for trade in [
            "Hardware Co. v. United States",
            "Since Hardware (Guangzhou) Co. v. United States",
            "Housewares & Hardware Co. v. United States",
        ] {
            assert!(!case_names_match(trade, record), "{trade}");
        }
        // Still cut short from the end: within the run before its "Co.",
        // past initials and numbers; a party that is no company, or other
        // words of one, are not held to it; a person is cited by surname.
        assert_each_matches(
            &[
                (
                    "F. D. Rich Co. v. Industrial Lumber Co.",
                    "F. D. RICH CO., INC., et al. v. UNITED STATES FOR THE USE OF INDUSTRIAL LUMBER CO., INC.",
                ),
                (
                    "Goodyear Dunlop Tires Operations, S.A. v. Brown",
                    "GOODYEAR DUNLOP TIRES OPERATIONS, S.A., et al., PETITIONERS v. EDGAR D. BROWN, ET UX., CO-ADMINISTRATORS OF THE ESTATE OF JULIAN DAVID BROWN, et al.",
                ),
                (
                    "Morrison v. Nat'l Austl. Bank Ltd.",
                    "ROBERT MORRISON, et al. v. NATIONAL AUSTRALIA BANK LTD. et al.",
                ),
                (
                    "Lorillard v. Pons",
                    "LORILLARD, A DIVISION OF LOEW'S THEATRES, INC. v. PONS",
                ),
                (
                    "St. Sponsors v. Kanta",
                    "27-21 27th St. Sponsors, LLC v. Kanta",
                ),
                (
                    "Reynolds Tobacco Co. v. Smith",
                    "R.J. Reynolds Tobacco Co. v. Smith",
                ),
                (
                    "Brown v. Board of Education",
                    "Oliver Brown v. Board of Education of Topeka",
                ),
            ],
            true,
        );
    }

    #[test]
    fn roles_written_into_names_are_not_parties() {
        let record =
            "AMERICAN EXPRESS COMPANY, et al., PETITIONERS v. ITALIAN COLORS RESTAURANT, et al.";
        assert!(case_names_match(
            "Am. Express Co. v. Italian Colors Rest.",
            record
        ));
        assert!(!case_names_match("Am. Express Co. v. Brown", record));
        assert!(case_names_match(
            "Tellabs, Inc. v. Makor Issues & Rts., Ltd.",
            "TELLABS, INC., et al. v. MAKOR ISSUES & RIGHTS, LTD., et al."
        ));
    }

    #[test]
    fn normalises_form_not_substance() {
        assert_eq!(
            normalize_case_name("Bell Atlantic Corporation et al. v. Twombly et al."),
            normalize_case_name("Bell Atl. Corp. v. Twombly")
        );
        assert_eq!(
            normalize_case_name("U.S. v. Jones"),
            "united_states v jones"
        );
        assert_eq!(
            normalize_case_name("United States of America v. Jones"),
            "united_states v jones"
        );
        assert_eq!(normalize_case_name("In re Gault"), "gault");
    }

    #[test]
    fn a_railroads_r_before_its_company_word() {
        assert_each_matches(
            &[
                ("Erie R. Co. v. Tompkins", "Erie Railroad v. Tompkins"),
                (
                    "Mallory v. Norfolk Southern R. Co",
                    "MALLORY v. NORFOLK SOUTHERN RAILWAY CO.",
                ),
                (
                    "Texas & Pacific R. R. Co. v. Abilene Cotton Oil Co.",
                    "Texas & Pacific Railway Co. v. Abilene Cotton Oil Co.",
                ),
                (
                    "Norfolk & Western Ry. Co. v. Liepelt",
                    "NORFOLK & WESTERN RAILROAD CO. v. LIEPELT",
                ),
                ("John R. Smith v. Jones", "JOHN R. SMITH v. JONES"),
            ],
            true,
        );
        assert_each_matches(
            &[
                ("Erie R. Co. v. Tompkins", "Erie Insurance Co. v. Tompkins"),
                ("Reading R. Co. v. Smith", "Reading Co. v. Smith"),
                ("Smith v. R. Jones", "Smith v. Railroad Jones"),
            ],
            false,
        );
    }

    #[test]
    fn accepts_the_same_case_written_differently() {
        let same = [
            (
                "Bell Atlantic Corp. v. Twombly",
                "Bell Atlantic Corporation et al. v. Twombly et al.",
            ),
            ("Twombly", "Bell Atlantic Corp. v. Twombly"),
            (
                "Nichols v. United States",
                "KENNETH O. NICHOLS v. UNITED STATES",
            ),
            (
                "Saucier v. Katz",
                "DONALD SAUCIER v. ELLIOT M. KATZ AND IN DEFENSE OF ANIMALS",
            ),
            (
                "Brown v. Board",
                "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.",
            ),
            ("Ford v. Jones", "Ford Motor Co. v. Jones"),
            (
                "INS v. Chadha",
                "IMMIGRATION AND NATURALIZATION SERVICE v. CHADHA et al.",
            ),
            (
                "City of Richmond v. J.A. Croson Co.",
                "CITY OF RICHMOND v. J. A. CROSON COMPANY",
            ),
            (
                "Roe v. Wade",
                "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY",
            ),
            (
                "Bowers v. Hardwick",
                "BOWERS, ATTORNEY GENERAL OF GEORGIA v. HARDWICK et al.",
            ),
            (
                "Lewis v. Lewis & Clark Marine, Inc.",
                "JAMES F. LEWIS v. LEWIS & CLARK MARINE, INC., ETC.",
            ),
            ("Bell Atlantic", "Bell Atlantic Corp. v. Twombly"),
            ("United States v. Jones", "U.S. v. Jones"),
            (
                "Miranda v. Arizona",
                "Ernesto A. Miranda v. State of Arizona",
            ),
            ("Roe v. Wade", "Jane Roe v. Henry Wade"),
            (
                "N.Y. Times Co. v. Sullivan",
                "NEW YORK TIMES CO. v. SULLIVAN",
            ),
            (
                "Sup. Ct. of N.H. v. Piper",
                "SUPREME COURT OF NEW HAMPSHIRE v. PIPER",
            ),
            (
                "Asahi Metal Indus. Co. v. Superior Ct.",
                "ASAHI METAL INDUSTRY CO., LTD. v. SUPERIOR COURT OF CALIFORNIA, SOLANO COUNTY",
            ),
            (
                "Bristol-Myers Squibb Co. v. Super. Ct.",
                "Bristol-Myers Squibb Co. v. Superior Court of California, San Francisco County",
            ),
            ("People v. Smith", "The People v. Smith"),
            ("In re Gault", "Application of Paul L. Gault"),
            (
                "Int'l Shoe Co. v. Washington",
                "International Shoe Co. v. State of Washington, Office of Unemployment Compensation and Placement",
            ),
            (
                "Brown v. Bd. of Educ.",
                "Brown v. Board of Education of Topeka",
            ),
            ("Smith v. Jones", "SMITH v. JONES CO."),
            (
                "Smiley v. Citibank (South Dakota), N. A.",
                "BARBARA SMILEY v. CITIBANK (SOUTH DAKOTA), N. A.",
            ),
            (
                "Firefighters v. Cleveland",
                "LOCAL NUMBER 93, INTERNATIONAL ASSOCIATION OF FIREFIGHTERS, AFL-CIO, C. L. C. v. CITY OF CLEVELAND et al.",
            ),
            (
                "Marbury v. Madison",
                "William Marbury v. James Madison, Secretary of State of the United States",
            ),
            (
                "Loup-Miller",
                "Loup-Miller Const. Co. v. City and County of Denver",
            ),
            (
                "FCC v. Fox Television Stations, Inc.",
                "FEDERAL COMMUNICATIONS COMMISSION et al. v. FOX TELEVISION STATIONS, INC., et al.",
            ),
            (
                "Ri chardson v. United States",
                "RICHARDSON v. UNITED STATES",
            ),
            ("Matter of O-F-A-S-", "O\u{2011}f\u{2011}a\u{2011}s\u{2011}"),
            (
                "NAACP v. Button",
                "National Association for the Advancement of Colored People v. Button",
            ),
            (
                "National Labor Relations Board v. Jones & Laughlin Steel Corp.",
                "NLRB v. Jones & Laughlin Steel Corp.",
            ),
        ];
        assert_each_matches(&same, true);
    }

    #[test]
    fn rejects_a_different_case() {
        let different = [
            ("Smith v. Jones", "Smith v. Johnson"),
            ("Brown v. Board of Education", "Plessy v. Ferguson"),
            ("Brown", "Plessy v. Ferguson"),
            (
                "Mata v. Avianca, Inc.",
                "Varghese v. China Southern Airlines Co.",
            ),
            ("State v. Smith", "State v. Jones"),
            ("N.Y. Times Co. v. Smith", "NEW YORK TIMES CO. v. SULLIVAN"),
            // Without its periods, "Ri" is no state: a PDF breaks words so.
            ("Ri v. United States", "RHODE ISLAND v. UNITED STATES"),
            ("United States v. Jones", "United States v. Johnson"),
            ("Doe v. Roe", "Doe v. Doe"),
            ("United States", "United States v. Jones"),
            ("Smith", "Smithfield Foods, Inc. v. Jones"),
            (
                "Donald v. Elliot",
                "DONALD SAUCIER v. ELLIOT M. KATZ AND IN DEFENSE OF ANIMALS",
            ),
            (
                "Kenneth v. United States",
                "KENNETH O. NICHOLS v. UNITED STATES",
            ),
            (
                "In re Brown",
                "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al.",
            ),
            ("Ex parte Nichols", "KENNETH O. NICHOLS v. UNITED STATES"),
            ("People v. Smith", "State v. Smith"),
            ("Smith v. Jones", "In re Smith"),
            ("FTC v. Fox", "Federal Communications Commission v. Fox"),
            ("Ray v. Smith", "Richard Allen Yates v. Smith"),
            ("Rich Ardson v. Smith", "Richardson v. Jones"),
            (
                "Arbaugh v. Sunlight Cafe",
                "Arbaugh v. Y & H Corp., dba The Moonlight Cafe",
            ),
            ("", "Smith v. Jones"),
            ("Smith v. State", "State v. Smith"),
            ("Johnson v. Texas", "TEXAS v. JOHNSON"),
            (
                "Georgia v. Hardwick",
                "BOWERS, ATTORNEY GENERAL OF GEORGIA v. HARDWICK et al.",
            ),
            (
                "Roe v. Dallas County",
                "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY",
            ),
            (
                "United States v. President",
                "UNITED STATES v. NIXON, PRESIDENT OF THE UNITED STATES",
            ),
            (
                "Georgia",
                "BOWERS, ATTORNEY GENERAL OF GEORGIA v. HARDWICK et al.",
            ),
            ("Texas v. Warden", "JOHNSON v. SMITH, WARDEN"),
        ];
        assert_each_matches(&different, false);
    }

    #[test]
    fn reversed_names() {
        assert_eq!(
            reversed("Johnson v. Texas").as_deref(),
            Some("Texas v. Johnson")
        );
        assert_eq!(reversed("In re Gault"), None);
    }

    #[test]
    fn t6() {
        assert_eq!(t6_abbreviation("Corporation"), Some("Corp."));
        assert_eq!(t6_abbreviation("Table"), None);
    }
}
