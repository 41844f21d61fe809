//! PARDA distributed over MPI: the exact reuse-distance histogram of one reference stream
//! computed by P processes (OpenMPI through rsmpi), each holding only its own slice of the
//! input, as in the paper's MPI implementation (Niu et al., IPDPS 2012, sections IV-VI).
//!
//! The stream is a sequence of *source chunks* numbered `0..G` (a [`ChunkSource`] reads one of
//! the input by its number; [`input`] slices files by byte range or by trace chunk). A phase
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
//! engine's own, [`rdengines::parda::Rank`]), on `rdtrace` (the traces [`input`] reads) and on
//! MPI. [`run`] reads only through a [`ChunkSource`]; [`input`] has the sources of PARDA files
//! and rdtools traces, each rank reading only its own slices.

pub mod input;
mod node;
mod wire;

use mpi::collective::SystemOperation;
use mpi::traits::*;
use rdengines::parda::Rank;
use rdengines::Histogram;

use node::Node;

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
