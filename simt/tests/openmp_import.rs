//! The OpenMP-to-SIMT mapping on synthetic traces written with `TraceWriter`: iterations are
//! found from header-block entries between WorkshareInit and WorkshareFini, numbered from the
//! bounds the runtime reported (per thread for static schedules, per chunk for dispatch ones),
//! and loops the rule cannot handle are reported as skipped.

use rdsimt::openmp::{import_trace, MiScope, SimtConfig};
use rdtrace::meta::{
    AccessKind, BlockMeta, FunctionMeta, MetaTables, ModuleMeta, VarClass, WorkshareKind,
};
use rdtrace::{Event, Trace};

/// Blocks: 0 entry, 1 header of loop 0 (static ws 0), 2 header of loop 1 (dispatch ws 1),
/// 3 header of loop 2 (ws 2, run with a chunked static schedule). Memory instructions: 0 shared
/// load and 1 shared store in block 1, 2 private load in block 1, 3 shared load in block 2.
fn module() -> ModuleMeta {
    use rdtrace::testing::{block, function, mem_instr, natural_loop, region, workshare};
    let block = |loop_id: Option<u32>, first: u32, n: u32| BlockMeta {
        parallel: true,
        loop_id,
        first_mem_instr: first,
        num_mem_instrs: n,
        ..block(0, "bb")
    };
    let lp = |header: u32| natural_loop(0, header, None, 1);
    let ws = |kind: WorkshareKind, loop_id: Option<u32>| workshare(0, 0, kind, loop_id);
    let tables = MetaTables {
        files: vec!["synthetic.c".into()],
        functions: vec![FunctionMeta {
            outlined: true,
            parallel: true,
            ..function("k.omp_outlined", 0, 4)
        }],
        blocks: vec![
            block(None, 0, 0),
            block(Some(0), 0, 3),
            block(Some(1), 3, 1),
            block(Some(2), 4, 0),
        ],
        mem_instrs: vec![
            mem_instr(1, AccessKind::Load, VarClass::Shared),
            mem_instr(1, AccessKind::Store, VarClass::Shared),
            mem_instr(1, AccessKind::Load, VarClass::Private),
            mem_instr(2, AccessKind::Load, VarClass::Shared),
        ],
        loops: vec![lp(1), lp(2), lp(3)],
        workshares: vec![
            ws(WorkshareKind::Static, Some(0)),
            ws(WorkshareKind::Dispatch, Some(1)),
            ws(WorkshareKind::Static, Some(2)),
            ws(WorkshareKind::Static, None),
        ],
        // The regions the threads enter (the reader checks region ids): 0, and 1 nested in it.
        regions: vec![region(0, 0), region(0, 0)],
        ..Default::default()
    };
    ModuleMeta {
        name: "synthetic.c".into(),
        content_hash: 0,
        tables,
    }
}

fn init(ws: u32, schedule: i32, lower: i64, upper: i64) -> Event {
    Event::WorkshareInit {
        ws,
        schedule,
        lower,
        upper,
        stride: 1,
        incr: 1,
        chunk: 1,
    }
}

/// One static-loop iteration: header entry, then x[it], a private load, y[it].
fn static_iteration(it: i64, ev: &mut Vec<Event>) {
    ev.push(Event::Block { bb: 1 });
    let a = |mi, addr: i64| Event::Access {
        mi,
        addr: addr as u64,
        len: 8,
    };
    ev.extend([a(0, 8 * it), a(2, 50_000 + it), a(1, 10_000 + 8 * it)]);
}

