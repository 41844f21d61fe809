//! The reuse-distance side of path collection: each thread's reuse stack at cache-line
//! granularity, and each record's distances. It needs only which record an access is charged
//! to, so where there is a second CPU it runs on a thread of its own, fed batches of
//! `(record, address, length)` while the collector follows the branch history and finds the
//! records ([`RecordReuse`]).

use crate::bins::Bins;
use rdengines::batched::{BatchSink, Batched};
use rdengines::FastCore;

/// Accesses per batch sent to the reuse thread.
const BATCH: usize = 1 << 14;

/// Batches in flight (besides the one worked on and the one being filled): under 2 MiB.
const IN_FLIGHT: usize = 4;

/// The record that stands for "a new thread starts here" in a batch.
const NEW_THREAD: u32 = u32::MAX;

/// One access charged to a record: (record, address, length).
type Charge = (u32, u64, u64);

/// The distances of every record so far.
pub(crate) struct Reuse {
    /// Cache-line shift.
    shift: u32,
    tracker: FastCore,
    /// Finite distances and first touches of each record (by index).
    pub(crate) bins: Vec<(Bins, u64)>,
    pub(crate) references: u64,
    pub(crate) cold: u64,
}

impl Reuse {
    /// No distances yet, lines of `1 << shift` bytes.
    pub(crate) fn new(shift: u32) -> Self {
        Reuse {
            shift,
            tracker: FastCore::untracked(0),
            bins: Vec::new(),
            references: 0,
            cold: 0,
        }
    }

    /// A new thread: a fresh reuse stack (the paper's runs are sequential, each thread its own).
    fn begin_thread(&mut self) {
        self.tracker = FastCore::untracked(0);
    }

    /// An access of `len` bytes at `addr`, charged to record `record`.
    #[inline]
    fn access(&mut self, record: u32, addr: u64, len: u64) {
        let r = record as usize;
        if r >= self.bins.len() {
            self.bins.resize_with(r + 1, || (Bins::new(), 0));
        }
        let (bins, cold) = &mut self.bins[r];
        let (tracker, references, total_cold) =
            (&mut self.tracker, &mut self.references, &mut self.cold);
        rdengines::granularity::for_each_block(self.shift, addr, len, |line| {
            *references += 1;
            // See: Section 3.1 — backward reuse distance at cache-line granularity.
            match tracker.access(line) {
                Some(d) => bins.add(d),
                None => {
                    *cold += 1;
                    *total_cold += 1;
                }
            }
        });
    }

    fn charge(&mut self, (record, addr, len): Charge) {
        if record == NEW_THREAD {
            self.begin_thread();
        } else {
            self.access(record, addr, len);
        }
    }
}

/// The charges arrive in batches ([`rdengines::batched`]), on a thread of their own where there
/// is a second CPU.
impl BatchSink for Reuse {
    type Item = Charge;

    fn take(&mut self, charges: &[Charge]) {
        for &c in charges {
            self.charge(c);
        }
    }
}

/// The reuse side of a collector, fed in batches.
pub(crate) struct RecordReuse(Batched<Reuse>);

impl RecordReuse {
    /// `reuse` on a thread of its own where there is a second CPU, else here.
    pub(crate) fn new(reuse: Reuse) -> Self {
        RecordReuse(Batched::on_second_cpu(
            reuse,
            BATCH,
            IN_FLIGHT,
            "paths-reuse",
        ))
    }

    /// A new thread starts (its accesses follow).
    pub(crate) fn begin_thread(&mut self) {
        self.0.push((NEW_THREAD, 0, 0));
    }

    /// An access of `len` bytes at `addr`, charged to record `record`.
    #[inline]
    pub(crate) fn access(&mut self, record: usize, addr: u64, len: u64) {
        self.0.push((record as u32, addr, len));
    }

    /// Waits for every charge to be counted and gives the distances back.
    pub(crate) fn finish(self) -> Reuse {
        self.0
            .finish()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    }
}
