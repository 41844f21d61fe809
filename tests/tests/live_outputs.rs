//! `rda-report live` checks every file it will write (`--tee` or `RDTRACE_TEE`, `--output`,
//! `--plot`) before it starts the program: a directory that does not exist or cannot be
//! written, or a directory given as the file, is a usage error (exit status 2) naming the flag,
//! and the program does not run (a marker file it would create stays absent). Files that can
//! be written are left as they were by the check.

use rdtools_e2e::{program, rdcc, tools};
use std::path::Path;
use std::process::{Command, Output};

/// `rda-report live <flags> -- touch <marker>` with `env`.
fn live(flags: &[&str], env: &[(&str, &str)], marker: &Path) -> Output {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.arg("live")
        .args(flags)
        .arg("--")
        .arg("touch")
        .arg(marker)
        .env_remove("RDTRACE_TEE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Asserts status 2, a message with every one of `needles`, and that the program never ran.
fn refused(o: &Output, marker: &Path, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in needles {
        assert!(err.contains(n), "no {n:?} in: {err}");
    }
    assert!(!marker.exists(), "the program ran: {err}");
}

#[test]
fn unwritable_outputs_stop_live_before_the_program_starts() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let m = marker.as_path();
    refused(
        &live(&["--tee", "/nonexistent/dir/x.rdtrace"], &[], m),
        m,
        &["--tee /nonexistent/dir/x.rdtrace: directory /nonexistent/dir does not exist"],
    );
    refused(
        &live(&[], &[("RDTRACE_TEE", "/nonexistent/t.rdtrace")], m),
        m,
        &["RDTRACE_TEE /nonexistent/t.rdtrace", "does not exist"],
    );
    refused(
        &live(&["--output", "/nonexistent/report.json", "--json"], &[], m),
        m,
        &["--output /nonexistent/report.json", "does not exist"],
    );
    let d = dir.path().to_str().unwrap();
    refused(
        &live(&["--plot", d], &[], m),
        m,
        &["--plot", "is a directory"],
    );
    refused(
        &live(&["--tee", d], &[], m),
        m,
        &["--tee", "is a directory"],
    );
    // A directory that exists but where no file can be made (even as root).
    refused(
        &live(&["--tee", "/proc/x.rdtrace"], &[], m),
        m,
        &["--tee /proc/x.rdtrace: cannot be written"],
    );
    // An existing report file is not touched by a run refused for another output.
    let out = dir.path().join("keep.txt");
    std::fs::write(&out, "keep").unwrap();
    refused(
        &live(
            &[
                "--output",
                out.to_str().unwrap(),
                "--tee",
                "/nonexistent/x.rdtrace",
            ],
            &[],
            m,
        ),
        m,
        &["--tee"],
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "keep");
    // Nothing was left behind by the checks.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("keep.txt")]);
}

#[test]
fn writable_outputs_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("prog");
    rdcc(
        &[program("nested/team_of_one.c")],
        &["-fopenmp", "-O1"],
        &exe,
    );
    let tee = dir.path().join("copy.rdtrace");
    let plot = dir.path().join("hist.svg");
    let report = dir.path().join("report.json");
    let o = Command::new(&tools().rda_report)
        .arg("live")
        .arg("--tee")
        .arg(&tee)
        .arg("--plot")
        .arg(&plot)
        .arg("--output")
        .arg(&report)
        .args(["--json", "--"])
        .arg(&exe)
        .env("OMP_NUM_THREADS", "2")
        .env("RDTRACE_QUIET", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("team_of_one n=256"));
    for f in [&tee, &plot, &report] {
        assert!(std::fs::metadata(f).unwrap().len() > 0, "{}", f.display());
    }
    rdtools_e2e::check_invariants(&tee);
}
