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
//! At the end of a phase the surviving entries of all ranks (disjoint, thanks to Alg. 4) are
//! concatenated in rank order into the new global stack (Alg. 6, `reduce_parda_state`). Since
//! memory is shared there is nothing to send: the merge picks the cheaper of two equivalent
//! ways, (a) appending the survivors of ranks `1..np` to rank 0's stack one insert at a time,
//! or (b) the paper's direction, building the global state in rank `np − 1`'s stack: one
//! sequential renumbering pass leaves room below its blocks ([`FastCore::prepend`]) for the
//! survivors of ranks `0..np − 1`, and the stacks then swap roles. When a phase touches most of
//! the working set, (b) costs a few per cent of (a).
//!
//! With a bound B (Alg. 7) every stack holds at most B entries (oldest evicted), each rank
//! forwards at most B local infinities (later misses are counted locally: at least B distinct
//! blocks separate them from any earlier access), and distances ≥ B are overflow. Misses that
//! cannot be resolved as hits are split into cold and overflow with a set of blocks ever seen.
//!
//! **Deviations from the paper, for speed (results are unaffected):**
//!
//! * *Streamed lists.* Alg. 3 sends a rank's local infinities as one list per round. Here a rank
//!   sends them in pieces every [`STREAM_PIECE`] references of its chunk, and the left
//!   neighbour processes each piece as soon as it has finished its own chunk. Alg. 4 processes
//!   the received references one by one in order with a running `count`, so this computes the
//!   same thing, but the left neighbour no longer waits for the whole right chunk.
//! * *Uneven chunks.* Rank 0 (and, less so, every rank with ranks to its right) also processes
//!   received infinities, so equal chunks leave the right-hand ranks idle while rank 0 works
//!   through its list. Within a phase of `threads × chunk` references the chunks are sized so
//!   that every rank's estimated work (own references plus received infinities) is equal,
//!   the infinities being counted on a sample of the phase's blocks ([`crate::balance`]).
//!   PARDA is exact for any split of a phase into consecutive chunks.
//! * *Rank 0 starts while the phase fills.* A phase fed in batches is buffered in pieces, and
//!   rank 0 analyses each piece as it arrives (its chunk comes first); its chunk ends at the
//!   balanced split or at the pieces it has already taken, whichever is later (module `filling`).
//!   The balanced split counts what rank 0 has already analysed as done, so that the ranks
//!   *finish* together ([`balance::PhaseSample::split_with_head_start`]).
//! * *No merge after the last phase.* Alg. 6 builds the state the next phase starts from;
//!   after the last one only the histograms are read.
//!   Only a phase handed over whole in one slice is analysed in place, all ranks at once.
//!
//! The per-rank stack is [`FastCore`] rather than an Olken tree: it supports exactly the
//! operations PARDA needs (distance, delete, insert at the top, evict oldest, in-order
//! iteration and prepending for the state merge) at a fraction of the cost, and because it
//! hands out slots in time order, appending a later rank's survivors in order is just a
//! sequence of inserts.
//!
//! The histogram equals the sequential exact one for every thread count and chunk size.

mod filling;
mod text_input;
pub use text_input::parse_parda_line;

use crate::accum::{Deferred, DenseHist};
use crate::balance;
use crate::blockmap::BlockSet;
use crate::fast::FastCore;
use crate::{Histogram, ReuseEngine};
use filling::{claim_piece, Filling, PieceStream, RootState};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{channel, Receiver, Sender};

/// How many references ahead the block-map entry of a reference is prefetched (its bitmap
/// word is prefetched half as far ahead).
const PREFETCH_AHEAD: usize = 32;
/// References a filling phase samples and copies at a time (256 KiB: both passes in cache).
const SAMPLE_SLICE: usize = 1 << 15;
/// References of a rank's own chunk between two sends of its local infinities.
pub const STREAM_PIECE: usize = 1 << 16;

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
        let threads = default_threads();
        PardaConfig {
            threads,
            chunk: default_chunk(threads),
            bound: None,
        }
    }
}

/// Default chunk size for `threads` ranks: 2^24 references per phase (a 128 MiB phase buffer),
/// split among the ranks, with chunks between 2^21 and 2^23 references.
///
/// Larger chunks mean relatively fewer local infinities (a chunk's distinct blocks grow less
/// than linearly with its length), i.e. less sequential work at rank 0: on the benchmark
/// workload (M = 10^6) a 2^22-reference chunk sends about 17 % of its references to rank 0, a
/// 2^23 one about 11 %. The phase buffer is `threads × chunk` references, hence the cap.
pub fn default_chunk(threads: usize) -> usize {
    ((1usize << 24) / threads.max(1)).clamp(1 << 21, 1 << 23)
}

