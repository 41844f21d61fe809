//! End to end: the SIMT kernels of `test-programs/simt/` are built with `rdcc`, run to write a
//! trace, and analysed with `rda-report simt --json`; every expected DS-vs-RD histogram below is
//! derived by reasoning about which addresses the threads of each MI touch (see each program's
//! header comment), not copied from output.
//!
//! `rdcc` and `rda-report` are taken from the `target/<profile>/` directory of this test
//! executable; when one is missing it is built there with
//! `cargo build -p rdcc -p rda-report -p rdruntime`.

use rdtools_e2e::tools;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

/// `target/<profile>/`: the parent of the `deps/` directory holding this test executable.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    let deps = exe.parent().expect("deps dir");
    deps.parent().expect("profile dir").to_path_buf()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn check(out: Output, what: &str) -> String {
    rdtools_e2e::success_stdout(out, what)
}

/// Scratch directory for the programs and traces of this test binary.
fn work_dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = profile_dir().join("simt-e2e");
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("scratch dir");
        d
    })
    .clone()
}

/// Builds `test-programs/simt/<program>.c` once, runs it with `args` on `threads` OpenMP
/// threads once per distinct setting, and returns the trace.
fn trace(program: &str, args: &[&str], threads: u32) -> PathBuf {
    static BUILT: Mutex<BTreeMap<String, PathBuf>> = Mutex::new(BTreeMap::new());
    let key = format!("{program}-{}-t{threads}", args.join("_"));
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = built.get(&key) {
        return t.clone();
    }
    let dir = work_dir();
    let exe = dir.join(program);
    if !exe.is_file() {
        let src = repo_root()
            .join("test-programs/simt")
            .join(format!("{program}.c"));
        check(
            Command::new(&tools().rdcc)
                .args(["-fopenmp", "-O1", "-g"])
                .arg(&src)
                .arg("-o")
                .arg(&exe)
                .output()
                .expect("rdcc runs"),
            &format!("rdcc {program}.c"),
        );
    }
    let t = dir.join(format!("{key}.rdtrace"));
    check(
        Command::new(&exe)
            .args(args)
            .env("RDTRACE", &t)
            .env("OMP_NUM_THREADS", threads.to_string())
            .output()
            .expect("program runs"),
        &format!("running {program}"),
    );
    rdtools_e2e::check_invariants(&t);
    built.insert(key, t.clone());
    t
}

fn report(args: &[&str]) -> Output {
    Command::new(&tools().rda_report)
        .arg("simt")
        .args(args)
        .output()
        .expect("rda-report runs")
}

/// `rda-report simt TRACE ARGS --json`.
fn simt(trace: &Path, args: &[&str]) -> Value {
    let mut all = vec![trace.to_str().expect("UTF-8 path")];
    all.extend_from_slice(args);
    all.push("--json");
    let out = check(report(&all), &format!("rda-report simt {all:?}"));
    serde_json::from_str(&out).expect("JSON output")
}

/// The total histogram as `{rd: ds}`.
fn histogram(v: &Value) -> BTreeMap<u64, u64> {
    hist_of(&v["total"])
}

fn hist_of(v: &Value) -> BTreeMap<u64, u64> {
    v["histogram"]
        .as_array()
        .expect("histogram array")
        .iter()
        .map(|e| (e[0].as_u64().unwrap(), e[1].as_u64().unwrap()))
        .collect()
}

fn expect(pairs: &[(u64, u64)]) -> BTreeMap<u64, u64> {
    pairs.iter().copied().filter(|p| p.1 > 0).collect()
}

#[test]
fn vector_add_has_no_reuse_between_mis() {
    let t = trace("vecadd", &[], 1);
    for block in [32u64, 100, 256] {
        let b = block.to_string();
        for scenario in 1..=6 {
            let s = scenario.to_string();
            let mut args = vec!["--block", &b, "--scenario", &s];
            if scenario >= 5 {
                args.extend(["--clusters", "3", "--lsu", "16"]);
            }
            let v = simt(&t, &args);
            assert_eq!(
                v["total"]["total_ds"], 0,
                "block {block} scenario {scenario}"
            );
            let k = &v["kernels"][0];
            // 1024 threads; a[i], b[i] and c[i] are three MIs per block.
            assert_eq!(k["origin"]["threads"], 1024);
            assert_eq!(k["blocks"], 1024u64.div_ceil(block));
            assert_eq!(k["mis"], 3 * 1024u64.div_ceil(block));
            assert_eq!(k["lanes"], 3 * 1024);
        }
    }
}

