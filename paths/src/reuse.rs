//! The reuse-distance side of path collection: each thread's reuse stack at cache-line
//! granularity, and each record's distances. It needs only which record an access is charged
//! to, so where there is a second CPU it runs on a thread of its own, fed batches of
//! `(record, address, length)` while the collector follows the branch history and finds the
//! records ([`RecordReuse`]).

use crate::bins::CollectingBins;
use rdengines::batched::{BatchSink, Batched};
use rdengines::LastLineStack;

/// Accesses per batch sent to the reuse thread.
const BATCH: usize = 1 << 14;

/// Batches in flight (besides the one worked on and the one being filled): under 2 MiB.
const IN_FLIGHT: usize = 4;

/// The record that stands for "a new thread starts here" in a batch.
const NEW_THREAD: u32 = u32::MAX;

/// How many references ahead a record's distances are prefetched.
const RECORD_AHEAD: usize = 8;

/// Line references held before they run through the stack (768 KiB with their records): an
/// access spanning more lines (a whole-array copy) runs in pieces.
const LINES_HELD: usize = 1 << 16;

/// One access charged to a record: (record, address, length).
type Charge = (u32, u64, u64);

/// The distances of every record so far.
pub(crate) struct Reuse {
    /// Cache-line shift.
    shift: u32,
    stack: LastLineStack,
    /// Finite distances and first touches of each record (by index).
    pub(crate) bins: CollectingBins,
    pub(crate) references: u64,
    pub(crate) cold: u64,
    /// The lines of the references taken and not yet run through the stack, and their records.
    lines: Vec<u64>,
    records: Vec<u32>,
}

impl Reuse {
    /// No distances yet, lines of `1 << shift` bytes.
    pub(crate) fn new(shift: u32) -> Self {
        Reuse {
            shift,
            stack: LastLineStack::default(),
            bins: CollectingBins::default(),
            references: 0,
            cold: 0,
            lines: Vec::new(),
            records: Vec::new(),
        }
    }

    /// A new thread: a fresh reuse stack (the paper's runs are sequential, each thread its own).
    fn begin_thread(&mut self) {
        self.run();
        self.stack = LastLineStack::default();
    }

    /// Lines `first..=last` of one access charged to `record`, run in pieces of at most
    /// [`LINES_HELD`].
    #[inline(never)]
    fn take_lines(&mut self, record: u32, mut first: u64, last: u64) {
        loop {
            let room = (LINES_HELD - self.lines.len()) as u64;
            let upto = last.min(first.saturating_add(room - 1));
            self.lines.extend(first..=upto);
            let n = self.lines.len() - self.records.len();
            self.records.extend(std::iter::repeat_n(record, n));
            if self.lines.len() >= LINES_HELD {
                self.run();
            }
            if upto == last {
                return;
            }
            first = upto + 1;
        }
    }

    /// Runs the references taken through the stack, charging each distance to its record.
    fn run(&mut self) {
        charge_distances(
            &mut self.stack,
            &mut self.bins,
            &mut self.cold,
            &self.lines,
            &self.records,
        );
        self.references += self.lines.len() as u64;
        self.lines.clear();
        self.records.clear();
    }
}

/// The loop of [`Reuse::run`], compiled for the CPU's best instruction set (the stack's
/// distance queries are popcounts, which the baseline x86-64 target compiles to a bit trick).
fn charge_distances(
    stack: &mut LastLineStack,
    bins: &mut CollectingBins,
    cold: &mut u64,
    lines: &[u64],
    records: &[u32],
) {
    // `dispatch!` returns from this function with the body's value.
    rdengines::dispatch!((
        stack: &mut LastLineStack = stack,
        bins: &mut CollectingBins = bins,
        cold: &mut u64 = cold,
        lines: &[u64] = lines,
        records: &[u32] = records,
    ) -> () {
        for (i, &r) in records.iter().enumerate() {
            let d = stack.access_at(lines, i);
            // Start loading a later reference's record while this one is counted.
            if let Some(&ahead) = records.get(i + RECORD_AHEAD) {
                bins.prefetch(ahead as usize);
            }
            // See: Section 3.1 — backward reuse distance at cache-line granularity.
            match d {
                Some(d) => bins.add(r as usize, d),
                None => {
                    bins.get(r as usize).cold += 1;
                    *cold += 1;
                }
            }
        }
    })
}

/// The charges arrive in batches ([`rdengines::batched`]), on a thread of their own where there
/// is a second CPU.
impl BatchSink for Reuse {
    type Item = Charge;

    fn take(&mut self, charges: &[Charge]) {
        for &(record, addr, len) in charges {
            if record == NEW_THREAD {
                self.begin_thread();
                continue;
            }
            let (first, last) =
                rdengines::granularity::blocks_of(self.shift, addr, len).into_inner();
            if first == last {
                self.lines.push(first);
                self.records.push(record);
                if self.lines.len() >= LINES_HELD {
                    self.run();
                }
            } else {
                self.take_lines(record, first, last);
            }
        }
        self.run();
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
        self.0.join()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bins::Bins;

    /// Batches of charges, with accesses longer than the lines held at once (run in pieces)
    /// and a thread change, give every record the distances of a plain stack over the lines
    /// in order.
    #[test]
    fn pieces_and_threads_give_the_distances_of_one_stack() {
        let mut rng = rdengines::SplitMix64::new(5);
        let mut threads: Vec<Vec<Charge>> = vec![Vec::new(), Vec::new()];
        for charges in &mut threads {
            for k in 0..3000u64 {
                let record = (rng.next_u64() % 7) as u32;
                let addr = 64 * (rng.next_u64() % 5000) + rng.next_u64() % 64;
                let len = match k % 1000 {
                    // Longer than LINES_HELD lines, unaligned.
                    500 => 64 * (LINES_HELD as u64 + 300) + 5,
                    _ => 1 + rng.next_u64() % 100,
                };
                charges.push((record, addr, len));
            }
        }
        let mut want = vec![(Bins::new(), 0u64); 7];
        let mut references = 0;
        for charges in &threads {
            let mut stack = rdengines::FastCore::untracked(0);
            for &(record, addr, len) in charges {
                rdengines::granularity::for_each_block(6, addr, len, |line| {
                    references += 1;
                    match stack.access(line) {
                        Some(d) => want[record as usize].0.add(d),
                        None => want[record as usize].1 += 1,
                    }
                });
            }
        }
        let mut reuse = Reuse::new(6);
        for charges in &threads {
            reuse.take(&[(NEW_THREAD, 0, 0)]);
            for batch in charges.chunks(700) {
                reuse.take(batch);
            }
        }
        assert_eq!(reuse.references, references);
        assert_eq!(reuse.cold, want.iter().map(|w| w.1).sum::<u64>());
        let got: Vec<(Bins, u64)> = reuse.bins.into_bins().collect();
        assert_eq!(got, want);
    }
}