/// The machine's available parallelism (at least 1).
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The per-rank state that survives from one step of Alg. 3 to the next: one rank's view of
/// a phase. The threaded engine builds one per thread; `rdmpi` builds one per MPI rank.
pub struct Rank<'a> {
    /// The rank's LRU stack (rank 0: the global state before the phase).
    pub core: &'a mut FastCore,
    /// The rank's histogram, reduced over ranks at the end (Alg. 3's `reduce_sum`).
    pub hist: &'a mut DenseHist,
    /// Global misses (bounded mode), classified as cold/overflow after the phase.
    pub misses: &'a mut Vec<u64>,
    /// Alg. 4's `count`: received local infinities processed so far in this phase.
    pub count: u64,
    /// Alg. 7's `l`: local infinities produced (own distinct blocks plus forwarded misses).
    pub l: u64,
    /// Alg. 7's bound B.
    pub bound: Option<u64>,
    /// Whether this is rank 0 of the phase (it holds the global state; what stays infinite
    /// there is a global infinity).
    pub is_root: bool,
}

impl<'a> Rank<'a> {
    /// A rank at the start of a phase (`count` and `l` zero).
    pub fn new(
        core: &'a mut FastCore,
        hist: &'a mut DenseHist,
        misses: &'a mut Vec<u64>,
        bound: Option<u64>,
        is_root: bool,
    ) -> Self {
        Rank {
            core,
            hist,
            misses,
            count: 0,
            l: 0,
            bound,
            is_root,
        }
    }
}

