//! Training and cross-validation on CUAD.
//!
//! Clause model: one logistic regression per category over the hashed unit
//! features, trained jointly with AdaGrad in a fixed order (seeded shuffle),
//! so a run is reproducible bit for bit. A unit is a positive example of a
//! category when at least half of it lies inside one of the category's
//! annotations, or the annotation lies inside it.
//!
//! Calibration: the k-fold out-of-fold margins fit a Platt scaling per
//! category; the emission threshold and the merge rule of each category are
//! then chosen on those out-of-fold predictions to maximise the overall
//! micro-F1 under CUAD's matching rule. In the cross-validation report each
//! fold is decoded with settings fitted on the other folds only.
//!
//! Contract type: a softmax model over document features; the training
//! label of a contract is derived from CUAD's own type (its folder) by
//! [`Family::of_cuad_type`].

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde_json::Value;

use super::contract_type::Family;
use super::detect::{self, AGREEMENT_DATE, DOCUMENT_NAME, EFFECTIVE_DATE, PARTIES};
use super::eval::{self, Counts, GoldText, Scored};
use super::features::{DocTokens, FEATURE_BITS, Feature, document_features, unit_features};
use super::model::{Calibration, ReviewModel, SparseLinear, sigmoid};
use super::segment::{Segmented, segment};

/// Categories answered by extractors, not learned per unit.
pub const EXTRACTED: [&str; 4] = [DOCUMENT_NAME, PARTIES, AGREEMENT_DATE, EFFECTIVE_DATE];

#[derive(Debug, Clone)]
pub struct TrainOptions {
    pub folds: usize,
    pub epochs: usize,
    pub learning_rate: f32,
    /// Weights kept per category (the largest by magnitude); the rest are
    /// dropped so the embedded file stays small.
    pub keep: usize,
    pub seed: u64,
}

impl Default for TrainOptions {
    fn default() -> Self {
        Self {
            folds: 5,
            epochs: 4,
            learning_rate: 0.2,
            keep: 20_000,
            seed: 7,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error("cannot read {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line}: {message}")]
    Format { line: usize, message: String },
    #[error("need at least {0} contracts for {0}-fold cross-validation")]
    TooFew(usize),
}

/// The gold annotations of one category: byte ranges and CUAD's texts.
pub struct Label {
    pub category: String,
    pub spans: Vec<(usize, usize)>,
    pub golds: Vec<GoldText>,
}

/// One CUAD contract as the trainer needs it.
pub struct CuadDoc {
    pub id: String,
    pub text: String,
    pub family: Family,
    /// Gold annotations in category order (the order of the file).
    pub labels: Vec<Label>,
}

impl CuadDoc {
    pub fn label(&self, category: &str) -> Option<&Label> {
        self.labels.iter().find(|l| l.category == category)
    }

