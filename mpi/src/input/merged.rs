//! The merged order of a multi-threaded trace, cut into *windows* that ranks read on their own.
//!
//! [`Trace::merged`] cuts each thread's stream into segments at its stamps and merges the
//! threads' segment sequences by their key `(stamp, thread)` (the events before a thread's first
//! stamp have its registration time). Where a thread's stamp goes back, the merge emits that
//! segment at once after the one before it (it is the smallest key in the heap), so the merged
//! order is the stable sort of all segments by their *effective* key: the largest stamp of the
//! thread so far, then the thread. Hence the segments whose effective key lies in `[lo, hi)` are
//! one consecutive stretch of the merged order, and windows with increasing bounds cut it into
//! consecutive pieces: exactly what PARDA needs of its source chunks.
//!
//! The chunk index holds no stamps, so a window's trace chunks are found with a pre-pass:
//! every chunk is decoded once (each rank decodes its share, `MergedSource::open` all-gathers
//! the summaries), giving each chunk's first and last stamp and a few weighted keys, from which
//! every rank computes the same windows of about equal access counts ([`MergedPlan`]). A rank
//! then decodes, per thread, only the chunks whose keys meet its window, keeps the events whose
//! key lies in it, and merges the threads' kept events with the merge `Trace::merged` uses
//! (`rdtrace::merge`, over a [`WindowSource`]; [`MergedPlan::read_window`]). The property test
//! checks the windows against `Trace::merged` itself, stamps going back included.

use rdengines::Granularity;
use rdtrace::merge::Merge;
use rdtrace::reader::{ChunkReader, EventChunkRef};
use rdtrace::source::{ChunkSource as TraceSource, Pull};
use rdtrace::{Event, Trace};

/// Position in the merged order: the time of the stamp that opens the segment, then the thread.
pub type Key = (u64, u32);

/// Weighted keys kept per chunk for balancing windows (consecutive stamps are pooled).
const SAMPLES_PER_CHUNK: usize = 8;

/// What the plan needs of one events chunk, from one decoding pass.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChunkSummary {
    /// The largest stamp time of the chunk (none without a stamp).
    pub max_stamp: Option<u64>,
    /// Whether the chunk's first event is a stamp (for a thread's first chunk: then no events
    /// take the registration time).
    pub starts_with_stamp: bool,
    /// Accesses before the chunk's first stamp (they belong to the segment the chunk starts in).
    pub lead: u64,
    /// `(largest stamp so far in the chunk, accesses from there to the next kept stamp)`, at
    /// most [`SAMPLES_PER_CHUNK`].
    pub samples: Vec<(u64, u64)>,
}

impl ChunkSummary {
    /// Summarises the decoded events of one chunk.
    pub fn of(events: &[Event]) -> Self {
        let mut s = ChunkSummary {
            starts_with_stamp: matches!(events.first(), Some(Event::Stamp { .. })),
            ..ChunkSummary::default()
        };
        let mut all: Vec<(u64, u64)> = Vec::new();
        for e in events {
            match *e {
                Event::Stamp { time } => {
                    let top = s.max_stamp.map_or(time, |m| m.max(time));
                    s.max_stamp = Some(top);
                    all.push((top, 0));
                }
                Event::Access { .. } => match all.last_mut() {
                    Some(last) => last.1 += 1,
                    None => s.lead += 1,
                },
                _ => {}
            }
        }
        // Pool consecutive stamps into at most SAMPLES_PER_CHUNK weighted keys.
        let per = all.len().div_ceil(SAMPLES_PER_CHUNK).max(1);
        s.samples = all
            .chunks(per)
            .map(|g| (g[0].0, g.iter().map(|x| x.1).sum()))
            .collect();
        s
    }

