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
//! therefore index `ProgramMeta` tables with any id the reader hands them.
//!
//! **Salvage.** An events chunk that fails its checks (checksum, decompression, decoding, a
//! disagreement with the metadata) ends its thread's stream at the last good event before it,
//! with a warning naming the file, the offset and the thread, as truncation does; other threads
//! are read in full. With [`OpenOptions::strict`] every warning is an error instead.

use crate::chunk::*;
use crate::codec::{ChunkDecoder, DecodeError, EventBounds};
use crate::error::{Result, TraceError};
use crate::event::{Event, EventVisitor};
use crate::meta::{ModuleMeta, ProgramMeta};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
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
}

/// How [`Trace::open_with`] treats damage it can read past.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenOptions {
    /// Every warning (truncation, missing end chunk, sequence gap, salvaged chunk) is an error.
    pub strict: bool,
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
}

/// Reads as many bytes as are available into `buf`; returns how many.
fn read_full(f: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

/// Puts a chunk's decompressed payload in `out`. The size allocated is the header's `raw_len`
/// (at most [`MAX_CHUNK_PAYLOAD`]), and only once the zstd frame's own content size agrees.
fn decompress(
    zstd: &mut zstd::bulk::Decompressor<'static>,
    header: &ChunkHeader,
    stored: &[u8],
    out: &mut Vec<u8>,
) -> std::result::Result<(), String> {
    match header.codec {
        Codec::Raw => {
            if header.raw_len != header.stored_len {
                return Err(format!(
                    "raw payload of {} bytes, header says {} after decompression",
                    header.stored_len, header.raw_len
                ));
            }
            out.clear();
            out.extend_from_slice(stored);
        }
        Codec::Zstd => {
            // The frame states its size: check it before allocating the header's.
            match zstd::zstd_safe::get_frame_content_size(stored) {
                Ok(Some(n)) if n != header.raw_len as u64 => {
                    return Err(format!(
                        "zstd frame holds {n} bytes, header says {}",
                        header.raw_len
                    ))
                }
                Ok(_) => {}
                Err(_) => return Err("zstd frame header is damaged".into()),
            }
            out.resize(header.raw_len as usize, 0);
            let n = zstd
                .decompress_to_buffer(stored, &mut out[..])
                .map_err(|e| format!("zstd: {e}"))?;
            if n != header.raw_len as usize {
                return Err(format!(
                    "payload decompresses to {n} bytes, header says {}",
                    header.raw_len
                ));
            }
        }
    }
    Ok(())
}

/// Counts events without keeping them (validation pass).
struct Count;
impl EventVisitor for Count {}

impl Trace {
    /// Opens and indexes a trace file, salvaging what damage allows (see the module docs).
    pub fn open(path: impl AsRef<Path>) -> Result<Trace> {
        Trace::open_with(path, OpenOptions::default())
    }

    /// Opens and indexes a trace file with explicit options.
    pub fn open_with(path: impl AsRef<Path>, options: OpenOptions) -> Result<Trace> {
        let trace = Trace::open_lenient(path.as_ref())?;
        if options.strict {
            if let Some(w) = trace.warnings.first() {
                return Err(TraceError::Strict(w.clone()));
            }
        }
        Ok(trace)
    }

    fn open_lenient(path: &Path) -> Result<Trace> {
        let mut f = File::open(path).map_err(|e| TraceError::io(path, e))?;
        let file_len = f.metadata().map_err(|e| TraceError::io(path, e))?.len();
        let mut header = [0u8; FILE_HEADER_LEN];
        let n = read_full(&mut f, &mut header).map_err(|e| TraceError::io(path, e))?;
        if n < 8 || header[..8] != FILE_MAGIC {
            return Err(TraceError::NotATrace {
                path: path.to_path_buf(),
            });
        }
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
        };
        if n < FILE_HEADER_LEN {
            trace.warnings.push(format!(
                "{}: file ends inside the file header",
                path.display()
            ));
            return Ok(trace);
        }
        trace.version = u32::from_le_bytes(header[8..12].try_into().unwrap());
        if !crate::version::is_file_version(trace.version) {
            return Err(TraceError::UnsupportedVersion {
                path: path.to_path_buf(),
                found: trace.version,
                oldest: crate::version::OLDEST_SUPPORTED,
                current: crate::version::CURRENT,
            });
        }
        trace.scan(&mut f)?;
        Ok(trace)
    }

    fn corrupt(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::CorruptChunk {
            path: self.path.clone(),
            offset,
            what: what.into(),
        }
    }

    fn scan(&mut self, f: &mut File) -> Result<()> {
        let mut offset = FILE_HEADER_LEN as u64;
        let mut stored = Vec::new();
        let mut modules = Vec::new();
        let mut zstd =
            zstd::bulk::Decompressor::new().map_err(|e| TraceError::io(&self.path, e))?;
        loop {
            let mut h = [0u8; CHUNK_HEADER_LEN];
            let n = read_full(f, &mut h).map_err(|e| TraceError::io(&self.path, e))?;
            if n == 0 {
                break;
            }
            if n < CHUNK_HEADER_LEN {
                self.warnings.push(format!(
                    "{}: truncated at offset {offset}: {n} bytes of an incomplete chunk header ignored; \
                     events up to the last whole chunk are read",
                    self.path.display()
                ));
                break;
            }
            let header = parse_chunk_header(&h).map_err(|what| self.corrupt(offset, what))?;
            let end = offset + (CHUNK_HEADER_LEN as u64) + header.stored_len as u64;
            if end > self.file_len {
                self.warnings.push(format!(
                    "{}: truncated at offset {offset}: chunk needs {} bytes, {} remain; \
                     events up to the last whole chunk are read",
                    self.path.display(),
                    CHUNK_HEADER_LEN as u64 + header.stored_len as u64,
                    self.file_len - offset
                ));
                break;
            }
            if header.kind == ChunkKind::Events {
                self.chunks.push(EventChunkRef {
                    offset,
                    thread: header.thread,
                    seq: header.seq,
                    events: header.events,
                    stored_len: header.stored_len,
                    header: h,
                    salvaged: false,
                });
                f.seek(SeekFrom::Start(end))
                    .map_err(|e| TraceError::io(&self.path, e))?;
            } else {
                stored.resize(header.stored_len as usize, 0);
                f.read_exact(&mut stored)
                    .map_err(|e| TraceError::io(&self.path, e))?;
                if !crc_matches(&h, &stored) {
                    return Err(self.corrupt(offset, "checksum mismatch"));
                }
                let mut payload = Vec::new();
                decompress(&mut zstd, &header, &stored, &mut payload)
                    .map_err(|what| self.corrupt(offset, what))?;
                let bad = |what: &str, e: postcard::Error| {
                    self.corrupt(offset, format!("{what} chunk does not decode: {e}"))
                };
                match header.kind {
                    ChunkKind::Program => {
                        self.program =
                            postcard::from_bytes(&payload).map_err(|e| bad("program", e))?
                    }
                    ChunkKind::Module => {
                        let rec: ModuleRecord =
                            postcard::from_bytes(&payload).map_err(|e| bad("module", e))?;
                        let meta = ModuleMeta::from_blob(&rec.blob)
                            .map_err(|e| self.corrupt(offset, e.to_string()))?;
                        modules.push((offset, rec.bases, meta));
                    }
                    ChunkKind::Thread => {
                        let t: ThreadInfo =
                            postcard::from_bytes(&payload).map_err(|e| bad("thread", e))?;
                        self.threads.push(t);
                    }
                    ChunkKind::End => {
                        self.exit = Some(postcard::from_bytes(&payload).map_err(|e| bad("end", e))?)
                    }
                    ChunkKind::RegionOfInterest => {
                        let roi: RoiInfo = postcard::from_bytes(&payload)
                            .map_err(|e| bad("region of interest", e))?;
                        self.roi.get_or_insert_with(RoiInfo::default).join(roi);
                    }
                    ChunkKind::Events => unreachable!("handled above"),
                }
            }
            offset = end;
        }
        // Modules are registered in base order; sort defensively so a writer that emitted them
        // out of order still yields one consistent id space.
        modules.sort_by_key(|(_, bases, _)| *bases);
        for (offset, bases, meta) in modules {
            self.meta
                .add_module(meta, bases)
                .map_err(|e| self.corrupt(offset, e.to_string()))?;
        }
        self.bounds = EventBounds::of(&self.meta);
        // Each thread's chunks in sequence order (a signal-time flush may have written them
        // out of order); a stable sort keeps the threads interleaved as in the file.
        self.chunks.sort_by_key(|c| c.seq);
        self.validate_events(f)?;
        self.check_sequences();
        self.threads.sort_by_key(|t| t.thread);
        self.threads.dedup_by_key(|t| t.thread);
        // Every thread with events gets an entry even if its thread chunk was lost.
        for c in &self.chunks {
            if self
                .threads
                .binary_search_by_key(&c.thread, |t| t.thread)
                .is_err()
            {
                let at = self.threads.partition_point(|t| t.thread < c.thread);
                self.threads.insert(
                    at,
                    ThreadInfo {
                        thread: c.thread,
                        ..Default::default()
                    },
                );
            }
        }
        if self.exit.is_none() && self.warnings.is_empty() {
            self.warnings.push(format!(
                "{}: no end chunk: the program did not finish normally (killed, or crashed without a flush)",
                self.path.display()
            ));
        }
        Ok(())
    }

    /// Decodes every events chunk once (checksum, decompression, every event against the
    /// metadata, the event count). The first bad chunk of a thread ends that thread: its good
    /// events are kept, the thread's later chunks are dropped, and a warning says where.
    fn validate_events(&mut self, f: &mut File) -> Result<()> {
        let mut zstd =
            zstd::bulk::Decompressor::new().map_err(|e| TraceError::io(&self.path, e))?;
        let mut decoder = ChunkDecoder::new(self.bounds.mem_instr_sizes.len());
        let mut stored = Vec::new();
        let mut payload = Vec::new();
        // Threads already ended by a bad chunk.
        let mut ended: BTreeSet<u32> = BTreeSet::new();
        let mut keep = Vec::with_capacity(self.chunks.len());
        let mut warnings = Vec::new();
        for i in 0..self.chunks.len() {
            let mut c = self.chunks[i];
            if ended.contains(&c.thread) {
                continue;
            }
            let bad = (|| -> Result<std::result::Result<(), (u64, String)>> {
                let header = match parse_chunk_header(&c.header) {
                    Ok(h) => h,
                    Err(what) => return Ok(Err((0, what))),
                };
                f.seek(SeekFrom::Start(c.offset + CHUNK_HEADER_LEN as u64))
                    .map_err(|e| TraceError::io(&self.path, e))?;
                stored.resize(c.stored_len as usize, 0);
                f.read_exact(&mut stored)
                    .map_err(|e| TraceError::io(&self.path, e))?;
                if !crc_matches(&c.header, &stored) {
                    return Ok(Err((0, "checksum mismatch".into())));
                }
                if header.events as u64 > 64 * header.raw_len as u64 {
                    return Ok(Err((
                        0,
                        format!(
                            "{} events cannot fit in {} payload bytes",
                            header.events, header.raw_len
                        ),
                    )));
                }
                if let Err(what) = decompress(&mut zstd, &header, &stored, &mut payload) {
                    return Ok(Err((0, what)));
                }
                Ok(
                    match decoder.decode(&payload, &self.bounds, c.events as u64, &mut Count) {
                        Ok(n) if n == c.events as u64 => Ok(()),
                        Ok(n) => Err((n, format!("decoded {n} events, header says {}", c.events))),
                        Err(DecodeError {
                            offset,
                            events,
                            what,
                        }) => Err((events, format!("event at payload byte {offset}: {what}"))),
                    },
                )
            })()?;
            if let Err((good, what)) = bad {
                warnings.push(format!(
                    "{}: thread {}: corrupt chunk at offset {}: {what}; the thread's events end at its \
                     last good event ({good} events of this chunk kept, later chunks of the thread skipped)",
                    self.path.display(),
                    c.thread,
                    c.offset,
                ));
                ended.insert(c.thread);
                if good == 0 {
                    continue;
                }
                c.events = good as u32;
                c.salvaged = true;
            }
            keep.push(c);
        }
        self.chunks = keep;
        self.warnings.extend(warnings);
        Ok(())
    }

    /// Warns about gaps in each thread's sequence numbers (lost chunks). Keyed by thread in a
    /// map, never sized by a thread index read from the file.
    fn check_sequences(&mut self) {
        let mut next: BTreeMap<u32, u32> = BTreeMap::new();
        for c in &self.chunks {
            let expected = next.entry(c.thread).or_insert(0);
            if c.seq != *expected {
                self.warnings.push(format!(
                    "{}: thread {} chunk at offset {} has sequence number {} where {} was expected; events are missing",
                    self.path.display(),
                    c.thread,
                    c.offset,
                    c.seq,
                    expected
                ));
            }
            *expected = c.seq.wrapping_add(1);
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

    /// Index of event chunks: each thread's in sequence order, threads interleaved.
    pub fn event_chunks(&self) -> &[EventChunkRef] {
        &self.chunks
    }

    /// Total number of events in whole chunks.
    pub fn total_events(&self) -> u64 {
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
            payload: Vec::new(),
            decoder: ChunkDecoder::new(self.bounds.mem_instr_sizes.len()),
            zstd: zstd::bulk::Decompressor::new().map_err(|e| TraceError::io(&self.path, e))?,
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
    /// order (ties by thread index). Memory: one decoded chunk per thread.
    pub fn merged(&self) -> Result<MergedEvents<'_>> {
        let threads = self.thread_indices();
        let mut cursors = Vec::with_capacity(threads.len());
        for &t in &threads {
            let start = self
                .threads
                .iter()
                .find(|i| i.thread == t)
                .map_or(0, |i| i.start_time);
            cursors.push(ThreadCursor {
                thread: t,
                chunks: self
                    .chunks
                    .iter()
                    .filter(|c| c.thread == t)
                    .copied()
                    .collect(),
                next_chunk: 0,
                events: Vec::new(),
                pos: 0,
                start_time: start,
            });
        }
        let mut merged = MergedEvents {
            reader: self.chunk_reader()?,
            cursors,
            heap: BinaryHeap::new(),
            current: None,
        };
        for i in 0..merged.cursors.len() {
            if let Some(time) = merged.segment_time(i)? {
                merged
                    .heap
                    .push(Reverse((time, merged.cursors[i].thread, i)));
            }
        }
        Ok(merged)
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
        let mut n = 0u64;
        for r in self.merged()? {
            let (_, e) = r?;
            e.visit(v);
            n += 1;
            if n == 1 << 16 {
                progress(n);
                n = 0;
            }
        }
        progress(n);
        Ok(())
    }
}

/// Decodes event chunks with reusable buffers.
pub struct ChunkReader<'t> {
    trace: &'t Trace,
    file: File,
    stored: Vec<u8>,
    payload: Vec<u8>,
    decoder: ChunkDecoder,
    zstd: zstd::bulk::Decompressor<'static>,
}

impl ChunkReader<'_> {
    /// Reads, verifies, decompresses and decodes one chunk; returns its event count.
    pub fn visit_chunk(&mut self, c: &EventChunkRef, v: &mut impl EventVisitor) -> Result<u64> {
        let trace = self.trace;
        let header = parse_chunk_header(&c.header).map_err(|w| trace.corrupt(c.offset, w))?;
        self.file
            .seek(SeekFrom::Start(c.offset + CHUNK_HEADER_LEN as u64))
            .map_err(|e| TraceError::io(&trace.path, e))?;
        self.stored.resize(c.stored_len as usize, 0);
        self.file
            .read_exact(&mut self.stored)
            .map_err(|e| TraceError::io(&trace.path, e))?;
        if !crc_matches(&c.header, &self.stored) {
            return Err(trace.corrupt(c.offset, "checksum mismatch"));
        }
        decompress(&mut self.zstd, &header, &self.stored, &mut self.payload)
            .map_err(|what| trace.corrupt(c.offset, what))?;
        let decoded = self
            .decoder
            .decode(&self.payload, &trace.bounds, header.events as u64, v);
        match decoded {
            Ok(n) if n == c.events as u64 => Ok(n),
            // Where a salvaged thread ends: the same error as at open, after the same events.
            Err(e) if c.salvaged && e.events == c.events as u64 => Ok(e.events),
            Ok(n) => Err(trace.corrupt(
                c.offset,
                format!("decoded {n} events, header says {}", c.events),
            )),
            Err(e) => Err(trace.corrupt(
                c.offset,
                format!("event at payload byte {}: {}", e.offset, e.what),
            )),
        }
    }
}

