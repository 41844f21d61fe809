//! Issue 27 points 3 and 4 through `rda-report`: repeated chunks are refused (or dropped with
//! `--salvage`, giving the report of the intact trace), `--salvage` reads past a zeroed region
//! and says what it skipped, and a killed run says what is known to be lost.

use rdtools_e2e::*;
use rdtrace::chunk::{ChunkKind, CHUNK_HEADER_LEN};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The reading commands, each run with and without `--salvage`.
const COMMANDS: &[&[&str]] = &[
    &["info"],
    &["dump", "--limit", "50"],
    &["histogram"],
    &["measure"],
    &["annotate"],
    &["paths"],
    &["simt"],
];

/// `(offset, length, kind)` of every chunk.
fn chunks(bytes: &[u8]) -> Vec<(usize, usize, ChunkKind)> {
    chunk_layout(bytes)
        .into_iter()
        .map(|(at, h)| (at, CHUNK_HEADER_LEN + h.stored_len as usize, h.kind))
        .collect()
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Issue 27 point 4: 4 KiB zeroed in the middle made every command fail although almost every
/// chunk was intact. Without `--salvage` the error says where and suggests it; with it every
/// command reads the intact chunks and says how many chunks and events it skipped.
#[test]
fn issue27_salvage_reads_past_a_zeroed_region_in_every_command() {
    let dir = tempfile::tempdir().unwrap();
    // 4096 elements: loop runs make 64-record buffers stand for up to 4 x 64 events, and
    // the test needs many chunks.
    let seed = vecadd_trace(dir.path(), "seed.rdtrace", 2, 64, 4096);
    let mut bytes = std::fs::read(&seed).unwrap();
    let all = chunks(&bytes);
    let events: Vec<_> = all
        .iter()
        .filter(|c| c.2 == ChunkKind::Events)
        .copied()
        .collect();
    assert!(events.len() > 50, "{} events chunks", events.len());
    let (at, len, _) = events[events.len() / 2];
    let from = at + len / 2;
    let to = (from + 4096).min(bytes.len() - 200);
    bytes[from..to].fill(0);
    let damaged = dir.path().join("zeroed.rdtrace");
    std::fs::write(&damaged, &bytes).unwrap();
    let t = damaged.to_str().unwrap();
    for c in COMMANDS {
        let mut args = vec![c[0], t];
        args.extend(&c[1..]);
        let (code, _, err) = run(&args);
        assert_eq!(code, 1, "{c:?}: {err}");
        assert!(
            err.contains("corrupt chunk at offset") && err.contains("--salvage"),
            "{c:?}: {err}"
        );
        args.push("--salvage");
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{c:?} --salvage: {err}");
        assert!(!out.is_empty(), "{c:?}");
        assert!(
            err.contains("salvaged:")
                && err.contains("unreadable region(s) skipped")
                && err.contains("lost"),
            "{c:?} --salvage: {err}"
        );
    }
    // `check` lists the damaged chunk as a violation.
    let (code, _, err) = run(&["check", t, "--salvage"]);
    assert_eq!(code, 1, "{err}");
    // `--salvage` with `--strict` is a usage error.
    let (code, _, err) = run(&["info", t, "--salvage", "--strict"]);
    assert_eq!(code, 2, "{err}");
}

/// Issue 27 point 3: a replayed chunk counted its accesses twice with exit 0. It is refused;
/// with `--salvage` the repeat is dropped and the report is the intact trace's, byte for byte.
#[test]
fn issue27_replayed_chunk_is_not_counted_twice() {
    let dir = tempfile::tempdir().unwrap();
    // 4096 elements: loop runs make 64-record buffers stand for up to 4 x 64 events, and
    // the test needs many chunks.
    let seed = vecadd_trace(dir.path(), "seed.rdtrace", 2, 64, 4096);
    let bytes = std::fs::read(&seed).unwrap();
    let all = chunks(&bytes);
    let (at, len, _) = all
        .iter()
        .filter(|c| c.2 == ChunkKind::Events)
        .nth(5)
        .copied()
        .unwrap();
    let end = all.iter().find(|c| c.2 == ChunkKind::End).unwrap().0;
    let mut replayed = bytes[..end].to_vec();
    replayed.extend_from_slice(&bytes[at..at + len]);
    replayed.extend_from_slice(&bytes[end..]);
    let path = dir.path().join("replayed.rdtrace");
    std::fs::write(&path, &replayed).unwrap();
    let (s, p) = (seed.to_str().unwrap(), path.to_str().unwrap());
    for c in [&["histogram", "--json"][..], &["info", "--json"][..]] {
        let (code, _, err) = run(&[c[0], p, c[1]]);
        assert_eq!(code, 1, "{c:?}: {err}");
        assert!(err.contains("repeats the chunk at offset"), "{c:?}: {err}");
        let (code, clean, _) = run(&[c[0], s, c[1]]);
        assert_eq!(code, 0);
        let (code, salvaged, err) = run(&[c[0], p, c[1], "--salvage"]);
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("dropped (salvage)"), "{err}");
        if c[0] == "histogram" {
            assert_eq!(salvaged, clean, "{c:?}");
        }
    }
}

/// Issue 27 point 4: after SIGKILL (no end chunk), the reader says what is known to be lost
/// and what cannot be counted.
#[test]
fn issue27_killed_run_says_what_is_known_lost() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("sweeps");
    rdcc(
        &[program("basic/long_sweeps.c")],
        &["-O1", "-g", "-fopenmp"],
        &exe,
    );
    let t = dir.path().join("killed.rdtrace");
    let mut child = Command::new(&exe)
        .arg("100000000")
        .env("RDTRACE", &t)
        .env("RDTRACE_QUIET", "1")
        .env("OMP_NUM_THREADS", "2")
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // Until the trace has some chunks.
    for _ in 0..200 {
        std::thread::sleep(Duration::from_millis(50));
        if std::fs::metadata(&t).is_ok_and(|m| m.len() > 1 << 20) {
            break;
        }
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let (code, out, err) = run(&["info", t.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    assert!(
        err.contains("no end chunk") && err.contains("cannot be counted"),
        "{err}"
    );
}
