//! The runtime's invariants, seen from programs built with `rdcc`.
//!
//! The fatal-signal flush allocates nothing: a program that dies by a signal raised inside
//! `malloc`, with the allocator's lock held, still leaves a complete, readable trace.
//! `test-programs/signals/malloc_lock.c` (built with plain clang, standing for libc's allocator)
//! wraps every allocation function of the program and of the runtime (`-Wl,--wrap=...`) with one
//! lock, and exits with status 97 when an allocation happens on the thread that holds it, which
//! is what an allocating signal handler would do (a real allocator would deadlock there).

use rdtools_e2e::*;
use rdtrace::chunk::ExitReason;
use rdtrace::meta::AccessKind;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Command;

const WRAP: &str = "-Wl,--wrap=malloc,--wrap=free,--wrap=calloc,--wrap=realloc,\
--wrap=posix_memalign,--wrap=aligned_alloc,--wrap=memalign";
const SRC: &str = "signals/crash_in_malloc.c";
/// The program's defaults: main stores a[0..N), the worker b[0..M).
const N: usize = 50_000;
const M: usize = 30_000;

/// Builds the program with `-DSIG=sig` into `dir`.
fn build(dir: &Path, sig: &str) -> std::path::PathBuf {
    build_with_lock(
        dir,
        SRC,
        &format!("crash_{sig}"),
        &[&format!("-DSIG={sig}")],
    )
}

/// Builds `src` (under test-programs/) with `define`, linked with the locking allocator.
fn build_with_lock(dir: &Path, src: &str, name: &str, flags: &[&str]) -> std::path::PathBuf {
    let obj = dir.join("malloc_lock.o");
    let o = Command::new("clang-19")
        .args(["-O2", "-c"])
        .arg(program("signals/malloc_lock.c"))
        .arg("-o")
        .arg(&obj)
        .output()
        .expect("clang-19 runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let exe = dir.join(name);
    rdcc(
        &[program(src), obj],
        &[&["-O1", "-g", "-pthread", WRAP], flags].concat(),
        &exe,
    );
    exe
}

/// The events of thread `t` that the file stores (the runtime counts what it stores): what
/// its chunks' headers say, which the reader checked against their decoding when it opened the
/// file (implied blocks, derived accesses and loop runs' iterations, which the decoder emits,
/// are not stored).
fn events_in_file(trace: &rdtrace::Trace, t: u32) -> u64 {
    (trace.event_chunks().iter())
        .filter(|c| c.thread == t)
        .map(|c| c.events as u64)
        .sum()
}

/// Stores by the one store instruction at `needle` of `src`, counted per thread index.
fn stores_per_thread_at(trace: &rdtrace::Trace, src: &str, needle: &str) -> Vec<u64> {
    addresses_at(trace, src, needle, |i| i.kind == AccessKind::Store)
        .iter()
        .map(|a| a.len() as u64)
        .collect()
}

/// Stores of `a[i] = i` (main) and `b[i] = i` (worker) per thread: `(a stores, b stores)`.
fn stores_per_thread(trace: &rdtrace::Trace) -> Vec<(u64, u64)> {
    let a = stores_per_thread_at(trace, SRC, "a[i] = i;");
    let b = stores_per_thread_at(trace, SRC, "b[i] = i;");
    a.into_iter().zip(b).collect()
}

fn check(sig: &str, signo: i32, env: &[(&str, &str)]) {
    let dir = tempfile::tempdir().unwrap();
    let exe = build(dir.path(), sig);
    let trace_path = dir.path().join("t.rdtrace");
    let out = run_traced(&exe, &trace_path, env);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("allocation inside the fatal-signal flush"),
        "the signal flush allocated: {err}"
    );
    assert_eq!(out.status.signal(), Some(signo), "{:?} {err}", out.status);
    let trace = rdtrace::Trace::open(&trace_path).unwrap();
    assert_eq!(
        trace.exit.as_ref().map(|e| e.reason),
        Some(ExitReason::Signal(signo))
    );
    // Main thread: every a[] store, no b[] store; the worker (alive, blocked in pause() when
    // the signal came, so flushed by the main thread's handler): every b[] store.
    let mut per_thread = stores_per_thread(&trace);
    per_thread.sort();
    assert_eq!(per_thread, vec![(0, M as u64), (N as u64, 0)]);
    // The end record's counts match what the file holds.
    let exit = trace.exit.as_ref().unwrap();
    for t in trace.thread_indices() {
        let events = events_in_file(&trace, t);
        assert_eq!(exit.events_recorded[t as usize], events, "thread {t}");
    }
    assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
    let (ok, text, e) = rda_report(&["info", trace_path.to_str().unwrap()]);
    assert!(ok, "{e}");
    assert!(text.contains(&format!("signal {signo}")), "{text}");
}

#[test]
fn sigsegv_inside_malloc_with_the_lock_held_keeps_the_trace() {
    check("SIGSEGV", libc_sig::SEGV, &[]);
}

#[test]
fn sigsegv_inside_malloc_without_the_writer_thread_keeps_the_trace() {
    check("SIGSEGV", libc_sig::SEGV, &[("RDTRACE_WRITER", "0")]);
}

#[test]
fn abort_inside_malloc_keeps_the_trace() {
    // Small chunks: the flush also writes chunks the writer had not finished.
    check(
        "SIGABRT",
        libc_sig::ABRT,
        &[("RDTRACE_CHUNK_EVENTS", "5000")],
    );
}

