//! Issue 27 point 2: work and memory bounded by what the file can justify. Real traces get
//! crafted values (checksums recomputed, as a crafted file would have them): a memory
//! instruction of 4 GiB, a chunk declaring 4.3 * 10^9 events in a few KB, worksharing bounds
//! of -2^40. Every command ends within 20 s and 4 GiB of address space with exit 0 or 1 and a
//! message, never a panic, and `check` reports each as a violation (or refuses the file).
//! Also the loose end of `dump --limit/--skip` with a negative value.

use rdtools_e2e::*;
use rdtrace::chunk::*;
use rdtrace::meta::ModuleMeta;
use rdtrace::Event;
use std::path::Path;
use std::process::Command;

/// Runs `rda-report args` under the limits ([`rda_report_bounded`]: 20 s, 4 GiB of address
/// space); returns (exit code, stderr). Panics on a signal, a panic (101), a timeout, or exit 1
/// without an error message.
fn run_bounded(args: &[&str]) -> (i32, String) {
    let run = rda_report_bounded(args).unwrap_or_else(|why| panic!("rda-report {args:?}: {why}"));
    (run.code, run.stderr)
}

/// The reading commands run on every hostile trace.
const COMMANDS: &[&[&str]] = &[
    &["info"],
    &["dump", "--limit", "300"],
    &["histogram"],
    &["histogram", "--per-thread"],
    &["measure"],
    &["annotate"],
    &["paths"],
    &["simt"],
    &["check"],
];

/// Runs every command on `trace`; returns each command's (exit code, stderr).
fn every_command(trace: &Path) -> Vec<(String, i32, String)> {
    let t = trace.to_str().unwrap();
    COMMANDS
        .iter()
        .map(|c| {
            let mut args = vec![c[0], t];
            args.extend(&c[1..]);
            let (code, err) = run_bounded(&args);
            (c.join(" "), code, err)
        })
        .collect()
}

/// `(offset, header, stored payload)` of every chunk of a file.
fn chunks(bytes: &[u8]) -> Vec<(usize, ChunkHeader, Vec<u8>)> {
    chunk_layout(bytes)
        .into_iter()
        .map(|(at, h)| {
            let start = at + CHUNK_HEADER_LEN;
            (at, h, bytes[start..start + h.stored_len as usize].to_vec())
        })
        .collect()
}

/// The file with the chunk at `at` (old length `old_len`) replaced by `new`.
fn replace(bytes: &[u8], at: usize, old_len: usize, new: &[u8]) -> Vec<u8> {
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(new);
    out.extend_from_slice(&bytes[at + old_len..]);
    out
}

/// Issue 27 point 2: a memory instruction whose metadata says 4 GiB made `info` report 96 TB
/// accessed and `histogram` run for minutes; `check` found nothing. The reader now refuses
/// sizes the pass never emits: every command fails fast with a message naming it.
#[test]
fn issue27_four_gib_memory_instruction_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let seed = small_chunk_vecadd_trace(dir.path(), 512);
    let bytes = std::fs::read(&seed).unwrap();
    let (at, _, stored) = chunks(&bytes)
        .into_iter()
        .find(|(_, h, _)| h.kind == ChunkKind::Module)
        .unwrap();
    // One module at bases 0: its tables are the program's.
    let program = rdtrace::Trace::open(&seed).unwrap().meta;
    assert_eq!(program.modules.len(), 1);
    let mut meta = ModuleMeta {
        name: program.modules[0].name.clone(),
        content_hash: program.modules[0].content_hash,
        tables: program.tables.clone(),
    };
    for m in meta.tables.mem_instrs.iter_mut() {
        m.size = u32::MAX;
    }
    let rec = ModuleRecord {
        bases: program.modules[0].bases,
        blob: meta.to_blob(),
    };
    let mut framed = Vec::new();
    frame_chunk(
        &mut framed,
        ChunkKind::Module,
        0,
        0,
        &postcard_bytes(&rec),
        0,
        None,
    );
    let crafted = dir.path().join("size.rdtrace");
    std::fs::write(
        &crafted,
        replace(&bytes, at, CHUNK_HEADER_LEN + stored.len(), &framed),
    )
    .unwrap();
    for (cmd, code, err) in every_command(&crafted) {
        assert_eq!(code, 1, "{cmd}: {err}");
        assert!(
            err.contains("has a static size of 4294967295 bytes; the pass emits at most 65536"),
            "{cmd}: {err}"
        );
    }
}

