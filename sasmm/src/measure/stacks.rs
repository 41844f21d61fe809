//! The reuse-distance half of a measurement ([`Stacks`]): each core's PRD at the L1's line size
//! and the CRD at the L2's, counted from the accesses in global order. It needs nothing of the
//! cache simulation, so a [`StackFeed`] may run it on a thread of its own, fed batches of
//! accesses in order, while the simulation runs where the accesses arrive.

use super::batches::Batcher;
use rdcachesim::CacheConfig;
use rdengines::accum::DenseHist;
use rdengines::{FrontedStack, Histogram};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender, SyncSender};
use std::thread::JoinHandle;

/// No line yet (line numbers are addresses shifted right, never all ones).
const NO_LINE: u64 = u64::MAX;

/// Counts a distance (`None`: a first touch) into a flat accumulator (a `Histogram`'s map would
/// cost a tree walk per reference).
#[inline]
fn add(h: &mut DenseHist, d: Option<u64>) {
    match d {
        Some(d) => h.add(d),
        None => h.cold += 1,
    }
}

/// Each core's PRD and the CRD (see the module documentation).
pub(super) struct Stacks {
    l1: CacheConfig,
    l2: CacheConfig,
    prd: Vec<(FrontedStack, DenseHist)>,
    crd: (FrontedStack, DenseHist),
    /// Per core: the L1 line it accessed last ([`NO_LINE`] before its first access).
    last_l1: Vec<u64>,
    /// The L2-sized line the whole run accessed last (the CRD stack's top).
    last_l2: u64,
    /// While one core only has accessed and the L1 and L2 lines are equal, that core: the CRD
    /// is then its PRD (the same lines in the same order) and is not computed twice; the CRD
    /// starts as a copy of that PRD when a second core accesses.
    solo: Option<usize>,
    /// Whether any access came yet.
    started: bool,
}

impl Stacks {
    /// Empty stacks for caches `l1` (the PRD's lines) and `l2` (the CRD's).
    pub(super) fn new(l1: CacheConfig, l2: CacheConfig) -> Self {
        Stacks {
            l1,
            l2,
            prd: Vec::new(),
            crd: (FrontedStack::default(), DenseHist::default()),
            last_l1: Vec::new(),
            last_l2: NO_LINE,
            solo: None,
            started: false,
        }
    }

    /// Whether the CRD is still core `core`'s PRD (see `solo`); ends that when another core
    /// accesses.
    #[inline]
    fn crd_is_prd_of(&mut self, core: usize) -> bool {
        match self.solo {
            Some(c) if c == core => true,
            Some(c) => {
                self.crd = self.prd[c].clone();
                self.solo = None;
                false
            }
            None if !self.started => {
                self.started = true;
                if self.l1.line_shift() == self.l2.line_shift() {
                    self.solo = Some(core);
                }
                self.solo.is_some()
            }
            None => false,
        }
    }

    /// One access of `len` bytes at `addr` by core `core`.
    #[inline]
    pub(super) fn access(&mut self, core: usize, addr: u64, len: u64) {
        while self.prd.len() <= core {
            self.prd
                .push((FrontedStack::default(), DenseHist::default()));
            self.last_l1.push(NO_LINE);
        }
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let (s1, s2) = (self.l1.line_shift(), self.l2.line_shift());
        let (line1, line2) = (addr >> s1, addr >> s2);
        let one_line = last_byte >> s1 == line1 && last_byte >> s2 == line2;
        let crd_is_prd = self.crd_is_prd_of(core);
        if one_line && self.last_l1[core] == line1 {
            // The line this core touched last, again: PRD distance 0 (its PRD stack sees only
            // its own accesses).
            self.prd[core].1.add(0);
            if crd_is_prd {
            } else if self.last_l2 == line2 {
                self.crd.1.add(0);
            } else {
                add(&mut self.crd.1, self.crd.0.access(line2));
                self.last_l2 = line2;
            }
            return;
        }
        self.last_l1[core] = last_byte >> s1;
        self.last_l2 = last_byte >> s2;
        let (stack, h) = &mut self.prd[core];
        self.l1
            .for_each_line(addr, len, |l| add(h, stack.access(l)));
        if !crd_is_prd {
            let (stack, h) = &mut self.crd;
            self.l2
                .for_each_line(addr, len, |l| add(h, stack.access(l)));
        }
    }

    /// Each core's PRD (by core) and the CRD.
    pub(super) fn finish(self) -> (Vec<Histogram>, Histogram) {
        let crd = match self.solo {
            Some(c) => self.prd[c].1.clone(),
            None => self.crd.1,
        }
        .into_histogram(None, true);
        let prd = self
            .prd
            .into_iter()
            .map(|(_, h)| h.into_histogram(None, true))
            .collect();
        (prd, crd)
    }
}