    /// Appends the summary as `u64`s (for an all-gather): whether there is a stamp, the
    /// largest stamp, whether the chunk starts with one, lead, sample count, then the samples.
    pub fn encode(&self, out: &mut Vec<u64>) {
        out.extend([
            self.max_stamp.is_some() as u64,
            self.max_stamp.unwrap_or(0),
            self.starts_with_stamp as u64,
            self.lead,
            self.samples.len() as u64,
        ]);
        for &(t, w) in &self.samples {
            out.extend([t, w]);
        }
    }

    /// Reads one summary written by [`encode`](Self::encode) from the front of `words`,
    /// returning it and the rest.
    pub fn decode(words: &[u64]) -> Option<(Self, &[u64])> {
        let (head, rest) = words.split_at_checked(5)?;
        let n = usize::try_from(head[4]).ok()?;
        let (pairs, rest) = rest.split_at_checked(n.checked_mul(2)?)?;
        let samples = pairs.chunks_exact(2).map(|p| (p[0], p[1])).collect();
        Some((
            ChunkSummary {
                max_stamp: (head[0] != 0).then_some(head[1]),
                starts_with_stamp: head[2] != 0,
                lead: head[3],
                samples,
            },
            rest,
        ))
    }
}

/// One thread's events chunks with the effective keys they span.
struct ThreadChunks {
    thread: u32,
    /// `(chunk, key time at its first event, key time at its last event)`.
    chunks: Vec<(EventChunkRef, u64, u64)>,
}

/// Windows of the merged order of a trace, the same on every rank that builds it from the same
/// summaries.
pub struct MergedPlan {
    threads: Vec<ThreadChunks>,
    /// Window `g` holds the keys in `[bounds[g], bounds[g + 1])` (the last one: up from its
    /// bound); `bounds[0]` is the smallest key.
    bounds: Vec<Key>,
}

impl MergedPlan {
    /// The plan for `trace` from `summaries` (one per events chunk, in the order of
    /// [`Trace::event_chunks`]), with windows of about `window_accesses` accesses each.
    pub fn new(trace: &Trace, summaries: &[ChunkSummary], window_accesses: u64) -> Self {
        let chunks = trace.event_chunks();
        assert_eq!(chunks.len(), summaries.len(), "one summary per chunk");
        let starts = &trace.threads;
        let mut threads: Vec<ThreadChunks> = Vec::new();
        let mut points: Vec<(Key, u64)> = Vec::new();
        for t in trace.thread_indices() {
            let mut mine = Vec::new();
            let mut key = 0;
            let mut first_event = true;
            for (c, s) in chunks.iter().zip(summaries).filter(|(c, _)| c.thread == t) {
                if first_event && c.events > 0 {
                    first_event = false;
                    if s.starts_with_stamp {
                        // The thread's first segment opens with a stamp: no registration time.
                        key = 0;
                    } else {
                        // As in `Trace::merged`: events before the first stamp take the time the
                        // thread registered (a first stamp does not: it opens its own segment).
                        key = starts
                            .iter()
                            .find(|i| i.thread == t)
                            .map_or(0, |i| i.start_time);
                    }
                }
                let start = key;
                points.push(((start, t), s.lead));
                points.extend(s.samples.iter().map(|&(time, w)| ((time.max(start), t), w)));
                if let Some(top) = s.max_stamp {
                    key = key.max(top);
                }
                mine.push((*c, start, key));
            }
            threads.push(ThreadChunks {
                thread: t,
                chunks: mine,
            });
        }
        points.sort_unstable();
        let total: u64 = points.iter().map(|p| p.1).sum();
        let windows = total.div_ceil(window_accesses.max(1)).max(1);
        let mut bounds: Vec<Key> = vec![(0, 0)];
        let mut sum = 0u64;
        let mut g = 1u64;
        for &(key, w) in &points {
            // A window closes at the first key whose accesses would take it past its share.
            if g < windows && sum >= g * total / windows {
                if key > *bounds.last().expect("starts with one bound") {
                    bounds.push(key);
                }
                while g < windows && sum >= g * total / windows {
                    g += 1;
                }
            }
            sum += w;
        }
        MergedPlan { threads, bounds }
    }

