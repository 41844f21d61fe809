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
//! damage on both seeds (`every_command::chosen`); `RDTOOLS_MUTANTS=all` runs every one (about 6000
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

mod damage;
mod every_command;
mod largest_access;

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
