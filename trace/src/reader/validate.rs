//! Validating a file's events at open: every events chunk decoded once (checksum,
//! decompression, every event against the metadata, the event count, the bytes its accesses
//! touch), on every CPU.
//!
//! This pass is a whole decode of the trace before any analysis sees an event (so that a bad
//! chunk or too much work is known first), and it used to be a quarter of `histogram`'s time.
//! But chunks decode independently (the codec's predictor starts afresh in every chunk), so
//! the chunks are checked in parallel ([`Trace::decode_chunks_in_order`], each worker with
//! its own reader), and the verdicts are then applied in file order exactly as one sequential pass would: the
//! first bad chunk of a thread ends it (or under salvage is skipped alone), and the touched
//! bytes of the chunks a sequential pass would have decoded are summed.

use super::*;

/// What decoding one events chunk found.
pub(super) struct ChunkCheck {
    /// The events decoded, or what is wrong and how many events before it were good.
    pub(super) result: std::result::Result<u64, BadChunk>,
    /// Accesses decoded and 64-byte lines they touch (see [`Touching`]).
    pub(super) accesses: u64,
    pub(super) lines: u64,
    /// Events delivered (before the bad one, if any), implied blocks included.
    pub(super) events: u64,
}

/// Most workers: beyond this the disk, not decoding, is the limit.
const MAX_WORKERS: usize = 16;

impl Trace {
    /// Decodes every events chunk once (checksum, decompression, every event against the
    /// metadata, the event count). The first bad chunk of a thread ends that thread: its good
    /// events are kept, the thread's later chunks are dropped, and a warning says where. Under
    /// salvage only the bad chunk is skipped (its good events kept) and the thread goes on.
    pub(super) fn validate_events(&mut self) -> Result<()> {
        let checks = self.check_chunks()?;
        let salvage = self.options.salvage;
        // Threads already ended by a bad chunk.
        let mut ended: BTreeSet<u32> = BTreeSet::new();
        let mut keep = Vec::with_capacity(self.chunks.len());
        let mut warnings = Vec::new();
        let (mut accesses, mut lines) = (0u64, 0u64);
        for (i, check) in checks.into_iter().enumerate() {
            let mut c = self.chunks[i];
            if ended.contains(&c.thread) {
                // A sequential pass would not have decoded it: its events neither count nor
                // touch anything.
                self.losses.chunks_skipped += 1;
                self.losses.events_skipped += c.events as u64;
                continue;
            }
            accesses += check.accesses;
            lines += check.lines;
            c.decoded = u32::try_from(check.events).unwrap_or(u32::MAX);
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
        self.touched.add(accesses, lines);
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

    /// Decodes every events chunk, on up to one worker per CPU
    /// ([`decode_chunks_in_order`](Trace::decode_chunks_in_order)), and returns what each one
    /// found, in file order. Fails on a read error.
    fn check_chunks(&self) -> Result<Vec<ChunkCheck>> {
        let workers = validation_workers();
        let mut checks = Vec::with_capacity(self.chunks.len());
        self.decode_chunks_in_order(
            &self.chunks,
            workers,
            2 * workers,
            |reader, c| reader.check_chunk(c),
            |check| {
                checks.push(check);
                Ok(())
            },
        )?;
        Ok(checks)
    }
}

impl ChunkReader<'_> {
    /// Reads and decodes one chunk, counting the lines its accesses touch, and says what is
    /// wrong with it instead of failing (the verdict is [`Trace::validate_events`]'s).
    fn check_chunk(&mut self, c: &EventChunkRef) -> Result<ChunkCheck> {
        self.read_stored(c)?;
        Ok(self.decode_counted(c, &mut Discard))
    }

    /// Decodes chunk `c` (its payload already read) into `v`, counting its events and the
    /// lines its accesses touch: the checks of the validation at open, and of a deferred one.
    pub(super) fn decode_counted(
        &mut self,
        c: &EventChunkRef,
        v: &mut impl EventVisitor,
    ) -> ChunkCheck {
        let mut counting = Counting {
            inner: v,
            events: 0,
        };
        let mut touching = Touching::new(&mut counting);
        let result = self.decoding.decode(
            &c.header,
            &self.stored,
            &self.trace.bounds,
            c.events,
            &mut touching,
        );
        let (accesses, lines) = (touching.accesses, touching.lines);
        ChunkCheck {
            result,
            accesses,
            lines,
            events: counting.events,
        }
    }
}

/// Workers that check chunks, at open or when a deferred validation is finished: one per CPU,
/// at most [`MAX_WORKERS`].
pub(super) fn validation_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |c| c.get().min(MAX_WORKERS))
}
