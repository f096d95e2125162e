//! The shipped model: sparse linear scorers over hashed features, the
//! per-category calibration, presence and decoding settings, and the
//! weights file format.
//!
//! The file is gzip over a little-endian binary layout (magic `LXRV`,
//! version, then each linear model as labels, biases, per-label scales and
//! rows of `(label, i16 weight)` keyed by delta-coded feature id, and the
//! small per-category settings as f32). Weights are quantised to i16 per
//! label and tiny ones are dropped by the trainer, which keeps the embedded
//! file small.

use std::io::{Read, Write};

use super::features::{FEATURE_BITS, Feature};

const MAGIC: &[u8; 4] = b"LXRV";
const VERSION: u32 = 2;

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("weights file is not a lexstack review model")]
    BadMagic,
    #[error("weights file version {0} is not supported")]
    Version(u32),
    #[error("weights file is truncated or corrupt")]
    Corrupt,
    #[error("weights file: {0}")]
    Io(#[from] std::io::Error),
}

/// Features whose row ranges are looked up together in [`SparseLinear::margins`].
const MARGIN_BATCH: usize = 32;

/// One linear scorer with several outputs (one per label), stored sparse:
/// rows `offsets[f]..offsets[f + 1]` are the non-zero weights of feature f.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseLinear {
    pub labels: Vec<String>,
    pub bias: Vec<f32>,
    /// Row range of each feature in `rows`.
    offsets: Vec<u32>,
    /// One bit per feature: whether it has rows. Most hashed features of a
    /// text have none, and this 128 KiB map answers from cache where the
    /// 4 MiB offsets would miss.
    has_rows: Vec<u64>,
    /// Label and weight of each row packed in 5 bytes: scoring is bound by
    /// memory reads, and a feature's rows then sit in one run of memory.
    rows: Vec<Row>,
}

/// A label (byte 0) and its weight (bytes 1..5, little-endian f32).
type Row = [u8; 5];

fn pack(label: u8, weight: f32) -> Row {
    let [a, b, c, d] = weight.to_le_bytes();
    [label, a, b, c, d]
}

fn has_rows(offsets: &[u32]) -> Vec<u64> {
    let mut bits = vec![0u64; offsets.len().div_ceil(64)];
    for (f, range) in offsets.windows(2).enumerate() {
        if range[1] > range[0] {
            bits[f / 64] |= 1 << (f % 64);
        }
    }
    bits
}

fn unpack(row: &Row) -> (u8, f32) {
    let [label, a, b, c, d] = *row;
    (label, f32::from_le_bytes([a, b, c, d]))
}

impl SparseLinear {
    /// Builds from dense weights `w[feature * n + label]`, keeping for each
    /// label only its `keep` largest weights (by magnitude).
    pub fn from_dense(labels: Vec<String>, bias: Vec<f32>, dense: &[f32], keep: usize) -> Self {
        let n = labels.len();
        let min_abs: Vec<f32> = (0..n)
            .map(|label| {
                let mut magnitudes: Vec<f32> = dense
                    .iter()
                    .skip(label)
                    .step_by(n)
                    .map(|w| w.abs())
                    .filter(|w| *w > 0.0)
                    .collect();
                if magnitudes.len() <= keep {
                    return f32::MIN_POSITIVE;
                }
                let k = magnitudes.len() - keep;
                let (_, kth, _) = magnitudes.select_nth_unstable_by(k, f32::total_cmp);
                *kth
            })
            .collect();
        debug_assert!(n <= usize::from(u8::MAX), "labels are stored as u8");
        let features = 1usize << FEATURE_BITS;
        let mut offsets = Vec::with_capacity(features + 1);
        let mut rows = Vec::new();
        offsets.push(0);
        for f in 0..features {
            for (label, &w) in dense[f * n..(f + 1) * n].iter().enumerate() {
                if w != 0.0 && w.abs() >= min_abs[label] {
                    rows.push(pack(label as u8, w));
                }
            }
            offsets.push(rows.len() as u32);
        }
        Self {
            labels,
            bias,
            has_rows: has_rows(&offsets),
            offsets,
            rows,
        }
    }

