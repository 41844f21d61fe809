//! File header and chunk framing.
//!
//! ```text
//! file   := header chunk*
//! header := "RDTRACE\0" version:u32 flags:u32                          (16 bytes)
//! chunk  := "RDCK" kind:u8 codec:u8 flags:u16 thread:u32 seq:u32
//!           stored_len:u32 raw_len:u32 events:u32 crc32:u32 payload    (32 + stored_len bytes)
//! ```
//! All integers little-endian. `crc32` (IEEE) covers the first 28 header bytes and the stored
//! payload. `raw_len` is the payload length after decompression.

use serde::{Deserialize, Serialize};

/// Magic at offset 0 of every trace file.
pub const FILE_MAGIC: [u8; 8] = *b"RDTRACE\0";
/// Length of the file header.
pub const FILE_HEADER_LEN: usize = 16;
/// Magic at the start of every chunk header.
pub const CHUNK_MAGIC: [u8; 4] = *b"RDCK";
/// Length of a chunk header.
pub const CHUNK_HEADER_LEN: usize = 32;
/// Largest payload a reader accepts (guards against corrupt lengths).
pub const MAX_CHUNK_PAYLOAD: u32 = 256 << 20;
/// Most events one events chunk may declare. The runtime closes a chunk at
/// `RDTRACE_CHUNK_EVENTS` (at most 8 Mi) events, after at most one more raw buffer (at most
/// 1 Mi records and its slack), so no chunk it writes comes near this.
pub const MAX_CHUNK_EVENTS: u32 = 16 << 20;
/// Most events an events chunk may declare per *stored* (compressed) payload byte. Decoding
/// costs time per event, so a reader bounds the work a chunk may ask for by the bytes that
/// justify it: without this, 7 KB of zstd frames of run bytes declare 4.3 * 10^9 events.
/// Traces written with the default settings stay near 100, a few hundred for a thread traced
/// alone (a stamp every 16 blocks, or 256 alone, keeps the compressed payload from vanishing);
/// with `RDTRACE_STAMP_EVERY` in the millions and the
/// largest chunks, a tight loop reaches about 11 000.
pub const MAX_EVENTS_PER_STORED_BYTE: u64 = 1 << 14;
/// Most events per decompressed payload byte: a run byte stands for 64 predicted accesses.
pub const MAX_EVENTS_PER_RAW_BYTE: u64 = 64;

/// What a chunk holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum ChunkKind {
    /// [`ProgramInfo`] (postcard).
    Program = 1,
    /// [`ModuleRecord`] (postcard).
    Module = 2,
    /// [`ThreadInfo`] (postcard).
    Thread = 3,
    /// Encoded events of one thread ([`crate::codec`]).
    Events = 4,
    /// [`ExitInfo`] (postcard).
    End = 5,
    /// [`RoiInfo`] (postcard): the trace records a region of interest only.
    RegionOfInterest = 7,
}

impl ChunkKind {
    /// Parses the kind byte.
    pub fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            1 => Self::Program,
            2 => Self::Module,
            3 => Self::Thread,
            4 => Self::Events,
            5 => Self::End,
            7 => Self::RegionOfInterest,
            _ => return None,
        })
    }
}

/// How a payload is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Codec {
    /// Stored as is (used from signal handlers, where compression is not safe).
    Raw = 0,
    /// zstd frame.
    Zstd = 1,
}

/// A parsed chunk header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkHeader {
    /// What the chunk holds.
    pub kind: ChunkKind,
    /// How the payload is stored.
    pub codec: Codec,
    /// Runtime thread index (events and thread chunks).
    pub thread: u32,
    /// Per-thread sequence number of events chunks, from 0.
    pub seq: u32,
    /// Stored payload length.
    pub stored_len: u32,
    /// Payload length after decompression.
    pub raw_len: u32,
    /// Number of events (events chunks).
    pub events: u32,
    /// CRC-32 of header bytes 0..28 and the stored payload.
    pub crc32: u32,
}

