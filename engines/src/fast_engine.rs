//! [`FastEngine`], the default exact engine: the references of a stream through a
//! [`FrontedStack`] (unbounded) or a [`FastCore`] capped at the bound (PARDA Alg. 7).

use crate::accum::{Deferred, DenseHist};
use crate::blockmap::BlockSet;
use crate::fast::FastCore;
use crate::front::{FrontedStack, FRONT};
use crate::{Histogram, ReuseEngine};

/// The default exact engine: a [`FastCore`] driven one reference at a time.
pub struct FastEngine {
    /// The stack of a bounded engine (which evicts, so needs the slot → block index).
    core: FastCore,
    /// The stack of an unbounded engine: most distances of regular code are a few blocks,
    /// which its front array answers without the core's structure.
    fronted: FrontedStack,
    hist: DenseHist,
    bound: Option<u64>,
    /// Blocks ever seen (bounded mode only), to tell cold misses from capacity misses.
    seen: Option<BlockSet>,
    /// The block of the previous reference, if any: a reference to it again has distance 0
    /// and leaves the stack as it is, so it costs no stack update (runs of accesses to one
    /// cache line are common: a loop over doubles touches each line 8 times in a row).
    last: Option<u64>,
}

impl FastEngine {
    /// An unbounded exact engine.
    pub fn new() -> Self {
        Self::with_bound(None)
    }

    /// An exact engine; with `Some(b)`, distances ≥ `b` are counted as overflow and the stack
    /// holds at most `b` blocks.
    pub fn with_bound(bound: Option<u64>) -> Self {
        FastEngine {
            // Only the bounded form evicts, so only it needs the slot → block index.
            core: FastCore::with_capacity(if bound.is_some() { 1 << 12 } else { 0 }),
            fronted: FrontedStack::untracked(if bound.is_some() { 0 } else { 1 << 12 }),
            hist: DenseHist::default(),
            bound,
            seen: bound.map(|_| BlockSet::default()),
            last: None,
        }
    }

    /// Heap bytes currently held (for reports).
    pub fn heap_bytes(&self) -> usize {
        self.core.heap_bytes() + self.fronted.heap_bytes() + self.hist.heap_bytes()
    }

    /// The per-reference loop; inlined into each feature level of [`crate::cpu::dispatch`].
    #[inline(always)]
    fn process_body(&mut self, blocks: &[u64]) {
        match self.bound {
            None => {
                // Software pipeline: the trace is known ahead, so start the cache misses of
                // later references (block-map entry at +AHEAD, bitmap word at +AHEAD/2) while this
                // one is processed, and defer each histogram increment a few references after
                // prefetching its counter. Prefetches are only hints: every value used is read
                // at its own turn, so results are unaffected.
                const AHEAD: usize = 32;
                let mut deferred = Deferred::default();
                let mut last = self.last;
                let mut repeats = 0u64;
                let mut near = [0u64; FRONT];
                for (i, &b) in blocks.iter().enumerate() {
                    if last == Some(b) {
                        repeats += 1;
                        continue;
                    }
                    last = Some(b);
                    if let Some(&k) = blocks.get(i + AHEAD) {
                        self.fronted.prefetch(k);
                    }
                    if let Some(&k) = blocks.get(i + AHEAD / 2) {
                        self.fronted.prefetch_slot(k);
                    }
                    match self.fronted.access(b) {
                        // Distances the front answers hit a few hot counters: count them here.
                        Some(d) if d < FRONT as u64 => near[d as usize] += 1,
                        Some(d) => deferred.push(&mut self.hist, d),
                        None => self.hist.cold += 1,
                    }
                }
                deferred.flush(&mut self.hist);
                for (d, &n) in near.iter().enumerate() {
                    if n > 0 {
                        self.hist.add_n(d as u64, n);
                    }
                }
                if repeats > 0 {
                    self.hist.add_n(0, repeats);
                }
                self.last = last;
            }
            Some(bound) => {
                let seen = self.seen.as_mut().expect("bounded engines keep a seen set");
                for &b in blocks {
                    // Distance 0 is below every bound of at least 1 (a bound of 0 keeps no
                    // block, so there every reference misses).
                    if bound > 0 && self.last == Some(b) {
                        self.hist.add(0);
                        continue;
                    }
                    self.last = Some(b);
                    match self.core.access(b) {
                        // The stack holds the `bound` most recent blocks, so hits are < bound.
                        Some(d) => self.hist.add(d),
                        None => {
                            if seen.insert(b) {
                                self.hist.cold += 1;
                            } else {
                                self.hist.overflow += 1;
                            }
                            // See: PARDA Alg. 7 — keep at most B entries, evicting the oldest.
                            if self.core.len() as u64 > bound {
                                self.core.pop_oldest();
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Default for FastEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl ReuseEngine for FastEngine {
    fn name(&self) -> &'static str {
        "fast"
    }

    fn is_exact(&self) -> bool {
        true
    }

    fn process(&mut self, blocks: &[u64]) {
        crate::cpu::dispatch!((this: &mut FastEngine = self, blocks: &[u64] = blocks) -> () {
            this.process_body(blocks)
        })
    }

    fn finish(self: Box<Self>) -> Histogram {
        self.hist.into_histogram(self.bound, true)
    }
}