/// One access as a [`StackFeed`] batches it.
#[derive(Clone, Copy, Debug)]
struct CoreAccess {
    addr: u64,
    len: u64,
    core: u32,
}

/// Accesses a batch of a [`StackFeed`] holds before it goes to the stacks' thread.
const BATCH: usize = 1 << 14;

/// Batches sent ahead of the stacks' thread (besides the one it works on).
const IN_FLIGHT: usize = 4;

/// What the stacks' thread is sent.
enum Batch {
    /// Accesses of any cores, in order.
    Mixed(Vec<CoreAccess>),
    /// Accesses `(mi, addr, len)` of one core, in order (a one-thread file's chunk).
    OneCore(usize, Vec<(u32, u64, u64)>),
}

/// Where a measurement's accesses go for their PRD and CRD: [`Stacks`] here, or on a thread of
/// their own that takes them in batches (the stacks then cost the caller only the batching;
/// the result is the same).
pub(super) enum StackFeed {
    /// The stacks, fed access by access.
    Here(Box<Stacks>),
    /// The stacks on their thread.
    Thread(StackThread),
}

/// [`Stacks`] on a thread of their own.
pub(super) struct StackThread {
    batches: Batcher<CoreAccess>,
    to: SyncSender<Batch>,
    stacks: JoinHandle<Stacks>,
}

impl StackFeed {
    /// Empty stacks for caches `l1` and `l2` ([`Stacks::new`]) on a thread of their own when
    /// the machine has more than one CPU (and the thread starts), else here.
    pub(super) fn new(l1: CacheConfig, l2: CacheConfig) -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
        if cpus < 2 {
            return StackFeed::Here(Box::new(Stacks::new(l1, l2)));
        }
        let stacks = Stacks::new(l1, l2);
        let (to, batches) = sync_channel::<Batch>(IN_FLIGHT);
        let (give_back, spare) = channel();
        let started = std::thread::Builder::new()
            .name("measure-stacks".into())
            .spawn(move || run_stacks(stacks, batches, give_back));
        match started {
            Ok(handle) => StackFeed::Thread(StackThread {
                batches: Batcher::new(BATCH, spare),
                to,
                stacks: handle,
            }),
            // No thread: the stacks (empty) are counted here instead.
            Err(_) => StackFeed::Here(Box::new(Stacks::new(l1, l2))),
        }
    }

    /// One access of `len` bytes at `addr` by core `core`.
    #[inline]
    pub(super) fn access(&mut self, core: usize, addr: u64, len: u64) {
        match self {
            StackFeed::Here(s) => s.access(core, addr, len),
            StackFeed::Thread(t) => {
                let access = CoreAccess {
                    addr,
                    len,
                    core: core as u32,
                };
                if let Some(full) = t.batches.push(access) {
                    t.send(Batch::Mixed(full));
                }
            }
        }
    }

    /// The accesses `(mi, addr, len)` of core `core`, in order, after those fed before.
    pub(super) fn one_core(&mut self, core: usize, accesses: Vec<(u32, u64, u64)>) {
        match self {
            StackFeed::Here(s) => {
                for &(_, addr, len) in &accesses {
                    s.access(core, addr, len);
                }
            }
            StackFeed::Thread(t) => {
                t.send_batch();
                t.send(Batch::OneCore(core, accesses));
            }
        }
    }

    /// The stacks once every access fed has been counted.
    pub(super) fn finish(self) -> Stacks {
        match self {
            StackFeed::Here(s) => *s,
            StackFeed::Thread(mut t) => {
                t.send_batch();
                drop(t.to);
                t.stacks
                    .join()
                    .unwrap_or_else(|p| std::panic::resume_unwind(p))
            }
        }
    }
}

impl StackThread {
    /// Sends the batch gathered so far (if any).
    fn send_batch(&mut self) {
        if let Some(full) = self.batches.take() {
            self.send(Batch::Mixed(full));
        }
    }

    fn send(&mut self, batch: Batch) {
        // The thread stops only when its channel closes or it panicked: `finish` says which.
        let _ = self.to.send(batch);
    }
}

/// The stacks' thread: every batch counted in order, mixed batches handed back.
fn run_stacks(
    mut stacks: Stacks,
    batches: Receiver<Batch>,
    give_back: Sender<Vec<CoreAccess>>,
) -> Stacks {
    for batch in batches {
        match batch {
            Batch::Mixed(mut v) => {
                for a in &v {
                    stacks.access(a.core as usize, a.addr, a.len);
                }
                v.clear();
                let _ = give_back.send(v);
            }
            Batch::OneCore(core, v) => {
                for &(_, addr, len) in &v {
                    stacks.access(core, addr, len);
                }
            }
        }
    }
    stacks
}
