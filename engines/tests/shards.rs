//! SHARDS sampling: exact at R = 1, unbiased on synthetic traces whose histograms are known.
//!
//! The unbiasedness tests average the estimate over many independent samples (hash salts) and
//! accept a mean within 4 standard errors of its expectation; the standard error comes from the
//! sampling variance (derived where it has a closed form, else the spread across salts), so the
//! tolerance is derived, not tuned. A correct sampler fails such a check with probability about
//! 6·10^-5 per check; the salts are fixed, so the tests are deterministic.

use proptest::prelude::*;
use rand::{rngs::StdRng, Rng, SeedableRng};
use rdengines::naive::naive_histogram;
use rdengines::shards::{ShardsConfig, ShardsEngine, MODULUS};
use rdengines::{FastEngine, Histogram, ReuseEngine};

fn sampled(blocks: &[u64], cfg: ShardsConfig) -> (Histogram, rdengines::SampleStats) {
    let mut e = ShardsEngine::new(cfg).unwrap();
    e.process(blocks);
    e.finish_with_stats()
}

fn exact(blocks: &[u64]) -> Histogram {
    let mut e = Box::new(FastEngine::new());
    e.process(blocks);
    e.finish()
}

fn mean_and_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let m = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0);
    (m, (var / n).sqrt())
}

/// P(Binomial(n, p) < k).
fn binom_cdf_below(n: u64, p: f64, k: u64) -> f64 {
    if k == 0 {
        return 0.0;
    }
    if k > n {
        return 1.0;
    }
    let mut pmf = (1.0 - p).powf(n as f64);
    let mut sum = 0.0;
    for j in 0..k {
        sum += pmf;
        pmf *= (n - j) as f64 / (j + 1) as f64 * p / (1.0 - p);
    }
    sum.min(1.0)
}

