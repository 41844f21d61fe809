//! The whole analysis on a synthetic trace written with `TraceWriter`: Figure 2 in miniature,
//! one arm per thread, with every expected number derived by hand.

use rdpaths::{analyse, profile_trace, PathConfig, PatternConfig, SquashPeriod};
use rdtrace::meta::*;
use rdtrace::{Event, Trace};

/// Blocks: 0 entry with the if (br 0: outcome 0 → block 1, 1 → block 2); 1 = loop 0 body
/// (store mi 0, latch br 1); 2 = loop 1 body (store mi 1, latch br 2); 3 = loop 2 body (load
/// mi 2, latch br 3); 4 = exit. Latches: outcome 1 is the back-edge, 0 leaves the loop.
fn module() -> ModuleMeta {
    use rdtrace::testing::{block, branch, function, mem_instr, natural_loop};
    let block = |loop_id, first_mem_instr, num_mem_instrs| BlockMeta {
        name: String::new(),
        loop_id,
        first_mem_instr,
        num_mem_instrs,
        ..block(0, "")
    };
    let mem = |block, kind| MemInstrMeta {
        size: 32,
        vector: true,
        derivation: "global @A".into(),
        derived: None,
        ..mem_instr(block, kind, VarClass::Shared)
    };
    let latch =
        |block: u32, l: u32, exit: u32| branch(block, vec![exit, block], vec![None, Some(l)]);
    let lp = |header| natural_loop(0, header, None, 1);
    let tables = MetaTables {
        files: vec!["fig2-mini.c".into()],
        functions: vec![function("main", 0, 5)],
        blocks: vec![
            block(None, 0, 0),
            block(Some(0), 0, 1),
            block(Some(1), 1, 1),
            block(Some(2), 2, 1),
            block(None, 3, 0),
        ],
        mem_instrs: vec![
            mem(1, AccessKind::Store),
            mem(2, AccessKind::Store),
            mem(3, AccessKind::Load),
        ],
        branches: vec![
            branch(0, vec![1, 2], vec![None, None]),
            latch(1, 0, 3),
            latch(2, 1, 3),
            latch(3, 2, 4),
        ],
        loops: vec![lp(1), lp(2), lp(3)],
        ..Default::default()
    };
    ModuleMeta {
        name: "fig2-mini".into(),
        content_hash: 0,
        tables,
    }
}

/// N = 8 elements of 32 bytes (4 lines of 64 bytes); `arm` 0 runs loop 0, arm 1 loop 1; then
/// loop 2 reads A.
fn events(arm: u32) -> Vec<Event> {
    const N: u64 = 8;
    let base = 0x10000u64;
    let mut ev = vec![
        Event::Block { bb: 0 },
        Event::Branch {
            br: 0,
            outcome: arm,
        },
    ];
    let body = 1 + arm;
    for i in 0..N {
        ev.push(Event::Block { bb: body });
        ev.push(Event::Access {
            mi: arm,
            addr: base + 32 * i,
            len: 32,
        });
        ev.push(Event::Branch {
            br: body,
            outcome: (i + 1 < N) as u32,
        });
    }
    for i in 0..N {
        ev.push(Event::Block { bb: 3 });
        ev.push(Event::Access {
            mi: 2,
            addr: base + 32 * i,
            len: 32,
        });
        ev.push(Event::Branch {
            br: 3,
            outcome: (i + 1 < N) as u32,
        });
    }
    ev.push(Event::Block { bb: 4 });
    ev
}

