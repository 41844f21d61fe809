//! The reuse-distance side of an annotation: one exact stack over all threads and one per
//! thread, each reference's distance charged to its source line and function. It shares
//! nothing with the cache simulation but the accesses, so where there is a second CPU it runs
//! on a thread of its own, fed batches of accesses ([`on_second_cpu`]); its counts add
//! to the simulation's at the end (distances and cold references here, everything else there).

use crate::{Counts, Target};
use rdcachesim::CacheConfig;
use rdengines::accum::DenseHist;
use rdengines::batched::{BatchSink, Batched};
use rdengines::FrontedStack;

/// Accesses per batch sent to the distance thread.
const BATCH: usize = 1 << 14;

/// Batches in flight to the distance thread (besides the one it works on and the one being
/// filled): 24 bytes an access, under 2 MiB in all.
const IN_FLIGHT: usize = 4;

/// One access: (core, memory instruction, address, length).
pub(crate) type Access = (u32, u32, u64, u64);

/// The stacks and the distances counted so far.
pub(crate) struct Distances {
    /// Cache lines of the L1's size: the line a reference is to.
    l1: CacheConfig,
    targets: Vec<Target>,
    pub(crate) shared_stack: FrontedStack,
    pub(crate) histogram: DenseHist,
    pub(crate) private: Vec<(FrontedStack, DenseHist)>,
    /// While one thread only has accessed, that thread: the shared stack is then its private
    /// stack (the same lines in the same order) and is not computed twice; it starts as a copy
    /// when a second thread accesses.
    pub(crate) solo: Option<usize>,
    /// Whether any access came yet.
    started: bool,
    /// Distances and cold references per (source line, function) pair (other fields zero):
    /// one record an access, which the annotator adds to the pair's line and function at the
    /// end.
    pub(crate) pair_counts: Vec<Counts>,
}

impl Distances {
    /// Empty stacks for the annotator's targets and its (line, function) pairs.
    pub(crate) fn new(l1: CacheConfig, targets: Vec<Target>, pairs: usize) -> Self {
        Distances {
            l1,
            targets,
            shared_stack: FrontedStack::default(),
            histogram: DenseHist::default(),
            private: Vec::new(),
            solo: None,
            started: false,
            pair_counts: vec![Counts::default(); pairs],
        }
    }

    /// One access by `mi` on `core` (see [`crate::Annotator::access`]).
    #[inline]
    fn access(&mut self, core: usize, mi: u32, addr: u64, len: u64) {
        let target = *self
            .targets
            .get(mi as usize)
            .unwrap_or_else(|| self.targets.last().expect("unknown slot"));
        while self.private.len() <= core {
            self.private
                .push((FrontedStack::default(), DenseHist::default()));
        }
        let shared_is_private = match self.solo {
            Some(c) if c == core => true,
            Some(c) => {
                (self.shared_stack, self.histogram) = self.private[c].clone();
                self.solo = None;
                false
            }
            None if !self.started => {
                self.started = true;
                self.solo = Some(core);
                true
            }
            None => false,
        };
        let (stack, hist) = (&mut self.shared_stack, &mut self.histogram);
        let (pstack, phist) = &mut self.private[core];
        let pair_counts = &mut self.pair_counts[target.pair];
        self.l1.for_each_line(addr, len, |line| {
            // See: the reuse distance of a reference is the number of distinct other lines
            // touched since the previous reference to its line (∞ for the first).
            let pd = pstack.access(line);
            match pd {
                Some(pd) => phist.add(pd),
                None => phist.cold += 1,
            }
            let d = if shared_is_private {
                pd
            } else {
                let d = stack.access(line);
                match d {
                    Some(d) => hist.add(d),
                    None => hist.cold += 1,
                }
                d
            };
            pair_counts.distance(d);
        });
    }
}

/// The stacks take the annotator's accesses in batches ([`rdengines::batched`]), on a thread of
/// their own where there is a second CPU.
impl BatchSink for Distances {
    type Item = Access;

    fn take(&mut self, accesses: &[Access]) {
        for &(core, mi, addr, len) in accesses {
            self.access(core as usize, mi, addr, len);
        }
    }
}

/// `distances` fed in batches, on a thread of their own where there is a second CPU.
pub(crate) fn on_second_cpu(distances: Distances) -> Batched<Distances> {
    batched_on_second_cpu(distances, "annotate-distances")
}

/// `sink` fed batches of accesses as the distances are, on a thread named `name` where there
/// is a second CPU.
pub(crate) fn batched_on_second_cpu<S: BatchSink<Item = Access>>(
    sink: S,
    name: &str,
) -> Batched<S> {
    Batched::on_second_cpu(sink, BATCH, IN_FLIGHT, name)
}
