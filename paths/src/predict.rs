//! Predicting path-based patterns for a third input from two training runs.
//!
//! See: path-based reuse distance, Section 3.3. Per (instruction, n-bit path) key the patterns
//! of the two training runs are matched in distance order; a key is *covered* when it occurs in
//! both runs with the same number of patterns. Each statistic of each pattern (min, max, mean,
//! fraction of the key's references) is fitted against the data size with a curve of the form
//! `x(s) = a + b·f(s)`, `f` chosen among constant, cube root, square root, `s^(2/3)`, linear and
//! square (Ding & Zhong's approach: the growth rate between the two runs picks `f`, the two
//! points fix `a` and `b`), and evaluated at the validation size. A key is *correctly predicted*
//! when the validation run has as many patterns and each predicted pattern falls into the same
//! bins as the observed one or overlaps it by at least 90 %.
//!
//! Coverage is over the keys of the validation run (keys missing from a training run count as
//! not covered, the paper's "missing paths"); accuracy is over the covered keys.

use crate::analysis::{group_by_history, PathKey};
use crate::bins::bin_index;
use crate::error::{PathsError, Result};
use crate::patterns::{form_patterns, Pattern};
use crate::profile::PathProfile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Growth function of a fitted statistic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Model {
    /// Does not depend on the data size.
    Constant,
    /// `s^(1/3)`.
    CubeRoot,
    /// `s^(1/2)`.
    SquareRoot,
    /// `s^(2/3)`.
    TwoThirds,
    /// `s`.
    Linear,
    /// `s^2`.
    Square,
}

impl Model {
    /// Every model, slowest growth first.
    pub const ALL: [Model; 6] = [
        Model::Constant,
        Model::CubeRoot,
        Model::SquareRoot,
        Model::TwoThirds,
        Model::Linear,
        Model::Square,
    ];

    /// Growth exponent.
    pub fn exponent(self) -> f64 {
        match self {
            Model::Constant => 0.0,
            Model::CubeRoot => 1.0 / 3.0,
            Model::SquareRoot => 0.5,
            Model::TwoThirds => 2.0 / 3.0,
            Model::Linear => 1.0,
            Model::Square => 2.0,
        }
    }

    /// Short lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Model::Constant => "constant",
            Model::CubeRoot => "cube-root",
            Model::SquareRoot => "square-root",
            Model::TwoThirds => "two-thirds",
            Model::Linear => "linear",
            Model::Square => "square",
        }
    }
}

/// A fitted statistic: `x(s) = intercept + slope · s^exponent`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// The growth function.
    pub model: Model,
    /// `a`.
    pub intercept: f64,
    /// `b`.
    pub slope: f64,
}

impl Fit {
    /// Value at data size `s` (never negative).
    pub fn at(&self, s: f64) -> f64 {
        let f = if self.model == Model::Constant {
            0.0
        } else {
            s.powf(self.model.exponent())
        };
        (self.intercept + self.slope * f).max(0.0)
    }
}

/// Fits one statistic observed as `x1` at size `s1` and `x2` at size `s2`.
pub fn fit_two(s1: f64, x1: f64, s2: f64, x2: f64) -> Fit {
    let constant = |x: f64| Fit {
        model: Model::Constant,
        intercept: x,
        slope: 0.0,
    };
    let scale = x1.abs().max(x2.abs()).max(1e-12);
    if (x1 - x2).abs() <= 1e-9 * scale || s1 <= 0.0 || s2 <= 0.0 || s1 == s2 {
        return constant((x1 + x2) / 2.0);
    }
    // The growth exponent between the two runs picks the model (linear when a value is 0
    // and the ratio is undefined).
    let model = if x1 > 0.0 && x2 > 0.0 {
        let growth = (x2 / x1).ln() / (s2 / s1).ln();
        *Model::ALL
            .iter()
            .min_by(|a, b| {
                (a.exponent() - growth)
                    .abs()
                    .total_cmp(&(b.exponent() - growth).abs())
            })
            .expect("models exist")
    } else {
        Model::Linear
    };
    if model == Model::Constant {
        return constant((x1 + x2) / 2.0);
    }
    let (f1, f2) = (s1.powf(model.exponent()), s2.powf(model.exponent()));
    let slope = (x2 - x1) / (f2 - f1);
    Fit {
        model,
        intercept: x1 - slope * f1,
        slope,
    }
}

