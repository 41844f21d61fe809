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
//!   *finish* together ([`crate::balance::PhaseSample::split_with_head_start`]).
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

mod config;
mod engine;
mod filling;
#[cfg(test)]
mod tests;
mod text_input;
pub use config::{default_chunk, default_threads, PardaConfig};
pub use engine::PardaEngine;
pub use text_input::parse_parda_line;

use crate::accum::{Deferred, DenseHist};
use crate::fast::FastCore;
use filling::{claim_piece, PieceStream};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{Receiver, Sender};

/// How many references ahead the block-map entry of a reference is prefetched (its bitmap
/// word is prefetched half as far ahead).
const PREFETCH_AHEAD: usize = 32;
/// References a filling phase samples and copies at a time (256 KiB: both passes in cache).
const SAMPLE_SLICE: usize = 1 << 15;
/// References of a rank's own chunk between two sends of its local infinities.
pub const STREAM_PIECE: usize = 1 << 16;

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