/// Thread `t` of 2 runs iterations `3t..3t+3` of static loop 0 (twice: two launches), its
/// share of dispatch loop 1, and the chunked loop 2.
fn thread_events(t: u32) -> Vec<Event> {
    let mut ev = vec![Event::RegionEnter {
        region: 0,
        omp_thread: t,
        team_size: 2,
    }];
    let (lo, hi) = (3 * t as i64, 3 * t as i64 + 2);
    for _launch in 0..2 {
        ev.push(init(0, 34, lo, hi));
        ev.push(Event::Block { bb: 0 });
        // Before the first header entry: not an iteration.
        ev.push(Event::Access {
            mi: 0,
            addr: 77_777,
            len: 8,
        });
        for it in lo..=hi {
            static_iteration(it, &mut ev);
        }
        // The exit test of an unrotated loop enters the header once more.
        ev.push(Event::Block { bb: 1 });
        ev.push(Event::WorkshareFini { ws: 0 });
    }
    // Dispatch: thread 0 gets chunks [4,5] and [0,1], thread 1 gets [2,3].
    ev.push(init(1, 35, 0, 5));
    let chunks: &[(i64, i64)] = if t == 0 { &[(4, 5), (0, 1)] } else { &[(2, 3)] };
    for &(l, u) in chunks {
        ev.push(Event::WorkshareNext {
            ws: 1,
            more: true,
            lower: l,
            upper: u,
        });
        for it in l..=u {
            ev.push(Event::Block { bb: 2 });
            ev.push(Event::Access {
                mi: 3,
                addr: (100 + it) as u64,
                len: 4,
            });
        }
    }
    ev.push(Event::WorkshareNext {
        ws: 1,
        more: false,
        lower: 0,
        upper: 0,
    });
    ev.push(Event::WorkshareFini { ws: 1 });
    // schedule(static, 1) (libomp 33): skipped.
    ev.push(init(2, 33, t as i64, t as i64));
    ev.push(Event::Block { bb: 3 });
    ev.push(Event::WorkshareFini { ws: 2 });
    ev.push(Event::RegionExit { region: 0 });
    ev
}

fn write_trace(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("synthetic.rdtrace");
    rdtrace::testing::write_trace(&path, &module(), &[thread_events(0), thread_events(1)]).unwrap();
    path
}

#[test]
fn static_dispatch_and_skipped_loops() {
    let dir = tempfile::tempdir().unwrap();
    let trace = Trace::open(write_trace(dir.path())).unwrap();
    let cfg = SimtConfig {
        block_size: 4,
        ..Default::default()
    };
    let imp = import_trace(&trace, &cfg).unwrap();
    let skipped: Vec<u32> = imp.skipped.iter().map(|s| s.workshare).collect();
    assert_eq!(skipped, vec![2, 3]);
    assert!(imp.skipped[0].reason.contains("schedule(static, chunk)"));
    // Loop 0 twice, then loop 1.
    let keys: Vec<(u32, u32)> = imp
        .launches
        .iter()
        .map(|l| (l.workshare, l.launch))
        .collect();
    assert_eq!(keys, vec![(0, 0), (0, 1), (1, 0)]);

    let l = &imp.launches[0];
    assert_eq!((l.first_iteration, l.threads, l.omp_threads), (0, 6, 2));
    // Shared accesses only; one access before the first header entry per thread.
    assert_eq!(l.accesses, 12);
    assert_eq!(l.unattributed, 2);
    let k = &l.kernel;
    assert_eq!(k.blocks.len(), 2);
    let b0: Vec<(u64, Vec<u64>)> = k.blocks[0]
        .mis
        .iter()
        .map(|m| (m.pc, m.lanes.clone()))
        .collect();
    assert_eq!(
        b0,
        vec![
            (0, vec![0, 8, 16, 24]),
            (1, vec![10_000, 10_008, 10_016, 10_024])
        ]
    );
    assert_eq!(k.blocks[1].mis[0].lanes, vec![32, 40]);
    assert_eq!(imp.launches[1].kernel.blocks, k.blocks);

    // Dispatch: iterations numbered from each chunk's lower bound, whichever thread ran them.
    let d = &imp.launches[2];
    assert_eq!((d.first_iteration, d.threads, d.omp_threads), (0, 6, 2));
    assert_eq!(d.kernel.blocks[0].mis[0].lanes, vec![100, 101, 102, 103]);
    assert_eq!(d.kernel.blocks[1].mis[0].lanes, vec![104, 105]);
}

