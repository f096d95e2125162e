//! Hashed features of a unit: its words and word pairs, the words of the
//! section heading it sits under, the words of the units on either side, its
//! position in the document and its length.
//!
//! Words are lower-cased ASCII alphanumeric runs with a light plural strip;
//! numbers collapse to one token. Feature ids are hashes folded into
//! [`FEATURE_BITS`] bits, so no vocabulary is stored.

use super::segment::Segmented;

/// Size of the hashed feature space (2^20 buckets).
pub const FEATURE_BITS: u32 = 20;
const FEATURE_MASK: u64 = (1 << FEATURE_BITS) - 1;

/// A feature id and its value.
pub type Feature = (u32, f32);

const GROUP_WORD: u64 = 0x9e37_79b9_7f4a_7c15;
const GROUP_PAIR: u64 = 0xc2b2_ae3d_27d4_eb4f;
const GROUP_HEADING: u64 = 0x1656_67b1_9e37_79f9;
const GROUP_PREV: u64 = 0x27d4_eb2f_1656_67c5;
const GROUP_NEXT: u64 = 0x85eb_ca77_c2b2_ae63;
const GROUP_SHAPE: u64 = 0xff51_afd7_ed55_8ccd;
const GROUP_PREFIX: u64 = 0x9fb2_1c65_1e98_df25;
/// Letters kept of a word for its prefix feature.
const PREFIX_LEN: usize = 5;
const NUMBER_TOKEN: u64 = 0x0123_4567_89ab_cdef;

/// 64-bit finaliser (splitmix64): spreads token hashes over the buckets.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Hashes of the word tokens of `text`, in order.
pub fn token_hashes(text: &str, out: &mut Vec<u64>) {
    out.clear();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if !b.is_ascii_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'-') {
            i += 1;
        }
        let mut word = &bytes[start..i];
        while let [rest @ .., b'-'] = word {
            word = rest;
        }
        out.push(word_hash(word));
    }
}

