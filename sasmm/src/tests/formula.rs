//! The formula model in memory: block probabilities (eq. 1-3), window sampling (Alg. 3), the
//! PRD/CRD profiles and the predictions made from them.

use super::*;

#[test]
fn block_probabilities_eq1_to_3() {
    let s = seq(4);
    // Instances: b0 1, b1 1, b2 1, b3 4, b4 4, b5 1 → 12.
    let p = block_probabilities(&s);
    let expect = [1.0, 1.0, 1.0, 4.0, 4.0, 1.0, 0.0].map(|x: f64| x / 12.0);
    for (a, b) in p.iter().zip(expect) {
        assert!((a - b).abs() < 1e-12);
    }
    // Eq. 2-3 with m = 2: serial mass 2/12, parallel 10/12 halved → Z = 2/12 + 5/12 = 7/12.
    let par = s.block_parallel();
    assert_eq!(par, [false, false, true, true, true, true, false]);
    let q = private_block_probabilities(&p, &par, 2);
    assert!((q[0] - 1.0 / 7.0).abs() < 1e-12);
    assert!((q[3] - 2.0 / 7.0).abs() < 1e-12);
    assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn sampling_alg3() {
    let s = seq(200);
    let all = sample_windows(&s, 1.0, 1, 3);
    assert!(all.iter().all(|&x| x));
    let some = sample_windows(&s, 0.01, 1, 3);
    // 200 body windows at 1 %: at least 2, about twice that at most; blocks with one window
    // keep it (min 1).
    let body: usize = s
        .windows
        .iter()
        .zip(&some)
        .filter(|(w, &x)| w.bb == 4 && x)
        .count();
    assert!((2..=8).contains(&body), "{body} body windows sampled");
    assert!(some[0] && some[1]);
    assert_eq!(some, sample_windows(&s, 0.01, 1, 3));
}

#[test]
fn profiles_match_the_naive_engine_and_full_sampling_equals_exact() {
    let s = seq(300);
    let t = mimic(&s, 4, OffsetPolicy::Private);
    let all = sample_windows(&s, 1.0, 1, 0);
    let prd = private_profile(&t, 64, &all);
    for core in 0..4 {
        let mut lines = Vec::new();
        t.for_each_private_access(core, |_, a, _| lines.push(a >> 6));
        let naive = analyse(EngineKind::Naive, &EngineConfig::default(), &lines);
        assert_eq!(prd.exact[core].counts, naive.counts);
        assert_eq!(prd.exact[core].cold, naive.cold);
    }
    let crd = concurrent_profile(&t, Interleave::RoundRobin, 64, &all);
    let mut lines = Vec::new();
    for_each_shared_access(&t, Interleave::RoundRobin, |_, _, a, _| lines.push(a >> 6));
    let naive = analyse(EngineKind::Naive, &EngineConfig::default(), &lines);
    assert_eq!(crd.exact[0].counts, naive.counts);
    // Eq. 4 with every window sampled and reference weights is the exact profile.
    let weights: Vec<f64> = crd.instances.iter().map(|&n| n as f64).collect();
    let mix = crd.mixture(&weights, true);
    let exact = Profile::from_histogram(&crd.exact_total());
    assert!((mix.cold - exact.cold).abs() < 1e-12);
    for (d, p) in &exact.finite {
        assert!((mix.finite[d] - p).abs() < 1e-12, "d={d}");
    }
}

#[test]
fn prediction_is_exact_when_distances_decide_everything() {
    // A fully associative L1 and L2 make eq. 5 a step, so with every window sampled the
    // prediction for the mimicked trace equals an exact simulation of that same trace.
    let s = seq(500);
    let l1 = CacheConfig::parse("512:full:64").unwrap();
    let l2 = CacheConfig::parse("4K:full:64").unwrap();
    let mut cfg = SasmmConfig {
        l1,
        l2,
        ..SasmmConfig::default()
    };
    cfg.profile.sample_rate = 1.0;
    for m in [1, 2, 4] {
        let p = predict(&s, &cfg, m).unwrap();
        let t = mimic(&s, m, OffsetPolicy::Private);
        let mut l1_hits = 0u64;
        let mut refs = 0u64;
        for core in 0..m {
            let mut c = rdcachesim::Cache::new(l1);
            t.for_each_private_access(core, |_, a, len| {
                l1_hits += c.access(a, len as u64);
                refs += 1;
            });
        }
        assert!(
            (p.l1.hit - l1_hits as f64 / refs as f64).abs() < 1e-9,
            "m={m}"
        );
        let mut c = rdcachesim::Cache::new(l2);
        let mut l2_hits = 0u64;
        for_each_shared_access(&t, cfg.interleave, |_, _, a, len| {
            l2_hits += c.access(a, len as u64)
        });
        assert!(
            (p.l2.hit - l2_hits as f64 / refs as f64).abs() < 1e-9,
            "m={m}"
        );
    }
}

#[test]
fn predict_many_equals_one_by_one() {
    let s = seq(300);
    let cfg = SasmmConfig::default();
    let many = crate::predict::predict_many(&s, &cfg, &[4, 1, 2]).unwrap();
    for (p, m) in many.iter().zip([4, 1, 2]) {
        let one = predict(&s, &cfg, m).unwrap();
        assert_eq!(p.cores, m);
        assert_eq!(p.l1, one.l1);
        assert_eq!(p.l2, one.l2);
        assert_eq!(p.crd, one.crd);
    }
}
