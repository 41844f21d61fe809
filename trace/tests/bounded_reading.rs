//! Issue 27, points 2 to 4, in the reader: work bounded by what the file justifies, repeated
//! chunks refused (or dropped under salvage), salvage past a zeroed region, and files that are
//! not regular files refused.

use rdtrace::check::{check_file, check_trace};
use rdtrace::chunk::*;
use rdtrace::meta::{MemInstrMeta, ModuleMeta};
use rdtrace::work::{TouchLimit, TOUCH_FLOOR, TOUCH_PER_TRACE_BYTE};
use rdtrace::writer::TraceWriter;
use rdtrace::{Event, LiveTrace, OpenOptions, Trace, TraceError};
use std::path::Path;

const SALVAGE: OpenOptions = OpenOptions {
    strict: false,
    salvage: true,
    max_touched: TouchLimit::Auto,
    defer_validation: false,
};

fn module() -> ModuleMeta {
    rdtrace::testing::one_block_module("m", 2)
}

/// `3n` events of one thread: block 0, a strided access and a scattered one per iteration
/// (the scattered addresses keep chunks from compressing to almost nothing).
fn events(n: u64) -> Vec<Event> {
    let mut out = Vec::new();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for i in 0..n {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.push(Event::Block { bb: 0 });
        out.push(Event::Access {
            mi: 0,
            addr: 0x1000 + 8 * i,
            len: 8,
        });
        out.push(Event::Access {
            mi: 1,
            addr: (x >> 20) & !7,
            len: 8,
        });
    }
    out
}

/// A trace of `chunks` events chunks of thread 0 (each `per` loop iterations), with `extra`
/// framed chunks (whole chunk bytes) written before the end chunk, whose counts say what the
/// thread recorded. Returns the events per chunk.
fn write(path: &Path, module: &ModuleMeta, chunks: usize, per: u64, extra: &[Vec<u8>]) -> u64 {
    let mut w = TraceWriter::new(Vec::new(), &ProgramInfo::default()).unwrap();
    w.module(module).unwrap();
    w.thread(&ThreadInfo::default()).unwrap();
    let evs = events(per);
    for _ in 0..chunks {
        w.events(0, &evs).unwrap();
    }
    let mut bytes = w
        .finish(&ExitInfo {
            reason: ExitReason::Exit,
            end_time: 0,
            events_recorded: vec![chunks as u64 * evs.len() as u64],
        })
        .unwrap();
    // The extra chunks go before the end chunk, the last one.
    let mut at = FILE_HEADER_LEN;
    loop {
        let len = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
        if at + CHUNK_HEADER_LEN + len == bytes.len() {
            break;
        }
        at += CHUNK_HEADER_LEN + len;
    }
    let end = bytes.split_off(at);
    for e in extra {
        bytes.extend_from_slice(e);
    }
    bytes.extend_from_slice(&end);
    std::fs::write(path, bytes).unwrap();
    evs.len() as u64
}

/// Offsets of the events chunks of a file.
fn event_chunk_offsets(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut at = FILE_HEADER_LEN;
    while at + CHUNK_HEADER_LEN <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
        if bytes[at + 4] == ChunkKind::Events as u8 {
            out.push((at, CHUNK_HEADER_LEN + len));
        }
        at += CHUNK_HEADER_LEN + len;
    }
    out
}

