//! [`Node`]: one rank's state across phases and the PARDA rank algorithm it runs in each phase.

use crate::wire::{displacements, emit, Outbox, Wire};
use crate::{
    own_chunk, peak_rss, received, ChunkSource, RankStats, Step, MAX_STORE, PIECE, TAG_INF,
    TAG_RESULT, TAG_STATE, TAG_STOP,
};
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::traits::*;
use mpi::Count;
use rdengines::accum::DenseHist;
use rdengines::balance::{split_phase, INITIAL_INF_RATIO};
use rdengines::blockmap::BlockSet;
use rdengines::parda::{push_all, Rank};
use rdengines::table::mix64;
use rdengines::{FastCore, Histogram};

/// One rank's state across phases.
pub(crate) struct Node<'c, C: Communicator> {
    pub(crate) wire: Wire<'c, C>,
    world: &'c C,
    rank: i32,
    np: i32,
    /// Physical rank of virtual rank 0 (the holder of the global state).
    holder: i32,
    core: FastCore,
    hist: DenseHist,
    misses: Vec<u64>,
    /// Bounded runs: the blocks this rank owns (`hash mod P`) that were ever seen.
    seen: Option<BlockSet>,
    bound: Option<u64>,
    /// Room for this rank's own local infinities of a phase, sent without waiting for the left
    /// neighbour (one per reference at most, so the size of the largest chunk; allocated
    /// zeroed, so resident only where infinities were written).
    store: Vec<u64>,
    /// The source chunk being analysed (one at a time: a phase's chunk is never held whole).
    buf: Vec<u64>,
    /// Source chunks per rank of the phase just run, in virtual order ([`Node::share`]).
    split: Vec<usize>,
    /// Work of the local infinities that reached virtual rank 0 in the last phase, per
    /// reference of virtual ranks `1..P`, in units of one reference's analysis (the
    /// infinities per reference times what resolving one cost against analysing one reference;
    /// see [`Node::reduce_state`]), and how many source chunks those ranks held (0: not
    /// measured yet).
    inf_ratio: (f64, usize),
    /// References of this rank's chunk and local infinities it received, this phase.
    refs_now: u64,
    received_now: u64,
    /// Nanoseconds this phase spent analysing the own chunk, and resolving received local
    /// infinities (Alg. 4's work alone, without waiting for them).
    own_ns_now: u64,
    resolve_ns_now: u64,
}

impl<'c, C: Communicator> Node<'c, C> {
    pub(crate) fn new(world: &'c C, bound: Option<u64>) -> Self {
        let core = if bound.is_some() {
            FastCore::with_capacity(1 << 12)
        } else {
            FastCore::untracked(1 << 12)
        };
        Node {
            world,
            rank: world.rank(),
            np: world.size(),
            holder: 0,
            core,
            hist: DenseHist::default(),
            misses: Vec::new(),
            seen: bound.map(|_| BlockSet::default()),
            bound,
            store: Vec::new(),
            buf: Vec::new(),
            split: Vec::new(),
            inf_ratio: (INITIAL_INF_RATIO, 0),
            refs_now: 0,
            received_now: 0,
            own_ns_now: 0,
            resolve_ns_now: 0,
            wire: Wire {
                world,
                stats: RankStats {
                    rank: world.rank() as u32,
                    ..RankStats::default()
                },
            },
        }
    }

    fn virtual_rank(&self) -> i32 {
        (self.rank - self.holder).rem_euclid(self.np)
    }

    fn physical(&self, v: i32) -> i32 {
        (self.holder + v).rem_euclid(self.np)
    }

    /// Where this rank's chunk of a phase of `len` planned source chunks starts (relative to
    /// the phase's first), and how many source chunks it analyses at least and at most. Every
    /// rank computes the same split from the same (all-gathered) measurements: virtual rank 0
    /// gets fewer, as it also resolves what the others could not (as in the threaded engine,
    /// [`split_phase`]). The last virtual rank's chunk has no fixed end: it goes on until its
    /// left neighbour has caught up with its local infinities (see [`Node::phase`]), up to
    /// twice its planned share and the stream's end (`rest` source chunks from the phase's
    /// first).
    fn share(&mut self, len: u64, rest: u64) -> (u64, std::ops::Range<u64>) {
        let (ratio, measured) = self.inf_ratio;
        self.split = split_phase(len as usize, self.np as usize, ratio, measured);
        let v = self.virtual_rank() as usize;
        let start = self.split[..v].iter().sum::<usize>() as u64;
        let planned = self.split[v] as u64;
        if self.np > 1 && v == self.np as usize - 1 {
            let most = (2 * planned).min(rest - start);
            // At least one source chunk, so that every phase moves on.
            (start, most.min(1)..most)
        } else {
            (start, planned..planned)
        }
    }

