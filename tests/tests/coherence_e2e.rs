//! End to end for issue 29 points 1, 3 and 5 (L3): write-invalidate coherence between the
//! private caches of `measure`, the 3C + coherence split of every miss count, and a shared L3.
//!
//! The programs in `test-programs/coherence/` derive their expected counts in their header
//! comments. A 2-CPU machine interleaves two threads coarsely when left alone, so the programs
//! force the interleaving that matters (strict turns through a handshake variable, or a barrier
//! per round) and are traced with `RDTRACE_STAMP_EVERY=1`, so that the merge in stamp order puts
//! every block where it ran. The bounds below hold for any merge that respects those turns:
//! - `counters.c` unpadded: the counter update has 2 (ROUNDS − 1) coherence misses, all false
//!   sharing (each thread writes only its own 8 bytes of the shared line); padded: none. The
//!   handshake on `turn` gives true-sharing misses elsewhere in both.
//! - `reduction.c`: the atomic add on one shared `sum` has between ROUNDS − 1 and 2 ROUNDS
//!   coherence misses, all true sharing.
//! - `producer_consumer.c`: the consumer's loads have 64 (ROUNDS − 1) coherence misses (every
//!   line of the buffer, rewritten by the producer each round), all true sharing; the producer's
//!   stores have none.
//! - Everywhere: compulsory + capacity + conflict + coherence = misses, exactly, per level and
//!   per thread, and coherence = true + false sharing.

use rdtools_e2e::{line_of, rda_report, rda_report_json, trace_program};
use serde_json::Value;

const COUNTER_ROUNDS: u64 = 5000;
const REDUCTION_ROUNDS: u64 = 2000;
const PC_ROUNDS: u64 = 100;
const PC_LINES: u64 = 64;

use rdtools_e2e::count as int;

/// Traces `test-programs/coherence/<name>` with two threads and block-level stamps, runs
/// `measure --json` on it (with `extra` flags), and returns the directory and the JSON.
fn measured(name: &str, extra: &[&str]) -> (tempfile::TempDir, Value) {
    let rel = format!("coherence/{name}");
    let (dir, trace) = trace_program(
        &rel,
        &["-fopenmp", "-O2", "-g"],
        &[
            ("OMP_NUM_THREADS", "2"),
            ("OMP_WAIT_POLICY", "passive"),
            ("RDTRACE_STAMP_EVERY", "1"),
        ],
    );
    let t = trace.to_str().unwrap();
    let mut cmd = vec!["measure", t, "--json", "-q"];
    cmd.extend_from_slice(extra);
    let m = rda_report_json(&cmd);
    (dir, m)
}

/// Every level's and thread's four Cs add up to its misses, and coherence splits into true and
/// false sharing.
fn check_sums(m: &Value) {
    let levels = m["levels"].as_array().expect("levels");
    assert!(levels.len() >= 2, "{m}");
    let check = |what: &str, v: &Value, misses: u64| {
        let four =
            int(v, "compulsory") + int(v, "capacity") + int(v, "conflict") + int(v, "coherence");
        assert_eq!(
            four, misses,
            "{what}: the four Cs must add up to the misses: {v}"
        );
        assert_eq!(
            int(v, "coherence"),
            int(v, "true_sharing") + int(v, "false_sharing"),
            "{what}: {v}"
        );
    };
    for l in levels {
        check("level", l, int(l, "accesses") - int(l, "hits"));
    }
    // The shared last level is the point of coherence: never invalidated.
    assert_eq!(int(levels.last().unwrap(), "coherence"), 0, "{m}");
    let per = m["l1_misses_per_thread"].as_array().expect("per thread");
    let l1 = m["l1_per_thread"].as_array().unwrap();
    assert_eq!(per.len(), l1.len());
    let mut total = 0;
    for (k, s) in per.iter().zip(l1) {
        check("thread", k, int(s, "accesses") - int(s, "hits"));
        total += int(k, "coherence");
    }
    assert_eq!(total, int(&levels[0], "coherence"), "{m}");
}

