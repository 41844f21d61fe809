//! PARDA distributed over MPI: the exact reuse-distance histogram of one reference stream
//! computed by P processes (OpenMPI through rsmpi), each holding only its own slice of the
//! input, as in the paper's MPI implementation (Niu et al., IPDPS 2012, sections IV-VI).
//!
//! The stream is a sequence of *source chunks* numbered `0..G` (a [`ChunkSource`] reads one of
//! the input by its number; the CLI slices files by byte range or by trace chunk). A phase
//! (Alg. 5) is planned over the next `P·k` source chunks (`k` =
//! [`MpiPardaConfig::chunks_per_rank`]); the rank with *virtual* id `v` in that phase reads a
//! run of consecutive ones, its *chunk*, one source chunk at a time, and nothing else. Virtual
//! rank 0 is the rank that holds the global state (the LRU stack of everything before the
//! phase); virtual ids follow physical ranks in ring order from it. It gets fewer source
//! chunks than the others, in proportion to the local infinities it resolved per reference of
//! theirs in the last phase, weighed by what resolving one measurably cost against analysing
//! one reference (the threaded engine's balance, [`rdengines::balance::split_phase`]; the paper
//! splits evenly; any split is exact). The last rank's chunk has no fixed end: it stops when
//! its left neighbour runs out of work, so the phase ends when the work does, whatever the
//! estimate said (see `Node::phase`). In a phase each rank:
//!
//! 1. analyses its own chunk with a fresh stack (virtual 0: on the global stack), keeping the
//!    first access of each block as a *local infinity* (Alg. 3; bounded: Alg. 7);
//! 2. sends its local infinities to its left neighbour `v − 1` as it finds them, in messages
//!    of [`INF_MESSAGE`] blocks (non-blocking sends from a store, so it goes on with its chunk
//!    while the neighbour is still busy with its own), then receives the right
//!    neighbour's pieces one by one, resolves each reference against its stack with Alg. 4 (a
//!    hit is a global distance `distance + count` and is deleted; a miss is forwarded left at
//!    once, so the lists flow down the pipeline), and closes its
//!    stream to the left with an empty message when the right one has closed; what reaches
//!    virtual rank 0 and is still infinite is a global infinity (cold, or bounded: a miss);
//! 3. takes part in the state reduction (Alg. 6): after Alg. 4 the surviving stack entries of
//!    all ranks are disjoint and each rank's are later than its left neighbours', so
//!    concatenating them in virtual order gives the new global stack. Survivor counts are
//!    all-gathered and every rank picks the same of two equivalent directions: (a) ranks
//!    `1..P` send their survivors to the holder, which appends them; or (b), the paper's
//!    Alg. 6 with its renaming enhancement, ranks `0..P−1` send theirs to rank `P − 1`, which
//!    puts them below its own stack and becomes the holder (virtual 0) of the next phase. (b)
//!    is taken when the last rank's survivors outnumber the others' twice (unbounded runs
//!    only), as in the threaded engine;
//! 4. bounded runs only: global misses are cold if their block was never seen, else overflow.
//!    Blocks are owned by rank `hash(block) mod P`; an all-to-all sends each miss to its
//!    owner, whose part of the seen set classifies it (order within a phase does not matter:
//!    exactly the first miss of a block ever is cold).
//!
//! At the end the per-rank histograms are summed at rank 0 (Alg. 3's `reduce_sum`).
//!
//! Memory per rank: one source chunk, the send store (resident only where its local
//! infinities were written: at most its chunk's distinct blocks), its stack (at most the
//! chunk's distinct blocks, or B), the global stack at the holder (the distinct blocks so far,
//! or B), and in bounded runs its share of the seen set: bounded by the footprint, never by
//! the trace length or the chunk size.
//!
//! Errors are agreed on collectively ([`agree`]): a rank that fails to open or read its slice
//! makes every rank return an error in the same step, and only the lowest failing rank carries
//! the message ([`MpiError::Failed`]); the others get [`MpiError::Elsewhere`]. No rank waits
//! for a message that will never come.
//!
//! This crate depends on `rdengines` (the per-rank stack and Alg. 3/4/7 steps are the threaded
//! engine's own, [`rdengines::parda::Rank`]) and on MPI; it reads no files itself.