#[test]
fn vector_add_shares_straddling_lines_between_blocks() {
    // n = 96, blocks of 12 doubles, 64-byte lines of 8 doubles: block 2m covers lines 3m and
    // half of 3m+1, block 2m+1 the other half of 3m+1 and line 3m+2. Each of the three arrays'
    // MIs in block 2m+1 reuses line 3m+1 four times from the same MI of block 2m, 3 MIs back.
    let t = trace("vecadd", &["96"], 1);
    let v = simt(&t, &["--block", "12", "--granularity", "line:64"]);
    assert_eq!(histogram(&v), expect(&[(3, 3 * 4 * 4)]));
    assert_eq!(v["total"]["reusing_pairs"], 12);
    // With 16 threads a block holds whole lines: nothing is shared.
    let v = simt(&t, &["--block", "16", "--granularity", "line:64"]);
    assert_eq!(v["total"]["total_ds"], 0);
}

/// Scenario 1 of the 1-D stencil with `nb` blocks of `t` threads: per block, (L0,L1) and
/// (L1,L2) share t-1 elements at RD 1 and (L0,L2) t-2 at RD 2; between consecutive blocks
/// (four MIs apart) L2→L0' shares 2 at RD 2, L1→L0' and L2→L1' share 1 each at RD 3.
fn stencil1d_serialized(nb: u64, t: u64) -> BTreeMap<u64, u64> {
    expect(&[
        (1, nb * 2 * (t - 1)),
        (2, nb * (t - 2) + (nb - 1) * 2),
        (3, (nb - 1) * 2),
    ])
}

#[test]
fn stencil_1d_neighbouring_mis_share_all_but_one_address() {
    let t = trace("stencil1d", &[], 1);
    for block in [32u64, 64, 128] {
        let nb = 256 / block;
        let b = block.to_string();
        let s1 = simt(&t, &["--block", &b, "--scenario", "1"]);
        assert_eq!(
            histogram(&s1),
            stencil1d_serialized(nb, block),
            "block {block}"
        );
        let s2 = simt(&t, &["--block", &b, "--scenario", "2"]);
        let per_block = expect(&[(1, 2 * (block - 1)), (2, block - 2)]);
        let streams = s2["kernels"][0]["streams"].as_array().unwrap();
        assert_eq!(streams.len() as u64, nb);
        for s in streams {
            assert_eq!(hist_of(s), per_block);
        }
        // Scenario 3: one aggregate block of all 256 threads.
        let s3 = simt(&t, &["--block", &b, "--scenario", "3"]);
        assert_eq!(histogram(&s3), expect(&[(1, 2 * 255), (2, 254)]));
        // Scenario 4 with K = 2 (sequential): aggregate blocks are blocks of 2T.
        let s4 = simt(&t, &["--block", &b, "--scenario", "4", "--k", "2"]);
        assert_eq!(histogram(&s4), stencil1d_serialized(nb / 2, 2 * block));
    }
}

#[test]
fn stencil_1d_round_robin_brings_later_blocks_forward() {
    // Blocks of 64, K = 2, round-robin: aggregate 0 = blocks {0, 2}, aggregate 1 = {1, 3}.
    // Inside an aggregate: (L0,L1), (L1,L2) share 2·63 at RD 1, (L0,L2) 2·62 at RD 2. Across
    // (four MIs apart), block 1 follows block 0 and block 3 follows block 2: L2→L0' shares
    // {64,65,192,193} (RD 2), L1→L0' {64,192} and L2→L1' {65,193} (RD 3); block 2 comes
    // before block 1: L0→L1' {128} and L1→L2' {129} (RD 5), L0→L2' {128,129} (RD 6).
    let t = trace("stencil1d", &[], 1);
    let v = simt(
        &t,
        &[
            "--block",
            "64",
            "--scenario",
            "4",
            "--k",
            "2",
            "--policy",
            "round-robin",
        ],
    );
    assert_eq!(
        histogram(&v),
        expect(&[(1, 504), (2, 2 * 124 + 4), (3, 4), (5, 2), (6, 2)])
    );
    assert_eq!(v["kernels"][0]["scheduler"], "round-robin");
}

