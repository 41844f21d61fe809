//! Exact set-associative LRU cache simulation: the ground truth that SASMM's predicted hit rates
//! are validated against.
//!
//! * [`CacheConfig`]: size, associativity and line size, parsed from `"8K:8:64"`.
//! * [`Cache`]: one write-allocate, true-LRU, set-associative cache (sets indexed by
//!   `line % sets`).
//! * [`Hierarchy`]: a private L1 per core and one shared L2.
//! * [`CoherentHierarchy`]: private L1s (and private L2s under a shared L3) kept coherent by
//!   write-invalidate, with every miss classed compulsory, capacity, conflict or coherence
//!   (true or false sharing); see [`coherence`](mod@coherence).
//! * [`SharingRecorder`]: who touched which bytes of the lines with coherence misses, and the
//!   padding that would stop false sharing on them; see [`sharing`](mod@sharing).
//! * [`naive::NaiveCache`]: a deliberately simple reference implementation used by the tests.
//!
//! **Inclusion policy.** The L2 is *non-inclusive, non-exclusive* (NINE): it is looked up only
//! on an L1 miss, it allocates the line on its own miss, and an L2 eviction does not invalidate
//! L1 copies. This is the usual choice for a reuse-distance ground truth because (a) it is what
//! Valgrind's cachegrind simulates (the reference tool of the SASMM paper), (b) the stack-distance
//! model (SASMM eq. 5-7) treats each level as an independent LRU cache over its reference stream
//! with no back-invalidation, and (c) it needs no coherence or victim bookkeeping, so the
//! simulator stays exact and easy to check. Writes are treated like reads (write-allocate, no
//! write-back traffic), again as in cachegrind. [`Hierarchy`] does not model coherence
//! invalidations between private L1s (SASMM does not model them either);
//! [`CoherentHierarchy`] does, for the measured ground truth of real threaded runs.
//!
//! Architecture invariant: this crate does no IO (except [`machine::Machine::from_sysfs`], which
//! reads a machine's cache description) and knows nothing of traces or LLVM; callers feed it
//! addresses.

pub mod coherence;
/// Real machines' hierarchies: this machine's from `/sys` (the crate's only IO) and named presets.
pub mod machine;
pub mod naive;
pub mod sharing;

mod cache;
mod config;
mod fa_shadow;
mod hierarchy;

pub use cache::{Cache, LevelStats};
pub use coherence::{
    CacheCounts, CoherentHierarchy, CoherentStats, LineOutcome, MissKind, MissKinds, Sharing,
};
pub use config::CacheConfig;
pub use fa_shadow::{FaShadow, LineHasher, LineMap, ShadowResult};
pub use hierarchy::{Hierarchy, HierarchyStats, Served};
pub use sharing::{SharingConfig, SharingRecorder, SharingReport};

