//! The chunk layer both readers share: what a file index and a pipe hand the merge, and the
//! decoding of one chunk, whichever way its bytes arrived.
//!
//! A [`ChunkSource`] hands out each thread's decoded events chunks in sequence order: the file
//! reader's index ([`crate::reader::Trace::merged`]) knows every chunk up front, a live stream
//! ([`crate::stream::LiveTrace`]) reads more of its input when a thread has nothing yet and may
//! know a lower bound of a thread's next stamp (its *floor*). The one stamp-order merge
//! ([`crate::merge::Merge`]) runs over either.
//!
//! Below that, the crate-private `ChunkDecoding` checks, decompresses and decodes a chunk's
//! payload (a metadata record, or events): the same checks (checksum, bounded work,
//! decompressed size, every event against the metadata, the event count) with the same
//! messages for a file and a pipe.

use crate::chunk::*;
use crate::codec::{ChunkDecoder, DecodeError, EventBounds};
use crate::error::Result;
use crate::event::{Event, EventVisitor};
use crate::meta::ModuleMeta;
use std::io::Read;

/// What a source says of a thread's next chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pull {
    /// The chunk is decoded into the buffer (it may hold no events).
    Chunk,
    /// The thread has no more chunks.
    End,
    /// The next chunk is not here yet; `Some(time)` when the thread's next event is known to
    /// be a stamp of at least `time` (a floor: see [`crate::stream`]).
    Wait(Option<u64>),
}

/// Where a merge gets each thread's events chunks. Threads are numbered by *slot*, in order of
/// first appearance; a slot never changes meaning, and a source may gain slots as it reads.
pub trait ChunkSource {
    /// Number of thread slots known so far.
    fn slots(&self) -> usize;
    /// The runtime thread index of `slot`.
    fn thread_of(&self, slot: usize) -> u32;
    /// The time `slot`'s thread registered: the merge key of its events before its first stamp.
    fn start_time_of(&self, slot: usize) -> u64;
    /// Decodes `slot`'s next chunk, in sequence order, into `events` (empty on entry).
    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> Result<Pull>;
    /// Reads more input, for a source that can wait ([`Pull::Wait`]); `held` is the number of
    /// decoded events the merge holds, for the source's accounting.
    fn read_more(&mut self, held: u64) -> Result<()>;
    /// Whether no more input will come: every thread's chunks are known.
    fn finished(&self) -> bool;
}

/// Hands every events chunk of `source` to `f` with its thread: each thread's chunks in
/// sequence order, threads interleaved as their chunks are ready (a file: thread after thread,
/// in slot order; a stream: as they arrive), reading more input only when no thread has a
/// chunk ready. The per-thread counterpart of the stamp-order [`crate::merge::Merge`], for
/// analyses that take each thread on its own: it never waits for one thread to let another
/// go on, so a stream is held back by nothing.
pub fn for_each_thread_chunk<E: From<crate::TraceError>>(
    source: &mut impl ChunkSource,
    mut f: impl FnMut(u32, &[Event]) -> std::result::Result<(), E>,
) -> std::result::Result<(), E> {
    let mut events = Vec::new();
    let mut ended: Vec<bool> = Vec::new();
    loop {
        let mut pulled = false;
        ended.resize(source.slots(), false);
        for (slot, ended) in ended.iter_mut().enumerate() {
            while !*ended {
                events.clear();
                match source.next_chunk(slot, &mut events)? {
                    Pull::Chunk => {
                        pulled = true;
                        f(source.thread_of(slot), &events)?;
                    }
                    Pull::End => *ended = true,
                    Pull::Wait(_) => break,
                }
            }
        }
        if source.finished() && ended.len() == source.slots() && ended.iter().all(|&e| e) {
            return Ok(());
        }
        if !pulled {
            source.read_more(0)?;
        }
    }
}

/// A decoded metadata chunk.
pub(crate) enum MetaChunk {
    Program(ProgramInfo),
    Module {
        bases: [u32; crate::abi::IdKind::COUNT],
        meta: ModuleMeta,
    },
    Thread(ThreadInfo),
    End(ExitInfo),
    RegionOfInterest(RoiInfo),
}

