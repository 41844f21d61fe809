//! Building a trace's index at open ([`Trace::open`]): the scan over chunk headers that decodes
//! the metadata chunks and records where each events chunk lies, with resynchronisation over
//! damage, the duplicate rule and the per-thread sequence check (see the module docs of
//! [`super`]).

use super::*;

impl Trace {
    /// Reads the file after its header: indexes every chunk (see the module docs).
    pub(super) fn scan(&mut self, f: &mut File) -> Result<()> {
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
                    decoded: 0,
                    index: 0,
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
        // See: deferred.rs. Every chunk stays in the index and readers check each one, but
        // readers size their buffers by the chunks' event counts before decoding: a header
        // claiming more events than its bytes justify is judged at open.
        let justified = || {
            self.chunks.iter().all(|c| {
                parse_chunk_header(&c.header).is_ok_and(|h| events_unjustified(&h).is_none())
            })
        };
        if self.options.defer_validation && !salvage && justified() {
            self.deferred = Some(deferred::Deferred::new(self.chunks.len()));
        } else {
            self.validate_events()?;
        }
        if salvage {
            self.drop_repeats();
        }
        for (i, c) in self.chunks.iter_mut().enumerate() {
            c.index = i as u32;
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
        self.losses.events_delivered = self.stored_events();
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
}