    pub fn len(&self) -> usize {
        self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    pub fn nonzero_weights(&self) -> usize {
        self.rows.len()
    }

    /// Writes the margin of every label into `out` (resized to fit).
    pub fn margins(&self, features: &[Feature], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(&self.bias);
        // Scoring is bound by cache misses on the offsets and rows. Reading
        // a batch of offsets first lets those misses overlap instead of
        // waiting behind each feature's rows.
        let mut ranges = [(0usize, 0usize); MARGIN_BATCH];
        for batch in features.chunks(MARGIN_BATCH) {
            for (range, &(f, _)) in ranges.iter_mut().zip(batch) {
                let f = f as usize;
                *range = if self.has_rows[f / 64] >> (f % 64) & 1 == 1 {
                    (self.offsets[f] as usize, self.offsets[f + 1] as usize)
                } else {
                    (0, 0)
                };
            }
            for (&(from, to), &(_, value)) in ranges.iter().zip(batch) {
                for (label, w) in self.rows[from..to].iter().map(unpack) {
                    out[usize::from(label)] += w * value;
                }
            }
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        let n = self.labels.len();
        put_u32(out, n as u32);
        for label in &self.labels {
            put_str(out, label);
        }
        for &b in &self.bias {
            put_f32(out, b);
        }
        let mut scale = vec![0f32; n];
        for (label, w) in self.rows.iter().map(unpack) {
            let s = &mut scale[usize::from(label)];
            *s = s.max(w.abs() / f32::from(i16::MAX));
        }
        for &s in &scale {
            put_f32(out, s);
        }
        let nonempty = self.offsets.windows(2).filter(|w| w[1] > w[0]).count();
        put_u32(out, nonempty as u32);
        let mut previous = 0usize;
        for f in 0..self.offsets.len() - 1 {
            let (from, to) = (self.offsets[f] as usize, self.offsets[f + 1] as usize);
            if from == to {
                continue;
            }
            put_varint(out, (f - previous) as u64);
            previous = f;
            out.push((to - from) as u8);
            for (label, w) in self.rows[from..to].iter().map(unpack) {
                out.push(label);
                let s = scale[usize::from(label)];
                let q = if s > 0.0 { (w / s).round() as i16 } else { 0 };
                out.extend_from_slice(&q.to_le_bytes());
            }
        }
    }

    fn read(input: &mut Reader<'_>) -> Result<Self, ModelError> {
        let n = input.u32()? as usize;
        if n > usize::from(u8::MAX) {
            return Err(ModelError::Corrupt);
        }
        let labels = (0..n)
            .map(|_| input.string())
            .collect::<Result<Vec<_>, _>>()?;
        let bias = (0..n).map(|_| input.f32()).collect::<Result<Vec<_>, _>>()?;
        let scale = (0..n).map(|_| input.f32()).collect::<Result<Vec<_>, _>>()?;
        let features = 1usize << FEATURE_BITS;
        let nonempty = input.u32()? as usize;
        let mut offsets = Vec::with_capacity(features + 1);
        let mut rows = Vec::new();
        offsets.push(0u32);
        let mut f = 0usize;
        for k in 0..nonempty {
            let delta = input.varint()? as usize;
            let target = if k == 0 { delta } else { f + delta };
            if target >= features || (k > 0 && delta == 0) {
                return Err(ModelError::Corrupt);
            }
            while offsets.len() <= target {
                offsets.push(rows.len() as u32);
            }
            f = target;
            let count = input.u8()?;
            for _ in 0..count {
                let label = input.u8()?;
                let q = input.u16()? as i16;
                let s = *scale.get(usize::from(label)).ok_or(ModelError::Corrupt)?;
                rows.push(pack(label, f32::from(q) * s));
            }
        }
        while offsets.len() <= features {
            offsets.push(rows.len() as u32);
        }
        Ok(Self {
            labels,
            bias,
            has_rows: has_rows(&offsets),
            offsets,
            rows,
        })
    }
}

/// How one clause category turns unit margins into emitted spans.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibration {
    /// Platt scaling: probability = sigmoid(a * margin + b).
    pub a: f32,
    pub b: f32,
    /// Units at or above this probability are emitted.
    pub threshold: f32,
    /// Whether adjacent emitted units are merged into one span.
    pub merge: bool,
}

impl Calibration {
    pub fn probability(&self, margin: f32) -> f32 {
        sigmoid(self.a * margin + self.b)
    }
}

/// How many document-level features the presence decision reads (see
/// `detect::presence_features`).
pub const PRESENCE_FEATURES: usize = 9;

/// The document-level decision of one clause category: does the contract
/// have such a clause at all? A logistic model over features of the
/// category's unit scores, and its own threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct Presence {
    pub weights: [f32; PRESENCE_FEATURES],
    pub bias: f32,
    pub threshold: f32,
}

