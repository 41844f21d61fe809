//! Traces of the basic programs against facts read from their source: blocks, accesses,
//! branches, reuse, OpenMP events and variable classes.

use super::*;

#[test]
fn serial_loop_blocks_accesses_and_branches_at_o0() {
    let n = 1000u64;
    let (trace, out, _d) = build_and_trace("basic/serial_loop.c", &["-O0", "-g", "-DN=1000"], &[]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "249750.0 249750.0"
    );
    assert_eq!(trace.exit.as_ref().unwrap().reason, ExitReason::Exit);
    assert!(
        trace.meta.blocks.iter().all(|b| !b.parallel),
        "a serial program has no parallel blocks"
    );
    let c = counts(&trace);
    // Three loops: each condition block runs n + 1 times, each body and increment n times.
    assert_eq!(block_counts(&trace, &c, "main", "for.cond"), vec![n + 1; 3]);
    assert_eq!(block_counts(&trace, &c, "main", "for.body"), vec![n; 3]);
    assert_eq!(block_counts(&trace, &c, "main", "for.inc"), vec![n; 3]);
    assert_eq!(block_counts(&trace, &c, "main", "for.end"), vec![1; 3]);
    assert_eq!(block_counts(&trace, &c, "main", "entry"), vec![1]);

    // The store a[i] = ...: n accesses, stride 8, starting at a 64-byte aligned address.
    let line = line_of("basic/serial_loop.c", "a[i] = i * 0.5");
    let stores: Vec<u32> = mem_instrs_at(&trace, "serial_loop.c", line)
        .into_iter()
        .filter(|&m| trace.meta.mem_instrs[m as usize].kind == AccessKind::Store)
        .filter(|&m| trace.meta.mem_instrs[m as usize].class == VarClass::Shared)
        .collect();
    assert_eq!(
        stores.len(),
        1,
        "one store to the global a[] on line {line}"
    );
    let addrs = &c.accesses[&stores[0]];
    assert_eq!(addrs.len() as u64, n);
    assert_eq!(addrs[0] % 64, 0);
    assert!(addrs.windows(2).all(|w| w[1] - w[0] == 8));
    assert_eq!(trace.meta.mem_instrs[stores[0] as usize].size, 8);

    // Every loop test branch: taken into the body n times, out once; every latch is a
    // back-edge taken n times.
    let m = &trace.meta;
    let mut conds = 0;
    let mut back_edges = 0;
    for (id, b) in m.branches.iter().enumerate() {
        let id = id as u32;
        match b.kind {
            BranchKind::Conditional if m.blocks[b.block as usize].name.starts_with("for.cond") => {
                conds += 1;
                assert_eq!(
                    c.branches.get(&(id, 0)).copied(),
                    Some(n),
                    "branch {id} into the body"
                );
                assert_eq!(
                    c.branches.get(&(id, 1)).copied(),
                    Some(1),
                    "branch {id} out of the loop"
                );
            }
            BranchKind::BackEdge => {
                back_edges += 1;
                assert!(b.back_edge_of[0].is_some());
                assert_eq!(c.branches.get(&(id, 0)).copied(), Some(n));
            }
            _ => {}
        }
    }
    assert_eq!((conds, back_edges), (3, 3));
    assert_eq!(m.loops.len(), 3);
}