struct ThreadCursor {
    thread: u32,
    chunks: Vec<EventChunkRef>,
    next_chunk: usize,
    events: Vec<Event>,
    pos: usize,
    start_time: u64,
}

/// Iterator over `(thread, event)` in reconstructed global order; see [`Trace::merged`].
pub struct MergedEvents<'t> {
    reader: ChunkReader<'t>,
    cursors: Vec<ThreadCursor>,
    heap: BinaryHeap<Reverse<(u64, u32, usize)>>,
    current: Option<usize>,
}

impl MergedEvents<'_> {
    /// Makes sure cursor `i` has an event at `pos`; false at the end of its stream.
    fn fill(&mut self, i: usize) -> Result<bool> {
        loop {
            let c = &mut self.cursors[i];
            if c.pos < c.events.len() {
                return Ok(true);
            }
            if c.next_chunk >= c.chunks.len() {
                return Ok(false);
            }
            let chunk = c.chunks[c.next_chunk];
            c.next_chunk += 1;
            c.events.clear();
            c.pos = 0;
            let mut events = std::mem::take(&mut c.events);
            let r = self.reader.visit_chunk(&chunk, &mut events);
            self.cursors[i].events = events;
            r?;
        }
    }

    /// Time of the segment starting at cursor `i`'s next event, or `None` at its end.
    fn segment_time(&mut self, i: usize) -> Result<Option<u64>> {
        if !self.fill(i)? {
            return Ok(None);
        }
        let c = &self.cursors[i];
        Ok(Some(match c.events[c.pos] {
            Event::Stamp { time } => time,
            // Events before a thread's first stamp start at its registration time.
            _ => c.start_time,
        }))
    }
}

impl Iterator for MergedEvents<'_> {
    type Item = Result<(u32, Event)>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let i = match self.current {
                Some(i) => i,
                None => {
                    let Reverse((_, _, i)) = self.heap.pop()?;
                    self.current = Some(i);
                    // Emit the segment's first event (its stamp) unconditionally.
                    match self.fill(i) {
                        Ok(true) => {}
                        Ok(false) => {
                            self.current = None;
                            continue;
                        }
                        Err(e) => return Some(Err(e)),
                    }
                    let c = &mut self.cursors[i];
                    let e = c.events[c.pos];
                    c.pos += 1;
                    return Some(Ok((c.thread, e)));
                }
            };
            match self.fill(i) {
                Err(e) => return Some(Err(e)),
                Ok(false) => {
                    self.current = None;
                    continue;
                }
                Ok(true) => {}
            }
            let c = &mut self.cursors[i];
            if let Event::Stamp { time } = c.events[c.pos] {
                // Segment ends: requeue this thread at its next stamp.
                let thread = c.thread;
                self.heap.push(Reverse((time, thread, i)));
                self.current = None;
                continue;
            }
            let e = c.events[c.pos];
            c.pos += 1;
            return Some(Ok((c.thread, e)));
        }
    }
}
