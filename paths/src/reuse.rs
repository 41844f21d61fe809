//! The reuse-distance side of path collection: each thread's reuse stack at cache-line
//! granularity, and each record's distances. It needs only which record an access is charged
//! to, so where there is a second CPU it runs on a thread of its own, fed batches of
//! `(record, address, length)` while the collector follows the branch history and finds the
//! records ([`RecordReuse::Threaded`]).

use crate::bins::Bins;
use rdengines::FastCore;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

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

/// The distances computed here, or on a thread of their own.
pub(crate) enum RecordReuse {
    /// On the collector's thread.
    Inline(Box<Reuse>),
    /// On the reuse thread: charges go over in batches, emptied batches come back.
    Threaded {
        batch: Vec<Charge>,
        to_thread: Option<SyncSender<Vec<Charge>>>,
        back: Receiver<Vec<Charge>>,
        thread: Option<std::thread::JoinHandle<Reuse>>,
    },
}

impl RecordReuse {
    /// `reuse` on a thread of its own where there is a second CPU and a thread can be
    /// started, else here.
    pub(crate) fn new(reuse: Reuse) -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
        if cpus < 2 {
            return RecordReuse::Inline(Box::new(reuse));
        }
        // The state goes to the thread once it runs, so a failed spawn leaves it here.
        let (hand_over, receive) = sync_channel::<Reuse>(1);
        let (to_thread, batches) = sync_channel::<Vec<Charge>>(IN_FLIGHT);
        let (give_back, back) = std::sync::mpsc::channel::<Vec<Charge>>();
        let spawned = std::thread::Builder::new()
            .name("paths-reuse".into())
            .spawn(move || {
                let mut reuse = receive.recv().expect("the collector hands the state over");
                for mut batch in batches {
                    for &c in &batch {
                        reuse.charge(c);
                    }
                    batch.clear();
                    let _ = give_back.send(batch);
                }
                reuse
            });
        match spawned {
            Ok(handle) => {
                hand_over
                    .send(reuse)
                    .expect("the reuse thread waits for its state");
                RecordReuse::Threaded {
                    batch: Vec::with_capacity(BATCH),
                    to_thread: Some(to_thread),
                    back,
                    thread: Some(handle),
                }
            }
            Err(_) => RecordReuse::Inline(Box::new(reuse)),
        }
    }

    /// A new thread starts (its accesses follow).
    pub(crate) fn begin_thread(&mut self) {
        self.push((NEW_THREAD, 0, 0));
    }

    /// An access of `len` bytes at `addr`, charged to record `record`.
    #[inline]
    pub(crate) fn access(&mut self, record: usize, addr: u64, len: u64) {
        self.push((record as u32, addr, len));
    }

    #[inline]
    fn push(&mut self, c: Charge) {
        match self {
            RecordReuse::Inline(r) => r.charge(c),
            RecordReuse::Threaded {
                batch,
                to_thread,
                back,
                ..
            } => {
                batch.push(c);
                if batch.len() >= BATCH {
                    let spare = back
                        .try_recv()
                        .unwrap_or_else(|_| Vec::with_capacity(BATCH));
                    let full = std::mem::replace(batch, spare);
                    // A send fails only when the thread is gone (it panicked): `finish` says so.
                    if let Some(tx) = to_thread {
                        let _ = tx.send(full);
                    }
                }
            }
        }
    }

    /// Waits for every charge to be counted and gives the distances back.
    pub(crate) fn finish(self) -> Reuse {
        match self {
            RecordReuse::Inline(r) => *r,
            RecordReuse::Threaded {
                batch,
                mut to_thread,
                mut thread,
                ..
            } => {
                if let Some(tx) = to_thread.take() {
                    if !batch.is_empty() {
                        let _ = tx.send(batch);
                    }
                }
                thread
                    .take()
                    .expect("joined once")
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
            }
        }
    }
}
