//! Running `rda-report` and reading its JSON reports.

use crate::tools;
use std::process::Command;

/// Runs `rda-report args…`; returns (status ok, stdout, stderr).
pub fn rda_report(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Runs `rda-report args…`, checks it succeeded, and parses its standard output as JSON.
pub fn rda_report_json(args: &[&str]) -> serde_json::Value {
    let (ok, out, err) = rda_report(args);
    assert!(ok, "rda-report {args:?} failed: {err}");
    serde_json::from_str(&out).unwrap()
}

/// The count `v[key]` of a JSON report, or a panic naming the key and the report.
pub fn count(v: &serde_json::Value, key: &str) -> u64 {
    v[key]
        .as_u64()
        .unwrap_or_else(|| panic!("{key} is not a count: {v}"))
}
