//! Streaming trace reader.
//!
//! [`Trace::open`] scans chunk headers (seeking over event payloads), decodes the program,
//! module, thread and end chunks, and keeps an index of event chunks. Events are then decoded
//! one chunk at a time, so memory stays bounded by one chunk per thread whatever the trace
//! length.
//!
//! **Contract.** Every value read from the file is validated here, once, before anything uses
//! it as a length, index, count or allocation size: chunk lengths against the file's size and
//! [`MAX_CHUNK_PAYLOAD`], decompressed sizes against the header, and, when the trace is opened,
//! every event of every chunk against the metadata ([`EventBounds`]: ids within their tables,
//! branch outcomes within the branch's successors, ranges at most [`crate::codec::MAX_RANGE_LEN`] bytes,
//! OpenMP thread numbers within their team) and the header's event count. Analyses may
//! therefore index `ProgramMeta` tables with any id the reader hands them. With
//! [`OpenOptions::defer_validation`] the events are checked by the decoding that hands them
//! over instead, and a read that meets what the open would have judged fails with
//! [`TraceError::Revalidate`] (see `deferred.rs`).
//!
//! **Salvage.** An events chunk that fails its checks (checksum, decompression, decoding, a
//! disagreement with the metadata) ends its thread's stream at the last good event before it,
//! with a warning naming the file, the offset and the thread, as truncation does; other threads
//! are read in full. With [`OpenOptions::strict`] every warning is an error instead.
//!
//! **Bounded work.** An events chunk may not declare more events than its bytes justify
//! ([`crate::chunk::events_unjustified`]: at most [`MAX_CHUNK_EVENTS`], 64 per decompressed byte
//! and [`MAX_EVENTS_PER_STORED_BYTE`] per stored byte), checked before it is decompressed, so
//! the time every reading command spends is bounded by the file's size.
//!
//! **Duplicates.** Two events chunks of one thread with the same sequence number (a chunk
//! duplicated or replayed by a copy or a disk fault) would count their events twice: the file
//! is refused, or with [`OpenOptions::salvage`] the later copy is dropped. A live stream
//! ([`crate::stream`]) follows the same rule.
//!
//! **Merge.** [`Trace::merged`] is the one stamp-order merge ([`crate::merge::Merge`]) over the
//! file's index as a [`ChunkSource`] ([`Trace::source`]).
//!
//! **Salvage** ([`OpenOptions::salvage`], `--salvage`). Where a chunk header is unreadable (a
//! zeroed or overwritten region), the reader resynchronises on the next chunk magic whose chunk
//! passes its checksum; a damaged chunk of any kind is skipped rather than ending its thread or
//! the read, and [`Trace::losses`] says what was skipped and, from the end chunk's counts, how
//! many events are missing.

mod deferred;
mod file_source;
mod index;
mod parallel;
mod validate;

use file_source::FileThread;
pub use file_source::{FileSource, MergedEvents};

use crate::chunk::*;
use crate::codec::EventBounds;
use crate::error::{Result, TraceError};
use crate::event::{Event, EventVisitor};
use crate::merge::Merge;
use crate::meta::{ModuleMeta, ProgramMeta};
use crate::source::{
    cut_header_warning, read_file_header, read_full, repeat_message, BadChunk, ChunkDecoding,
    ChunkSource, FileHeader, MetaChunk, Pull,
};
use crate::work::{TouchLimit, Touched, Touching};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Where an events chunk lies in the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventChunkRef {
    /// Offset of the chunk header.
    pub offset: u64,
    /// Thread index.
    pub thread: u32,
    /// Per-thread sequence number.
    pub seq: u32,
    /// Number of events the reader delivers from this chunk: the header's count, or for the
    /// chunk where a salvaged thread ends, the good events before the first bad one.
    pub events: u32,
    /// Stored payload length.
    pub stored_len: u32,
    header: [u8; CHUNK_HEADER_LEN],
    /// Whether this chunk failed validation and its thread ends inside it (after `events`).
    salvaged: bool,
    /// Events the reader delivers from this chunk once decoded: `events` plus the implied
    /// blocks among them (counted by the validation at open).
    decoded: u32,
    /// Position in [`Trace::event_chunks`] (where deferred validation keeps its verdict).
    index: u32,
}