    /// One phase of Alg. 5 starting at source chunk `first`, `len` source chunks planned, of
    /// `g` in all; returns this rank's read outcome and the source chunk the phase ended at.
    ///
    /// The own chunk is read one source chunk at a time. The last virtual rank's chunk ends
    /// dynamically: its left neighbour (virtual rank P − 2: the holder when P = 2) sends it a
    /// stop when it has analysed its own chunk and resolved every local infinity that has
    /// arrived (it would wait otherwise), and the last rank ends its chunk at the next source
    /// chunk boundary (any end is exact: the next phase starts there, and the last rank
    /// broadcasts where). So at P = 2 the phase ends when the holder runs out of work, not
    /// when an estimate of its work says, and neither side waits for more than about one
    /// source chunk's analysis.
    ///
    /// A read error stops the own chunk where it happened, the rest of the phase runs as usual
    /// (so every other rank's messages are answered), and the error is returned for [`agree`].
    pub(crate) fn phase(
        &mut self,
        source: &mut dyn ChunkSource,
        first: u64,
        len: u64,
        g: u64,
    ) -> (Result<(), String>, u64) {
        let v = self.virtual_rank();
        let np = self.np;
        let (start, span) = self.share(len, g - first);
        let dynamic = np > 1 && v == np - 1;
        self.wire.stats.phases += 1;
        let received_before = self.wire.stats.received;
        let references_before = self.wire.stats.references;
        if v != 0 {
            // A rank other than the holder starts every phase from an empty stack.
            self.core.clear();
        }
        let left = (v > 0).then(|| self.physical(v - 1));
        let right = (v < np - 1).then(|| self.physical(v + 1));
        let last_rank = self.physical(np - 1);
        // The last rank's left neighbour tells it when to stop.
        let stopper = self.physical(np - 2);
        // A rank's local infinities are at most its references; the store is allocated zeroed
        // (fresh pages from the system), so only the pages that infinities are written to
        // become resident: about the chunk's distinct blocks, not its length.
        let room = span.end.saturating_mul(source.chunk_refs()).min(MAX_STORE) as usize;
        if left.is_some() && self.store.len() < room {
            self.store = Vec::new();
            self.store = vec![0; room];
        }
        let mut done = 0u64;
        let mut read = Ok(());
        let buf = &mut self.buf;
        let wire = &mut self.wire;
        let store = &mut self.store[..];
        let mut rank = Rank::new(
            &mut self.core,
            &mut self.hist,
            &mut self.misses,
            self.bound,
            v == 0,
        );
        let (mut own_ns, mut resolve_ns) = (0u64, 0u64);
        mpi::request::scope(|scope| {
            let mut outbox = Outbox::new(scope, store);
            // See: PARDA Alg. 3 — stack_dist on the own chunk; local infinities go left as they
            // are found, piece by piece, so the left neighbour can resolve them as soon as it
            // has finished its own chunk, while this rank still works on the rest of its.
            let mut stopped = !dynamic;
            for index in 0..span.end {
                if dynamic && !stopped && wire.stop_arrived(stopper) {
                    stopped = true;
                }
                if index >= span.start && stopped {
                    break;
                }
                let reading = std::time::Instant::now();
                buf.clear();
                read = source.read_chunk(first + start + index, buf);
                done = index + 1;
                wire.time(Step::Read, reading);
                if read.is_err() {
                    break;
                }
                let started = std::time::Instant::now();
                wire.stats.references += buf.len() as u64;
                for piece in buf.chunks(PIECE) {
                    let own = own_chunk(&mut rank, piece);
                    emit(wire, &mut outbox, &mut rank, left, own);
                }
                own_ns += started.elapsed().as_nanos() as u64;
                wire.time(Step::OwnChunk, started);
            }
            let started = std::time::Instant::now();
            // The last rank's left neighbour stops it once it would otherwise wait for it.
            let mut stop_sent = !(np > 1 && v == np - 2);
            if let Some(right) = right {
                // See: PARDA Alg. 4 — the right neighbour's local infinities, piece by piece,
                // with the running count; misses are forwarded left as they are found.
                loop {
                    if !stop_sent && !wire.piece_pending(right, TAG_INF) {
                        wire.send_end(last_rank, TAG_STOP);
                        stop_sent = true;
                    }
                    let piece = wire.receive_piece(right, TAG_INF);
                    if piece.is_empty() {
                        break;
                    }
                    wire.stats.received += piece.len() as u64;
                    let resolving = std::time::Instant::now();
                    let still = received(&mut rank, &piece);
                    emit(wire, &mut outbox, &mut rank, left, still);
                    resolve_ns += resolving.elapsed().as_nanos() as u64;
                }
            }
            if !stop_sent {
                wire.send_end(last_rank, TAG_STOP);
            }
            if let Some(left) = left {
                wire.send_end(left, TAG_INF);
            }
            if !stopped {
                // The stop comes at the latest when the left neighbour has had this rank's end.
                wire.receive_piece(stopper, TAG_STOP);
            }
            outbox.complete();
            wire.time(Step::Infinities, started);
        });
        self.received_now = self.wire.stats.received - received_before;
        self.refs_now = self.wire.stats.references - references_before;
        (self.own_ns_now, self.resolve_ns_now) = (own_ns, resolve_ns);
        let started = std::time::Instant::now();
        // Where the last rank's chunk ended is where the next phase starts: the split then
        // holds the source chunks every rank analysed.
        if np > 1 {
            let mut last_len = if dynamic { done } else { 0 };
            self.world
                .process_at_rank(last_rank)
                .broadcast_into(&mut last_len);
            let n = self.split.len();
            self.split[n - 1] = last_len as usize;
        }
        let end = first + self.split.iter().sum::<usize>() as u64;
        let last = end == g;
        self.classify_misses();
        if !last {
            // After the last phase only the histograms are summed: no state to pass on.
            self.reduce_state();
        }
        self.wire.time(Step::Reduce, started);
        (read, end)
    }

