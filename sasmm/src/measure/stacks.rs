//! The reuse-distance half of a measurement ([`Stacks`]): each core's PRD at the L1's line size
//! and the CRD at the L2's, counted from the accesses in global order. It needs nothing of the
//! cache simulation, so it may run on a thread of its own ([`Stacks::fed`]), fed batches of
//! [`MeasuredAccess`]es in order, while the simulation runs elsewhere.

use rdcachesim::CacheConfig;
use rdengines::accum::DenseHist;
use rdengines::batched::{BatchSink, Batched};
use rdengines::{FrontedStack, Histogram};

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

/// One access as the measurement's threads pass it on: its bytes, core, memory instruction and
/// whether it writes.
#[derive(Clone, Copy, Debug)]
pub(super) struct MeasuredAccess {
    pub(super) addr: u64,
    pub(super) len: u64,
    /// The core, with [`MeasuredAccess::WRITE`] set when the access writes.
    core: u32,
    pub(super) mi: u32,
}

impl MeasuredAccess {
    /// The bit of `core` that marks a write (cores are thread positions, far below).
    const WRITE: u32 = 1 << 31;

    /// An access of `len` bytes at `addr` by core `core`, made by memory instruction `mi`.
    #[inline]
    pub(super) fn new(core: usize, mi: u32, addr: u64, len: u64, write: bool) -> Self {
        MeasuredAccess {
            addr,
            len,
            core: core as u32 | if write { Self::WRITE } else { 0 },
            mi,
        }
    }

    /// The core that made it.
    #[inline]
    pub(super) fn core(&self) -> usize {
        (self.core & !Self::WRITE) as usize
    }

    /// Whether it writes.
    #[inline]
    pub(super) fn writes(&self) -> bool {
        self.core & Self::WRITE != 0
    }
}

/// Accesses a batch holds before it goes to the stacks (or on down a chain).
pub(super) const BATCH: usize = 1 << 14;

/// Batches sent ahead of a measurement's thread (besides the one it works on).
pub(super) const IN_FLIGHT: usize = 4;

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

    /// Empty stacks for caches `l1` and `l2`, fed in batches: on a thread of their own when
    /// `apart` and the machine has a second CPU, else on the caller's.
    pub(super) fn fed(l1: CacheConfig, l2: CacheConfig, apart: bool) -> Batched<Stacks> {
        let stacks = Stacks::new(l1, l2);
        if apart {
            Batched::on_second_cpu(stacks, BATCH, IN_FLIGHT, "measure-stacks")
        } else {
            Batched::inline(stacks, BATCH)
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

impl BatchSink for Stacks {
    type Item = MeasuredAccess;

    fn take(&mut self, accesses: &[MeasuredAccess]) {
        for a in accesses {
            self.access(a.core(), a.addr, a.len);
        }
    }
}
