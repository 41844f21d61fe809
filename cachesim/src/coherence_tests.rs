//! Tests of [`crate::CoherentHierarchy`]: small traces with counts derived by hand, and a
//! property test against a naive write-invalidate model written here from the definitions.

use crate::{
    CacheConfig, CacheCounts, CoherentHierarchy, Hierarchy, LineOutcome, MissKind, MissKinds,
    Served, Sharing,
};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

fn cfg(spec: &str) -> CacheConfig {
    CacheConfig::parse(spec).unwrap()
}

/// Two cores alternately write `rounds` times each: core 0 bytes `a..a+8`, core 1 bytes
/// `b..b+8` of one 64-byte line. Returns both L1s' counts.
fn ping_pong(a: u64, b: u64, rounds: u64) -> Vec<CacheCounts> {
    let mut h = CoherentHierarchy::new(cfg("32K:8:64"), cfg("256K:16:64"), None);
    for _ in 0..rounds {
        h.access(0, a, 8, true);
        h.access(1, b, 8, true);
    }
    h.stats().l1
}

#[test]
fn different_bytes_of_one_line_are_false_sharing() {
    // Each core's first write is compulsory; every later write finds the line taken by the
    // other core's write, which touched other bytes: rounds − 1 false-sharing misses each.
    let l1 = ping_pong(0, 8, 100);
    for c in &l1 {
        assert_eq!(c.stats.accesses, 100);
        assert_eq!(c.stats.hits, 0);
        assert_eq!(
            c.misses,
            MissKinds {
                compulsory: 1,
                coherence: 99,
                false_sharing: 99,
                ..Default::default()
            }
        );
    }
}

#[test]
fn the_same_bytes_are_true_sharing() {
    let l1 = ping_pong(16, 20, 100); // 16..24 and 20..28 overlap
    for c in &l1 {
        assert_eq!(c.misses.compulsory, 1);
        assert_eq!((c.misses.true_sharing, c.misses.false_sharing), (99, 0));
    }
}

#[test]
fn reads_alone_never_invalidate() {
    let mut h = CoherentHierarchy::new(cfg("32K:8:64"), cfg("256K:16:64"), None);
    for _ in 0..50 {
        h.access(0, 0, 8, false);
        h.access(1, 8, 8, false);
    }
    let s = h.stats();
    for c in &s.l1 {
        assert_eq!(
            (c.stats.hits, c.misses.compulsory, c.misses.coherence),
            (49, 1, 0)
        );
    }
    assert_eq!(h.lost_records(), 0);
}

#[test]
fn a_reader_after_a_writer_sees_true_or_false_sharing_by_bytes() {
    let mut h = CoherentHierarchy::new(cfg("32K:8:64"), cfg("256K:16:64"), None);
    let mut log = Vec::new();
    h.access(1, 0, 64, false); // core 1 holds the line
    h.access(0, 0, 4, true); // core 0 writes bytes 0..4: core 1 loses it
    h.access_with(1, 32, 4, false, |o| log.push(o)); // other bytes: false sharing
    h.access(0, 0, 4, true); // core 0 writes again: core 1 loses it again
    h.access_with(1, 2, 1, false, |o| log.push(o)); // byte 2 was written: true sharing
    h.access_with(1, 2, 1, false, |o| log.push(o)); // then a plain hit
    assert_eq!(
        log,
        [
            LineOutcome {
                served: Served::L2,
                l1_miss: Some(MissKind::Coherence(Sharing::False))
            },
            LineOutcome {
                served: Served::L2,
                l1_miss: Some(MissKind::Coherence(Sharing::True))
            },
            LineOutcome {
                served: Served::L1,
                l1_miss: None
            },
        ]
    );
    // The writer's second write found core 1 holding a copy again, but its own copy stayed
    // valid: a hit (an upgrade is not a miss).
    assert_eq!(h.stats().l1[0].stats.hits, 1);
    // Core 1 fetched the line back: no lost record is left (the state stays bounded).
    assert_eq!(h.lost_records(), 0);
}

#[test]
fn written_bytes_accumulate_until_the_loser_returns() {
    // Core 1 loses the line to core 0's write of byte 0, then core 0 writes byte 40 on its
    // exclusive fast path: core 1's later read of byte 40 is true sharing.
    let mut h = CoherentHierarchy::new(cfg("32K:8:64"), cfg("256K:16:64"), None);
    h.access(1, 0, 64, false);
    h.access(0, 0, 1, true);
    h.access(0, 40, 1, true);
    let mut log = Vec::new();
    h.access_with(1, 40, 1, false, |o| log.push(o.l1_miss));
    assert_eq!(log, [Some(MissKind::Coherence(Sharing::True))]);
}

