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
//!   [`ChunkSource`]), event for event.
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
//!    while it was parked (x86 fences order the clock reads, see `runtime/src/thread.rs`);
//! 3. the run has ended (end chunk or end of input).
//!
//! Threads not yet known cannot hold back a segment: in a stream the runtime makes a thread's
//! first event a stamp read after its thread chunk was written, so a thread announced after a
//! chunk has all keys above that chunk's stamps.
//!
//! Hence the bound: **the merge lags a running thread by at most its open chunk** — at most
//! `RDTRACE_CHUNK_EVENTS` events (65536 by default) or 4 bytes of encoded payload per chunk
//! event (256 KiB by default; the runtime never exceeds 4 MiB), plus the raw
//! buffer (`RDTRACE_BUFFER_EVENTS`, 65536) it fills before encoding; parked and exited threads
//! hold nothing back once the writer has written one more chunk. While it waits, the reader
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

use crate::chunk::*;
use crate::codec::EventBounds;
use crate::error::{Result, TraceError};
use crate::event::{Event, EventVisitor};
use crate::merge::Merge;
use crate::meta::ProgramMeta;
use crate::reader::OpenOptions;
use crate::source::{
    cut_header_warning, read_file_header, read_full, repeat_message, ChunkDecoding, ChunkSource,
    FileHeader, MetaChunk, Pull,
};
use crate::work::{TouchLimit, Touched, Touching};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Write};
use std::path::PathBuf;

/// Chunk kind byte of a floor chunk (streams only).
pub const FLOOR_KIND: u8 = 6;
/// Bytes per floor entry.
pub const FLOOR_ENTRY_LEN: usize = 16;
/// Floor time of a thread that has ended.
pub const ENDED: u64 = u64::MAX;

/// One floor entry; see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Floor {
    /// Runtime thread index.
    pub thread: u32,
    /// Number of chunks the thread had handed to the writer when the floor was taken.
    pub next_seq: u32,
    /// Lower bound of the thread's later merge keys ([`ENDED`]: no later chunk).
    pub time: u64,
}

