//! The stack-distance cache model (SASMM §3.6, from Brehob & Enbody): hit probability of a
//! reference with reuse distance D in a cache of B lines and associativity A, assuming lines
//! map to sets uniformly at random.

use rdcachesim::CacheConfig;
use rdengines::Histogram;
use std::collections::BTreeMap;

/// Hit probability for reuse distance `d` (in lines) — eq. 5 for set-associative caches, eq. 6
/// for direct-mapped ones, exact LRU for fully associative ones.
pub fn hit_probability(d: u64, cache: &CacheConfig) -> f64 {
    let a = cache.ways as u64;
    let b = cache.lines();
    if a >= b {
        // Fully associative: q = 0 in eq. 5, which leaves a hit exactly when D < A.
        return if d < a { 1.0 } else { 0.0 };
    }
    if a == 1 {
        // See: SASMM eq. 6 — P(h|D) = ((B−1)/B)^D.
        return ((b - 1) as f64 / b as f64).powf(d as f64);
    }
    if d < a {
        // All binomial terms a = 0..=D are in the sum, which is then exactly 1.
        return 1.0;
    }
    // See: SASMM eq. 5 — P(h|D) = Σ_{a=0}^{A−1} C(D,a) (A/B)^a ((B−A)/B)^(D−a), summed in log
    // space because q^D underflows for large D while later terms do not.
    let p = a as f64 / b as f64;
    let (ln_p, ln_q) = (p.ln(), (1.0 - p).ln());
    let df = d as f64;
    let mut ln_binom = 0.0f64; // ln C(D, 0)
    let mut sum = 0.0;
    for k in 0..a {
        let kf = k as f64;
        if k > 0 {
            ln_binom += (df - kf + 1.0).ln() - kf.ln();
        }
        sum += (ln_binom + kf * ln_p + (df - kf) * ln_q).exp();
    }
    sum.min(1.0)
}

/// A reuse profile P(D): probability of each finite distance, and of ∞ (first touches).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Profile {
    /// P(D = d) for finite d.
    pub finite: BTreeMap<u64, f64>,
    /// P(D = ∞).
    pub cold: f64,
}

impl Profile {
    /// The normalised profile of a histogram (overflow counts as ∞).
    pub fn from_histogram(h: &Histogram) -> Profile {
        let total = h.total();
        if total == 0 {
            return Profile::default();
        }
        let t = total as f64;
        Profile {
            finite: h.counts.iter().map(|(&d, &n)| (d, n as f64 / t)).collect(),
            cold: (h.cold + h.overflow) as f64 / t,
        }
    }

    /// Adds `weight × other` (for mixtures, eq. 4).
    pub fn add_scaled(&mut self, other: &Profile, weight: f64) {
        for (&d, &p) in &other.finite {
            *self.finite.entry(d).or_insert(0.0) += weight * p;
        }
        self.cold += weight * other.cold;
    }

    /// Total probability (1 for a proper profile, 0 for an empty one).
    pub fn total(&self) -> f64 {
        self.cold + self.finite.values().sum::<f64>()
    }

    /// Predicted hit rate in `cache` — eq. 7: P(h) = Σ_i P(D_i) · P(h|D_i), with P(h|∞) = 0.
    pub fn hit_rate(&self, cache: &CacheConfig) -> f64 {
        // See: SASMM eq. 7.
        self.finite
            .iter()
            .map(|(&d, &p)| p * hit_probability(d, cache))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(size: u64, ways: u32, line: u32) -> CacheConfig {
        CacheConfig::new(size, ways, line).unwrap()
    }

    #[test]
    fn eq5_by_hand() {
        // B = 4 lines, A = 2: p = 1/2, q = 1/2. D = 3: C(3,0)/8 + C(3,1)/8 = 4/8.
        let c = cfg(4, 2, 1);
        assert!((hit_probability(3, &c) - 0.5).abs() < 1e-12);
        // D = 2: 1/4 + 2/4 = 3/4.
        assert!((hit_probability(2, &c) - 0.75).abs() < 1e-12);
        // D < A: certain hit.
        assert_eq!(hit_probability(1, &c), 1.0);
        assert_eq!(hit_probability(0, &c), 1.0);
        // Paper L1 (B = 128, A = 8), D = 8: 1 − p^8 = 1 − (1/16)^8.
        let l1 = cfg(8192, 8, 64);
        let expect = 1.0 - (1.0f64 / 16.0).powi(8);
        assert!((hit_probability(8, &l1) - expect).abs() < 1e-12);
    }

    #[test]
    fn eq6_is_eq5_with_one_way() {
        let c = cfg(1024, 1, 64); // B = 16
        for d in [0u64, 1, 5, 40] {
            let eq6 = (15.0f64 / 16.0).powi(d as i32);
            assert!((hit_probability(d, &c) - eq6).abs() < 1e-12, "d={d}");
        }
        // The general sum with A = 1 is the same single term.
        let d = 7u64;
        let eq5 = (1.0 - 1.0 / 16.0f64).powi(7);
        assert!((hit_probability(d, &c) - eq5).abs() < 1e-12);
    }

    #[test]
    fn fully_associative_is_a_step() {
        let c = cfg(512, 8, 64);
        assert_eq!(hit_probability(7, &c), 1.0);
        assert_eq!(hit_probability(8, &c), 0.0);
    }

    #[test]
    fn eq5_is_monotone_and_stable_for_huge_distances() {
        let c = cfg(128 << 10, 16, 64);
        let mut last = 1.0;
        for d in [0u64, 15, 16, 100, 1000, 2047, 2048, 4000, 10_000, 1_000_000] {
            let h = hit_probability(d, &c);
            assert!((0.0..=1.0).contains(&h) && h <= last + 1e-15, "d={d} h={h}");
            last = h;
        }
        assert!(hit_probability(1_000_000, &c) < 1e-12);
        // Around the capacity the model is near its median, not 0 or 1.
        let mid = hit_probability(2048, &c);
        assert!(mid > 0.3 && mid < 0.7, "{mid}");
    }

    #[test]
    fn eq7_by_hand() {
        // Histogram: 2 × D=1, 1 × D=3, 1 cold. Cache B=4, A=2.
        let mut h = Histogram::new_exact();
        h.add(1, 2);
        h.add(3, 1);
        h.cold = 1;
        let p = Profile::from_histogram(&h);
        assert!((p.total() - 1.0).abs() < 1e-12);
        // (2/4)·1 + (1/4)·0.5 + (1/4)·0 = 0.625.
        assert!((p.hit_rate(&cfg(4, 2, 1)) - 0.625).abs() < 1e-12);
    }
}