/// Errors of this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CacheSimError {
    /// A cache specification did not parse.
    #[error("bad cache specification `{spec}`: {why} (expected SIZE:WAYS:LINE, e.g. 8K:8:64)")]
    BadSpec {
        /// The text given.
        spec: String,
        /// What is wrong with it.
        why: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::naive::NaiveCache;
    use proptest::prelude::*;

    #[test]
    fn parse_accepts_suffixes_and_full() {
        let c = CacheConfig::parse("8K:8:64").unwrap();
        assert_eq!((c.size, c.ways, c.line), (8192, 8, 64));
        assert_eq!((c.lines(), c.sets(), c.line_shift()), (128, 16, 6));
        assert_eq!(CacheConfig::parse("1M:16:64").unwrap().size, 1 << 20);
        let f = CacheConfig::parse("4K:full:64").unwrap();
        assert_eq!((f.ways, f.sets()), (64, 1));
        assert_eq!(CacheConfig::parse("512:1:32").unwrap().sets(), 16);
        assert_eq!(c.to_string(), "8K:8:64");
        assert_eq!(
            "128K:16:64".parse::<CacheConfig>().unwrap(),
            CacheConfig::paper_l2()
        );
    }

    #[test]
    fn parse_rejects_bad_specs() {
        for bad in [
            "",
            "8K:8",
            "8K:8:64:1",
            "8Q:8:64",
            "8K:0:64",
            "8K:8:48",
            "1000:8:64",
            "0:1:64",
        ] {
            assert!(CacheConfig::parse(bad).is_err(), "{bad} should not parse");
        }
        let msg = CacheConfig::parse("8K:8:48").unwrap_err().to_string();
        assert!(msg.contains("power of two"), "{msg}");
    }

    #[test]
    fn two_way_lru_by_hand() {
        // 2 sets × 2 ways, 1-byte lines: lines 0,2,4 map to set 0.
        let mut c = Cache::new(CacheConfig::new(4, 2, 1).unwrap());
        let hits: Vec<bool> = [0, 2, 0, 4, 2, 0, 1, 1]
            .iter()
            .map(|&l| c.access_line(l))
            .collect();
        // 0 miss, 2 miss, 0 hit (order 0,2), 4 miss evicts 2 (order 4,0), 2 miss evicts 0,
        // 0 miss, 1 miss (set 1), 1 hit.
        assert_eq!(hits, [false, false, true, false, false, false, false, true]);
        assert_eq!(
            c.stats(),
            LevelStats {
                accesses: 8,
                hits: 2
            }
        );
        assert!(c.contains_line(2) && c.contains_line(0) && !c.contains_line(4));
    }

    #[test]
    fn accesses_split_at_line_boundaries() {
        let mut c = Cache::new(CacheConfig::parse("1K:2:64").unwrap());
        // 16 bytes at 56 touch lines 0 and 1.
        assert_eq!(c.access(56, 16), 0);
        assert_eq!(c.stats().accesses, 2);
        assert_eq!(c.access(0, 128), 2);
    }

    #[test]
    fn hierarchy_is_private_l1_shared_l2() {
        let l1 = CacheConfig::new(128, 2, 64).unwrap(); // 2 lines, one set
        let l2 = CacheConfig::new(1024, 16, 64).unwrap();
        let mut h = Hierarchy::new(l1, l2, 2);
        let mut log = Vec::new();
        h.access_with(0, 0, 8, |s| log.push(s)); // memory
        h.access_with(1, 0, 8, |s| log.push(s)); // core 1's L1 misses, shared L2 hits
        h.access_with(0, 0, 8, |s| log.push(s)); // core 0's L1 hits
        assert_eq!(log, [Served::Memory, Served::L2, Served::L1]);
        let s = h.stats();
        assert_eq!(
            s.l1[0],
            LevelStats {
                accesses: 2,
                hits: 1
            }
        );
        assert_eq!(
            s.l1[1],
            LevelStats {
                accesses: 1,
                hits: 0
            }
        );
        assert_eq!(
            s.l2,
            LevelStats {
                accesses: 2,
                hits: 1
            }
        );
        assert_eq!(s.references(), 3);
        assert!((s.l2_global_hit_rate() - 2.0 / 3.0).abs() < 1e-12);
        assert!((s.l2_local_hit_rate() - 0.5).abs() < 1e-12);
    }

    #[test]
    fn l2_is_not_inclusive() {
        // L2 with one line: evicting a line from L2 leaves the L1 copy valid.
        let l1 = CacheConfig::new(256, 4, 64).unwrap();
        let l2 = CacheConfig::new(64, 1, 64).unwrap();
        let mut h = Hierarchy::new(l1, l2, 1);
        h.access(0, 0, 1);
        h.access(0, 64, 1); // evicts line 0 from L2
        let mut log = Vec::new();
        h.access_with(0, 0, 1, |s| log.push(s));
        assert_eq!(log, [Served::L1]);
    }

    fn geometry() -> impl Strategy<Value = CacheConfig> {
        (0u32..4, 0u32..4, 0u32..3).prop_map(|(s, w, l)| {
            let ways = 1 << w;
            let line = 1 << l;
            CacheConfig::new((1u64 << s) * ways as u64 * line as u64, ways, line).unwrap()
        })
    }

    proptest! {
        #[test]
        fn matches_naive_simulator(cfg in geometry(), addrs in prop::collection::vec(0u64..96, 0..400)) {
            let mut fast = Cache::new(cfg);
            let mut slow = NaiveCache::new(cfg);
            for a in addrs {
                let line = a >> cfg.line_shift();
                prop_assert_eq!(fast.access_line(line), slow.access_line(line));
            }
            prop_assert_eq!(fast.stats(), slow.stats());
        }
    }

    #[test]
    fn matches_naive_on_long_random_stream() {
        // A cheap LCG so the test needs no RNG crate.
        let mut x = 12345u64;
        for spec in ["8K:8:64", "2K:1:32", "4K:full:64", "6K:3:64"] {
            let cfg = CacheConfig::parse(spec).unwrap();
            let mut fast = Cache::new(cfg);
            let mut slow = NaiveCache::new(cfg);
            for _ in 0..50_000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let addr = (x >> 33) % 40_000;
                assert_eq!(fast.access(addr, 8), slow.access(addr, 8), "{spec}");
            }
            assert_eq!(fast.stats(), slow.stats(), "{spec}");
        }
    }
}

#[cfg(test)]
mod coherence_tests;