    /// Number of windows.
    pub fn windows(&self) -> u64 {
        self.bounds.len() as u64
    }

    /// Appends the blocks of window `g`'s accesses in merged order to `out`: the one
    /// stamp-order merge ([`Merge`]) over the window's part of each thread ([`WindowSource`]).
    pub fn read_window(
        &self,
        reader: &mut ChunkReader<'_>,
        g: u64,
        gran: Granularity,
        out: &mut Vec<u64>,
    ) -> Result<(), String> {
        let mut source = WindowSource {
            plan: self,
            reader,
            lo: self.bounds[g as usize],
            hi: self.bounds.get(g as usize + 1).copied(),
            threads: vec![WindowThread::default(); self.threads.len()],
            decoded: Vec::new(),
        };
        let mut merge = Merge::new();
        while let Some((_, e)) = merge.next(&mut source).map_err(|e| e.to_string())? {
            if let Event::Access { addr, len, .. } = e {
                gran.for_each_block(addr, len, |b| out.push(b));
            }
        }
        Ok(())
    }
}

/// Where a [`WindowSource`] is in one thread.
#[derive(Clone, Default)]
struct WindowThread {
    /// The next of the thread's chunks.
    next: usize,
    /// Whether the window's part of the thread has begun.
    begun: bool,
}

/// The events of one window, each thread's as a source for the merge: only the chunks whose
/// keys meet the window are decoded, and of their events only those whose effective key lies
/// in it are handed on, every stamp carrying its effective key, and a stamp first where the
/// window's part of the thread begins inside a segment. Merged in stamp order, these give the
/// window's stretch of [`Trace::merged`] (see the module docs).
struct WindowSource<'p, 'r, 't> {
    plan: &'p MergedPlan,
    reader: &'r mut ChunkReader<'t>,
    lo: Key,
    hi: Option<Key>,
    threads: Vec<WindowThread>,
    decoded: Vec<Event>,
}