/// How [`Trace::open_with`] treats damage it can read past.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Every warning (truncation, missing end chunk, sequence gap, salvaged chunk) is an error.
    pub strict: bool,
    /// Read past damage: resynchronise on the next chunk magic after an unreadable chunk
    /// header, skip damaged chunks (metadata ones included) instead of ending their thread or
    /// failing, and drop repeated sequence numbers (see the module docs).
    pub salvage: bool,
    /// How many bytes the accesses may touch before the trace is refused
    /// ([`TraceError::TooMuchWork`]); see [`crate::work`].
    pub max_touched: TouchLimit,
    /// Validate each events chunk when a reader first decodes it instead of all of them at
    /// open, saving a whole decode of the trace; where the open-time pass would have had a
    /// verdict (a damaged chunk, the touch bound exceeded), reading fails with
    /// [`TraceError::Revalidate`] and the caller opens the file again without this (see
    /// `reader/deferred.rs`). Ignored under `salvage`, and by the stream reader
    /// ([`crate::LiveTrace`]), which validates each chunk as it reads it anyway.
    pub defer_validation: bool,
}

/// An events chunk the reader refused (or cut short): what `check` reports as a violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RejectedChunk {
    /// Offset of the chunk header.
    pub offset: u64,
    /// The thread the header names.
    pub thread: u32,
    /// What is wrong.
    pub what: String,
}

/// What a read skipped or knows to be missing, for the summary of a salvaged or damaged trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Losses {
    /// Events chunks skipped whole or in part (damaged, unjustified or repeated).
    pub chunks_skipped: u64,
    /// Events those chunks declared and that were not delivered.
    pub events_skipped: u64,
    /// Unreadable regions passed over while resynchronising on a chunk magic.
    pub regions_skipped: u64,
    /// Bytes in those regions.
    pub bytes_skipped: u64,
    /// Events chunks missing from the threads' sequence numbers (lost, or in a skipped region).
    pub chunks_missing: u64,
    /// Events of a chunk cut off by the end of the file, when its header was whole.
    pub events_cut_off: u64,
    /// Events the end chunk says were recorded (`None` without an end chunk).
    pub events_recorded: Option<u64>,
    /// Events the reader delivers.
    pub events_delivered: u64,
}

impl Losses {
    /// Events known to be missing: what the end chunk counts beyond what is delivered, or
    /// without an end chunk the skipped and cut-off events (a lower bound).
    pub fn events_missing(&self) -> u64 {
        match self.events_recorded {
            Some(r) => r.saturating_sub(self.events_delivered),
            None => self.events_skipped + self.events_cut_off,
        }
    }

    /// Whether anything was skipped or is known to be missing.
    pub fn any(&self) -> bool {
        self.chunks_skipped + self.regions_skipped + self.chunks_missing > 0
            || self.events_missing() > 0
    }
}

/// An open trace: its metadata and an index of its event chunks.
#[derive(Debug)]
pub struct Trace {
    path: PathBuf,
    /// Format version of the file.
    pub version: u32,
    /// Program facts.
    pub program: ProgramInfo,
    /// Static metadata of all modules.
    pub meta: ProgramMeta,
    /// Threads, by thread index.
    pub threads: Vec<ThreadInfo>,
    /// How the run ended; `None` when the end chunk is missing (crash, kill, truncation).
    pub exit: Option<ExitInfo>,
    /// `Some` when the trace records a region of interest only.
    pub roi: Option<RoiInfo>,
    warnings: Vec<String>,
    chunks: Vec<EventChunkRef>,
    bounds: EventBounds,
    file_len: u64,
    options: OpenOptions,
    rejected: Vec<RejectedChunk>,
    losses: Losses,
    /// What the delivered events touch (see [`crate::work`]).
    touched: Touched,
    /// With [`OpenOptions::defer_validation`], what readers have checked so far.
    deferred: Option<deferred::Deferred>,
}

/// Forwards events to `inner`, counting them.
struct Counting<'v, V> {
    inner: &'v mut V,
    events: u64,
}

impl<V: EventVisitor> EventVisitor for Counting<'_, V> {
    #[inline]
    fn block(&mut self, bb: u32) {
        self.events += 1;
        self.inner.block(bb)
    }
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.events += 1;
        self.inner.access(mi, addr, len)
    }
    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        self.events += 1;
        self.inner.branch(br, outcome)
    }
    #[inline]
    fn other(&mut self, event: Event) {
        self.events += 1;
        self.inner.other(event)
    }
}

/// Takes events and keeps nothing (the validation pass only counts them).
struct Discard;

impl EventVisitor for Discard {}

impl Trace {
    /// Opens and indexes a trace file, salvaging what damage allows (see the module docs).
    pub fn open(path: impl AsRef<Path>) -> Result<Trace> {
        Trace::open_with(path, OpenOptions::default())
    }

