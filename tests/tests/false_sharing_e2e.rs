//! End to end for issue 29 point 4 (the false-sharing view of `annotate` and `html`) and point
//! 3 in `annotate` (the 3C + coherence split of its L1 misses).
//!
//! The programs in `test-programs/coherence/` force the interleaving that matters (strict turns
//! through a handshake variable, or a barrier per round) and are traced with
//! `RDTRACE_STAMP_EVERY=1`; their header comments derive what to expect:
//! - `counters.c` unpadded: the counters' line (the 64-byte-aligned `unpadded`) has about
//!   2 (ROUNDS − 1) coherence misses, all false sharing; thread t reads and writes bytes
//!   8t..8t+7, so thread 0 bytes 0-7 and thread 1 bytes 8-15: per-thread 8-byte elements 8 bytes
//!   apart, written by the same instructions, so the fix is padding each element to 64 bytes
//!   (56 bytes of padding). The handshake's `turn` line is true sharing (both threads write its
//!   bytes 0-3): no padding advice. Padded: no line of the counters at all; `turn` stays.
//! - `stats.c`: the same with 16-byte records whose two fields each thread updates: thread 0
//!   bytes 0-15, thread 1 bytes 16-31, pad each element to 64 bytes (48 bytes of padding).
//! - `reduction.c`: the atomic add on `sum` is true sharing of bytes 0-7: no padding advice.
//! - Everywhere: annotate's compulsory + capacity + conflict + coherence = L1 misses exactly,
//!   per source line and in total, and its coherence misses equal `measure`'s on the same trace.

use rdtools_e2e::{line_of, program, rda_report, rda_report_json, rdcc, trace_program};
use serde_json::Value;
use std::path::{Path, PathBuf};

const COUNTER_ROUNDS: u64 = 5000;
const STATS_ROUNDS: u64 = 3000;
const REDUCTION_ROUNDS: u64 = 2000;

use rdtools_e2e::count as int;