#[test]
fn figure2_in_miniature() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mini.rdtrace");
    rdtrace::testing::write_trace(&path, &module(), &[events(0), events(1)]).unwrap();
    let trace = Trace::open(&path).unwrap();
    let cfg = PathConfig {
        line: 64,
        histories: vec![1, 2, 4],
        squash: SquashPeriod::PerLoop,
        patterns: PatternConfig::gap_rule_only(),
        long_threshold: 2,
        max_paths: None,
    };
    let profile = profile_trace(&trace, &cfg).unwrap();
    // Per thread: 8 stores (4 cold lines, 4 at distance 0) and 8 loads.
    assert_eq!(profile.accesses, 32);
    assert_eq!(profile.cold, 8);
    let report = analyse(&profile);

    // The load (mi 2): even i starts a line last touched by the first loop, the 3 other lines
    // in between (distance 3); odd i reuses the line just touched (distance 0). Both threads.
    let load = report.instructions.iter().find(|i| i.mi == 2).unwrap();
    let spans: Vec<_> = load
        .patterns
        .iter()
        .map(|p| (p.min, p.max, p.count))
        .collect();
    assert_eq!(spans, vec![(0, 0, 8), (3, 3, 8)]);
    // Stores have only distance 0 (plus cold misses): one pattern each.
    assert_eq!(report.multi_pattern, 1);
    assert_eq!(report.instructions_analysed, 3);

    // l = 64 / 32 = 2, so at the load the stack is [arm] (even i) or [arm, 1] (odd i).
    // 1 bit: thread 1's even loads ("1" from the if) share the path "1" with every odd load
    // ("1" from the latch): not separated, and an alias (different branches, same bit).
    let h1 = &load.histories[0];
    assert_eq!(h1.n, 1);
    assert!(!h1.differentiable && h1.exact_differentiable && h1.aliased && h1.mixes_short_long);
    // 2 bits: [0] (depth 1), [1] (depth 1), [0 1], [1 1] (sorted by bits, most recent in
    // bit 0, then depth): one pattern per path.
    let h2 = &load.histories[1];
    assert!(h2.differentiable && !h2.aliased);
    let keys: Vec<_> = h2
        .paths
        .iter()
        .map(|p| (p.key.bits, p.key.depth, p.patterns.len()))
        .collect();
    assert_eq!(
        keys,
        vec![(0b0, 1, 1), (0b1, 1, 1), (0b01, 2, 1), (0b11, 2, 1)]
    );
    assert!(load.histories[2].differentiable);

    let s = &report.summary;
    assert_eq!(
        (s[0].differentiable_pct, s[0].aliased_pct, s[0].mixed_pct),
        (0.0, 100.0, 100.0)
    );
    assert_eq!((s[1].differentiable_pct, s[1].aliased_pct), (100.0, 0.0));
    // A 4-bit profile cannot give the paper's aliasing figure, which is anchored at 16 bits.
    assert!(s.iter().all(|h| h.aliased_paper.is_none()));

    // The paper's aliasing % (Section 4.2): for n < 16, aliased at 16 bits plus differentiable
    // at 16 but not at n. Longer histories only split the 2-bit paths further, and every 2-bit
    // path already holds one pattern, so 16 bits differentiate the load and nothing is aliased
    // at 16. Hence: path1 = 0 + 1 (16 separates, 1 does not) = 100 %; path2 = 0 (2 bits
    // separate); path16 = aliased at 16 = 0; path32 is beyond the paper's definition.
    for histories in [vec![1, 2, 16, 32], vec![1, 2, 32]] {
        let profile = profile_trace(
            &trace,
            &PathConfig {
                histories: histories.clone(),
                ..cfg.clone()
            },
        )
        .unwrap();
        let s = analyse(&profile).summary;
        let paper: Vec<_> = s.iter().map(|h| (h.n, h.aliased_paper_pct)).collect();
        let mut want = vec![(1, Some(100.0)), (2, Some(0.0))];
        if histories.contains(&16) {
            want.push((16, Some(0.0)));
        }
        want.push((32, None));
        assert_eq!(paper, want, "histories {histories:?}");
        // The exact-window measure stays as it was for path1.
        assert_eq!(s[0].aliased_pct, 100.0);
    }
}

#[test]
fn bad_configuration_is_an_error() {
    let meta = ProgramMeta::default();
    for cfg in [
        PathConfig {
            line: 48,
            ..Default::default()
        },
        PathConfig {
            histories: vec![],
            ..Default::default()
        },
        PathConfig {
            histories: vec![64],
            ..Default::default()
        },
        PathConfig {
            squash: SquashPeriod::Fixed(0),
            ..Default::default()
        },
    ] {
        assert!(rdpaths::PathCollector::new(&meta, &cfg).is_err(), "{cfg:?}");
    }
}