    /// Bounded runs: classifies this phase's global misses as cold or overflow at the blocks'
    /// owners (collective).
    fn classify_misses(&mut self) {
        if self.seen.is_none() {
            return;
        }
        let np = self.np as usize;
        let misses = std::mem::take(&mut self.misses);
        let owner = |z: u64| (mix64(z) % np as u64) as usize;
        let mut counts = vec![0 as Count; np];
        for &z in &misses {
            counts[owner(z)] += 1;
        }
        let displs = displacements(&counts);
        let mut by_owner = vec![0u64; misses.len()];
        let mut at: Vec<usize> = displs.iter().map(|&d| d as usize).collect();
        for &z in &misses {
            let o = owner(z);
            by_owner[at[o]] = z;
            at[o] += 1;
        }
        let mut incoming_counts = vec![0 as Count; np];
        self.world
            .all_to_all_into(&counts[..], &mut incoming_counts[..]);
        let incoming_displs = displacements(&incoming_counts);
        let total: usize = incoming_counts.iter().map(|&c| c as usize).sum();
        let mut incoming = vec![0u64; total];
        {
            let send = Partition::new(&by_owner[..], &counts[..], &displs[..]);
            let mut recv = PartitionMut::new(
                &mut incoming[..],
                &incoming_counts[..],
                &incoming_displs[..],
            );
            self.world.all_to_all_varcount_into(&send, &mut recv);
        }
        let sent_elsewhere: u64 = counts
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != self.rank as usize)
            .map(|(_, &c)| c as u64)
            .sum();
        self.wire.stats.bytes_sent += 8 * sent_elsewhere;
        let seen = self.seen.as_mut().expect("bounded");
        for z in incoming {
            // See: PARDA Alg. 7 — a miss is a cold miss iff its block was never seen.
            if seen.insert(z) {
                self.hist.cold += 1;
            } else {
                self.hist.overflow += 1;
            }
        }
        self.misses = misses;
        self.misses.clear();
    }

    /// Folds the surviving stack entries of all ranks into the next holder (collective).
    // See: PARDA Alg. 6 (reduce_parda_state) and its renaming enhancement (section IV-D).
    fn reduce_state(&mut self) {
        let np = self.np;
        if np == 1 {
            return;
        }
        const FIELDS: usize = 5;
        let mine: [u64; FIELDS] = [
            self.core.len() as u64,
            self.received_now,
            self.refs_now,
            self.own_ns_now,
            self.resolve_ns_now,
        ];
        let mut gathered = vec![0u64; FIELDS * np as usize];
        self.world.all_gather_into(&mine[..], &mut gathered[..]);
        let holder = self.holder;
        let at =
            |v: i32, field: usize| gathered[FIELDS * (holder + v).rem_euclid(np) as usize + field];
        let len_of = |v: i32| at(v, 0) as usize;
        let sum = |field: usize| (0..np).map(|v| at(v, field)).sum::<u64>();
        // The next phase's split: what reached the holder per reference of the others, weighed
        // by what resolving a local infinity costs against analysing a reference, both measured
        // (every rank sees the same gathered numbers, so all compute the same split). Resolving
        // is a lookup and a delete in the holder's large stack, about 2-4 references' worth on
        // the benchmark workload; counting it as one left the holder last at every phase end.
        let others: u64 = (1..np).map(|v| at(v, 2)).sum();
        if others > 0 {
            let (refs, own_ns) = (sum(2), sum(3));
            let (received, resolve_ns) = (sum(1), sum(4));
            let cost = if refs > 0 && own_ns > 0 && received > 0 && resolve_ns > 0 {
                let per_reference = own_ns as f64 / refs as f64;
                let per_infinity = resolve_ns as f64 / received as f64;
                (per_infinity / per_reference).clamp(0.25, 8.0)
            } else {
                1.0
            };
            let chunks = self.split.iter().skip(1).sum();
            self.inf_ratio = (cost * at(0, 1) as f64 / others as f64, chunks);
        }
        let front: usize = (0..np - 1).map(len_of).sum();
        let last = len_of(np - 1);
        let v = self.virtual_rank();
        if self.bound.is_none() && 2 * front < last {
            // (b) Ranks 0..P−1 send their survivors to rank P−1, which puts them below its
            // own blocks in virtual order and becomes virtual rank 0 of the next phase.
            let dest = self.physical(np - 1);
            if v < np - 1 {
                let blocks = self.core.blocks_oldest_first();
                self.wire.send_pieces(dest, TAG_STATE, &blocks);
                self.wire.send_end(dest, TAG_STATE);
            } else {
                self.core.compact_leaving_front(front);
                let mut older = Vec::with_capacity(front);
                for u in 0..np - 1 {
                    self.wire
                        .receive_all(self.physical(u), TAG_STATE, &mut older);
                }
                self.core.fill_front(&older);
            }
            self.holder = dest;
        } else {
            // (a) Ranks 1..P send their survivors to the holder, which appends them in order.
            if v > 0 {
                let blocks = self.core.blocks_oldest_first();
                self.wire.send_pieces(holder, TAG_STATE, &blocks);
                self.wire.send_end(holder, TAG_STATE);
            } else {
                for u in 1..np {
                    let mut blocks = Vec::with_capacity(len_of(u));
                    self.wire
                        .receive_all(self.physical(u), TAG_STATE, &mut blocks);
                    match self.bound {
                        // Bounded lists are cut at B, so an earlier rank may keep a stale copy
                        // of a block; `access` moves it to the top, so the latest copy wins.
                        Some(b) => {
                            for z in blocks {
                                self.core.access(z);
                                while self.core.len() as u64 > b {
                                    self.core.pop_oldest();
                                }
                            }
                        }
                        None => push_all(&mut self.core, &blocks),
                    }
                }
            }
        }
    }

    /// Sums the histograms at rank 0 and gathers the statistics (collective).
    pub(crate) fn finish(mut self) -> Option<(Histogram, Vec<RankStats>)> {
        self.wire.stats.peak_rss = peak_rss();
        // See: PARDA Alg. 3 — hist ← reduce_sum(hist): the dense counters by distance, padded
        // to the longest rank's, then cold and overflow, summed element-wise by MPI at rank 0
        // (one pass over at most max-distance words; sending sparse pairs and adding them one
        // by one into a map cost rank 0 a tree walk per distinct distance).
        let hist = std::mem::take(&mut self.hist);
        let mine_len = hist.counts().len() as u64;
        let mut len = 0u64;
        self.world
            .all_reduce_into(&mine_len, &mut len, SystemOperation::max());
        let mut flat = Vec::with_capacity(len as usize + 2);
        flat.extend_from_slice(hist.counts());
        flat.resize(len as usize, 0);
        flat.extend([hist.cold, hist.overflow]);
        drop(hist);
        let root = self.world.process_at_rank(0);
        if self.rank != 0 {
            root.reduce_into(&flat[..], SystemOperation::sum());
            self.wire.stats.bytes_sent += 8 * flat.len() as u64;
            let s = self.wire.stats;
            let mut stats = vec![
                s.references,
                s.received,
                s.bytes_sent,
                s.messages,
                s.phases,
                s.peak_rss,
            ];
            stats.extend(s.step_ns);
            self.world
                .process_at_rank(0)
                .send_with_tag(&stats[..], TAG_RESULT);
            return None;
        }
        let mut sum = vec![0u64; flat.len()];
        root.reduce_into_root(&flat[..], &mut sum[..], SystemOperation::sum());
        drop(flat);
        let overflow = sum.pop().expect("cold and overflow are summed");
        let cold = sum.pop().expect("cold and overflow are summed");
        let total = DenseHist::from_counts(sum, cold, overflow).into_histogram(self.bound, true);
        let mut all_stats = vec![self.wire.stats];
        for r in 1..self.np {
            let s = self.wire.receive_piece(r, TAG_RESULT);
            all_stats.push(RankStats {
                rank: r as u32,
                references: s[0],
                received: s[1],
                bytes_sent: s[2],
                messages: s[3],
                phases: s[4],
                peak_rss: s[5],
                step_ns: std::array::from_fn(|i| s[6 + i]),
            });
        }
        Some((total, all_stats))
    }
}
