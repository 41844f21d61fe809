//! The annotator against a naive oracle: timestamp LRU caches ([`rdcachesim::naive`]) and a
//! reuse distance found by scanning the reference history backwards.

use super::*;
use proptest::prelude::*;
use rdcachesim::naive::NaiveCache;
use rdcachesim::sharing::PadElements;
use rdtrace::meta::{AccessKind, FunctionMeta, MemInstrMeta, MetaTables, SourceLoc, VarClass};
use std::collections::{BTreeMap, HashSet};

/// Two functions; `f` has instructions 0 and 1 on line 10 and instruction 2 on line 11, `g` has
/// instruction 3 on line 20 of another file.
fn meta() -> ProgramMeta {
    use rdtrace::testing::{block, function, mem_instr};
    let func = |name: &str, first_block| FunctionMeta {
        loc: Some(SourceLoc {
            file: 0,
            line: 1,
            col: 1,
        }),
        ..function(name, first_block, 1)
    };
    let mi = |block, file, line| MemInstrMeta {
        loc: Some(SourceLoc { file, line, col: 3 }),
        ..mem_instr(block, AccessKind::Load, VarClass::Shared)
    };
    ProgramMeta {
        modules: vec![],
        tables: MetaTables {
            files: vec!["a.c".into(), "b.c".into()],
            functions: vec![func("f", 0), func("g", 1)],
            blocks: vec![block(0, "entry"), block(1, "entry")],
            mem_instrs: vec![mi(0, 0, 10), mi(0, 0, 10), mi(0, 0, 11), mi(1, 1, 20)],
            ..Default::default()
        },
    }
}

fn line_key(m: &ProgramMeta, mi: u32) -> (String, u32) {
    let l = m.mem_instrs[mi as usize].loc.unwrap();
    (m.files[l.file as usize].clone(), l.line)
}

#[derive(Default, Debug, PartialEq)]
struct Oracle {
    accesses: u64,
    references: u64,
    cold: u64,
    l1: u64,
    l2: u64,
    distances: Vec<u64>,
}

fn small_caches() -> AnnotateConfig {
    AnnotateConfig {
        l1: CacheConfig::new(256, 2, 32).unwrap(),
        l2: CacheConfig::new(1024, 4, 32).unwrap(),
        false_sharing: None,
    }
}

proptest! {
    /// Per line: accesses, references, cold, L1/L2 misses and the exact percentiles equal those
    /// of the naive replay; the totals equal the sum over lines.
    #[test]
    fn per_line_counts_match_naive_replay(
        events in prop::collection::vec((0usize..3, 0u32..5, 0u64..2048, 1u64..48), 1..400),
    ) {
        let m = meta();
        let cfg = small_caches();
        let mut a = Annotator::new(&m, cfg).unwrap();
        let mut l1: Vec<NaiveCache> = (0..3).map(|_| NaiveCache::new(cfg.l1)).collect();
        let mut l2 = NaiveCache::new(cfg.l2);
        let mut history: Vec<u64> = Vec::new();
        let mut oracle: BTreeMap<(String, u32), Oracle> = BTreeMap::new();
        for &(core, mi, addr, len) in &events {
            a.access(core, mi, addr, len);
            // Instruction 4 is outside the metadata: it is charged to `?:0`.
            let key = if (mi as usize) < m.mem_instrs.len() { line_key(&m, mi) } else { ("?".into(), 0) };
            let o = oracle.entry(key).or_default();
            o.accesses += 1;
            cfg.l1.for_each_line(addr, len, |line| {
                o.references += 1;
                match history.iter().rposition(|&x| x == line) {
                    None => o.cold += 1,
                    Some(p) => {
                        let distinct: HashSet<u64> = history[p + 1..].iter().copied().collect();
                        o.distances.push(distinct.len() as u64);
                    }
                }
                history.push(line);
                if !l1[core].access_line(line) {
                    o.l1 += 1;
                    if !l2.access_line(line) {
                        o.l2 += 1;
                    }
                }
            });
        }
        let r = a.finish(&[0, 1, 2]);
        let mut sum = Counts::default();
        prop_assert_eq!(r.lines.len(), oracle.len());
        for l in &r.lines {
            let o = &oracle[&(l.file.clone(), l.line)];
            prop_assert_eq!(l.counts.accesses, o.accesses);
            prop_assert_eq!(l.counts.references, o.references);
            prop_assert_eq!(l.counts.cold, o.cold);
            prop_assert_eq!(l.counts.l1_misses, o.l1);
            prop_assert_eq!(l.counts.l2_misses, o.l2);
            let mut d = o.distances.clone();
            d.sort();
            for p in [50.0, 90.0, 100.0] {
                let want = if d.is_empty() { None } else {
                    let rank = ((p / 100.0) * d.len() as f64).ceil().max(1.0) as usize;
                    Some(d[rank - 1])
                };
                prop_assert_eq!(l.counts.percentile(p), want);
            }
            sum.merge(&l.counts);
        }
        prop_assert_eq!(&sum, &r.total);
        // Sorted by L1 misses, then L2 misses.
        for w in r.lines.windows(2) {
            prop_assert!((w[0].counts.l1_misses, w[0].counts.l2_misses) >= (w[1].counts.l1_misses, w[1].counts.l2_misses));
        }
        // Functions partition the same totals.
        let mut fsum = Counts::default();
        for f in &r.functions { fsum.merge(&f.counts); }
        prop_assert_eq!(&fsum, &r.total);
        prop_assert_eq!(r.histogram.total(), r.total.references);
        prop_assert_eq!(r.histogram.cold, r.total.cold);
    }
}