impl Presence {
    pub fn probability(&self, features: &[f32; PRESENCE_FEATURES]) -> f32 {
        let z: f32 = self
            .weights
            .iter()
            .zip(features)
            .map(|(w, x)| w * x)
            .sum::<f32>()
            + self.bias;
        sigmoid(z)
    }
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Everything the detector needs, as shipped in `assets/review/`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewModel {
    /// Clause categories scored per unit; labels are CUAD category names.
    pub clauses: SparseLinear,
    /// One entry per clause category, in the same order.
    pub calibration: Vec<Calibration>,
    /// One entry per clause category, in the same order.
    pub presence: Vec<Presence>,
    /// Clause categories scored per document (from its bag of words), one
    /// of the inputs of the presence decisions; same labels as `clauses`.
    pub documents: SparseLinear,
    /// Clause categories scored again per unit by a model trained only on
    /// each category's best candidate units (its hardest negatives), one of
    /// the inputs of the presence decisions; same labels as `clauses`.
    pub rescoring: SparseLinear,
    /// Contract families scored per document.
    pub contract_type: SparseLinear,
}

impl ReviewModel {
    pub fn to_bytes(&self) -> Result<Vec<u8>, ModelError> {
        let mut raw = Vec::new();
        raw.extend_from_slice(MAGIC);
        put_u32(&mut raw, VERSION);
        self.clauses.write(&mut raw);
        for c in &self.calibration {
            put_f32(&mut raw, c.a);
            put_f32(&mut raw, c.b);
            put_f32(&mut raw, c.threshold);
            raw.push(u8::from(c.merge));
        }
        for p in &self.presence {
            for &w in &p.weights {
                put_f32(&mut raw, w);
            }
            put_f32(&mut raw, p.bias);
            put_f32(&mut raw, p.threshold);
        }
        self.documents.write(&mut raw);
        self.rescoring.write(&mut raw);
        self.contract_type.write(&mut raw);
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&raw)?;
        Ok(encoder.finish()?)
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ModelError> {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes).read_to_end(&mut raw)?;
        let mut input = Reader { bytes: &raw, at: 0 };
        if input.take(4)? != MAGIC {
            return Err(ModelError::BadMagic);
        }
        let version = input.u32()?;
        if version != VERSION {
            return Err(ModelError::Version(version));
        }
        let clauses = SparseLinear::read(&mut input)?;
        let calibration = (0..clauses.len())
            .map(|_| {
                Ok(Calibration {
                    a: input.f32()?,
                    b: input.f32()?,
                    threshold: input.f32()?,
                    merge: input.u8()? != 0,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let presence = (0..clauses.len())
            .map(|_| {
                let mut weights = [0f32; PRESENCE_FEATURES];
                for w in &mut weights {
                    *w = input.f32()?;
                }
                Ok(Presence {
                    weights,
                    bias: input.f32()?,
                    threshold: input.f32()?,
                })
            })
            .collect::<Result<Vec<_>, ModelError>>()?;
        let documents = SparseLinear::read(&mut input)?;
        let rescoring = SparseLinear::read(&mut input)?;
        if documents.labels != clauses.labels || rescoring.labels != clauses.labels {
            return Err(ModelError::Corrupt);
        }
        let contract_type = SparseLinear::read(&mut input)?;
        if input.at != raw.len() {
            return Err(ModelError::Corrupt);
        }
        Ok(Self {
            clauses,
            calibration,
            presence,
            documents,
            rescoring,
            contract_type,
        })
    }
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_f32(out: &mut Vec<u8>, v: f32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put_u32(out, s.len() as u32);
    out.extend_from_slice(s.as_bytes());
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], ModelError> {
        let end = self.at.checked_add(n).ok_or(ModelError::Corrupt)?;
        let slice = self.bytes.get(self.at..end).ok_or(ModelError::Corrupt)?;
        self.at = end;
        Ok(slice)
    }

    fn u8(&mut self) -> Result<u8, ModelError> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, ModelError> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Result<u32, ModelError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32(&mut self) -> Result<f32, ModelError> {
        Ok(f32::from_bits(self.u32()?))
    }

    fn string(&mut self) -> Result<String, ModelError> {
        let n = self.u32()? as usize;
        String::from_utf8(self.take(n)?.to_vec()).map_err(|_| ModelError::Corrupt)
    }

    fn varint(&mut self) -> Result<u64, ModelError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.u8()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(ModelError::Corrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> ReviewModel {
        let features = 1usize << FEATURE_BITS;
        let mut dense = vec![0f32; features * 2];
        dense[5 * 2] = 1.5;
        dense[5 * 2 + 1] = -0.25;
        dense[(features - 1) * 2 + 1] = 0.75;
        dense[7 * 2] = 0.0001;
        dense[9 * 2] = 0.00001;
        let clauses =
            SparseLinear::from_dense(vec!["A".into(), "B".into()], vec![-1.0, 0.5], &dense, 2);
        let calibration = vec![
            Calibration {
                a: 1.0,
                b: 0.0,
                threshold: 0.5,
                merge: true,
            };
            2
        ];
        let presence = vec![
            Presence {
                weights: [0.5; PRESENCE_FEATURES],
                bias: -1.0,
                threshold: 0.4,
            };
            2
        ];
        let documents = SparseLinear::from_dense(
            vec!["A".into(), "B".into()],
            vec![0.0, 0.0],
            &vec![0f32; features * 2],
            10,
        );
        let rescoring = documents.clone();
        let contract_type =
            SparseLinear::from_dense(vec!["x".into()], vec![0.0], &vec![0f32; features], 10);
        ReviewModel {
            clauses,
            calibration,
            presence,
            documents,
            rescoring,
            contract_type,
        }
    }

    #[test]
    fn round_trips_and_scores() {
        let model = tiny();
        // Two weights kept per label: the smallest of label 0 is dropped.
        assert_eq!(model.clauses.nonzero_weights(), 4);
        let back = ReviewModel::from_bytes(&model.to_bytes().unwrap()).unwrap();
        assert_eq!(back.presence, model.presence);
        let mut out = Vec::new();
        back.clauses.margins(
            &[(5, 1.0), (((1 << FEATURE_BITS) - 1) as u32, 2.0)],
            &mut out,
        );
        assert!((out[0] - 0.5).abs() < 1e-3, "{out:?}");
        assert!((out[1] - 1.75).abs() < 1e-3, "{out:?}");
    }

    #[test]
    fn rejects_garbage() {
        assert!(ReviewModel::from_bytes(b"not gzip").is_err());
        let mut bytes = tiny().to_bytes().unwrap();
        bytes.truncate(bytes.len() / 2);
        assert!(ReviewModel::from_bytes(&bytes).is_err());
    }
}