/// Program-level facts written once at start.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramInfo {
    /// Path of the executable.
    pub program: String,
    /// Command line.
    pub args: Vec<String>,
    /// Process id.
    pub pid: u32,
    /// Start time, milliseconds since the Unix epoch.
    pub start_unix_ms: u64,
    /// Clock used by stamps: `"tsc"` or `"monotonic-ns"`.
    pub clock: String,
    /// Version of the runtime that wrote the trace.
    pub runtime_version: String,
}

/// A module registered at run time: its metadata blob and its id bases.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModuleRecord {
    /// Bases assigned by the runtime, in [`crate::abi::IdKind::ALL`] order.
    pub bases: [u32; crate::abi::IdKind::COUNT],
    /// The blob the pass embedded ([`crate::meta::ModuleMeta::to_blob`]).
    pub blob: Vec<u8>,
}

/// A thread that produced events.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThreadInfo {
    /// Runtime thread index (0 = first thread to produce an event, normally `main`'s).
    pub thread: u32,
    /// Kernel thread id.
    pub os_tid: u64,
    /// Stamp clock value when the thread registered.
    pub start_time: u64,
}

/// The trace records a region of interest, not the whole run: only the events of threads
/// while one of `functions` was on their call stack (OpenMP outlined bodies of those functions
/// included), and, with `markers`, only between `RDTRACE_START()` and `RDTRACE_STOP()`. Where a
/// thread's recording resumed after a gap, its stream has an [`crate::Event::Gap`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoiInfo {
    /// The function names given (`RDTRACE_ROI`), as written.
    pub functions: Vec<String>,
    /// Whether the program's `RDTRACE_START()`/`RDTRACE_STOP()` markers bound the recording.
    pub markers: bool,
}

impl RoiInfo {
    /// Adds what another chunk says (a run writes one chunk per way of selecting).
    pub fn join(&mut self, other: RoiInfo) {
        for f in other.functions {
            if !self.functions.contains(&f) {
                self.functions.push(f);
            }
        }
        self.markers |= other.markers;
    }

    /// One line for people, e.g. `functions kernel, solve; RDTRACE_START/STOP markers`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if !self.functions.is_empty() {
            parts.push(format!("functions {}", self.functions.join(", ")));
        }
        if self.markers {
            parts.push("RDTRACE_START/STOP markers".to_string());
        }
        if parts.is_empty() {
            "nothing selected".to_string()
        } else {
            parts.join("; ")
        }
    }
}

/// How the traced run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExitReason {
    /// `exit()` or return from `main` (from any thread).
    Exit,
    /// A fatal signal; the trace was flushed best-effort from the handler.
    Signal(i32),
}

/// Written last, when the run ends normally or by a caught signal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitInfo {
    /// Why it ended.
    pub reason: ExitReason,
    /// Stamp clock value at the end.
    pub end_time: u64,
    /// Events recorded per thread index (including any the flush could not write).
    pub events_recorded: Vec<u64>,
}

/// Serialises a metadata record (program, module, thread, end) with postcard.
pub fn postcard_bytes<T: Serialize>(v: &T) -> Vec<u8> {
    postcard::to_stdvec(v).expect("postcard serialises plain data")
}

/// Builds the 16-byte file header for `version`.
pub fn file_header(version: u32) -> [u8; FILE_HEADER_LEN] {
    let mut h = [0u8; FILE_HEADER_LEN];
    h[..8].copy_from_slice(&FILE_MAGIC);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h
}

/// Builds a chunk header for `stored` (the payload as it will be stored) and computes its CRC.
pub fn chunk_header(
    kind: ChunkKind,
    codec: Codec,
    thread: u32,
    seq: u32,
    stored: &[u8],
    raw_len: u32,
    events: u32,
) -> [u8; CHUNK_HEADER_LEN] {
    let mut h = [0u8; CHUNK_HEADER_LEN];
    h[..4].copy_from_slice(&CHUNK_MAGIC);
    h[4] = kind as u8;
    h[5] = codec as u8;
    h[8..12].copy_from_slice(&thread.to_le_bytes());
    h[12..16].copy_from_slice(&seq.to_le_bytes());
    h[16..20].copy_from_slice(&(stored.len() as u32).to_le_bytes());
    h[20..24].copy_from_slice(&raw_len.to_le_bytes());
    h[24..28].copy_from_slice(&events.to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..28]);
    crc.update(stored);
    h[28..32].copy_from_slice(&crc.finalize().to_le_bytes());
    h
}

