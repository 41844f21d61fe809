//! Runs the synthetic program and reads its trace back.

use rdtrace::chunk::ExitReason;
use rdtrace::{Event, Trace};
use std::process::Command;

mod common;
use common::example;

fn run(
    args: &[&str],
    env: &[(&str, &str)],
) -> (std::process::ExitStatus, Trace, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    let mut cmd = Command::new(example());
    cmd.args(args)
        .env("RDTRACE", &path)
        .env("RDTRACE_QUIET", "1");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    // These tests read the events back and visit no cache line, so the analyses' touch bound
    // does not apply (the huge-range test's 2.5 GiB memset exceeds it by design).
    let options = rdtrace::OpenOptions {
        max_touched: rdtrace::work::TouchLimit::Unlimited,
        ..Default::default()
    };
    let trace = Trace::open_with(&path, options).unwrap();
    (out.status, trace, dir)
}

fn thread_events(trace: &Trace, t: u32) -> Vec<Event> {
    let mut v = Vec::new();
    trace.visit_thread(t, &mut v).unwrap();
    v
}

#[test]
fn every_thread_stream_holds_exactly_what_it_recorded() {
    check_three_threads(&[("RDTRACE_CHUNK_EVENTS", "1000")]);
}

#[test]
fn chunks_encoded_on_both_writer_lanes_give_the_same_streams() {
    // Buffers of 256 records and chunks of four of them: each thread's 20000-odd events make
    // some twenty chunks, which the writer's two workers encode in turn and may write out of
    // order; every stream must still read back whole and in order, with no chunk missing.
    check_three_threads(&[
        ("RDTRACE_CHUNK_EVENTS", "1000"),
        ("RDTRACE_BUFFER_EVENTS", "256"),
    ]);
}

#[test]
fn chunks_on_one_to_five_writer_workers_give_the_same_streams() {
    // The synthetic program has no OpenMP regions, so its first thread takes up to four lanes
    // (`writer::lanes_for_new_thread`), the later ones two each, on the workers after the
    // previous thread's: with one worker all lanes share it; with three, thread 0 has workers
    // 0-2, thread 1 workers 0 and 1, thread 2 workers 2 and 0; with five, thread 0 has four
    // lanes (workers 0-3, sixteen raw buffers), thread 1 workers 4 and 0, thread 2 1 and 2.
    for workers in ["1", "3", "5"] {
        check_three_threads(&[
            ("RDTRACE_CHUNK_EVENTS", "1000"),
            ("RDTRACE_BUFFER_EVENTS", "256"),
            ("RDTRACE_WRITERS", workers),
        ]);
    }
}

