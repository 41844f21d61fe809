//! Traces from standard input and pipes: `cat t.rdtrace | rda-report CMD -` (and a FIFO or
//! `/dev/stdin` on a pipe as the path) prints, byte for byte, what `rda-report CMD t.rdtrace`
//! prints, for every command that reads a trace in one pass (`histogram`, `check`, `measure`,
//! `annotate`, `simt`, `predict`); commands that seek in the file refuse a stream with a usage
//! error (exit status 2) that says why, and a stream that is not a trace fails (1) clearly.
//!
//! The traces are of `test-programs/nested/nested_simt.c` (two threads, nested teams of one:
//! every analysis has something to show) and of `team_of_one.c` run with one thread (for
//! `predict`). The trace is piped through `cat`, so `rda-report` reads a real pipe.

use rdtools_e2e::{program, rdcc, run_traced, tools};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// `(threaded, sequential)` traces, built once (their directory lives as long as the process).
fn traces() -> (&'static Path, &'static Path) {
    static T: OnceLock<(tempfile::TempDir, PathBuf, PathBuf)> = OnceLock::new();
    let t = T.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let trace = |name: &str, threads: &str| {
            let exe = dir.path().join(name);
            rdcc(
                &[program(&format!("nested/{name}.c"))],
                &["-fopenmp", "-O1"],
                &exe,
            );
            let t = dir.path().join(format!("{name}.rdtrace"));
            let out = run_traced(&exe, &t, &[("OMP_NUM_THREADS", threads)]);
            assert!(out.status.success());
            t
        };
        let omp = trace("nested_simt", "2");
        let seq = trace("team_of_one", "1");
        (dir, omp, seq)
    });
    (&t.1, &t.2)
}

/// Runs `rda-report args…` in `dir` (the current directory when `None`) with standard input
/// from `stdin`.
fn report(args: &[&str], dir: Option<&Path>, stdin: Stdio) -> Output {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args).stdin(stdin);
    if let Some(d) = dir {
        cmd.current_dir(d);
    }
    let o = cmd.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !err.contains("panicked"),
        "rda-report {args:?} panicked:\n{err}"
    );
    o
}

/// `rda-report args…` with `trace` piped into standard input through `cat`.
fn piped(args: &[&str], trace: &Path) -> Output {
    let mut cat = Command::new("cat")
        .arg(trace)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let out = report(args, None, Stdio::from(cat.stdout.take().unwrap()));
    // `cat` ends when its output is read to the end, or with SIGPIPE when it is not.
    cat.wait().unwrap();
    out
}