fn stream() -> impl Strategy<Value = Vec<u64>> {
    prop_oneof![
        prop::collection::vec(0..4u64, 0..200),
        prop::collection::vec(0..3000u64, 0..300),
        prop::collection::vec(any::<u64>(), 0..120),
        (1..60u64, 1..6usize).prop_map(|(k, r)| (0..r).flat_map(|_| 0..k).collect()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// At R = 1 every block is sampled with weight 1: the histogram is the exact one, bounded
    /// or not, with or without a fixed-size bound that is never reached, adjusted or not.
    #[test]
    fn rate_one_equals_exact(
        blocks in stream(),
        bound in prop::option::of(0..40u64),
        adjust in any::<bool>(),
        seed in any::<u64>(),
        fixed in any::<bool>(),
    ) {
        let cfg = ShardsConfig {
            rate: 1.0,
            max_blocks: fixed.then_some(4000),
            bound,
            adjust,
            seed,
        };
        let (h, stats) = sampled(&blocks, cfg);
        prop_assert_eq!(h, naive_histogram(&blocks, bound));
        prop_assert_eq!(stats.sampled_references, blocks.len() as u64);
        prop_assert_eq!(stats.adjustment, 0);
    }

    /// The fixed-size variant never tracks more than S blocks, and SHARDS_adj makes the
    /// estimated total equal the references (up to the rounding of each bucket), except when
    /// the correction is negative and larger than all finite buckets, which it then empties.
    #[test]
    fn fixed_size_is_bounded(blocks in stream(), s in 1..50usize, seed in any::<u64>()) {
        let cfg = ShardsConfig { rate: 1.0, max_blocks: Some(s), seed, ..Default::default() };
        let (h, stats) = sampled(&blocks, cfg);
        prop_assert!(stats.sampled_blocks as usize <= s);
        let buckets = h.counts.len() as u64 + 2;
        let n = blocks.len() as u64;
        prop_assert!(
            h.total().abs_diff(n) <= buckets || (h.total() > n && h.reuses() <= buckets)
        );
    }
}

/// A cyclic trace over M blocks, L rounds: M cold references and M·(L-1) reuses, all at
/// distance M-1. With K ~ Binomial(M, R) sampled blocks the sample is a cyclic trace over K
/// blocks: cold K/R, reuses K·(L-1)/R, distance floor((K-1)/R). So E[cold] = M,
/// E[reuses] = M·(L-1), E[distance] ≈ M - 1/R, and Var[K/R] = M(1-R)/R.
#[test]
fn cyclic_trace_is_unbiased() {
    let (m, l, rate) = (2000u64, 5u64, 0.1);
    let blocks: Vec<u64> = (0..l).flat_map(|_| 0..m).collect();
    let exact = exact(&blocks);
    assert_eq!(exact.cold, m);
    assert_eq!(exact.counts.get(&(m - 1)), Some(&(m * (l - 1))));
    let r_eff = (rate * MODULUS as f64).round() / MODULUS as f64;
    let n = 400;
    let (mut cold, mut reuses, mut dist) = (vec![], vec![], vec![]);
    for seed in 0..n {
        let cfg = ShardsConfig {
            rate,
            adjust: false,
            seed,
            ..Default::default()
        };
        let (h, _) = sampled(&blocks, cfg);
        assert!(h.counts.len() <= 1, "a cyclic sample has one distance");
        cold.push(h.cold as f64);
        reuses.push(h.reuses() as f64);
        if let Some((&d, _)) = h.counts.iter().next() {
            dist.push(d as f64);
        }
    }
    let se_cold = (m as f64 * (1.0 - r_eff) / r_eff / n as f64).sqrt();
    let (mc, _) = mean_and_se(&cold);
    // + 0.5: each count is rounded once.
    assert!(
        (mc - m as f64).abs() <= 4.0 * se_cold + 0.5,
        "cold mean {mc}, expected {m} ± {}",
        4.0 * se_cold
    );
    let (mr, _) = mean_and_se(&reuses);
    let want = (m * (l - 1)) as f64;
    assert!(
        (mr - want).abs() <= 4.0 * se_cold * (l - 1) as f64 + 0.5,
        "reuse mean {mr}, expected {want}"
    );
    // floor((K-1)/R): mean M - 1/R - (floor's loss, in [0, 1)).
    let (md, _) = mean_and_se(&dist);
    let want = m as f64 - 1.0 / r_eff - 0.5;
    assert!(
        (md - want).abs() <= 4.0 * se_cold + 0.5,
        "distance mean {md}, expected {want}"
    );
}

/// Uniformly random references over M blocks (the independent reference model): in steady
/// state the referenced block is equally likely at every LRU stack position, so the exact
/// MRC is 1 - C/M (plus cold misses). For the sample: a reuse at true distance D is kept with
/// probability R and weight 1/R, and its sampled distance is Binomial(D, R) (each of the D
/// blocks in between is sampled independently), so the expected number of estimated hits in a
/// cache of C blocks is exactly sum_D h(D) · P(Binomial(D, R) < ceil(C·R)).
#[test]
fn uniform_random_trace_is_unbiased() {
    let (m, n_refs) = (1000u64, 60_000usize);
    let mut rng = StdRng::seed_from_u64(7);
    let blocks: Vec<u64> = (0..n_refs).map(|_| rng.gen_range(0..m)).collect();
    let exact = exact(&blocks);
    // The exact histogram matches the model: hits below C ≈ (reuses)·C/M, within the
    // binomial spread of counting `reuses` positions uniform over 0..M.
    let reuses = exact.reuses() as f64;
    for c in [m / 8, m / 4, m / 2] {
        let p = c as f64 / m as f64;
        let model = reuses * p;
        let sd = (reuses * p * (1.0 - p)).sqrt();
        let got = exact.hits_below(c) as f64;
        assert!(
            (got - model).abs() <= 4.0 * sd + m as f64,
            "exact hits {got} vs IRM model {model}"
        );
    }
    let rate = 0.1;
    let r_eff = (rate * MODULUS as f64).round() / MODULUS as f64;
    let n = 200;
    let caches = [m / 8, m / 4, m / 2];
    let mut hits: Vec<Vec<f64>> = vec![vec![]; caches.len()];
    let mut cold = vec![];
    for seed in 0..n {
        let cfg = ShardsConfig {
            rate,
            adjust: false,
            seed,
            ..Default::default()
        };
        let (h, _) = sampled(&blocks, cfg);
        for (i, &c) in caches.iter().enumerate() {
            hits[i].push(h.hits_below(c) as f64);
        }
        cold.push(h.cold as f64);
    }
    for (i, &c) in caches.iter().enumerate() {
        let k = (c as f64 * r_eff).ceil() as u64;
        let expected: f64 = exact
            .counts
            .iter()
            .map(|(&d, &cnt)| cnt as f64 * binom_cdf_below(d, r_eff, k))
            .sum();
        let (mean, se) = mean_and_se(&hits[i]);
        // + 0.5 per bucket below C: each scaled bucket is rounded once.
        let tol = 4.0 * se + 0.5 * k as f64;
        assert!(
            (mean - expected).abs() <= tol,
            "C={c}: mean estimated hits {mean}, expected {expected} ± {tol}"
        );
        // And the miss ratio is close to the exact one (the sample's distance noise only
        // smooths the MRC; for this flat histogram the smoothing nearly cancels).
        let exact_mr = 1.0 - exact.hits_below(c) as f64 / n_refs as f64;
        let est_mr = 1.0 - mean / n_refs as f64;
        let smoothing = (expected - exact.hits_below(c) as f64).abs() / n_refs as f64;
        assert!(
            (est_mr - exact_mr).abs() <= tol / n_refs as f64 + smoothing,
            "C={c}: miss ratio {est_mr} vs exact {exact_mr}"
        );
    }
    let (mc, _) = mean_and_se(&cold);
    let se = (m as f64 * (1.0 - r_eff) / r_eff / n as f64).sqrt();
    assert!((mc - m as f64).abs() <= 4.0 * se + 0.5, "cold mean {mc}");
}

/// Fixed-size variant on the uniform trace: first touches are counted with the rate in force
/// when they happen, and a block never seen before is sampled independently of that rate (the
/// rate depends only on earlier blocks' hashes), so the cold count stays unbiased; at most S
/// blocks are ever tracked and the final rate settles near S/M.
#[test]
fn fixed_size_cold_count_is_unbiased() {
    let (m, n_refs, s) = (1000u64, 30_000usize, 100usize);
    let mut rng = StdRng::seed_from_u64(11);
    let blocks: Vec<u64> = (0..n_refs).map(|_| rng.gen_range(0..m)).collect();
    let n = 200;
    let mut cold = vec![];
    for seed in 0..n {
        let cfg = ShardsConfig {
            rate: 1.0,
            max_blocks: Some(s),
            adjust: false,
            seed,
            ..Default::default()
        };
        let (h, stats) = sampled(&blocks, cfg);
        assert!(stats.sampled_blocks as usize <= s);
        // The threshold is the (S+1)-th smallest hash among ≥ S+1 blocks, so the final rate
        // is about S/M (within a factor 2 for these sizes, far outside the spread).
        assert!(stats.final_rate > 0.5 * s as f64 / m as f64);
        assert!(stats.final_rate < 2.0 * s as f64 / m as f64);
        cold.push(h.cold as f64);
    }
    let (mc, se) = mean_and_se(&cold);
    assert!(
        (mc - m as f64).abs() <= 4.0 * se + 0.5,
        "fixed-size cold mean {mc} ± {se}"
    );
}

/// SHARDS_adj: with the adjustment the estimated total is the trace's reference count.
#[test]
fn adjustment_restores_the_total() {
    let mut rng = StdRng::seed_from_u64(3);
    let blocks: Vec<u64> = (0..50_000).map(|_| rng.gen_range(0..5000u64)).collect();
    for seed in 0..10 {
        let cfg = ShardsConfig {
            rate: 0.05,
            seed,
            ..Default::default()
        };
        let (h, stats) = sampled(&blocks, cfg);
        let buckets = h.counts.len() as u64 + 2;
        assert!(
            h.total().abs_diff(blocks.len() as u64) <= buckets,
            "total {} vs {}",
            h.total(),
            blocks.len()
        );
        assert!(stats.sampled_references < blocks.len() as u64);
        assert!(!h.exact);
    }
}

#[test]
fn bad_rates_are_errors() {
    for rate in [0.0, -1.0, 1.5, f64::NAN, 1e-9] {
        let cfg = ShardsConfig {
            rate,
            ..Default::default()
        };
        assert!(ShardsEngine::new(cfg).is_err(), "rate {rate}");
    }
    let cfg = ShardsConfig {
        rate: 0.5,
        max_blocks: Some(0),
        ..Default::default()
    };
    assert!(ShardsEngine::new(cfg).is_err());
}

#[test]
fn mrc_error_metric() {
    use rdengines::shards::{miss_ratio, mrc_mean_abs_error};
    // a b a b: cold 2, two reuses at distance 1. Cache of 1: all miss; of 2: half hit.
    let h = naive_histogram(&[1, 2, 1, 2], None);
    assert_eq!(miss_ratio(&h, 1), 1.0);
    assert_eq!(miss_ratio(&h, 2), 0.5);
    assert_eq!(mrc_mean_abs_error(&h, &h, 50), 0.0);
    // Everything cold instead: error 0.5 at size 2 (the only point above distance 1 of 2 points).
    let cold = naive_histogram(&[1, 2, 3, 4], None);
    assert_eq!(mrc_mean_abs_error(&h, &cold, 2), 0.25);
}