impl Rank<'_> {
    /// Analyses this rank's own chunk, returning its local infinities.
    // See: PARDA Alg. 1 (stack_dist) and, bounded, Alg. 7.
    #[inline(always)]
    pub fn own_chunk(&mut self, chunk: &[u64]) -> Vec<u64> {
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
    pub fn received(&mut self, list: &[u64]) -> Vec<u64> {
        let mut loc_inf = Vec::new();
        for (i, &z) in list.iter().enumerate() {
            if let Some(&k) = list.get(i + PREFETCH_AHEAD) {
                self.core.prefetch(k);
            }
            if let Some(&k) = list.get(i + PREFETCH_AHEAD / 2) {
                self.core.prefetch_slot(k);
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
    pub fn global_infinities(&mut self, list: Vec<u64>) {
        match self.bound {
            None => self.hist.cold += list.len() as u64,
            Some(_) => self.misses.extend(list),
        }
    }

    /// Sends local infinities to the left neighbour, or counts them at rank 0.
    #[inline(always)]
    fn emit(&mut self, loc_inf: Vec<u64>, tx: Option<&Sender<Vec<u64>>>) {
        match tx {
            Some(tx) => {
                if !loc_inf.is_empty() {
                    tx.send(loc_inf).expect("left neighbour outlives the phase");
                }
            }
            None => self.global_infinities(loc_inf),
        }
    }

    /// One rank's part of a phase of Alg. 3 (dispatching to a copy compiled for the CPU).
    fn run(self, chunk: &[&[u64]], rx: Option<Receiver<Vec<u64>>>, tx: Option<Sender<Vec<u64>>>) {
        crate::cpu::dispatch!((
            this: Rank<'_> = self,
            chunk: &[&[u64]] = chunk,
            rx: Option<Receiver<Vec<u64>>> = rx,
            tx: Option<Sender<Vec<u64>>> = tx,
        ) -> () {
            this.run_body(chunk, rx, tx)
        })
    }

    /// Rank 0 of a filling phase ([`filling`]; dispatching to a copy compiled for the CPU).
    fn run_root(self, pieces: PieceStream, claim: &AtomicU64, from_right: Receiver<Vec<u64>>) {
        crate::cpu::dispatch!((
            this: Rank<'_> = self,
            pieces: PieceStream = pieces,
            claim: &AtomicU64 = claim,
            rx: Receiver<Vec<u64>> = from_right,
        ) -> () {
            this.run_root_body(pieces, claim, rx)
        })
    }

    // See: PARDA Alg. 3 at rank 0 — its pieces as they arrive while they are its own (the
    // chunk's end is set when the phase is complete), then the right neighbour's local
    // infinities; whatever stays infinite here is a global infinity.
    #[inline(always)]
    fn run_root_body(mut self, pieces: PieceStream, claim: &AtomicU64, rx: Receiver<Vec<u64>>) {
        let mut i = 0;
        while let Ok(piece) = pieces.recv() {
            if !claim_piece(claim, i) {
                break;
            }
            for part in piece.chunks(STREAM_PIECE) {
                let loc_inf = self.own_chunk(part);
                self.global_infinities(loc_inf);
            }
            i += 1;
        }
        drop(pieces);
        // Ends when rank 1 has finished (its sender is dropped).
        for list in rx.iter() {
            let loc_inf = self.received(&list);
            self.global_infinities(loc_inf);
        }
    }

    // See: PARDA Alg. 3 — analyse the own chunk, then the right neighbour's local infinities;
    // send what stays infinite left (or count it at rank 0). The rounds of Alg. 3 arrive as one
    // ordered stream of pieces (see the module documentation).
    #[inline(always)]
    fn run_body(
        mut self,
        chunk: &[&[u64]],
        rx: Option<Receiver<Vec<u64>>>,
        tx: Option<Sender<Vec<u64>>>,
    ) {
        if !self.is_root {
            // A rank ≥ 1 starts every phase from an empty stack (done here, in parallel).
            self.core.clear();
        }
        for piece in chunk.iter().flat_map(|c| c.chunks(STREAM_PIECE)) {
            let loc_inf = self.own_chunk(piece);
            self.emit(loc_inf, tx.as_ref());
        }
        if let Some(rx) = rx {
            // Ends when the right neighbour has finished (its sender is dropped).
            for list in rx.iter() {
                let loc_inf = self.received(&list);
                self.emit(loc_inf, tx.as_ref());
            }
        }
    }
}

/// Rank 0's state, moved to its thread for a filling phase (a small empty stack stands in).
fn hand_over(global: &mut FastCore, hists: &mut [DenseHist], misses: &mut [Vec<u64>]) -> RootState {
    RootState {
        core: std::mem::replace(global, FastCore::untracked(1)),
        hist: std::mem::take(&mut hists[0]),
        misses: std::mem::take(&mut misses[0]),
    }
}

/// Accesses `blocks` in order on `core` (none of them on it: they go to the top in order),
/// with the software prefetching of the analysis loops.
pub fn push_all(core: &mut FastCore, blocks: &[u64]) {
    for (i, &z) in blocks.iter().enumerate() {
        if let Some(&k) = blocks.get(i + PREFETCH_AHEAD) {
            core.prefetch(k);
        }
        core.access(z);
    }
}

/// The PARDA engine; see the module documentation.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::generate;
    use crate::FastEngine;

    fn parda(blocks: &[u64], threads: usize, chunk: usize, bound: Option<u64>) -> Histogram {
        let mut e = Box::new(PardaEngine::new(PardaConfig {
            threads,
            chunk,
            bound,
        }));
        // Uneven batches, so phases straddle `process` calls.
        for piece in blocks.chunks(7777) {
            e.process(piece);
        }
        e.finish()
    }

    /// Long streams over a mid-sized working set: chunks that cover most of it take the
    /// prepend merge, short ones the append merge, and chunks longer than [`STREAM_PIECE`]
    /// stream their local infinities in several pieces; all must equal the sequential engine.
    #[test]
    fn many_phases_both_merges_equal_fast() {
        let blocks = generate(400_000, 6000, 3);
        let mut f = Box::new(FastEngine::new());
        f.process(&blocks);
        let want = f.finish();
        for (threads, chunk) in [(2, 300), (2, 20_000), (3, 90_000), (4, 5000), (2, 150_000)] {
            assert_eq!(
                parda(&blocks, threads, chunk, None),
                want,
                "t={threads} c={chunk}"
            );
        }
        let mut f = Box::new(FastEngine::with_bound(Some(700)));
        f.process(&blocks);
        let want = f.finish();
        for (threads, chunk) in [(2, 20_000), (3, 90_000)] {
            assert_eq!(
                parda(&blocks, threads, chunk, Some(700)),
                want,
                "bounded t={threads} c={chunk}"
            );
        }
    }

    /// A stream that arrives slowly: rank 0 keeps up with the filling phase and claims every
    /// piece but the last (which completes the phase and closes it at once), so the balanced
    /// split (7 of 16 pieces) is overruled and rank 1 gets one piece; exact anyway.
    #[test]
    fn rank_0_that_claims_the_whole_phase_stays_exact() {
        let blocks = generate(40_000, 3000, 5);
        let mut f = Box::new(FastEngine::new());
        f.process(&blocks);
        let want = f.finish();
        let mut e = Box::new(PardaEngine::new(PardaConfig {
            threads: 2,
            chunk: 10_000,
            bound: None,
        }));
        // Pieces of 20 000 / 16 = 1250 references; rank 0 needs well under a millisecond
        // for one.
        for piece in blocks.chunks(1250) {
            e.process(piece);
            std::thread::sleep(std::time::Duration::from_millis(3));
        }
        assert_eq!(e.finish(), want);
    }

    #[test]
    fn default_chunks() {
        assert_eq!(default_chunk(2), 1 << 23);
        assert_eq!(default_chunk(64), 1 << 21);
    }
}
