//! The one interface of an analysis of a trace's events, in the shape drcachesim gives its
//! tools: an [`Analysis`] says how it reads a trace ([`Shape`]: each thread's events on their
//! own, or all threads merged in stamp order), sees the events through [`EventVisitor`], is
//! told whose events follow ([`Analysis::thread`]), and ends with a report that the caller
//! renders (analyses never format output).
//!
//! [`run`] drives an analysis over a trace file; [`run_merged`] over any stamp-ordered event
//! source (a live stream's). A one-thread file is visited straight from its chunks in either
//! shape ([`Trace::visit_merged`]'s fast path: no merge, no intermediate [`Event`] values), or,
//! for an analysis that needs only the accesses ([`Needs::AccessesOnly`]), decoded on other
//! cores while it runs; so an analysis written once runs at the speed of a hand-written loop on
//! a sequential run.
//!
//! An analysis that wants less than the events, and can say so per chunk, implements [`Digest`]
//! too: [`run_digested`] then has workers turn a one-thread file's chunks into that (the
//! histogram's cache lines) while it runs.
//!
//! An analysis that must stop early (its sink failed) keeps the error and returns it from
//! [`Analysis::finish`]; the visit itself cannot be interrupted, so it ignores the events left.

use crate::error::Result;
use crate::event::{Event, EventVisitor};
use crate::reader::{ChunkReader, EventChunkRef, Trace};

/// How an analysis reads a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Each thread's events on their own, one whole thread after another (drcachesim's
    /// shards): per-thread state (a branch-history stack, a private reuse stack) starts fresh
    /// at every [`Analysis::thread`] call.
    PerThread,
    /// Every thread's events merged in stamp order, with [`Analysis::thread`] called whenever
    /// the thread of the next event differs from the last one's.
    Merged,
}

/// Which events an analysis needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// Every event.
    Everything,
    /// Only [`EventVisitor::access`] (and [`Analysis::thread`]): a one-thread file's chunks are
    /// then decoded on other cores while the analysis runs, and only their accesses kept.
    AccessesOnly,
}

/// An analysis of a trace's events (see the module documentation).
pub trait Analysis: EventVisitor {
    /// What the analysis hands back: plain data, for the caller to render.
    type Report;

    /// How the analysis reads a trace.
    fn shape(&self) -> Shape;

    /// Which events it needs (all, unless it says otherwise).
    fn needs(&self) -> Needs {
        Needs::Everything
    }

    /// The events that follow are thread `thread`'s (its runtime index).
    fn thread(&mut self, thread: u32);

    /// In [`Shape::PerThread`] from a file: every event of thread `thread` has been seen
    /// (drcachesim's shard exit), so its per-thread state can be summed up and dropped. Not
    /// called in [`Shape::Merged`], nor where a stream's chunks interleave threads.
    fn thread_end(&mut self, _thread: u32) {}

    /// Ends the analysis.
    fn finish(self) -> Self::Report;
}

/// Runs `analysis` over a trace file in its [`Shape`]; `progress` gets the number of events
/// read since its last call (after every chunk, or every 2^16 events of a merge).
pub fn run<A: Analysis>(
    trace: &Trace,
    mut analysis: A,
    mut progress: impl FnMut(u64),
) -> Result<A::Report> {
    let threads = trace.thread_indices();
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    match (analysis.shape(), &threads[..]) {
        (shape, [only]) => {
            analysis.thread(*only);
            if analysis.needs() == Needs::AccessesOnly && cpus > 1 {
                let take = |a: &mut A, accesses: Vec<(u32, u64, u64)>| {
                    for (mi, addr, len) in accesses {
                        a.access(mi, addr, len);
                    }
                };
                digested_ahead(trace, &mut analysis, &AccessesOnly, cpus, take, progress)?;
            } else {
                trace.visit_merged(&mut analysis, progress)?;
            }
            if shape == Shape::PerThread {
                analysis.thread_end(*only);
            }
        }
        (Shape::PerThread, _) => {
            let mut reader = trace.chunk_reader()?;
            for &t in &threads {
                analysis.thread(t);
                for c in trace.event_chunks().iter().filter(|c| c.thread == t) {
                    progress(reader.visit_chunk(c, &mut analysis)?);
                }
                analysis.thread_end(t);
            }
        }
        (Shape::Merged, _) => {
            trace
                .merged()?
                .visit_all(&mut analysis, |a, t| a.thread(t), progress)?
        }
    }
    Ok(analysis.finish())
}