#[test]
fn lines_of_one_function_roll_up_to_it() {
    // f: instruction 0 (line 10) reads lines 0 and 1 (a 16-byte access at 24 with 32-byte
    // lines spans bytes 24..39), instruction 2 (line 11) re-reads line 0: 3 references, 2 cold,
    // one reuse at distance 1 (line 1 touched in between). g: instruction 3 reads line 0
    // right after instruction 2 did: distance 0, an L1 hit.
    let m = meta();
    let mut a = Annotator::new(&m, small_caches()).unwrap();
    a.access(0, 0, 24, 16);
    a.access(0, 2, 0, 8);
    a.access(0, 3, 8, 8);
    let r = a.finish(&[0]);
    let f = r.functions.iter().find(|f| f.name == "f").unwrap();
    assert_eq!(
        (f.counts.accesses, f.counts.references, f.counts.cold),
        (2, 3, 2)
    );
    assert_eq!(f.counts.percentile(50.0), Some(1));
    let g = r.functions.iter().find(|f| f.name == "g").unwrap();
    assert_eq!(
        (g.counts.accesses, g.counts.cold, g.counts.l1_misses),
        (1, 0, 0)
    );
    assert_eq!(g.counts.percentile(100.0), Some(0));
    let l10 = r.lines.iter().find(|l| l.line == 10).unwrap();
    assert_eq!(l10.functions, vec!["f".to_string()]);
    assert_eq!(l10.mem_instrs, vec![0, 1]);
    assert_eq!(l10.counts.l1_misses, 2);
}

#[test]
fn different_line_sizes_are_refused() {
    let cfg = AnnotateConfig {
        l1: CacheConfig::new(256, 2, 32).unwrap(),
        l2: CacheConfig::new(1024, 4, 64).unwrap(),
        false_sharing: None,
    };
    assert!(matches!(
        Annotator::new(&meta(), cfg),
        Err(AnnotateError::LineSizes { l1: 32, l2: 64 })
    ));
}

#[test]
fn only_functions_that_executed_are_listed() {
    // Instruction 4 belongs to a third function `never` and sits on line 10 of a.c, beside f's
    // instructions 0 and 1 (an inlined header function does this: every function that inlined
    // it has instructions on its lines). `never` never runs: line 10 names f alone, and the
    // function table has no row for `never` (nor for g, which did not run either).
    let mut m = meta();
    m.tables
        .functions
        .push(rdtrace::testing::function("never", 2, 1));
    m.tables.blocks.push(rdtrace::testing::block(2, "entry"));
    let mut extra = m.tables.mem_instrs[0].clone();
    extra.block = 2;
    m.tables.mem_instrs.push(extra);
    let mut a = Annotator::new(&m, small_caches()).unwrap();
    a.access(0, 0, 0, 8);
    a.access(0, 1, 64, 8);
    let r = a.finish(&[0]);
    let l10 = r.lines.iter().find(|l| l.line == 10).unwrap();
    assert_eq!(l10.functions, vec!["f".to_string()]);
    let names: Vec<&str> = r.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, ["f"]);

    // Once `never` runs line 10 too, the line names both, in metadata order.
    let mut a = Annotator::new(&m, small_caches()).unwrap();
    a.access(0, 4, 0, 8);
    a.access(0, 0, 0, 8);
    let r = a.finish(&[0]);
    let l10 = r.lines.iter().find(|l| l.line == 10).unwrap();
    assert_eq!(l10.functions, vec!["f".to_string(), "never".to_string()]);
}

