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

mod lag;
mod malformed;
mod offline_agreement;

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
