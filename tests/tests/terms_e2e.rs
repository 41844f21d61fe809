//! End to end: terms are defined where they are shown (`--help` of `paths`, `paths-predict` and
//! `simt`), `--explain-paths` names the branch behind each history bit, and `simt --warp`
//! without `--mi-scope warp` warns that it changes nothing.

use rdtools_e2e::{line_of, program, rda_report, rdcc, run_traced};
use serde_json::Value;

fn help(cmd: &str) -> String {
    let (ok, out, err) = rda_report(&[cmd, "--help"]);
    assert!(ok, "{err}");
    out
}

#[test]
fn help_defines_the_terms() {
    let paths = help("paths");
    for term in [
        "pattern:",
        "differentiable:",
        "aliasing (exact windows):",
        "aliasing % (paper):",
        "short+long:",
        "paths (column):",
        "beyond --max-paths:",
        "path string:",
        "`.` marks",
        "--min-frequency",
        "--drop-below",
        "--explain-paths",
    ] {
        assert!(paths.contains(term), "paths --help lacks {term:?}");
    }
    let predict = help("paths-predict");
    for term in ["coverage:", "accuracy:", "missing:", "SIZE:"] {
        assert!(
            predict.contains(term),
            "paths-predict --help lacks {term:?}"
        );
    }
    let simt = help("simt");
    for term in [
        "MI:",
        "multiplicity:",
        "DS:",
        "RD:",
        "reusing pairs:",
        "peak:",
    ] {
        assert!(simt.contains(term), "simt --help lacks {term:?}");
    }
}

/// Figure 2's loop-3 load (`test-programs/paths/fig2.c`, derivation in `paths_e2e.rs`): with one
/// history bit, path `1` is reached from two different branches — odd i from loop 3's latch
/// (back edge taken: 2 repetitions × 2048 odd i = 4096 references), even i of repetition 1 from
/// the `if (r & 1)` taking its then arm (2048) — which is the history aliasing; path `0` only
/// from the `if` taking the else arm (repetition 0, 2048 even i).
#[test]
fn explain_paths_names_the_branch_of_each_bit() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("fig2");
    rdcc(&[program("paths/fig2.c")], &["-O1", "-g"], &exe);
    let trace = dir.path().join("fig2.rdtrace");
    assert!(run_traced(&exe, &trace, &[]).status.success());
    let if_line = line_of("paths/fig2.c", "if (r & 1)");
    let latch_line = line_of("paths/fig2.c", "/* loop 3 */");
    let load_line = line_of("paths/fig2.c", "sum += A[i]");
    let (ok, out, err) = rda_report(&[
        "paths",
        trace.to_str().unwrap(),
        "--history",
        "1",
        "--explain-paths",
        "--json",
        "--quiet",
    ]);
    assert!(ok, "{err}");
    let j: Value = serde_json::from_str(&out).unwrap();
    let load = j["instructions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| {
            i["location"]
                .as_str()
                .unwrap()
                .contains(&format!("fig2.c:{load_line}:"))
                && i["kind"] == "load"
        })
        .expect("the loop-3 load");
    let explained = load["explained_paths"].as_array().unwrap();
    let path = |p: &str| {
        explained
            .iter()
            .find(|e| e["path"] == p)
            .unwrap_or_else(|| panic!("path {p} in {explained:?}"))["branches"]
            .clone()
    };
    assert_eq!(
        path("1"),
        serde_json::json!([
            [format!("1@fig2.c:{latch_line}"), 4096],
            [format!("1@fig2.c:{if_line}"), 2048]
        ])
    );
    assert_eq!(
        path("0"),
        serde_json::json!([[format!("0@fig2.c:{if_line}"), 2048]])
    );
    // The text form prints the same under each path.
    let (_, text, _) = rda_report(&[
        "paths",
        trace.to_str().unwrap(),
        "--history",
        "1",
        "--explain-paths",
        "--quiet",
    ]);
    assert!(text.contains(&format!("= 1@fig2.c:{latch_line}")));

    // --warp alone changes nothing and says so; with --mi-scope warp it is silent.
    let (_, _, err) = rda_report(&["simt", trace.to_str().unwrap(), "--warp", "16", "--quiet"]);
    assert!(
        err.contains("--warp has no effect without --mi-scope warp"),
        "{err}"
    );
    let (_, _, err) = rda_report(&[
        "simt",
        trace.to_str().unwrap(),
        "--warp",
        "16",
        "--mi-scope",
        "warp",
        "--quiet",
    ]);
    assert!(!err.contains("--warp has no effect"), "{err}");
}