#[test]
fn stencil_1d_limited_load_store_units() {
    let t = trace("stencil1d", &[], 1);
    // Scenario 5: 2 clusters (blocks {0,2} and {1,3}), 32 LSUs split each 64-lane MI into
    // halves a, b. Per block: L0b→L1a {32} and L1b→L2a {33} at RD 1; L0a→L1a, L0b→L1b,
    // L1a→L2a, L1b→L2b share 31 at RD 2; L0b→L2a {32,33} at RD 3; L0a→L2a, L0b→L2b 30 at RD 4.
    // A cluster's two blocks are 128 threads apart and share nothing.
    let v = simt(
        &t,
        &[
            "--block",
            "64",
            "--scenario",
            "5",
            "--clusters",
            "2",
            "--lsu",
            "32",
        ],
    );
    assert_eq!(
        histogram(&v),
        expect(&[(1, 4 * 2), (2, 4 * 124), (3, 4 * 2), (4, 4 * 60)])
    );
    let streams = v["kernels"][0]["streams"].as_array().unwrap();
    assert_eq!(streams.len(), 2);
    assert_eq!(streams[0]["mis"], 16);
    // Scenario 6: rounds {0,1} and {2,3} merge into 128-lane MIs, split at 2 × 32 = 64 lanes.
    // Per round (pieces of 64): RD 1: 2, RD 2: 4 · 63, RD 3: 2, RD 4: 2 · 62; between the
    // rounds (eight MIs apart): L2b→L0' {128,129} at RD 3, L1b→L0' {128} and L2b→L1' {129}
    // at RD 5.
    let v = simt(
        &t,
        &[
            "--block",
            "64",
            "--scenario",
            "6",
            "--clusters",
            "2",
            "--lsu",
            "32",
        ],
    );
    assert_eq!(
        histogram(&v),
        expect(&[(1, 4), (2, 504), (3, 4 + 2), (4, 248), (5, 2)])
    );
    assert_eq!(v["kernels"][0]["aggregate_blocks"], 2);
    // With LSUs to spare, scenario 5 on one cluster is scenario 1.
    let v = simt(
        &t,
        &[
            "--block",
            "64",
            "--scenario",
            "5",
            "--clusters",
            "1",
            "--lsu",
            "64",
        ],
    );
    assert_eq!(histogram(&v), stencil1d_serialized(4, 64));
}

#[test]
fn stencil_1d_on_two_openmp_threads_maps_the_same_iterations() {
    // Each OpenMP thread gets half the iterations; numbering from each thread's lower bound
    // puts every iteration at its own GPU thread, so the kernel is the same.
    let one = simt(&trace("stencil1d", &[], 1), &["--block", "64"]);
    let two = simt(&trace("stencil1d", &[], 2), &["--block", "64"]);
    assert_eq!(histogram(&two), stencil1d_serialized(4, 64));
    assert_eq!(two["total"], one["total"]);
    assert_eq!(two["kernels"][0]["origin"]["omp_threads"], 2);
}

