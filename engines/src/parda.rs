//! PARDA (Niu, Dinan, Lu, Sadayappan, IPDPS 2012): exact parallel reuse-distance analysis.
//!
//! The trace is streamed in *phases* of `threads × chunk` references (Alg. 5). In a phase, rank
//! `p` analyses chunk `p` with its own LRU stack; distances found inside a chunk are already
//! global distances (Property 4.1). The first access of each block inside a chunk is a *local
//! infinity*; rank `p` sends its ordered list of local infinities to rank `p − 1` (Alg. 3), which
//! continues its own analysis with them, using the space-optimised processing of Alg. 4: a hit
//! is a global distance `distance(T, H(z)) + count` and is deleted (the block lives on in the
//! right-hand rank); a miss is forwarded. Rank 0 holds the global stack of everything before the
//! phase, so what is still infinite there is a global infinity (a cold miss).
//!
//! At the end of a phase the surviving entries of ranks `1..np` (disjoint, thanks to Alg. 4)
//! are appended in rank order to rank 0's stack (Alg. 6, `reduce_parda_state`); since memory is
//! shared there is nothing to send, and merging into rank 0 rather than renaming rank `np − 1`
//! keeps the merge proportional to the phase's distinct blocks instead of to M.
//!
//! With a bound B (Alg. 7) every stack holds at most B entries (oldest evicted), each rank
//! forwards at most B local infinities (later misses are counted locally: at least B distinct
//! blocks separate them from any earlier access), and distances ≥ B are overflow. Misses that
//! cannot be resolved as hits are split into cold and overflow with a set of blocks ever seen.
//!
//! The per-rank stack is [`FastCore`] rather than an Olken tree: it supports exactly the
//! operations PARDA needs (distance, delete, insert at the top, evict oldest, in-order
//! iteration for the state merge) at a fraction of the cost, and because it hands out slots in
//! time order, appending a later rank's survivors in order is just a sequence of inserts.
//!
//! The histogram equals the sequential exact one for every thread count and chunk size.

use crate::accum::{Deferred, DenseHist};
use crate::fast::FastCore;
use crate::table::BlockSet;
use crate::{Histogram, ReuseEngine};
use std::sync::mpsc::{channel, Receiver, Sender};

/// How many references ahead the hash bucket of a reference is prefetched.
const PREFETCH_AHEAD: usize = 32;

/// PARDA parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PardaConfig {
    /// Number of ranks (threads) `np`; 0 is treated as 1.
    pub threads: usize,
    /// References per chunk `C`; a phase buffers `threads × chunk` references. 0 is treated as 1.
    pub chunk: usize,
    /// Cache bound B of Alg. 7 (distances ≥ B are overflow), or unbounded.
    pub bound: Option<u64>,
}

impl Default for PardaConfig {
    fn default() -> Self {
        PardaConfig {
            threads: default_threads(),
            chunk: 1 << 22,
            bound: None,
        }
    }
}

/// The machine's available parallelism (at least 1).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The per-rank state that survives from one step of Alg. 3 to the next.
struct Rank<'a> {
    core: &'a mut FastCore,
    hist: &'a mut DenseHist,
    /// Global misses (bounded mode), classified as cold/overflow after the phase.
    misses: &'a mut Vec<u64>,
    /// Alg. 4's `count`: received local infinities processed so far in this phase.
    count: u64,
    /// Alg. 7's `l`: local infinities produced (own distinct blocks plus forwarded misses).
    l: u64,
    bound: Option<u64>,
    is_root: bool,
}