/// Runs the synthetic program with `args` and `env` (the runtime quiet unless `quiet` is
/// false), tracing to `trace`; returns its exit status and stderr.
fn run_for_stderr(
    args: &[&str],
    env: &[(&str, &str)],
    quiet: bool,
    trace: &std::path::Path,
) -> (std::process::ExitStatus, String) {
    let mut cmd = Command::new(example());
    cmd.args(args)
        .env("RDTRACE", trace)
        .envs(env.iter().copied());
    if quiet {
        cmd.env("RDTRACE_QUIET", "1");
    } else {
        cmd.env_remove("RDTRACE_QUIET");
    }
    let out = cmd.output().unwrap();
    (
        out.status,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_exit_line_says_where_the_cpu_time_went() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    let (status, err) = run_for_stderr(&["3", "20000"], &[("RDTRACE_WRITERS", "3")], false, &path);
    assert!(status.success());
    let line = err
        .lines()
        .find(|l| l.starts_with("rdtrace: CPU s: busiest program thread "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains(", busiest of 3 writer workers "), "{line}");
    // Quiet: no such line.
    let (status, err) = run_for_stderr(&["1", "100"], &[], true, &path);
    assert!(status.success() && err.is_empty(), "{err}");
}

#[test]
fn an_invalid_writer_count_is_named_and_the_default_used() {
    for bad in ["0", "33", "many"] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rdtrace");
        let (status, err) = run_for_stderr(&["3", "500"], &[("RDTRACE_WRITERS", bad)], true, &path);
        assert!(status.success());
        assert!(
            err.contains(&format!("ignoring invalid RDTRACE_WRITERS={bad}")),
            "{err}"
        );
        let trace = Trace::open(&path).unwrap();
        assert_eq!(trace.threads.len(), 3);
        assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
    }
}

#[test]
fn inline_encoding_without_the_writer_thread_gives_the_same_streams() {
    check_three_threads(&[("RDTRACE_CHUNK_EVENTS", "1000"), ("RDTRACE_WRITER", "0")]);
}

#[test]
fn raw_chunks_without_compression_read_the_same() {
    check_three_threads(&[("RDTRACE_CHUNK_EVENTS", "700"), ("RDTRACE_ZSTD_LEVEL", "0")]);
}

#[test]
fn inline_blocks_keep_the_buffer_promise_and_the_stamp_rule() {
    // Blocks, accesses and branches appended inline with no hook but the block countdown's:
    // tiny buffers flush only from that hook, so it must keep the free-space promise (an
    // overrun aborts); stamp intervals below, at and far above its blocks between calls (at
    // 1000, a hook that flushed only with its stamps would overrun the slack).
    for every in ["5", "16", "1000"] {
        check_stamps(
            &["3", "5000", "inline"],
            &[
                ("RDTRACE_BUFFER_EVENTS", "64"),
                ("RDTRACE_STAMP_EVERY", every),
            ],
            |_| every.parse().unwrap(),
        );
    }
}

#[test]
fn hook_calls_follow_the_same_stamp_rule() {
    for every in ["5", "16", "1000"] {
        check_stamps(
            &["3", "5000"],
            &[
                ("RDTRACE_BUFFER_EVENTS", "64"),
                ("RDTRACE_STAMP_EVERY", every),
            ],
            |_| every.parse().unwrap(),
        );
    }
}

/// Blocks between stamps by default for thread `t` of the synthetic program: thread 0 works
/// before it starts the others, so alone (the runtime's `STAMP_EVERY_ALONE`); the others work
/// while thread 0 is registered (`STAMP_EVERY`).
fn default_every(t: u32) -> usize {
    if t == 0 {
        256
    } else {
        16
    }
}

#[test]
fn a_thread_alone_stamps_sparsely_by_default() {
    // Without RDTRACE_STAMP_EVERY, inline records and hook calls alike.
    for mode in ["inline", ""] {
        check_stamps(
            &["3", "5000", mode],
            &[("RDTRACE_BUFFER_EVENTS", "64")],
            default_every,
        );
    }
}

/// Runs three threads and checks every thread's stream: a stamp before its first block and
/// before every `every`th block after it, and nothing else stamped.
fn check_stamps(args: &[&str], env: &[(&str, &str)], every: impl Fn(u32) -> usize) {
    check_three_threads_with(args, env);
    let (_, trace, _d) = run(args, env);
    for t in 0..3 {
        let ev = thread_events(&trace, t);
        let mut blocks = 0;
        for (k, e) in ev.iter().enumerate() {
            match e {
                Event::Block { .. } => {
                    let stamped = k > 0 && matches!(ev[k - 1], Event::Stamp { .. });
                    assert_eq!(
                        stamped,
                        blocks % every(t) == 0,
                        "thread {t}, block {blocks}"
                    );
                    blocks += 1;
                }
                Event::Stamp { .. } => {
                    assert!(matches!(ev.get(k + 1), Some(Event::Block { .. })), "{k}")
                }
                _ => {}
            }
        }
        assert_eq!(blocks, 5001);
    }
}

fn check_three_threads(env: &[(&str, &str)]) {
    check_three_threads_with(&["3", "5000"], env);
}

fn check_three_threads_with(args: &[&str], env: &[(&str, &str)]) {
    let (status, trace, _d) = run(args, env);
    assert!(status.success());
    assert_eq!(trace.exit.as_ref().unwrap().reason, ExitReason::Exit);
    assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
    assert_eq!(trace.threads.len(), 3);
    assert_eq!(trace.meta.mem_instrs.len(), 2);
    let mut range_lens = Vec::new();
    for t in 0..3 {
        let ev = thread_events(&trace, t);
        let accesses: Vec<(u32, u64, u64)> = ev
            .iter()
            .filter_map(|e| match *e {
                Event::Access { mi, addr, len } => Some((mi, addr, len)),
                _ => None,
            })
            .collect();
        // 5000 loads + 5000 stores + one range.
        assert_eq!(accesses.len(), 10_001);
        let loads: Vec<u64> = accesses[..accesses.len() - 1]
            .iter()
            .filter(|a| a.0 == 0 && a.2 == 8)
            .map(|a| a.1)
            .collect();
        assert_eq!(loads.len(), 5000);
        assert!(
            loads.windows(2).all(|w| w[1] - w[0] == 8),
            "loads have stride 8"
        );
        let range = accesses.last().unwrap();
        assert_eq!(range.0, 0);
        range_lens.push(range.2);
        let blocks = ev
            .iter()
            .filter(|e| matches!(e, Event::Block { .. }))
            .count();
        assert_eq!(blocks, 5001);
        let taken = ev
            .iter()
            .filter(|e| matches!(e, Event::Branch { br: 0, outcome: 1 }))
            .count();
        assert_eq!(taken, 1);
        // A stamp at least every RDTRACE_STAMP_EVERY blocks; by default every 16, but every
        // 256 for thread 0, which works alone before it starts the others.
        let every = env
            .iter()
            .find(|(k, _)| *k == "RDTRACE_STAMP_EVERY")
            .map_or(default_every(t), |(_, v)| v.parse::<usize>().unwrap());
        let stamps = ev
            .iter()
            .filter(|e| matches!(e, Event::Stamp { .. }))
            .count();
        assert!(stamps >= 5001 / every, "{stamps} stamps");
        let recorded = trace.exit.as_ref().unwrap().events_recorded[t as usize];
        assert_eq!(recorded, ev.len() as u64);
    }
    // Thread indices follow registration order, so match the ranged accesses as a set.
    range_lens.sort();
    assert_eq!(range_lens, vec![8, 16, 24]);
}

#[test]
fn a_crash_keeps_everything_before_it() {
    let (status, trace, _d) = run(&["2", "3000", "crash"], &[("RDTRACE_CHUNK_EVENTS", "500")]);
    assert!(!status.success());
    assert_eq!(
        trace.exit.as_ref().unwrap().reason,
        ExitReason::Signal(libc::SIGABRT)
    );
    // The handler flushed the partial buffers too: nothing is lost.
    let ev = thread_events(&trace, 0);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Access { .. }))
            .count(),
        6001
    );
}