#[test]
fn stencil_2d_rows_as_blocks() {
    // W = 32 interior columns, nb = 8 interior rows, one row per block; MIs N, S, W, E, C,
    // store. See test-programs/simt/stencil2d.c.
    let t = trace("stencil2d", &[], 1);
    let (w, nb) = (32u64, 8u64);
    let v = simt(&t, &["--block", "32", "--scenario", "2"]);
    assert_eq!(v["kernels"][0]["origin"]["threads"], 256);
    // Within a row: (W,E) w-2 and (E,C) w-1 at RD 1, (W,C) w-1 at RD 2.
    assert_eq!(
        histogram(&v),
        expect(&[(1, nb * (2 * w - 3)), (2, nb * (w - 1))])
    );
    // Serialized rows (six MIs per block): block i+1's N (row i) meets block i's C (RD 2),
    // E (RD 3) and W (RD 4); block i's S (row i+1) meets block i+1's W (RD 7), E (RD 8) and
    // C (RD 9), and block i+2's N (RD 11).
    let v = simt(&t, &["--block", "32", "--scenario", "1"]);
    assert_eq!(
        histogram(&v),
        expect(&[
            (1, nb * (2 * w - 3)),
            (2, nb * (w - 1) + (nb - 1) * w),
            (3, (nb - 1) * (w - 1)),
            (4, (nb - 1) * (w - 1)),
            (7, (nb - 1) * (w - 1)),
            (8, (nb - 1) * (w - 1)),
            (9, (nb - 1) * w),
            (11, (nb - 2) * w),
        ])
    );
    // All rows in parallel: each MI covers its stencil arm over every row.
    let v = simt(&t, &["--block", "32", "--scenario", "3"]);
    assert_eq!(
        histogram(&v),
        expect(&[
            (
                1,
                (nb - 2) * w + (nb - 1) * (w - 1) + nb * (w - 2) + nb * (w - 1)
            ),
            (2, 2 * (nb - 1) * (w - 1) + nb * (w - 1)),
            (3, (nb - 1) * (w - 1) + (nb - 1) * w),
            (4, (nb - 1) * w),
        ])
    );
}