impl Rank<'_> {
    /// Analyses this rank's own chunk, returning its local infinities.
    // See: PARDA Alg. 1 (stack_dist) and, bounded, Alg. 7.
    #[inline(always)]
    fn own_chunk(&mut self, chunk: &[u64]) -> Vec<u64> {
        let mut loc_inf = Vec::new();
        match self.bound {
            None => {
                let mut deferred = Deferred::default();
                for (i, &z) in chunk.iter().enumerate() {
                    // Start the cache misses of later references (see `FastEngine`).
                    if let Some(&k) = chunk.get(i + PREFETCH_AHEAD) {
                        self.core.prefetch(k);
                    }
                    if let Some(&k) = chunk.get(i + PREFETCH_AHEAD / 2) {
                        self.core.prefetch_slot(k);
                    }
                    match self.core.access(z) {
                        Some(d) => deferred.push(self.hist, d),
                        // Rather than counting ∞, keep it in a time-ordered queue (Alg. 3).
                        None => loc_inf.push(z),
                    }
                }
                deferred.flush(self.hist);
            }
            Some(b) => {
                for &z in chunk {
                    match self.core.access(z) {
                        // The stack never exceeds B entries, so d < B.
                        Some(d) => self.hist.add(d),
                        None => {
                            if !self.is_root && self.l < b {
                                // See: PARDA Alg. 7 — only the first B local infinities travel.
                                self.l += 1;
                                loc_inf.push(z);
                            } else {
                                // ≥ B distinct blocks since any earlier access (or none):
                                // a global miss, resolved here.
                                self.misses.push(z);
                                if self.core.len() as u64 > b {
                                    self.core.pop_oldest();
                                }
                            }
                        }
                    }
                }
            }
        }
        loc_inf
    }

    /// Processes the local infinities received from the right neighbour.
    // See: PARDA Alg. 4 — space-optimised local infinity processing.
    #[inline(always)]
    fn received(&mut self, list: &[u64]) -> Vec<u64> {
        let mut loc_inf = Vec::new();
        for (i, &z) in list.iter().enumerate() {
            if let Some(&k) = list.get(i + PREFETCH_AHEAD) {
                self.core.prefetch(k);
            }
            match self.core.remove(z) {
                Some(d0) => {
                    // Blocks received earlier in this phase lie between z's access here and its
                    // next access; they are not in our stack (they were deleted or never here),
                    // so add them back as `count`.
                    let d = d0 + self.count;
                    match self.bound {
                        Some(b) if d >= b => self.hist.overflow += 1,
                        _ => self.hist.add(d),
                    }
                }
                None => match self.bound {
                    None => loc_inf.push(z),
                    Some(b) => {
                        if !self.is_root && self.l < b {
                            self.l += 1;
                            loc_inf.push(z);
                        } else {
                            self.misses.push(z);
                        }
                    }
                },
            }
            self.count += 1;
        }
        loc_inf
    }

    /// Local infinities that reached rank 0 are global infinities.
    fn global_infinities(&mut self, list: Vec<u64>) {
        match self.bound {
            None => self.hist.cold += list.len() as u64,
            Some(_) => self.misses.extend(list),
        }
    }

    /// Rank `p` of `np` in one phase of Alg. 3 (dispatching to a POPCNT-enabled copy).
    fn run(
        self,
        p: usize,
        np: usize,
        chunk: &[u64],
        rx: Option<Receiver<Vec<u64>>>,
        tx: Option<Sender<Vec<u64>>>,
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has_popcnt() {
            // SAFETY: the CPU supports POPCNT, checked just above.
            unsafe { self.run_popcnt(p, np, chunk, rx, tx) };
            return;
        }
        self.run_body(p, np, chunk, rx, tx)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    /// # Safety
    /// The CPU must support POPCNT.
    unsafe fn run_popcnt(
        self,
        p: usize,
        np: usize,
        chunk: &[u64],
        rx: Option<Receiver<Vec<u64>>>,
        tx: Option<Sender<Vec<u64>>>,
    ) {
        self.run_body(p, np, chunk, rx, tx)
    }

    // See: PARDA Alg. 3 — np − p rounds: analyse, send left (or count at rank 0), receive right.
    #[inline(always)]
    fn run_body(
        mut self,
        p: usize,
        np: usize,
        chunk: &[u64],
        rx: Option<Receiver<Vec<u64>>>,
        tx: Option<Sender<Vec<u64>>>,
    ) {
        for i in 0..np - p {
            let loc_inf = if i == 0 {
                self.own_chunk(chunk)
            } else {
                let list = rx
                    .as_ref()
                    .expect("rank < np-1 has a right neighbour")
                    .recv();
                self.received(&list.expect("right neighbour sends np-p-1 lists"))
            };
            match &tx {
                Some(tx) => tx.send(loc_inf).expect("left neighbour outlives the phase"),
                None => self.global_infinities(loc_inf),
            }
        }
    }
}

/// The PARDA engine; see the module documentation.
pub struct PardaEngine {
    cfg: PardaConfig,
    /// References of the phase being buffered (Alg. 5's `read(INPUT, S)`).
    buf: Vec<u64>,
    /// Rank 0's stack: the global state up to the current phase.
    global: FastCore,
    /// Stacks of ranks `1..np`, cleared and reused every phase.
    locals: Vec<FastCore>,
    /// Per-rank histograms, reduced at the end (Alg. 3's `reduce_sum`).
    hists: Vec<DenseHist>,
    /// Per-rank global misses (bounded mode).
    misses: Vec<Vec<u64>>,
    /// Blocks ever seen (bounded mode).
    seen: Option<BlockSet>,
    peak_heap: usize,
}

impl PardaEngine {
    /// A PARDA engine with the given configuration.
    pub fn new(cfg: PardaConfig) -> Self {
        let np = cfg.threads.max(1);
        let cfg = PardaConfig {
            threads: np,
            chunk: cfg.chunk.max(1),
            bound: cfg.bound,
        };
        PardaEngine {
            cfg,
            buf: Vec::new(),
            // Rank 0 only needs the slot → block index to evict (bounded mode); ranks 1.. need
            // it to hand their survivors over in time order.
            global: if cfg.bound.is_some() {
                FastCore::with_capacity(1 << 12)
            } else {
                FastCore::untracked(1 << 12)
            },
            locals: (1..np).map(|_| FastCore::with_capacity(1 << 12)).collect(),
            hists: (0..np).map(|_| DenseHist::default()).collect(),
            misses: (0..np).map(|_| Vec::new()).collect(),
            seen: cfg.bound.map(|_| BlockSet::default()),
            peak_heap: 0,
        }
    }