use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::request::{LocalScope, Request};
use mpi::traits::*;
use mpi::Count;
use rdengines::accum::DenseHist;
use rdengines::balance::{split_phase, INITIAL_INF_RATIO};
use rdengines::blockmap::BlockSet;
use rdengines::parda::{push_all, Rank};
use rdengines::table::mix64;
use rdengines::{FastCore, Histogram};
use std::collections::VecDeque;

pub use mpi;

/// Blocks per message of a state transfer (512 KiB: big enough to amortise a message, far
/// below MPI's `int` element count), and references of the own chunk between two sends of its
/// local infinities.
pub const PIECE: usize = 1 << 16;

/// Blocks per message of a local-infinity stream: 3840 bytes, under OpenMPI's shared-memory
/// eager limit (4 KiB with the header), so a message is copied to the receiver when it is sent
/// and visible to a probe there at once. A larger one would go by rendezvous and move only
/// when the sender, busy with its chunk, next enters MPI: the receiver would see it pending
/// and wait for it, and could never tell that it has caught up (see `Node::phase`).
pub const INF_MESSAGE: usize = 480;

/// Most blocks a send store holds (128 MiB of address space, resident only where written;
/// reserving a chunk's worth of a large `--chunk` could fail where the system does not
/// overcommit); a rank with more local infinities in a phase sends the rest blocking, which
/// for messages under the eager limit waits only when the transport's buffers are full.
const MAX_STORE: u64 = 1 << 24;

/// Tag of local-infinity streams (Alg. 3/4).
const TAG_INF: i32 = 1;
/// Tag of state transfers (Alg. 6).
const TAG_STATE: i32 = 2;
/// Tag of the final histogram and statistics.
const TAG_RESULT: i32 = 3;
/// Tag of the "stop your chunk" that the last rank of a phase gets from its left neighbour.
const TAG_STOP: i32 = 4;

/// Why a distributed run stopped.
#[derive(Debug, thiserror::Error)]
pub enum MpiError {
    /// This rank failed (it is the lowest failing rank): the message says why.
    #[error("rank {rank}: {message}")]
    Failed {
        /// This rank.
        rank: i32,
        /// What went wrong.
        message: String,
    },
    /// Another rank failed and reports it; this rank stops without a message of its own.
    #[error("rank {rank} failed")]
    Elsewhere {
        /// The lowest failing rank.
        rank: i32,
    },
}

/// One rank's slice of the input: chunks of the stream by number.
pub trait ChunkSource {
    /// Number of chunks in the whole stream (every rank must see the same number).
    fn chunks(&self) -> u64;
    /// Appends the blocks of chunk `index` (`index < chunks()`) to `out`, in order.
    fn read_chunk(&mut self, index: u64, out: &mut Vec<u64>) -> Result<(), String>;
    /// About how many blocks a chunk holds, at most (sizes the send store; a chunk with more
    /// only makes some sends blocking).
    fn chunk_refs(&self) -> u64;
}

/// Parameters of a distributed run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpiPardaConfig {
    /// Alg. 7's bound B (distances ≥ B are overflow), or unbounded.
    pub bound: Option<u64>,
    /// Source chunks per rank in a phase, on average: a phase covers `P ×` this many, split
    /// unevenly (see [`run`]); more gives a finer balance, fewer reads per rank.
    pub chunks_per_rank: u64,
}

impl Default for MpiPardaConfig {
    fn default() -> Self {
        MpiPardaConfig {
            bound: None,
            chunks_per_rank: CHUNKS_PER_RANK,
        }
    }
}

/// Default source chunks per rank in a phase ([`MpiPardaConfig::chunks_per_rank`]).
pub const CHUNKS_PER_RANK: u64 = 64;