#[test]
fn exit_from_a_thread_flushes_the_trace() {
    let (status, trace, _d) = run(&["2", "2000", "exit-from-thread"], &[]);
    assert_eq!(status.code(), Some(3));
    assert_eq!(trace.exit.as_ref().unwrap().reason, ExitReason::Exit);
    for t in 0..2 {
        let ev = thread_events(&trace, t);
        assert_eq!(
            ev.iter()
                .filter(|e| matches!(e, Event::Access { .. }))
                .count(),
            4001
        );
    }
}

#[test]
fn unwritable_trace_path_is_reported_and_the_program_still_runs() {
    let out = Command::new(example())
        .args(["1", "10"])
        .env("RDTRACE", "/nonexistent-dir/x.rdtrace")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot open trace file /nonexistent-dir/x.rdtrace"),
        "{err}"
    );
}

#[test]
fn a_full_disk_is_reported_once_and_the_program_still_succeeds() {
    // /dev/full accepts the open and fails every write with ENOSPC.
    let out = Command::new(example())
        .args(["2", "20000"])
        .env("RDTRACE", "/dev/full")
        .env("RDTRACE_CHUNK_EVENTS", "1000")
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("writing the trace failed").count(), 1, "{err}");
    assert!(err.contains("No space left on device"), "{err}");
}

#[test]
fn a_range_longer_than_readers_accept_is_recorded_as_consecutive_pieces() {
    // Readers refuse one range over `MAX_RANGE_LEN` (1 GiB) as corrupt, so the runtime splits a
    // 2.5 GiB range into 1 GiB + 1 GiB + 0.5 GiB pieces of the same instruction, back to back.
    let (status, trace, _d) = run(&["1", "10", "huge-range"], &[]);
    assert!(status.success());
    assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
    let ranges: Vec<(u32, u64, u64)> = thread_events(&trace, 0)
        .iter()
        .filter_map(|e| match *e {
            Event::Access { mi: 1, addr, len } if len > 8 => Some((1, addr, len)),
            _ => None,
        })
        .collect();
    let gib = rdtrace::codec::MAX_RANGE_LEN;
    assert_eq!(
        ranges,
        vec![
            (1, 0x1000, gib),
            (1, 0x1000 + gib, gib),
            (1, 0x1000 + 2 * gib, gib / 2)
        ]
    );
}
