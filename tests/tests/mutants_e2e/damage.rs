//! The structure-aware mutants: every kind of damage the format's structure suggests.

use super::*;

/// One damaged trace: its kind of damage, what was done, and the bytes.
pub(super) struct Mutant {
    pub(super) class: &'static str,
    pub(super) what: String,
    pub(super) bytes: Vec<u8>,
}

/// The structure-aware mutants of the trace `bytes` (at `path`), in a fixed order, each of a
/// class: `cut`, `zeroed`, `metadata` (size fields), `count` (declared events), `ratio`
/// (compressed sizes and codec), `bomb` (decompression bombs), `duplicate` (and replayed),
/// `swap`, `largest-access` (every access of the largest static size the reader accepts).
pub(super) fn mutants(path: &Path, bytes: &[u8]) -> Vec<Mutant> {
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
