//! Live trace reading: decodes a trace as it arrives over any [`Read`] (a pipe from a running
//! program), with no file and no seeking.
//!
//! [`LiveTrace`] reads one chunk at a time. Metadata chunks update [`LiveTrace::meta`] and the
//! thread list as they come; events chunks wait (compressed) in a per-thread queue keyed by
//! sequence number until they are consumed, in sequence order, either
//!
//! * per thread ([`LiveTrace::next_thread_chunk`]): each chunk is decoded as soon as every
//!   earlier chunk of its thread has been; or
//! * merged ([`LiveTrace::next_merged`]): the same stamp-order merge as
//!   [`crate::reader::Trace::merged`] ([`crate::merge::Merge`], with the stream as its
//!   [`ChunkSource`](crate::source::ChunkSource)), event for event.
//!
//! Chunks are checked and decoded as a file's are ([`crate::source`]), and a repeated
//! sequence number is refused as in a file, or with [`OpenOptions::salvage`] dropped with a
//! warning ([`LiveTrace::with_options`]).
//!
//! ## The delay bound of the merge
//!
//! The offline merge cuts each thread's stream at its stamps and emits segments in stamp order.
//! Live, the next segment (key `k`, thread `t`) can only be emitted once no other thread can
//! still deliver a segment with a smaller key. For every other known thread `u` one of these
//! must hold:
//!
//! 1. `u`'s next event is already here (its next key is known);
//! 2. `u` published a *floor* `f > k` and everything it wrote before the floor is here: a
//!    thread parks (at the end of its part of an OpenMP region, when it is not the team's master)
//!    or exits after closing its chunk, and while it is parked the runtime's writer publishes the
//!    current clock as its floor after every chunk it writes; a thread's next event after
//!    parking is a stamp read after it unparked, so its next key is at least any floor read
//!    while it was parked (x86 fences order the clock reads, see `runtime/src/thread/floors.rs`);
//! 3. the run has ended (end chunk or end of input).
//!
//! Threads not yet known cannot hold back a segment: in a stream the runtime makes a thread's
//! first event a stamp read after its thread chunk was written, so a thread announced after a
//! chunk has all keys above that chunk's stamps.
//!
//! Hence the bound: **the merge lags a running thread by at most its open chunk** — at most
//! `RDTRACE_CHUNK_EVENTS` events (262144 by default; the runtime closes a chunk at the raw
//! buffer that reaches them, or at 8 MiB of the buffers' worst-case encoding), plus the raw
//! buffers in flight to its writer (`RDTRACE_BUFFER_EVENTS` records each, 65536 by default,
//! up to seven) — and by the chunk before it while the writer, which encodes a thread's
//! consecutive chunks at once, has not finished that one; parked and exited threads hold
//! nothing back once the writer has written one more chunk. While it waits, the reader
//! holds the other threads' chunks compressed; [`StreamStats`] counts what it held at most.
//! Threads that block outside OpenMP (a `pthread` waiting on a mutex) do not park: they hold
//! the merge back until they write their next chunk or exit.
//!
//! A stream whose header says a file version ([`crate::version::is_file_version`]: a trace file
//! piped in) has no
//! floors and no first-stamp promise: its merge waits for the end of input (exact, but not
//! live).
//!
//! ## Floor chunks (stream format versions 2, 4 and 6)
//!
//! ```text
//! floor := "RDCK" kind=6:u8 codec=0:u8 flags:u16 thread=0:u32 seq=0:u32
//!          stored_len:u32 raw_len:u32 entries:u32 crc32:u32  (entry := thread:u32 next_seq:u32 time:u64)*
//! ```
//! An entry says: thread `thread` has written chunks `0..next_seq`, its next event is a stamp,
//! and that stamp's time is at least `time`; `time = u64::MAX` ([`ENDED`]) says the thread
//! writes no chunk from `next_seq` on. (The runtime publishes floors only for threads that
//! parked or exited right after closing a chunk, and a parked thread's first event is a stamp.)
//!
//! The floor chunks are framed in `floor`; [`LiveTrace`] reads chunks in `read` and hands
//! them out, per thread or merged, in `consume`.

mod consume;
mod floor;
mod read;

pub use floor::{frame_floors, Floor, ENDED, FLOOR_ENTRY_LEN, FLOOR_KIND};

use crate::chunk::*;
use crate::codec::EventBounds;
use crate::error::{Result, TraceError};
use crate::merge::Merge;
use crate::meta::ProgramMeta;
use crate::reader::OpenOptions;
use crate::source::{cut_header_warning, read_file_header, ChunkDecoding, FileHeader};
use crate::work::{TouchLimit, Touched};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::PathBuf;

/// What the reader held at most while waiting (the cost of the merge's delay).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamStats {
    /// Bytes read from the input.
    pub bytes_read: u64,
    /// Events chunks read.
    pub event_chunks: u64,
    /// Floor chunks read.
    pub floor_chunks: u64,
    /// Most compressed event bytes held at once.
    pub max_pending_bytes: u64,
    /// Most events held at once (undecoded chunks and decoded, unconsumed events).
    pub max_pending_events: u64,
    /// What the decoded events' accesses touch (see [`crate::work`]).
    pub touched: Touched,
}

struct StoredChunk {
    offset: u64,
    header: [u8; CHUNK_HEADER_LEN],
    events: u32,
    stored: Vec<u8>,
}

