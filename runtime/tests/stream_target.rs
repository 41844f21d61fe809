//! `RDTRACE=fd:N` with a pipe: the runtime writes the stream variant (version 2), every thread's
//! stream arrives whole even when the reader is slow (back-pressure, no loss), each thread's
//! first event is a stamp, exiting threads publish `ENDED` floors, and the live reader's merge
//! equals the offline merge of its tee copy.

use rdtrace::chunk::ExitReason;
use rdtrace::{Event, LiveTrace, Trace};
use std::io::Read;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::process::Command;

mod common;
use common::example;

/// Reads slowly: a short pause every `every` reads, so the pipe fills and the writer blocks.
struct Slow<R> {
    inner: R,
    reads: u64,
    every: u64,
}

impl<R: Read> Read for Slow<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.reads += 1;
        if self.every > 0 && self.reads.is_multiple_of(self.every) {
            std::thread::sleep(std::time::Duration::from_millis(1));
        }
        // Small reads, so the reader is much slower than the program.
        let n = buf.len().min(512);
        self.inner.read(&mut buf[..n])
    }
}

/// Runs `synthetic_run 3 ITERS` with its trace on a pipe (fd 3 in the child) read live;
/// returns per-thread events (live, per chunk) and the tee file's trace.
fn run_piped(iters: &str, slow_every: u64) -> (Vec<Vec<Event>>, Trace, tempfile::TempDir) {
    let mut fds = [0i32; 2];
    // Safety: fds is a valid out-array.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    let (r, w) = (fds[0], fds[1]);
    let mut cmd = Command::new(example());
    cmd.args(["3", iters])
        .env("RDTRACE", "fd:3")
        .env("RDTRACE_QUIET", "1")
        .env("RDTRACE_CHUNK_EVENTS", "1000")
        // Raw chunks: about 0.5 MB for 3 x 50000 iterations, several times the 64 KiB pipe
        // buffer, so a slow reader makes the writer (and then the threads) wait.
        .env("RDTRACE_ZSTD_LEVEL", "0");
    // Safety: only dup2 and fcntl between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            // dup2 onto itself keeps close-on-exec; clear it then.
            let ok = if w == 3 {
                libc::fcntl(3, libc::F_SETFD, 0)
            } else {
                libc::dup2(w, 3)
            };
            if ok < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    // Safety: closing our copy of the write end; r is ours.
    unsafe { libc::close(w) };
    let input = Slow {
        // SAFETY: `r` is the read end of our own pipe, owned by nothing else.
        inner: unsafe { std::fs::File::from_raw_fd(r) },
        reads: 0,
        every: slow_every,
    };
    let dir = tempfile::tempdir().unwrap();
    let tee = dir.path().join("tee.rdtrace");
    let mut live = LiveTrace::new(
        input,
        "<pipe>",
        Some(Box::new(std::fs::File::create(&tee).unwrap())),
    )
    .unwrap();
    assert_eq!(live.version, rdtrace::version::STREAM);
    let mut per_thread: Vec<Vec<Event>> = vec![Vec::new(); 3];
    let mut events = Vec::new();
    while let Some(t) = live.next_thread_chunk(&mut events).unwrap() {
        per_thread[t as usize].extend_from_slice(&events);
    }
    assert!(child.wait().unwrap().success());
    assert!(live.warnings().is_empty(), "{:?}", live.warnings());
    assert_eq!(live.exit.as_ref().unwrap().reason, ExitReason::Exit);
    // The two worker threads exit before main: each publishes an ENDED floor.
    assert!(live.stats().floor_chunks >= 2, "{:?}", live.stats());
    drop(live);
    let trace = Trace::open(&tee).unwrap();
    (per_thread, trace, dir)
}

#[test]
fn a_slow_reader_gets_every_event_through_the_pipe() {
    let (per_thread, trace, _d) = run_piped("50000", 8);
    // The stream was several times the pipe's capacity.
    assert!(
        std::fs::metadata(_d.path().join("tee.rdtrace"))
            .unwrap()
            .len()
            > 4 * 65536
    );
    let recorded = &trace.exit.as_ref().unwrap().events_recorded;
    for (t, events) in per_thread.iter().enumerate() {
        // synthetic_run: 50000 loads + 50000 stores + one range access per thread.
        let accesses = events
            .iter()
            .filter(|e| matches!(e, Event::Access { .. }))
            .count();
        assert_eq!(accesses, 100_001, "thread {t}");
        assert_eq!(events.len() as u64, recorded[t], "thread {t}: nothing lost");
        // In a stream a thread's first event is a stamp.
        assert!(
            matches!(events[0], Event::Stamp { .. }),
            "thread {t}: {:?}",
            events[0]
        );
    }
}

#[test]
fn the_live_merge_of_a_real_run_equals_the_offline_merge_of_its_tee_copy() {
    let (_, trace, dir) = run_piped("5000", 0);
    let offline: Vec<(u32, Event)> = trace.merged().unwrap().map(|r| r.unwrap()).collect();
    // Read the same run again, live, from the tee copy turned back into a stream (floors are
    // gone, so this exercises the end-of-input path; the pipe path is covered above and in
    // rdtrace's simulated runs).
    let bytes = std::fs::read(dir.path().join("tee.rdtrace")).unwrap();
    let mut live = LiveTrace::new(&bytes[..], "<tee>", None).unwrap();
    let mut merged = Vec::new();
    while let Some(x) = live.next_merged().unwrap() {
        merged.push(x);
    }
    assert_eq!(merged, offline);
    assert_eq!(trace.version, rdtrace::version::CURRENT);
}