impl TraceSource for WindowSource<'_, '_, '_> {
    fn slots(&self) -> usize {
        self.plan.threads.len()
    }

    fn thread_of(&self, slot: usize) -> u32 {
        self.plan.threads[slot].thread
    }

    fn start_time_of(&self, _slot: usize) -> u64 {
        // Never asked: every thread's part opens with a stamp.
        0
    }

    fn next_chunk(&mut self, slot: usize, events: &mut Vec<Event>) -> rdtrace::Result<Pull> {
        let tc = &self.plan.threads[slot];
        let t = tc.thread;
        let (lo, hi) = (self.lo, self.hi);
        let st = &mut self.threads[slot];
        let Some(&(c, first, last)) = tc.chunks.get(st.next) else {
            return Ok(Pull::End);
        };
        st.next += 1;
        // Keys only grow within a thread, so the chunks that meet the window are one run;
        // the others are not decoded.
        if hi.is_some_and(|h| (first, t) >= h) {
            st.next = tc.chunks.len();
            return Ok(Pull::End);
        }
        if (last, t) < lo {
            return Ok(Pull::Chunk);
        }
        self.decoded.clear();
        self.reader.visit_chunk(&c, &mut self.decoded)?;
        let mut key = first;
        for &e in &self.decoded {
            if let Event::Stamp { time } = e {
                // The effective key: the largest stamp so far (see the module docs).
                key = key.max(time);
            }
            if hi.is_some_and(|h| (key, t) >= h) {
                st.next = tc.chunks.len();
                break;
            }
            if (key, t) < lo {
                continue;
            }
            match e {
                Event::Stamp { .. } => events.push(Event::Stamp { time: key }),
                _ => {
                    if !st.begun {
                        events.push(Event::Stamp { time: key });
                    }
                    events.push(e);
                }
            }
            st.begun = true;
        }
        Ok(Pull::Chunk)
    }

    fn read_more(&mut self, _held: u64) -> rdtrace::Result<()> {
        Ok(())
    }

    fn finished(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Writes a trace of `threads`, each `(registration time, events chunks)`.
    fn write(path: &std::path::Path, threads: &[(u64, Vec<Vec<Event>>)]) {
        let mut module = rdtrace::testing::one_block_module("merged", 1);
        module.mem_instrs = vec![rdtrace::testing::load8(0, rdtrace::testing::at(0, 3))];
        rdtrace::testing::write_trace_chunks(path, &module, threads).unwrap();
    }

    fn summaries(trace: &Trace) -> Vec<ChunkSummary> {
        let mut r = trace.chunk_reader().unwrap();
        trace
            .event_chunks()
            .iter()
            .map(|c| {
                let mut events = Vec::new();
                r.visit_chunk(c, &mut events).unwrap();
                ChunkSummary::of(&events)
            })
            .collect()
    }

    /// A thread: `(registration time, chunks)`. Stamps mostly grow (small steps, so times tie
    /// across threads) but sometimes go back, below the registration time too; accesses at
    /// small addresses (so blocks repeat across threads); chunks may start with a stamp or not.
    fn thread_strategy() -> impl Strategy<Value = (u64, Vec<Vec<Event>>)> {
        let event = prop_oneof![
            4 => (0i64..4).prop_map(|dt| (Some(dt), 0u64)),
            1 => (-12i64..0).prop_map(|dt| (Some(dt), 0u64)),
            8 => (0u64..64).prop_map(|a| (None, a)),
        ];
        (
            10u64..30,
            prop::collection::vec(prop::collection::vec(event, 1..30), 1..5),
        )
            .prop_map(|(start, chunks)| {
                let mut time = start as i64;
                let chunks = chunks
                    .into_iter()
                    .map(|c| {
                        c.into_iter()
                            .map(|(dt, a)| match dt {
                                Some(dt) => {
                                    time = (time + dt).max(0);
                                    Event::Stamp { time: time as u64 }
                                }
                                None => Event::Access {
                                    mi: 0,
                                    addr: a * 8,
                                    len: 8,
                                },
                            })
                            .collect()
                    })
                    .collect();
                (start, chunks)
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The windows, read one after the other, give the accesses of `Trace::merged` in its
        /// order, for any window size (ties of stamps across threads, and stamps that go back,
        /// included).
        #[test]
        fn windows_concatenate_to_the_merged_order(
            threads in prop::collection::vec(thread_strategy(), 1..5),
            window in 1u64..40,
        ) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.rdtrace");
            write(&path, &threads);
            let trace = Trace::open(&path).unwrap();
            let gran = Granularity::Byte;
            let mut want = Vec::new();
            for r in trace.merged().unwrap() {
                if let (_, Event::Access { addr, len, .. }) = r.unwrap() {
                    gran.for_each_block(addr, len, |b| want.push(b));
                }
            }
            let plan = MergedPlan::new(&trace, &summaries(&trace), window);
            let mut reader = trace.chunk_reader().unwrap();
            let mut got = Vec::new();
            for g in 0..plan.windows() {
                plan.read_window(&mut reader, g, gran, &mut got).unwrap();
            }
            prop_assert_eq!(got, want);
        }

        /// Summaries survive the all-gather encoding.
        #[test]
        fn summaries_round_trip(threads in prop::collection::vec(thread_strategy(), 1..3)) {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("t.rdtrace");
            write(&path, &threads);
            let trace = Trace::open(&path).unwrap();
            let s = summaries(&trace);
            let mut words = Vec::new();
            for x in &s {
                x.encode(&mut words);
            }
            let mut rest = &words[..];
            let mut back = Vec::new();
            while !rest.is_empty() {
                let (x, r) = ChunkSummary::decode(rest).unwrap();
                back.push(x);
                rest = r;
            }
            prop_assert_eq!(back, s);
        }
    }
}
