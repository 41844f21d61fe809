//! One OpenMP thread's accesses in a launch, kept until the launch ends: runs of one
//! iteration each, with the instructions and addresses in two arrays (12 bytes an access, and
//! 16 a run, where a triple per access took 24), read back in iteration order.

/// A thread's `(iteration, memory instruction, address)` accesses in program order.
#[derive(Default)]
pub(super) struct PartAccesses {
    /// `(iteration, accesses)`: consecutive accesses of one iteration.
    runs: Vec<(i64, u32)>,
    mis: Vec<u32>,
    addrs: Vec<u64>,
}

impl PartAccesses {
    /// Adds the next access, by iteration `it`.
    #[inline]
    pub(super) fn push(&mut self, it: i64, mi: u32, addr: u64) {
        match self.runs.last_mut() {
            Some((i, n)) if *i == it && *n < u32::MAX => *n += 1,
            _ => self.runs.push((it, 1)),
        }
        self.mis.push(mi);
        self.addrs.push(addr);
    }

    /// Accesses held.
    pub(super) fn len(&self) -> usize {
        self.mis.len()
    }

    /// Puts the runs in iteration order, keeping the order of equal iterations (no schedule
    /// hands a thread an iteration below one it ran, so this moves nothing in practice).
    pub(super) fn sort(&mut self) {
        if self.runs.is_sorted_by_key(|r| r.0) {
            return;
        }
        let mut at = 0usize;
        let mut runs: Vec<(i64, usize, u32)> = self
            .runs
            .iter()
            .map(|&(it, n)| {
                at += n as usize;
                (it, at - n as usize, n)
            })
            .collect();
        runs.sort_by_key(|r| r.0);
        let mut mis = Vec::with_capacity(self.mis.len());
        let mut addrs = Vec::with_capacity(self.addrs.len());
        for &(_, start, n) in &runs {
            mis.extend_from_slice(&self.mis[start..start + n as usize]);
            addrs.extend_from_slice(&self.addrs[start..start + n as usize]);
        }
        self.runs = runs.into_iter().map(|(it, _, n)| (it, n)).collect();
        self.mis = mis;
        self.addrs = addrs;
    }

    /// A reader from the first run.
    pub(super) fn cursor(&self) -> RunCursor {
        RunCursor { run: 0, access: 0 }
    }

    /// The iteration of the cursor's run, `None` past the last.
    #[inline]
    pub(super) fn iteration(&self, c: &RunCursor) -> Option<i64> {
        self.runs.get(c.run).map(|r| r.0)
    }

    /// Moves the cursor past its run.
    #[inline]
    pub(super) fn skip_run(&self, c: &mut RunCursor) {
        c.access += self.runs[c.run].1 as usize;
        c.run += 1;
    }

    /// The accesses `(instruction, address)` of the cursor's run; moves the cursor past it.
    #[inline]
    pub(super) fn take_run(&self, c: &mut RunCursor) -> impl Iterator<Item = (u32, u64)> + use<'_> {
        let n = self.runs[c.run].1 as usize;
        let range = c.access..c.access + n;
        c.run += 1;
        c.access += n;
        self.mis[range.clone()]
            .iter()
            .copied()
            .zip(self.addrs[range].iter().copied())
    }
}

/// Where a reader of a [`PartAccesses`] stands: its run, and that run's first access.
pub(super) struct RunCursor {
    run: usize,
    access: usize,
}
