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

mod parallel;
mod validate;

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

    fn corrupt(&self, offset: u64, what: impl Into<String>) -> TraceError {
        TraceError::CorruptChunk {
            path: self.path.clone(),
            offset,
            what: what.into(),
        }
    }

    fn scan(&mut self, f: &mut File) -> Result<()> {
        let salvage = self.options.salvage;
        let mut offset = FILE_HEADER_LEN as u64;
        let mut stored = Vec::new();
        let mut modules = Vec::new();
        let mut decoding =
            ChunkDecoding::new(&self.bounds).map_err(|e| TraceError::io(&self.path, e))?;
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
            let header = match parse_chunk_header(&h) {
                Ok(header) => header,
                Err(what) if salvage => match self.resync(f, offset, &what)? {
                    Some(next) => {
                        offset = next;
                        continue;
                    }
                    None => break,
                },
                Err(what) => return Err(self.corrupt(offset, what)),
            };
            let end = offset + (CHUNK_HEADER_LEN as u64) + header.stored_len as u64;
            if end > self.file_len {
                // A length that runs past the end is a cut-off chunk, or under salvage possibly
                // a damaged header with whole chunks after it.
                if salvage {
                    let what = format!("chunk length {} runs past the end", header.stored_len);
                    if let Some(next) = self.resync(f, offset, &what)? {
                        offset = next;
                        continue;
                    }
                }
                let cut = if header.kind == ChunkKind::Events {
                    self.losses.events_cut_off += header.events as u64;
                    format!(
                        " (an events chunk of thread {} with {} events)",
                        header.thread, header.events
                    )
                } else {
                    String::new()
                };
                self.warnings.push(format!(
                    "{}: truncated at offset {offset}: chunk needs {} bytes, {} remain{cut}; \
                     events up to the last whole chunk are read",
                    self.path.display(),
                    CHUNK_HEADER_LEN as u64 + header.stored_len as u64,
                    self.file_len.saturating_sub(offset)
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
            } else {
                let read = self.read_metadata_chunk(
                    f,
                    offset,
                    &h,
                    &header,
                    &mut stored,
                    &mut decoding,
                    &mut modules,
                );
                match read {
                    Ok(()) => {}
                    Err(e) if salvage => {
                        self.warnings
                            .push(format!("{e}; the chunk is skipped (salvage)"));
                    }
                    Err(e) => return Err(e),
                }
            }
            offset = end;
            f.seek(SeekFrom::Start(end))
                .map_err(|e| TraceError::io(&self.path, e))?;
        }
        // Modules are registered in base order; sort defensively so a writer that emitted them
        // out of order still yields one consistent id space.
        modules.sort_by_key(|(_, bases, _)| *bases);
        for (offset, bases, meta) in modules {
            if let Err(e) = self.meta.add_module(meta, bases) {
                let e = self.corrupt(offset, e.to_string());
                if !salvage {
                    return Err(e);
                }
                // A lost module leaves a hole in the id space: the modules after it cannot be
                // placed, and events that name their ids are refused chunk by chunk.
                self.warnings.push(format!(
                    "{e}; this module and the ones after it are left out (salvage)"
                ));
                break;
            }
        }
        self.bounds = EventBounds::of(&self.meta);
        // Each thread's chunks in sequence order (a signal-time flush may have written them
        // out of order); a stable sort keeps the threads interleaved as in the file.
        self.chunks.sort_by_key(|c| c.seq);
        if !salvage {
            self.refuse_repeats()?;
        }
        self.validate_events()?;
        if salvage {
            self.drop_repeats();
        }
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
        // Writers other than the runtime (tests, tools) may leave the counts empty: unknown.
        self.losses.events_recorded = self
            .exit
            .as_ref()
            .filter(|e| !e.events_recorded.is_empty())
            .map(|e| {
                e.events_recorded
                    .iter()
                    .fold(0u64, |sum, &n| sum.saturating_add(n))
            });
        self.losses.events_delivered = self.total_events();
        // Also after other warnings (a cut-off chunk): what is known to be lost goes with it.
        if self.exit.is_none() {
            self.warnings.push(format!(
                "{}: no end chunk: the program did not finish normally (killed, or crashed without a flush); {}",
                self.path.display(),
                self.known_lost()
            ));
        }
        if salvage && self.losses.any() {
            self.warnings.push(self.salvage_summary());
        }
        Ok(())
    }

    /// Reads, checks and decodes one metadata chunk (program, module, thread, end, region of
    /// interest) whose header is `h` at `offset`.
    #[allow(clippy::too_many_arguments)]
    fn read_metadata_chunk(
        &mut self,
        f: &mut File,
        offset: u64,
        h: &[u8; CHUNK_HEADER_LEN],
        header: &ChunkHeader,
        stored: &mut Vec<u8>,
        decoding: &mut ChunkDecoding,
        modules: &mut Vec<(u64, [u32; crate::abi::IdKind::COUNT], ModuleMeta)>,
    ) -> Result<()> {
        // The length was checked against the file's size before it sizes this buffer.
        stored.resize(header.stored_len as usize, 0);
        f.read_exact(stored)
            .map_err(|e| TraceError::io(&self.path, e))?;
        match decoding
            .metadata(h, header, stored)
            .map_err(|what| self.corrupt(offset, what))?
        {
            MetaChunk::Program(program) => self.program = program,
            MetaChunk::Module { bases, meta } => modules.push((offset, bases, meta)),
            MetaChunk::Thread(t) => self.threads.push(t),
            MetaChunk::End(exit) => self.exit = Some(exit),
            MetaChunk::RegionOfInterest(roi) => {
                self.roi.get_or_insert_with(RoiInfo::default).join(roi)
            }
        }
        Ok(())
    }

    /// Salvage: finds the next chunk after the unreadable header at `from` (`what` says why it
    /// is unreadable): the first chunk magic after it whose header parses, whose chunk fits in
    /// the file and whose checksum matches. Leaves `f` just after that chunk's header and
    /// returns its offset, or `None` when no chunk follows (the rest of the file is skipped).
    /// Reads the file in bounded windows; a candidate's payload is read once to check it.
    fn resync(&mut self, f: &mut File, from: u64, what: &str) -> Result<Option<u64>> {
        const WINDOW: usize = 1 << 16;
        let io = |e| TraceError::io(&self.path, e);
        let mut window = vec![0u8; WINDOW + CHUNK_HEADER_LEN];
        let mut payload = Vec::new();
        let mut at = from + 1;
        let found = 'search: loop {
            if at + CHUNK_HEADER_LEN as u64 > self.file_len {
                break None;
            }
            f.seek(SeekFrom::Start(at)).map_err(io)?;
            let n = read_full(f, &mut window).map_err(io)?;
            if n < CHUNK_HEADER_LEN {
                break None;
            }
            // Candidates start in the first `n - header + 1` bytes, so each header is whole.
            let starts = n - CHUNK_HEADER_LEN + 1;
            let mut i = 0;
            while let Some(k) = window[i..starts + 3]
                .windows(4)
                .position(|w| w == CHUNK_MAGIC)
            {
                let cand = i + k;
                if cand >= starts {
                    break;
                }
                let h: [u8; CHUNK_HEADER_LEN] =
                    window[cand..cand + CHUNK_HEADER_LEN].try_into().unwrap();
                let offset = at + cand as u64;
                if let Ok(header) = parse_chunk_header(&h) {
                    let end = offset + CHUNK_HEADER_LEN as u64 + header.stored_len as u64;
                    if end <= self.file_len {
                        payload.resize(header.stored_len as usize, 0);
                        f.seek(SeekFrom::Start(offset + CHUNK_HEADER_LEN as u64))
                            .map_err(io)?;
                        f.read_exact(&mut payload).map_err(io)?;
                        if crc_matches(&h, &payload) {
                            break 'search Some(offset);
                        }
                    }
                }
                i = cand + 1;
            }
            at += starts as u64;
        };
        let next = found.unwrap_or(self.file_len);
        self.losses.regions_skipped += 1;
        self.losses.bytes_skipped += next - from;
        let resumed = match found {
            Some(o) => format!("resumed at the chunk at offset {o}"),
            None => "no whole chunk follows".to_string(),
        };
        self.warnings.push(format!(
            "{}: unreadable chunk header at offset {from}: {what}; {} bytes skipped, {resumed} (salvage)",
            self.path.display(),
            next - from
        ));
        if let Some(o) = found {
            f.seek(SeekFrom::Start(o)).map_err(io)?;
        }
        Ok(found)
    }

    /// Refuses a file in which one thread has two events chunks with the same sequence number:
    /// their events would be counted twice. Expects the chunks sorted by sequence number.
    fn refuse_repeats(&self) -> Result<()> {
        let mut seen: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        for c in &self.chunks {
            if let Some(first) = seen.insert((c.thread, c.seq), c.offset) {
                return Err(self.corrupt(c.offset, repeat_message(c.thread, c.seq, Some(first))));
            }
        }
        Ok(())
    }

    /// Salvage: drops the later copies of a thread's repeated sequence numbers (the first copy
    /// that passed validation is kept), with a warning each.
    fn drop_repeats(&mut self) {
        let mut seen: BTreeMap<(u32, u32), u64> = BTreeMap::new();
        let mut warnings = Vec::new();
        let path = self.path.display().to_string();
        let losses = &mut self.losses;
        self.chunks
            .retain(|c| match seen.insert((c.thread, c.seq), c.offset) {
                None => true,
                Some(first) => {
                    // Keep the first offset as the one a later repeat names.
                    seen.insert((c.thread, c.seq), first);
                    losses.chunks_skipped += 1;
                    losses.events_skipped += c.events as u64;
                    warnings.push(format!(
                    "{path}: thread {} chunk at offset {} repeats sequence number {} of the chunk \
                     at offset {first}; dropped (salvage)",
                    c.thread, c.offset, c.seq
                ));
                    false
                }
            });
        self.warnings.extend(warnings);
    }

    /// What is known to be lost from a run without an end chunk.
    fn known_lost(&self) -> String {
        let l = &self.losses;
        let mut known = Vec::new();
        if l.chunks_missing > 0 {
            known.push(format!(
                "{} events chunk(s) missing from the sequence numbers",
                l.chunks_missing
            ));
        }
        if l.chunks_skipped > 0 {
            known.push(format!(
                "{} damaged chunk(s) with {} events",
                l.chunks_skipped, l.events_skipped
            ));
        }
        if l.events_cut_off > 0 {
            known.push(format!("{} events of a cut-off chunk", l.events_cut_off));
        }
        let known = if known.is_empty() {
            "no chunk is known to be lost".to_string()
        } else {
            format!("known lost: {}", known.join(", "))
        };
        format!(
            "{known}; the events each thread had not yet written out when it stopped (at most \
             its open chunk and raw buffers) are lost too and cannot be counted without the end \
             chunk"
        )
    }

    /// The one-line summary of a salvaged read: what was skipped, and what is missing.
    fn salvage_summary(&self) -> String {
        let l = &self.losses;
        let missing = match l.events_recorded {
            Some(r) => format!(
                "the end chunk counts {r} events, {} are read: {} lost",
                l.events_delivered,
                l.events_missing()
            ),
            None if self.exit.is_some() => "the end chunk has no event counts".to_string(),
            None => format!("no end chunk; {}", self.known_lost()),
        };
        format!(
            "{}: salvaged: {} events chunk(s) skipped ({} events), {} unreadable region(s) \
             skipped ({} bytes), {} events chunk(s) missing from the sequence numbers; {missing}",
            self.path.display(),
            l.chunks_skipped,
            l.events_skipped,
            l.regions_skipped,
            l.bytes_skipped,
            l.chunks_missing
        )
    }

    /// Warns about gaps in each thread's sequence numbers (lost chunks) and counts the missing
    /// chunks. Keyed by thread in a map, never sized by a thread index read from the file.
    fn check_sequences(&mut self) {
        let mut next: BTreeMap<u32, u32> = BTreeMap::new();
        for c in &self.chunks {
            let expected = next.entry(c.thread).or_insert(0);
            if c.seq != *expected {
                if c.seq > *expected {
                    self.losses.chunks_missing += (c.seq - *expected) as u64;
                }
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

    /// What the delivered events' accesses touch, in whole [`crate::work::TOUCH_LINE`]-byte
    /// lines: what every analysis visits (see [`crate::work`]).
    pub fn touched(&self) -> Touched {
        self.touched
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

/// One thread of a [`FileSource`].
struct FileThread {
    thread: u32,
    start_time: u64,
    chunks: Vec<EventChunkRef>,
    next: usize,
}

/// A trace file's events chunks, each thread's in sequence order, as a [`ChunkSource`]: every
/// chunk is known up front, so it never waits.
pub struct FileSource<'t> {
    reader: ChunkReader<'t>,
    threads: Vec<FileThread>,
}

impl ChunkSource for FileSource<'_> {
    fn slots(&self) -> usize {
        self.threads.len()
    }

    fn thread_of(&self, slot: usize) -> u32 {
        self.threads[slot].thread
    }

    fn start_time_of(&self, slot: usize) -> u64 {
        self.threads[slot].start_time
    }

    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> Result<Pull> {
        let t = &mut self.threads[slot];
        let Some(c) = t.chunks.get(t.next) else {
            return Ok(Pull::End);
        };
        t.next += 1;
        self.reader.visit_chunk(c, events)?;
        Ok(Pull::Chunk)
    }

    fn read_more(&mut self, _held: u64) -> Result<()> {
        Ok(())
    }

    fn finished(&self) -> bool {
        true
    }
}

/// Iterator over `(thread, event)` in reconstructed global order; see [`Trace::merged`].
pub struct MergedEvents<'t> {
    source: FileSource<'t>,
    merge: Merge,
}

impl Iterator for MergedEvents<'_> {
    type Item = Result<(u32, Event)>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.merge.next(&mut self.source).transpose()
    }
}
