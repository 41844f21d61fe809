//! The live reader against the offline reader: simulated runs that follow the runtime's stream
//! protocol (first event a stamp, floors for parked and exited threads) must merge event for
//! event as `Trace::merged` merges the same run's file, and the merge must lag no more than the
//! documented bound (`rdtrace::stream`).

use rdtrace::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo, FILE_HEADER_LEN};
use rdtrace::meta::*;
use rdtrace::stream::{frame_floors, Floor, ENDED};
use rdtrace::writer::TraceWriter;
use rdtrace::{Event, LiveTrace, Trace};
use std::cell::RefCell;
use std::io::{Read, Write};
use std::rc::Rc;

/// A module with `n` 8-byte loads in one block.
fn module(n: u32) -> ModuleMeta {
    rdtrace::testing::one_block_module("m", n)
}

/// The bytes of a run as a stream (with floors, version 2) and as a file (without floors).
#[derive(Default)]
struct Bytes {
    stream: Vec<u8>,
    file: Vec<u8>,
}

/// Writes everything to both copies (what the runtime writes either way).
#[derive(Clone, Default)]
struct Both(Rc<RefCell<Bytes>>);

impl Write for Both {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        let mut bytes = self.0.borrow_mut();
        bytes.stream.extend_from_slice(b);
        bytes.file.extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Both {
    /// Appends floor entries to the stream only.
    fn floors(&self, floors: &[Floor]) {
        let mut frame = Vec::new();
        frame_floors(&mut frame, floors);
        self.0.borrow_mut().stream.extend_from_slice(&frame);
    }

    fn finish(self) -> (Vec<u8>, Vec<u8>) {
        let mut bytes = self.0.borrow_mut();
        let mut stream = std::mem::take(&mut bytes.stream);
        // Streams say version 2 (they may carry floors).
        stream[8..12].copy_from_slice(&rdtrace::version::STREAM.to_le_bytes());
        (stream, std::mem::take(&mut bytes.file))
    }
}

fn writer(both: &Both) -> TraceWriter<Both> {
    let mut w = TraceWriter::new(both.clone(), &ProgramInfo::default()).unwrap();
    w.module(&module(8)).unwrap();
    w
}

fn end(w: TraceWriter<Both>) {
    w.finish(&ExitInfo {
        reason: ExitReason::Exit,
        end_time: 0,
        events_recorded: vec![],
    })
    .unwrap();
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

#[derive(Default)]
struct SimThread {
    registered: bool,
    open: Vec<Event>,
    chunks: u32,
    parked: bool,
    ended: bool,
}

/// A random run that follows the runtime's protocol for streams: a global clock; a thread's
/// first event (after registration or after parking) is a stamp read then; chunks close at
/// random sizes; threads other than 0 park and exit at random; after every chunk the "writer"
/// publishes the clock as the floor of every parked thread; an exiting thread publishes
/// `ENDED`.
fn simulate(seed: u64, threads: u32, steps: usize) -> (Vec<u8>, Vec<u8>) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let both = Both::default();
    let mut w = writer(&both);
    let mut clock = 1u64;
    let mut sim: Vec<SimThread> = (0..threads).map(|_| SimThread::default()).collect();
    let close = |w: &mut TraceWriter<Both>, sim: &mut Vec<SimThread>, t: usize, clock: u64| {
        if !sim[t].open.is_empty() {
            w.events(t as u32, &sim[t].open).unwrap();
            sim[t].open.clear();
            sim[t].chunks += 1;
            let floors: Vec<Floor> = sim
                .iter()
                .enumerate()
                .filter(|(_, s)| s.parked)
                .map(|(u, s)| Floor {
                    thread: u as u32,
                    next_seq: s.chunks,
                    time: clock,
                })
                .collect();
            if !floors.is_empty() {
                both.floors(&floors);
            }
        }
    };
    for _ in 0..steps {
        // Ties on the clock happen (increments of 0).
        clock += rng.below(3);
        let t = rng.below(threads as u64) as usize;
        if sim[t].ended {
            continue;
        }
        if !sim[t].registered {
            w.thread(&ThreadInfo {
                thread: t as u32,
                os_tid: t as u64,
                start_time: clock,
            })
            .unwrap();
            sim[t].registered = true;
            clock += 1;
            sim[t].open.push(Event::Stamp { time: clock });
        }
        if sim[t].parked {
            sim[t].parked = false;
            sim[t].open.push(Event::Stamp { time: clock });
        }
        match rng.below(100) {
            0..=59 => sim[t].open.push(Event::Access {
                mi: rng.below(8) as u32,
                addr: 64 * rng.below(40),
                len: 8,
            }),
            60..=74 => sim[t].open.push(Event::Block { bb: 0 }),
            75..=89 => sim[t].open.push(Event::Stamp { time: clock }),
            90..=95 if t != 0 => {
                close(&mut w, &mut sim, t, clock);
                sim[t].parked = true;
            }
            96 if t != 0 => {
                close(&mut w, &mut sim, t, clock);
                sim[t].parked = false;
                sim[t].ended = true;
                both.floors(&[Floor {
                    thread: t as u32,
                    next_seq: sim[t].chunks,
                    time: ENDED,
                }]);
            }
            _ => {}
        }
        if sim[t].open.len() >= 4 + rng.below(40) as usize {
            close(&mut w, &mut sim, t, clock);
        }
    }
    for t in 0..threads as usize {
        close(&mut w, &mut sim, t, clock);
    }
    end(w);
    both.finish()
}

fn offline_merged(file: &[u8]) -> Vec<(u32, Event)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    std::fs::write(&path, file).unwrap();
    let trace = Trace::open(&path).unwrap();
    trace.merged().unwrap().map(|r| r.unwrap()).collect()
}

