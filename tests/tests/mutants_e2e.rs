//! Issue 27 point 8: structure-aware mutants of real traces through every command. Two real
//! traces of `simt/vecadd.c` (one thread, what `predict` models, and two threads) are
//! damaged in every way the format's structure suggests: metadata size fields (the blob's
//! counts, postcard length prefixes, record lengths, access sizes, a huge command line, a
//! million threads in the end chunk), an events chunk's declared event count, its
//! compressed-size ratio (and 256 MiB decompression bombs), duplicated and replayed chunks,
//! swapped chunks, zeroed regions, and truncation at every chunk boundary and in the middle of
//! every chunk. Checksums are recomputed (except where the damage is physical: zeroed regions
//! and cut files), so the mutants reach the decoders.
//!
//! Every command (`info`, `dump`, `histogram`, `measure`, `predict`, `validate`, `paths`,
//! `paths-predict`, `simt`, `annotate`, `check`, `html`), each with and without `--salvage`,
//! runs on every mutant under [`HOSTILE_TIME_LIMIT`] (20 s) and [`HOSTILE_MEM_LIMIT`] (4 GiB of
//! address space, `setrlimit(RLIMIT_AS)` between fork and exec): it must exit 0, or 1 with a
//! message, never with a signal, a panic (101) or a usage error.
//!
//! A plain `cargo test` runs a fixed sample of the 251 mutants that covers every class of
//! damage on both seeds ([`chosen`]); `RDTOOLS_MUTANTS=all` runs every one (about 6000
//! command runs, five minutes on two cores), `RDTOOLS_MUTANTS=TEXT` those whose description
//! contains TEXT. A failing mutant is kept in the temporary directory and named with the exact
//! command in the failure message.

use rdtools_e2e::*;
use rdtrace::chunk::*;
use rdtrace::fuzzing::with_valid_crcs;
use rdtrace::meta::{ModuleMeta, BLOB_HEADER_LEN, MAX_ACCESS_SIZE};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A chunk of a trace file: header offset, parsed header, framed length (header + payload).
#[derive(Clone, Copy, Debug)]
struct Chunk {
    at: usize,
    h: ChunkHeader,
    len: usize,
}

impl Chunk {
    fn end(&self) -> usize {
        self.at + self.len
    }
}

fn chunks(bytes: &[u8]) -> Vec<Chunk> {
    chunk_layout(bytes)
        .into_iter()
        .map(|(at, h)| Chunk {
            at,
            h,
            len: CHUNK_HEADER_LEN + h.stored_len as usize,
        })
        .collect()
}

/// The decompressed payload of `c`.
fn payload(bytes: &[u8], c: Chunk) -> Vec<u8> {
    let stored = &bytes[c.at + CHUNK_HEADER_LEN..c.end()];
    match c.h.codec {
        Codec::Zstd => zstd::bulk::decompress(stored, c.h.raw_len as usize).unwrap(),
        Codec::Raw => stored.to_vec(),
    }
}

/// `c` framed anew (same kind, thread and sequence number, compressed) around `payload`.
fn reframed(c: Chunk, payload: &[u8], thread: u32, seq: u32, events: u32) -> Vec<u8> {
    let mut zstd = zstd::bulk::Compressor::new(3).unwrap();
    let mut out = Vec::new();
    frame_chunk(
        &mut out,
        c.h.kind,
        thread,
        seq,
        payload,
        events,
        Some(&mut zstd),
    );
    out
}

/// `bytes` with the framed chunk `c` replaced by `new`.
fn replace(bytes: &[u8], c: Chunk, new: &[u8]) -> Vec<u8> {
    let mut out = bytes[..c.at].to_vec();
    out.extend_from_slice(new);
    out.extend_from_slice(&bytes[c.end()..]);
    out
}

/// `bytes` with `new` inserted at `at`.
fn insert(bytes: &[u8], at: usize, new: &[u8]) -> Vec<u8> {
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(new);
    out.extend_from_slice(&bytes[at..]);
    out
}

/// `bytes` with the little-endian u32 at `at` set to `v`.
fn with_u32(bytes: &[u8], at: usize, v: u32) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[at..at + 4].copy_from_slice(&v.to_le_bytes());
    out
}

