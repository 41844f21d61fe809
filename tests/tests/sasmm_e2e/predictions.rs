//! The models' predictions against exact simulation of the real runs, kernel by kernel.

use super::*;

#[test]
fn sasmm_predictions_match_exact_simulation_of_real_runs() {
    let (rdcc, report) = (tools().rdcc.clone(), tools().rda_report.clone());
    let tmp = tempfile::tempdir().unwrap();
    let mut rows: Vec<Row> = Vec::new();
    let mut paper_l2 = Vec::new();
    let mut vs_cachegrind = Vec::new();
    let mut decomposition = Vec::new();
    for (kernel, source, defs) in KERNELS {
        let src = kernels_dir().join(format!("{source}.c"));
        let exe = tmp.path().join(kernel);
        run_ok(
            Command::new(&rdcc)
                .args(["-fopenmp", "-O2"])
                .args(defs)
                .arg(&src)
                .arg("-o")
                .arg(&exe),
            &format!("rdcc {kernel}"),
        );
        let mut traces = Vec::new();
        let mut first_output = None;
        for m in CORES {
            // Names of one length for every thread count: the tracing runtime allocates the path
            // on the program's heap, and a longer name can shift the arrays by a cache line, which
            // changes which sets they use (the sequential run must see the real runs' layout).
            let trace = tmp.path().join(format!("{kernel}.{m}.rdtrace"));
            let out = run_ok(
                Command::new(&exe)
                    .env("OMP_NUM_THREADS", m.to_string())
                    // 8 threads share 2 CPUs here: sleeping waiters keep the runs short.
                    .env("OMP_WAIT_POLICY", "passive")
                    .env("RDTRACE", &trace),
                &format!("{kernel} with {m} threads"),
            );
            rdtools_e2e::check_invariants(&trace);
            // Deterministic output whatever the thread count.
            match &first_output {
                None => first_output = Some(out),
                Some(first) => assert_eq!(&out, first, "{kernel}: output changed with {m} threads"),
            }
            traces.push((m, trace));
        }
        let seq = &traces[0].1;
        let validate = |extra: &[&str]| -> Value {
            let mut cmd = Command::new(&report);
            cmd.arg("validate")
                .arg("--seq")
                .arg(seq)
                .arg("--json")
                .arg("-q");
            for (m, t) in &traces {
                cmd.arg("--real").arg(format!("{m}={}", t.display()));
            }
            cmd.args(extra);
            serde_json::from_str(&run_ok(&mut cmd, &format!("validate {kernel}"))).unwrap()
        };
        let plot = tmp.path().join(format!("{kernel}.svg"));
        let v = validate(&["--plot", plot.to_str().unwrap()]);
        let svg = std::fs::read_to_string(&plot).unwrap();
        assert!(
            svg.contains("stroke-dasharray")
                && svg.contains("L2 measured")
                && svg.contains("L1 exact model")
                && svg.contains("L1 formula"),
            "{kernel}: plot"
        );
        assert_eq!(v["model"], "exact");
        let v_rows = v["rows"].as_array().unwrap();
        assert_eq!(v_rows.len(), CORES.len());
        for r in v_rows {
            let m = r["cores"].as_u64().unwrap() as usize;
            assert_eq!(
                r["measured"]["threads"].as_u64(),
                Some(m as u64),
                "{kernel}: threads"
            );
            let row = Row {
                kernel,
                cores: m,
                measured: Rates::of(&r["measured"]),
                exact: Rates::of(&r["exact"]),
                formula: Rates::of(&r["formula"]),
            };
            for x in [row.measured, row.exact, row.formula] {
                for y in [x.l1, x.l2, x.l2_local] {
                    assert!(
                        (0.0..=1.0).contains(&y),
                        "{kernel}: rate {y} is not a fraction"
                    );
                }
            }
            // The default model is the exact one, under the old keys too.
            assert_eq!(r["predicted"]["l1_hit"], r["exact"]["l1_hit"]);
            assert_eq!(r["l1_abs_error"], r["errors"]["exact"]["l1"]);
            rows.push(row);
        }
        let me = &v["mean_errors"];
        decomposition.push((
            kernel,
            me["exact"]["l1"].as_f64().unwrap(),
            me["formula"]["l1"].as_f64().unwrap(),
            me["formula_real_profile"]["l1"].as_f64().unwrap(),
            me["exact"]["l2_global"].as_f64().unwrap(),
            me["formula"]["l2_global"].as_f64().unwrap(),
            me["formula_real_profile"]["l2_global"].as_f64().unwrap(),
        ));
        if kernel == "jacobi2d" {
            let r8 = &v_rows[3];
            check_predict_json(
                &report,
                seq,
                r8["exact"]["l1_hit"].as_f64().unwrap(),
                r8["formula"]["l1_hit"].as_f64().unwrap(),
            );
            check_measure_csv(&report, &traces[2].1, 4, tmp.path());
        }
        if let Some((d1, ll)) = cachegrind(kernel, source, defs, tmp.path()) {
            let one = &v_rows[0]["measured"];
            vs_cachegrind.push((
                kernel,
                one["l1_hit"].as_f64().unwrap(),
                d1,
                one["l2_hit"].as_f64().unwrap(),
                ll,
            ));
        }
        if rows.len() <= ORIGINAL * CORES.len() {
            let p = validate(&["--offset-policy", "paper", "--model", "formula"]);
            paper_l2.push((
                kernel,
                v["mean_errors"]["formula"]["l2_global"].as_f64().unwrap(),
                p["l2_mean_abs_error"].as_f64().unwrap(),
            ));
        }
    }

    let pp = |x: f64| 100.0 * x;
    eprintln!(
        "{:<10} {:>5} | {:>6} {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>6} | {:>6} {:>6} {:>6} {:>6}   (%, err in pp)",
        "kernel", "cores", "L1 ms", "exact", "err", "form", "L2g ms", "exact", "err", "form", "L2l ms",
        "exact", "err", "form"
    );
    for r in &rows {
        let (m, e, f) = (r.measured, r.exact, r.formula);
        eprintln!(
            "{:<10} {:>5} | {:>6.2} {:>6.2} {:>6.2} {:>6.2} | {:>6.2} {:>6.2} {:>6.2} {:>6.2} | {:>6.2} {:>6.2} {:>6.2} {:>6.2}",
            r.kernel,
            r.cores,
            pp(m.l1),
            pp(e.l1),
            pp((e.l1 - m.l1).abs()),
            pp(f.l1),
            pp(m.l2),
            pp(e.l2),
            pp((e.l2 - m.l2).abs()),
            pp(f.l2),
            pp(m.l2_local),
            pp(e.l2_local),
            pp((e.l2_local - m.l2_local).abs()),
            pp(f.l2_local),
        );
    }
    let mean = |rows: &[Row], f: &dyn Fn(&Row) -> f64| {
        rows.iter().map(f).sum::<f64>() / rows.len().max(1) as f64
    };
    let exact_l1 = mean(&rows, &|r| (r.exact.l1 - r.measured.l1).abs());
    let exact_l2 = mean(&rows, &|r| (r.exact.l2 - r.measured.l2).abs());
    let exact_l2l = mean(&rows, &|r| (r.exact.l2_local - r.measured.l2_local).abs());
    let formula_l1 = mean(&rows, &|r| (r.formula.l1 - r.measured.l1).abs());
    let formula_l2 = mean(&rows, &|r| (r.formula.l2 - r.measured.l2).abs());
    let formula_l2l = mean(&rows, &|r| (r.formula.l2_local - r.measured.l2_local).abs());
    eprintln!(
        "mean absolute error over {} cases: exact model L1 {:.3} pp, L2 global {:.3} pp, L2 local {:.3} pp",
        rows.len(),
        pp(exact_l1),
        pp(exact_l2),
        pp(exact_l2l)
    );
    eprintln!(
        "                                 formula     L1 {:.3} pp, L2 global {:.3} pp, L2 local {:.3} pp",
        pp(formula_l1),
        pp(formula_l2),
        pp(formula_l2l)
    );
    eprintln!("error decomposition per kernel (mean abs error, pp): L1 exact / formula / formula on real PRD | L2 exact / formula / formula on real CRD");
    for (k, e1, f1, r1, e2, f2, r2) in &decomposition {
        eprintln!(
            "{k:<10} L1 {:>6.2} {:>6.2} {:>6.2} | L2 {:>6.2} {:>6.2} {:>6.2}",
            pp(*e1),
            pp(*f1),
            pp(*r1),
            pp(*e2),
            pp(*f2),
            pp(*r2)
        );
    }
    for (k, private, paper) in &paper_l2 {
        eprintln!(
            "{k:<10} formula L2 mean abs error: offset policy private {:.3} pp, paper {:.3} pp",
            100.0 * private,
            100.0 * paper
        );
    }
    // scripts/setup.sh installs valgrind and clang-19: no comparison is a failure, not a skip.
    assert!(
        !vs_cachegrind.is_empty(),
        "valgrind or clang-19 not installed (run scripts/setup.sh): no cachegrind comparison"
    );
    for (k, l1, d1, l2, ll) in &vs_cachegrind {
        eprintln!(
            "{k:<10} 1 thread: L1 ours {:.2} cachegrind {:.2} | L2 ours {:.2} cachegrind {:.2}",
            100.0 * l1,
            100.0 * d1,
            100.0 * l2,
            100.0 * ll
        );
    }
    for (k, l1, d1, l2, ll) in &vs_cachegrind {
        assert!(
            (l1 - d1).abs() <= 0.025,
            "{k}: L1 simulation {l1:.4} vs cachegrind {d1:.4}"
        );
        assert!(
            (l2 - ll).abs() <= 0.025,
            "{k}: L2 simulation {l2:.4} vs cachegrind {ll:.4}"
        );
    }

    // The behaviour derived in the new kernels' header comments, on the measured runs.
    let one = |k: &str| rows.iter().find(|r| r.kernel == k && r.cores == 1).unwrap();
    // Column walk: every matrix load misses (~14 % hits overall); eq. 5 predicts ~90 %.
    let c = one("colwalk");
    assert!(
        c.measured.l1 < 0.2 && c.formula.l1 > 0.8,
        "colwalk: {:?} {:?}",
        c.measured,
        c.formula
    );
    assert!(c.measured.l2_local > 0.95, "colwalk: matrix fits L2");
    // Transposition: the column stores all miss; about 58 % overall.
    let t = one("transpose");
    assert!(
        (0.5..0.6).contains(&t.measured.l1),
        "transpose L1 {}",
        t.measured.l1
    );
    assert!(
        t.formula.l1 > t.measured.l1 + 0.15,
        "transpose: the formula errs high"
    );
    // Blocked multiply: the B tile fills its 4 sets exactly; the formula is several points high.
    let b = one("blockmm");
    assert!(
        b.formula.l1 > b.measured.l1 + 0.03,
        "blockmm: {:?} {:?}",
        b.measured,
        b.formula
    );
    // Stream just larger than L2: on one thread no L2 hit; L1 ~92-94 %, global L2 = L1.
    let s = one("stream");
    assert!(
        s.measured.l2_local < 0.01,
        "stream: L2 local {}",
        s.measured.l2_local
    );
    assert!(
        (0.91..0.945).contains(&s.measured.l1),
        "stream L1 {}",
        s.measured.l1
    );
    assert!(
        s.formula.l2_local > 0.05,
        "stream: the formula predicts L2 hits"
    );
    // Dynamic schedule: ~91 % L1 hits and L1 misses go to memory, on every core count.
    for r in rows.iter().filter(|r| r.kernel == "dynamic") {
        assert!(
            (0.88..0.93).contains(&r.measured.l1),
            "dynamic L1 {}",
            r.measured.l1
        );
        assert!(
            r.measured.l2_local < 0.05,
            "dynamic L2 local {}",
            r.measured.l2_local
        );
    }
    // Shared read-only table: one copy in L2 however many threads, so the local L2 hit rate
    // does not fall with more threads (private copies would need m x 16 KiB).
    let lk: Vec<&Row> = rows.iter().filter(|r| r.kernel == "lookup").collect();
    for r in &lk {
        assert!(
            r.measured.l2_local >= lk[0].measured.l2_local - 0.02,
            "lookup on {} cores",
            r.cores
        );
    }

    // The exact model's bounds.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut relaxed = Vec::new();
    for r in &rows {
        let (k, m) = (r.kernel, r.cores);
        assert!(
            (r.exact.l1 - r.measured.l1).abs() <= 0.02,
            "{k} on {m} cores: L1 exact {:.4}, measured {:.4}",
            r.exact.l1,
            r.measured.l1
        );
        // The one exception to the 2 pp bound: threads time-sharing CPUs (more threads than
        // this machine has CPUs). Then the OS decides which thread's part of a pass runs
        // first, and with it which lines are still in the shared L2 (derived in stream.c);
        // no model of one trace can know that order. Measured on 2 CPUs: `stream` local L2
        // from 0 % to 35 % for the same 4-thread run (2.05 pp of global L2 once), `jacobi2d`
        // with 8 threads 0.47 pp in one run and 1.88 pp in the next. There the bound is half
        // the L1 miss rate (a local L2 swing of 50 pp), and the case still counts in the
        // 0.5 pp mean; the cases are counted and printed.
        let bound = if m > cpus {
            relaxed.push((k, m, (r.exact.l2 - r.measured.l2).abs()));
            (0.5 * (1.0 - r.measured.l1)).max(0.02)
        } else {
            0.02
        };
        assert!(
            (r.exact.l2 - r.measured.l2).abs() <= bound,
            "{k} on {m} cores: L2 exact {:.4}, measured {:.4}",
            r.exact.l2,
            r.measured.l2
        );
    }
    eprintln!(
        "{} cases with more threads than the {cpus} CPUs (L2 global bound: half the L1 miss rate); above 2 pp: {:?}",
        relaxed.len(),
        relaxed
            .iter()
            .filter(|x| x.2 > 0.02)
            .map(|x| format!("{} on {}: {:.2} pp", x.0, x.1, 100.0 * x.2))
            .collect::<Vec<_>>()
    );
    assert!(
        exact_l1 <= 0.005,
        "mean L1 error {:.3} pp is above 0.5 pp",
        pp(exact_l1)
    );
    assert!(
        exact_l2 <= 0.005,
        "mean L2 error {:.3} pp is above 0.5 pp",
        pp(exact_l2)
    );
    assert!(
        exact_l2l <= 0.03,
        "mean local L2 error {:.3} pp is above 3 pp",
        pp(exact_l2l)
    );
    // The formula on the kernels it was accepted on.
    let original = &rows[..ORIGINAL * CORES.len()];
    let f1 = mean(original, &|r| (r.formula.l1 - r.measured.l1).abs());
    let f2 = mean(original, &|r| (r.formula.l2 - r.measured.l2).abs());
    assert!(
        f1 <= 0.015 && f2 <= 0.015,
        "formula on the original kernels: {f1} {f2}"
    );
}