fn live_merged(stream: &[u8]) -> Vec<(u32, Event)> {
    let mut live = LiveTrace::new(stream, "<test>", None).unwrap();
    let mut out = Vec::new();
    while let Some(x) = live.next_merged().unwrap() {
        out.push(x);
    }
    assert!(live.warnings().is_empty(), "{:?}", live.warnings());
    out
}

#[test]
fn simulated_runs_merge_exactly_as_the_offline_reader() {
    for seed in 1..=60 {
        let threads = 1 + (seed % 5) as u32;
        let (stream, file) = simulate(seed, threads, 3000);
        let offline = offline_merged(&file);
        let live = live_merged(&stream);
        assert!(!offline.is_empty());
        assert_eq!(live.len(), offline.len(), "seed {seed}");
        assert_eq!(live, offline, "seed {seed}");
    }
}

#[test]
fn per_thread_chunks_come_in_sequence_order() {
    let (stream, file) = simulate(7, 4, 3000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    std::fs::write(&path, &file).unwrap();
    let trace = Trace::open(&path).unwrap();
    let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
    let mut per_thread: std::collections::BTreeMap<u32, Vec<Event>> = Default::default();
    let mut events = Vec::new();
    while let Some(t) = live.next_thread_chunk(&mut events).unwrap() {
        per_thread.entry(t).or_default().extend_from_slice(&events);
    }
    assert_eq!(live.thread_indices(), trace.thread_indices());
    for t in trace.thread_indices() {
        let mut expected = Vec::new();
        trace.visit_thread(t, &mut expected).unwrap();
        assert_eq!(
            per_thread.remove(&t).unwrap_or_default(),
            expected,
            "thread {t}"
        );
    }
}

/// Issue 28: one per-thread reading over any chunk source. A stream (as it arrives) and its
/// file (thread after thread) give each thread's events in order, equal to `visit_thread`.
#[test]
fn per_thread_reading_is_one_function_over_a_file_or_a_stream() {
    use rdtrace::source::for_each_thread_chunk;
    type PerThread = std::collections::BTreeMap<u32, Vec<Event>>;
    for seed in [3, 7, 11] {
        let (stream, file) = simulate(seed, 1 + (seed % 4) as u32, 3000);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rdtrace");
        std::fs::write(&path, &file).unwrap();
        let trace = Trace::open(&path).unwrap();
        let collect = |source: &mut dyn FnMut(&mut PerThread) -> rdtrace::Result<()>| {
            let mut out = PerThread::new();
            source(&mut out).unwrap();
            out
        };
        let from_file = collect(&mut |out| {
            for_each_thread_chunk(&mut trace.source()?, |t, evs| {
                out.entry(t).or_default().extend_from_slice(evs);
                Ok::<(), rdtrace::TraceError>(())
            })
        });
        let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
        let from_stream = collect(&mut |out| {
            for_each_thread_chunk(&mut live, |t, evs| {
                out.entry(t).or_default().extend_from_slice(evs);
                Ok::<(), rdtrace::TraceError>(())
            })
        });
        assert!(live.warnings().is_empty(), "{:?}", live.warnings());
        let mut expected = PerThread::new();
        for t in trace.thread_indices() {
            let mut evs = Vec::new();
            trace.visit_thread(t, &mut evs).unwrap();
            if !evs.is_empty() {
                expected.insert(t, evs);
            }
        }
        assert_eq!(from_file, expected, "seed {seed}: file");
        assert_eq!(from_stream, expected, "seed {seed}: stream");
    }
}

#[test]
fn the_tee_copy_is_a_plain_file_of_the_current_version() {
    let (stream, file) = simulate(11, 3, 2000);
    let dir = tempfile::tempdir().unwrap();
    let tee_path = dir.path().join("tee.rdtrace");
    let tee = std::fs::File::create(&tee_path).unwrap();
    let mut live = LiveTrace::new(&stream[..], "<test>", Some(Box::new(tee))).unwrap();
    while live.next_merged().unwrap().is_some() {}
    drop(live);
    // Floors dropped and the header says the current file version: byte for byte the file the
    // run would have written.
    assert_eq!(std::fs::read(&tee_path).unwrap(), file);
    let t = Trace::open(&tee_path).unwrap();
    assert_eq!(t.version, rdtrace::version::CURRENT);
}

#[test]
fn a_version_1_file_piped_in_merges_at_the_end() {
    // No floors and no first-stamp promise: the live merge waits for the end, and is exact.
    let (_, file) = simulate(5, 4, 2000);
    assert_eq!(live_merged(&file), offline_merged(&file));
}

#[test]
fn a_truncated_stream_keeps_its_whole_chunks() {
    let (stream, file) = simulate(3, 1, 2000);
    let all = live_merged(&stream);
    let cut = &stream[..stream.len() * 2 / 3];
    let mut live = LiveTrace::new(cut, "<test>", None).unwrap();
    let mut n = 0;
    while live.next_merged().unwrap().is_some() {
        n += 1;
    }
    assert!(n > 0 && n < all.len());
    assert!(live.exit.is_none());
    assert!(
        live.warnings().iter().any(|w| w.contains("truncated")),
        "{:?}",
        live.warnings()
    );
    // Not a trace at all: a clear error.
    assert!(LiveTrace::new(&b"hello world, not a trace"[..], "<test>", None).is_err());
    let mut bad = file.clone();
    bad[8] = 99;
    let e = LiveTrace::new(&bad[..], "<test>", None).err().unwrap();
    assert!(e.to_string().contains("version 99"), "{e}");
}

/// Serves `data`, then reports `WouldBlock` (as a pipe with nothing in it yet would block): the
/// events a merge emits before that are the events it can emit from that much of the stream.
struct Prefix<'a> {
    data: &'a [u8],
}

