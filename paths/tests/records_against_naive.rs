//! Every record of a path profile holds exactly the distances the definition gives: for each
//! access, its instruction and the exact window of the branch-history stack at that moment
//! (replayed here with its own [`BranchHistory`]), and for each of its cache lines the depth
//! in a naive most-recent-last list of the thread's lines. Checks the collector's record
//! lookup (the cache of recent records in front of the table), the reuse stack run on its own
//! thread in batches (with a thread change inside a batch), and the distributions collected
//! with their latest bin apart, on several threads, multi-line accesses and distances in both
//! the logarithmic and the 1K-wide bins.

use rdpaths::bins::Bins;
use rdpaths::{profile_trace, BranchHistory, PathConfig};
use rdtrace::meta::*;
use rdtrace::{Event, Trace};
use std::collections::HashMap;

/// Branch blocks per round before the loads.
const K: u32 = 6;

/// One function, no loops: block 0 the entry, block 1 + j holds branch j (both outcomes go on
/// to the next block), block K + 1 holds three loads: 8, 16 and 128 bytes (two or three lines).
fn module() -> ModuleMeta {
    use rdtrace::testing::{block, branch, function, mem_instr};
    let mut blocks: Vec<BlockMeta> = (0..K + 2).map(|_| block(0, "")).collect();
    blocks[(K + 1) as usize].num_mem_instrs = 3;
    let load = |size| MemInstrMeta {
        size,
        ..mem_instr(K + 1, AccessKind::Load, VarClass::Shared)
    };
    let tables = MetaTables {
        files: vec!["naive.c".into()],
        functions: vec![function("main", 0, K + 2)],
        blocks,
        mem_instrs: vec![load(8), load(16), load(128)],
        branches: (0..K)
            .map(|j| branch(1 + j, vec![2 + j, 2 + j], vec![None, None]))
            .collect(),
        ..Default::default()
    };
    ModuleMeta {
        name: "naive".into(),
        content_hash: 0,
        tables,
    }
}

/// `rounds` rounds of K pseudo-random branch outcomes, then the three loads: a line among
/// 8 (short distances), a walk over 3000 lines (distances past 1K lines), a random spot in
/// 64 KiB (anything, and unaligned 128-byte ranges).
fn events(rounds: u32, seed: u64) -> Vec<Event> {
    let mut ev = vec![Event::Block { bb: 0 }];
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..rounds as u64 {
        for j in 0..K {
            ev.push(Event::Block { bb: 1 + j });
            let outcome = (next() >> 33) as u32 & 1;
            ev.push(Event::Branch { br: j, outcome });
        }
        ev.push(Event::Block { bb: K + 1 });
        let addrs = [
            0x10_0000 + 64 * (next() % 8),
            0x20_0000 + 64 * (round % 3000),
            0x40_0000 + next() % 65536,
        ];
        for (mi, (addr, len)) in addrs.into_iter().zip([8, 16, 128]).enumerate() {
            ev.push(Event::Access {
                mi: mi as u32,
                addr,
                len,
            });
        }
    }
    ev
}

/// Per (instruction, window, depth): the distances and first touches the definition gives.
type Expected = HashMap<(u32, Vec<u32>, u32), (Bins, u64)>;

/// Replays each thread's events through a branch history and a naive stack of 64-byte lines.
fn expected(meta: &ProgramMeta, threads: &[Vec<Event>], cfg: &PathConfig) -> Expected {
    let max_bits = *cfg.histories.iter().max().unwrap();
    let mut out = Expected::new();
    for events in threads {
        let mut history = BranchHistory::new(meta, cfg.line, cfg.squash);
        let mut stack: Vec<u64> = Vec::new();
        for e in events {
            match *e {
                Event::Block { bb } => history.block(bb),
                Event::Branch { br, outcome } => history.branch(br, outcome),
                Event::Access { mi, addr, len } => {
                    history.access(mi);
                    let window: Vec<u32> = history.top().take(max_bits as usize).collect();
                    let depth = history.depth().min(max_bits as usize) as u32;
                    let (bins, cold) = out.entry((mi, window, depth)).or_default();
                    for line in addr / 64..=(addr + len - 1) / 64 {
                        match stack.iter().rposition(|&l| l == line) {
                            Some(p) => {
                                bins.add((stack.len() - 1 - p) as u64);
                                stack.remove(p);
                            }
                            None => *cold += 1,
                        }
                        stack.push(line);
                    }
                }
                _ => {}
            }
        }
    }
    out
}

#[test]
fn every_record_holds_the_definitions_distances() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("naive.rdtrace");
    let threads = [
        events(4000, 0x2545_f491_4f6c_dd1d),
        events(1500, 0x9e37_79b9),
    ];
    rdtrace::testing::write_trace(&path, &module(), &threads).unwrap();
    let trace = Trace::open(&path).unwrap();
    let cfg = PathConfig {
        histories: vec![1, 4, 32],
        max_paths: None,
        ..Default::default()
    };
    let profile = profile_trace(&trace, &cfg).unwrap();
    let mut want = expected(&trace.meta, &threads, &cfg);

    // Thousands of distinct 32-entry windows: far more records than the recent-record cache
    // has slots, and more references than one batch of the reuse thread.
    assert!(profile.records.len() > 3000, "{}", profile.records.len());
    assert!(profile.references > 1 << 14, "{}", profile.references);
    assert_eq!(profile.records.len(), want.len());
    for (r, rec) in profile.records.iter().enumerate() {
        let key = (rec.mi, profile.window(r).to_vec(), rec.depth);
        let (bins, cold) = want
            .remove(&key)
            .unwrap_or_else(|| panic!("record {r} ({key:?}) is not a window the run had"));
        assert_eq!(rec.bins, bins, "record {r}");
        assert_eq!(rec.cold, cold, "record {r}");
    }
    // The distances reach the 1K-wide bins.
    let far = profile
        .records
        .iter()
        .flat_map(|r| r.bins.iter())
        .any(|(_, b)| b.max >= 2048);
    assert!(far);
}
