//! End to end: the path-based reuse analysis on C programs built with `rdcc`.
//!
//! * `figure2_*`: the program of the paper's Figure 2 (`test-programs/paths/fig2.c`). The load
//!   `A[i]` of loop 3 has a spatial and a temporal pattern; the test derives, from the program
//!   and the squash rule, the exact branch histories of both, and checks that paths of at least
//!   l + 1 bits separate the patterns while shorter ones do not (and that the shorter ones fail
//!   because of history aliasing).
//! * `prediction_*`: `test-programs/paths/sized.c` at three sizes through `paths-predict`, with
//!   coverage and accuracy bounds, and a control run with a wrong validation size.
//! * `path_limit_*`: `test-programs/paths/branchy.c` under `--max-paths`.
//!
//! The tools are taken from the `target/<profile>/` directory this test binary lives in and are
//! built with cargo first when missing.

use rdtools_e2e::tools;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn program(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../test-programs/paths")
        .join(name)
}

/// Compiles `src` with `rdcc -O1 -g extra…`, runs it with a trace, returns the trace path.
fn build_and_trace(dir: &Path, src: &Path, exe: &str, extra: &[&str]) -> PathBuf {
    let rdcc = &tools().rdcc;
    let bin = dir.join(exe);
    let out = Command::new(rdcc)
        .args(["-O1", "-g"])
        .args(extra)
        .arg(src)
        .arg("-o")
        .arg(&bin)
        .output()
        .expect("running rdcc");
    assert!(
        out.status.success(),
        "rdcc failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace = dir.join(format!("{exe}.rdtrace"));
    let out = rdtools_e2e::output_traced(&mut Command::new(&bin), &trace);
    assert!(
        out.status.success(),
        "{exe} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    trace
}

fn report_json(args: &[&str]) -> Value {
    let report = &tools().rda_report;
    let out = Command::new(report)
        .args(args)
        .args(["--json", "-q"])
        .output()
        .expect("running rda-report");
    assert!(
        out.status.success(),
        "rda-report {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("rda-report prints JSON")
}

/// 1-based line of the first line of `src` after the one containing `marker`.
fn line_after(src: &Path, marker: &str) -> u32 {
    let text = std::fs::read_to_string(src).expect("reading the C source");
    let at = text
        .lines()
        .position(|l| l.contains(marker))
        .expect("marker in source");
    at as u32 + 2
}

/// The load instruction whose source line is `line`.
fn load_at_line(report: &Value, line: u32) -> &Value {
    let suffix = format!(":{line}:");
    let found: Vec<&Value> = report["instructions"]
        .as_array()
        .expect("instructions")
        .iter()
        .filter(|i| {
            i["kind"] == "load" && i["location"].as_str().is_some_and(|l| l.contains(&suffix))
        })
        .collect();
    assert_eq!(found.len(), 1, "exactly one load on line {line}: {found:?}");
    found[0]
}

fn history(ins: &Value, n: u64) -> &Value {
    ins["histories"]
        .as_array()
        .expect("histories")
        .iter()
        .find(|h| h["n"] == n)
        .expect("history length analysed")
}

/// Figure 2 with N = 4096 elements of 32 bytes, 64-byte lines, so l = 64 / 32 = 2.
///
/// Reuse distances of the loop-3 load `A[i]` (the only data are A's N/2 = 2048 lines; the
/// repetition count lives in a stack slot touched only before the loop):
/// * even i starts a line whose previous access was in loop 1 or 2 of the same repetition,
///   with all 2047 other lines of A in between: distance 2047 (long, temporal);
/// * odd i touches the line the previous iteration brought: distance 0 (short, spatial).
///
/// So the instruction has exactly two patterns, {0} and {2047}, of 2048 references each.
///
/// Branch history (clang -O1; loops are rotated, so each iteration ends with a conditional latch
/// whose back-edge outcome is 1 and whose exit outcome is 0). The only branches are:
/// the outer loop's entry guard `reps > 0` (taken into the loop: outcome 0), the if on `r & 1`
/// (clang tests `r & 1 == 0` and branches to the else arm on outcome 0: r = 0 pushes 0, r = 1
/// pushes 1), and the latches of the outer loop and loops 1–3. Loops 1–3 are squashed at exit;
/// inside loop 3 the bits of at most l = 2 iterations live (squashed every 2 back-edges, in step
/// with the 2-element lines because A is 64-byte aligned). The outer loop (squash period 8, its
/// own blocks access nothing) is not squashed within its two iterations. Stacks, oldest bit
/// first, at the loop-3 load:
///
/// ```text
///   r = 0, even i (long):  0 0          guard, if(else)
///   r = 0, odd i  (short): 0 0 1        … + one loop-3 latch
///   r = 1, even i (long):  0 0 1 1      guard, if(else), outer latch, if(then)
///   r = 1, odd i  (short): 0 0 1 1 1    … + one loop-3 latch
/// ```
///
/// With n bits (the top n; a shallower stack is its own path):
/// * n = 1: long r=1 "1" = short "1" — not separated;
/// * n = 2: long r=1 "11" = short r=1 "11" — not separated;
/// * n = 3: ".00", "001", "011", "111" are all different — separated, and longer histories
///   only add bits, so every n ≥ 3 = l + 1 separates.
///
/// This is the paper's "l + 1 bits are enough": l bits to see where in the line the access is,
/// one more to see past the bits that only look like loop-3 iterations (the then-arm's 1 and the
/// outer latch's 1 right before loop 3 mimic two loop-3 latches). The failures at n = 1, 2 are
/// history aliasing: the equal bits come from different branches (the if and outer latch versus
/// loop 3's latch), so the exact windows of the same length do separate the patterns.
#[test]
fn figure2_patterns_separate_with_l_plus_one_bits() {
    let dir = tempfile::tempdir().unwrap();
    let src = program("fig2.c");
    let trace = build_and_trace(dir.path(), &src, "fig2", &[]);
    let t = trace.to_str().unwrap();
    let svg = dir.path().join("plot.svg");
    let report = report_json(&["paths", t, "--history", "1,2,3,4,8,16,32"]);
    let loop3 = line_after(&src, "/* loop 3 */");
    let ins = load_at_line(&report, loop3);
    assert_eq!(
        ins["references"],
        4096 * 2,
        "two sweeps of N = 4096 elements"
    );
    assert_eq!(ins["cold"], 0, "loop 1 or 2 touched every line first");

    let patterns = ins["patterns"].as_array().unwrap();
    let spans: Vec<(u64, u64, u64)> = patterns
        .iter()
        .map(|p| {
            (
                p["min"].as_u64().unwrap(),
                p["max"].as_u64().unwrap(),
                p["count"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        spans,
        vec![(0, 0, 4096), (2047, 2047, 4096)],
        "a spatial and a temporal pattern"
    );

    for n in [1, 2] {
        let h = history(ins, n);
        assert_eq!(
            h["differentiable"], false,
            "{n} bits must not separate the patterns"
        );
        assert_eq!(
            h["aliased"], true,
            "{n} bits fail because of history aliasing"
        );
        assert_eq!(
            h["mixes_short_long"], true,
            "the shared path mixes 0 and 2047 (≥ 1K)"
        );
    }
    for n in [3, 4, 8, 16, 32] {
        assert_eq!(
            history(ins, n)["differentiable"],
            true,
            "{n} ≥ l + 1 bits must separate the patterns"
        );
    }

    // The four 3-bit paths of the derivation (bits: most recent in bit 0).
    let mut paths: Vec<(u64, u64, u64, u64)> = history(ins, 3)["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let pat = &p["patterns"][0];
            (
                p["key"]["bits"].as_u64().unwrap(),
                p["key"]["depth"].as_u64().unwrap(),
                pat["min"].as_u64().unwrap(),
                p["references"].as_u64().unwrap(),
            )
        })
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        vec![
            (0b000, 2, 2047, 2048), // "00":  r = 0, even i
            (0b001, 3, 0, 2048),    // "001": r = 0, odd i
            (0b011, 3, 2047, 2048), // "011": r = 1, even i
            (0b111, 3, 0, 2048),    // "111": r = 1, odd i
        ]
    );

    // The per-instruction plot by path, at the shortest separating history (3 bits).
    let mi = ins["mi"].as_u64().unwrap().to_string();
    let rda = &tools().rda_report;
    let st = Command::new(rda)
        .args([
            "paths",
            t,
            "-q",
            "--history",
            "1,2,3,4",
            "--instr",
            &mi,
            "--plot",
        ])
        .arg(&svg)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(st.success());
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.starts_with("<svg") && text.contains("3-bit path") && text.contains("011"),
        "plot by 3-bit path"
    );
}

/// `sized.c` at N = 2048 and 4096 (training) predicts N = 16384 (validation).
///
/// Why prediction should work: the set of paths is the same at every size (the branch pattern
/// of loop 1 repeats every lcm(3, 8) = 24 iterations, and the squash period 8 bounds the loop
/// bits), spatial distances are constants, and temporal ones grow linearly with N (each line's
/// previous access is one sweep of A and B ago). The only size-dependent irregularities are the
/// edges of the sweeps, so we ask for ≥ 85 % coverage and ≥ 90 % accuracy at every history
/// length, and 100 % for the instruction-based row where no path can be missing.
///
/// Control: telling the predictor the validation size is 8192 when it is 16384 must break the
/// predictions of the size-dependent (long) patterns.
#[test]
fn prediction_across_three_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let src = program("sized.c");
    let traces: Vec<String> = [2048, 4096, 16384]
        .iter()
        .map(|n| {
            let t = build_and_trace(
                dir.path(),
                &src,
                &format!("sized{n}"),
                &[&format!("-DN={n}")],
            );
            t.to_str().unwrap().to_string()
        })
        .collect();
    let arg = |i: usize, size: u32| format!("{}:{size}", traces[i]);
    let report = report_json(&[
        "paths-predict",
        "--train",
        &arg(0, 2048),
        "--train",
        &arg(1, 4096),
        "--validate",
        &arg(2, 16384),
    ]);
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 7, "inst and six history lengths");
    for r in rows {
        let n = r["history"].as_u64().unwrap();
        let coverage = r["coverage_pct"].as_f64().unwrap();
        let accuracy = r["accuracy_pct"].as_f64().unwrap();
        assert!(coverage >= 85.0, "path{n}: coverage {coverage:.1} % < 85 %");
        assert!(accuracy >= 90.0, "path{n}: accuracy {accuracy:.1} % < 90 %");
        assert!(r["validation_keys"].as_u64().unwrap() > 0);
    }
    assert_eq!(rows[0]["history"], 0);
    assert_eq!(rows[0]["coverage_pct"].as_f64().unwrap(), 100.0);
    assert_eq!(rows[0]["accuracy_pct"].as_f64().unwrap(), 100.0);
    assert!(
        rows[0]["models"]["linear"].as_u64().unwrap_or(0) > 0,
        "long patterns fitted as linear"
    );

    let wrong = report_json(&[
        "paths-predict",
        "--train",
        &arg(0, 2048),
        "--train",
        &arg(1, 4096),
        "--validate",
        &arg(2, 8192),
    ]);
    let inst = &wrong["rows"][0];
    assert!(
        inst["accuracy_pct"].as_f64().unwrap() < 60.0,
        "a wrong size must mispredict: {inst}"
    );
}

/// `--max-paths` on branchy code (`test-programs/paths/branchy.c`: four data-dependent branches
/// per iteration, loop bits kept with `--squash 1000`, so nearly every 32-bit history is new):
/// past the limit, histories keep only their most recent branches. Every length whose
/// references all stay on known paths reports what the exact analysis reports; the longer
/// ones give the share of references beyond the limit, in the JSON and in a table column. The
/// default limit is far above this run's paths: the same report as `unlimited`.
#[test]
fn path_limit_keeps_short_histories_exact() {
    let dir = tempfile::tempdir().unwrap();
    let src = program("branchy.c");
    let trace = build_and_trace(dir.path(), &src, "branchy", &[]);
    let t = trace.to_str().unwrap();
    let run = |limit: &str| report_json(&["paths", t, "--squash", "1000", "--max-paths", limit]);
    let exact = run("unlimited");
    assert_eq!(exact["path_limit"], Value::Null);
    assert_eq!(exact["shortened_records"], 0);
    let summary = |r: &Value| r["summary"].as_array().unwrap().clone();
    assert!(summary(&exact).iter().all(|s| s["unclassified"] == 0));
    assert!(
        exact["multi_pattern"].as_u64().unwrap() >= 1,
        "the volatile stores have several distances"
    );

    let limited = run("200");
    assert_eq!(limited["path_limit"], 200);
    assert!(limited["shortened_records"].as_u64().unwrap() > 0);
    let (ls, es) = (summary(&limited), summary(&exact));
    let path32 = ls.iter().find(|s| s["n"] == 32).unwrap();
    assert!(
        path32["unclassified_pct"].as_f64().unwrap() > 50.0,
        "most 32-bit histories are beyond 200 paths: {path32}"
    );
    // The paper's aliasing figure rests on the 16-bit verdicts: exact only when path16 is.
    let path16_exact = ls.iter().any(|s| s["n"] == 16 && s["unclassified"] == 0);
    let mut exact_lengths = 0;
    for (l, e) in ls.iter().zip(&es) {
        if l["unclassified"] == 0 {
            let (mut l, mut e) = (l.clone(), e.clone());
            if !path16_exact {
                for s in [&mut l, &mut e] {
                    s["aliased_paper"] = Value::Null;
                    s["aliased_paper_pct"] = Value::Null;
                }
            }
            assert_eq!(
                l, e,
                "a length without references beyond the limit is exact"
            );
            exact_lengths += 1;
        }
    }
    assert!(exact_lengths >= 2, "path1 and path2 stay exact: {ls:?}");
    // The instruction-level view never depends on the limit.
    let view = |r: &Value| -> Vec<(Value, Value, Value)> {
        r["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["mi"].clone(),
                    i["references"].clone(),
                    i["patterns"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(view(&limited), view(&exact));

    // The default limit: the exact report, but for the limit it names.
    let mut default = report_json(&["paths", t, "--squash", "1000"]);
    assert_eq!(default["path_limit"], 524288);
    default["path_limit"] = Value::Null;
    assert_eq!(default, exact);

    // The table says it too.
    let out = Command::new(&tools().rda_report)
        .args(["paths", t, "-q", "--squash", "1000", "--max-paths", "200"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("beyond --max-paths %") && text.contains("paths kept shorter"));
}