impl Read for Prefix<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.data.is_empty() {
            return Err(std::io::ErrorKind::WouldBlock.into());
        }
        let n = buf.len().min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn emitted_from_prefix(stream: &[u8], len: usize) -> usize {
    let mut live = LiveTrace::new(
        Prefix {
            data: &stream[..len],
        },
        "<test>",
        None,
    )
    .unwrap();
    let mut n = 0;
    while let Ok(Some(_)) = live.next_merged() {
        n += 1;
    }
    n
}

#[test]
fn the_merge_lags_by_at_most_the_open_chunk_and_one_floor() {
    // Thread 1 writes one chunk and parks; thread 0 runs and writes two chunks; after each
    // chunk the writer publishes the clock as thread 1's floor.
    let a = |mi| Event::Access {
        mi,
        addr: 64 * mi as u64,
        len: 8,
    };
    let s = |time| Event::Stamp { time };
    let both = Both::default();
    let mut w = writer(&both);
    let mut cuts = Vec::new();
    let mut mark = |both: &Both| cuts.push(both.0.borrow().stream.len());
    w.thread(&ThreadInfo {
        thread: 1,
        os_tid: 1,
        start_time: 5,
    })
    .unwrap();
    w.events(1, &[s(10), a(0), a(1), s(20), a(2)]).unwrap();
    mark(&both); // P1
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 21,
    }]);
    mark(&both); // P2
    w.thread(&ThreadInfo {
        thread: 0,
        os_tid: 0,
        start_time: 25,
    })
    .unwrap();
    w.events(0, &[s(30), a(3), a(4), s(40), a(5), a(6)])
        .unwrap();
    mark(&both); // P3
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 41,
    }]);
    mark(&both); // P4
    w.events(0, &[s(50), a(7), s(60), a(0)]).unwrap();
    mark(&both); // P5
    both.floors(&[Floor {
        thread: 1,
        next_seq: 1,
        time: 61,
    }]);
    mark(&both); // P6
    end(w);
    let (stream, file) = both.finish();
    let emitted: Vec<usize> = cuts
        .iter()
        .map(|&c| emitted_from_prefix(&stream, c))
        .collect();
    // P1: thread 1's chunk is all there is, and its events go at once (5).
    // P2: the floor ends thread 1's last segment; nothing else is known yet (5).
    // P3: thread 0's segment at 30 waits: thread 1's floor 21 does not rule out a stamp
    //     below 30 (5).
    // P4: floor 41 lets segments 30 and 40 go; 40 is thread 0's open segment, which goes
    //     event by event (5 + 6 = 11).
    // P5: segment 50 waits for a floor above 50 (11).
    // P6: floor 61 lets 50 and 60 go (11 + 4 = 15): the merge lags only thread 0's open
    //     chunk and the floor that follows each chunk.
    assert_eq!(emitted, vec![5, 5, 5, 11, 11, 15]);
    let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
    while live.next_merged().unwrap().is_some() {}
    let stats = live.stats();
    assert_eq!(stats.event_chunks, 3);
    assert_eq!(stats.floor_chunks, 3);
    assert!(stats.bytes_read > FILE_HEADER_LEN as u64);
    assert_eq!(live_merged(&stream), offline_merged(&file));
}