    /// Opens and indexes a trace file with explicit options.
    pub fn open_with(path: impl AsRef<Path>, options: OpenOptions) -> Result<Trace> {
        let trace = Trace::open_lenient(path.as_ref(), options)?;
        if options.strict {
            if let Some(w) = trace.warnings.first() {
                return Err(TraceError::Strict(w.clone()));
            }
        }
        Ok(trace)
    }

    fn open_lenient(path: &Path, options: OpenOptions) -> Result<Trace> {
        // The index is built by seeking, and lengths are checked against the file's size: a
        // pipe or device has neither (its size reads as 0). Looked at before opening too,
        // since opening a FIFO waits for a writer.
        let not_a_file = || TraceError::NotAFile {
            path: path.to_path_buf(),
        };
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(not_a_file());
        }
        let mut f = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let metadata = f.metadata().map_err(|e| TraceError::io(path, e))?;
        if !metadata.is_file() {
            return Err(TraceError::NotAFile {
                path: path.to_path_buf(),
            });
        }
        let file_len = metadata.len();
        let header = read_file_header(
            &mut f,
            path,
            crate::version::is_file_version,
            crate::version::CURRENT,
        )?;
        let mut trace = Trace {
            path: path.to_path_buf(),
            version: 0,
            program: ProgramInfo::default(),
            meta: ProgramMeta::default(),
            threads: Vec::new(),
            exit: None,
            roi: None,
            warnings: Vec::new(),
            chunks: Vec::new(),
            bounds: EventBounds::default(),
            file_len,
            options,
            rejected: Vec::new(),
            losses: Losses::default(),
            touched: Touched::default(),
            deferred: None,
        };
        match header {
            FileHeader::Cut => trace.warnings.push(cut_header_warning(path)),
            FileHeader::Version(v) => {
                trace.version = v;
                trace.scan(&mut f)?;
            }
        }
        Ok(trace)
    }

    /// The error for a damaged chunk at `offset` of this file.
    fn corrupt(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::CorruptChunk {
            path: self.path.clone(),
            offset,
            what: what.into(),
        }
    }

    /// What the delivered events' accesses touch, in whole [`crate::work::TOUCH_LINE`]-byte
    /// lines: what every analysis visits (see [`crate::work`]).
    /// With deferred validation, what the chunks decoded so far touch.
    pub fn touched(&self) -> Touched {
        match &self.deferred {
            Some(d) => d.touched(self.file_len),
            None => self.touched,
        }
    }

    /// The file this trace was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Size of the file in bytes.
    pub fn file_len(&self) -> u64 {
        self.file_len
    }

    /// Problems that did not stop reading (truncation, missing end chunk, sequence gaps).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The events chunks the reader refused or cut short (each also has a warning): what
    /// `check` lists as violations.
    pub fn rejected(&self) -> &[RejectedChunk] {
        &self.rejected
    }

    /// What the read skipped, and what is known to be missing (see [`Losses`]).
    pub fn losses(&self) -> &Losses {
        &self.losses
    }

    /// The options the trace was opened with.
    pub fn options(&self) -> OpenOptions {
        self.options
    }

    /// Index of event chunks: each thread's in sequence order, threads interleaved.
    pub fn event_chunks(&self) -> &[EventChunkRef] {
        &self.chunks
    }

    /// Events the trace's chunks decode to: what analyses see, implied blocks included
    /// (counted when the trace was opened, which decodes every chunk once; with deferred
    /// validation, chunks no reader has decoded yet count their stored events).
    pub fn total_events(&self) -> u64 {
        match &self.deferred {
            Some(d) => self
                .chunks
                .iter()
                .map(|c| d.decoded(c).unwrap_or(c.events as u64))
                .sum(),
            None => self.chunks.iter().map(|c| c.decoded as u64).sum(),
        }
    }

    /// Events stored in the trace's chunks (their headers' counts): [`Trace::total_events`]
    /// less the implied blocks, which the decoder emits after their branches
    /// ([`crate::version::V_IMPLIED_BLOCKS`]), the derived accesses
    /// ([`crate::version::V_DERIVED_ACCESSES`]), and the iterations of loop runs, each run
    /// stored as one event ([`crate::version::V_LOOP_RUNS`]).
    pub fn stored_events(&self) -> u64 {
        self.chunks.iter().map(|c| c.events as u64).sum()
    }

    /// Thread indices, ascending.
    pub fn thread_indices(&self) -> Vec<u32> {
        self.threads.iter().map(|t| t.thread).collect()
    }

    /// A reader for decoding event chunks (owns a file handle and reusable buffers).
    pub fn chunk_reader(&self) -> Result<ChunkReader<'_>> {
        Ok(ChunkReader {
            trace: self,
            file: File::open(&self.path).map_err(|e| TraceError::io(&self.path, e))?,
            stored: Vec::new(),
            decoding: ChunkDecoding::new(&self.bounds)
                .map_err(|e| TraceError::io(&self.path, e))?,
        })
    }

    /// Visits every event of one thread, in order.
    pub fn visit_thread(&self, thread: u32, v: &mut impl EventVisitor) -> Result<()> {
        let mut r = self.chunk_reader()?;
        for c in self.chunks.iter().filter(|c| c.thread == thread) {
            r.visit_chunk(c, v)?;
        }
        Ok(())
    }

    /// Calls `f` with every events chunk decoded into events. Threads' chunks interleave; each
    /// thread's chunks come in sequence order.
    pub fn for_each_chunk(
        &self,
        mut f: impl FnMut(&EventChunkRef, &[Event]) -> Result<()>,
    ) -> Result<()> {
        let mut r = self.chunk_reader()?;
        let mut events = Vec::new();
        for c in &self.chunks {
            events.clear();
            r.visit_chunk(c, &mut events)?;
            f(c, &events)?;
        }
        Ok(())
    }

    /// All events of all threads merged into the order they happened, as far as the stamps tell:
    /// each thread's stream is cut into segments at its stamps, and segments are emitted in stamp
    /// order (ties by thread index): the one [`Merge`] over [`Trace::source`]. Memory: one
    /// decoded chunk per thread.
    pub fn merged(&self) -> Result<MergedEvents<'_>> {
        Ok(MergedEvents {
            source: self.source()?,
            merge: Merge::new(),
        })
    }

    /// The file's events chunks as a [`ChunkSource`]: one slot per thread, in thread order.
    pub fn source(&self) -> Result<FileSource<'_>> {
        let threads = self
            .threads
            .iter()
            .map(|t| FileThread {
                thread: t.thread,
                start_time: t.start_time,
                chunks: self
                    .chunks
                    .iter()
                    .filter(|c| c.thread == t.thread)
                    .copied()
                    .collect(),
                next: 0,
            })
            .collect();
        Ok(FileSource {
            reader: self.chunk_reader()?,
            threads,
        })
    }

    /// Visits every event of every thread in the order of [`Trace::merged`] (without the thread
    /// index), calling `progress` with the number of events visited since its last call. A
    /// one-thread trace is visited straight from its chunks, with no merge and no intermediate
    /// [`Event`] values: the fast path of every analysis of a sequential run.
    pub fn visit_merged(
        &self,
        v: &mut impl EventVisitor,
        mut progress: impl FnMut(u64),
    ) -> Result<()> {
        if self.thread_indices().len() <= 1 {
            let mut reader = self.chunk_reader()?;
            for c in &self.chunks {
                progress(reader.visit_chunk(c, v)?);
            }
            return Ok(());
        }
        self.merged()?.visit_all(v, |_, _| {}, progress)
    }
}