/// Why a chunk header is unacceptable.
pub fn parse_chunk_header(h: &[u8; CHUNK_HEADER_LEN]) -> Result<ChunkHeader, String> {
    if h[..4] != CHUNK_MAGIC {
        return Err(format!("bad chunk magic {:02x?}", &h[..4]));
    }
    let kind = ChunkKind::from_u8(h[4]).ok_or_else(|| format!("unknown chunk kind {}", h[4]))?;
    let codec = match h[5] {
        0 => Codec::Raw,
        1 => Codec::Zstd,
        c => return Err(format!("unknown codec {c}")),
    };
    let u = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap());
    let header = ChunkHeader {
        kind,
        codec,
        thread: u(8),
        seq: u(12),
        stored_len: u(16),
        raw_len: u(20),
        events: u(24),
        crc32: u(28),
    };
    if header.stored_len > MAX_CHUNK_PAYLOAD || header.raw_len > MAX_CHUNK_PAYLOAD {
        return Err(format!(
            "payload length {} / {} exceeds the {} byte limit",
            header.stored_len, header.raw_len, MAX_CHUNK_PAYLOAD
        ));
    }
    Ok(header)
}

/// Why an events chunk header declares more events than its payload can justify, if it does:
/// more than [`MAX_CHUNK_EVENTS`], more than [`MAX_EVENTS_PER_RAW_BYTE`] per decompressed byte,
/// or more than [`MAX_EVENTS_PER_STORED_BYTE`] per stored byte. Checked before anything is
/// decompressed or decoded, so the work and memory a chunk costs are bounded by its size.
pub fn events_unjustified(header: &ChunkHeader) -> Option<String> {
    let events = header.events as u64;
    if header.events > MAX_CHUNK_EVENTS {
        return Some(format!(
            "{events} events exceed the {MAX_CHUNK_EVENTS} events a chunk may hold"
        ));
    }
    if events > MAX_EVENTS_PER_RAW_BYTE * header.raw_len as u64 {
        return Some(format!(
            "{events} events cannot fit in {} payload bytes",
            header.raw_len
        ));
    }
    if events > MAX_EVENTS_PER_STORED_BYTE * header.stored_len as u64 {
        return Some(format!(
            "{events} events from {} stored bytes exceed the limit of {MAX_EVENTS_PER_STORED_BYTE} \
             events per stored byte",
            header.stored_len
        ));
    }
    None
}

/// Checks a stored payload against its header's CRC.
pub fn crc_matches(h: &[u8; CHUNK_HEADER_LEN], stored: &[u8]) -> bool {
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..28]);
    crc.update(stored);
    crc.finalize() == u32::from_le_bytes(h[28..32].try_into().unwrap())
}

/// Frames one chunk into `out` (cleared first): header + payload, compressing with `zstd` when
/// given. Reuses `out`'s capacity, so steady-state framing does not allocate.
pub fn frame_chunk(
    out: &mut Vec<u8>,
    kind: ChunkKind,
    thread: u32,
    seq: u32,
    payload: &[u8],
    events: u32,
    zstd: Option<&mut zstd::bulk::Compressor<'static>>,
) {
    out.clear();
    out.resize(CHUNK_HEADER_LEN, 0);
    let codec = match zstd {
        Some(z) => {
            let bound = zstd::zstd_safe::compress_bound(payload.len());
            out.resize(CHUNK_HEADER_LEN + bound, 0);
            match z.compress_to_buffer(payload, &mut out[CHUNK_HEADER_LEN..]) {
                Ok(n) => {
                    out.truncate(CHUNK_HEADER_LEN + n);
                    Codec::Zstd
                }
                Err(_) => {
                    out.truncate(CHUNK_HEADER_LEN);
                    out.extend_from_slice(payload);
                    Codec::Raw
                }
            }
        }
        None => {
            out.extend_from_slice(payload);
            Codec::Raw
        }
    };
    let header = chunk_header(
        kind,
        codec,
        thread,
        seq,
        &out[CHUNK_HEADER_LEN..],
        payload.len() as u32,
        events,
    );
    out[..CHUNK_HEADER_LEN].copy_from_slice(&header);
}