/// `(offset, length)` of every chunk after the file header, with its kind byte.
fn chunk_spans(bytes: &[u8]) -> Vec<(usize, usize, u8)> {
    let mut spans = Vec::new();
    let mut at = FILE_HEADER_LEN;
    while at + 32 <= bytes.len() {
        let stored = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
        spans.push((at, 32 + stored, bytes[at + 4]));
        at += 32 + stored;
    }
    spans
}

/// `bytes` with a copy of its `k`-th events chunk inserted before chunk `before`.
fn with_repeat(bytes: &[u8], k: usize, before: usize) -> Vec<u8> {
    let spans = chunk_spans(bytes);
    let events: Vec<_> = spans.iter().filter(|s| s.2 == 4).collect();
    let (at, len, _) = *events[k];
    let insert = spans[before].0;
    let mut out = bytes[..insert].to_vec();
    out.extend_from_slice(&bytes[at..at + len]);
    out.extend_from_slice(&bytes[insert..]);
    out
}

/// Issue 27, a loose end: a stream with a repeated sequence number is refused as a file is
/// (its events would count twice), and under salvage the copy is dropped with a warning and
/// the merge is the intact stream's, as the file reader's is the intact file's.
#[test]
fn a_repeated_chunk_is_refused_in_a_stream_as_in_a_file() {
    let (stream, file) = simulate(13, 3, 2000);
    let intact = live_merged(&stream);
    let spans = chunk_spans(&stream);
    let first_events = spans.iter().position(|s| s.2 == 4).unwrap();
    // The copy right after the original (still waiting to be merged), and just before the
    // end chunk (long merged by then).
    for (k, before) in [(0, first_events + 1), (1, spans.len() - 1)] {
        let repeated = with_repeat(&stream, k, before);
        let mut live = LiveTrace::new(&repeated[..], "<test>", None).unwrap();
        let e = loop {
            match live.next_merged() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the repeat was read past"),
                Err(e) => break e.to_string(),
            }
        };
        assert!(e.contains("repeats") && e.contains("twice"), "{e}");
        let mut live = LiveTrace::new(&repeated[..], "<test>", None).unwrap();
        let mut events = Vec::new();
        let e = loop {
            match live.next_thread_chunk(&mut events) {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the repeat was read past"),
                Err(e) => break e.to_string(),
            }
        };
        assert!(e.contains("repeats"), "{e}");

        let options = rdtrace::OpenOptions {
            salvage: true,
            ..Default::default()
        };
        let mut live = LiveTrace::with_options(&repeated[..], "<test>", None, options).unwrap();
        let mut salvaged = Vec::new();
        while let Some(x) = live.next_merged().unwrap() {
            salvaged.push(x);
        }
        assert_eq!(salvaged, intact);
        assert_eq!(live.warnings().len(), 1, "{:?}", live.warnings());
        assert!(live.warnings()[0].contains("dropped (salvage)"));
    }
    // The same repeat in a file: refused, or dropped under salvage.
    let file_spans = chunk_spans(&file);
    let repeated = with_repeat(
        &file,
        0,
        file_spans.iter().position(|s| s.2 == 4).unwrap() + 1,
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    std::fs::write(&path, &repeated).unwrap();
    let e = Trace::open(&path).unwrap_err().to_string();
    assert!(e.contains("repeats the chunk at offset"), "{e}");
    let options = rdtrace::OpenOptions {
        salvage: true,
        ..Default::default()
    };
    let trace = Trace::open_with(&path, options).unwrap();
    let merged: Vec<_> = trace.merged().unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(merged, offline_merged(&file));
}