#[test]
fn private_accesses_and_warp_scope() {
    let dir = tempfile::tempdir().unwrap();
    let trace = Trace::open(write_trace(dir.path())).unwrap();
    let cfg = SimtConfig {
        block_size: 4,
        warp_size: 2,
        mi_scope: MiScope::Warp,
        include_private: true,
        ..Default::default()
    };
    let imp = import_trace(&trace, &cfg).unwrap();
    let k = &imp.launches[0].kernel;
    // Two warps, three MIs each (load, private load, store), interleaved warp by warp.
    let shape: Vec<(u64, Vec<u64>)> = k.blocks[0]
        .mis
        .iter()
        .map(|m| (m.pc, m.lanes.clone()))
        .collect();
    assert_eq!(
        shape,
        vec![
            (0, vec![0, 8]),
            (0, vec![16, 24]),
            (2, vec![50_000, 50_001]),
            (2, vec![50_002, 50_003]),
            (1, vec![10_000, 10_008]),
            (1, vec![10_016, 10_024]),
        ]
    );
    assert_eq!(imp.launches[0].accesses, 18);
}

#[test]
fn zero_sizes_are_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let trace = Trace::open(write_trace(dir.path())).unwrap();
    let cfg = SimtConfig {
        block_size: 0,
        ..Default::default()
    };
    assert!(import_trace(&trace, &cfg).is_err());
}

/// The streamed import (all threads merged in stamp order, each launch handed over once its
/// team has finished it) gives the launches and skipped loops of the whole-trace import, for
/// every configuration the other tests use.
#[test]
fn streamed_launches_equal_the_whole_import() {
    let dir = tempfile::tempdir().unwrap();
    let trace = Trace::open(write_trace(dir.path())).unwrap();
    for cfg in [
        SimtConfig {
            block_size: 4,
            ..Default::default()
        },
        SimtConfig {
            block_size: 4,
            warp_size: 2,
            mi_scope: MiScope::Warp,
            include_private: true,
            ..Default::default()
        },
    ] {
        let whole = import_trace(&trace, &cfg).unwrap();
        let mut launches = Vec::new();
        let skipped =
            rdsimt::openmp::for_each_launch::<rdsimt::SimtError>(&trace, &cfg, &mut |l| {
                launches.push(l);
                Ok(())
            })
            .unwrap();
        assert_eq!(launches, whole.launches);
        assert_eq!(skipped, whole.skipped);
    }
    let bad = SimtConfig {
        warp_size: 0,
        ..Default::default()
    };
    assert!(
        rdsimt::openmp::for_each_launch::<rdsimt::SimtError>(&trace, &bad, &mut |_| Ok(()))
            .is_err()
    );
}

fn stamp(time: u64) -> Event {
    Event::Stamp { time }
}

/// One thread's part of static loop 0 in a nested region: entry of region 1 as thread
/// `omp_thread` of a team of `team`, iterations `lo..=hi` of loop 0 with a stamp `t0 + 10`
/// between its first iteration and the others (so that another team's part can come in
/// between in stamp order), and the exit. The master forks first and joins after.
fn inner_part(omp_thread: u32, team: u32, lo: i64, hi: i64, t0: u64) -> Vec<Event> {
    let mut ev = Vec::new();
    if omp_thread == 0 {
        ev.extend([stamp(t0), Event::Fork { region: 1 }]);
    }
    ev.extend([
        stamp(t0 + 1),
        Event::RegionEnter {
            region: 1,
            omp_thread,
            team_size: team,
        },
        stamp(t0 + 2),
        init(0, 34, lo, hi),
    ]);
    static_iteration(lo, &mut ev);
    ev.push(stamp(t0 + 10));
    for it in lo + 1..=hi {
        static_iteration(it, &mut ev);
    }
    ev.extend([
        Event::Block { bb: 1 },
        stamp(t0 + 20),
        Event::WorkshareFini { ws: 0 },
        stamp(t0 + 30),
        Event::RegionExit { region: 1 },
    ]);
    if omp_thread == 0 {
        ev.extend([stamp(t0 + 40), Event::Join { region: 1 }]);
    }
    ev
}