/// The `coherence_sources` entry of `file`'s line that contains `needle` (zeros when absent).
fn at_line(m: &Value, file: &str, needle: &str) -> (u64, u64) {
    let line = line_of(&format!("coherence/{file}"), needle) as u64;
    m["coherence_sources"]
        .as_array()
        .expect("coherence_sources")
        .iter()
        .find(|s| s["file"].as_str().unwrap_or("").ends_with(file) && int(s, "line") == line)
        .map_or((0, 0), |s| {
            (int(s, "true_sharing"), int(s, "false_sharing"))
        })
}

/// Traces `counters.c` with its argument (`padded` or `unpadded`): `trace_program` runs a
/// program without arguments, so this one is built and run by hand.
fn counters(arg: &str) -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdtools_e2e::rdcc(
        &[rdtools_e2e::program("coherence/counters.c")],
        &["-fopenmp", "-O2", "-g"],
        &exe,
    );
    let trace = dir.path().join("prog.rdtrace");
    let out = rdtools_e2e::output_traced(
        std::process::Command::new(&exe)
            .arg(arg)
            .env("OMP_NUM_THREADS", "2")
            .env("OMP_WAIT_POLICY", "passive")
            .env("RDTRACE_STAMP_EVERY", "1"),
        &trace,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains(&format!("counters {COUNTER_ROUNDS} {COUNTER_ROUNDS}")),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let m = rda_report_json(&["measure", trace.to_str().unwrap(), "--json", "-q"]);
    (dir, m)
}

#[test]
fn padding_per_thread_counters_removes_their_false_sharing() {
    let (_d1, unpadded) = counters("unpadded");
    let (_d2, padded) = counters("padded");
    check_sums(&unpadded);
    check_sums(&padded);
    let update = "/* COUNTER UPDATE */";
    let (t, f) = at_line(&unpadded, "counters.c", update);
    // Every update but each thread's first misses, on bytes the other thread did not write.
    let want = 2 * (COUNTER_ROUNDS - 1);
    assert_eq!(t, 0, "no true sharing at the update: {unpadded}");
    assert!(
        f >= want * 95 / 100 && f <= want,
        "unpadded: {f} false-sharing misses at the update, expected about {want}"
    );
    assert_eq!(
        at_line(&padded, "counters.c", update),
        (0, 0),
        "padded: no coherence misses at the update"
    );
    // The handshake on `turn` is true sharing in both runs (about 2 per round).
    for m in [&unpadded, &padded] {
        let turn_true: u64 = m["coherence_sources"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| int(s, "line") != line_of("coherence/counters.c", update) as u64)
            .map(|s| int(s, "true_sharing"))
            .sum();
        assert!(turn_true >= COUNTER_ROUNDS, "{turn_true}: {m}");
    }
    // The L1 rows of the threads agree: each thread of the unpadded run has about ROUNDS
    // false-sharing misses.
    for k in unpadded["l1_misses_per_thread"].as_array().unwrap() {
        assert!(
            int(k, "false_sharing") >= (COUNTER_ROUNDS - 1) * 95 / 100,
            "{k}"
        );
    }
}

#[test]
fn an_atomic_reduction_is_true_sharing() {
    let (_d, m) = measured("reduction.c", &[]);
    check_sums(&m);
    let (t, f) = at_line(&m, "reduction.c", "/* ATOMIC ADD */");
    assert_eq!(f, 0, "the same bytes: no false sharing: {m}");
    assert!(
        (REDUCTION_ROUNDS - 1..=2 * REDUCTION_ROUNDS).contains(&t),
        "{t} true-sharing misses at the atomic add, expected {}..={}",
        REDUCTION_ROUNDS - 1,
        2 * REDUCTION_ROUNDS
    );
    let levels = m["levels"].as_array().unwrap();
    assert_eq!(int(&levels[0], "false_sharing"), 0, "{m}");
}

