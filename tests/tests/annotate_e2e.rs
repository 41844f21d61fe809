//! End to end: `rda-report annotate` on `test-programs/annotate/walks.c`, whose three hot lines
//! (a row-major initialisation, a column walk, a row walk) have exact access, cold, L1 and L2
//! miss counts derived in the program's header comment from the array layout and the default
//! cache geometry.

use rdtools_e2e::{line_of, program, rda_report, rdcc, run_traced};
use serde_json::Value;

const REL: &str = "annotate/walks.c";

fn annotate_json(trace: &std::path::Path, extra: &[&str]) -> Value {
    let mut args = vec!["annotate", trace.to_str().unwrap(), "--json", "--quiet"];
    args.extend_from_slice(extra);
    let (ok, out, err) = rda_report(&args);
    assert!(ok, "annotate failed: {err}");
    serde_json::from_str(&out).unwrap()
}

fn row_of(j: &Value, line: u32) -> &Value {
    j["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["line"] == line && r["file"].as_str().unwrap().ends_with("walks.c"))
        .unwrap_or_else(|| panic!("line {line} not in {j}"))
}

#[test]
fn misses_land_on_the_column_walk_with_exact_counts() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("walks");
    rdcc(&[program(REL)], &["-O1", "-g"], &exe);
    let trace = dir.path().join("walks.rdtrace");
    let out = run_traced(&exe, &trace, &[]);
    assert!(out.status.success());
    let j = annotate_json(&trace, &[]);
    let init = line_of(REL, "/* INIT */");
    let column = line_of(REL, "/* COLUMN */");
    let row = line_of(REL, "/* ROW */");

    // (accesses, cold, L1 misses, L2 misses, median reuse distance), from walks.c's header.
    let expect = [
        (column, 65536, 0, 65536, 65536, 255),
        (init, 65536, 8192, 8192, 8192, 0),
        (row, 65536, 0, 8192, 8192, 0),
    ];
    for (line, acc, cold, l1, l2, p50) in expect {
        let r = row_of(&j, line);
        assert_eq!(r["accesses"], acc, "accesses of line {line}");
        assert_eq!(
            r["references"], acc,
            "one line per 8-byte access, line {line}"
        );
        assert_eq!(r["cold"], cold, "cold of line {line}");
        assert_eq!(r["l1_misses"], l1, "L1 misses of line {line}");
        assert_eq!(r["l2_misses"], l2, "L2 misses of line {line}");
        assert_eq!(
            r["distance_percentiles"][0], p50,
            "median distance of line {line}"
        );
        assert_eq!(r["functions"][0], "main");
    }
    // The column walk is the hottest line: first in the table.
    assert_eq!(j["lines"][0]["line"], column);
    // Only those three lines access memory (printf is not instrumented).
    assert_eq!(j["lines"].as_array().unwrap().len(), 3);
    assert_eq!(j["total"]["l1_misses"], 65536 + 2 * 8192);
    assert_eq!(j["functions"][0]["name"], "main");
    assert_eq!(j["functions"][0]["accesses"], 3 * 65536);

    // A fully associative 512 KiB L2 holds the whole array: the column and row walks now miss
    // the L2 never; only the initialisation's cold misses remain.
    let big = annotate_json(&trace, &["--l2", "512K:full:64"]);
    assert_eq!(row_of(&big, column)["l2_misses"], 0);
    assert_eq!(row_of(&big, row)["l2_misses"], 0);
    assert_eq!(row_of(&big, init)["l2_misses"], 8192);

    // --source-dir prints the hot lines with the counts in the margin.
    let (ok, text, err) = rda_report(&[
        "annotate",
        trace.to_str().unwrap(),
        "--quiet",
        "--source-dir",
        program("annotate").to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let margin = text
        .lines()
        .find(|l| l.contains("/* COLUMN */"))
        .expect("column line annotated");
    let nums: Vec<&str> = margin.split_whitespace().take(4).collect();
    assert_eq!(nums, ["65536", "65536", "65536", ">"], "{margin}");
    // The JSON carries the same excerpt: the three hot lines marked, with their counts.
    let with_source = annotate_json(
        &trace,
        &["--source-dir", program("annotate").to_str().unwrap()],
    );
    let hot: Vec<(u64, Value)> = with_source["source"][0]["runs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap().iter())
        .filter(|l| l["hot"] == true)
        .map(|l| (l["line"].as_u64().unwrap(), l["counts"].clone()))
        .collect();
    assert_eq!(
        hot,
        vec![
            (init as u64, serde_json::json!([65536, 8192, 8192])),
            (column as u64, serde_json::json!([65536, 65536, 65536])),
            (row as u64, serde_json::json!([65536, 8192, 8192])),
        ]
    );
    let csv_ok = rda_report(&["annotate", trace.to_str().unwrap(), "--csv", "--quiet"]);
    assert!(csv_ok.0 && csv_ok.1.starts_with("source line,function,accesses"));
}

#[test]
fn bad_cache_geometry_is_a_usage_error() {
    let o = std::process::Command::new(&rdtools_e2e::tools().rda_report)
        .args(["annotate", "x.rdtrace", "--l1", "3000:8:64"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    // Distances and misses are counted in one line size: differing ones are a usage error too.
    let o = std::process::Command::new(&rdtools_e2e::tools().rda_report)
        .args([
            "annotate",
            "x.rdtrace",
            "--l1",
            "8K:8:32",
            "--l2",
            "128K:16:64",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("same line size"));
}