/// `bytes` with chunks `a` and `b` (`a` first) exchanged.
fn swapped(bytes: &[u8], a: Chunk, b: Chunk) -> Vec<u8> {
    assert!(a.end() <= b.at);
    let mut out = bytes[..a.at].to_vec();
    out.extend_from_slice(&bytes[b.at..b.end()]);
    out.extend_from_slice(&bytes[a.end()..b.at]);
    out.extend_from_slice(&bytes[a.at..a.end()]);
    out.extend_from_slice(&bytes[b.end()..]);
    out
}

/// LEB128, as postcard writes lengths and integers.
fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

/// `bytes` with the varint at `at` replaced by `v`.
fn with_varint(bytes: &[u8], at: usize, v: u64) -> Vec<u8> {
    let len = bytes[at..].iter().position(|b| b & 0x80 == 0).unwrap() + 1;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&varint(v));
    out.extend_from_slice(&bytes[at + len..]);
    out
}

/// One damaged trace: its kind of damage, what was done, and the bytes.
struct Mutant {
    class: &'static str,
    what: String,
    bytes: Vec<u8>,
}

/// The structure-aware mutants of the trace `bytes` (at `path`), in a fixed order, each of a
/// class: `cut`, `zeroed`, `metadata` (size fields), `count` (declared events), `ratio`
/// (compressed sizes and codec), `bomb` (decompression bombs), `duplicate` (and replayed),
/// `swap`, `largest-access` (every access of the largest static size the reader accepts).
fn mutants(path: &Path, bytes: &[u8]) -> Vec<Mutant> {
    let cs = chunks(bytes);
    assert_eq!(cs.last().unwrap().end(), bytes.len(), "a whole seed");
    let first = |k: ChunkKind| *cs.iter().find(|c| c.h.kind == k).unwrap();
    let (program_c, module_c, thread_c, end_c) = (
        first(ChunkKind::Program),
        first(ChunkKind::Module),
        first(ChunkKind::Thread),
        first(ChunkKind::End),
    );
    let events: Vec<Chunk> = cs
        .iter()
        .copied()
        .filter(|c| c.h.kind == ChunkKind::Events)
        .collect();
    let (first_ev, mid_ev, last_ev) = (
        events[0],
        events[events.len() / 2],
        events[events.len() - 1],
    );
    let last_seq = |t: u32| {
        events
            .iter()
            .filter(|c| c.h.thread == t)
            .map(|c| c.h.seq)
            .max()
    };
    let mut crafted: Vec<(&str, String, Vec<u8>)> = Vec::new();
    let mut physical: Vec<(&str, String, Vec<u8>)> = Vec::new();

    // Truncated at every chunk boundary and in the middle of every chunk (and of the headers).
    physical.push((
        "cut",
        "cut inside the file header".into(),
        bytes[..8].to_vec(),
    ));
    for (i, c) in cs.iter().enumerate() {
        let kind = c.h.kind;
        physical.push((
            "cut",
            format!("cut before chunk {i} ({kind:?})"),
            bytes[..c.at].to_vec(),
        ));
        physical.push((
            "cut",
            format!("cut in the middle of chunk {i} ({kind:?})"),
            bytes[..c.at + c.len / 2].to_vec(),
        ));
    }
    physical.push((
        "cut",
        "cut inside the first events chunk's header".into(),
        bytes[..first_ev.at + 20].to_vec(),
    ));
    physical.push((
        "cut",
        "last byte cut".into(),
        bytes[..bytes.len() - 1].to_vec(),
    ));

    // Zeroed regions: 4 KiB pages at the start, a quarter, the middle and the end, and
    // smaller ones over the metadata and over one events chunk.
    let l = bytes.len();
    for (from, n) in [
        (0, 4096),
        (16, 4096),
        (l / 4, 4096),
        (l / 2, 4096),
        (l.saturating_sub(4096), 4096),
        (module_c.at + CHUNK_HEADER_LEN, 512),
        (mid_ev.at + 8, 64),
        (mid_ev.at, mid_ev.len),
    ] {
        let mut b = bytes.to_vec();
        let to = (from + n).min(l);
        b[from..to].fill(0);
        physical.push(("zeroed", format!("{} bytes zeroed at {from}", to - from), b));
    }

    // Metadata size fields. The module chunk is rebuilt from the trace's metadata (one module
    // at bases zero, so the program's tables are the module's).
    let program = rdtrace::Trace::open(path).unwrap().meta;
    assert_eq!(program.modules.len(), 1);
    let meta = ModuleMeta {
        name: program.modules[0].name.clone(),
        content_hash: program.modules[0].content_hash,
        tables: program.tables.clone(),
    };
    let bases = program.modules[0].bases;
    let module_chunk = |blob: Vec<u8>| -> Vec<u8> {
        let rec = postcard_bytes(&ModuleRecord { bases, blob });
        replace(bytes, module_c, &reframed(module_c, &rec, 0, 0, 0))
    };
    let blob = meta.to_blob();
    for (k, kind) in [
        "functions",
        "blocks",
        "memory instructions",
        "branches",
        "loops",
        "regions",
        "workshares",
    ]
    .iter()
    .enumerate()
    {
        crafted.push((
            "metadata",
            format!("blob header: {kind} count 2^32 - 1"),
            module_chunk(with_u32(&blob, 8 + 4 * k, u32::MAX)),
        ));
    }
    let blocks = meta.tables.blocks.len() as u32;
    crafted.push((
        "metadata",
        "blob header: one block more than the tables hold".into(),
        module_chunk(with_u32(&blob, 8 + 4, blocks + 1)),
    ));
    // Postcard length prefixes: the file table's, and its first name's.
    let files_at = BLOB_HEADER_LEN
        + postcard_bytes(&meta.name).len()
        + postcard_bytes(&meta.content_hash).len();
    let first_name_at = files_at + varint(meta.tables.files.len() as u64).len();
    for (what, at, v) in [
        ("file table length 2^32 - 1", files_at, u32::MAX as u64),
        ("file table length 2^62", files_at, 1 << 62),
        ("first file name length 2^31", first_name_at, 1 << 31),
    ] {
        crafted.push((
            "metadata",
            format!("blob postcard: {what}"),
            module_chunk(with_varint(&blob, at, v)),
        ));
    }
    // The module record's blob length prefix (after the seven bases).
    let rec = postcard_bytes(&ModuleRecord {
        bases,
        blob: blob.clone(),
    });
    let blob_len_at = postcard_bytes(&bases).len();
    for (what, v) in [
        ("one byte more", blob.len() as u64 + 1),
        ("one byte less", blob.len() as u64 - 1),
        ("2^40", 1 << 40),
    ] {
        let r = with_varint(&rec, blob_len_at, v);
        crafted.push((
            "metadata",
            format!("module record: blob length {what}"),
            replace(bytes, module_c, &reframed(module_c, &r, 0, 0, 0)),
        ));
    }
    let mut shifted = bases;
    shifted[1] = 1;
    crafted.push((
        "metadata",
        "module record: block base 1".into(),
        replace(
            bytes,
            module_c,
            &reframed(
                module_c,
                &postcard_bytes(&ModuleRecord {
                    bases: shifted,
                    blob: blob.clone(),
                }),
                0,
                0,
                0,
            ),
        ),
    ));
    // Access sizes: the largest the reader accepts (its own class: see
    // `issue27_largest_access_size_keeps_commands_within_the_time_limit`), one more, a page,
    // and ranged (0).
    for size in [MAX_ACCESS_SIZE, MAX_ACCESS_SIZE + 1, 4096, 0] {
        let mut m = meta.clone();
        for i in m.tables.mem_instrs.iter_mut() {
            i.size = size;
        }
        crafted.push((
            if size == MAX_ACCESS_SIZE {
                "largest-access"
            } else {
                "metadata"
            },
            format!("every access of {size} bytes"),
            module_chunk(m.to_blob()),
        ));
    }
    // A block that claims every memory instruction (a valid range, a wrong one).
    let mut m = meta.clone();
    let nm = m.tables.mem_instrs.len() as u32;
    m.tables.blocks[0].first_mem_instr = 0;
    m.tables.blocks[0].num_mem_instrs = nm;
    crafted.push((
        "metadata",
        "block 0 claims every memory instruction".into(),
        module_chunk(m.to_blob()),
    ));
    // The other records: a 10 MB command line, a million threads and 2^64 - 1 events in the
    // end chunk, a fatal signal of i32::MIN, thread indices far out.
    let info = ProgramInfo {
        program: "vecadd".into(),
        args: vec!["x".repeat(100); 100_000],
        clock: "tsc".into(),
        ..Default::default()
    };
    crafted.push((
        "metadata",
        "program chunk: 100000 arguments of 100 bytes".into(),
        replace(
            bytes,
            program_c,
            &reframed(program_c, &postcard_bytes(&info), 0, 0, 0),
        ),
    ));
    let nthreads = events.iter().map(|c| c.h.thread).max().unwrap() as usize + 1;
    for (what, exit) in [
        (
            "2^64 - 1 events per thread",
            ExitInfo {
                reason: ExitReason::Exit,
                end_time: u64::MAX,
                events_recorded: vec![u64::MAX; nthreads],
            },
        ),
        (
            "a million threads",
            ExitInfo {
                reason: ExitReason::Exit,
                end_time: 0,
                events_recorded: vec![1; 1 << 20],
            },
        ),
        (
            "no threads, signal i32::MIN",
            ExitInfo {
                reason: ExitReason::Signal(i32::MIN),
                end_time: 0,
                events_recorded: Vec::new(),
            },
        ),
    ] {
        crafted.push((
            "metadata",
            format!("end chunk: {what}"),
            replace(
                bytes,
                end_c,
                &reframed(end_c, &postcard_bytes(&exit), 0, 0, 0),
            ),
        ));
    }
    for t in [1 << 20, u32::MAX] {
        let th = ThreadInfo {
            thread: t,
            os_tid: 1,
            start_time: 0,
        };
        crafted.push((
            "metadata",
            format!("thread chunk: thread {t}"),
            replace(
                bytes,
                thread_c,
                &reframed(thread_c, &postcard_bytes(&th), t, 0, 0),
            ),
        ));
    }
    // Framing sizes of the module chunk: its decompressed and stored lengths.
    let raw_len_of = |c: Chunk| c.at + 20;
    let stored_len_of = |c: Chunk| c.at + 16;
    let m_raw = module_c.h.raw_len;
    for (what, v) in [
        ("0", 0),
        ("1000 times its size", (m_raw * 1000).min(MAX_CHUNK_PAYLOAD)),
        ("the largest allowed", MAX_CHUNK_PAYLOAD),
        ("past the limit", MAX_CHUNK_PAYLOAD + 1),
    ] {
        crafted.push((
            "metadata",
            format!("module chunk: decompressed length {what}"),
            with_u32(bytes, raw_len_of(module_c), v),
        ));
    }
    let m_stored = module_c.h.stored_len;
    for (what, v) in [
        ("one byte less", m_stored - 1),
        ("one byte more", m_stored + 1),
    ] {
        crafted.push((
            "metadata",
            format!("module chunk: stored length {what}"),
            with_u32(bytes, stored_len_of(module_c), v),
        ));
    }

    // An events chunk's declared event count.
    let n = mid_ev.h.events;
    let raw = mid_ev.h.raw_len;
    let count_at = mid_ev.at + 24;
    for (what, v) in [
        ("0", 0),
        ("one less", n - 1),
        ("one more", n + 1),
        ("twice", 2 * n),
        ("64 per payload byte (the limit)", 64 * raw),
        ("past 64 per payload byte", 64 * raw + 1),
        ("the per-chunk cap", MAX_CHUNK_EVENTS),
        ("2^32 - 1", u32::MAX),
    ] {
        crafted.push((
            "count",
            format!("events chunk: event count {what}"),
            with_u32(bytes, count_at, v),
        ));
    }
    // Its compressed-size ratio, its codec, and decompression bombs.
    let stored = mid_ev.h.stored_len;
    for (what, v) in [
        ("0", 0),
        ("one less", raw - 1),
        ("one more", raw + 1),
        ("its stored length", stored),
        ("1000 times", (raw * 1000).min(MAX_CHUNK_PAYLOAD)),
        ("the largest allowed", MAX_CHUNK_PAYLOAD),
    ] {
        crafted.push((
            "ratio",
            format!("events chunk: decompressed length {what}"),
            with_u32(bytes, raw_len_of(mid_ev), v),
        ));
    }
    crafted.push((
        "ratio",
        "events chunk: stored as raw although compressed".into(),
        {
            let mut b = bytes.to_vec();
            b[mid_ev.at + 5] = Codec::Raw as u8;
            b
        },
    ));
    {
        let bomb = vec![0u8; MAX_CHUNK_PAYLOAD as usize];
        crafted.push((
            "bomb",
            "events chunk: 256 MiB of zeros declaring the per-chunk cap".into(),
            replace(
                bytes,
                mid_ev,
                &reframed(
                    mid_ev,
                    &bomb,
                    mid_ev.h.thread,
                    mid_ev.h.seq,
                    MAX_CHUNK_EVENTS,
                ),
            ),
        ));
    }
    {
        let mut bomb = rec.clone();
        bomb.resize(MAX_CHUNK_PAYLOAD as usize, 0);
        crafted.push((
            "bomb",
            "module chunk: its record followed by 256 MiB of zeros".into(),
            replace(bytes, module_c, &reframed(module_c, &bomb, 0, 0, 0)),
        ));
    }
    let ev_payload = payload(bytes, mid_ev);
    crafted.push((
        "ratio",
        "events chunk: payload zeroed before compression".into(),
        replace(
            bytes,
            mid_ev,
            &reframed(
                mid_ev,
                &vec![0; ev_payload.len()],
                mid_ev.h.thread,
                mid_ev.h.seq,
                n,
            ),
        ),
    ));

    // Duplicated and replayed chunks.
    let chunk_bytes = |c: Chunk| bytes[c.at..c.end()].to_vec();
    for c in [program_c, module_c, thread_c, mid_ev, end_c] {
        crafted.push((
            "duplicate",
            format!("{:?} chunk at {} twice in a row", c.h.kind, c.at),
            insert(bytes, c.end(), &chunk_bytes(c)),
        ));
    }
    crafted.push((
        "duplicate",
        "first events chunk replayed before the end chunk".into(),
        insert(bytes, end_c.at, &chunk_bytes(first_ev)),
    ));
    crafted.push((
        "duplicate",
        "first events chunk replayed after the end chunk".into(),
        insert(bytes, bytes.len(), &chunk_bytes(first_ev)),
    ));
    crafted.push(("duplicate", "every events chunk twice".into(), {
        let ev_bytes: Vec<u8> = events.iter().flat_map(|&c| chunk_bytes(c)).collect();
        insert(bytes, end_c.at, &ev_bytes)
    }));
    let t0 = first_ev.h.thread;
    crafted.push((
        "duplicate",
        "first events chunk replayed with the next sequence number".into(),
        insert(
            bytes,
            end_c.at,
            &reframed(
                first_ev,
                &payload(bytes, first_ev),
                t0,
                last_seq(t0).unwrap() + 1,
                first_ev.h.events,
            ),
        ),
    ));
    if let Some(other) = events.iter().find(|c| c.h.thread != t0) {
        crafted.push((
            "duplicate",
            format!(
                "thread {}'s chunk replayed as thread {t0}'s next",
                other.h.thread
            ),
            insert(
                bytes,
                end_c.at,
                &reframed(
                    *other,
                    &payload(bytes, *other),
                    t0,
                    last_seq(t0).unwrap() + 1,
                    other.h.events,
                ),
            ),
        ));
    }
    for t in [1 << 20, u32::MAX] {
        crafted.push((
            "duplicate",
            format!("events chunk relabelled thread {t}"),
            with_u32(bytes, mid_ev.at + 8, t),
        ));
    }
    crafted.push((
        "duplicate",
        "events chunk with sequence number 2^32 - 1".into(),
        with_u32(bytes, mid_ev.at + 12, u32::MAX),
    ));

    // Swapped chunks.
    let next_same_thread = events
        .iter()
        .find(|c| c.at > mid_ev.at && c.h.thread == mid_ev.h.thread)
        .copied()
        .unwrap_or(last_ev);
    crafted.push((
        "swap",
        "two events chunks of one thread swapped".into(),
        swapped(bytes, mid_ev, next_same_thread),
    ));
    crafted.push((
        "swap",
        "first and last events chunks swapped".into(),
        swapped(bytes, first_ev, last_ev),
    ));
    crafted.push((
        "swap",
        "module chunk after the first events chunk".into(),
        swapped(bytes, module_c, first_ev),
    ));
    crafted.push((
        "swap",
        "program and module chunks swapped".into(),
        swapped(bytes, program_c, module_c),
    ));
    crafted.push((
        "swap",
        "end chunk before the last events chunk".into(),
        swapped(bytes, last_ev, end_c),
    ));

    physical
        .into_iter()
        .map(|(class, what, bytes)| Mutant { class, what, bytes })
        .chain(crafted.into_iter().map(|(class, what, b)| Mutant {
            class,
            what: format!("{what} (checksums recomputed)"),
            bytes: with_valid_crcs(&b),
        }))
        .collect()
}