#[test]
fn a_consumer_misses_every_line_the_producer_rewrote() {
    let (_d, m) = measured("producer_consumer.c", &[]);
    check_sums(&m);
    let want = PC_LINES * (PC_ROUNDS - 1);
    let (t, f) = at_line(&m, "producer_consumer.c", "/* CONSUME */");
    assert_eq!(f, 0, "{m}");
    assert!(
        t >= want * 95 / 100 && t <= want,
        "{t} true-sharing misses at the consumer's loads, expected {want}"
    );
    assert_eq!(
        at_line(&m, "producer_consumer.c", "/* PRODUCE */"),
        (0, 0),
        "the producer's copies are never invalidated"
    );
}

#[test]
fn a_shared_l3_makes_the_l2_private() {
    let (_d, m) = measured(
        "producer_consumer.c",
        &["--l2", "32K:8:64", "--l3", "1M:16:64"],
    );
    check_sums(&m);
    let levels = m["levels"].as_array().unwrap();
    let names: Vec<(&str, &str)> = levels
        .iter()
        .map(|l| (l["level"].as_str().unwrap(), l["sharing"].as_str().unwrap()))
        .collect();
    assert_eq!(
        names,
        [("L1", "private"), ("L2", "private"), ("L3", "shared")]
    );
    // The private L2s are invalidated with the L1s: the consumer's L2 has the same coherence
    // misses as its L1 (the buffer fits both), all served by the L3.
    assert_eq!(
        int(&levels[1], "coherence"),
        int(&levels[0], "coherence"),
        "{m}"
    );
    assert_eq!(m["l3_cache"], "1M:16:64");
    assert!(m["l3"].is_object(), "{m}");
    assert_eq!(
        m["l2_misses_per_thread"].as_array().map(Vec::len),
        m["l1_per_thread"].as_array().map(Vec::len)
    );
    // With --l3, an L2 line size other than the L1's is refused (a usage error).
    let (ok, _, err) = rda_report(&["measure", "-", "--l2", "64K:8:128", "--l3", "1M:16:64"]);
    assert!(!ok && err.contains("line size"), "{err}");
}

#[test]
fn measure_takes_a_real_machines_caches() {
    // Zen 4 has a private 1M L2 and a 32M L3 per CCX: the L2 becomes private and an L3 appears,
    // exactly as with the same three caches given by hand.
    let (_d, by_name) = measured("producer_consumer.c", &["--machine", "zen4"]);
    let (_e, by_hand) = measured(
        "producer_consumer.c",
        &["--l1", "32K:8:64", "--l2", "1M:8:64", "--l3", "32M:16:64"],
    );
    check_sums(&by_name);
    assert_eq!(by_name["l1"], "32K:8:64");
    assert_eq!(by_name["l2_cache"], "1M:8:64");
    assert_eq!(by_name["l3_cache"], "32M:16:64");
    // The two runs trace the program twice, so compare the shape, not the interleaving's counts.
    assert_eq!(by_name["levels"].as_array().map(Vec::len), Some(3));
    assert_eq!(by_hand["levels"].as_array().map(Vec::len), Some(3));
    // The host's caches come from /sys (whatever this machine has), and the run succeeds.
    let (_f, host) = measured("producer_consumer.c", &["--machine", "host"]);
    check_sums(&host);
    // An unknown name is a usage error naming the presets; --machine with --l1 conflicts.
    let (ok, code, err) = rda_report_status(&["measure", "-", "--machine", "no-such-cpu"]);
    assert!(
        !ok && code == Some(2) && err.contains("zen4"),
        "{code:?} {err}"
    );
    let (ok, code, err) =
        rda_report_status(&["measure", "-", "--machine", "zen4", "--l1", "8K:8:64"]);
    assert!(!ok && code == Some(2), "{code:?} {err}");
}

/// Runs rda-report and returns (success, exit code, stderr).
fn rda_report_status(args: &[&str]) -> (bool, Option<i32>, String) {
    let o = std::process::Command::new(&rdtools_e2e::tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}