#[test]
fn abort_inside_malloc_with_five_writer_workers_keeps_the_trace() {
    // The main thread's chunks on four lanes (the program has no OpenMP regions), the other
    // thread's on two more: the handler takes over from every worker and drains every queue.
    check(
        "SIGABRT",
        libc_sig::ABRT,
        &[("RDTRACE_CHUNK_EVENTS", "5000"), ("RDTRACE_WRITERS", "5")],
    );
}

/// A worker of the writer blocked inside the allocator while compressing a chunk (zstd
/// allocates a larger workspace the first time a chunk needs one), two more raw buffers of the
/// thread handed over behind it, and the program then dies with the allocator's lock held: the
/// signal flush writes that chunk in the worker's place (exactly once), then what the other
/// worker made of the later buffers and whatever is still queued, then the open buffer, so no
/// chunk is missing and every recorded event is in the file.
#[test]
fn sigsegv_while_the_writer_is_stuck_in_malloc_keeps_its_chunk() {
    const SRC2: &str = "signals/crash_while_writer_allocates.c";
    const N2: u64 = 30_000;
    let dir = tempfile::tempdir().unwrap();
    // The program's arithmetic counts a block record per loop iteration, so every block
    // records (the loop body's record would otherwise be implied by its back-edge).
    let flags = ["-DN=30000", "--rd-no-implied-blocks"];
    let exe = build_with_lock(dir.path(), SRC2, "stuck_writer", &flags);
    let trace_path = dir.path().join("t.rdtrace");
    // The scenario below counts buffers of 16384 records (the writer is stuck on the chunk the
    // fourth ends) and chunks of 65536 events.
    let env = [
        ("RDTRACE_BUFFER_EVENTS", "16384"),
        ("RDTRACE_CHUNK_EVENTS", "65536"),
    ];
    let out = run_traced(&exe, &trace_path, &env);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(
        out.status.code(),
        Some(98),
        "the scenario did not happen: {err}"
    );
    assert!(
        !err.contains("allocation inside the fatal-signal flush"),
        "the signal flush allocated: {err}"
    );
    assert_eq!(
        out.status.signal(),
        Some(libc_sig::SEGV),
        "{:?} {err}",
        out.status
    );
    let trace = rdtrace::Trace::open(&trace_path).unwrap();
    assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
    let exit = trace.exit.as_ref().expect("end chunk");
    assert_eq!(exit.reason, ExitReason::Signal(libc_sig::SEGV));
    for t in trace.thread_indices() {
        assert_eq!(
            exit.events_recorded[t as usize],
            events_in_file(&trace, t),
            "thread {t}"
        );
    }
    let total_stores: u64 = stores_per_thread_at(&trace, SRC2, "a[i] = i;").iter().sum();
    assert_eq!(total_stores, N2);
    // Main's chunks, in sequence without a gap: first the one worker 0 was stuck on (four
    // buffers of 16384 records and a few past the limit: at least 65536 events), which the
    // handler wrote in its place. The two buffers behind it belong to the next chunk, which
    // worker 1 encodes (it goes on while worker 0 is stuck) or the handler does when the
    // signal comes first, and which the handler then closes with main's open buffer (two
    // chunks in all; at most four): every event is kept, which the counts above check.
    let main = (0..trace.threads.len() as u32)
        .max_by_key(|&t| events_in_file(&trace, t))
        .unwrap();
    let mut chunks: Vec<(u32, u32)> = trace
        .event_chunks()
        .iter()
        .filter(|c| c.thread == main)
        .map(|c| (c.seq, c.events))
        .collect();
    chunks.sort();
    let seqs: Vec<u32> = chunks.iter().map(|c| c.0).collect();
    assert!((2..=4).contains(&seqs.len()), "{chunks:?}");
    assert_eq!(
        seqs,
        (0..seqs.len() as u32).collect::<Vec<_>>(),
        "{chunks:?}"
    );
    assert!(chunks[0].1 >= 65536, "{chunks:?}");
    // What follows the stuck chunk: the two queued buffers and the open one.
    let rest: u32 = chunks[1..].iter().map(|c| c.1).sum();
    assert!(rest > 2 * 16384, "{chunks:?}");
}

/// Threads past the registry are untraced once (a sentinel), not registered again on every
/// hook: they get no thread index, so the end record has exactly one count per traced thread.
#[test]
fn threads_past_the_registry_are_dropped_once() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("many");
    rdcc(
        &[program("signals/many_threads.c")],
        &["-O0", "-g", "-pthread"],
        &exe,
    );
    let trace_path = dir.path().join("t.rdtrace");
    let out = run_traced(&exe, &trace_path, &[("RDTRACE_BUFFER_EVENTS", "64")]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    // 4100 workers each add 0 + 1 + ... + 99 = 4950.
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sum = 20295000\n");
    assert_eq!(err.matches("more than 4096 threads").count(), 1, "{err}");
    let trace = rdtrace::Trace::open(&trace_path).unwrap();
    assert_eq!(trace.thread_indices().len(), 4096);
    let exit = trace.exit.as_ref().unwrap();
    assert_eq!(exit.reason, ExitReason::Exit);
    assert_eq!(exit.events_recorded.len(), 4096);
    // Every traced worker ran the same code: the same number of events.
    let mut per_worker: Vec<u64> = exit.events_recorded[1..].to_vec();
    per_worker.dedup();
    assert_eq!(per_worker.len(), 1, "{per_worker:?}");
}

/// Signal numbers on Linux (x86-64 and aarch64 agree on these).
mod libc_sig {
    pub const SEGV: i32 = 11;
    pub const ABRT: i32 = 6;
}