/// Mutants a plain `cargo test` runs: about this many of the 251 (rounded up per class), each
/// through every command.
const SAMPLE: usize = 72;

/// Which of `all` (seed, threads, mutant) to run. `RDTOOLS_MUTANTS=all`: every one (about 6000
/// runs, 5 minutes on two cores); `RDTOOLS_MUTANTS=TEXT`: those whose description contains
/// TEXT (to reproduce one); unset: the sequential seed's decompression bombs, and of each
/// other class of each seed evenly spaced ones in proportion to the class's size, at least one (the same ones
/// every run).
fn chosen(all: &[(usize, u32, Mutant)], filter: Option<&str>) -> Vec<bool> {
    match filter {
        Some("all") => return vec![true; all.len()],
        Some(text) => return all.iter().map(|(_, _, m)| m.what.contains(text)).collect(),
        None => {}
    }
    let mut out = vec![false; all.len()];
    let mut groups: std::collections::BTreeMap<(usize, &str), Vec<usize>> = Default::default();
    for (i, (k, _, m)) in all.iter().enumerate() {
        groups.entry((*k, m.class)).or_default().push(i);
    }
    for ((seed, class), members) in groups {
        // Each bomb run decompresses 256 MiB, one to five seconds: the sequential seed's only.
        if class == "bomb" && seed > 0 {
            continue;
        }
        let n = members.len();
        let take = if class == "bomb" {
            n
        } else {
            (n * SAMPLE).div_ceil(all.len()).clamp(1, n)
        };
        for j in 0..take {
            out[members[j * n / take]] = true;
        }
    }
    out
}