/// Outer thread `t` of a team of two entering region 0 at `t0`, running `inner` inside.
fn outer(t: u32, t0: u64, inner: Vec<Event>) -> Vec<Event> {
    let mut ev = Vec::new();
    if t == 0 {
        ev.extend([stamp(t0 - 1), Event::Fork { region: 0 }]);
    }
    ev.extend([
        stamp(t0),
        Event::RegionEnter {
            region: 0,
            omp_thread: t,
            team_size: 2,
        },
    ]);
    ev.extend(inner);
    ev.extend([stamp(t0 + 900), Event::RegionExit { region: 0 }]);
    if t == 0 {
        ev.extend([stamp(t0 + 990), Event::Join { region: 0 }]);
    }
    ev
}

fn launches_of(threads: &[Vec<Event>]) -> Vec<rdsimt::openmp::KernelLaunch> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested.rdtrace");
    rdtrace::testing::write_trace(&path, &module(), threads).unwrap();
    let trace = Trace::open(&path).unwrap();
    // Forks, joins, regions, loops and stamps pair up and nest as in a real run (the synthetic
    // blocks do not follow a CFG).
    let report = rdtrace::check::check_trace(&trace, 100).unwrap();
    let broken: Vec<_> = report
        .violations
        .iter()
        .filter(|v| v.kind != "cfg")
        .collect();
    assert!(broken.is_empty(), "{broken:?}");
    let cfg = SimtConfig {
        block_size: 4,
        ..Default::default()
    };
    // Streamed, as `rda-report simt` reads it (each launch handed over once complete).
    let mut launches = Vec::new();
    rdsimt::openmp::for_each_launch::<rdsimt::SimtError>(&trace, &cfg, &mut |l| {
        launches.push(l);
        Ok(())
    })
    .unwrap();
    assert_eq!(launches, import_trace(&trace, &cfg).unwrap().launches);
    launches
}

/// Nested parallelism with nesting off: each of the two outer threads runs the inner loop in a
/// team of one, both at once (their parts interleave in stamp order). Each team's loop is a
/// launch of its own (this used to panic with "launch exists": both teams' parts were taken
/// for one launch, handed over when the first team of one finished).
#[test]
fn concurrent_teams_of_one_are_launches_of_their_own() {
    let t0 = outer(0, 10, inner_part(0, 1, 0, 2, 100));
    let t1 = outer(1, 11, inner_part(0, 1, 0, 2, 115));
    let launches = launches_of(&[t0, t1]);
    let keys: Vec<(u32, u32, u64, u32, u64)> = launches
        .iter()
        .map(|l| (l.workshare, l.launch, l.threads, l.omp_threads, l.accesses))
        .collect();
    assert_eq!(keys, vec![(0, 0, 3, 1, 6), (0, 1, 3, 1, 6)]);
    assert_eq!(
        launches[0].kernel.blocks[0].mis[0].lanes,
        vec![0, 8, 16],
        "the whole loop in one team"
    );
}

/// Nested parallelism with two active levels: each outer thread forks an inner team of two
/// (workers 2 and 3), both inner teams run loop 0 at once. Each team's launch has both halves
/// of the iterations, from its two threads.
#[test]
fn concurrent_nested_teams_are_matched_to_their_workers() {
    let t0 = outer(0, 10, inner_part(0, 2, 0, 1, 100));
    let t1 = outer(1, 11, inner_part(0, 2, 0, 1, 105));
    let w2 = inner_part(1, 2, 2, 3, 102);
    let w3 = inner_part(1, 2, 2, 3, 107);
    let launches = launches_of(&[t0, t1, w2, w3]);
    let keys: Vec<(u32, u32, i64, u64, u32, u64)> = launches
        .iter()
        .map(|l| {
            (
                l.workshare,
                l.launch,
                l.first_iteration,
                l.threads,
                l.omp_threads,
                l.accesses,
            )
        })
        .collect();
    assert_eq!(keys, vec![(0, 0, 0, 4, 2, 8), (0, 1, 0, 4, 2, 8)]);
    for l in &launches {
        assert_eq!(l.kernel.blocks[0].mis[0].lanes, vec![0, 8, 16, 24]);
    }
}

