//! The accesses of [`MultiHierarchy`]: each reference through the L1 stacks of its core, the
//! L1 misses through the L2 stacks behind them (and a private L2 first with three levels),
//! with the hole rule of write-invalidate coherence and the classes of the misses.

use super::{owner_slot, L1Counts, L1Group, MultiHierarchy, NO_LINE};
use crate::exact::coherence::{coherence_kind, l1_miss_kind, shared_miss_kind, take_lost, Lost};
use rdcachesim::coherence::granule_mask;
use rdcachesim::CacheConfig;

impl MultiHierarchy {
    /// One read of `len` bytes at `addr` by core `core`.
    #[inline]
    pub fn access(&mut self, core: usize, addr: u64, len: u64) {
        self.access_rw(core, addr, len, false);
    }

    /// One access of `len` bytes at `addr` by core `core`, a write when `write`.
    ///
    /// **Write-invalidate** (MESI-style, as `measure`'s [`rdcachesim::CoherentHierarchy`]): a
    /// write by core `c` drops the line from every other core's private L1s after `c`'s own
    /// lookup; an upgrade (a write hit) is no miss; the shared L2 is never invalidated.
    ///
    /// **In stack-distance terms, exactly.** An invalidated line leaves the core's per-set LRU
    /// stack, so every line below it moves up a place. That alone would be wrong: an A-way
    /// cache that loses a line keeps A − 1 lines and does not get back the line it evicted
    /// earlier, which now sits at distance A − 1. So each cache also counts, per set, the
    /// *holes* invalidations left (`h`, refilled one per miss): it holds exactly the
    /// `A − h` most recent lines of the stack, and a reference hits iff its distance is below
    /// `A − h`. (By induction: an invalidation inside the top `A − h` removes one of them and
    /// adds a hole; one below changes neither; a hit reorders the top; a miss puts the line on
    /// top and fills a hole or evicts the line at `A`.) The stacks stay `depth` deep: a line
    /// below the depth is in no cache, and every cache holds at most as many lines as the
    /// stack keeps. With no write, `h = 0` everywhere and the counts are the old ones.
    ///
    /// **Classes** (configurations passed to [`classify`](Self::classify)): compulsory (the
    /// shadow never saw the line), coherence (the cache held the line when it was invalidated
    /// and this is the core's next reference to it; true sharing when the bytes touched overlap
    /// bytes other cores wrote since, by the granule masks of
    /// [`rdcachesim::coherence::granule_mask`]), capacity (the shadow, which sees the same
    /// references and invalidations, misses too), conflict (the rest).
    #[inline]
    pub fn access_rw(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        if core >= self.cores {
            self.add_cores(core + 1);
        }
        if self.single.is_some() {
            // The usual request (one L1, one L2): a repeat of the core's last line is an L1 hit
            // that moves nothing (a write only while the core holds the line alone), decided
            // in the caller's loop; the rest goes out of line.
            let g = &mut self.l1_groups[0];
            let first = addr >> g.shift;
            if g.last[core] == Some(first)
                && addr.saturating_add(len.max(1) - 1) >> g.shift == first
                && (!write
                    || g.exclusive[core]
                    || g.owner[owner_slot(first)] == (first, core as u32))
            {
                g.stacks[core].repeat_most_recent();
                let counts = &mut self.l1_counts[0];
                counts.references[core] += 1;
                counts.hits[core] += 1;
                return;
            }
            // A read where no coherence state and no shadow can be involved: the plain
            // set-stack steps, inline (the speed of the model before coherence).
            if !write
                && g.lost.is_empty()
                && g.exclusive_cores == 0
                && self.l1_counts[0].holes[core].is_empty()
                && self.l1_counts[0].shadow_lines.is_none()
            {
                self.read_single(core, addr, len);
                return;
            }
        }
        self.access_many(core, addr, len, write);
    }