/// Digests a one-thread file's chunks with `digester` on workers (`cpus` - 1 of them, at least
/// two) while `take` hands the pieces to `analysis` in file order; `progress` gets each
/// chunk's event count.
fn digested_ahead<A, D: ChunkDigester>(
    trace: &Trace,
    analysis: &mut A,
    digester: &D,
    cpus: usize,
    mut take: impl FnMut(&mut A, D::Piece),
    mut progress: impl FnMut(u64),
) -> Result<()> {
    let workers = (cpus - 1).clamp(2, 8);
    trace.decode_chunks_in_order(
        trace.event_chunks(),
        workers,
        workers + 2,
        |reader, c| digester.digest(reader, c),
        |(piece, events)| {
            take(analysis, piece);
            progress(events);
            Ok(())
        },
    )
}

/// The digester of a [`Needs::AccessesOnly`] analysis: a chunk's accesses.
struct AccessesOnly;

impl ChunkDigester for AccessesOnly {
    type Piece = Vec<(u32, u64, u64)>;

    fn digest(
        &self,
        reader: &mut ChunkReader<'_>,
        chunk: &EventChunkRef,
    ) -> Result<(Self::Piece, u64)> {
        let mut accesses = ChunkAccesses {
            accesses: Vec::with_capacity(chunk.events as usize),
            events: 0,
        };
        reader.visit_chunk(chunk, &mut accesses)?;
        Ok((accesses.accesses, accesses.events))
    }
}

/// One chunk's accesses, decoded on a worker, and the number of its events of every kind.
struct ChunkAccesses {
    accesses: Vec<(u32, u64, u64)>,
    events: u64,
}

impl EventVisitor for ChunkAccesses {
    fn block(&mut self, _bb: u32) {
        self.events += 1;
    }
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.accesses.push((mi, addr, len));
        self.events += 1;
    }
    fn branch(&mut self, _br: u32, _outcome: u32) {
        self.events += 1;
    }
    fn other(&mut self, _event: Event) {
        self.events += 1;
    }
}

/// Turns one events chunk into what a [`Digest`] analysis takes, on a worker thread.
pub trait ChunkDigester: Sync {
    /// What a chunk becomes.
    type Piece: Send;

    /// Digests `chunk`, read with `reader`: the piece and the number of events decoded.
    fn digest(
        &self,
        reader: &mut ChunkReader<'_>,
        chunk: &EventChunkRef,
    ) -> Result<(Self::Piece, u64)>;
}

/// An analysis that can take a one-thread file's chunks digested on other cores (see
/// [`run_digested`]): only what it keeps of each chunk crosses to its thread, in order.
pub trait Digest: Analysis {
    /// Digests the chunks (holds settings only: it runs beside the analysis).
    type Digester: ChunkDigester;

    /// The digester, or `None` where digesting ahead would not pay (say, the analysis uses
    /// the other cores itself): then the events are visited as [`run`] visits them.
    fn digester(&self) -> Option<Self::Digester>;

    /// Takes the next chunk's piece, in file order: what visiting its events would have done.
    fn piece(&mut self, piece: <Self::Digester as ChunkDigester>::Piece);
}

