//! CUAD's matching rule and the figures the trainer tunes and reports:
//! clause precision/recall/F1 per category, AUPR, document-level presence.
//! Mirrors the benchmark scorer (`score.py`, CUAD's evaluate.py) so that
//! thresholds chosen here optimise what is measured there.

use std::collections::HashSet;

/// CUAD's word set: lower-cased, `. , ; :` dropped, `/` split, then split
/// on single spaces (empty strings included, as CUAD does).
pub fn cuad_words(text: &str) -> HashSet<String> {
    let cleaned: String = text
        .chars()
        .filter(|c| !matches!(c, '.' | ',' | ';' | ':'))
        .collect::<String>()
        .to_lowercase()
        .replace('/', " ");
    cleaned.split(' ').map(str::to_string).collect()
}

pub fn jaccard(a: &HashSet<String>, b: &HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// A gold annotation as CUAD compares it.
pub struct GoldText {
    pub text: String,
    pub words: HashSet<String>,
}

impl GoldText {
    /// CUAD joins the pieces of an `<omitted>` annotation with a space.
    pub fn new(answer_text: &str) -> Self {
        let text = answer_text
            .split("<omitted>")
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        let words = cuad_words(&text);
        Self { text, words }
    }
}

/// Whether a predicted text matches a gold annotation (Jaccard >= 0.5, or
/// for Parties the gold string inside the prediction).
pub fn matches(category: &str, gold: &GoldText, predicted: &str, words: &HashSet<String>) -> bool {
    if predicted.is_empty() {
        return false;
    }
    jaccard(&gold.words, words) >= 0.5 || (category == "Parties" && predicted.contains(&gold.text))
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    pub tp: u64,
    pub fp: u64,
    pub fn_: u64,
}

impl Counts {
    pub fn add(&mut self, other: Counts) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.fn_ += other.fn_;
    }

    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        f64::NAN
    } else {
        a as f64 / b as f64
    }
}

/// For each prediction, the golds it matches.
pub fn match_table(category: &str, golds: &[GoldText], predicted: &[&str]) -> Vec<Vec<usize>> {
    predicted
        .iter()
        .map(|p| {
            let words = cuad_words(p);
            golds
                .iter()
                .enumerate()
                .filter(|(_, g)| matches(category, g, p, &words))
                .map(|(i, _)| i)
                .collect()
        })
        .collect()
}

/// TP/FP/FN of one (contract, category) the CUAD way: a gold is a TP when
/// any prediction matches it; a prediction matching no gold is a FP.
pub fn count(n_golds: usize, table: &[Vec<usize>]) -> Counts {
    let mut hit = vec![false; n_golds];
    let mut fp = 0;
    for row in table {
        if row.is_empty() {
            fp += 1;
        }
        for &g in row {
            hit[g] = true;
        }
    }
    let tp = hit.iter().filter(|h| **h).count() as u64;
    Counts {
        tp,
        fp,
        fn_: n_golds as u64 - tp,
    }
}

/// One scored prediction for the precision-recall sweep: the item it
/// belongs to (a contract-category pair) and the golds it matches.
pub struct Scored {
    pub score: f32,
    pub item: usize,
    pub golds: Vec<usize>,
}

/// AUPR as CUAD computes it: sweep the thresholds, make precision monotone,
/// integrate with the trapezoid rule from (recall 0, precision 1).
/// `gold_counts[item]` is the number of golds of each item.
pub fn aupr(mut predictions: Vec<Scored>, gold_counts: &[usize]) -> f64 {
    let total: usize = gold_counts.iter().sum();
    if total == 0 || predictions.is_empty() {
        return f64::NAN;
    }
    predictions.sort_by(|a, b| b.score.total_cmp(&a.score));
    let mut hit: Vec<Vec<bool>> = gold_counts.iter().map(|&n| vec![false; n]).collect();
    let (mut tp, mut fp) = (0usize, 0usize);
    let mut points = vec![(0.0f64, 1.0f64)];
    let mut i = 0;
    while i < predictions.len() {
        let score = predictions[i].score;
        while i < predictions.len() && predictions[i].score == score {
            let p = &predictions[i];
            if p.golds.is_empty() {
                fp += 1;
            }
            for &g in &p.golds {
                if !hit[p.item][g] {
                    hit[p.item][g] = true;
                    tp += 1;
                }
            }
            i += 1;
        }
        let precision = if tp + fp == 0 {
            1.0
        } else {
            tp as f64 / (tp + fp) as f64
        };
        points.push((tp as f64 / total as f64, precision));
    }
    for k in (0..points.len() - 1).rev() {
        points[k].1 = points[k].1.max(points[k + 1].1);
    }
    points
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * (w[1].1 + w[0].1) / 2.0)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jaccard_follows_cuad() {
        let gold =
            GoldText::new("This Agreement shall be governed by<omitted>the laws of Delaware.");
        assert_eq!(
            gold.text,
            "This Agreement shall be governed by the laws of Delaware."
        );
        let pred = "this agreement shall be governed by the laws of delaware";
        assert!(matches("Governing Law", &gold, pred, &cuad_words(pred)));
        let parties = GoldText::new("Acme Inc.");
        let pre = "between Acme Inc. and Beta LLC";
        assert!(matches("Parties", &parties, pre, &cuad_words(pre)));
        assert!(!matches("Governing Law", &parties, pre, &cuad_words(pre)));
    }

    #[test]
    fn counts_and_aupr() {
        let table = vec![vec![0], vec![], vec![0]];
        assert_eq!(
            count(2, &table),
            Counts {
                tp: 1,
                fp: 1,
                fn_: 1
            }
        );
        let perfect = vec![Scored {
            score: 0.9,
            item: 0,
            golds: vec![0],
        }];
        assert!((aupr(perfect, &[1]) - 1.0).abs() < 1e-9);
    }
}
