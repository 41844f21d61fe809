//! Decoded trace events, as analyses see them.
//!
//! Two ways to consume a stream: the [`Event`] enum (convenient, used by tests and small tools),
//! or an [`EventVisitor`] with one method per kind (no intermediate values; what hot analyses
//! use). Both see the same events in the same order.

use serde::{Deserialize, Serialize};

/// One event of a thread's stream. Ids are global ids into [`crate::meta::ProgramMeta`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Event {
    /// Entry of a basic block.
    Block {
        /// Block id.
        bb: u32,
    },
    /// A memory access by memory instruction `mi` of `len` bytes at `addr`.
    Access {
        /// Memory instruction id.
        mi: u32,
        /// First byte touched.
        addr: u64,
        /// Bytes touched (the static size, or the run-time length of a range).
        len: u64,
    },
    /// A branch outcome: successor number `outcome` of branch `br`.
    Branch {
        /// Branch id.
        br: u32,
        /// Index into the branch's successor list.
        outcome: u32,
    },
    /// The thread is about to fork parallel region `region`.
    Fork {
        /// Region id.
        region: u32,
    },
    /// The fork of `region` returned (the team joined).
    Join {
        /// Region id.
        region: u32,
    },
    /// The thread entered the outlined body of `region` as OpenMP thread `omp_thread` of a team
    /// of `team_size`.
    RegionEnter {
        /// Region id.
        region: u32,
        /// `omp_get_thread_num()`.
        omp_thread: u32,
        /// `omp_get_num_threads()`.
        team_size: u32,
    },
    /// The thread left the outlined body of `region`.
    RegionExit {
        /// Region id.
        region: u32,
    },
    /// A worksharing loop started on this thread with the given bounds (for static schedules:
    /// this thread's first chunk, as libomp returned it).
    WorkshareInit {
        /// Worksharing loop id.
        ws: u32,
        /// libomp `sched_type`.
        schedule: i32,
        /// Lower bound.
        lower: i64,
        /// Upper bound (inclusive, as libomp reports it).
        upper: i64,
        /// Stride between this thread's chunks (static) or loop stride (dispatch).
        stride: i64,
        /// Loop increment.
        incr: i64,
        /// Chunk size.
        chunk: i64,
    },
    /// A dynamic-schedule chunk handed to this thread (`more == false`: the loop is done).
    WorkshareNext {
        /// Worksharing loop id.
        ws: u32,
        /// Whether a chunk was handed out.
        more: bool,
        /// Lower bound of the chunk.
        lower: i64,
        /// Upper bound of the chunk (inclusive).
        upper: i64,
    },
    /// The worksharing loop ended on this thread.
    WorkshareFini {
        /// Worksharing loop id.
        ws: u32,
    },
    /// The thread passed an OpenMP barrier.
    Barrier,
    /// The thread stops recording here: it left the region of interest, and whatever it
    /// records next (if anything) comes after a gap. Nothing an analysis tracks across this
    /// thread's events (open regions and loops, the call stack, the previous block) carries
    /// over it. Written only in traces of a region of interest ([`crate::chunk::RoiInfo`]).
    Gap,
    /// An ordering stamp: a time on a clock shared by all threads (TSC ticks). Every event after
    /// it and before the next stamp happened after this time.
    Stamp {
        /// Clock value.
        time: u64,
    },
}

/// Receives decoded events one kind at a time; every method defaults to doing nothing.
pub trait EventVisitor {
    /// See [`Event::Block`].
    #[inline]
    fn block(&mut self, _bb: u32) {}
    /// See [`Event::Access`].
    #[inline]
    fn access(&mut self, _mi: u32, _addr: u64, _len: u64) {}
    /// See [`Event::Branch`].
    #[inline]
    fn branch(&mut self, _br: u32, _outcome: u32) {}
    /// Any other event (OpenMP events and stamps).
    #[inline]
    fn other(&mut self, _event: Event) {}
}

/// Collects events into a vector (adapter from the visitor form to the enum form).
impl EventVisitor for Vec<Event> {
    fn block(&mut self, bb: u32) {
        self.push(Event::Block { bb });
    }
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        self.push(Event::Access { mi, addr, len });
    }
    fn branch(&mut self, br: u32, outcome: u32) {
        self.push(Event::Branch { br, outcome });
    }
    fn other(&mut self, event: Event) {
        self.push(event);
    }
}

impl Event {
    /// Replays this event onto a visitor (inlined: it is one `match` in every per-event loop).
    #[inline]
    pub fn visit(self, v: &mut impl EventVisitor) {
        match self {
            Event::Block { bb } => v.block(bb),
            Event::Access { mi, addr, len } => v.access(mi, addr, len),
            Event::Branch { br, outcome } => v.branch(br, outcome),
            other => v.other(other),
        }
    }
}