/// What one rank did, for the benchmark and `--mpi-stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RankStats {
    /// Physical rank.
    pub rank: u32,
    /// References of the rank's own chunks.
    pub references: u64,
    /// Local infinities received from the right neighbour (Alg. 4 inputs).
    pub received: u64,
    /// Payload bytes this rank sent (infinities, states, misses, results).
    pub bytes_sent: u64,
    /// Messages this rank sent point to point.
    pub messages: u64,
    /// Phases run.
    pub phases: u64,
    /// Peak resident set of the process (bytes, from `/proc/self/status` `VmHWM`; 0 where
    /// unavailable).
    pub peak_rss: u64,
    /// Where the rank's time went, nanoseconds summed over phases: see [`Step`].
    pub step_ns: [u64; Step::COUNT],
}

/// The steps of a phase whose time a rank measures ([`RankStats::step_ns`]), to tell work from
/// waiting: a rank that waits shows it in the step it waits in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Reading its slice of the input (Alg. 5's `read`), one source chunk at a time.
    Read = 0,
    /// Alg. 3 on its own chunk, local infinities sent left as found.
    OwnChunk = 1,
    /// Alg. 4: the right neighbour's local infinities, waiting for them included, and the
    /// completion of its own sends.
    Infinities = 2,
    /// Alg. 6/7: where the phase ended, the state reduction, the bounded runs'
    /// classification of misses and the agreement that every rank read its slice, waiting for
    /// the other ranks included.
    Reduce = 3,
}

impl Step {
    /// Number of steps.
    pub const COUNT: usize = 4;
    /// Every step, in phase order.
    pub const ALL: [Step; Step::COUNT] =
        [Step::Read, Step::OwnChunk, Step::Infinities, Step::Reduce];
    /// Name of the step in `--mpi-stats` output.
    pub fn name(self) -> &'static str {
        match self {
            Step::Read => "read",
            Step::OwnChunk => "own_chunk",
            Step::Infinities => "infinities",
            Step::Reduce => "reduce",
        }
    }
}

/// Agrees across all ranks on a per-rank outcome: `Ok` everywhere, or an error on every rank
/// in which only the lowest failing rank carries its message. Collective: every rank must call
/// it at the same point.
pub fn agree<T, C: Communicator>(world: &C, local: Result<T, String>) -> Result<T, MpiError> {
    let me = world.rank();
    let mine = if local.is_err() { me } else { i32::MAX };
    let mut lowest = i32::MAX;
    world.all_reduce_into(&mine, &mut lowest, SystemOperation::min());
    match local {
        Err(message) if lowest == me => Err(MpiError::Failed { rank: me, message }),
        _ if lowest != i32::MAX => Err(MpiError::Elsewhere { rank: lowest }),
        Ok(v) => Ok(v),
        Err(message) => unreachable!("a failing rank saw no failure: {message}"),
    }
}

/// Runs PARDA over all ranks of `world` on the stream `source` slices. Collective. Returns the
/// histogram and every rank's statistics on rank 0, `None` elsewhere.
pub fn run<C: Communicator>(
    world: &C,
    source: &mut dyn ChunkSource,
    cfg: MpiPardaConfig,
) -> Result<Option<(Histogram, Vec<RankStats>)>, MpiError> {
    let np = world.size();
    // Every rank must cut the stream the same way (a per-node copy of a different file would
    // silently give a wrong histogram).
    let g = source.chunks();
    let (mut lo, mut hi) = (0u64, 0u64);
    world.all_reduce_into(&g, &mut lo, SystemOperation::min());
    world.all_reduce_into(&g, &mut hi, SystemOperation::max());
    let same: Result<(), String> = if lo == hi {
        Ok(())
    } else {
        Err(format!(
            "the ranks see different inputs ({g} chunks here, between {lo} and {hi} elsewhere)"
        ))
    };
    // Every rank sees lo != hi alike; rank 0 reports it and the others stop with it.
    agree(world, if world.rank() == 0 { same } else { Ok(()) })?;

    let mut node = Node::new(world, cfg.bound);
    let per_phase = np as u64 * cfg.chunks_per_rank.max(1);
    let mut next = 0u64;
    while next < g {
        // See: PARDA Alg. 5 — read(INPUT, S): this rank's share of the phase, nothing else,
        // one source chunk at a time as the phase goes on.
        let len = per_phase.min(g - next);
        let (read, end) = node.phase(source, next, len, g);
        // A rank that could not read its slice went through the phase's messages with what it
        // had, so no rank waits for it; now every rank learns of it and stops.
        let started = std::time::Instant::now();
        agree(world, read)?;
        node.wire.time(Step::Reduce, started);
        next = end;
    }
    Ok(node.finish())
}