#[test]
fn three_c_by_hand() {
    // Direct-mapped, 2 sets of one 64-byte line: lines 0 and 2 share set 0.
    let l1 = CacheConfig::new(128, 1, 64).unwrap();
    let mut h = CoherentHierarchy::new(l1, cfg("64K:16:64"), None);
    let mut log = Vec::new();
    for line in [0u64, 2, 0, 1, 3, 2] {
        h.access_with(0, line * 64, 1, false, |o| log.push(o.l1_miss));
    }
    use MissKind::*;
    // 0, 2: first references. 0 again: a 2-line fully associative cache holds {0, 2}: conflict.
    // 1, 3: first (set 1). 2: set 0 holds 0, and the fully associative cache holds {1, 3}:
    // capacity.
    assert_eq!(
        log,
        [
            Some(Compulsory),
            Some(Compulsory),
            Some(Conflict),
            Some(Compulsory),
            Some(Compulsory),
            Some(Capacity)
        ]
    );
    let s = h.stats();
    assert_eq!(s.l1[0].misses.total(), s.l1[0].stats.misses());
    // The L2 saw the 6 misses: lines 0, 2, 1, 3 first, then 0 and 2 again as hits.
    assert_eq!(
        (
            s.shared.stats.accesses,
            s.shared.stats.hits,
            s.shared.misses.compulsory
        ),
        (6, 2, 4)
    );
}

#[test]
fn three_levels_invalidate_the_private_l2_too() {
    let mut h = CoherentHierarchy::new(cfg("1K:2:64"), cfg("8K:4:64"), Some(cfg("64K:16:64")));
    let mut log = Vec::new();
    h.access_with(0, 0, 8, false, |o| log.push(o)); // memory
    h.access(1, 8, 8, true); // core 1 writes other bytes: core 0 loses L1 and L2 copies
    h.access_with(0, 0, 8, false, |o| log.push(o)); // misses L1 and L2, the L3 has it
    let false_sharing = Some(MissKind::Coherence(Sharing::False));
    assert_eq!(
        log,
        [
            LineOutcome {
                served: Served::Memory,
                l1_miss: Some(MissKind::Compulsory)
            },
            LineOutcome {
                served: Served::L3,
                l1_miss: false_sharing
            }
        ]
    );
    let s = h.stats();
    assert_eq!(s.l2_private.len(), 2);
    assert_eq!(s.l2_private[0].misses.false_sharing, 1);
    assert_eq!(s.l2_private[0].misses.compulsory, 1);
    // The shared L3: core 0's line (memory), core 1's miss (hit), core 0's miss (hit).
    assert_eq!((s.shared.stats.accesses, s.shared.stats.hits), (3, 2));
    assert_eq!(s.shared.misses.coherence, 0);
}

#[test]
fn without_writes_it_is_the_plain_hierarchy() {
    let (l1, l2) = (cfg("1K:2:64"), cfg("4K:4:64"));
    let mut plain = Hierarchy::new(l1, l2, 0);
    let mut coherent = CoherentHierarchy::new(l1, l2, None);
    let mut x = 7u64;
    for _ in 0..20_000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (core, addr) = ((x >> 60) as usize % 3, (x >> 20) % 20_000);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        plain.access_with(core, addr, 8, |s| a.push(s));
        coherent.access_with(core, addr, 8, false, |o| b.push(o.served));
        assert_eq!(a, b);
    }
    let (p, c) = (plain.stats(), coherent.stats());
    assert_eq!(p.l2, c.shared.stats);
    for (p, c) in p.l1.iter().zip(&c.l1) {
        assert_eq!(*p, c.stats);
    }
}

/// A timestamp-LRU set-associative cache that can drop lines.
struct NaiveSets {
    cfg: CacheConfig,
    sets: HashMap<u64, Vec<(u64, u64)>>,
    now: u64,
}

impl NaiveSets {
    fn new(cfg: CacheConfig) -> Self {
        NaiveSets {
            cfg,
            sets: HashMap::new(),
            now: 0,
        }
    }
    fn access(&mut self, line: u64) -> bool {
        self.now += 1;
        let set = self.sets.entry(line % self.cfg.sets()).or_default();
        if let Some(e) = set.iter_mut().find(|e| e.0 == line) {
            e.1 = self.now;
            return true;
        }
        if set.len() == self.cfg.ways as usize {
            let oldest = (0..set.len()).min_by_key(|&i| set[i].1).unwrap();
            set.remove(oldest);
        }
        set.push((line, self.now));
        false
    }
    fn remove(&mut self, line: u64) -> bool {
        let set = self.sets.entry(line % self.cfg.sets()).or_default();
        let n = set.len();
        set.retain(|e| e.0 != line);
        set.len() != n
    }
}