/// [`run`] for a [`Digest`] analysis: a one-thread file, on a machine of more than one CPU, is
/// digested on workers (chunks in order, as [`Trace::decode_chunks_in_order`] hands them) while
/// the analysis takes the pieces; anything else is [`run`].
pub fn run_digested<A: Digest>(
    trace: &Trace,
    mut analysis: A,
    progress: impl FnMut(u64),
) -> Result<A::Report> {
    let threads = trace.thread_indices();
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    let digester = analysis.digester();
    let ([only], Some(digester), true) = (&threads[..], digester, cpus > 1) else {
        return run(trace, analysis, progress);
    };
    analysis.thread(*only);
    digested_ahead(trace, &mut analysis, &digester, cpus, A::piece, progress)?;
    if analysis.shape() == Shape::PerThread {
        analysis.thread_end(*only);
    }
    Ok(analysis.finish())
}

/// Feeds `analysis` a stream of `(thread, event)` in stamp order ([`Trace::merged`], or a live
/// stream's merge), calling [`Analysis::thread`] where the thread changes; `progress` gets the
/// number of events fed since its last call, every 2^16 events and at the end. The caller
/// calls [`Analysis::finish`].
pub fn run_merged<A: Analysis>(
    events: impl IntoIterator<Item = Result<(u32, Event)>>,
    analysis: &mut A,
    mut progress: impl FnMut(u64),
) -> Result<()> {
    let mut last = None;
    let mut n = 0u64;
    for item in events {
        let (t, event) = item?;
        if last != Some(t) {
            analysis.thread(t);
            last = Some(t);
        }
        event.visit(analysis);
        n += 1;
        if n == 1 << 16 {
            progress(n);
            n = 0;
        }
    }
    progress(n);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{one_block_module, write_trace};

    /// Records what it is shown: `(thread, what)` with the blocks' ids.
    struct Log {
        shape: Shape,
        thread: Option<u32>,
        seen: Vec<(u32, String)>,
    }

    impl EventVisitor for Log {
        fn block(&mut self, bb: u32) {
            self.seen.push((self.thread.unwrap(), format!("b{bb}")));
        }
        fn access(&mut self, mi: u32, _addr: u64, _len: u64) {
            self.seen.push((self.thread.unwrap(), format!("a{mi}")));
        }
        fn other(&mut self, event: Event) {
            if let Event::Stamp { time } = event {
                self.seen.push((self.thread.unwrap(), format!("s{time}")));
            }
        }
    }

    impl Analysis for Log {
        type Report = Vec<(u32, String)>;
        fn shape(&self) -> Shape {
            self.shape
        }
        fn thread(&mut self, thread: u32) {
            self.thread = Some(thread);
            self.seen.push((thread, "thread".into()));
        }
        fn thread_end(&mut self, thread: u32) {
            self.seen.push((thread, "end".into()));
        }
        fn finish(self) -> Self::Report {
            self.seen
        }
    }

    fn log(shape: Shape) -> Log {
        Log {
            shape,
            thread: None,
            seen: Vec::new(),
        }
    }

    fn strings(v: &[(u32, String)]) -> Vec<String> {
        v.iter().map(|(t, s)| format!("{t}:{s}")).collect()
    }

    /// Thread 0 stamps at 10 and 30, thread 1 at 20: merged, the segments alternate; per
    /// thread, each thread's events come whole, thread 0 first.
    #[test]
    fn each_shape_sees_its_order_and_whose_events_follow() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("two.rdtrace");
        let access = |mi| Event::Access {
            mi,
            addr: 64 * mi as u64,
            len: 8,
        };
        let t0 = vec![
            Event::Stamp { time: 10 },
            access(0),
            Event::Stamp { time: 30 },
            access(0),
        ];
        let t1 = vec![Event::Stamp { time: 20 }, access(1)];
        write_trace(&path, &one_block_module("two", 2), &[t0, t1]).unwrap();
        let trace = Trace::open(&path).unwrap();

        let mut read = 0;
        let merged = run(&trace, log(Shape::Merged), |n| read += n).unwrap();
        assert_eq!(
            strings(&merged),
            [
                "0:thread", "0:s10", "0:a0", "1:thread", "1:s20", "1:a1", "0:thread", "0:s30",
                "0:a0"
            ]
        );
        assert_eq!(read, 6);

        let per_thread = run(&trace, log(Shape::PerThread), |_| {}).unwrap();
        assert_eq!(
            strings(&per_thread),
            [
                "0:thread", "0:s10", "0:a0", "0:s30", "0:a0", "0:end", "1:thread", "1:s20", "1:a1",
                "1:end"
            ]
        );
    }

    /// A one-thread file goes straight through its chunks in either shape, told its thread once
    /// (and, per thread, its end).
    #[test]
    fn one_thread_is_announced_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("one.rdtrace");
        let events = vec![
            Event::Block { bb: 0 },
            Event::Stamp { time: 5 },
            Event::Block { bb: 0 },
        ];
        write_trace(&path, &one_block_module("one", 1), &[events]).unwrap();
        let trace = Trace::open(&path).unwrap();
        let seen = run(&trace, log(Shape::Merged), |_| {}).unwrap();
        assert_eq!(strings(&seen), ["0:thread", "0:b0", "0:s5", "0:b0"]);
        let seen = run(&trace, log(Shape::PerThread), |_| {}).unwrap();
        assert_eq!(
            strings(&seen),
            ["0:thread", "0:b0", "0:s5", "0:b0", "0:end"]
        );
    }

    /// Keeps each chunk's accesses' instructions (on a worker).
    struct Instructions;

    impl ChunkDigester for Instructions {
        type Piece = Vec<u32>;
        fn digest(
            &self,
            reader: &mut ChunkReader<'_>,
            chunk: &EventChunkRef,
        ) -> Result<(Vec<u32>, u64)> {
            let mut events = Vec::new();
            let n = reader.visit_chunk(chunk, &mut events)?;
            let mis = events
                .iter()
                .filter_map(|e| match e {
                    Event::Access { mi, .. } => Some(*mi),
                    _ => None,
                })
                .collect();
            Ok((mis, n))
        }
    }

    impl Digest for Log {
        type Digester = Instructions;
        fn digester(&self) -> Option<Instructions> {
            Some(Instructions)
        }
        fn piece(&mut self, mis: Vec<u32>) {
            for mi in mis {
                self.access(mi, 0, 1);
            }
        }
    }

    /// A one-thread file of several chunks reaches the analysis digested, chunk by chunk in
    /// file order, as visiting it would (the digest keeps what the visit would record); a
    /// file of two threads is visited.
    #[test]
    fn digested_chunks_arrive_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let access = |mi: u32| Event::Access {
            mi,
            addr: 64 * mi as u64,
            len: 8,
        };
        let chunks: Vec<Vec<Event>> = (0..6u32)
            .map(|c| (0..3).map(|i| access((3 * c + i) % 5)).collect())
            .collect();
        let path = dir.path().join("one.rdtrace");
        crate::testing::write_trace_chunks(
            &path,
            &one_block_module("one", 5),
            &[(0, chunks.clone())],
        )
        .unwrap();
        let trace = Trace::open(&path).unwrap();
        let mut read = 0;
        let digested = run_digested(&trace, log(Shape::PerThread), |n| read += n).unwrap();
        let visited = run(&trace, log(Shape::PerThread), |_| {}).unwrap();
        assert_eq!(digested, visited);
        assert_eq!(read, 18);
        assert_eq!(digested.len(), 18 + 2);
        assert_eq!(
            strings(&digested)[..4],
            ["0:thread", "0:a0", "0:a1", "0:a2"]
        );

        let path = dir.path().join("two.rdtrace");
        crate::testing::write_trace_chunks(
            &path,
            &one_block_module("two", 5),
            &[(0, chunks.clone()), (1, chunks)],
        )
        .unwrap();
        let trace = Trace::open(&path).unwrap();
        let digested = run_digested(&trace, log(Shape::PerThread), |_| {}).unwrap();
        assert_eq!(
            digested,
            run(&trace, log(Shape::PerThread), |_| {}).unwrap()
        );
        assert_eq!(digested.len(), 2 * (18 + 2));
    }
}
