//! Annotating a whole trace: the events in stamp order fed to an [`Annotator`], with a
//! one-thread trace's chunks decoded on other cores.

use rdtrace::{Event, Trace};

use crate::config::{AnnotateConfig, AnnotateError};
use crate::stats::Annotation;
use crate::Annotator;

/// Annotates a whole trace: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct.
pub fn annotate(trace: &Trace, config: AnnotateConfig) -> Result<Annotation, AnnotateError> {
    annotate_with_progress(trace, config, |_| {})
}

/// [`annotate`], calling `progress` with the number of events read every 65536 events (after
/// every chunk for a one-thread trace, whose chunks are decoded on other cores).
pub fn annotate_with_progress(
    trace: &Trace,
    config: AnnotateConfig,
    mut progress: impl FnMut(u64),
) -> Result<Annotation, AnnotateError> {
    let threads = trace.thread_indices();
    let mut a = Annotator::new(&trace.meta, config)?;
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    if threads.len() == 1 && cpus > 1 {
        // One thread: its chunks in sequence are the merged order, so they can be decoded on
        // other cores while this one annotates (decoding was a fifth of annotate's time).
        let mut n = 0u64;
        let workers = (cpus - 1).clamp(2, 8);
        trace.decode_chunks_in_order(
            trace.event_chunks(),
            workers,
            workers + 2,
            |reader, c| {
                let mut chunk = ChunkAccesses {
                    accesses: Vec::with_capacity(c.events as usize),
                    events: 0,
                };
                reader.visit_chunk(c, &mut chunk)?;
                Ok(chunk)
            },
            |chunk| {
                for &(mi, addr, len) in &chunk.accesses {
                    a.access(0, mi, addr, len);
                }
                n += chunk.events;
                progress(n);
                Ok(())
            },
        )?;
        return Ok(a.finish(&threads));
    }
    let mut n = 0u64;
    for r in trace.merged()? {
        let (t, e) = r?;
        if let Event::Access { mi, addr, len } = e {
            let core = threads.binary_search(&t).unwrap_or(0);
            a.access(core, mi, addr, len);
        }
        n += 1;
        if n.is_multiple_of(65536) {
            progress(n);
        }
    }
    progress(n);
    Ok(a.finish(&threads))
}

/// One chunk's accesses, decoded on a worker for [`annotate_with_progress`], and the number of
/// its events of every kind (for progress).
struct ChunkAccesses {
    accesses: Vec<(u32, u64, u64)>,
    events: u64,
}

impl rdtrace::EventVisitor for ChunkAccesses {
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