    /// A read by `core` in the usual request (one L1, one L2) when the core's L1 has no holes,
    /// no core waits on a lost line or holds one exclusively, and no miss is classed: the steps
    /// of [`access_many`](Self::access_many) that remain then (no classes, no invalidation),
    /// without its loops over configurations.
    #[inline(always)]
    fn read_single(&mut self, core: usize, addr: u64, len: u64) {
        let last_byte = addr.saturating_add(len.max(1) - 1);
        let MultiHierarchy {
            l1,
            l2,
            l1_groups,
            l2_groups,
            l1_counts,
            l2_accesses,
            l2_hits,
            single,
            ..
        } = self;
        let Some(k) = *single else { return };
        let g = &mut l1_groups[0];
        let (ways1, ways2) = (l1[0].ways, l2[0].1.ways);
        let counts = &mut l1_counts[0];
        let u = &mut l2_groups[k];
        let (first, end) = (addr >> g.shift, last_byte >> g.shift);
        for line in first..=end {
            if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                continue;
            }
            let slot = owner_slot(line);
            if g.owner[slot].0 == line && g.owner[slot].1 as usize != core {
                // Another core's line: this core takes a copy.
                g.owner[slot].0 = NO_LINE;
            }
            g.last[core] = Some(line);
            counts.references[core] += 1;
            if g.stacks[core].access(line).is_some_and(|d| d < ways1) {
                counts.hits[core] += 1;
            } else {
                l2_accesses[0] += 1;
                if u.stack
                    .access((line << g.shift) >> u.shift)
                    .is_some_and(|d| d < ways2)
                {
                    l2_hits[0][core] += 1;
                }
            }
        }
    }

    /// [`access_rw`](Self::access_rw) for any set of configurations.
    #[inline(never)]
    fn access_many(&mut self, core: usize, addr: u64, len: u64, write: bool) {
        let hi = addr.saturating_add(len.max(1));
        let last_byte = hi - 1;
        let MultiHierarchy {
            l1,
            l2,
            l1_groups,
            l2_groups,
            l2_behind,
            l2_unfiltered,
            l1_counts,
            l2_accesses,
            l2_hits,
            l2_classes,
            cores,
            private,
            ..
        } = self;
        for (gi, g) in l1_groups.iter_mut().enumerate() {
            // L1 configuration 0, which a private L2 is behind, is the first group's first.
            let mut pl2 = private.as_mut().filter(|_| gi == 0);
            let (first, end) = (addr >> g.shift, last_byte >> g.shift);
            if first == end
                && g.last[core] == Some(first)
                && (!write
                    || g.exclusive[core]
                    || g.owner[owner_slot(first)] == (first, core as u32))
            {
                // A repeat of the core's last line: distance 0, a hit in every L1 of the
                // group (every cache has a way), so no L2 behind it is looked up.
                g.stacks[core].repeat_most_recent();
                for &i in &g.configs {
                    l1_counts[i].references[core] += 1;
                    l1_counts[i].hits[core] += 1;
                }
                continue;
            }
            let mut touched_last = None;
            for line in first..=end {
                // See: set sampling — a dropped set's lines (and the L2 sets they map to) are
                // not simulated at all.
                if g.sample.as_ref().is_some_and(|s| !s.keeps(line << g.shift)) {
                    continue;
                }
                touched_last = Some(line);
                let slot = owner_slot(line);
                let owned = match g.owner[slot] {
                    (l, c) if l == line && c as usize == core => true,
                    (l, _) if l == line => {
                        // Another core's line: this core takes a copy.
                        g.owner[slot].0 = NO_LINE;
                        false
                    }
                    _ => false,
                };
                let repeat = g.last[core] == Some(line);
                g.last[core] = Some(line);
                if g.exclusive_cores > 0 {
                    // This core takes a copy: no other core holds the line alone any more.
                    for c in 0..*cores {
                        if c != core && g.exclusive[c] && g.last[c] == Some(line) {
                            g.exclusive[c] = false;
                            g.exclusive_cores -= 1;
                        }
                    }
                }
                if repeat {
                    // The most recent line of the core's stack (a write to a line another core
                    // may hold): a hit everywhere, the shadows unchanged; only the
                    // invalidation below remains.
                    g.stacks[core].repeat_most_recent();
                    for &i in &g.configs {
                        l1_counts[i].references[core] += 1;
                        l1_counts[i].hits[core] += 1;
                    }
                } else {
                    let lost = if g.lost.is_empty() {
                        None
                    } else {
                        take_lost(&mut g.lost, line, core)
                    };
                    let touched = if lost.is_some() {
                        granule_mask(g.shift, line, addr, hi)
                    } else {
                        0
                    };
                    // See: set-aware stack distance — an A-way LRU set hits iff fewer than A
                    // distinct lines of the set were used since this line's previous use
                    // (A − holes after invalidations, see `access_rw`).
                    let d = g.stacks[core].access(line);
                    let set = g.stacks[core].set_of(line);
                    for (k, &i) in g.configs.iter().enumerate() {
                        let counts = &mut l1_counts[i];
                        counts.references[core] += 1;
                        let holes = counts.holes[core].get_mut(set);
                        let ways = l1[i].ways - holes.as_deref().copied().unwrap_or(0);
                        let shadow = counts.shadows.get_mut(core).map(|s| s.access(line));
                        if d.is_some_and(|d| d < ways) {
                            counts.hits[core] += 1;
                            continue;
                        }
                        if let Some(h) = holes {
                            *h = h.saturating_sub(1);
                        }
                        match shadow {
                            Some(r) => counts.kinds[core].count(l1_miss_kind(r, lost, k, touched)),
                            // Not classed: coherence misses are still counted (a line the cache
                            // held is never a first reference, so no shadow is needed).
                            None => {
                                if let Some(kind) = coherence_kind(lost, k, touched) {
                                    counts.kinds[core].count(kind);
                                }
                            }
                        }
                        // L1 miss: the shared L2 is looked up at its own line size.
                        let byte = line << g.shift;
                        if let Some(p) = pl2.as_deref_mut().filter(|_| i == 0) {
                            // Three levels: the core's private L2 first; only its misses go
                            // on to the shared level (the L3).
                            if p.access(core, byte, addr, hi) {
                                continue;
                            }
                        }
                        for &kk in &l2_behind[i] {
                            let u = &mut l2_groups[kk];
                            let l2_line = byte >> u.shift;
                            let d2 = u.stack.access(l2_line);
                            for &j in &u.requests {
                                l2_accesses[j] += 1;
                                let classes = &mut l2_classes[j];
                                let shadow = classes.shadow.as_mut().map(|s| s.access(l2_line));
                                if d2.is_some_and(|d| d < l2[j].1.ways) {
                                    l2_hits[j][core] += 1;
                                } else if let Some(r) = shadow {
                                    classes.kinds[core].count(shared_miss_kind(r));
                                }
                            }
                        }
                    }
                }
                if write && !owned {
                    let touched = granule_mask(g.shift, line, addr, hi);
                    invalidate_others(g, l1, l1_counts, core, line, touched);
                    let byte = line << g.shift;
                    if let Some(p) = pl2.as_deref_mut() {
                        // The other cores' private L2s lose the line too, held by their L1
                        // or not (as `CoherentHierarchy` invalidates every private level).
                        p.invalidate_others(core, byte, addr, hi);
                    }
                    if !g.lost.contains_key(&line)
                        && !pl2.as_ref().is_some_and(|p| p.waited_on(byte))
                    {
                        // No other core holds the line or waits on it: this core owns it.
                        g.owner[slot] = (line, core as u32);
                    }
                }
            }
            if let Some(line) = touched_last {
                // As `measure`: a write leaves the line exclusive unless a core waits on it.
                let now = write
                    && !g.lost.contains_key(&line)
                    && !pl2.as_ref().is_some_and(|p| p.waited_on(line << g.shift));
                if now != g.exclusive[core] {
                    g.exclusive[core] = now;
                    if now {
                        g.exclusive_cores += 1;
                    } else {
                        g.exclusive_cores -= 1;
                    }
                }
            }
        }
        for &k in l2_unfiltered.iter() {
            let u = &mut l2_groups[k];
            let (first, end) = (addr >> u.shift, last_byte >> u.shift);
            if first == end && u.last == Some(first) {
                // The shared stack's most recent line again: distance 0, a hit everywhere.
                u.stack.repeat_most_recent();
                for &j in &u.requests {
                    l2_accesses[j] += 1;
                    l2_hits[j][core] += 1;
                }
                continue;
            }
            for line in first..=end {
                if u.sample.as_ref().is_some_and(|s| !s.keeps(line << u.shift)) {
                    continue;
                }
                u.last = Some(line);
                let d = u.stack.access(line);
                for &j in &u.requests {
                    l2_accesses[j] += 1;
                    if d.is_some_and(|d| d < l2[j].1.ways) {
                        l2_hits[j][core] += 1;
                    }
                }
            }
        }
    }
}