/// Issue 27 point 3: a chunk written twice (a replay, a copy) counted its events twice. The
/// reader refuses the file, naming both offsets; with salvage it drops the repeat.
#[test]
fn issue27_repeated_chunk_is_refused_or_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let clean = dir.path().join("clean.rdtrace");
    let per = write(&clean, &module(), 4, 100, &[]);
    let bytes = std::fs::read(&clean).unwrap();
    let (at, len) = event_chunk_offsets(&bytes)[1];
    let copy = bytes[at..at + len].to_vec();
    let p = dir.path().join("dup.rdtrace");
    write(&p, &module(), 4, 100, &[copy]);
    let err = Trace::open(&p).unwrap_err();
    assert!(matches!(err, TraceError::CorruptChunk { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("sequence number 1 repeats the chunk at offset") && msg.contains("twice"),
        "{msg}"
    );
    let t = Trace::open_with(&p, SALVAGE).unwrap();
    assert_eq!(t.total_events(), 4 * per);
    let w = t.warnings().join("\n");
    assert!(
        w.contains("repeats sequence number 1") && w.contains("dropped"),
        "{w}"
    );
    assert!(w.contains("salvaged: 1 events chunk(s) skipped"), "{w}");
}

/// Issue 27 point 2: 256 KiB of run bytes compresses to a few dozen bytes and declares 16
/// million events: refused before it is decoded (a warning that ends the thread; `check`
/// lists it as a violation).
#[test]
fn issue27_events_beyond_the_stored_ratio_are_refused_before_decoding() {
    let dir = tempfile::tempdir().unwrap();
    let mut payload = vec![0x40, 0x00, 0x10]; // access by instruction 0
                                              // Runs of 64 predicted accesses: 2^24 - 1023 events, under the absolute cap.
    payload.extend(std::iter::repeat_n(0x3f, (1 << 18) - 16));
    let events = 1 + 64 * ((1u32 << 18) - 16);
    let mut zstd = zstd::bulk::Compressor::new(19).unwrap();
    let mut bomb = Vec::new();
    frame_chunk(
        &mut bomb,
        ChunkKind::Events,
        1,
        0,
        &payload,
        events,
        Some(&mut zstd),
    );
    assert!(bomb.len() < 4096, "{}", bomb.len());
    let p = dir.path().join("bomb.rdtrace");
    write(&p, &module(), 2, 10, &[bomb]);
    let start = std::time::Instant::now();
    let t = Trace::open(&p).unwrap();
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    let w = t.warnings().join("\n");
    assert!(w.contains("events per stored byte"), "{w}");
    assert!(t.event_chunks().iter().all(|c| c.thread == 0));
    let report = check_file(&t, 10).unwrap();
    assert!(!report.is_clean());
    assert_eq!(report.violations[0].kind, "chunk");
    // The events that were read break no invariant.
    assert!(check_trace(&t, 10).unwrap().is_clean());
    // The absolute cap, whatever the ratio: more than a chunk may hold.
    let h = ChunkHeader {
        kind: ChunkKind::Events,
        codec: Codec::Raw,
        thread: 0,
        seq: 0,
        stored_len: MAX_CHUNK_PAYLOAD,
        raw_len: MAX_CHUNK_PAYLOAD,
        events: MAX_CHUNK_EVENTS + 1,
        crc32: 0,
    };
    assert!(events_unjustified(&h).unwrap().contains("a chunk may hold"));
    assert_eq!(
        events_unjustified(&ChunkHeader {
            events: MAX_CHUNK_EVENTS,
            ..h
        }),
        None
    );
}

/// Issue 27 point 2: a memory instruction of 4 GiB (crafted metadata) made every analysis walk
/// 4 GiB per access. Sizes beyond what the pass emits are corrupt metadata.
#[test]
fn issue27_static_access_size_beyond_the_pass_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = module();
    m.tables.mem_instrs[0] = MemInstrMeta {
        size: u32::MAX,
        ..m.tables.mem_instrs[0].clone()
    };
    let p = dir.path().join("size.rdtrace");
    write(&p, &m, 1, 10, &[]);
    let err = Trace::open(&p).unwrap_err().to_string();
    assert!(
        err.contains("memory instruction 0 has a static size of 4294967295 bytes"),
        "{err}"
    );
    assert!(ModuleMeta::from_blob(&module().to_blob()).is_ok());
}

/// Issue 27 point 4: 4 KiB zeroed in the middle (a disk fault) made every command fail. With
/// salvage the reader resynchronises on the next chunk, skips what is damaged, and says how
/// many chunks and events were lost (from the end chunk's counts).
#[test]
fn issue27_salvage_reads_past_a_zeroed_region() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("z.rdtrace");
    let per = write(&p, &module(), 60, 400, &[]);
    let mut bytes = std::fs::read(&p).unwrap();
    let chunks = event_chunk_offsets(&bytes);
    // Zero 4 KiB starting inside chunk 30's payload, past the next chunk's header.
    let (at, len) = chunks[30];
    let from = at + len / 2;
    bytes[from..from + 4096].fill(0);
    std::fs::write(&p, &bytes).unwrap();
    let hit = chunks
        .iter()
        .filter(|&&(a, l)| a + l > from && a < from + 4096)
        .count() as u64;
    assert!(hit >= 2, "{hit}");
    // Without salvage: a clear error that names the offset.
    let err = Trace::open(&p).unwrap_err().to_string();
    assert!(err.contains("corrupt chunk at offset"), "{err}");
    let t = Trace::open_with(&p, SALVAGE).unwrap();
    assert_eq!(t.event_chunks().len() as u64, 60 - hit);
    assert_eq!(t.total_events(), (60 - hit) * per);
    let l = t.losses();
    assert_eq!(l.events_missing(), hit * per);
    assert_eq!(l.regions_skipped, 1);
    let w = t.warnings().join("\n");
    assert!(
        w.contains("resumed at the chunk at offset")
            && w.contains(&format!("{} lost", hit * per))
            && w.contains("salvaged:"),
        "{w}"
    );
    // Every event delivered decodes; each thread goes on after the damage.
    assert_eq!(
        t.merged().unwrap().count() as u64,
        t.total_events(),
        "merged"
    );
    // An intact file under salvage reads as without it.
    let clean = dir.path().join("c.rdtrace");
    write(&clean, &module(), 3, 10, &[]);
    let t = Trace::open_with(&clean, SALVAGE).unwrap();
    assert!(t.warnings().is_empty(), "{:?}", t.warnings());
    assert!(!t.losses().any());
}