/// One naive cache with its fully associative twin and the lines it has seen.
struct NaiveTracked {
    sa: NaiveSets,
    fa: NaiveSets,
    seen: HashSet<u64>,
    counts: CacheCounts,
}

impl NaiveTracked {
    fn new(c: CacheConfig) -> Self {
        let full = CacheConfig::new(c.size, c.lines() as u32, c.line).unwrap();
        NaiveTracked {
            sa: NaiveSets::new(c),
            fa: NaiveSets::new(full),
            seen: HashSet::new(),
            counts: CacheCounts::default(),
        }
    }

    /// The definitions, in order: compulsory, coherence (a lost record), capacity, conflict.
    fn lookup(
        &mut self,
        line: u64,
        lost: &mut HashMap<(usize, u64), u64>,
        core: usize,
        touched: u64,
    ) -> Option<MissKind> {
        self.counts.stats.accesses += 1;
        let hit = self.sa.access(line);
        let fa_hit = self.fa.access(line);
        let first = self.seen.insert(line);
        if hit {
            self.counts.stats.hits += 1;
            return None;
        }
        let k = if first {
            MissKind::Compulsory
        } else if let Some(w) = lost.remove(&(core, line)) {
            MissKind::Coherence(if w & touched != 0 {
                Sharing::True
            } else {
                Sharing::False
            })
        } else if !fa_hit {
            MissKind::Capacity
        } else {
            MissKind::Conflict
        };
        self.counts.misses.count(k);
        Some(k)
    }

    fn drop_line(&mut self, line: u64) -> bool {
        if self.sa.remove(line) {
            self.fa.remove(line);
            true
        } else {
            false
        }
    }
}

/// Granule mask of bytes `lo..hi` in `line`, byte by byte.
fn naive_mask(c: CacheConfig, line: u64, lo: u64, hi: u64) -> u64 {
    let granule = (c.line as u64 / 64).max(1);
    let base = line * c.line as u64;
    (lo..hi)
        .filter(|b| (base..base + c.line as u64).contains(b))
        .fold(0, |m, b| m | 1 << ((b - base) / granule))
}

struct NaiveModel {
    l1c: CacheConfig,
    l2c: CacheConfig,
    l3c: Option<CacheConfig>,
    l1: Vec<NaiveTracked>,
    l2: Vec<NaiveTracked>,
    shared: NaiveTracked,
    lost1: HashMap<(usize, u64), u64>,
    lost2: HashMap<(usize, u64), u64>,
}

impl NaiveModel {
    fn new(l1c: CacheConfig, l2c: CacheConfig, l3c: Option<CacheConfig>, cores: usize) -> Self {
        NaiveModel {
            l1c,
            l2c,
            l3c,
            l1: (0..cores).map(|_| NaiveTracked::new(l1c)).collect(),
            l2: (0..if l3c.is_some() { cores } else { 0 })
                .map(|_| NaiveTracked::new(l2c))
                .collect(),
            shared: NaiveTracked::new(l3c.unwrap_or(l2c)),
            lost1: HashMap::new(),
            lost2: HashMap::new(),
        }
    }

