//! The bodies of the fuzz targets in `fuzz/` (feature `test-util`): each takes arbitrary bytes
//! and panics only on a finding. The cargo-fuzz targets call them under libFuzzer, and
//! `trace/tests/fuzz_corpus.rs` calls them on the seed corpus and on random mutations of it in
//! every `cargo test`, so the targets always compile against the current reader and CI fuzzes
//! on every run without a nightly toolchain.
//!
//! Behind `test-util` rather than always built: nothing but tests and the fuzz crate has a use
//! for them, and the release binaries should not carry harness code.

use crate::chunk::{ExitInfo, ModuleRecord, ProgramInfo, ThreadInfo};
use crate::chunk::{CHUNK_HEADER_LEN, FILE_HEADER_LEN};
use crate::codec::{ChunkDecoder, EventBounds, MAX_RANGE_LEN};
use crate::meta::{ModuleMeta, ProgramMeta};
use crate::{Event, EventVisitor, LiveTrace, OpenOptions, Trace};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// `data` with the CRC of every whole chunk recomputed, as a crafted file (or a clobbered
/// buffer written faithfully) would have them, so that mutations reach the payload decoders.
/// Walks the chunks by their stored lengths from the end of the file header and stops at the
/// first one that runs past the end.
pub fn with_valid_crcs(data: &[u8]) -> Vec<u8> {
    let mut b = data.to_vec();
    let mut at = FILE_HEADER_LEN;
    while at + CHUNK_HEADER_LEN <= b.len() {
        let len = u32::from_le_bytes(b[at + 16..at + 20].try_into().unwrap()) as usize;
        let Some(end) = (at + CHUNK_HEADER_LEN)
            .checked_add(len)
            .filter(|&e| e <= b.len())
        else {
            break;
        };
        let mut crc = crc32fast::Hasher::new();
        crc.update(&b[at..at + 28]);
        crc.update(&b[at + CHUNK_HEADER_LEN..end]);
        b[at + 28..at + 32].copy_from_slice(&crc.finalize().to_le_bytes());
        at = end;
    }
    b
}

/// A trace file in the temporary directory, removed when dropped (a panic included, so a
/// failing proptest leaves nothing behind). Unique per call: tests run targets in parallel.
struct TempTrace(PathBuf);

impl TempTrace {
    fn new(data: &[u8]) -> TempTrace {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path =
            std::env::temp_dir().join(format!("rdtrace-fuzz-{}-{n}.rdtrace", std::process::id()));
        std::fs::write(&path, data).expect("the temporary directory is writable");
        TempTrace(path)
    }
}

