//! `rda-report histogram` with every engine and with PARDA-style address files.

use rdtools_e2e::*;

use rdtools_e2e::rda_report_json as histogram_json;

#[test]
fn every_exact_engine_gives_the_same_histogram_on_a_real_trace() {
    let (_dir, tp) = trace_program(
        "basic/omp_reduction.c",
        &["-fopenmp", "-O1", "-DN=20000"],
        &[("OMP_NUM_THREADS", "2")],
    );
    let t = tp.to_str().unwrap();
    let fast = histogram_json(&["histogram", t, "--json", "--per-thread"]);
    for engine in ["olken", "naive"] {
        let other = histogram_json(&["histogram", t, "--json", "--per-thread", "--engine", engine]);
        assert_eq!(other["histogram"], fast["histogram"], "{engine}");
        assert_eq!(other["cold"], fast["cold"], "{engine}");
        assert_eq!(other["exact"], serde_json::Value::Bool(true));
    }
    for chunk in ["1", "7", "1000"] {
        let parda = histogram_json(&[
            "histogram",
            t,
            "--json",
            "--per-thread",
            "--engine",
            "parda",
            "--threads",
            "2",
            "--chunk",
            chunk,
        ]);
        assert_eq!(parda["histogram"], fast["histogram"], "parda chunk {chunk}");
    }
    let hprda = histogram_json(&[
        "histogram",
        t,
        "--json",
        "--per-thread",
        "--engine",
        "hprda",
    ]);
    assert_eq!(hprda["exact"], serde_json::Value::Bool(false));
    assert_eq!(hprda["total"], fast["total"]);
    // Bounded analysis: everything at distance >= B moves to overflow, the rest is unchanged.
    let bounded = histogram_json(&["histogram", t, "--json", "--per-thread", "--bound", "16"]);
    let below: u64 = fast["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p[0].as_u64().unwrap() < 16)
        .map(|p| p[1].as_u64().unwrap())
        .sum();
    let bounded_sum: u64 = bounded["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_u64().unwrap())
        .sum();
    assert_eq!(bounded_sum, below);
    assert_eq!(
        bounded["overflow"].as_u64().unwrap() + below + bounded["cold"].as_u64().unwrap(),
        fast["total"].as_u64().unwrap()
    );
}

#[test]
fn parda_text_and_binary_inputs() {
    let dir = tempfile::tempdir().unwrap();
    // a b c a b c d a: distances by hand (line = 1 byte): a b c cold, a=2, b=2, c=2, d cold, a=3.
    let addrs = [0x10u64, 0x20, 0x30, 0x10, 0x20, 0x30, 0x40, 0x10];
    let text = dir.path().join("a.txt");
    let lines: Vec<String> = addrs.iter().map(|a| format!("{a:x}")).collect();
    std::fs::write(&text, lines.join("\n") + "\n").unwrap();
    let v = histogram_json(&[
        "histogram",
        text.to_str().unwrap(),
        "--input-format",
        "parda-text",
        "--line",
        "1",
        "--json",
    ]);
    assert_eq!(v["cold"].as_u64(), Some(4));
    assert_eq!(v["histogram"], serde_json::json!([[2, 3], [3, 1]]));

    let bin = dir.path().join("a.bin");
    let bytes: Vec<u8> = addrs.iter().flat_map(|a| a.to_le_bytes()).collect();
    std::fs::write(&bin, &bytes).unwrap();
    let w = histogram_json(&[
        "histogram",
        bin.to_str().unwrap(),
        "--input-format",
        "parda-binary",
        "--line",
        "1",
        "--json",
    ]);
    assert_eq!(w["histogram"], v["histogram"]);

    // PARDA's own table layout.
    let (ok, out, _) = rda_report(&[
        "histogram",
        text.to_str().unwrap(),
        "--input-format",
        "parda-text",
        "--line",
        "1",
        "--format",
        "parda",
    ]);
    assert!(ok);
    assert!(
        out.lines().next().unwrap().split_whitespace().eq([
            "Dist",
            "Refs",
            "Refs(%)",
            "Cum_Ref",
            "Cum_Ref(%)"
        ]),
        "{out}"
    );
    assert!(out.contains("#INF"), "{out}");

    // A malformed line is named by its number; a binary file of the wrong length is refused.
    std::fs::write(&text, "10\n20\nzz-not-hex\n").unwrap();
    let (ok, _, err) = rda_report(&[
        "histogram",
        text.to_str().unwrap(),
        "--input-format",
        "parda-text",
    ]);
    assert!(!ok);
    assert!(err.contains("line 3"), "{err}");
    std::fs::write(&bin, &bytes[..13]).unwrap();
    let (ok, _, err) = rda_report(&[
        "histogram",
        bin.to_str().unwrap(),
        "--input-format",
        "parda-binary",
    ]);
    assert!(!ok);
    assert!(err.contains("not a multiple of 8"), "{err}");
    // An unknown engine is a usage error (status 2) that lists the engines.
    let o = std::process::Command::new(&tools().rda_report)
        .args(["histogram", bin.to_str().unwrap(), "--engine", "magic"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("unknown engine") && err.contains("olken"),
        "{err}"
    );
}