/// A team of one outside nesting (`parallel for num_threads(1)`) between loops run by a team of
/// two: every launch is complete, numbered in order.
#[test]
fn a_team_of_one_between_teams_of_two() {
    let mut t0 = outer(0, 10, Vec::new());
    let mut t1 = outer(1, 11, Vec::new());
    // A region of one on thread 0 after the team of two ended.
    t0.extend(inner_part(0, 1, 0, 3, 2000));
    t1.push(stamp(3000));
    let launches = launches_of(&[t0, t1]);
    let keys: Vec<(u32, u64, u32)> = launches
        .iter()
        .map(|l| (l.launch, l.threads, l.omp_threads))
        .collect();
    assert_eq!(keys, vec![(0, 4, 1)]);
}

/// One thread's part of static loop 0 in region 1 at the given times (`[enter, exit]`, the
/// loop in between), its accesses at `base + 8 * iteration`; the master forks at `enter - 1`
/// and joins at `join`.
fn timed_part(
    omp_thread: u32,
    lo: i64,
    hi: i64,
    base: u64,
    times: [u64; 2],
    join: u64,
) -> Vec<Event> {
    let [enter, exit] = times;
    let mut ev = Vec::new();
    if omp_thread == 0 {
        ev.extend([stamp(enter - 1), Event::Fork { region: 1 }]);
    }
    ev.extend([
        stamp(enter),
        Event::RegionEnter {
            region: 1,
            omp_thread,
            team_size: 2,
        },
        init(0, 34, lo, hi),
    ]);
    for it in lo..=hi {
        ev.push(Event::Block { bb: 1 });
        ev.push(Event::Access {
            mi: 0,
            addr: base + 8 * it as u64,
            len: 8,
        });
    }
    ev.extend([
        Event::WorkshareFini { ws: 0 },
        stamp(exit),
        Event::RegionExit { region: 1 },
    ]);
    if omp_thread == 0 {
        ev.extend([stamp(join), Event::Join { region: 1 }]);
    }
    ev
}

/// Two inner teams of two wait for a worker at once and the first worker to enter belongs to
/// the team forked second: the guess (the oldest team) is wrong, and the first team's join,
/// while that worker is still inside the region, shows it; the workers are exchanged, with
/// their parts. Each launch then holds its own team's data (team A at 0.., team B at 1e6..).
#[test]
fn a_join_corrects_a_wrongly_guessed_worker() {
    const B: u64 = 1_000_000;
    let a_master = outer(0, 10, timed_part(0, 0, 1, 0, [100, 130], 200));
    let b_master = outer(1, 11, timed_part(0, 0, 1, B, [105, 135], 300));
    // B's worker enters first and leaves after A has joined; A's worker leaves before.
    let b_worker = timed_part(1, 2, 3, B, [107, 250], 0);
    let a_worker = timed_part(1, 2, 3, 0, [108, 150], 0);
    let launches = launches_of(&[a_master, b_master, b_worker, a_worker]);
    assert_eq!(launches.len(), 2);
    for l in &launches {
        assert_eq!((l.threads, l.omp_threads, l.accesses), (4, 2, 4));
        let lanes = &l.kernel.blocks[0].mis[0].lanes;
        let base = lanes[0] / B * B;
        assert_eq!(
            lanes,
            &[base, base + 8, base + 16, base + 24],
            "{}",
            l.launch
        );
    }
}