/// Issue 27 point 4: a run killed without a flush says how much is known to be lost.
#[test]
fn issue27_missing_end_chunk_says_what_is_known_lost() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("k.rdtrace");
    write(&p, &module(), 5, 10, &[]);
    let bytes = std::fs::read(&p).unwrap();
    let chunks = event_chunk_offsets(&bytes);
    // Drop chunk 2 (lost) and everything from the end chunk on (killed).
    let (a2, l2) = chunks[2];
    let (a4, l4) = chunks[4];
    let mut cut = bytes[..a2].to_vec();
    cut.extend_from_slice(&bytes[a2 + l2..a4 + l4]);
    std::fs::write(&p, &cut).unwrap();
    let t = Trace::open(&p).unwrap();
    let w = t.warnings().join("\n");
    assert!(
        w.contains("no end chunk") || w.contains("where 2 was expected"),
        "{w}"
    );
    assert_eq!(t.losses().chunks_missing, 1);
    // Cut inside the last chunk: its header tells what was cut off.
    std::fs::write(&p, &cut[..cut.len() - 5]).unwrap();
    let t = Trace::open(&p).unwrap();
    let w = t.warnings().join("\n");
    assert!(
        w.contains("an events chunk of thread 0 with 30 events"),
        "{w}"
    );
    assert_eq!(t.losses().events_cut_off, 30);
    // A clean kill (whole chunks, no end chunk) states what can and cannot be counted.
    std::fs::write(&p, &bytes[..a4 + l4]).unwrap();
    let w = Trace::open(&p).unwrap().warnings().join("\n");
    assert!(
        w.contains("no end chunk") && w.contains("no chunk is known to be lost"),
        "{w}"
    );
}