/// A predicted pattern.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictedPattern {
    /// Smallest distance.
    pub min: f64,
    /// Largest distance.
    pub max: f64,
    /// Mean distance.
    pub mean: f64,
    /// Fraction of the key's references.
    pub fraction: f64,
}

/// Predicts one pattern from its two training observations; returns it with the four fits.
pub fn predict_pattern(
    s1: f64,
    a: &Pattern,
    s2: f64,
    b: &Pattern,
    s3: f64,
) -> (PredictedPattern, [Fit; 4]) {
    let fits = [
        fit_two(s1, a.min as f64, s2, b.min as f64),
        fit_two(s1, a.max as f64, s2, b.max as f64),
        fit_two(s1, a.mean, s2, b.mean),
        fit_two(s1, a.fraction, s2, b.fraction),
    ];
    let mut v = [fits[0].at(s3), fits[2].at(s3), fits[1].at(s3)];
    v.sort_by(f64::total_cmp);
    (
        PredictedPattern {
            min: v[0],
            max: v[2],
            mean: v[1],
            fraction: fits[3].at(s3).min(1.0),
        },
        fits,
    )
}

/// Overlap of two ranges by the paper's formula, when `b.min < a.max ≤ b.max`:
/// `(a.max − max(a.min, b.min)) / max(b.max − b.min, a.max − a.min)`.
fn overlap_ratio(a: (f64, f64), b: (f64, f64)) -> Option<f64> {
    if b.0 < a.1 && a.1 <= b.1 {
        let den = (b.1 - b.0).max(a.1 - a.0);
        Some(if den > 0.0 {
            (a.1 - a.0.max(b.0)) / den
        } else {
            1.0
        })
    } else {
        None
    }
}

/// Whether a predicted pattern matches an observed one: the same set of bins, or an overlap of
/// at least `min_overlap` (0.9 in the paper) in either orientation.
// See: Section 3.3 — "the predicted pattern and the observed pattern fall into the same set of
// bins, or they overlap by at least 90%".
pub fn pattern_matches(pred: &PredictedPattern, obs: &Pattern, min_overlap: f64) -> bool {
    let pred_span = (
        bin_index(pred.min.round() as u64),
        bin_index(pred.max.round() as u64),
    );
    if pred_span == obs.bin_span() {
        return true;
    }
    let p = (pred.min, pred.max);
    let o = (obs.min as f64, obs.max as f64);
    overlap_ratio(p, o)
        .into_iter()
        .chain(overlap_ratio(o, p))
        .any(|r| r >= min_overlap)
}

/// Options of [`predict`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictConfig {
    /// Minimum overlap for a correct pattern.
    pub min_overlap: f64,
}

impl Default for PredictConfig {
    fn default() -> Self {
        PredictConfig { min_overlap: 0.9 }
    }
}

/// A profile with the data size of its input.
#[derive(Clone, Copy, Debug)]
pub struct SizedProfile<'a> {
    /// The profile.
    pub profile: &'a PathProfile,
    /// Data size of the run's input (any unit, the same for all runs).
    pub size: f64,
}

/// Coverage and accuracy for one history length (a row of Tables 4–5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictionRow {
    /// History length in bits; 0 is the instruction-based prediction ("inst").
    pub history: u32,
    /// Keys with at least one pattern in the validation run.
    pub validation_keys: u64,
    /// Keys absent (or without patterns) in at least one training run.
    pub missing: u64,
    /// Keys in both training runs with different pattern counts.
    pub count_mismatch: u64,
    /// Covered keys.
    pub covered: u64,
    /// Covered keys predicted correctly.
    pub correct: u64,
    /// Covered keys whose validation pattern count differs from the prediction.
    pub validation_count_mismatch: u64,
    /// `covered / validation_keys` in percent.
    pub coverage_pct: f64,
    /// `correct / covered` in percent.
    pub accuracy_pct: f64,
    /// How often each model was chosen for a statistic of a covered pattern.
    pub models: BTreeMap<String, u64>,
}