/// Frames a floor chunk holding `floors` into `out` (cleared first).
pub fn frame_floors(out: &mut Vec<u8>, floors: &[Floor]) {
    out.clear();
    out.resize(CHUNK_HEADER_LEN, 0);
    for f in floors {
        out.extend_from_slice(&f.thread.to_le_bytes());
        out.extend_from_slice(&f.next_seq.to_le_bytes());
        out.extend_from_slice(&f.time.to_le_bytes());
    }
    let len = (out.len() - CHUNK_HEADER_LEN) as u32;
    let mut h = [0u8; CHUNK_HEADER_LEN];
    h[..4].copy_from_slice(&CHUNK_MAGIC);
    h[4] = FLOOR_KIND;
    h[5] = Codec::Raw as u8;
    h[16..20].copy_from_slice(&len.to_le_bytes());
    h[20..24].copy_from_slice(&len.to_le_bytes());
    h[24..28].copy_from_slice(&(floors.len() as u32).to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..28]);
    crc.update(&out[CHUNK_HEADER_LEN..]);
    h[28..32].copy_from_slice(&crc.finalize().to_le_bytes());
    out[..CHUNK_HEADER_LEN].copy_from_slice(&h);
}

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

    /// `held`: the decoded events the merge holds.
    fn note_pending(&mut self, held: u64) {
        self.stats.max_pending_bytes = self.stats.max_pending_bytes.max(self.pending_bytes);
        self.stats.max_pending_events = self
            .stats
            .max_pending_events
            .max(self.pending_events + held);
    }

    /// Marks the input as ended: from now on no thread waits for more.
    fn finish_input(&mut self) -> Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        if let Some(t) = self.tee.as_mut() {
            t.flush().map_err(|e| TraceError::io(&self.name, e))?;
        }
        if self.exit.is_none() && self.warnings.is_empty() {
            self.warnings.push(format!(
                "{}: no end chunk: the program did not finish normally (killed, or crashed without a flush)",
                self.name.display()
            ));
        }
        Ok(())
    }

    /// Reads one chunk from the input (blocking). Returns false at the end of the input.
    pub fn read_chunk(&mut self) -> Result<bool> {
        let held = self.merge.held();
        self.read_chunk_held(held)
    }

    /// [`LiveTrace::read_chunk`], while the merge holds `held` decoded events.
    fn read_chunk_held(&mut self, held: u64) -> Result<bool> {
        if self.finished {
            return Ok(false);
        }
        let offset = self.offset;
        let mut h = [0u8; CHUNK_HEADER_LEN];
        let n = read_full(&mut self.input, &mut h).map_err(|e| TraceError::io(&self.name, e))?;
        if n == 0 {
            self.finish_input()?;
            return Ok(false);
        }
        if n < CHUNK_HEADER_LEN {
            self.warnings.push(format!(
                "{}: truncated at offset {offset}: {n} bytes of an incomplete chunk header ignored; \
                 events up to the last whole chunk are read",
                self.name.display()
            ));
            self.finish_input()?;
            return Ok(false);
        }
        if h[4] == FLOOR_KIND && h[..4] == CHUNK_MAGIC {
            return self.read_floors(offset, &h);
        }
        let header = parse_chunk_header(&h).map_err(|what| self.corrupt(offset, what))?;
        let mut stored = vec![0u8; header.stored_len as usize];
        let got =
            read_full(&mut self.input, &mut stored).map_err(|e| TraceError::io(&self.name, e))?;
        if got < stored.len() {
            self.warnings.push(format!(
                "{}: truncated at offset {offset}: chunk needs {} bytes, {} remain; \
                 events up to the last whole chunk are read",
                self.name.display(),
                CHUNK_HEADER_LEN + stored.len(),
                CHUNK_HEADER_LEN + got
            ));
            self.finish_input()?;
            return Ok(false);
        }
        let len = (CHUNK_HEADER_LEN + stored.len()) as u64;
        self.offset += len;
        self.stats.bytes_read += len;
        if let Some(t) = self.tee.as_mut() {
            t.write_all(&h)
                .and_then(|_| t.write_all(&stored))
                .map_err(|e| TraceError::io(&self.name, e))?;
        }
        if header.kind == ChunkKind::Events {
            self.stats.event_chunks += 1;
            let salvage = self.salvage;
            let th = self.thread(header.thread);
            let first = th.pending.get(&header.seq).map(|c| c.offset);
            if header.seq < th.next_seq || first.is_some() {
                // As the file reader does: refused, or under salvage the later copy dropped.
                let what = repeat_message(header.thread, header.seq, first);
                if !salvage {
                    return Err(self.corrupt(offset, what));
                }
                self.warnings.push(format!(
                    "{}: chunk at offset {offset}: {what}; dropped (salvage)",
                    self.name.display()
                ));
                return Ok(true);
            }
            th.pending.insert(
                header.seq,
                StoredChunk {
                    offset,
                    header: h,
                    events: header.events,
                    stored,
                },
            );
            self.pending_bytes += len - CHUNK_HEADER_LEN as u64;
            self.pending_events += header.events as u64;
            self.note_pending(held);
            return Ok(true);
        }
        let chunk = self
            .decoding
            .metadata(&h, &header, &stored)
            .map_err(|what| self.corrupt(offset, what))?;
        match chunk {
            MetaChunk::Program(program) => self.program = program,
            MetaChunk::Module { bases, meta } => {
                self.meta
                    .add_module(meta, bases)
                    .map_err(|e| self.corrupt(offset, e.to_string()))?;
                self.bounds = EventBounds::of(&self.meta);
                self.decoding.set_bounds(&self.bounds);
            }
            MetaChunk::Thread(t) => {
                self.thread(t.thread).start_time = t.start_time;
                self.thread_infos.push(t);
            }
            MetaChunk::End(exit) => {
                self.exit = Some(exit);
                // Nothing follows the end chunk: every thread has flushed.
                self.finish_input()?;
            }
            MetaChunk::RegionOfInterest(roi) => {
                self.roi.get_or_insert_with(RoiInfo::default).join(roi);
            }
        }
        Ok(true)
    }

    fn read_floors(&mut self, offset: u64, h: &[u8; CHUNK_HEADER_LEN]) -> Result<bool> {
        let u = |at: usize| u32::from_le_bytes(h[at..at + 4].try_into().unwrap());
        let (len, entries) = (u(16) as usize, u(24) as usize);
        if len != entries * FLOOR_ENTRY_LEN || len > MAX_CHUNK_PAYLOAD as usize {
            return Err(self.corrupt(
                offset,
                format!("floor chunk of {len} bytes for {entries} entries"),
            ));
        }
        let mut payload = vec![0u8; len];
        let got =
            read_full(&mut self.input, &mut payload).map_err(|e| TraceError::io(&self.name, e))?;
        if got < len {
            self.finish_input()?;
            return Ok(false);
        }
        if !crc_matches(h, &payload) {
            return Err(self.corrupt(offset, "checksum mismatch"));
        }
        self.offset += (CHUNK_HEADER_LEN + len) as u64;
        self.stats.bytes_read += (CHUNK_HEADER_LEN + len) as u64;
        self.stats.floor_chunks += 1;
        for e in payload.chunks_exact(FLOOR_ENTRY_LEN) {
            let thread = u32::from_le_bytes(e[0..4].try_into().unwrap());
            let next_seq = u32::from_le_bytes(e[4..8].try_into().unwrap());
            let time = u64::from_le_bytes(e[8..16].try_into().unwrap());
            let th = self.thread(thread);
            // Keep the newest floor: a later chunk count, or a later time for the same count.
            if th.floor.is_none_or(|(s, t)| (next_seq, time) > (s, t)) {
                th.floor = Some((next_seq, time));
            }
        }
        Ok(true)
    }

    /// Decodes chunk `c` into `v`; refuses it when the trace's accesses then touch more than
    /// the bound allows for the bytes read so far (see [`crate::work`]).
    fn decode(&mut self, c: &StoredChunk, v: &mut impl EventVisitor) -> Result<u64> {
        let mut touching = Touching::new(v);
        let n = self
            .decoding
            .decode(&c.header, &c.stored, &self.bounds, c.events, &mut touching)
            .map_err(|bad| self.corrupt(c.offset, bad.what))?;
        touching.add_to(&mut self.stats.touched);
        self.stats.touched.trace_bytes = self.stats.bytes_read;
        if self.max_touched.exceeded(&self.stats.touched) {
            return Err(TraceError::TooMuchWork {
                path: self.name.clone(),
                touched: self.stats.touched,
                limit: self.max_touched,
            });
        }
        self.pending_bytes -= c.stored.len() as u64;
        self.pending_events -= n;
        Ok(n)
    }

    /// Takes the next chunk of thread slot `i` in sequence order, if it is here (after the end
    /// of input, skipping gaps with a warning, as the offline reader does).
    fn take_next(&mut self, i: usize) -> Option<StoredChunk> {
        let finished = self.finished;
        let th = &mut self.threads[i];
        if let Some(c) = th.pending.remove(&th.next_seq) {
            th.next_seq += 1;
            return Some(c);
        }
        if finished {
            let (&seq, _) = th.pending.iter().next()?;
            let c = th.pending.remove(&seq)?;
            let w = format!(
                "{}: thread {} chunk at offset {} has sequence number {seq} where {} was expected; events are missing",
                self.name.display(),
                th.id,
                c.offset,
                th.next_seq
            );
            th.next_seq = seq + 1;
            self.warnings.push(w);
            return Some(c);
        }
        None
    }

    /// Decodes the next chunk of some thread whose earlier chunks have all been decoded, into
    /// `events` (cleared first), reading input as needed. Returns the thread, or `None` at the
    /// end. Threads' chunks interleave as they arrive; each thread's come in sequence order, so
    /// a per-thread analysis never waits for another thread. Not to be mixed with
    /// [`LiveTrace::next_merged`].
    pub fn next_thread_chunk(&mut self, events: &mut Vec<Event>) -> Result<Option<u32>> {
        events.clear();
        loop {
            for i in 0..self.threads.len() {
                if self.threads[i].pending.is_empty() {
                    continue;
                }
                if let Some(c) = self.take_next(i) {
                    self.decode(&c, events)?;
                    return Ok(Some(self.threads[i].id));
                }
            }
            if !self.read_chunk()? && self.threads.iter().all(|th| th.pending.is_empty()) {
                return Ok(None);
            }
        }
    }

    /// The floor of thread slot `i` when it applies now: the stream is trusted, and the floor
    /// was taken after the chunks the reader has decoded (none of the thread's events is
    /// missing).
    fn floor_of(&self, i: usize) -> Option<u64> {
        let th = &self.threads[i];
        match th.floor {
            Some((seq, time)) if self.floors_trusted && seq == th.next_seq => Some(time),
            _ => None,
        }
    }

    /// The next `(thread, event)` of the run in the order [`crate::Trace::merged`] gives for the
    /// same trace (the same [`Merge`]), reading input as needed; `None` at the end. See the
    /// module documentation for how far it may lag. Not to be mixed with
    /// [`LiveTrace::next_thread_chunk`].
    #[inline]
    pub fn next_merged(&mut self) -> Result<Option<(u32, Event)>> {
        if let Some(next) = self.merge.next_in_segment() {
            return Ok(Some(next));
        }
        // The merge reads from `self`: take it out meanwhile (once a segment, not an event).
        let mut merge = std::mem::take(&mut self.merge);
        let next = merge.next(self);
        self.merge = merge;
        next
    }
}

/// The stream as the merge's source: a thread waits while its next chunk has not arrived,
/// with its floor when one applies.
impl ChunkSource for LiveTrace<'_> {
    fn slots(&self) -> usize {
        self.threads.len()
    }

    fn thread_of(&self, slot: usize) -> u32 {
        self.threads[slot].id
    }

    fn start_time_of(&self, slot: usize) -> u64 {
        self.threads[slot].start_time
    }

    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> Result<Pull> {
        if let Some(c) = self.take_next(slot) {
            self.decode(&c, events)?;
            return Ok(Pull::Chunk);
        }
        let th = &self.threads[slot];
        let ended = th.floor == Some((th.next_seq, ENDED)) && th.pending.is_empty();
        if self.finished || ended {
            return Ok(Pull::End);
        }
        Ok(Pull::Wait(self.floor_of(slot)))
    }

    fn read_more(&mut self, held: u64) -> Result<()> {
        self.read_chunk_held(held)?;
        Ok(())
    }

    fn finished(&self) -> bool {
        self.finished
    }
}
