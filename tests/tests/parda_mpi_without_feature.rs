//! Without the `mpi` feature, `--engine parda-mpi` is a usage error that names the feature.

#![cfg(not(feature = "mpi"))]

use rdtools_e2e::rda_report;

#[test]
fn parda_mpi_without_the_feature_is_a_usage_error() {
    let o = std::process::Command::new(&rdtools_e2e::tools().rda_report)
        .args(["histogram", "any.rdtrace", "--engine", "parda-mpi"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("needs rda-report built with `--features mpi`"),
        "{err}"
    );
    // Other engines still parse (the file is missing: a failure, not a usage error).
    let (ok, _, err) = rda_report(&["histogram", "/nonexistent.rdtrace", "--engine", "fast"]);
    assert!(!ok && !err.contains("--features mpi"), "{err}");
}