/// The result of [`predict`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictionReport {
    /// Data sizes: training 1, training 2, validation.
    pub sizes: [f64; 3],
    /// One row per history length, "inst" (0) first.
    pub rows: Vec<PredictionRow>,
}

fn patterns_by_key(p: &PathProfile, n: u32) -> BTreeMap<(u32, PathKey), Vec<Pattern>> {
    let mut out = BTreeMap::new();
    for (mi, paths) in group_by_history(p, n) {
        for path in paths {
            let pats = form_patterns(&path.bins, &p.config.patterns);
            if !pats.is_empty() {
                out.insert((mi, path.key), pats);
            }
        }
    }
    out
}

/// Predicts the validation run's patterns from the two training runs, for "inst" and every
/// history length the three profiles share.
pub fn predict(
    train: [SizedProfile<'_>; 2],
    validate: SizedProfile<'_>,
    cfg: &PredictConfig,
) -> Result<PredictionReport> {
    let all = [train[0], train[1], validate];
    let line = validate.profile.config.line;
    if all.iter().any(|p| p.profile.config.line != line) {
        return Err(PathsError::Incompatible(
            "the runs were profiled with different line sizes".into(),
        ));
    }
    if train[0].size == train[1].size {
        return Err(PathsError::Incompatible(format!(
            "the training runs need different data sizes (both are {})",
            train[0].size
        )));
    }
    let max_common = all.iter().map(|p| p.profile.max_bits).min().unwrap_or(0);
    let mut histories = vec![0];
    histories.extend(
        validate
            .profile
            .config
            .histories
            .iter()
            .copied()
            .filter(|&n| n <= max_common),
    );
    let (s1, s2, s3) = (train[0].size, train[1].size, validate.size);
    let mut rows = Vec::new();
    for n in histories {
        let t1 = patterns_by_key(train[0].profile, n);
        let t2 = patterns_by_key(train[1].profile, n);
        let v = patterns_by_key(validate.profile, n);
        let mut row = PredictionRow {
            history: n,
            validation_keys: v.len() as u64,
            missing: 0,
            count_mismatch: 0,
            covered: 0,
            correct: 0,
            validation_count_mismatch: 0,
            coverage_pct: 0.0,
            accuracy_pct: 0.0,
            models: BTreeMap::new(),
        };
        for (key, observed) in &v {
            let (Some(a), Some(b)) = (t1.get(key), t2.get(key)) else {
                row.missing += 1;
                continue;
            };
            if a.len() != b.len() {
                row.count_mismatch += 1;
                continue;
            }
            row.covered += 1;
            let mut ok = observed.len() == a.len();
            if !ok {
                row.validation_count_mismatch += 1;
            }
            for (j, (pa, pb)) in a.iter().zip(b).enumerate() {
                let (pred, fits) = predict_pattern(s1, pa, s2, pb, s3);
                for f in fits {
                    *row.models.entry(f.model.name().to_string()).or_default() += 1;
                }
                if ok && !pattern_matches(&pred, &observed[j], cfg.min_overlap) {
                    ok = false;
                }
            }
            row.correct += ok as u64;
        }
        row.coverage_pct = 100.0 * row.covered as f64 / row.validation_keys.max(1) as f64;
        row.accuracy_pct = 100.0 * row.correct as f64 / row.covered.max(1) as f64;
        rows.push(row);
    }
    Ok(PredictionReport {
        sizes: [s1, s2, s3],
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(min: u64, max: u64) -> Pattern {
        Pattern {
            min,
            max,
            mean: (min + max) as f64 / 2.0,
            count: 1,
            fraction: 1.0,
        }
    }

    #[test]
    fn fits_pick_the_growth_and_extrapolate() {
        // Linear: x = 3s + 5.
        let f = fit_two(100.0, 305.0, 400.0, 1205.0);
        assert_eq!(f.model, Model::Linear);
        assert!((f.at(1600.0) - 4805.0).abs() < 1e-6);
        // Square root: x = 10·√s.
        let f = fit_two(100.0, 100.0, 400.0, 200.0);
        assert_eq!(f.model, Model::SquareRoot);
        assert!((f.at(1600.0) - 400.0).abs() < 1e-6);
        // Constant.
        let f = fit_two(100.0, 7.0, 400.0, 7.0);
        assert_eq!(f.model, Model::Constant);
        assert_eq!(f.at(1e6), 7.0);
        // Cube root: x = 2·s^(1/3): 8 → 4, 64 → 8.
        assert_eq!(fit_two(8.0, 4.0, 64.0, 8.0).model, Model::CubeRoot);
        // Square: 10 → 100, 20 → 400.
        assert_eq!(fit_two(10.0, 100.0, 20.0, 400.0).model, Model::Square);
        // From zero: linear through the two points.
        let f = fit_two(10.0, 0.0, 20.0, 50.0);
        assert_eq!(f.model, Model::Linear);
        assert!((f.at(40.0) - 150.0).abs() < 1e-9);
        // Small drift stays constant-like and never goes negative.
        assert_eq!(fit_two(100.0, 10.0, 400.0, 10.5).model, Model::Constant);
        // A shrinking statistic has no growth model: the mean of the two runs.
        assert_eq!(fit_two(10.0, 50.0, 20.0, 10.0).at(1000.0), 30.0);
        // Falling to zero: the line through both points, clamped at 0.
        assert_eq!(fit_two(10.0, 10.0, 20.0, 0.0).at(1000.0), 0.0);
    }

    #[test]
    fn overlap_rule_by_hand() {
        let pred = |min: f64, max: f64| PredictedPattern {
            min,
            max,
            mean: (min + max) / 2.0,
            fraction: 1.0,
        };
        // [0,100] vs [5,105]: (100 − 5) / max(100, 100) = 0.95.
        assert!(pattern_matches(&pred(0.0, 100.0), &pat(5, 105), 0.9));
        // [0,100] vs [20,120]: 80 / 100 = 0.8.
        assert!(!pattern_matches(&pred(0.0, 100.0), &pat(20, 120), 0.9));
        // Orientation does not matter: observed below predicted.
        assert!(pattern_matches(&pred(5.0, 105.0), &pat(0, 100), 0.9));
        assert!(!pattern_matches(&pred(20.0, 120.0), &pat(0, 100), 0.9));
        // A narrow pattern inside a wide one: (50 − 40) / 100 = 0.1.
        assert!(!pattern_matches(&pred(40.0, 50.0), &pat(0, 100), 0.9));
        // Same bins count even without overlap: 1030..1040 and 1500..1600 are both in [1024, 2048).
        assert!(pattern_matches(
            &pred(1030.0, 1040.0),
            &pat(1500, 1600),
            0.9
        ));
        // Single points in different bins: wrong.
        assert!(!pattern_matches(
            &pred(2047.0, 2047.0),
            &pat(2049, 2049),
            0.9
        ));
        assert!(pattern_matches(&pred(0.0, 0.0), &pat(0, 0), 0.9));
    }

    #[test]
    fn predicted_pattern_is_ordered() {
        let (p, fits) = predict_pattern(1000.0, &pat(100, 110), 2000.0, &pat(200, 220), 8000.0);
        assert_eq!(fits[0].model, Model::Linear);
        assert!((p.min - 800.0).abs() < 1e-6 && (p.max - 880.0).abs() < 1e-6);
        assert!(p.min <= p.mean && p.mean <= p.max);
    }
}