/// Decodes event chunks with reusable buffers.
pub struct ChunkReader<'t> {
    trace: &'t Trace,
    file: File,
    stored: Vec<u8>,
    decoding: ChunkDecoding,
}

impl ChunkReader<'_> {
    /// Reads chunk `c`'s stored payload into `self.stored`.
    fn read_stored(&mut self, c: &EventChunkRef) -> Result<()> {
        let path = &self.trace.path;
        self.file
            .seek(SeekFrom::Start(c.offset + CHUNK_HEADER_LEN as u64))
            .map_err(|e| TraceError::io(path, e))?;
        // The chunk's length was checked against the file's size when it was indexed.
        self.stored.resize(c.stored_len as usize, 0);
        self.file
            .read_exact(&mut self.stored)
            .map_err(|e| TraceError::io(path, e))
    }

    /// Reads, verifies, decompresses and decodes one chunk; returns its event count.
    pub fn visit_chunk(&mut self, c: &EventChunkRef, v: &mut impl EventVisitor) -> Result<u64> {
        let trace = self.trace;
        self.read_stored(c)?;
        if let Some(d) = &trace.deferred {
            if d.decoded(c).is_none() {
                return self.visit_unchecked(c, d, v);
            }
        }
        match self
            .decoding
            .decode(&c.header, &self.stored, &trace.bounds, c.events, v)
        {
            Ok(n) => Ok(n),
            // Where a salvaged thread ends: the same fault as at open, after the same events.
            Err(bad) if c.salvaged && bad.good == c.events as u64 => Ok(bad.good),
            Err(bad) => Err(trace.corrupt(c.offset, bad.what)),
        }
    }
}
