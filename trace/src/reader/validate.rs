//! Validating a file's events at open: every events chunk decoded once (checksum,
//! decompression, every event against the metadata, the event count, the bytes its accesses
//! touch), on every CPU.
//!
//! This pass is a whole decode of the trace before any analysis sees an event (so that a bad
//! chunk or too much work is known first), and it used to be a quarter of `histogram`'s time.
//! But chunks decode independently (the codec's predictor starts afresh in every chunk), so
//! the chunks are checked in parallel, each worker with its own decoder and positioned reads,
//! and the verdicts are then applied in file order exactly as one sequential pass would: the
//! first bad chunk of a thread ends it (or under salvage is skipped alone), and the touched
//! bytes of the chunks a sequential pass would have decoded are summed.

use super::*;
use crate::source::ChunkDecoding;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What decoding one events chunk found.
struct ChunkCheck {
    /// The events decoded, or what is wrong and how many events before it were good.
    result: std::result::Result<u64, BadChunk>,
    /// Accesses decoded and 64-byte lines they touch (see [`Touching`]).
    accesses: u64,
    lines: u64,
}

/// Chunks a worker takes at a time: few enough to balance, enough to amortise the counter.
const CHUNKS_PER_TAKE: usize = 4;

/// Most workers: beyond this the disk, not decoding, is the limit.
const MAX_WORKERS: usize = 16;

impl Trace {
    /// Decodes every events chunk once (checksum, decompression, every event against the
    /// metadata, the event count). The first bad chunk of a thread ends that thread: its good
    /// events are kept, the thread's later chunks are dropped, and a warning says where. Under
    /// salvage only the bad chunk is skipped (its good events kept) and the thread goes on.
    pub(super) fn validate_events(&mut self, f: &mut File) -> Result<()> {
        let checks = self.check_chunks(f)?;
        let salvage = self.options.salvage;
        // Threads already ended by a bad chunk.
        let mut ended: BTreeSet<u32> = BTreeSet::new();
        let mut keep = Vec::with_capacity(self.chunks.len());
        let mut warnings = Vec::new();
        let mut count = Count;
        let mut touched = Touching::new(&mut count);
        for (i, check) in checks.into_iter().enumerate() {
            let mut c = self.chunks[i];
            if ended.contains(&c.thread) {
                // A sequential pass would not have decoded it: its events neither count nor
                // touch anything.
                self.losses.chunks_skipped += 1;
                self.losses.events_skipped += c.events as u64;
                continue;
            }
            touched.accesses += check.accesses;
            touched.lines += check.lines;
            if let Err(BadChunk { good, what }) = check.result {
                let rest = if salvage {
                    "the rest of the chunk is skipped and the thread goes on (salvage)"
                } else {
                    "the thread's events end at its last good event"
                };
                let later = if salvage {
                    ""
                } else {
                    ", later chunks of the thread skipped"
                };
                warnings.push(format!(
                    "{}: thread {}: corrupt chunk at offset {}: {what}; {rest} ({good} events of \
                     this chunk kept{later})",
                    self.path.display(),
                    c.thread,
                    c.offset,
                ));
                self.rejected.push(RejectedChunk {
                    offset: c.offset,
                    thread: c.thread,
                    what: what.clone(),
                });
                self.losses.chunks_skipped += 1;
                self.losses.events_skipped += (c.events as u64).saturating_sub(good);
                if !salvage {
                    ended.insert(c.thread);
                }
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
        // See: crate::work. Checked before any analysis visits a line.
        touched.add_to(&mut self.touched);
        self.touched.trace_bytes = self.file_len;
        let limit = self.options.max_touched;
        if limit.exceeded(&self.touched) {
            return Err(TraceError::TooMuchWork {
                path: self.path.clone(),
                touched: self.touched,
                limit,
            });
        }
        Ok(())
    }

    /// Decodes every events chunk, on up to one worker per CPU, and returns what each one
    /// found, in file order. Fails on a read error.
    fn check_chunks(&self, f: &File) -> Result<Vec<ChunkCheck>> {
        let n = self.chunks.len();
        let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
        let workers = cpus
            .min(MAX_WORKERS)
            .min(n.div_ceil(CHUNKS_PER_TAKE))
            .max(1);
        let next = AtomicUsize::new(0);
        let work = || -> std::io::Result<Vec<(usize, ChunkCheck)>> {
            let mut decoding = ChunkDecoding::new(&self.bounds)?;
            let mut stored = Vec::new();
            let mut done = Vec::new();
            loop {
                let from = next.fetch_add(CHUNKS_PER_TAKE, Ordering::Relaxed);
                if from >= n {
                    return Ok(done);
                }
                for i in from..(from + CHUNKS_PER_TAKE).min(n) {
                    let c = &self.chunks[i];
                    // The chunk's length was checked against the file's size when it was
                    // indexed.
                    stored.resize(c.stored_len as usize, 0);
                    f.read_exact_at(&mut stored, c.offset + CHUNK_HEADER_LEN as u64)?;
                    let mut count = Count;
                    let mut touching = Touching::new(&mut count);
                    let result =
                        decoding.decode(&c.header, &stored, &self.bounds, c.events, &mut touching);
                    let (accesses, lines) = (touching.accesses, touching.lines);
                    done.push((
                        i,
                        ChunkCheck {
                            result,
                            accesses,
                            lines,
                        },
                    ));
                }
            }
        };
        let parts: Vec<std::io::Result<Vec<(usize, ChunkCheck)>>> = if workers == 1 {
            vec![work()]
        } else {
            std::thread::scope(|s| {
                let handles: Vec<_> = (1..workers)
                    .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
                    .collect();
                // This thread works too (and alone, if no thread could be started).
                let mut parts = vec![work()];
                parts.extend(
                    handles
                        .into_iter()
                        .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
                );
                parts
            })
        };
        let mut checks: Vec<Option<ChunkCheck>> = (0..n).map(|_| None).collect();
        let mut first_error: Option<std::io::Error> = None;
        for part in parts {
            match part {
                Ok(done) => {
                    for (i, check) in done {
                        checks[i] = Some(check);
                    }
                }
                // Any read error fails the open, as the sequential pass's did.
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        if let Some(e) = first_error {
            return Err(TraceError::io(&self.path, e));
        }
        Ok(checks
            .into_iter()
            .map(|c| c.expect("every chunk index was taken by a worker"))
            .collect())
    }
}