/// Every command on `trace`, each with and without `--salvage`; `seq` is a sequential trace
/// for `validate` (`trace` itself when it is sequential, then `threads` is 1), `html` writes
/// `out`.
fn commands(trace: &Path, threads: u32, seq: &Path, out: &Path) -> Vec<Vec<String>> {
    let t = trace.to_str().unwrap();
    let s = seq.to_str().unwrap();
    let o = out.to_str().unwrap();
    let real = format!("{threads}={t}");
    let train = |n: u32| format!("{t}:{n}");
    let base: Vec<Vec<String>> = [
        vec!["info", t],
        vec!["dump", t, "--limit", "300"],
        vec!["histogram", t],
        vec!["measure", t],
        vec!["predict", t, "--cores", "1,2"],
        vec!["validate", "--seq", s, "--real", &real],
        vec!["paths", t],
        vec![
            "paths-predict",
            "--train",
            &train(1),
            "--train",
            &train(2),
            "--validate",
            &train(3),
        ],
        vec!["simt", t],
        vec!["annotate", t],
        vec!["check", t],
        vec!["html", t, "-o", o, "-q"],
    ]
    .into_iter()
    .map(|c| c.into_iter().map(String::from).collect())
    .collect();
    base.iter()
        .cloned()
        .chain(base.iter().map(|c| {
            let mut c = c.clone();
            c.push("--salvage".into());
            c
        }))
        .collect()
}