/// Builds `coherence/<name>` and runs it with `arg` (if any) on two threads with block-level
/// stamps; returns the directory and the trace.
fn traced(name: &str, arg: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let env = [
        ("OMP_NUM_THREADS", "2"),
        ("OMP_WAIT_POLICY", "passive"),
        ("RDTRACE_STAMP_EVERY", "1"),
    ];
    let rel = format!("coherence/{name}");
    let Some(arg) = arg else {
        return trace_program(&rel, &["-fopenmp", "-O2", "-g"], &env);
    };
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(&[program(&rel)], &["-fopenmp", "-O2", "-g"], &exe);
    let trace = dir.path().join("prog.rdtrace");
    let mut cmd = std::process::Command::new(&exe);
    cmd.arg(arg);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = rdtools_e2e::output_traced(&mut cmd, &trace);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (dir, trace)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `annotate --false-sharing --json`, after checking the 3C split of every row and that the
/// coherence misses equal `measure`'s.
fn view(trace: &Path) -> Value {
    let a = rda_report_json(&[
        "annotate",
        s(trace),
        "--false-sharing",
        "--json",
        "--quiet",
        "--top",
        "0",
    ]);
    let split = |what: &str, r: &Value| {
        let k = &r["l1_miss_kinds"];
        assert_eq!(
            int(k, "compulsory") + int(k, "capacity") + int(k, "conflict") + int(k, "coherence"),
            int(r, "l1_misses"),
            "{what}: the four Cs must add up to the L1 misses: {r}"
        );
        assert_eq!(
            int(k, "coherence"),
            int(k, "true_sharing") + int(k, "false_sharing"),
            "{what}: {r}"
        );
    };
    split("total", &a["total"]);
    for r in a["lines"].as_array().unwrap() {
        split("line", r);
    }
    for r in a["functions"].as_array().unwrap() {
        split("function", r);
    }
    // The same simulation as measure's (private L1s, write-invalidate, the same defaults).
    let m = rda_report_json(&["measure", s(trace), "--json", "-q"]);
    let l1 = &m["levels"][0];
    let k = &a["total"]["l1_miss_kinds"];
    for key in [
        "compulsory",
        "capacity",
        "conflict",
        "coherence",
        "true_sharing",
    ] {
        assert_eq!(
            int(k, key),
            int(l1, key),
            "{key}: annotate {k} vs measure {l1}"
        );
    }
    // Every coherence miss is on a recorded cache line (nothing dropped at this size), and the
    // source lines hold them all.
    let fs = &a["false_sharing"];
    assert_eq!(int(fs, "dropped_misses"), 0);
    assert_eq!(int(fs, "coherence"), int(k, "coherence"));
    let lines_sum: u64 = fs["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| int(l, "coherence"))
        .sum();
    assert_eq!(lines_sum, int(k, "coherence"));
    let sources_sum: u64 = fs["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| int(l, "coherence"))
        .sum();
    assert_eq!(sources_sum, int(k, "coherence"));
    a
}

/// The recorded cache lines that the source line of `file` containing `needle` touched.
fn lines_touched_at<'a>(a: &'a Value, file: &str, needle: &str) -> Vec<&'a Value> {
    let line = line_of(&format!("coherence/{file}"), needle) as u64;
    a["false_sharing"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| {
            l["sources"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["file"].as_str().unwrap().ends_with(file) && int(s, "line") == line)
        })
        .collect()
}

/// Each thread's (written, read) byte ranges of a cache line, by thread.
fn bytes_of(l: &Value) -> Vec<(u64, Value, Value)> {
    l["threads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (int(t, "thread"), t["written"].clone(), t["read"].clone()))
        .collect()
}

/// The false-sharing verdict of per-thread elements: (slot, stride, line, pad).
fn pad_elements(l: &Value) -> (u64, u64, u64, u64) {
    let v = &l["verdict"];
    assert_eq!(v["kind"], "false_sharing", "{l}");
    let p = &v["padding"];
    assert_eq!(p["kind"], "pad_elements", "{l}");
    (
        int(p, "slot"),
        int(p, "stride"),
        int(p, "line"),
        int(p, "pad"),
    )
}

/// Checks per-thread elements of `slot` bytes on one line, thread t writing bytes slot·t ..
/// slot·t + slot − 1 and reading them (the main thread, thread 0, also reads the other's element
/// when it prints the results), about `want` false-sharing misses, and the fix.
fn check_elements(a: &Value, file: &str, needle: &str, slot: u64, want: u64) {
    let lines = lines_touched_at(a, file, needle);
    assert_eq!(lines.len(), 1, "one cache line at {needle}: {a}");
    let l = lines[0];
    assert_eq!(int(l, "true_sharing"), 0, "{l}");
    let f = int(l, "false_sharing");
    // One more than the updates' misses: the final printf's read of thread 0's element after
    // thread 1's last store to its own.
    assert!(
        f >= want * 95 / 100 && f <= want + 1,
        "{f} false-sharing misses, expected about {want}: {l}"
    );
    let mut threads = bytes_of(l);
    // Thread numbers are the trace's: sort by the bytes, then the slots are in thread order.
    threads.sort_by_key(|(_, w, _)| w[0][0].as_u64());
    assert_eq!(threads.len(), 2, "{l}");
    for (i, (_, written, read)) in threads.iter().enumerate() {
        let (first, last) = (slot * i as u64, slot * i as u64 + slot - 1);
        assert_eq!(written, &serde_json::json!([[first, last]]), "{l}");
        let covers = read
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r[0].as_u64().unwrap() <= first && r[1].as_u64().unwrap() >= last);
        assert!(covers, "thread {i} reads its own element: {l}");
    }
    assert_ne!(threads[0].0, threads[1].0);
    assert_eq!(pad_elements(l), (slot, slot, 64, 64 - slot));
    // The line's address is the 64-byte-aligned array's.
    assert_eq!(int(l, "address") % 64, 0);
}

/// The `turn` handshake's line: both threads read and write its bytes 0-3: true sharing.
fn check_turn(a: &Value, file: &str) {
    let turn = a["false_sharing"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["verdict"]["kind"] == "true_sharing")
        .unwrap_or_else(|| panic!("no true-sharing line in {file}: {a}"));
    assert_eq!(turn["verdict"]["shared"], serde_json::json!([[0, 3]]));
    assert_eq!(int(turn, "false_sharing"), 0);
}

#[test]
fn unpadded_counters_are_false_sharing_fixed_by_padding_each_to_64_bytes() {
    let (_d, trace) = traced("counters.c", Some("unpadded"));
    let a = view(&trace);
    check_elements(
        &a,
        "counters.c",
        "/* COUNTER UPDATE */",
        8,
        2 * (COUNTER_ROUNDS - 1),
    );
    check_turn(&a, "counters.c");
    // The source-line view: the update line, false sharing, invalidated by its own writes in
    // the other thread.
    let update = line_of("coherence/counters.c", "/* COUNTER UPDATE */") as u64;
    let src = a["false_sharing"]["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| int(s, "line") == update)
        .expect("the update line has coherence misses");
    assert_eq!(int(src, "true_sharing"), 0);
    assert_eq!(int(src, "cache_lines"), 1);
    assert!(src["written_by"].as_array().unwrap().iter().any(|w| w
        .as_str()
        .unwrap()
        .ends_with(&format!("counters.c:{update}"))));

    // The text view names the line, the bytes and the fix.
    let (ok, text, err) = rda_report(&["annotate", s(&trace), "--false-sharing", "--quiet"]);
    assert!(ok, "{err}");
    let l = &lines_touched_at(&a, "counters.c", "/* COUNTER UPDATE */")[0];
    assert!(
        text.contains(&format!("{:#x}", int(l, "address"))),
        "{text}"
    );
    for needle in [
        "false sharing: each thread writes its own 8-byte element",
        "pad each per-thread element to the line size (64 B)",
        "`char pad[56]`",
        "0-7",
        "8-15",
        "padding will not help",
        &format!("counters.c:{update}"),
    ] {
        assert!(text.contains(needle), "text view lacks {needle:?}:\n{text}");
    }
    // The plain table carries the split.
    let (ok, table, _) = rda_report(&["annotate", s(&trace), "--quiet"]);
    assert!(ok && table.contains("compulsory") && table.contains("coherence"));
}

#[test]
fn padded_counters_leave_only_the_handshake() {
    let (_d, trace) = traced("counters.c", Some("padded"));
    let a = view(&trace);
    assert!(
        lines_touched_at(&a, "counters.c", "/* COUNTER UPDATE */").is_empty(),
        "no cache line of the counters: {a}"
    );
    assert!(
        !a["false_sharing"]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["verdict"]["kind"] == "false_sharing"),
        "{a}"
    );
    check_turn(&a, "counters.c");
}

#[test]
fn unpadded_stats_records_pad_to_64_bytes_and_padded_ones_do_not_share() {
    let (_d, trace) = traced("stats.c", Some("unpadded"));
    let a = view(&trace);
    check_elements(
        &a,
        "stats.c",
        "/* COUNT UPDATE */",
        16,
        2 * (STATS_ROUNDS - 1),
    );
    let (_e, trace) = traced("stats.c", Some("padded"));
    let a = view(&trace);
    assert!(lines_touched_at(&a, "stats.c", "/* COUNT UPDATE */").is_empty());
    assert!(lines_touched_at(&a, "stats.c", "/* SUM UPDATE */").is_empty());
}

#[test]
fn a_reduction_is_true_sharing_without_padding_advice() {
    let (_d, trace) = traced("reduction.c", None);
    let a = view(&trace);
    let lines = lines_touched_at(&a, "reduction.c", "/* ATOMIC ADD */");
    assert_eq!(lines.len(), 1, "{a}");
    let l = lines[0];
    assert_eq!(l["verdict"]["kind"], "true_sharing", "{l}");
    assert_eq!(l["verdict"]["shared"], serde_json::json!([[0, 7]]));
    assert_eq!(int(l, "false_sharing"), 0);
    assert!(int(l, "true_sharing") >= REDUCTION_ROUNDS - 1, "{l}");
    let (ok, text, err) = rda_report(&[
        "annotate",
        s(&trace),
        "--false-sharing",
        "--quiet",
        "--false-sharing-top",
        "1",
    ]);
    assert!(ok, "{err}");
    assert!(text.contains("padding will not help"), "{text}");
    assert!(!text.contains("pad each"), "{text}");
}

#[test]
fn the_html_report_has_a_false_sharing_section() {
    let (d, trace) = traced("counters.c", Some("unpadded"));
    let page = d.path().join("report.html");
    let (ok, _, err) = rda_report(&["html", s(&trace), "-o", s(&page), "--no-paths", "--quiet"]);
    assert!(ok, "{err}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<section id=\"false-sharing\""), "no section");
    for needle in [
        "False sharing",
        "pad each per-thread element to the line size (64 B)",
        "padding will not help",
        "Source lines with coherence misses",
        "compulsory",
    ] {
        assert!(html.contains(needle), "page lacks {needle:?}");
    }
    // Headless Chromium renders it (when installed): the script marks the section rendered.
    let Ok(out) = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--dump-dom",
        ])
        .arg(format!(
            "--user-data-dir={}",
            d.path().join("profile").display()
        ))
        .arg(format!("file://{}", page.display()))
        .output()
    else {
        panic!("chromium runs (Debian package `chromium`, installed by scripts/setup.sh)");
    };
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("<section id=\"false-sharing\" data-section=\"\" data-rendered=\"1\">"),
        "section not rendered: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        dom.contains("<pre id=\"js-errors\"></pre>"),
        "script errors"
    );

    // One thread: no section.
    let (d1, t1) = trace_program("annotate/walks.c", &["-O1", "-g"], &[]);
    let page1 = d1.path().join("one.html");
    let (ok, _, err) = rda_report(&["html", s(&t1), "-o", s(&page1), "--no-paths", "--quiet"]);
    assert!(ok, "{err}");
    assert!(!std::fs::read_to_string(&page1)
        .unwrap()
        .contains("id=\"false-sharing\""));
}