/// Point-to-point messages of one rank, with its statistics.
struct Wire<'c, C: Communicator> {
    world: &'c C,
    stats: RankStats,
}

/// One rank's state across phases.
struct Node<'c, C: Communicator> {
    wire: Wire<'c, C>,
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

impl<C: Communicator> Wire<'_, C> {
    /// Adds the time since `started` to `step`.
    fn time(&mut self, step: Step, started: std::time::Instant) {
        self.stats.step_ns[step as usize] += started.elapsed().as_nanos() as u64;
    }

    /// Sends `blocks` to `dest` in pieces (never an empty one: that ends a stream).
    fn send_pieces(&mut self, dest: i32, tag: i32, blocks: &[u64]) {
        let p = self.world.process_at_rank(dest);
        for piece in blocks.chunks(PIECE) {
            p.send_with_tag(piece, tag);
            self.stats.bytes_sent += std::mem::size_of_val(piece) as u64;
            self.stats.messages += 1;
        }
    }

    /// Ends a stream of pieces to `dest`.
    fn send_end(&mut self, dest: i32, tag: i32) {
        let empty: [u64; 0] = [];
        self.world
            .process_at_rank(dest)
            .send_with_tag(&empty[..], tag);
        self.stats.messages += 1;
    }

    /// Receives the next piece of `src`'s stream; empty at its end.
    fn receive_piece(&self, src: i32, tag: i32) -> Vec<u64> {
        self.world
            .process_at_rank(src)
            .receive_vec_with_tag::<u64>(tag)
            .0
    }

    /// Whether a message with `tag` from `src` is waiting to be received.
    fn piece_pending(&self, src: i32, tag: i32) -> bool {
        let p = self.world.process_at_rank(src);
        // OpenMPI's probe that finds nothing runs the progress engine and answers "no" without
        // looking again, so what arrived meanwhile (after a long computation, everything the
        // other rank sent) shows only to a second probe.
        p.immediate_probe_with_tag(tag).is_some() || p.immediate_probe_with_tag(tag).is_some()
    }

    /// Whether the left neighbour's stop has arrived from `src` (then it is received).
    fn stop_arrived(&self, src: i32) -> bool {
        let here = self.piece_pending(src, TAG_STOP);
        if here {
            self.receive_piece(src, TAG_STOP);
        }
        here
    }

    /// Receives a whole stream of pieces from `src`, appending to `out`.
    fn receive_all(&self, src: i32, tag: i32, out: &mut Vec<u64>) {
        loop {
            let piece = self.receive_piece(src, tag);
            if piece.is_empty() {
                return;
            }
            out.extend_from_slice(&piece);
        }
    }
}