/// Issue 27 point 8: every command on every structure-aware mutant ends within 20 s and
/// 4 GiB with exit 0 or 1 and a message.
#[test]
fn issue27_structure_aware_mutants_pass_every_command_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    // Sequential (what predict and validate model) and two threads; 4096 elements, chunks of
    // 4096 and 2048 events: 17 and 30 chunks.
    let seeds = [
        (vecadd_trace(dir.path(), "seq.rdtrace", 1, 4096, 4096), 1),
        (vecadd_trace(dir.path(), "two.rdtrace", 2, 2048, 4096), 2),
    ];
    let seq = seeds[0].0.clone();
    // The pristine seeds: every command succeeds (predict refuses the threaded run).
    for (path, threads) in &seeds {
        for args in commands(path, *threads, &seq, &dir.path().join("pristine.html")) {
            let run = rda_report_bounded(&args)
                .unwrap_or_else(|why| panic!("rda-report {args:?} on a pristine seed: {why}"));
            let want = if args[0] == "predict" && *threads > 1 {
                1
            } else {
                0
            };
            assert_eq!(run.code, want, "{args:?}: {}", run.stderr);
        }
    }
    // The chosen mutants on disk, then (mutant, command) jobs over a few workers.
    let mut all = Vec::new();
    for (k, (path, threads)) in seeds.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        all.extend(mutants(path, &bytes).into_iter().map(|m| (k, *threads, m)));
    }
    let total = all.len();
    let chosen = chosen(&all, std::env::var("RDTOOLS_MUTANTS").ok().as_deref());
    let mut files: Vec<(PathBuf, u32, String)> = Vec::new();
    for (i, (k, threads, m)) in all.into_iter().enumerate() {
        if chosen[i] {
            let p = dir.path().join(format!("m{k}-{i}.rdtrace"));
            std::fs::write(&p, &m.bytes).unwrap();
            files.push((p, threads, format!("seed {k} mutant {i}: {}", m.what)));
        }
    }
    assert!(!files.is_empty(), "RDTOOLS_MUTANTS selects no mutant");
    let per_mutant = commands(&seq, 1, &seq, &seq).len();
    let jobs: Vec<(usize, usize)> = (0..files.len())
        .flat_map(|f| (0..per_mutant).map(move |c| (f, c)))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    // Runs over a quarter of the time limit, listed in the summary.
    let slow = Mutex::new(Vec::new());
    // Exit 0 and 1 counts, and the slowest and largest runs.
    let stats = Mutex::new(([0usize; 2], (0.0f64, String::new()), (0u64, String::new())));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for w in 0..workers {
            let (jobs, files, next, failures, stats, slow, seq) =
                (&jobs, &files, &next, &failures, &stats, &slow, &seq);
            let out = dir.path().join(format!("out{w}.html"));
            scope.spawn(move || {
                while let Some(&(f, c)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (path, threads, what) = &files[f];
                    let args = commands(path, *threads, seq, &out).swap_remove(c);
                    match rda_report_bounded(&args) {
                        Ok(run) => {
                            let mut s = stats.lock().unwrap();
                            s.0[run.code as usize] += 1;
                            let secs = run.wall.as_secs_f64();
                            if run.wall > HOSTILE_TIME_LIMIT / 4 {
                                slow.lock()
                                    .unwrap()
                                    .push(format!("{secs:.1} s: {what}: {}", args.join(" ")));
                            }
                            if secs > s.1 .0 {
                                s.1 = (secs, format!("{what}: {}", args[0]));
                            }
                            if run.peak_rss_kib > s.2 .0 {
                                s.2 = (run.peak_rss_kib, format!("{what}: {}", args[0]));
                            }
                        }
                        Err(why) => {
                            let keep = std::env::temp_dir().join(format!(
                                "rdtools-mutant-{}",
                                path.file_name().unwrap().to_string_lossy()
                            ));
                            let _ = std::fs::copy(path, &keep);
                            failures.lock().unwrap().push(format!(
                                "{what}: rda-report {} -> {why} (mutant kept at {})",
                                args.join(" "),
                                keep.display()
                            ));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let ([ok, refused], slowest, largest) = stats.into_inner().unwrap();
    eprintln!(
        "{} of {total} mutants x {per_mutant} commands = {} runs in {:.1} s on {workers} workers: {ok} exit 0, \
         {refused} exit 1, {} failed; slowest {:.2} s ({}), largest {} MiB ({})",
        files.len(),
        jobs.len(),
        start.elapsed().as_secs_f64(),
        failures.len(),
        slowest.0,
        slowest.1,
        largest.0 >> 10,
        largest.1
    );
    for s in slow.into_inner().unwrap() {
        eprintln!("slow: {s}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ok > 0 && refused > 0, "{ok} read, {refused} refused");
}

/// Issue 27, found by the mutants above: the reader accepts static access sizes up to
/// [`MAX_ACCESS_SIZE`] (64 KiB) and the analyses visit every 64-byte line of an access, so an
/// access costs up to 1024 line visits however few bytes the file spends on it. A 33 KB
/// sequential vecadd trace whose metadata says 64 KiB for every access, its events replayed
/// eight more times, asks for about 7 GiB of line visits: before the touch bound
/// (`rdtrace::work`), `histogram` and `paths` took 13-19 s and `measure`, `validate`,
/// `paths-predict`, `annotate` and `html` ran past 20 s (2026-11-26, two loaded cores). Now
/// every analysis refuses it at once (exit 1, naming `--max-touched`), and `info` and `dump`,
/// which visit no line, still read it.
#[test]
fn issue27_largest_access_size_keeps_commands_within_the_time_limit() {
    let dir = tempfile::tempdir().unwrap();
    let seed = vecadd_trace(dir.path(), "seq.rdtrace", 1, 4096, 4096);
    let bytes = std::fs::read(&seed).unwrap();
    let program = rdtrace::Trace::open(&seed).unwrap().meta;
    let mut meta = ModuleMeta {
        name: program.modules[0].name.clone(),
        content_hash: program.modules[0].content_hash,
        tables: program.tables.clone(),
    };
    for i in meta.tables.mem_instrs.iter_mut() {
        i.size = MAX_ACCESS_SIZE;
    }
    let cs = chunks(&bytes);
    let module_c = *cs.iter().find(|c| c.h.kind == ChunkKind::Module).unwrap();
    let rec = postcard_bytes(&ModuleRecord {
        bases: program.modules[0].bases,
        blob: meta.to_blob(),
    });
    let mut crafted = replace(&bytes, module_c, &reframed(module_c, &rec, 0, 0, 0));
    // The events chunks again, eight times, as the thread's next chunks.
    let cs = chunks(&crafted);
    let events: Vec<Chunk> = cs
        .iter()
        .copied()
        .filter(|c| c.h.kind == ChunkKind::Events)
        .collect();
    let end = cs.iter().find(|c| c.h.kind == ChunkKind::End).unwrap().at;
    let mut replay = Vec::new();
    let mut seq = events.iter().map(|c| c.h.seq).max().unwrap() + 1;
    for _ in 0..8 {
        for &c in &events {
            let p = payload(&crafted, c);
            replay.extend(reframed(c, &p, c.h.thread, seq, c.h.events));
            seq += 1;
        }
    }
    crafted = insert(&crafted, end, &replay);
    let path = dir.path().join("large-access.rdtrace");
    std::fs::write(&path, &crafted).unwrap();
    eprintln!("{} bytes", crafted.len());
    let mut failures = Vec::new();
    for args in commands(&path, 1, &path, &dir.path().join("out.html"))
        .into_iter()
        .filter(|c| !c.contains(&"--salvage".to_string()))
    {
        match rda_report_bounded(&args) {
            Ok(run) => {
                eprintln!("{:.1} s: {}", run.wall.as_secs_f64(), args[0]);
                let looks = args[0] == "info" || args[0] == "dump";
                let refused = run.code == 1 && run.stderr.contains("--max-touched");
                if looks && run.code != 0 {
                    failures.push(format!("rda-report {}: exit {}", args.join(" "), run.code));
                } else if looks && args[0] == "info" && !run.stderr.contains("--max-touched") {
                    failures.push(format!("info does not warn: {}", run.stderr));
                } else if !looks && !refused {
                    failures.push(format!(
                        "rda-report {}: exit {} without the touch-bound error: {}",
                        args.join(" "),
                        run.code,
                        run.stderr
                    ));
                }
            }
            Err(why) => failures.push(format!("rda-report {}: {why}", args.join(" "))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The bound is one flag away: stated explicitly it is honoured, and it is a usage error
    // when it does not parse.
    let p = path.to_str().unwrap();
    let run = rda_report_bounded(&["histogram", p, "--max-touched", "1M"]).unwrap();
    assert!(
        run.stderr.contains("over the bound of 1 MiB (as given)"),
        "{}",
        run.stderr
    );
    let (ok, _, err) = rdtools_e2e::rda_report(&["histogram", p, "--max-touched", "lots"]);
    assert!(!ok && err.contains("is not a number of bytes"), "{err}");
}
