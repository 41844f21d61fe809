//! Locality patterns: adjacent bins merged by the paper's rule.
//!
//! See: path-based reuse distance, Section 3.1 — scan the bins from the smallest distance to
//! the largest and merge bins i and i + 1 while `min_{i+1} − max_i ≤ max_i − min_i` (the gap to
//! the next bin is no greater than the length of the current one); otherwise start a new
//! pattern. "The merging process stops when it reaches a minimum frequency and starts a new
//! pattern for the next bin": with [`PatternConfig::min_frequency`] set, a pattern that holds
//! that fraction of the references takes no further bins. The paper gives no value, so the rule
//! is off by default.
//!
//! Not in the paper: patterns holding less than [`PatternConfig::drop_below`] of the references
//! are treated as noise and dropped (a tool option, on by default at 1 %).

use crate::bins::{bin_index, Bin, Bins};
use serde::{Deserialize, Serialize};

/// How bins become patterns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternConfig {
    /// The paper's minimum frequency (Section 3.1): a pattern whose references reach this
    /// fraction of the distribution's stops merging, and the next bin starts a new pattern.
    /// `None`: merging is limited by the gap rule only.
    pub min_frequency: Option<f64>,
    /// Not in the paper: patterns with fewer than this fraction of the distribution's
    /// references are dropped as noise (0 keeps every pattern).
    pub drop_below: f64,
}

impl Default for PatternConfig {
    fn default() -> Self {
        PatternConfig {
            min_frequency: None,
            drop_below: 0.01,
        }
    }
}

impl PatternConfig {
    /// Only the paper's gap rule: no minimum frequency, nothing dropped.
    pub fn gap_rule_only() -> Self {
        PatternConfig {
            min_frequency: None,
            drop_below: 0.0,
        }
    }
}

/// One locality pattern: a cluster of nearby reuse distances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pattern {
    /// Smallest distance.
    pub min: u64,
    /// Largest distance.
    pub max: u64,
    /// Mean distance.
    pub mean: f64,
    /// References in the pattern.
    pub count: u64,
    /// Fraction of the distribution's (non-cold) references.
    pub fraction: f64,
}

impl Pattern {
    /// Bin index of the smallest and the largest distance: two patterns "fall into the same
    /// set of bins" when these agree.
    pub fn bin_span(&self) -> (u32, u32) {
        (bin_index(self.min), bin_index(self.max))
    }

    /// Whether the pattern is short, i.e. its mean distance is below `threshold`.
    pub fn is_short(&self, threshold: u64) -> bool {
        self.mean < threshold as f64
    }
}

/// Forms the patterns of one distance distribution.
pub fn form_patterns(bins: &Bins, cfg: &PatternConfig) -> Vec<Pattern> {
    let total = bins.count();
    if total == 0 {
        return Vec::new();
    }
    let mut merged: Vec<Bin> = Vec::new();
    for (_, b) in bins.iter() {
        match merged.last_mut() {
            // See: path-based reuse distance, Section 3.1 — min_{i+1} − max_i ≤ max_i − min_i.
            // See: Section 3.1 — "the merging process stops when it reaches a minimum
            // frequency and starts a new pattern for the next bin".
            Some(cur)
                if b.min - cur.max <= cur.max - cur.min
                    && cfg
                        .min_frequency
                        .is_none_or(|f| (cur.count as f64) < f * total as f64) =>
            {
                cur.merge(&b)
            }
            _ => merged.push(b),
        }
    }
    merged
        .into_iter()
        .filter(|b| b.count as f64 >= cfg.drop_below * total as f64)
        .map(|b| Pattern {
            min: b.min,
            max: b.max,
            mean: b.mean(),
            count: b.count,
            fraction: b.count as f64 / total as f64,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bins(ds: &[(u64, u64)]) -> Bins {
        let mut b = Bins::new();
        for &(d, n) in ds {
            for _ in 0..n {
                b.add(d);
            }
        }
        b
    }

    #[test]
    fn spatial_and_temporal_stay_apart() {
        // 0 and 2047: gap 2047 > span 0.
        let p = form_patterns(&bins(&[(0, 3), (2047, 1)]), &PatternConfig::default());
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].min, p[0].max, p[0].count), (0, 0, 3));
        assert_eq!((p[1].min, p[1].max, p[1].count), (2047, 2047, 1));
        assert_eq!(p[0].fraction, 0.75);
    }

    #[test]
    fn merging_follows_the_gap_rule() {
        // Bin [4,7] holds 4..7 (span 3); next bin [8,15] holds 9..10: gap 9 − 7 = 2 ≤ 3 → merge.
        // Merged span is 4..10 = 6; bin [16,31] holds 20: gap 10 > 6 → new pattern.
        let p = form_patterns(
            &bins(&[(4, 1), (7, 1), (9, 1), (10, 1), (20, 1)]),
            &PatternConfig::default(),
        );
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].min, p[0].max, p[0].count), (4, 10, 4));
        assert_eq!(p[0].mean, 7.5);
        assert_eq!((p[1].min, p[1].max), (20, 20));
    }

    #[test]
    fn gap_equal_to_span_merges_and_chains() {
        // 1024..1500 (span 476) then 1976..2500: gap 476 ≤ 476 → merge; the merged span grows,
        // so 3000..3100 (gap 500 ≤ 1476) joins too.
        let p = form_patterns(
            &bins(&[
                (1024, 1),
                (1500, 1),
                (1976, 1),
                (2500, 1),
                (3000, 1),
                (3100, 1),
            ]),
            &PatternConfig::default(),
        );
        assert_eq!(p.len(), 1);
        assert_eq!((p[0].min, p[0].max, p[0].count), (1024, 3100, 6));
    }

    #[test]
    fn point_bins_never_merge() {
        // A single-distance bin has span 0, so even the next distance up starts a new pattern.
        let p = form_patterns(&bins(&[(0, 5), (1, 5)]), &PatternConfig::default());
        assert_eq!(p.len(), 2);
    }

    #[test]
    fn drop_below_cuts_noise() {
        let b = bins(&[(0, 995), (5000, 5)]);
        assert_eq!(form_patterns(&b, &PatternConfig::default()).len(), 1);
        assert_eq!(form_patterns(&b, &PatternConfig::gap_rule_only()).len(), 2);
        assert!(form_patterns(&Bins::new(), &PatternConfig::default()).is_empty());
    }

    #[test]
    fn minimum_frequency_stops_merging() {
        // Bins [4,7] (4 and 7, 2 refs) and [8,15] (9, 10): the gap rule merges them (gap 2 ≤
        // span 3), as `merging_follows_the_gap_rule` shows. Of 4 references, the first bin holds
        // 50 %: with a minimum frequency of 0.5 the pattern stops there and [8,15] starts a new
        // one; with 0.6 it has not reached the minimum and takes the next bin.
        let b = bins(&[(4, 1), (7, 1), (9, 1), (10, 1)]);
        let stop = PatternConfig {
            min_frequency: Some(0.5),
            drop_below: 0.0,
        };
        let p = form_patterns(&b, &stop);
        assert_eq!(p.len(), 2);
        assert_eq!((p[0].min, p[0].max, p[1].min, p[1].max), (4, 7, 9, 10));
        let go_on = PatternConfig {
            min_frequency: Some(0.6),
            drop_below: 0.0,
        };
        assert_eq!(form_patterns(&b, &go_on).len(), 1);
        assert_eq!(form_patterns(&b, &PatternConfig::gap_rule_only()).len(), 1);
    }
}