    pub fn golds(&self, category: &str) -> &[GoldText] {
        self.label(category).map_or(&[], |l| &l.golds)
    }
}

/// Reads CUAD JSONL (optionally gzip-compressed, as shipped by the eval
/// kit): `id`, `text`, `cuad_folder`, `labels` with byte offsets.
pub fn read_cuad(path: &Path) -> Result<Vec<CuadDoc>, TrainError> {
    let io = |source| TrainError::Io {
        path: path.display().to_string(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let reader: Box<dyn Read> = if path.extension().is_some_and(|e| e == "gz") {
        Box::new(flate2::read::GzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut docs = Vec::new();
    for (n, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(io)?;
        if line.trim().is_empty() {
            continue;
        }
        let format = |message: &str| TrainError::Format {
            line: n + 1,
            message: message.to_string(),
        };
        let value: Value = serde_json::from_str(&line).map_err(|e| format(&e.to_string()))?;
        let text = value["text"]
            .as_str()
            .ok_or_else(|| format("no text"))?
            .to_string();
        let id = value["id"]
            .as_str()
            .ok_or_else(|| format("no id"))?
            .to_string();
        let folder = value["cuad_folder"].as_str().unwrap_or("");
        let labels_obj = value["labels"]
            .as_object()
            .ok_or_else(|| format("no labels"))?;
        let mut labels = Vec::new();
        for (category, anns) in labels_obj {
            let (mut spans, mut golds) = (Vec::new(), Vec::new());
            for ann in anns.as_array().into_iter().flatten() {
                let start = ann["start_byte"]
                    .as_u64()
                    .ok_or_else(|| format("no start_byte"))?;
                let end = ann["end_byte"]
                    .as_u64()
                    .ok_or_else(|| format("no end_byte"))?;
                let answer = ann["answer_text"].as_str().unwrap_or("");
                spans.push((
                    (start as usize).min(text.len()),
                    (end as usize).min(text.len()),
                ));
                golds.push(GoldText::new(answer));
            }
            labels.push(Label {
                category: category.clone(),
                spans,
                golds,
            });
        }
        docs.push(CuadDoc {
            id,
            text,
            family: Family::of_cuad_type(folder),
            labels,
        });
    }
    Ok(docs)
}

/// splitmix64: the trainer's only source of randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        super::features::mix(self.0)
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }
}

/// A document prepared for training: units, their features and labels.
struct Prepared {
    seg: Segmented,
    features: Vec<Vec<Feature>>,
    /// Bit c set when the unit is a positive of clause category c.
    labels: Vec<u64>,
    doc_features: Vec<Feature>,
}

fn prepare(doc: &CuadDoc, categories: &[String]) -> Prepared {
    let seg = segment(&doc.text);
    let tokens = DocTokens::new(&doc.text, &seg);
    let mut features = Vec::with_capacity(seg.units.len());
    let mut buf = Vec::new();
    for i in 0..seg.units.len() {
        unit_features(&seg, &tokens, doc.text.len(), i, &mut buf);
        features.push(buf.clone());
    }
    let mut labels = vec![0u64; seg.units.len()];
    for (c, category) in categories.iter().enumerate() {
        let Some(label) = doc.label(category) else {
            continue;
        };
        for &(g_start, g_end) in &label.spans {
            let first = seg.units.partition_point(|u| u.end <= g_start);
            for (i, unit) in seg.units.iter().enumerate().skip(first) {
                if unit.start >= g_end {
                    break;
                }
                let overlap = unit.end.min(g_end).saturating_sub(unit.start.max(g_start));
                let inside = overlap * 2 >= unit.end - unit.start;
                let covers = overlap == g_end - g_start;
                if inside || covers {
                    labels[i] |= 1 << c;
                }
            }
        }
    }
    let title = detect_title(&doc.text);
    let mut doc_features = Vec::new();
    document_features(title, &doc.text, &mut doc_features);
    Prepared {
        seg,
        features,
        labels,
        doc_features,
    }
}

fn detect_title(text: &str) -> &str {
    super::key_terms::document_name(text).map_or("", |(s, e)| &text[s..e])
}

/// Dense weights during training: `w[feature * n + label]`.
struct Dense {
    n: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

/// Trains `n` logistic outputs (independent, or one softmax when
/// `softmax`) with AdaGrad over `examples` in a seeded order.
fn train_linear(
    examples: &[(&[Feature], u64)],
    n: usize,
    softmax: bool,
    options: &TrainOptions,
    seed: u64,
) -> Dense {
    let size = (1usize << FEATURE_BITS) * n;
    let mut weights = vec![0f32; size];
    let mut squares = vec![0f32; size];
    let mut bias = vec![0f32; n];
    let mut bias_squares = vec![0f32; n];
    let mut order: Vec<usize> = (0..examples.len()).collect();
    let mut rng = Rng(seed);
    let mut margin = vec![0f32; n];
    let mut gradient = vec![0f32; n];
    let eta = options.learning_rate;
    for _ in 0..options.epochs {
        rng.shuffle(&mut order);
        for &k in &order {
            let (features, labels) = examples[k];
            margin.copy_from_slice(&bias);
            for &(f, v) in features {
                let row = &weights[f as usize * n..(f as usize + 1) * n];
                for (m, w) in margin.iter_mut().zip(row) {
                    *m += w * v;
                }
            }
            if softmax {
                let max = margin.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let sum: f32 = margin.iter().map(|m| (m - max).exp()).sum();
                for (c, g) in gradient.iter_mut().enumerate() {
                    let p = (margin[c] - max).exp() / sum;
                    *g = p - if labels >> c & 1 == 1 { 1.0 } else { 0.0 };
                }
            } else {
                for (c, g) in gradient.iter_mut().enumerate() {
                    *g = sigmoid(margin[c]) - if labels >> c & 1 == 1 { 1.0 } else { 0.0 };
                }
            }
            for c in 0..n {
                let g = gradient[c];
                if g.abs() < 1e-4 {
                    continue;
                }
                bias_squares[c] += g * g;
                bias[c] -= eta * g / (bias_squares[c] + 1e-8).sqrt();
            }
            for &(f, v) in features {
                let base = f as usize * n;
                for c in 0..n {
                    let g = gradient[c];
                    if g.abs() < 1e-4 {
                        continue;
                    }
                    let g = g * v;
                    let s = &mut squares[base + c];
                    *s += g * g;
                    weights[base + c] -= eta * g / (*s + 1e-8).sqrt();
                }
            }
        }
    }
    Dense { n, weights, bias }
}

fn sparse(labels: Vec<String>, dense: Dense, keep: usize) -> SparseLinear {
    debug_assert_eq!(labels.len(), dense.n);
    SparseLinear::from_dense(labels, dense.bias, &dense.weights, keep)
}

/// Platt scaling fitted by damped Newton steps on (margin, label) pairs;
/// a step that does not lower the loss is halved until it does.
fn fit_platt(points: &[(f32, bool)]) -> (f32, f32) {
    let positives = points.iter().filter(|p| p.1).count() as f64;
    let negatives = points.len() as f64 - positives;
    if positives == 0.0 || negatives == 0.0 {
        return (1.0, 0.0);
    }
    // Platt's smoothed targets keep the fit finite on separable data.
    let hi = (positives + 1.0) / (positives + 2.0);
    let lo = 1.0 / (negatives + 2.0);
    let loss = |a: f64, b: f64| -> f64 {
        points
            .iter()
            .map(|&(m, y)| {
                let z = a * f64::from(m) + b;
                let t = if y { hi } else { lo };
                // log(1 + e^z) - t z, computed stably.
                z.max(0.0) + (-z.abs()).exp().ln_1p() - t * z
            })
            .sum()
    };
    let (mut a, mut b) = (1.0f64, 0.0f64);
    let mut current = loss(a, b);
    for _ in 0..100 {
        let (mut ga, mut gb, mut haa, mut hab, mut hbb) = (0.0, 0.0, 1e-6, 0.0, 1e-6);
        for &(m, y) in points {
            let m = f64::from(m);
            let p = 1.0 / (1.0 + (-(a * m + b)).exp());
            let d = p - if y { hi } else { lo };
            let w = p * (1.0 - p);
            ga += d * m;
            gb += d;
            haa += w * m * m;
            hab += w * m;
            hbb += w;
        }
        let det = haa * hbb - hab * hab;
        if det.abs() < 1e-12 {
            break;
        }
        let da = (hbb * ga - hab * gb) / det;
        let db = (haa * gb - hab * ga) / det;
        let mut step = 1.0;
        let mut improved = false;
        while step > 1e-6 {
            let (na, nb) = (a - step * da, b - step * db);
            let next = loss(na, nb);
            if next.is_finite() && next <= current {
                (a, b, current) = (na, nb, next);
                improved = true;
                break;
            }
            step /= 2.0;
        }
        if !improved || (step * da).abs() < 1e-7 && (step * db).abs() < 1e-7 {
            break;
        }
    }
    (a as f32, b as f32)
}

/// Thresholds tried for each category, highest first so that ties go to
/// fewer emissions; the last one (above 1) never emits.
fn threshold_grid() -> Vec<f32> {
    let mut grid: Vec<f32> = (1..=39).rev().map(|k| k as f32 * 0.025).collect();
    grid.insert(0, 1.01);
    grid
}

/// Out-of-fold material of one document.
struct Oof {
    margins: Vec<f32>,
}

/// Chooses each clause category's calibration on the given documents'
/// out-of-fold margins, maximising the micro-F1 over all categories.
fn calibrate(
    docs: &[&CuadDoc],
    prepared: &[&Prepared],
    oof: &[&Oof],
    categories: &[String],
) -> Vec<Calibration> {
    let n = categories.len();
    let grid = threshold_grid();
    let mut platt = Vec::with_capacity(n);
    for c in 0..n {
        let mut points = Vec::new();
        for (p, o) in prepared.iter().zip(oof) {
            for (i, labels) in p.labels.iter().enumerate() {
                points.push((o.margins[i * n + c], labels >> c & 1 == 1));
            }
        }
        platt.push(fit_platt(&points));
    }
    // counts[c][merge][t]
    let mut counts = vec![
        [
            vec![Counts::default(); grid.len()],
            vec![Counts::default(); grid.len()]
        ];
        n
    ];
    for ((doc, p), o) in docs.iter().zip(prepared).zip(oof) {
        let probs: Vec<f32> = o
            .margins
            .iter()
            .enumerate()
            .map(|(k, &m)| {
                let (a, b) = platt[k % n];
                sigmoid(a * m + b)
            })
            .collect();
        for (c, category) in categories.iter().enumerate() {
            let golds = doc.golds(category);
            for merge in [false, true] {
                for (t, &threshold) in grid.iter().enumerate() {
                    let cal = Calibration {
                        a: 1.0,
                        b: 0.0,
                        threshold,
                        merge,
                    };
                    let spans = detect::decode_category(&p.seg, &probs, n, c, &cal);
                    let texts: Vec<&str> = spans.iter().map(|s| &doc.text[s.0..s.1]).collect();
                    let table = eval::match_table(category, golds, &texts);
                    counts[c][usize::from(merge)][t].add(eval::count(golds.len(), &table));
                }
            }
        }
    }
    // Start from each category's own best F1, then coordinate ascent on the
    // pooled micro-F1.
    let mut choice: Vec<(usize, usize)> = (0..n)
        .map(|c| {
            let mut best = (0usize, 0usize);
            let mut best_f1 = -1.0;
            for (merge, by_threshold) in counts[c].iter().enumerate() {
                for (t, count) in by_threshold.iter().enumerate() {
                    let f1 = count.f1();
                    if f1 > best_f1 {
                        best_f1 = f1;
                        best = (merge, t);
                    }
                }
            }
            best
        })
        .collect();
    for _ in 0..3 {
        for c in 0..n {
            let mut others = Counts::default();
            for (d, &(merge, t)) in choice.iter().enumerate() {
                if d != c {
                    others.add(counts[d][merge][t]);
                }
            }
            let mut best = choice[c];
            let mut best_f1 = -1.0;
            for (merge, by_threshold) in counts[c].iter().enumerate() {
                for (t, count) in by_threshold.iter().enumerate() {
                    let mut total = others;
                    total.add(*count);
                    if total.f1() > best_f1 {
                        best_f1 = total.f1();
                        best = (merge, t);
                    }
                }
            }
            choice[c] = best;
        }
    }
    (0..n)
        .map(|c| Calibration {
            a: platt[c].0,
            b: platt[c].1,
            threshold: grid[choice[c].1],
            merge: choice[c].0 == 1,
        })
        .collect()
}

/// The clause categories the unit model learns: every CUAD category of the
/// file except those the extractors answer.
pub fn unit_categories(docs: &[CuadDoc]) -> Vec<String> {
    docs.first()
        .map(|d| {
            d.labels
                .iter()
                .map(|l| l.category.clone())
                .filter(|c| !EXTRACTED.contains(&c.as_str()))
                .collect()
        })
        .unwrap_or_default()
}

/// The families seen in training, in a fixed order.
fn type_labels(docs: &[CuadDoc]) -> Vec<Family> {
    Family::ALL
        .into_iter()
        .filter(|f| docs.iter().any(|d| d.family == *f))
        .collect()
}

/// Everything k-fold cross-validation produced.
pub struct CrossValidation {
    pub categories: Vec<String>,
    pub fold_of_doc: Vec<usize>,
    /// Fold f's model: trained without fold f, calibrated on the other
    /// folds' out-of-fold margins.
    pub fold_models: Vec<ReviewModel>,
    prepared: Vec<Prepared>,
    oof: Vec<Oof>,
}

pub fn cross_validate(
    docs: &[CuadDoc],
    options: &TrainOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<CrossValidation, TrainError> {
    let folds = options.folds.max(2);
    if docs.len() < folds {
        return Err(TrainError::TooFew(folds));
    }
    let categories = unit_categories(docs);
    let n = categories.len();
    progress(&format!("segmenting {} contracts", docs.len()));
    let prepared: Vec<Prepared> = docs.iter().map(|d| prepare(d, &categories)).collect();
    let mut order: Vec<usize> = (0..docs.len()).collect();
    Rng(options.seed).shuffle(&mut order);
    let mut fold_of_doc = vec![0; docs.len()];
    for (k, &d) in order.iter().enumerate() {
        fold_of_doc[d] = k % folds;
    }
    let mut oof: Vec<Oof> = (0..docs.len())
        .map(|_| Oof {
            margins: Vec::new(),
        })
        .collect();
    let mut fold_parts = Vec::new();
    for f in 0..folds {
        progress(&format!("fold {}/{folds}: training", f + 1));
        let train: Vec<usize> = (0..docs.len()).filter(|&d| fold_of_doc[d] != f).collect();
        let (clauses, contract_type) =
            train_models(docs, &prepared, &train, &categories, options, f as u64 + 1);
        let mut out = Vec::new();
        for d in (0..docs.len()).filter(|&d| fold_of_doc[d] == f) {
            let mut margins = Vec::with_capacity(prepared[d].features.len() * n);
            for features in &prepared[d].features {
                clauses.margins(features, &mut out);
                margins.extend_from_slice(&out);
            }
            oof[d].margins = margins;
        }
        fold_parts.push((clauses, contract_type));
    }
    let mut fold_models = Vec::new();
    for (f, (clauses, contract_type)) in fold_parts.into_iter().enumerate() {
        progress(&format!(
            "fold {}/{folds}: calibrating on the other folds",
            f + 1
        ));
        let others: Vec<usize> = (0..docs.len()).filter(|&d| fold_of_doc[d] != f).collect();
        let calibration = calibrate(
            &others.iter().map(|&d| &docs[d]).collect::<Vec<_>>(),
            &others.iter().map(|&d| &prepared[d]).collect::<Vec<_>>(),
            &others.iter().map(|&d| &oof[d]).collect::<Vec<_>>(),
            &categories,
        );
        fold_models.push(ReviewModel {
            clauses,
            calibration,
            contract_type,
        });
    }
    Ok(CrossValidation {
        categories,
        fold_of_doc,
        fold_models,
        prepared,
        oof,
    })
}

fn train_models(
    docs: &[CuadDoc],
    prepared: &[Prepared],
    train: &[usize],
    categories: &[String],
    options: &TrainOptions,
    seed: u64,
) -> (SparseLinear, SparseLinear) {
    let mut examples: Vec<(&[Feature], u64)> = Vec::new();
    for &d in train {
        for (features, &labels) in prepared[d].features.iter().zip(&prepared[d].labels) {
            examples.push((features, labels));
        }
    }
    let dense = train_linear(
        &examples,
        categories.len(),
        false,
        options,
        options.seed ^ seed,
    );
    let clauses = sparse(categories.to_vec(), dense, options.keep);
    let families = type_labels(docs);
    let doc_examples: Vec<(&[Feature], u64)> = train
        .iter()
        .filter_map(|&d| {
            let k = families.iter().position(|f| *f == docs[d].family)?;
            Some((prepared[d].doc_features.as_slice(), 1u64 << k))
        })
        .collect();
    let type_options = TrainOptions {
        epochs: 20,
        ..options.clone()
    };
    let dense = train_linear(
        &doc_examples,
        families.len(),
        true,
        &type_options,
        options.seed ^ seed ^ 0xff,
    );
    let labels = families.iter().map(|f| f.as_str().to_string()).collect();
    let contract_type = sparse(labels, dense, options.keep);
    (clauses, contract_type)
}

/// Trains the shipped model: cross-validation first (its out-of-fold
/// margins calibrate the final model), then every contract.
pub fn train(
    docs: &[CuadDoc],
    options: &TrainOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<ReviewModel, TrainError> {
    let cv = cross_validate(docs, options, progress)?;
    progress("final model: training on every contract");
    let all: Vec<usize> = (0..docs.len()).collect();
    let (clauses, contract_type) =
        train_models(docs, &cv.prepared, &all, &cv.categories, options, 0);
    progress("final model: calibrating on all out-of-fold margins");
    let calibration = calibrate(
        &docs.iter().collect::<Vec<_>>(),
        &cv.prepared.iter().collect::<Vec<_>>(),
        &cv.oof.iter().collect::<Vec<_>>(),
        &cv.categories,
    );
    Ok(ReviewModel {
        clauses,
        calibration,
        contract_type,
    })
}

/// Figures of one category in the cross-validation report.
#[derive(Debug, Clone, Default)]
pub struct CategoryReport {
    pub category: String,
    pub clauses: Counts,
    pub documents: Counts,
    pub gold: usize,
    pub predicted: usize,
}

#[derive(Debug, Clone, Default)]
pub struct CvReport {
    pub per_category: Vec<CategoryReport>,
    pub aupr: f64,
    /// (gold family, predicted family) counts.
    pub type_confusion: Vec<((Family, Family), usize)>,
    pub contracts: usize,
}

impl CvReport {
    pub fn micro(&self) -> Counts {
        let mut total = Counts::default();
        for c in &self.per_category {
            total.add(c.clauses);
        }
        total
    }

    pub fn document_micro(&self) -> Counts {
        let mut total = Counts::default();
        for c in &self.per_category {
            total.add(c.documents);
        }
        total
    }

    pub fn macro_f1(&self, documents: bool) -> f64 {
        let values: Vec<f64> = self
            .per_category
            .iter()
            .map(|c| {
                if documents {
                    c.documents.f1()
                } else {
                    c.clauses.f1()
                }
            })
            .filter(|f| !f.is_nan())
            .collect();
        values.iter().sum::<f64>() / values.len().max(1) as f64
    }

    /// The report as printed by `lexstack dev cv-review`.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let pct = |x: f64| {
            if x.is_nan() {
                "    -".to_string()
            } else {
                format!("{:5.1}", 100.0 * x)
            }
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<36} {:>5} {:>5} {:>5} {:>6} {:>6} | {:>5} {:>5} {:>5}",
            "category", "P", "R", "F1", "gold", "pred", "docP", "docR", "docF1"
        );
        for c in &self.per_category {
            let _ = writeln!(
                out,
                "{:<36} {} {} {} {:>6} {:>6} | {} {} {}",
                c.category,
                pct(c.clauses.precision()),
                pct(c.clauses.recall()),
                pct(c.clauses.f1()),
                c.gold,
                c.predicted,
                pct(c.documents.precision()),
                pct(c.documents.recall()),
                pct(c.documents.f1()),
            );
        }
        let m = self.micro();
        let d = self.document_micro();
        let _ = writeln!(
            out,
            "clauses micro: P {} R {} F1 {} (tp {} fp {} fn {}); macro F1 {}; AUPR {}",
            pct(m.precision()),
            pct(m.recall()),
            pct(m.f1()),
            m.tp,
            m.fp,
            m.fn_,
            pct(self.macro_f1(false)),
            pct(self.aupr)
        );
        let _ = writeln!(
            out,
            "document presence: micro P {} R {} F1 {}; macro F1 {}",
            pct(d.precision()),
            pct(d.recall()),
            pct(d.f1()),
            pct(self.macro_f1(true))
        );
        let _ = writeln!(
            out,
            "contract type: accuracy {} over {} contracts (gold -> predicted):",
            pct(self.type_accuracy()),
            self.contracts
        );
        for ((gold, predicted), n) in &self.type_confusion {
            let _ = writeln!(
                out,
                "  {:<22} -> {:<22} {n}",
                gold.as_str(),
                predicted.as_str()
            );
        }
        out
    }

    pub fn type_accuracy(&self) -> f64 {
        let right: usize = self
            .type_confusion
            .iter()
            .filter(|((g, p), _)| g == p)
            .map(|(_, n)| n)
            .sum();
        right as f64 / self.contracts.max(1) as f64
    }
}

/// Decodes every contract with the model of its fold (the same code path
/// as serving), scores it the CUAD way, and hands each detection to
/// `each` (for writing out-of-fold predictions).
pub fn evaluate(
    docs: &[CuadDoc],
    fold_models: &[ReviewModel],
    fold_of_doc: &[usize],
    each: &mut dyn FnMut(&CuadDoc, &detect::Detection),
) -> CvReport {
    let categories: Vec<String> = docs
        .first()
        .map(|d| d.labels.iter().map(|l| l.category.clone()).collect())
        .unwrap_or_default();
    let mut per_category: Vec<CategoryReport> = categories
        .iter()
        .map(|c| CategoryReport {
            category: c.clone(),
            ..CategoryReport::default()
        })
        .collect();
    let mut scored = Vec::new();
    let mut gold_counts = Vec::new();
    let mut confusion: Vec<((Family, Family), usize)> = Vec::new();
    for (d, doc) in docs.iter().enumerate() {
        let model = &fold_models[fold_of_doc[d]];
        let detection = detect::detect(model, &doc.text);
        each(doc, &detection);
        let predicted = detection.contract_type.family;
        match confusion
            .iter_mut()
            .find(|(k, _)| *k == (doc.family, predicted))
        {
            Some((_, n)) => *n += 1,
            None => confusion.push(((doc.family, predicted), 1)),
        }
        for report in per_category.iter_mut() {
            let golds = doc.golds(&report.category);
            let spans: Vec<&detect::Clause> = detection
                .clauses
                .iter()
                .filter(|c| c.category == report.category)
                .collect();
            let texts: Vec<&str> = spans.iter().map(|c| &doc.text[c.start..c.end]).collect();
            let table = eval::match_table(&report.category, golds, &texts);
            report.clauses.add(eval::count(golds.len(), &table));
            report.gold += golds.len();
            report.predicted += spans.len();
            let (g, p) = (!golds.is_empty(), !spans.is_empty());
            report.documents.add(Counts {
                tp: u64::from(g && p),
                fp: u64::from(p && !g),
                fn_: u64::from(g && !p),
            });
            let item = gold_counts.len();
            gold_counts.push(golds.len());
            for (clause, golds) in spans.iter().zip(table) {
                scored.push(Scored {
                    score: clause.score,
                    item,
                    golds,
                });
            }
        }
    }
    confusion.sort_by_key(|((g, p), _)| (g.as_str(), p.as_str()));
    CvReport {
        per_category,
        aupr: eval::aupr(scored, &gold_counts),
        type_confusion: confusion,
        contracts: docs.len(),
    }
}
