//! `PathConfig::max_paths`: past the limit, new windows are kept shorter, and every history
//! length whose references all stay on known paths reports exactly what the unlimited analysis
//! reports; the longer ones say how many references are beyond the limit.

use rdpaths::{analyse, profile_trace, PathConfig, PathProfile, PatternConfig};
use rdtrace::meta::*;
use rdtrace::{Event, Trace};

/// Branches per round before the load.
const K: u32 = 4;

/// One function, no loops: block 0 is the entry, block 1 + j holds branch j (both outcomes go
/// on to the next block), block K + 1 holds the load (mi 0).
fn module() -> ModuleMeta {
    use rdtrace::testing::{block, branch, function, mem_instr};
    let mut blocks: Vec<BlockMeta> = (0..K + 2).map(|_| block(0, "")).collect();
    blocks[(K + 1) as usize].num_mem_instrs = 1;
    let tables = MetaTables {
        files: vec!["limit.c".into()],
        functions: vec![function("main", 0, K + 2)],
        blocks,
        mem_instrs: vec![MemInstrMeta {
            size: 8,
            ..mem_instr(K + 1, AccessKind::Load, VarClass::Shared)
        }],
        branches: (0..K)
            .map(|j| branch(1 + j, vec![2 + j, 2 + j], vec![None, None]))
            .collect(),
        ..Default::default()
    };
    ModuleMeta {
        name: "limit".into(),
        content_hash: 0,
        tables,
    }
}

/// `rounds` rounds of K pseudo-random branch outcomes and one load: when the last outcome is
/// 1 the load reuses the line it touched last (distance 0), else it walks a ring of 64 lines
/// (distance 63 once the ring is warm). The 4-bit windows take 16 values, the 32-bit ones are
/// all but unique.
fn events(rounds: u32) -> Vec<Event> {
    let mut ev = vec![Event::Block { bb: 0 }];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let (mut ring, mut last) = (0u64, 0u64);
    for _ in 0..rounds {
        let mut outcome = 0;
        for j in 0..K {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            outcome = (x >> 33) as u32 & 1;
            ev.push(Event::Block { bb: 1 + j });
            ev.push(Event::Branch { br: j, outcome });
        }
        ev.push(Event::Block { bb: K + 1 });
        if outcome == 0 {
            last = 0x100000 + 64 * (ring % 64);
            ring += 1;
        }
        ev.push(Event::Access {
            mi: 0,
            addr: last,
            len: 8,
        });
    }
    ev
}

fn profile(trace: &Trace, max_paths: Option<u64>) -> PathProfile {
    let cfg = PathConfig {
        histories: vec![1, 2, 4, 8, 16, 32],
        patterns: PatternConfig::gap_rule_only(),
        max_paths,
        ..Default::default()
    };
    profile_trace(trace, &cfg).unwrap()
}

#[test]
fn lengths_within_the_limit_match_the_unlimited_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("limit.rdtrace");
    rdtrace::testing::write_trace(&path, &module(), &[events(3000)]).unwrap();
    let trace = Trace::open(&path).unwrap();

    let exact = profile(&trace, None);
    assert_eq!(exact.shortened_records(), 0);
    assert!(exact.records.iter().all(|r| !r.truncated()));
    // Nearly every round has its own 32-entry window.
    assert!(exact.records.len() > 2900, "{}", exact.records.len());
    let exact_report = analyse(&exact);
    assert!(exact_report.summary.iter().all(|s| s.unclassified == 0));
    assert_eq!(exact_report.path_limit, None);
    // The load has two patterns (distance 0 and the ring's 63), told apart by the last bit.
    let load = &exact_report.instructions[0];
    assert_eq!(load.patterns.len(), 2);
    assert!(load.histories.iter().all(|h| h.differentiable));

    let limit = 200;
    let limited = profile(&trace, Some(limit));
    assert!(limited.shortened_records() > 0);
    // Whole windows up to the limit, then each shorter length half the room of the one above
    // (100 + 50 + 25 + 12 + 6), and one record without history per instruction.
    assert!(
        limited.records.len() as u64 <= 2 * limit + 1,
        "{} records",
        limited.records.len()
    );
    for (r, rec) in limited.records.iter().enumerate() {
        assert!(rec.kept <= rec.depth);
        assert_eq!(limited.window(r).len(), rec.kept as usize);
    }
    assert_eq!(limited.references, exact.references);
    assert_eq!(limited.cold, exact.cold);

    let report = analyse(&limited);
    assert_eq!(report.path_limit, Some(limit));
    assert_eq!(report.shortened_records, limited.shortened_records());
    // The 32-bit windows are beyond the limit after 200 rounds; the 4-bit ones (16 values)
    // always find room.
    let long = report.summary.iter().find(|s| s.n == 32).unwrap();
    assert!(long.unclassified > 0);
    let mut compared = 0;
    for (s, e) in report.summary.iter().zip(&exact_report.summary) {
        assert_eq!(s.n, e.n);
        if s.n <= 4 {
            assert_eq!(s.unclassified, 0, "path{}", s.n);
        }
        // References on no n-bit path are exactly those of records kept shorter than n.
        let beyond: u64 = limited
            .records
            .iter()
            .filter(|r| !r.projects_to(s.n))
            .map(|r| r.references())
            .sum();
        assert_eq!(s.unclassified, beyond, "path{}", s.n);
        assert_eq!(
            s.unclassified_pct,
            100.0 * beyond as f64 / limited.references as f64
        );
        if s.unclassified == 0 {
            // Everything the unlimited analysis says about this length, word for word (the
            // paper's aliasing figure rests on the 16-bit verdicts, beyond the limit here).
            let paper = |h: &rdpaths::analysis::HistorySummary| rdpaths::analysis::HistorySummary {
                aliased_paper: None,
                aliased_paper_pct: None,
                ..h.clone()
            };
            assert_eq!(paper(s), paper(e), "path{}", s.n);
            let k = report.summary.iter().position(|x| x.n == s.n).unwrap();
            for (i, j) in report.instructions.iter().zip(&exact_report.instructions) {
                assert_eq!(i.histories.get(k), j.histories.get(k), "path{}", s.n);
            }
            compared += 1;
        }
    }
    assert!(compared >= 3, "only {compared} lengths compared");
    // The instruction-level patterns never depend on the limit.
    for (i, j) in report.instructions.iter().zip(&exact_report.instructions) {
        assert_eq!(
            (i.mi, i.references, i.cold, &i.patterns),
            (j.mi, j.references, j.cold, &j.patterns)
        );
    }
}

#[test]
fn a_limit_of_zero_is_an_error() {
    let cfg = PathConfig {
        max_paths: Some(0),
        ..Default::default()
    };
    assert!(cfg.validate().is_err());
}