impl Drop for TempTrace {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The whole reader on an arbitrary file: [`Trace::open_with`] (chunk scanner, metadata
/// decoding, the validation pass over every events chunk) leniently, strictly, with salvage
/// and with validation deferred to the reads, then every thread's events, the merged stream
/// and the invariant checker; and the same bytes read as a stream by [`LiveTrace`]. Each
/// input is read twice: as is, and with every chunk's CRC recomputed ([`with_valid_crcs`]).
/// Errors are fine; a panic, an abort, or an allocation past the fuzzer's memory limit is a
/// finding.
pub fn chunk_scanner(data: &[u8]) {
    for bytes in [data.to_vec(), with_valid_crcs(data)] {
        let file = TempTrace::new(&bytes);
        read_file(&file.0);
        read_stream(&bytes);
    }
}

/// Opens the file every way and reads every event each way.
fn read_file(path: &Path) {
    let ways = [
        OpenOptions::default(),
        OpenOptions {
            strict: true,
            ..Default::default()
        },
        OpenOptions {
            salvage: true,
            ..Default::default()
        },
        OpenOptions {
            defer_validation: true,
            ..Default::default()
        },
    ];
    for options in ways {
        let Ok(trace) = Trace::open_with(path, options) else {
            continue;
        };
        let _ = trace.total_events();
        let _ = trace.losses().events_missing();
        for t in trace.thread_indices() {
            let _ = trace.visit_thread(t, &mut Vec::new());
        }
        if let Ok(merged) = trace.merged() {
            for e in merged {
                if e.is_err() {
                    break;
                }
            }
        }
        let _ = crate::check::check_file(&trace, 20);
    }
}

/// Reads `bytes` as a stream (what `rda-report check -` does with a pipe), merged.
fn read_stream(bytes: &[u8]) {
    let Ok(mut live) = LiveTrace::new(bytes, "<fuzz>", None) else {
        return;
    };
    while let Ok(Some(_)) = live.next_merged() {}
    let _ = live.thread_indices();
}

/// The events decoder on an arbitrary payload, with bounds taken from the input's first four
/// bytes (memory instructions, branches, blocks, regions and workshares): every event it
/// delivers must lie within the bounds, it must never deliver more events than allowed, and
/// the count it returns (or reports with its error) must be the number it delivered.
pub fn codec(data: &[u8]) {
    if data.len() < 4 {
        return;
    }
    let (head, payload) = data.split_at(4);
    let bounds = EventBounds {
        mem_instr_sizes: (0..head[0] as u32)
            .map(|i| [0, 1, 4, 8][i as usize % 4])
            .collect(),
        branch_outcomes: (0..head[1] as u32).map(|i| 2 + i % 3).collect(),
        blocks: head[2] as u32,
        regions: (head[3] & 0xf) as u32,
        workshares: (head[3] >> 4) as u32,
        implied: Default::default(),
        derived: Default::default(),
        loop_runs: Default::default(),
    };
    let max = payload.len() as u64 * 64;
    let mut check = BoundsCheck {
        bounds: &bounds,
        events: 0,
    };
    let mut d = ChunkDecoder::new(bounds.mem_instr_sizes.len());
    match d.decode(payload, &bounds, max, &mut check) {
        Ok(n) => assert_eq!(n, check.events),
        Err(e) => assert_eq!(e.events, check.events),
    }
    assert!(check.events <= max);
}

/// Checks each event against the bounds as it arrives, and counts them.
struct BoundsCheck<'a> {
    bounds: &'a EventBounds,
    events: u64,
}

impl EventVisitor for BoundsCheck<'_> {
    fn block(&mut self, bb: u32) {
        assert!(bb < self.bounds.blocks);
        self.events += 1;
    }
    fn access(&mut self, mi: u32, _addr: u64, len: u64) {
        assert!((mi as usize) < self.bounds.mem_instr_sizes.len());
        assert!(len <= MAX_RANGE_LEN);
        self.events += 1;
    }
    fn branch(&mut self, br: u32, outcome: u32) {
        assert!(outcome < self.bounds.branch_outcomes[br as usize]);
        self.events += 1;
    }
    fn other(&mut self, e: Event) {
        let b = self.bounds;
        match e {
            Event::Fork { region } | Event::Join { region } | Event::RegionExit { region } => {
                assert!(region < b.regions)
            }
            Event::RegionEnter {
                region,
                omp_thread,
                team_size,
            } => assert!(region < b.regions && omp_thread < team_size),
            Event::WorkshareInit { ws, .. }
            | Event::WorkshareNext { ws, .. }
            | Event::WorkshareFini { ws } => assert!(ws < b.workshares),
            _ => {}
        }
        self.events += 1;
    }
}

/// The metadata decoder on an arbitrary blob: [`ModuleMeta::from_blob`] (header, postcard,
/// every cross-reference), then merging into a [`ProgramMeta`] twice (the second at the
/// first's counts), which a module that decoded must always allow, and the bounds the events
/// decoder derives from it; plus the other metadata records.
pub fn meta(data: &[u8]) {
    if let Ok(m) = ModuleMeta::from_blob(data) {
        let mut p = ProgramMeta::default();
        p.add_module(m.clone(), p.counts())
            .expect("a decoded module merges at bases zero");
        p.add_module(m, p.counts())
            .expect("a decoded module merges after itself");
        let b = EventBounds::of(&p);
        assert_eq!(b.blocks as usize, p.blocks.len());
        for l in &p.loops {
            assert!(l.parent.is_none_or(|q| (q as usize) < p.loops.len()));
        }
        let _ = p.format_loc(p.blocks.first().and_then(|b| b.loc));
    }
    let _ = postcard::from_bytes::<ModuleRecord>(data);
    let _ = postcard::from_bytes::<ProgramInfo>(data);
    let _ = postcard::from_bytes::<ThreadInfo>(data);
    let _ = postcard::from_bytes::<ExitInfo>(data);
}