/// A stamp of `u64::MAX` (hostile, or a clock gone wrong) is a key like any other: the merge
/// emits it rather than waiting for a smaller one forever, from a file and from a stream
/// (found by the fuzz corpus test).
#[test]
fn a_stamp_at_the_end_of_time_does_not_stall_the_merge() {
    let access = |a: u64| Event::Access {
        mi: 0,
        addr: a * 8,
        len: 8,
    };
    let end = Event::Stamp { time: u64::MAX };
    let threads = vec![
        (1, vec![vec![end, access(1), access(2)]]),
        (
            2,
            vec![vec![Event::Stamp { time: 5 }, access(3), end, access(4)]],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    rdtrace::testing::write_trace_chunks(&path, &module(1), &threads).unwrap();
    let merged = offline_merged(&std::fs::read(&path).unwrap());
    let order: Vec<(u32, Event)> = vec![
        (1, Event::Stamp { time: 5 }),
        (1, access(3)),
        (0, end),
        (0, access(1)),
        (0, access(2)),
        (1, end),
        (1, access(4)),
    ];
    assert_eq!(merged, order);
    // Live, the file's bytes end too (a thread unknown when a segment goes cannot hold it
    // back, so only the events are compared, not their order).
    let mut live = live_merged(&std::fs::read(&path).unwrap());
    let mut all = order;
    live.sort_by_key(|x| format!("{x:?}"));
    all.sort_by_key(|x| format!("{x:?}"));
    assert_eq!(live, all);
}

/// Issue 28: one file-header rule for both readers. A header cut after the magic is an empty
/// trace with the same warning; a short or alien start is not a trace; a version the reader
/// does not know is refused naming the newest it reads.
#[test]
fn a_file_and_a_stream_read_the_file_header_by_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let good = rdtrace::chunk::file_header(rdtrace::version::CURRENT);
    // The magic and two bytes of the version.
    let cut = &good[..10];
    let path = dir.path().join("cut.rdtrace");
    std::fs::write(&path, cut).unwrap();
    let file = Trace::open(&path).unwrap();
    assert_eq!(file.total_events(), 0);
    assert!(file.warnings()[0].ends_with("file ends inside the file header"));
    let mut live = LiveTrace::new(cut, "<test>", None).unwrap();
    assert_eq!(live.next_merged().unwrap(), None);
    assert!(live.warnings()[0].ends_with("file ends inside the file header"));
    for alien in [&good[..7], b"not a trace at all", &[][..]] {
        std::fs::write(&path, alien).unwrap();
        assert!(matches!(
            Trace::open(&path),
            Err(rdtrace::TraceError::NotATrace { .. })
        ));
        assert!(matches!(
            LiveTrace::new(alien, "<test>", None),
            Err(rdtrace::TraceError::NotATrace { .. })
        ));
    }
    let future = rdtrace::chunk::file_header(999);
    std::fs::write(&path, future).unwrap();
    let e = Trace::open(&path).err().unwrap().to_string();
    assert!(
        e.contains("version 999") && e.contains(&format!("..={}", rdtrace::version::CURRENT)),
        "{e}"
    );
    let e = LiveTrace::new(&future[..], "<test>", None)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("version 999") && e.contains(&format!("..={}", rdtrace::version::STREAM)),
        "{e}"
    );
}