/// A write by `core` to granules `touched` of `line` (of group `g`): every other core's stacks
/// lose the line; each cache of the group that held it (distance below `ways − holes`) gets a
/// hole in the line's set and its shadow drops the line, and the core a lost record naming
/// those caches; every lost record of the line learns the written granules.
fn invalidate_others(
    g: &mut L1Group,
    l1: &[CacheConfig],
    counts: &mut [L1Counts],
    core: usize,
    line: u64,
    touched: u64,
) {
    for d in 0..g.stacks.len() {
        if d == core {
            continue;
        }
        let Some(p) = g.stacks[d].remove(line) else {
            continue;
        };
        if g.last[d] == Some(line) {
            g.last[d] = None;
            if g.exclusive[d] {
                g.exclusive[d] = false;
                g.exclusive_cores -= 1;
            }
        }
        let set = g.stacks[d].set_of(line);
        let mut held = 0u64;
        for (k, &i) in g.configs.iter().enumerate() {
            let c = &mut counts[i];
            let holes = &mut c.holes[d];
            if p < l1[i].ways - holes.get(set).copied().unwrap_or(0) {
                if holes.is_empty() {
                    *holes = vec![0; g.sets as usize];
                }
                holes[set] += 1;
                held |= 1 << k;
                if let Some(s) = c.shadows.get_mut(d) {
                    s.invalidate(line);
                }
            }
        }
        if held != 0 {
            g.lost.entry(line).or_default().push(Lost {
                core: d as u32,
                written: 0,
                held,
            });
        }
    }
    if let Some(v) = g.lost.get_mut(&line) {
        for e in v.iter_mut().filter(|e| e.core as usize != core) {
            e.written |= touched;
        }
    }
}