fn word_hash(word: &[u8]) -> u64 {
    if word.iter().all(|b| b.is_ascii_digit()) {
        return NUMBER_TOKEN;
    }
    // Light stemming: "licenses" and "license" share a feature.
    let len = word.len();
    let stem = if len > 3
        && word[len - 1].eq_ignore_ascii_case(&b's')
        && !word[len - 2].eq_ignore_ascii_case(&b's')
    {
        &word[..len - 1]
    } else {
        word
    };
    // FNV-1a over lower-cased bytes.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in stem {
        h ^= u64::from(b.to_ascii_lowercase());
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn bucket(h: u64) -> u32 {
    // FEATURE_MASK keeps the value below 2^20.
    (mix(h) & FEATURE_MASK) as u32
}

/// Token hashes of every unit and heading, computed once per document.
pub struct DocTokens {
    pub units: Vec<Vec<u64>>,
    pub headings: Vec<Vec<u64>>,
    /// Word-prefix hashes of every unit.
    pub prefixes: Vec<Vec<u64>>,
}

/// Hashes of the first [`PREFIX_LEN`] letters of each longer word of
/// `text`: "disparage", "disparaging" and "disparagement" share one, which
/// helps the rarer categories whose wording varies.
pub fn prefix_hashes(text: &str, out: &mut Vec<u64>) {
    out.clear();
    for word in text.split(|c: char| !c.is_ascii_alphabetic()) {
        if word.len() > PREFIX_LEN {
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for &b in &word.as_bytes()[..PREFIX_LEN] {
                h ^= u64::from(b.to_ascii_lowercase());
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            out.push(h);
        }
    }
}

impl DocTokens {
    pub fn new(text: &str, seg: &Segmented) -> Self {
        let mut buf = Vec::new();
        let mut tokens = |s: usize, e: usize| {
            token_hashes(&text[s..e], &mut buf);
            buf.clone()
        };
        let units = seg.units.iter().map(|u| tokens(u.start, u.end)).collect();
        let headings = seg.headings.iter().map(|&(s, e)| tokens(s, e)).collect();
        let prefixes = seg
            .units
            .iter()
            .map(|u| {
                prefix_hashes(&text[u.start..u.end], &mut buf);
                buf.clone()
            })
            .collect();
        Self {
            units,
            headings,
            prefixes,
        }
    }
}

/// Appends the features of unit `i` to `out` (cleared first).
pub fn unit_features(
    seg: &Segmented,
    tokens: &DocTokens,
    text_len: usize,
    i: usize,
    out: &mut Vec<Feature>,
) {
    out.clear();
    let unit = &seg.units[i];
    let words = &tokens.units[i];
    add_bag(out, words, GROUP_WORD, 1.0);
    add_bag(out, &tokens.prefixes[i], GROUP_PREFIX, 0.7);
    if words.len() > 1 {
        let weight = 1.0 / ((words.len() - 1) as f32).sqrt();
        for pair in words.windows(2) {
            out.push((
                bucket(GROUP_PAIR ^ pair[0].wrapping_mul(31) ^ pair[1]),
                weight,
            ));
        }
    }
    if let Some(h) = unit.heading {
        add_bag(out, &tokens.headings[h], GROUP_HEADING, 0.7);
    }
    if i > 0 {
        add_bag(out, &tokens.units[i - 1], GROUP_PREV, 0.5);
    }
    if i + 1 < tokens.units.len() {
        add_bag(out, &tokens.units[i + 1], GROUP_NEXT, 0.5);
    }
    let position = (unit.start * 20 / text_len.max(1)) as u64;
    out.push((bucket(GROUP_SHAPE ^ mix(1 + position)), 1.0));
    let length = (usize::BITS - words.len().leading_zeros()) as u64;
    out.push((bucket(GROUP_SHAPE ^ mix(100 + length)), 1.0));
    if unit.is_heading {
        out.push((bucket(GROUP_SHAPE ^ mix(200)), 1.0));
    }
    if i < 3 {
        out.push((bucket(GROUP_SHAPE ^ mix(300 + i as u64)), 1.0));
    }
    out.push((bucket(GROUP_SHAPE), 1.0));
}

/// Each word once... weighted so that long units do not drown short ones.
fn add_bag(out: &mut Vec<Feature>, words: &[u64], group: u64, scale: f32) {
    if words.is_empty() {
        return;
    }
    let weight = scale / (words.len() as f32).sqrt();
    for &w in words {
        out.push((bucket(group ^ w), weight));
    }
}

/// Document-level features for contract-type detection: the title's words
/// and word beginnings (weighted heavily, since CUAD's types follow the
/// document name: "DISTRIBUTORSHIP" and "DISTRIBUTION" share "distr"), the
/// words and word beginnings of the opening, and the words of the whole
/// text.
pub fn document_features(title: &str, text: &str, out: &mut Vec<Feature>) {
    out.clear();
    let mut buf = Vec::new();
    token_hashes(title, &mut buf);
    add_bag(out, &buf, GROUP_HEADING, 2.0);
    prefix_hashes(title, &mut buf);
    add_bag(out, &buf, GROUP_HEADING ^ GROUP_PREFIX, 2.0);
    let opening_end = floor_char_boundary(text, 3000);
    token_hashes(&text[..opening_end], &mut buf);
    add_bag(out, &buf, GROUP_PREV, 1.0);
    prefix_hashes(&text[..opening_end], &mut buf);
    add_bag(out, &buf, GROUP_PREV ^ GROUP_PREFIX, 1.0);
    token_hashes(text, &mut buf);
    buf.sort_unstable();
    buf.dedup();
    add_bag(out, &buf, GROUP_WORD, 1.0);
    out.push((bucket(GROUP_SHAPE), 1.0));
}

/// The whole contract as a bag for the document-level presence models: each
/// distinct word and word pair of its units once, scaled so that long and
/// short contracts weigh alike.
pub fn bag_features(tokens: &DocTokens, out: &mut Vec<Feature>) {
    out.clear();
    let mut hashes: Vec<u64> = Vec::new();
    for words in &tokens.units {
        hashes.extend(words.iter().map(|&w| GROUP_WORD ^ w));
        hashes.extend(
            words
                .windows(2)
                .map(|pair| GROUP_PAIR ^ pair[0].wrapping_mul(31) ^ pair[1]),
        );
    }
    let mut buckets: Vec<u32> = hashes.into_iter().map(bucket).collect();
    buckets.sort_unstable();
    buckets.dedup();
    let weight = 1.0 / (buckets.len().max(1) as f32).sqrt();
    out.extend(buckets.into_iter().map(|b| (b, weight)));
    out.push((bucket(GROUP_SHAPE), 1.0));
}

/// The largest char boundary at or below `at`.
pub fn floor_char_boundary(text: &str, at: usize) -> usize {
    if at >= text.len() {
        return text.len();
    }
    let mut at = at;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_fold_case_plurals_and_numbers() {
        let mut a = Vec::new();
        let mut b = Vec::new();
        token_hashes("Licenses granted for 30 days", &mut a);
        token_hashes("license GRANTED for 90 day", &mut b);
        assert_eq!(a, b);
        token_hashes("non-compete--", &mut a);
        assert_eq!(a.len(), 1);
    }

    #[test]
    fn buckets_stay_in_range() {
        for h in [0u64, 1, u64::MAX, 12345] {
            assert!(bucket(h) < 1 << FEATURE_BITS);
        }
    }
}