/// [`meta`] with instruction 1 a store and instruction 3 an atomic read-modify-write.
fn meta_with_writes() -> ProgramMeta {
    let mut m = meta();
    m.tables.mem_instrs[1].kind = AccessKind::Store;
    m.tables.mem_instrs[3].kind = AccessKind::AtomicRmw;
    m
}

proptest! {
    /// With writes: every line's and function's L1 misses split exactly into the four Cs, the
    /// totals equal a `CoherentHierarchy` fed the same accesses, and the false-sharing view's
    /// lines hold all the coherence misses (nothing dropped at this size).
    #[test]
    fn the_miss_split_adds_up_and_equals_the_coherent_hierarchy(
        events in prop::collection::vec((0usize..3, 0u32..5, 0u64..2048, 1u64..48), 1..400),
    ) {
        let m = meta_with_writes();
        let cfg = AnnotateConfig { false_sharing: Some(rdcachesim::SharingConfig::default()), ..small_caches() };
        let mut a = Annotator::new(&m, cfg).unwrap();
        let mut h = CoherentHierarchy::new(cfg.l1, cfg.l2, None);
        for &(core, mi, addr, len) in &events {
            a.access(core, mi, addr, len);
            let write = m.mem_instrs.get(mi as usize).is_some_and(|x| x.kind.writes());
            h.access(core, addr, len, write);
        }
        let r = a.finish(&[0, 1, 2]);
        let split = |c: &Counts| c.l1_kinds.total() == c.l1_misses
            && c.l1_kinds.coherence == c.l1_kinds.true_sharing + c.l1_kinds.false_sharing;
        prop_assert!(r.lines.iter().all(|l| split(&l.counts)));
        prop_assert!(r.functions.iter().all(|f| split(&f.counts)));
        prop_assert!(split(&r.total));
        let mut want = MissKinds::default();
        for c in &h.stats().l1 {
            want.add(&c.misses);
        }
        prop_assert_eq!(r.total.l1_kinds, want);
        let fs = r.false_sharing.unwrap();
        prop_assert_eq!(fs.dropped_misses, 0);
        prop_assert_eq!(fs.coherence, want.coherence);
        let per_line: u64 = fs.lines.iter().map(|l| l.true_sharing).sum();
        prop_assert_eq!(per_line, want.true_sharing);
        let per_source: u64 = fs.sources.iter().map(|s| s.coherence).sum();
        prop_assert_eq!(per_source, want.coherence);
    }
}

#[test]
fn two_threads_counters_in_one_line_are_false_sharing_with_padding_advice() {
    // Threads 4 and 7 (cores 0 and 1) take turns: each loads (instruction 0, line 10) and
    // stores (instruction 1, line 10) its own 8-byte counter at 0x100 + 8 × core; 32-byte
    // lines. From the second round on every load misses (the other's store invalidated the
    // line, other bytes): 2 × 3 false-sharing misses in 4 rounds.
    let m = meta_with_writes();
    let cfg = AnnotateConfig {
        false_sharing: Some(rdcachesim::SharingConfig::default()),
        ..small_caches()
    };
    let mut a = Annotator::new(&m, cfg).unwrap();
    for _ in 0..4 {
        for core in 0..2 {
            a.access(core, 0, 0x100 + 8 * core as u64, 8);
            a.access(core, 1, 0x100 + 8 * core as u64, 8);
        }
    }
    let r = a.finish(&[4, 7]);
    assert_eq!(r.total.l1_kinds.false_sharing, 6);
    assert_eq!(r.total.l1_kinds.compulsory, 2);
    let fs = r.false_sharing.unwrap();
    assert_eq!(fs.lines.len(), 1);
    let l = &fs.lines[0];
    assert_eq!(l.address, 0x100);
    assert_eq!((l.true_sharing, l.false_sharing), (0, 6));
    let threads: Vec<(u32, &sharing::Ranges)> =
        l.threads.iter().map(|t| (t.thread, &t.written)).collect();
    assert_eq!(threads, vec![(4, &vec![(0, 7)]), (7, &vec![(8, 15)])]);
    assert_eq!(
        l.verdict,
        sharing::LineVerdict::FalseSharing {
            padding: sharing::Fix::PadElements(PadElements {
                slot: 8,
                stride: 8,
                line: 32,
                pad: 24
            }),
            shared: vec![]
        }
    );
    assert_eq!((l.sources[0].file.as_str(), l.sources[0].line), ("a.c", 10));
    assert_eq!(fs.sources.len(), 1);
    assert_eq!(fs.sources[0].false_sharing, 6);
    assert_eq!(fs.sources[0].written_by, vec!["a.c:10".to_string()]);
}
