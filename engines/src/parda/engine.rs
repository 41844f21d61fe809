//! The threaded PARDA engine ([`PardaEngine`]): Alg. 5's phases buffered (rank 0 starting while
//! a phase fills, module `filling`) or analysed in place, the ranks of each phase run on scoped
//! threads, Alg. 6's merge of their surviving stacks into rank 0's, and the bounded mode's
//! cold/overflow split of the global misses.

use super::config::PardaConfig;
use super::filling::{self, Filling, RootState};
use super::{push_all, Rank, SAMPLE_SLICE, STREAM_PIECE};
use crate::accum::DenseHist;
use crate::balance;
use crate::blockmap::BlockSet;
use crate::fast::FastCore;
use crate::{Histogram, ReuseEngine};
use std::sync::mpsc::channel;

/// Rank 0's state, moved to its thread for a filling phase (a small empty stack stands in).
fn hand_over(global: &mut FastCore, hists: &mut [DenseHist], misses: &mut [Vec<u64>]) -> RootState {
    RootState {
        core: std::mem::replace(global, FastCore::untracked(1)),
        hist: std::mem::take(&mut hists[0]),
        misses: std::mem::take(&mut misses[0]),
    }
}

/// The PARDA engine; see the [module documentation](super).
pub struct PardaEngine {
    cfg: PardaConfig,
    /// The phase being buffered (Alg. 5's `read(INPUT, S)`), which rank 0 starts on as it
    /// fills (more than one thread).
    filling: Filling,
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
    /// The buffered phase's sample, which sizes the chunks.
    sample: balance::PhaseSample,
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
            filling: Filling::new(
                (cfg.threads.saturating_mul(cfg.chunk) / (8 * np)).clamp(1, STREAM_PIECE),
            ),
            // Only the bounded form evicts, so only it needs the slot → block index; the merge
            // lists survivors in time order without it (and stacks swap roles in the merge, so
            // all ranks are built alike).
            global: Self::new_core(cfg.bound),
            locals: (1..np).map(|_| Self::new_core(cfg.bound)).collect(),
            hists: (0..np).map(|_| DenseHist::default()).collect(),
            misses: (0..np).map(|_| Vec::new()).collect(),
            seen: cfg.bound.map(|_| BlockSet::default()),
            peak_heap: 0,
            sample: balance::PhaseSample::default(),
        }
    }

    fn new_core(bound: Option<u64>) -> FastCore {
        if bound.is_some() {
            FastCore::with_capacity(1 << 12)
        } else {
            FastCore::untracked(1 << 12)
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

    /// Analyses the rest of the buffered phase (rank 0 is on it already) and folds its state
    /// into rank 0, unless it is the `last` phase (no later reference needs the state).
    fn run_filled_phase(&mut self, last: bool) {
        let len = self.filling.len();
        if len == 0 {
            return;
        }
        let np = self.cfg.threads;
        let bound = self.cfg.bound;
        let piece_len = self.filling.piece_len();
        let Self {
            filling,
            global,
            locals,
            hists,
            misses,
            sample,
            ..
        } = self;
        // Sampled while it was buffered. Rank 0 has been at work since the first piece: the
        // split evens out what is left, so that the ranks finish together.
        let head = filling.claimed().saturating_sub(1) * piece_len;
        let sizes = sample.split_with_head_start(len, np, bound, head);
        let want = (sizes[0] + piece_len / 2) / piece_len;
        let filling::Closed {
            rank0_end: end,
            pieces,
            to_root,
        } = filling.close(want, bound, || hand_over(global, hists, misses));
        // Ranks 1..np split what rank 0 left, on the same sample, at piece boundaries.
        let first = (end * piece_len).min(len);
        let rest = sample.split_range(first, len, np - 1, bound);
        let mut bounds = vec![end];
        let mut at = first;
        for s in &rest[..np - 2] {
            at += s;
            let b = ((at + piece_len / 2) / piece_len).clamp(*bounds.last().unwrap(), pieces.len());
            bounds.push(b);
        }
        bounds.push(pieces.len());
        // Channel p carries rank p+1's local infinities to rank p (p ≥ 1); rank 1's goes to
        // rank 0's thread.
        let (txs, rxs): (Vec<_>, Vec<_>) = (1..np - 1).map(|_| channel::<Vec<u64>>()).unzip();
        let mut txs = std::iter::once(to_root).chain(txs);
        let mut rxs = rxs.into_iter();
        std::thread::scope(|s| {
            for (i, ((core, hist), miss)) in locals
                .iter_mut()
                .zip(hists.iter_mut().skip(1))
                .zip(misses.iter_mut().skip(1))
                .enumerate()
            {
                let rank = Rank::new(core, hist, miss, bound, false);
                let tx = txs.next();
                let rx = rxs.next();
                let mine: Vec<&[u64]> = pieces[bounds[i]..bounds[i + 1]]
                    .iter()
                    .map(|p| p.as_slice())
                    .collect();
                s.spawn(move || rank.run(&mine, rx, tx));
            }
        });
        let root = filling.finish();
        *global = root.core;
        hists[0] = root.hist;
        misses[0] = root.misses;
        sample.clear();
        let heap = self.heap_bytes();
        self.peak_heap = self.peak_heap.max(heap);
        if !last {
            // See: PARDA Alg. 6 — the state the next phase starts from. After the last phase
            // only the histograms are left to read: merging a million survivors there was
            // 3 % of a 2·10^7-reference run, all of it on one thread.
            self.reduce_state();
        }
        self.classify_misses();
    }

    /// Analyses the phase `buf`, split into chunks of lengths `sizes` (rank 0 first, balanced
    /// on a sample of the phase's own blocks: [`balance`]), and folds its state into rank 0.
    fn run_phase_on(&mut self, buf: &[u64], sizes: Vec<usize>) {
        let np = self.cfg.threads;
        let len = buf.len();
        if len == 0 {
            return;
        }
        let mut ranges = Vec::with_capacity(np);
        let mut start = 0;
        for &c in &sizes {
            ranges.push(start..start + c);
            start += c;
        }
        let bound = self.cfg.bound;
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
            root.run(&[buf], None, None);
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
                    let range = ranges[i + 1].clone();
                    s.spawn(move || rank.run(&[&buf[range]], rx, tx));
                }
                root.run(&[&buf[ranges[0].clone()]], root_rx, None);
            });
        }
        // The phase being analysed counts as held (it is the internal buffer, taken out for
        // the run, or a whole phase of the caller's slice analysed in place).
        let heap = self.heap_bytes() + len * 8;
        self.peak_heap = self.peak_heap.max(heap);
        self.reduce_state();
        self.classify_misses();
    }

    /// Merges the surviving entries of all ranks into the global stack, oldest first.
    // See: PARDA Alg. 6 (reduce_parda_state) — after Alg. 4 the survivors are disjoint and each
    // rank's are later than those of the ranks to its left, so concatenating them in rank order
    // rebuilds the global stack.
    fn reduce_state(&mut self) {
        let Some((last, earlier)) = self.locals.split_last_mut() else {
            return;
        };
        if let Some(b) = self.cfg.bound {
            // Bounded: append with eviction. Bounded runs may leave a stale copy of z in an
            // earlier rank (lists are cut at B); `access` moves z to the top either way, so
            // the latest copy wins.
            for core in earlier.iter().chain(std::iter::once(&*last)) {
                core.for_each_oldest_first(|z| {
                    self.global.access(z);
                    while self.global.len() as u64 > b {
                        self.global.pop_oldest();
                    }
                });
            }
            return;
        }
        // Blocks that must end up below rank np-1's: rank 0's survivors, then those of ranks
        // 1..np-1.
        let front = self.global.len() + earlier.iter().map(FastCore::len).sum::<usize>();
        if 2 * front < last.len() {
            // (b) Build the global state in rank np-1's stack: renumber its blocks above `front`
            // reserved slots (on a second thread) while listing the older survivors in order.
            let global = &self.global;
            let mut older = Vec::with_capacity(front);
            std::thread::scope(|s| {
                s.spawn(|| last.compact_leaving_front(front));
                global.extend_oldest_first(&mut older);
                for core in earlier.iter() {
                    core.extend_oldest_first(&mut older);
                }
            });
            last.fill_front(&older);
            // The old global stack becomes rank np-1's; it is cleared when that rank starts.
            std::mem::swap(&mut self.global, last);
        } else {
            // (a) Append the survivors of ranks 1..np to rank 0's stack.
            for core in earlier.iter().chain(std::iter::once(&*last)) {
                let blocks = core.blocks_oldest_first();
                push_all(&mut self.global, &blocks);
            }
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
        self.filling.heap_bytes()
            + self.sample.heap_bytes()
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
        let np = self.cfg.threads;
        if np == 1 {
            // One rank is the sequential analysis: nothing to buffer.
            if !blocks.is_empty() {
                self.run_phase_on(blocks, vec![blocks.len()]);
            }
            return;
        }
        let phase = self.phase_len();
        let bound = self.cfg.bound;
        while !blocks.is_empty() {
            if self.filling.len() == 0 && blocks.len() >= phase {
                // A whole phase in the caller's slice: analyse it in place, no copy.
                let (now, rest) = blocks.split_at(phase);
                let sizes = balance::split_by_sampling(now, np, bound);
                self.run_phase_on(now, sizes);
                blocks = rest;
                continue;
            }
            // A slice small enough to stay in cache between the sampling pass and the copy
            // (a caller's batch read twice from memory cost more than the copy itself).
            let take = (phase - self.filling.len())
                .min(blocks.len())
                .min(SAMPLE_SLICE);
            let (now, rest) = blocks.split_at(take);
            self.sample.observe(self.filling.len(), now);
            let Self {
                filling,
                global,
                hists,
                misses,
                ..
            } = self;
            filling.push(now, bound, || hand_over(global, hists, misses));
            blocks = rest;
            if self.filling.len() == phase {
                self.run_filled_phase(false);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Histogram {
        self.run_filled_phase(true);
        let mut total = DenseHist::default();
        for h in &self.hists {
            total.merge(h);
        }
        total.into_histogram(self.cfg.bound, true)
    }
}