    /// The configuration in use (threads and chunk clamped to ≥ 1).
    pub fn config(&self) -> PardaConfig {
        self.cfg
    }

    /// Largest heap footprint of the engine's structures seen at a phase end (bytes).
    pub fn peak_heap_bytes(&self) -> usize {
        self.peak_heap
    }

    fn phase_len(&self) -> usize {
        self.cfg.threads.saturating_mul(self.cfg.chunk)
    }

    /// Analyses the buffered phase and folds its state into rank 0.
    fn run_phase(&mut self) {
        let np = self.cfg.threads;
        let len = self.buf.len();
        if len == 0 {
            return;
        }
        // A full phase uses chunks of C; a final partial phase is split evenly (C = N / np) so
        // that every rank still gets work. Trailing chunks may be empty.
        let c = if len == self.phase_len() {
            self.cfg.chunk
        } else {
            len.div_ceil(np)
        };
        let chunk_of = |p: usize| {
            let s = (p * c).min(len);
            s..((p + 1) * c).min(len)
        };
        for core in &mut self.locals {
            core.clear();
        }
        let bound = self.cfg.bound;
        let buf = &self.buf;
        let mut hists = self.hists.iter_mut();
        let mut misses = self.misses.iter_mut();
        let root = Rank {
            core: &mut self.global,
            hist: hists.next().expect("np ≥ 1"),
            misses: misses.next().expect("np ≥ 1"),
            count: 0,
            l: 0,
            bound,
            is_root: true,
        };
        if np == 1 {
            root.run(0, 1, buf, None, None);
        } else {
            // Channel p carries rank p+1's local infinities to rank p.
            let (txs, rxs): (Vec<_>, Vec<_>) = (0..np - 1).map(|_| channel::<Vec<u64>>()).unzip();
            let mut rxs = rxs.into_iter();
            let mut txs = txs.into_iter();
            std::thread::scope(|s| {
                let root_rx = rxs.next();
                for (i, ((core, hist), miss)) in
                    self.locals.iter_mut().zip(hists).zip(misses).enumerate()
                {
                    let p = i + 1;
                    let rank = Rank {
                        core,
                        hist,
                        misses: miss,
                        count: 0,
                        l: 0,
                        bound,
                        is_root: false,
                    };
                    let rx = rxs.next();
                    let tx = txs.next();
                    let range = chunk_of(p);
                    s.spawn(move || rank.run(p, np, &buf[range], rx, tx));
                }
                root.run(0, np, &buf[chunk_of(0)], root_rx, None);
            });
        }
        let heap = self.heap_bytes();
        self.peak_heap = self.peak_heap.max(heap);
        self.reduce_state();
        self.classify_misses();
        self.buf.clear();
    }

    /// Merges the surviving entries of ranks `1..np` into rank 0, oldest first.
    // See: PARDA Alg. 6 (reduce_parda_state) — after Alg. 4 the survivors are disjoint and all
    // later than rank 0's entries, so appending them in rank order rebuilds the global stack.
    fn reduce_state(&mut self) {
        let bound = self.cfg.bound;
        for core in &self.locals {
            core.for_each_oldest_first(|z| {
                // Bounded runs may leave a stale copy of z in an earlier rank (lists are cut at
                // B); `access` moves z to the top either way, so the latest copy wins.
                self.global.access(z);
                if let Some(b) = bound {
                    while self.global.len() as u64 > b {
                        self.global.pop_oldest();
                    }
                }
            });
        }
    }

    /// Bounded mode: a global miss is cold iff its block was never seen before. Every first
    /// access is a miss, so inserting all misses into the seen set classifies them exactly
    /// regardless of their order within the phase.
    fn classify_misses(&mut self) {
        let Some(seen) = self.seen.as_mut() else {
            return;
        };
        let hist = &mut self.hists[0];
        for list in &mut self.misses {
            for &z in list.iter() {
                if seen.insert(z) {
                    hist.cold += 1;
                } else {
                    hist.overflow += 1;
                }
            }
            list.clear();
        }
    }

    fn heap_bytes(&self) -> usize {
        self.buf.capacity() * 8
            + self.global.heap_bytes()
            + self.locals.iter().map(|c| c.heap_bytes()).sum::<usize>()
            + self.hists.iter().map(|h| h.heap_bytes()).sum::<usize>()
    }
}

impl ReuseEngine for PardaEngine {
    fn name(&self) -> &'static str {
        "parda"
    }

    fn is_exact(&self) -> bool {
        true
    }

    // See: PARDA Alg. 5 — buffer a phase of np·C references, run it, carry rank 0's state on.
    fn process(&mut self, mut blocks: &[u64]) {
        let phase = self.phase_len();
        while !blocks.is_empty() {
            let take = (phase - self.buf.len()).min(blocks.len());
            self.buf.extend_from_slice(&blocks[..take]);
            blocks = &blocks[take..];
            if self.buf.len() == phase {
                self.run_phase();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Histogram {
        self.run_phase();
        let mut total = DenseHist::default();
        for h in &self.hists {
            total.merge(h);
        }
        total.into_histogram(self.cfg.bound, true)
    }
}