/// Issue 27 point 2: one compressed chunk of a few KB declared 4.3 * 10^9 events (every
/// command > 20 s, `info` 74 s), and one just under the per-chunk cap declares 16 million from
/// a few dozen bytes. Both are refused before they are decoded: the commands read the rest of
/// the trace with a warning, and `check` reports the chunk as a violation.
#[test]
fn issue27_event_bomb_chunks_are_refused_before_decoding() {
    let dir = tempfile::tempdir().unwrap();
    let seed = small_chunk_vecadd_trace(dir.path(), 512);
    let bytes = std::fs::read(&seed).unwrap();
    let end = chunks(&bytes)
        .into_iter()
        .find(|(_, h, _)| h.kind == ChunkKind::End)
        .unwrap()
        .0;
    let mut zstd = zstd::bulk::Compressor::new(19).unwrap();
    // Access by instruction 0 (an 8-byte load in vecadd), then runs of 64 predicted accesses.
    let mut bomb = |runs: usize, events: u32, seq: u32| {
        let mut raw = vec![0x40, 0x00, 0x10];
        raw.extend(std::iter::repeat_n(0x3fu8, runs));
        let mut framed = Vec::new();
        frame_chunk(
            &mut framed,
            ChunkKind::Events,
            0,
            seq,
            &raw,
            events,
            Some(&mut zstd),
        );
        framed
    };
    let last_seq = chunks(&bytes)
        .iter()
        .filter(|(_, h, _)| h.kind == ChunkKind::Events && h.thread == 0)
        .map(|(_, h, _)| h.seq)
        .max()
        .unwrap();
    for (name, framed) in [
        // 4.3 * 10^9 events in 64 MiB of run bytes, about 7 KB compressed.
        ("huge", bomb(64 << 20, u32::MAX, last_seq + 1)),
        (
            "dense",
            bomb((1 << 18) - 16, 1 + 64 * ((1 << 18) - 16), last_seq + 1),
        ),
    ] {
        assert!(framed.len() < 8 << 10, "{name}: {}", framed.len());
        let mut crafted = bytes[..end].to_vec();
        crafted.extend_from_slice(&framed);
        crafted.extend_from_slice(&bytes[end..]);
        let path = dir.path().join(format!("{name}.rdtrace"));
        std::fs::write(&path, &crafted).unwrap();
        for (cmd, code, err) in every_command(&path) {
            let want = if cmd == "check" { 1 } else { 0 };
            assert_eq!(code, want, "{name}: {cmd}: {err}");
            assert!(
                err.contains("a chunk may hold") || err.contains("events per stored byte"),
                "{name}: {cmd}: {err}"
            );
        }
    }
}

/// Issue 27 point 2: worksharing-loop bounds of -2^40 drove `simt` to more than 2 minutes and
/// 1 GB (a GPU thread per iteration between the bounds). `simt` now refuses bounds the trace's
/// iterations do not justify, and `check` reports bounds below 0.
#[test]
fn issue27_crafted_worksharing_bounds_do_not_size_simt() {
    let dir = tempfile::tempdir().unwrap();
    let seed = small_chunk_vecadd_trace(dir.path(), 512);
    let bytes = std::fs::read(&seed).unwrap();
    let trace = rdtrace::Trace::open(&seed).unwrap();
    // The first chunk with a WorkshareInit: re-encode it with the lower bound moved.
    let mut target = None;
    trace
        .for_each_chunk(|c, events| {
            if target.is_none()
                && events
                    .iter()
                    .any(|e| matches!(e, Event::WorkshareInit { .. }))
            {
                target = Some((*c, events.to_vec()));
            }
            Ok(())
        })
        .unwrap();
    let (c, mut events) = target.expect("vecadd has a worksharing loop");
    for e in events.iter_mut() {
        if let Event::WorkshareInit { lower, .. } = e {
            *lower = -(1 << 40);
        }
    }
    let mut raw = Vec::new();
    rdtrace::codec::to_raw(&events, &mut raw);
    let mut encoder = rdtrace::codec::ChunkEncoder::new(trace.meta.mem_instrs.len(), 1 << 20);
    let (encoded, count) = encoder.encode(&raw);
    let mut framed = Vec::new();
    frame_chunk(
        &mut framed,
        ChunkKind::Events,
        c.thread,
        c.seq,
        encoded,
        count,
        None,
    );
    let crafted = dir.path().join("bounds.rdtrace");
    std::fs::write(
        &crafted,
        replace(
            &bytes,
            c.offset as usize,
            CHUNK_HEADER_LEN + c.stored_len as usize,
            &framed,
        ),
    )
    .unwrap();
    let mut checked = false;
    for (cmd, code, err) in every_command(&crafted) {
        match cmd.as_str() {
            "simt" => {
                assert_eq!(code, 1, "{err}");
                assert!(
                    err.contains("its bounds span") && err.contains("bounds are corrupt"),
                    "{err}"
                );
            }
            "check" => {
                assert_eq!(code, 1, "{err}");
                checked = true;
            }
            _ => assert!(code <= 1, "{cmd}: {err}"),
        }
    }
    assert!(checked);
    let (ok, out, _) = rda_report(&["check", crafted.to_str().unwrap(), "--json"]);
    assert!(!ok);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let kinds: Vec<&str> = json["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["kind"].as_str().unwrap())
        .collect();
    assert!(kinds.contains(&"bounds"), "{json}");
}

/// Loose end of issue 27: `dump --limit -1` got clap's "use '-- -1'" tip; it now says what the
/// flag accepts (usage error, status 2).
#[test]
fn issue27_dump_negative_counts_are_usage_errors_that_say_why() {
    for flag in ["--limit", "--skip", "--thread"] {
        let o = Command::new(&tools().rda_report)
            .args(["dump", "x.rdtrace", flag, "-1"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{flag}: {err}");
        assert!(
            err.contains(&format!("{flag} must be an integer from 0 to")) && !err.contains("-- -1"),
            "{flag}: {err}"
        );
    }
}