impl<'c, C: Communicator> Node<'c, C> {
    fn new(world: &'c C, bound: Option<u64>) -> Self {
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
    fn phase(
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
    fn finish(mut self) -> Option<(Histogram, Vec<RankStats>)> {
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

/// Sends local infinities left, or at virtual rank 0 counts them as global infinities.
fn emit<'a, 's, C: Communicator>(
    wire: &mut Wire<'_, C>,
    outbox: &mut Outbox<'a, 's>,
    rank: &mut Rank<'_>,
    left: Option<i32>,
    list: Vec<u64>,
) {
    match left {
        Some(left) => outbox.send(wire, left, TAG_INF, &list),
        None => rank.global_infinities(list),
    }
}

/// Non-blocking sends of one phase's local infinities. Each piece is copied into the rank's
/// send store (which outlives the request scope) and sent with `MPI_Isend`, so the sender goes
/// on while the receiver is still busy; when the store is full, a piece is sent blocking.
struct Outbox<'a, 's> {
    scope: &'s LocalScope<'a>,
    /// The unused part of the store.
    free: &'a mut [u64],
    /// Sends not known to be complete, oldest first.
    pending: VecDeque<Request<'a, [u64], &'s LocalScope<'a>>>,
}

impl<'a, 's> Outbox<'a, 's> {
    fn new(scope: &'s LocalScope<'a>, store: &'a mut [u64]) -> Self {
        Outbox {
            scope,
            free: store,
            pending: VecDeque::new(),
        }
    }

    /// Sends `blocks` to `dest` in pieces (never an empty one: that ends a stream).
    fn send<C: Communicator>(
        &mut self,
        wire: &mut Wire<'_, C>,
        dest: i32,
        tag: i32,
        blocks: &[u64],
    ) {
        let p = wire.world.process_at_rank(dest);
        for piece in blocks.chunks(INF_MESSAGE) {
            if self.free.len() >= piece.len() {
                let (copy, rest) = std::mem::take(&mut self.free).split_at_mut(piece.len());
                copy.copy_from_slice(piece);
                self.free = rest;
                let copy: &'a [u64] = copy;
                self.pending
                    .push_back(p.immediate_send_with_tag(self.scope, copy, tag));
            } else {
                p.send_with_tag(piece, tag);
            }
            wire.stats.bytes_sent += std::mem::size_of_val(piece) as u64;
            wire.stats.messages += 1;
        }
        // Retire the sends that are done (this also lets MPI progress the others).
        while let Some(r) = self.pending.pop_front() {
            if let Err(r) = r.test() {
                self.pending.push_front(r);
                break;
            }
        }
    }

    /// Waits until every send has completed (before the scope ends).
    fn complete(self) {
        for r in self.pending {
            r.wait_without_status();
        }
    }
}

/// Exclusive prefix sums of per-rank counts.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |acc, &c| {
            let d = *acc;
            *acc += c;
            Some(d)
        })
        .collect()
}

/// Peak resident set size of this process in bytes (Linux `VmHWM`), 0 where unknown.
pub fn peak_rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kb| kb * 1024)
}

/// The own-chunk step, compiled for the CPU's popcount where it has one (the stack counts
/// with popcounts; without the target feature they would be emulated).
fn own_chunk(rank: &mut Rank<'_>, chunk: &[u64]) -> Vec<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if rdengines::cpu::has_v3() {
            // Safety: the CPU supports x86-64-v3, checked just above.
            return unsafe { own_chunk_v3(rank, chunk) };
        }
        if rdengines::cpu::has_popcnt() {
            // Safety: the CPU supports POPCNT, checked just above.
            return unsafe { own_chunk_popcnt(rank, chunk) };
        }
    }
    rank.own_chunk(chunk)
}

/// # Safety
/// The CPU must support x86-64-v3 ([`rdengines::cpu::has_v3`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn own_chunk_v3(rank: &mut Rank<'_>, chunk: &[u64]) -> Vec<u64> {
    rank.own_chunk(chunk)
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn own_chunk_popcnt(rank: &mut Rank<'_>, chunk: &[u64]) -> Vec<u64> {
    rank.own_chunk(chunk)
}

/// Alg. 4 on one received piece, compiled like [`own_chunk`].
fn received(rank: &mut Rank<'_>, list: &[u64]) -> Vec<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        if rdengines::cpu::has_v3() {
            // Safety: the CPU supports x86-64-v3, checked just above.
            return unsafe { received_v3(rank, list) };
        }
        if rdengines::cpu::has_popcnt() {
            // Safety: the CPU supports POPCNT, checked just above.
            return unsafe { received_popcnt(rank, list) };
        }
    }
    rank.received(list)
}

/// # Safety
/// The CPU must support x86-64-v3 ([`rdengines::cpu::has_v3`]).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
unsafe fn received_v3(rank: &mut Rank<'_>, list: &[u64]) -> Vec<u64> {
    rank.received(list)
}

/// # Safety
/// The CPU must support POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn received_popcnt(rank: &mut Rank<'_>, list: &[u64]) -> Vec<u64> {
    rank.received(list)
}
