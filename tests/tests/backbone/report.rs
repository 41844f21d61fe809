//! The report commands: tables, JSON and plots.

use super::*;

#[test]
fn report_commands_print_tables_json_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("red");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-fopenmp", "-O1", "-g", "-DN=4000"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("OMP_NUM_THREADS", "2")])
        .status
        .success());
    let t = tp.to_str().unwrap();

    let (ok, json, err) = rda_report(&["info", t, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["threads"].as_array().unwrap().len(), 2);
    assert_eq!(v["static_counts"]["regions"].as_u64(), Some(1));
    assert_eq!(v["events"]["region_enters"].as_u64(), Some(2));
    assert_eq!(v["events"]["forks"].as_u64(), Some(1));

    // Dump shows events with file:line locations.
    let (ok, text, err) = rda_report(&["dump", t, "--limit", "50", "--no-stamps"]);
    assert!(ok, "{err}");
    assert!(text.contains("omp_reduction.c:"), "{text}");
    assert_eq!(text.lines().count(), 50 + 2, "header, rule and 50 events");
    let (ok, text, err) = rda_report(&["dump", t, "--limit", "1000000", "--no-stamps"]);
    assert!(ok, "{err}");
    assert!(text.contains("region enter 0 as omp thread 1/2"), "{text}");

    // Per-thread histograms sum to the whole, and the plot is an SVG with one bar per bin.
    let svg = dir.path().join("h.svg");
    let (ok, json, err) = rda_report(&[
        "histogram",
        t,
        "--per-thread",
        "--json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let threads = v["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    let sum: u64 = threads.iter().map(|t| t["total"].as_u64().unwrap()).sum();
    assert_eq!(v["total"].as_u64(), Some(sum));
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("<rect"));
    let bins = v["log2"].as_array().unwrap().len();
    assert_eq!(
        plot.matches("<rect x=").count(),
        bins + 1,
        "one bar per log2 bin plus cold"
    );

    // CSV has a header row and the same bins.
    let (ok, csv, _) = rda_report(&["histogram", t, "--csv"]);
    assert!(ok);
    assert!(
        csv.starts_with("distance,references,%,cumulative %"),
        "{csv}"
    );
}