#[derive(Default)]
struct LiveThread {
    id: u32,
    start_time: u64,
    next_seq: u32,
    pending: BTreeMap<u32, StoredChunk>,
    floor: Option<(u32, u64)>,
}

/// A trace read live from a stream; see the module documentation.
pub struct LiveTrace<'a> {
    /// Boxed, so the whole reader is compiled (optimised) in this crate, not in each caller.
    input: Box<dyn Read + 'a>,
    name: PathBuf,
    offset: u64,
    /// Format version of the stream.
    pub version: u32,
    /// Program facts (from the program chunk).
    pub program: ProgramInfo,
    /// Static metadata of the modules registered so far.
    pub meta: ProgramMeta,
    /// Thread chunks seen so far, in arrival order.
    pub thread_infos: Vec<ThreadInfo>,
    /// How the run ended, once the end chunk has arrived.
    pub exit: Option<ExitInfo>,
    /// `Some` once a region-of-interest chunk arrived (the runtime writes it before any event).
    pub roi: Option<RoiInfo>,
    warnings: Vec<String>,
    tee: Option<Box<dyn Write>>,
    finished: bool,
    /// What every event is validated against (ids within their tables, as offline).
    bounds: EventBounds,
    decoding: ChunkDecoding,
    /// Threads in order of first appearance (the merge's slots); `slots` maps a thread index
    /// to its slot.
    threads: Vec<LiveThread>,
    slots: HashMap<u32, usize>,
    merge: Merge,
    floors_trusted: bool,
    salvage: bool,
    max_touched: TouchLimit,
    stats: StreamStats,
    pending_bytes: u64,
    /// Events of the chunks read and not yet decoded.
    pending_events: u64,
}

impl<'a> LiveTrace<'a> {
    /// Reads the stream header. `name` labels errors (e.g. `"<pipe>"`); `tee`, when given,
    /// receives a copy of the trace as a plain file (floor chunks dropped, a file header of
    /// [`crate::version::CURRENT`]) that [`crate::Trace::open`] reads.
    pub fn new(
        input: impl Read + 'a,
        name: impl Into<PathBuf>,
        tee: Option<Box<dyn Write>>,
    ) -> Result<Self> {
        LiveTrace::with_options(input, name, tee, OpenOptions::default())
    }

    /// [`LiveTrace::new`] with explicit options. Of [`OpenOptions`], a stream follows
    /// `salvage` (a repeated chunk is dropped with a warning instead of refused, as the file
    /// reader does) and `max_touched` (checked chunk by chunk against the bytes read so far);
    /// with `strict`, the caller treats [`LiveTrace::warnings`] as errors.
    pub fn with_options(
        input: impl Read + 'a,
        name: impl Into<PathBuf>,
        mut tee: Option<Box<dyn Write>>,
        options: OpenOptions,
    ) -> Result<Self> {
        let name = name.into();
        let mut input: Box<dyn Read + 'a> = Box::new(input);
        let header = read_file_header(
            &mut input,
            &name,
            crate::version::is_stream_version,
            crate::version::STREAM,
        )?;
        let (version, warnings) = match header {
            FileHeader::Version(v) => (v, Vec::new()),
            FileHeader::Cut => (0, vec![cut_header_warning(&name)]),
        };
        if let Some(t) = tee.as_mut() {
            t.write_all(&file_header(crate::version::CURRENT))
                .map_err(|e| TraceError::io(&name, e))?;
        }
        Ok(LiveTrace {
            input,
            offset: FILE_HEADER_LEN as u64,
            version,
            program: ProgramInfo::default(),
            meta: ProgramMeta::default(),
            thread_infos: Vec::new(),
            exit: None,
            roi: None,
            warnings,
            tee,
            finished: false,
            bounds: EventBounds::default(),
            decoding: ChunkDecoding::new(&EventBounds::default())
                .map_err(|e| TraceError::io(&name, e))?,
            threads: Vec::new(),
            slots: HashMap::new(),
            merge: Merge::new(),
            floors_trusted: crate::version::has_floors(version),
            salvage: options.salvage,
            max_touched: options.max_touched,
            stats: StreamStats {
                bytes_read: FILE_HEADER_LEN as u64,
                ..Default::default()
            },
            pending_bytes: 0,
            pending_events: 0,
            name,
        })
    }

    /// Problems that did not stop reading (truncation, missing end chunk, sequence gaps).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Whether the input has ended.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// What the reader held at most so far.
    pub fn stats(&self) -> StreamStats {
        self.stats
    }

    /// Thread indices seen so far (from thread chunks and events chunks), ascending: the
    /// threads [`crate::Trace::thread_indices`] lists for the same run once the input ended.
    pub fn thread_indices(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = self.threads.iter().map(|th| th.id).collect();
        ids.sort_unstable();
        ids
    }

    fn corrupt(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::CorruptChunk {
            path: self.name.clone(),
            offset,
            what: what.into(),
        }
    }

    fn thread(&mut self, t: u32) -> &mut LiveThread {
        let next = self.threads.len();
        let i = *self.slots.entry(t).or_insert(next);
        if i == next {
            self.threads.push(LiveThread {
                id: t,
                ..Default::default()
            });
        }
        &mut self.threads[i]
    }
}
