//! Annotating a whole trace: an [`Annotator`] as an [`Analysis`] of the events in stamp order,
//! threads becoming cores in thread-index order (a one-thread trace's chunks are decoded on
//! other cores, [`Needs::AccessesOnly`]).

use rdtrace::{Analysis, EventVisitor, Needs, Shape, Trace};

use crate::config::{AnnotateConfig, AnnotateError};
use crate::stats::Annotation;
use crate::Annotator;

/// Annotates a whole trace: threads become cores in thread-index order, events are taken in the
/// order the stamps reconstruct.
pub fn annotate(trace: &Trace, config: AnnotateConfig) -> Result<Annotation, AnnotateError> {
    annotate_with_progress(trace, config, |_| {})
}

/// [`annotate`], calling `progress` with the number of events read so far, every 65536 events
/// (after every chunk for a one-thread trace, whose chunks are decoded on other cores).
pub fn annotate_with_progress(
    trace: &Trace,
    config: AnnotateConfig,
    mut progress: impl FnMut(u64),
) -> Result<Annotation, AnnotateError> {
    let run = AnnotateRun {
        annotator: Annotator::new(&trace.meta, config)?,
        threads: trace.thread_indices(),
        core: 0,
    };
    let mut n = 0u64;
    Ok(rdtrace::analysis::run(trace, run, |k| {
        n += k;
        progress(n);
    })?)
}

/// An [`Annotator`] reading a trace: each thread's accesses go to its core.
struct AnnotateRun {
    annotator: Annotator,
    /// The trace's threads, ascending: thread `threads[c]` is core `c`.
    threads: Vec<u32>,
    /// The core of the thread whose events come now.
    core: usize,
}

impl EventVisitor for AnnotateRun {
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.annotator.access(self.core, mi, addr, len);
    }
}

impl Analysis for AnnotateRun {
    type Report = Annotation;

    fn shape(&self) -> Shape {
        Shape::Merged
    }

    fn needs(&self) -> Needs {
        Needs::AccessesOnly
    }

    fn thread(&mut self, thread: u32) {
        self.core = self.threads.binary_search(&thread).unwrap_or(0);
    }

    fn finish(self) -> Annotation {
        self.annotator.finish(&self.threads)
    }
}