/// Decodes the payload of a metadata chunk of `kind` (not an events chunk).
fn decode_metadata(kind: ChunkKind, payload: &[u8]) -> std::result::Result<MetaChunk, String> {
    let bad = |what: &str, e: postcard::Error| format!("{what} chunk does not decode: {e}");
    Ok(match kind {
        ChunkKind::Program => {
            MetaChunk::Program(postcard::from_bytes(payload).map_err(|e| bad("program", e))?)
        }
        ChunkKind::Module => {
            let rec: ModuleRecord = postcard::from_bytes(payload).map_err(|e| bad("module", e))?;
            let meta = ModuleMeta::from_blob(&rec.blob).map_err(|e| e.to_string())?;
            MetaChunk::Module {
                bases: rec.bases,
                meta,
            }
        }
        ChunkKind::Thread => {
            MetaChunk::Thread(postcard::from_bytes(payload).map_err(|e| bad("thread", e))?)
        }
        ChunkKind::End => MetaChunk::End(postcard::from_bytes(payload).map_err(|e| bad("end", e))?),
        ChunkKind::RegionOfInterest => MetaChunk::RegionOfInterest(
            postcard::from_bytes(payload).map_err(|e| bad("region of interest", e))?,
        ),
        ChunkKind::Events => unreachable!("events chunks are decoded by ChunkDecoding"),
    })
}

/// Why an events chunk failed its checks: the events decoded before the fault (0 when the
/// chunk failed before decoding) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BadChunk {
    pub good: u64,
    pub what: String,
}

impl BadChunk {
    fn whole(what: impl Into<String>) -> Self {
        BadChunk {
            good: 0,
            what: what.into(),
        }
    }
}

/// Puts a chunk's decompressed payload in `out`, or returns `stored` itself when it is not
/// compressed. The size allocated is the header's `raw_len` (at most [`MAX_CHUNK_PAYLOAD`]),
/// and only once the zstd frame's own content size agrees.
pub(crate) fn decompress<'a>(
    zstd: &mut zstd::bulk::Decompressor<'static>,
    header: &ChunkHeader,
    stored: &'a [u8],
    out: &'a mut Vec<u8>,
) -> std::result::Result<&'a [u8], String> {
    match header.codec {
        Codec::Raw => {
            if header.raw_len != header.stored_len {
                return Err(format!(
                    "raw payload of {} bytes, header says {} after decompression",
                    header.stored_len, header.raw_len
                ));
            }
            Ok(stored)
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
            Ok(&out[..])
        }
    }
}

/// Checks, decompresses and decodes events chunks, with reusable buffers.
pub(crate) struct ChunkDecoding {
    zstd: zstd::bulk::Decompressor<'static>,
    payload: Vec<u8>,
    decoder: ChunkDecoder,
}

impl ChunkDecoding {
    /// A decoding for events validated against `bounds`.
    pub fn new(bounds: &EventBounds) -> std::io::Result<Self> {
        Ok(ChunkDecoding {
            zstd: zstd::bulk::Decompressor::new()?,
            payload: Vec::new(),
            decoder: ChunkDecoder::new(bounds.mem_instr_sizes.len()),
        })
    }

    /// Follows new metadata (a module registered while a stream is read).
    pub fn set_bounds(&mut self, bounds: &EventBounds) {
        self.decoder = ChunkDecoder::new(bounds.mem_instr_sizes.len());
    }

    /// Checks (checksum), decompresses and decodes a metadata chunk whose header is `h`
    /// (parsed: `header`) and stored payload `stored`.
    pub fn metadata(
        &mut self,
        h: &[u8; CHUNK_HEADER_LEN],
        header: &ChunkHeader,
        stored: &[u8],
    ) -> std::result::Result<MetaChunk, String> {
        if !crc_matches(h, stored) {
            return Err("checksum mismatch".into());
        }
        let payload = decompress(&mut self.zstd, header, stored, &mut self.payload)?;
        decode_metadata(header.kind, payload)
    }