fn ok(o: &Output, what: &str) -> String {
    assert!(
        o.status.success(),
        "{what}: {}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// `args` with `-` or the path in place of `TRACE`.
fn with(args: &[&str], trace: &str) -> Vec<String> {
    args.iter()
        .map(|a| if *a == "TRACE" { trace } else { a }.to_string())
        .collect()
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Commands whose reports do not name the trace: the same bytes from `-` on a pipe.
#[test]
fn stdin_gives_the_report_of_the_file() {
    let (omp, _) = traces();
    let path = omp.to_str().unwrap();
    for args in [
        &["histogram", "TRACE"][..],
        &["histogram", "TRACE", "--json"],
        &["histogram", "TRACE", "--per-thread"],
        &[
            "histogram",
            "TRACE",
            "--per-thread",
            "--json",
            "--line",
            "8",
        ],
        &["histogram", "TRACE", "--engine", "parda", "--threads", "2"],
        &["histogram", "TRACE", "--sample-rate", "0.5", "--csv"],
        &["check", "TRACE"],
        &["check", "TRACE", "--json"],
    ] {
        let file = ok(
            &report(&strs(&with(args, path)), None, Stdio::null()),
            "file",
        );
        let stdin = ok(&piped(&strs(&with(args, "-")), omp), "stdin");
        assert_eq!(stdin, file, "{args:?}");
        assert!(!file.is_empty());
        // `/dev/stdin` on a pipe is a stream too.
        let dev = ok(&piped(&strs(&with(args, "/dev/stdin")), omp), "/dev/stdin");
        assert_eq!(dev, file, "{args:?} from /dev/stdin");
    }
}

/// Commands whose reports may name the trace: the same bytes once the name is the same (`-`
/// for the file's path in the file's report).
#[test]
fn stdin_gives_the_named_reports_of_the_file() {
    let (omp, seq) = traces();
    let cases: Vec<(&[&str], &Path)> = vec![
        (&["measure", "TRACE"], omp),
        (&["measure", "TRACE", "--json"], omp),
        (&["annotate", "TRACE"], omp),
        (&["annotate", "TRACE", "--json", "--top", "0"], omp),
        (&["simt", "TRACE"], omp),
        (
            &[
                "simt",
                "TRACE",
                "--json",
                "--scenario",
                "3",
                "--block",
                "64",
            ],
            omp,
        ),
        (&["predict", "TRACE", "--cores", "1,2,4"], seq),
        (
            &["predict", "TRACE", "--cores", "1,2", "--json", "--mrc"],
            seq,
        ),
        (
            &["predict", "TRACE", "--cores", "1,2", "--model", "formula"],
            seq,
        ),
    ];
    for (args, trace) in cases {
        let path = trace.to_str().unwrap();
        let file = ok(
            &report(&strs(&with(args, path)), None, Stdio::null()),
            "file",
        );
        let stdin = ok(&piped(&strs(&with(args, "-")), trace), "stdin");
        assert!(!file.is_empty());
        assert_eq!(stdin, file.replace(path, "-"), "{args:?}");
    }
}

/// A FIFO given as the path is read as a stream: the report of a file of the same name.
#[test]
fn a_fifo_gives_the_report_of_the_file() {
    let (omp, _) = traces();
    let files = tempfile::tempdir().unwrap();
    let fifos = tempfile::tempdir().unwrap();
    std::fs::copy(omp, files.path().join("t.rdtrace")).unwrap();
    let fifo = fifos.path().join("t.rdtrace");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    for args in [
        &["measure", "t.rdtrace", "--json"][..],
        &["simt", "t.rdtrace", "--json"],
        &["annotate", "t.rdtrace"],
        &["histogram", "t.rdtrace", "--per-thread"],
    ] {
        let file = ok(&report(args, Some(files.path()), Stdio::null()), "file");
        // A writer for the FIFO (opening it blocks until the reader opens it).
        let src = omp.to_path_buf();
        let writer_path = fifo.clone();
        let writer = std::thread::spawn(move || {
            let mut w = std::fs::OpenOptions::new()
                .write(true)
                .open(&writer_path)
                .unwrap();
            let mut r = std::fs::File::open(src).unwrap();
            std::io::copy(&mut r, &mut w).unwrap();
        });
        let stream = ok(&report(args, Some(fifos.path()), Stdio::null()), "fifo");
        writer.join().unwrap();
        assert_eq!(stream, file, "{args:?}");
    }
}

/// Commands that seek in the file refuse a stream: status 2, and the message says why and
/// what to do.
#[test]
fn seeking_commands_refuse_a_stream() {
    let (omp, _) = traces();
    let path = omp.to_str().unwrap();
    let sized = format!("{path}:2");
    let real = format!("1={path}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["info", "-"],
        vec!["dump", "-"],
        vec!["paths", "-"],
        vec!["html", "-", "-o", "/tmp/rda-report-stdin-e2e.html"],
        vec!["validate", "--seq", "-", "--real", &real],
        vec![
            "paths-predict",
            "--train",
            "-:1",
            "--train",
            &sized,
            "--validate",
            &sized,
        ],
    ];
    for args in cases {
        let o = piped(&args, omp);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("standard input (`-`) can only be read once, in order")
                && err.contains("save the trace to a file first"),
            "{args:?}: {err}"
        );
    }
    let o = piped(&["paths", "-"], omp);
    assert!(String::from_utf8_lossy(&o.stderr).contains("one thread after another"));
    #[cfg(feature = "mpi")]
    {
        let o = piped(&["histogram", "-", "--engine", "parda-mpi"], omp);
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("own slices of the file"));
    }
}

/// Something that is not a trace on standard input: status 1, said at once.
#[test]
fn a_stream_that_is_not_a_trace_fails_clearly() {
    let mut echo = Command::new("echo")
        .arg("hello")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let o = report(
        &["histogram", "-"],
        None,
        Stdio::from(echo.stdout.take().unwrap()),
    );
    echo.wait().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("<stdin>: not an rdtools trace"));
    // An empty pipe too.
    let o = report(&["measure", "-"], None, Stdio::piped());
    assert_eq!(o.status.code(), Some(1));
}