#[test]
fn two_sweeps_give_k_cold_and_2k_reuses_at_k_minus_1() {
    // 4096 doubles = 512 lines of 64 bytes. See the derivation in serial_loop.c.
    let k = 512u64;
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("serial");
    rdcc(
        &[program("basic/serial_loop.c")],
        &["-O2", "-DN=4096"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[]).status.success());
    let (ok, json, err) =
        rda_report(&["histogram", tp.to_str().unwrap(), "--line", "64", "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["cold"].as_u64(), Some(k));
    let hist: Vec<(u64, u64)> = v["histogram"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect();
    let at = |d: u64| hist.iter().find(|p| p.0 == d).map_or(0, |p| p.1);
    assert_eq!(at(k - 1), 2 * k, "{hist:?}");
    assert!(
        hist.iter().all(|&(d, _)| d == 0 || d == k - 1),
        "only distances 0 and K-1: {hist:?}"
    );
    // Everything else is a reuse inside a line, and the total is every reference.
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let c = counts(&trace);
    let total: u64 = c.accesses.values().map(|v| v.len() as u64).sum();
    assert_eq!(v["total"].as_u64(), Some(total));
    assert_eq!(at(0), total - k - 2 * k);
}

#[test]
fn omp_reduction_same_events_with_1_and_4_threads() {
    let n = 10_000u64;
    let flags = ["-fopenmp", "-O1", "-g", "-DN=10000"];
    let (t1, o1, _d1) =
        build_and_trace("basic/omp_reduction.c", &flags, &[("OMP_NUM_THREADS", "1")]);
    let (t4, o4, _d4) =
        build_and_trace("basic/omp_reduction.c", &flags, &[("OMP_NUM_THREADS", "4")]);
    assert!(o1.status.success() && o4.status.success());
    assert_eq!(o1.stdout, o4.stdout);
    assert_eq!(String::from_utf8_lossy(&o4.stdout).trim(), "sum=495000");

    // Parallel flags: the outlined region's blocks are parallel, main's are not.
    let m = &t4.meta;
    assert_eq!(m.regions.len(), 1);
    let outlined = m.regions[0].outlined_function as usize;
    assert!(m.functions[outlined].outlined && m.functions[outlined].parallel);
    for b in &m.blocks {
        let f = &m.functions[b.function as usize];
        assert_eq!(b.parallel, f.parallel, "block {} of {}", b.name, f.name);
        if f.name == "main" {
            assert!(!b.parallel);
        }
    }
    assert!(!m.workshares.is_empty());

    // The load of x[i]: the shared-class load on the reduction line executed n times in total.
    let line = line_of("basic/omp_reduction.c", "sum += x[i]");
    let pick = |t: &rdtrace::Trace, c: &Counts| -> u32 {
        let cands: Vec<u32> = mem_instrs_at(t, "omp_reduction.c", line)
            .into_iter()
            .filter(|&mi| {
                let meta = &t.meta.mem_instrs[mi as usize];
                meta.kind == AccessKind::Load && meta.class == VarClass::Shared
            })
            .filter(|mi| c.accesses.get(mi).map_or(0, |v| v.len() as u64) == n)
            .collect();
        assert_eq!(
            cands.len(),
            1,
            "exactly one shared load of x[i] on line {line}: {cands:?}"
        );
        cands[0]
    };
    let (c1, c4) = (counts(&t1), counts(&t4));
    let (mi1, mi4) = (pick(&t1, &c1), pick(&t4, &c4));
    assert_eq!(
        mi1, mi4,
        "ids are stable across runs of the same binary build"
    );
    let mut a1 = c1.accesses[&mi1].clone();
    let mut a4 = c4.accesses[&mi4].clone();
    a1.sort_unstable();
    a4.sort_unstable();
    // The heap block may land elsewhere in the two runs: compare offsets from the lowest.
    let base1 = a1[0];
    let base4 = a4[0];
    let r1: Vec<u64> = a1.iter().map(|a| a - base1).collect();
    let r4: Vec<u64> = a4.iter().map(|a| a - base4).collect();
    assert_eq!(
        r1, r4,
        "same multiset of x[i] addresses with 1 and 4 threads"
    );
    assert!(r1.windows(2).all(|w| w[1] - w[0] == 8));

    // Four threads entered the region as OpenMP threads 0..3 of a team of 4, and each got a
    // static chunk; together the chunks cover [0, n).
    let mut enters: Vec<(u32, u32)> = c4
        .other
        .iter()
        .filter_map(|e| match *e {
            Event::RegionEnter {
                omp_thread,
                team_size,
                ..
            } => Some((omp_thread, team_size)),
            _ => None,
        })
        .collect();
    enters.sort_unstable();
    assert_eq!(enters, vec![(0, 4), (1, 4), (2, 4), (3, 4)]);
    let mut chunks: Vec<(i64, i64)> = c4
        .other
        .iter()
        .filter_map(|e| match *e {
            Event::WorkshareInit { lower, upper, .. } => Some((lower, upper)),
            _ => None,
        })
        .collect();
    chunks.sort_unstable();
    assert_eq!(chunks.len(), 4);
    assert_eq!(chunks[0].0, 0);
    assert_eq!(chunks[3].1, n as i64 - 1);
    assert!(
        chunks.windows(2).all(|w| w[1].0 == w[0].1 + 1),
        "{chunks:?}"
    );
    // Each thread's x[i] loads are one contiguous stride-8 run.
    let mut per_thread = 0;
    for t in t4.thread_indices() {
        let mut c = Counts::default();
        t4.visit_thread(t, &mut c).unwrap();
        if let Some(a) = c.accesses.get(&mi4) {
            per_thread += 1;
            assert_eq!(a.len() as u64, n / 4);
            assert!(a.windows(2).all(|w| w[1] - w[0] == 8));
        }
    }
    assert_eq!(per_thread, 4);
}

#[test]
fn shared_and_private_classes() {
    let src = "basic/shared_private.c";
    let (trace, out, _d) =
        build_and_trace(src, &["-fopenmp", "-O0", "-g"], &[("OMP_NUM_THREADS", "2")]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "total=6048");
    let m = &trace.meta;
    let classes = |needle: &str, kind: AccessKind| -> Vec<VarClass> {
        let line = line_of(src, needle);
        mem_instrs_at(&trace, "shared_private.c", line)
            .into_iter()
            .map(|i| &m.mem_instrs[i as usize])
            .filter(|i| i.kind == kind && m.blocks[i.block as usize].parallel)
            .map(|i| i.class)
            .collect()
    };
    // tmp = table[i] + heap[i]: loads of the global and the heap are shared, the store to the
    // private tmp is private.
    let loads = classes("tmp = table[i] + heap[i]", AccessKind::Load);
    assert!(
        loads.iter().filter(|c| **c == VarClass::Shared).count() >= 2,
        "{loads:?}"
    );
    assert_eq!(
        classes("tmp = table[i] + heap[i]", AccessKind::Store),
        vec![VarClass::Private]
    );
    // local[i % 4] = tmp: a store into the region's own array.
    assert_eq!(
        classes("local[i % 4] = tmp", AccessKind::Store),
        vec![VarClass::Private]
    );
    // out[i] = local[i % 4]: the store goes to main's array, a shared variable.
    assert_eq!(
        classes("out[i] = local[i % 4]", AccessKind::Store),
        vec![VarClass::Shared]
    );

    // rdcc explains its derivations.
    let o = std::process::Command::new(&tools().rdcc)
        .args(["-fopenmp", "-O0", "-g", "-c", "--rd-explain"])
        .arg(program(src))
        .arg("-o")
        .arg(_d.path().join("x.o"))
        .output()
        .unwrap();
    assert!(o.status.success());
    let explain = String::from_utf8_lossy(&o.stderr);
    assert!(explain.contains("@table"), "{explain}");
    assert!(explain.contains("alloca"), "{explain}");
    assert!(
        explain.contains("private") && explain.contains("shared"),
        "{explain}"
    );
}

#[test]
fn branch_outcomes_inside_a_loop() {
    let src = "basic/branches.c";
    let (trace, out, _d) = build_and_trace(src, &["-O0", "-g"], &[]);
    assert!(out.status.success());
    let c = counts(&trace);
    let outcomes = |needle: &str| -> (u64, u64) {
        let line = line_of(src, needle);
        let m = &trace.meta;
        let ids: Vec<u32> = (0..m.branches.len() as u32)
            .filter(|&b| {
                let br = &m.branches[b as usize];
                br.kind == BranchKind::Conditional && br.loc.is_some_and(|l| l.line == line)
            })
            .collect();
        assert_eq!(ids.len(), 1, "one conditional branch on line {line}");
        (
            c.branches.get(&(ids[0], 0)).copied().unwrap_or(0),
            c.branches.get(&(ids[0], 1)).copied().unwrap_or(0),
        )
    };
    // 300 iterations: i % 3 == 0 true 100 times; among the other 200, i % 2 == 0 true 100 times.
    assert_eq!(outcomes("if (i % 3 == 0)"), (100, 200));
    assert_eq!(outcomes("if (i % 2 == 0)"), (100, 100));
    let loads_at = |needle: &str| -> u64 {
        let line = line_of(src, needle);
        mem_instrs_at(&trace, "branches.c", line)
            .iter()
            .filter(|&&mi| {
                let i = &trace.meta.mem_instrs[mi as usize];
                i.kind == AccessKind::Load && i.derivation.contains('@')
            })
            .map(|mi| c.accesses.get(mi).map_or(0, |v| v.len() as u64))
            .sum()
    };
    assert_eq!(loads_at("x += a[i]"), 100);
    assert_eq!(loads_at("y += b[i]"), 200);
}

#[test]
fn a_thread_alone_stamps_sparsely_and_densely_beside_another() {
    // `serial_around_region.c` on two threads, default stamp interval: main records alone
    // before the region and again after it (the worker waits in libomp from its region exit),
    // so there a stamp comes every 256 block entries; the worker records only while main is
    // registered, so every 16 (see the program's header). Stamps next to OpenMP events (fork,
    // join, region entry and exit) are the events' own and are not counted here.
    let (t, out, _d) = build_and_trace(
        "basic/serial_around_region.c",
        &["-fopenmp", "-O1"],
        &[("OMP_NUM_THREADS", "2")],
    );
    assert!(out.status.success());
    assert_eq!(t.threads.len(), 2);
    let omp = |e: &Event| {
        matches!(
            e,
            Event::Fork { .. }
                | Event::Join { .. }
                | Event::RegionEnter { .. }
                | Event::RegionExit { .. }
        )
    };
    // (blocks, stamps not at an OpenMP event) of the events `ev`.
    let count = |ev: &[Event]| {
        let blocks = ev
            .iter()
            .filter(|e| matches!(e, Event::Block { .. }))
            .count();
        let stamps = ev
            .windows(2)
            .filter(|w| matches!(w[0], Event::Stamp { .. }) && !omp(&w[1]))
            .count();
        (blocks, stamps)
    };
    let mut main = Vec::new();
    t.visit_thread(0, &mut main).unwrap();
    let fork = main.iter().position(|e| matches!(e, Event::Fork { .. }));
    let join = main.iter().position(|e| matches!(e, Event::Join { .. }));
    let (fork, join) = (fork.unwrap(), join.unwrap());
    for (what, part) in [("before", &main[..fork]), ("after", &main[join..])] {
        let (blocks, stamps) = count(part);
        // 10^5 iterations of at least one block each; a stamp every 256 blocks, within the
        // 16 blocks the first one after a change may take.
        assert!(blocks >= 100_000, "main {what}: {blocks} blocks");
        assert!(
            stamps <= blocks / 256 + 2 && stamps + 2 >= blocks / 256,
            "main {what} the region: {stamps} stamps in {blocks} blocks"
        );
    }
    let mut worker = Vec::new();
    t.visit_thread(1, &mut worker).unwrap();
    let (blocks, stamps) = count(&worker);
    assert!(blocks >= 50_000, "worker: {blocks} blocks");
    // Every 16 blocks, give or take the stamps of its registration and its region entry's
    // countdown restarts.
    assert!(
        stamps <= blocks / 16 + 4 && stamps + 4 >= blocks / 16,
        "worker: {stamps} stamps in {blocks} blocks"
    );
}

#[test]
fn four_threads_on_one_two_or_five_writer_workers_record_the_same_streams() {
    // jacobi2d on four OpenMP threads (static schedule: each thread's events are fixed), at -O0
    // so that its loops record every access, in chunks of a few buffers: with one worker all
    // eight lanes share it, with two each worker takes one lane of every thread, with five the
    // threads' lanes spread over all of them and some wrap (`rdruntime`'s `writer::lane_of`).
    // Each thread's stream must read back whole and the same, but for its stamps' times and
    // where the heap lies (accesses compared as each instruction's address steps).
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("jacobi");
    rdcc(
        &[program("kernels/jacobi2d.c")],
        &["-fopenmp", "-O0", "-DN=96", "-DTSTEPS=3"],
        &exe,
    );
    let streams = |workers: &str| {
        let tp = dir.path().join(format!("w{workers}.rdtrace"));
        let env = [
            ("OMP_NUM_THREADS", "4"),
            ("RDTRACE_WRITERS", workers),
            ("RDTRACE_CHUNK_EVENTS", "4096"),
            ("RDTRACE_BUFFER_EVENTS", "1024"),
        ];
        assert!(run_traced(&exe, &tp, &env).status.success());
        let t = rdtrace::Trace::open(&tp).unwrap();
        assert!(t.warnings().is_empty(), "{:?}", t.warnings());
        assert_eq!(t.threads.len(), 4);
        assert!(
            t.event_chunks().len() > 40,
            "{} chunks",
            t.event_chunks().len()
        );
        // By OpenMP thread number (trace threads are numbered as they register).
        let mut streams = (0..4u32)
            .map(|thread| {
                let mut ev = Vec::new();
                t.visit_thread(thread, &mut ev).unwrap();
                let omp_thread = ev.iter().find_map(|e| match e {
                    Event::RegionEnter { omp_thread, .. } => Some(*omp_thread),
                    _ => None,
                });
                let mut last = std::collections::HashMap::new();
                let ev = ev
                    .into_iter()
                    .filter(|e| !matches!(e, Event::Stamp { .. }))
                    .map(|e| match e {
                        Event::Access { mi, addr, len } => {
                            let step = addr.wrapping_sub(last.insert(mi, addr).unwrap_or(addr));
                            format!("access {mi} {step} {len}")
                        }
                        e => format!("{e:?}"),
                    })
                    .collect::<Vec<_>>();
                (omp_thread, ev)
            })
            .collect::<Vec<_>>();
        streams.sort_by_key(|s| s.0);
        assert_eq!(
            streams.iter().map(|s| s.0).collect::<Vec<_>>(),
            [0, 1, 2, 3].map(Some)
        );
        streams.into_iter().map(|s| s.1).collect::<Vec<_>>()
    };
    let two = streams("2");
    assert!(two.iter().all(|s| s.len() > 10_000));
    for workers in ["1", "5"] {
        let other = streams(workers);
        for (thread, (a, b)) in two.iter().zip(&other).enumerate() {
            let first = a.iter().zip(b).position(|(x, y)| x != y);
            assert!(
                a == b,
                "OpenMP thread {thread}: {workers} workers record another stream: {} against {} \
                 events, first difference at {first:?}: {:?} against {:?}",
                a.len(),
                b.len(),
                first.map(|i| &a[i.saturating_sub(2)..(i + 3).min(a.len())]),
                first.map(|i| &b[i.saturating_sub(2)..(i + 3).min(b.len())]),
            );
        }
    }
}