    /// Decompresses and decodes an events chunk whose header is `h` and stored payload
    /// `stored` into `v`, after its checks: the work it asks for justified by its size, the
    /// checksum, the decompressed size. `events` is the number of events expected (the
    /// header's, or fewer where a salvaged thread ends; at most the header's). Returns the
    /// number of events decoded, always `events`.
    pub fn decode(
        &mut self,
        h: &[u8; CHUNK_HEADER_LEN],
        stored: &[u8],
        bounds: &EventBounds,
        events: u32,
        v: &mut impl EventVisitor,
    ) -> std::result::Result<u64, BadChunk> {
        let header = parse_chunk_header(h).map_err(BadChunk::whole)?;
        // Before anything is decompressed or decoded: the work the chunk asks for must be
        // justified by its size.
        if let Some(what) = events_unjustified(&header) {
            return Err(BadChunk::whole(what));
        }
        if !crc_matches(h, stored) {
            return Err(BadChunk::whole("checksum mismatch"));
        }
        let payload = decompress(&mut self.zstd, &header, stored, &mut self.payload)
            .map_err(BadChunk::whole)?;
        match self
            .decoder
            .decode(payload, bounds, header.events as u64, v)
        {
            Ok(n) if n == events as u64 => Ok(n),
            Ok(n) => Err(BadChunk {
                good: n,
                what: format!("decoded {n} events, header says {events}"),
            }),
            Err(DecodeError {
                offset,
                events,
                what,
            }) => Err(BadChunk {
                good: events,
                what: format!("event at payload byte {offset}: {what}"),
            }),
        }
    }
}

/// What is wrong with a thread's events chunk whose sequence number `seq` an earlier chunk (at
/// offset `first`, when known) already had: its events would count twice.
pub(crate) fn repeat_message(thread: u32, seq: u32, first: Option<u64>) -> String {
    let earlier = match first {
        Some(first) => format!("the chunk at offset {first}"),
        None => "a chunk already read".to_string(),
    };
    format!(
        "thread {thread} sequence number {seq} repeats {earlier} (a duplicated or replayed \
         chunk, whose events would count twice)"
    )
}

/// What a trace's file header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileHeader {
    /// The format version (one the reader accepts).
    Version(u32),
    /// The input ends inside the header, after the right magic: an empty trace (a run killed
    /// before its first write), which the reader reports with a warning.
    Cut,
}

/// Reads and checks the file header at the start of `input`: the one rule of both readers.
/// Fewer than 8 bytes or another magic is not a trace; the right magic cut short is
/// [`FileHeader::Cut`]; a version `readable` refuses is an error naming it and the versions
/// this build reads (`oldest..=newest`).
pub(crate) fn read_file_header(
    input: &mut impl Read,
    path: &std::path::Path,
    readable: fn(u32) -> bool,
    newest: u32,
) -> Result<FileHeader> {
    let mut header = [0u8; FILE_HEADER_LEN];
    let n = read_full(input, &mut header).map_err(|e| crate::TraceError::io(path, e))?;
    if n < 8 || header[..8] != FILE_MAGIC {
        return Err(crate::TraceError::NotATrace {
            path: path.to_path_buf(),
        });
    }
    if n < FILE_HEADER_LEN {
        return Ok(FileHeader::Cut);
    }
    let version = u32::from_le_bytes(header[8..12].try_into().unwrap());
    if !readable(version) {
        return Err(crate::TraceError::UnsupportedVersion {
            path: path.to_path_buf(),
            found: version,
            oldest: crate::version::OLDEST_SUPPORTED,
            current: newest,
        });
    }
    Ok(FileHeader::Version(version))
}

/// The warning of a [`FileHeader::Cut`] input.
pub(crate) fn cut_header_warning(path: &std::path::Path) -> String {
    format!("{}: file ends inside the file header", path.display())
}

/// Reads as many bytes as are available into `buf` (retrying interrupted reads); returns how
/// many (less than `buf.len()` only at the end of the input).
pub(crate) fn read_full(f: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}