    fn access(&mut self, core: usize, addr: u64, len: u64, write: bool) -> Vec<LineOutcome> {
        let hi = addr + len.max(1);
        let (l1c, l2c) = (self.l1c, self.l2c);
        let mut out = Vec::new();
        for line in addr / l1c.line as u64..=(hi - 1) / l1c.line as u64 {
            let base = line * l1c.line as u64;
            let (lo, end) = (addr.max(base), hi.min(base + l1c.line as u64));
            let l2_line = base / l2c.line as u64;
            let k1 =
                self.l1[core].lookup(line, &mut self.lost1, core, naive_mask(l1c, line, lo, end));
            let served = if k1.is_none() {
                Served::L1
            } else if let Some(l3c) = self.l3c {
                let t2 = naive_mask(l2c, l2_line, lo, end);
                if self.l2[core]
                    .lookup(l2_line, &mut self.lost2, core, t2)
                    .is_none()
                {
                    Served::L2
                } else if self
                    .shared
                    .lookup(base / l3c.line as u64, &mut HashMap::new(), core, 0)
                    .is_none()
                {
                    Served::L3
                } else {
                    Served::Memory
                }
            } else if self
                .shared
                .lookup(l2_line, &mut HashMap::new(), core, 0)
                .is_none()
            {
                Served::L2
            } else {
                Served::Memory
            };
            if write {
                for d in (0..self.l1.len()).filter(|&d| d != core) {
                    if self.l1[d].drop_line(line) {
                        self.lost1.insert((d, line), 0);
                    }
                    if self.l3c.is_some() && self.l2[d].drop_line(l2_line) {
                        self.lost2.insert((d, l2_line), 0);
                    }
                }
                for ((d, l), w) in self.lost1.iter_mut() {
                    if *d != core && *l == line {
                        *w |= naive_mask(l1c, line, lo, end);
                    }
                }
                for ((d, l), w) in self.lost2.iter_mut() {
                    if *d != core && *l == l2_line {
                        *w |= naive_mask(l2c, l2_line, lo, end);
                    }
                }
            }
            out.push(LineOutcome {
                served,
                l1_miss: k1,
            });
        }
        out
    }
}

fn geometry(max_sets: u32, max_ways: u32) -> impl Strategy<Value = (u32, u32)> {
    (0..=max_sets, 0..=max_ways).prop_map(|(s, w)| (1 << s, 1 << w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn matches_the_naive_write_invalidate_model(
        three in any::<bool>(),
        line_pow in 4u32..=7,
        g1 in geometry(2, 2),
        g2 in geometry(3, 2),
        g3 in geometry(3, 3),
        cores in 1usize..=4,
        ops in prop::collection::vec((0usize..4, 0u64..768, 1u64..24, any::<bool>()), 0..300),
    ) {
        let line = 1u32 << line_pow;
        let mk = |(sets, ways): (u32, u32)| {
            CacheConfig::new(sets as u64 * ways as u64 * line as u64, ways, line).unwrap()
        };
        let (l1, l2, l3) = (mk(g1), mk(g2), if three { Some(mk(g3)) } else { None });
        let mut fast = CoherentHierarchy::new(l1, l2, l3);
        let mut slow = NaiveModel::new(l1, l2, l3, cores);
        for (core, addr, len, write) in ops {
            let core = core % cores;
            let want = slow.access(core, addr, len, write);
            let s1 = l1.line_shift();
            let first = addr >> s1;
            if first == (addr + len - 1) >> s1 && fast.try_repeat(core, first, write) {
                // The fast path claims an L1 hit: the model must agree.
                prop_assert_eq!(want, vec![LineOutcome { served: Served::L1, l1_miss: None }]);
                continue;
            }
            let mut got = Vec::new();
            fast.access_with(core, addr, len, write, |o| got.push(o));
            prop_assert_eq!(got, want);
        }
        let s = fast.stats();
        for c in 0..s.l1.len() {
            prop_assert_eq!(s.l1[c], slow.l1[c].counts);
            prop_assert_eq!(s.l1[c].misses.total(), s.l1[c].stats.misses());
            if three {
                prop_assert_eq!(s.l2_private[c], slow.l2[c].counts);
                prop_assert_eq!(s.l2_private[c].misses.total(), s.l2_private[c].stats.misses());
            }
        }
        prop_assert_eq!(s.shared, slow.shared.counts);
        prop_assert_eq!(s.shared.misses.total(), s.shared.stats.misses());
    }
}

/// Granule masks by hand: 64-byte lines have one-byte granules, 128-byte lines two-byte ones;
/// the last line of the address space (a corrupt trace's address, issue 10's mutants) gives its
/// mask without overflowing.
#[test]
fn granule_masks_cover_the_touched_bytes_up_to_the_top_of_memory() {
    use crate::coherence::granule_mask;
    assert_eq!(granule_mask(6, 1, 64, 72), 0xff);
    assert_eq!(granule_mask(6, 1, 60, 66), 0b11);
    assert_eq!(granule_mask(7, 1, 128 + 4, 128 + 8), 0b1100);
    let top = u64::MAX >> 6;
    assert_eq!(granule_mask(6, top, u64::MAX - 7, u64::MAX), 0x7f << 56);
    assert_eq!(granule_mask(6, top, u64::MAX, u64::MAX), 1 << 63);
    let mut h = CoherentHierarchy::new(cfg("32K:8:64"), cfg("256K:16:128"), None);
    h.access(0, u64::MAX - 7, 8, true);
    h.access(1, u64::MAX - 15, 8, true);
    h.access(0, u64::MAX - 7, 8, false);
}