/// Loose end of issue 27: a pipe, FIFO or device is refused with a clear error (its size reads
/// as 0, which made a warning's arithmetic underflow), without waiting for a FIFO's writer.
#[test]
fn issue27_non_regular_files_are_refused() {
    let err = Trace::open("/dev/null").unwrap_err();
    assert!(matches!(err, TraceError::NotAFile { .. }), "{err}");
    assert!(err.to_string().contains("not a regular file"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("f");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let err = Trace::open(&fifo).unwrap_err();
        assert!(matches!(err, TraceError::NotAFile { .. }), "{err}");
    }
}

/// Issue 27 point 2: worksharing bounds below 0 (the crafted -2^40 that drove `simt` for
/// minutes) are a `check` violation: compiled loops number iterations from 0.
#[test]
fn issue27_negative_worksharing_bounds_are_a_violation() {
    let dir = tempfile::tempdir().unwrap();
    let mut m = module();
    m.tables.workshares = vec![rdtrace::testing::workshare(
        0,
        0,
        rdtrace::meta::WorkshareKind::Static,
        None,
    )];
    let p = dir.path().join("ws.rdtrace");
    let init = |lower| Event::WorkshareInit {
        ws: 0,
        schedule: 34,
        lower,
        upper: 99,
        stride: 1,
        incr: 1,
        chunk: 1,
    };
    rdtrace::testing::write_trace(
        &p,
        &m,
        &[vec![
            Event::Block { bb: 0 },
            init(0),
            Event::WorkshareFini { ws: 0 },
            init(-(1 << 40)),
            Event::WorkshareFini { ws: 0 },
        ]],
    )
    .unwrap();
    let t = Trace::open(&p).unwrap();
    let report = check_trace(&t, 10).unwrap();
    assert_eq!(report.violations_total, 1, "{:?}", report.violations);
    assert_eq!(report.violations[0].kind, "bounds");
    assert!(report.violations[0].message.contains("-1099511627776..=99"));
}

/// A module whose two memory instructions access `size` bytes each, and a trace of `n` loop
/// iterations of it (a strided and a scattered access per iteration, as [`events`]).
fn large_access_trace(path: &Path, size: u32, n: u64) -> Vec<u8> {
    let mut m = module();
    for i in m.tables.mem_instrs.iter_mut() {
        i.size = size;
    }
    let evs: Vec<Event> = events(n)
        .into_iter()
        .map(|e| match e {
            Event::Access { mi, addr, .. } => Event::Access {
                mi,
                addr,
                len: size as u64,
            },
            e => e,
        })
        .collect();
    rdtrace::testing::write_trace(path, &m, &[evs]).unwrap();
    std::fs::read(path).unwrap()
}

/// Issue 27 point 2, line visits: a small file of 64 KiB accesses asks for more line visits
/// than its size justifies, and both readers refuse it before any analysis sees an event; the
/// same trace opens with the bound lifted, and a trace of ordinary accesses adds nothing.
#[test]
fn issue27_a_trace_touching_more_than_its_size_justifies_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.rdtrace");
    // 2 x 4096 accesses of 64 KiB: each spans 1024 or 1025 lines (1023 or 1024 beyond the
    // first), about 512 MiB in all, from a file of a few tens of KB.
    let bytes = large_access_trace(&path, 1 << 16, 4096);
    assert!((bytes.len() as u64) * TOUCH_PER_TRACE_BYTE < TOUCH_FLOOR);
    let Err(err) = Trace::open(&path) else {
        panic!("a trace of 64 KiB accesses opened")
    };
    let touched = touched_of(&err);
    assert_eq!(touched.accesses, 8192);
    assert_eq!(touched.trace_bytes, bytes.len() as u64);
    assert!(touched.beyond_first_line >= 8192 * 1023 * 64);
    assert!(touched.beyond_first_line <= 8192 * 1024 * 64);
    assert_eq!(touched.total, touched.beyond_first_line + 8192 * 64);
    let msg = err.to_string();
    assert!(
        msg.contains("over the bound of 256 MiB") && msg.contains("--max-touched"),
        "{msg}"
    );

    // Lifted, or a bound above what it touches: it opens, and says how much it touches.
    for max_touched in [TouchLimit::Unlimited, TouchLimit::Bytes(1 << 30)] {
        let opts = OpenOptions {
            max_touched,
            ..Default::default()
        };
        let t = Trace::open_with(&path, opts).unwrap();
        assert_eq!(t.touched(), touched);
    }
    // A stated bound below: refused, whatever the file's size.
    let tight = OpenOptions {
        max_touched: TouchLimit::Bytes(1 << 20),
        ..Default::default()
    };
    assert!(matches!(
        Trace::open_with(&path, tight),
        Err(TraceError::TooMuchWork { .. })
    ));

    // A stream: refused at the chunk that crosses the bound, before it is handed over.
    let mut live = LiveTrace::new(&bytes[..], "<test>", None).unwrap();
    let mut out = Vec::new();
    let err = loop {
        match live.next_thread_chunk(&mut out) {
            Ok(Some(_)) => continue,
            Ok(None) => panic!("stream read to the end"),
            Err(e) => break e,
        }
    };
    assert!(touched_of(&err).beyond_first_line > TOUCH_FLOOR, "{err}");
    let opts = OpenOptions {
        max_touched: TouchLimit::Unlimited,
        ..Default::default()
    };
    let mut live = LiveTrace::with_options(&bytes[..], "<test>", None, opts).unwrap();
    while live.next_thread_chunk(&mut out).unwrap().is_some() {}
    assert_eq!(live.stats().touched.total, touched.total);

    // Ordinary 8-byte accesses, aligned: one line each, nothing beyond.
    let small = dir.path().join("small.rdtrace");
    large_access_trace(&small, 8, 4096);
    let t = Trace::open(&small).unwrap().touched();
    assert_eq!((t.total, t.beyond_first_line), (8192 * 64, 0));
}

fn touched_of(e: &TraceError) -> rdtrace::work::Touched {
    match e {
        TraceError::TooMuchWork { touched, .. } => *touched,
        e => panic!("{e}"),
    }
}