#[test]
fn gather_reuses_the_index_targets_across_blocks() {
    // 512 threads, idx[i] = i % 16: every block's gather MI touches x[0..16], each T/16 times;
    // gather MIs are three MIs apart per block of distance, so blocks d apart add T at RD 3d.
    let t = trace("gather", &[], 1);
    let v = simt(&t, &["--block", "64"]);
    let nb = 8;
    let want: Vec<(u64, u64)> = (1..nb).map(|d| (3 * d, (nb - d) * 64)).collect();
    assert_eq!(histogram(&v), expect(&want));
    // Scenario 4, K = 2: four aggregate blocks of 128 threads, multiplicity 8.
    let v = simt(&t, &["--block", "64", "--scenario", "4", "--k", "2"]);
    let want: Vec<(u64, u64)> = (1..4).map(|d| (3 * d, (4 - d) * 128)).collect();
    assert_eq!(histogram(&v), expect(&want));
    // Scenario 3: one gather MI, nothing to pair it with.
    let v = simt(&t, &["--block", "64", "--scenario", "3"]);
    assert_eq!(v["total"]["total_ds"], 0);
    // The exported stream shows the multiplicity: 16 distinct addresses, 4 lanes each.
    let out = work_dir().join("gather.txt");
    simt(
        &t,
        &[
            "--block",
            "64",
            "--kernel",
            "0",
            "--export-gpu-text",
            out.to_str().unwrap(),
        ],
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let mis: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.starts_with("0 "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(mis.len(), 3);
    let mut gather = mis[1][5..].to_vec();
    assert_eq!(gather.len(), 64);
    gather.sort();
    gather.dedup();
    assert_eq!(gather.len(), 16);
}

#[test]
fn default_window_keeps_every_pair_within_it() {
    // One thread per block: block i loads idx[i], gathers x[i % 16] and stores y[i], so the
    // stream is 3 MIs per iteration and only gather MIs 16k iterations apart share an address:
    // RD 48k, DS 1, for each of the n - 16k such pairs. 8192 iterations reach RD 48 * 511; the
    // default window (4096 MIs) keeps k up to 85, --max-rd unlimited every k.
    let n = 8192u64;
    let t = trace("gather", &["8192"], 1);
    let pairs =
        |last: u64| -> Vec<(u64, u64)> { (1..=last).map(|k| (48 * k, n - 16 * k)).collect() };
    let v = simt(&t, &["--block", "1"]);
    assert_eq!(histogram(&v), expect(&pairs(85)));
    assert_eq!(v["config"]["max_rd"], 4096);
    let v = simt(&t, &["--block", "1", "--max-rd", "unlimited"]);
    assert_eq!(histogram(&v), expect(&pairs(511)));
    assert_eq!(v["config"]["max_rd"], Value::Null);
    let v = simt(&t, &["--block", "1", "--max-rd", "100"]);
    assert_eq!(histogram(&v), expect(&pairs(2)));
}

#[test]
fn divergent_inner_loops_leave_threads_inactive() {
    let t = trace("divergent", &[], 1);
    let shapes = |args: &[&str]| -> Vec<usize> {
        let out = work_dir().join(format!("divergent-{}.txt", args.join("_")));
        let mut a = args.to_vec();
        a.extend(["--export-gpu-text", out.to_str().unwrap()]);
        let v = simt(&t, &a);
        // Thread i loads a[4i + k]: no element is loaded twice.
        assert_eq!(v["total"]["total_ds"], 0);
        std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("0 "))
            .map(|l| l.split_whitespace().nth(4).unwrap().parse().unwrap())
            .collect()
    };
    // Warps of 32 issue round-robin: loads k = 0, 1, 2 with 24, 16, 8 active threads, then
    // the store with all 32, for each of the two warps.
    assert_eq!(
        shapes(&["--block", "64", "--mi-scope", "warp"]),
        vec![24, 24, 16, 16, 8, 8, 32, 32]
    );
    assert_eq!(shapes(&["--block", "64"]), vec![48, 32, 16, 64]);
}

#[test]
fn gpu_text_input_runs_the_same_analysis() {
    let dir = work_dir();
    let fig4 = dir.join("figure4.txt");
    std::fs::write(
        &fig4,
        "simt-trace 1\nkernel figure4\n\
         0 100 1 1 4 0xA0 0xA0 0xB0 0xC0\n\
         0 101 2 2 4 0xD0 0xE0 0xF0 0x100\n\
         0 102 3 3 5 0xA0 0xA0 0x110 0x120 0x130\n\
         0 103 4 4 4 0x140 0x150 0x160 0x170\n\
         0 104 5 5 4 0x110 0x110 0x120 0x180\n",
    )
    .unwrap();
    let v = simt(&fig4, &["--input-format", "gpu-text", "--scenario", "2"]);
    assert_eq!(histogram(&v), expect(&[(2, 5)]));
    assert_eq!(v["total"]["reusing_pairs"], 2);
    // An exported rdtools kernel read back as GPU text gives the same characteristic.
    let t = trace("stencil1d", &[], 1);
    let exported = dir.join("stencil1d.txt");
    let direct = simt(
        &t,
        &[
            "--block",
            "32",
            "--export-gpu-text",
            exported.to_str().unwrap(),
        ],
    );
    let again = simt(&exported, &["--input-format", "gpu-text"]);
    assert_eq!(again["total"], direct["total"]);
}

#[test]
fn malformed_input_and_misused_flags_fail_clearly() {
    let dir = work_dir();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "simt-trace 1\n0 1 1 1 2 0x10\n").unwrap();
    let out = report(&[bad.to_str().unwrap(), "--input-format", "gpu-text"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.txt:2: thread count 2 does not match the 1 addresses"),
        "{err}"
    );
    let t = trace("vecadd", &[], 1);
    let out = report(&[t.to_str().unwrap(), "--k", "4"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "--k outside scenario 4 is a usage error"
    );
    let out = report(&[t.to_str().unwrap(), "--scenario", "7"]);
    assert_eq!(out.status.code(), Some(2));
    let out = report(&[t.to_str().unwrap(), "--kernel", "3"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has 1 kernel(s)"));
}

#[test]
fn plots_cover_the_full_range_and_the_zooms() {
    let t = trace("stencil2d", &[], 1);
    let svg = work_dir().join("s2d.svg");
    simt(
        &t,
        &[
            "--block",
            "32",
            "--plot",
            svg.to_str().unwrap(),
            "--zoom",
            "20,5",
        ],
    );
    for name in ["s2d.svg", "s2d-rd1-20.svg", "s2d-rd1-5.svg"] {
        let text = std::fs::read_to_string(work_dir().join(name)).unwrap();
        assert!(
            text.starts_with("<svg") && text.contains("<polyline"),
            "{name}"
        );
    }
}
