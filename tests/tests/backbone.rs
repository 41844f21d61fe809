//! End to end through the backbone: programs in `test-programs/basic/` are built with `rdcc`,
//! run, and their traces checked against facts derived by reading the source.

use rdtools_e2e::*;
use rdtrace::chunk::ExitReason;
use rdtrace::meta::{AccessKind, BranchKind, VarClass};
use rdtrace::Event;

/// Blocks of `main` named `prefix*`, with their execution counts.
fn block_counts(trace: &rdtrace::Trace, c: &Counts, func: &str, prefix: &str) -> Vec<u64> {
    blocks_named(trace, func, prefix)
        .iter()
        .map(|b| c.blocks.get(b).copied().unwrap_or(0))
        .collect()
}

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
fn crashing_program_keeps_its_trace() {
    let src = "basic/crash.c";
    let (trace, out, d) = build_and_trace(src, &["-O0", "-g", "-DN=200000"], &[]);
    assert!(!out.status.success());
    assert_eq!(
        trace.exit.as_ref().map(|e| e.reason),
        Some(ExitReason::Signal(11))
    );
    let c = counts(&trace);
    let line = line_of(src, "a[i] = i;");
    let store: Vec<u32> = mem_instrs_at(&trace, "crash.c", line)
        .into_iter()
        .filter(|&m| trace.meta.mem_instrs[m as usize].kind == AccessKind::Store)
        .filter(|&m| trace.meta.mem_instrs[m as usize].class == VarClass::Shared)
        .collect();
    assert_eq!(store.len(), 1);
    let a = &c.accesses[&store[0]];
    assert_eq!(a.len(), 100_001, "every store up to and including i = N/2");
    assert!(a.windows(2).all(|w| w[1] - w[0] == 4));
    let (ok, text, err) = rda_report(&["info", d.path().join("prog.rdtrace").to_str().unwrap()]);
    assert!(ok, "{err}");
    assert!(text.contains("signal 11"), "{text}");
}

#[test]
fn damaged_traces_get_clear_answers() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("p");
    rdcc(
        &[program("basic/serial_loop.c")],
        &["-O1", "-DN=200000"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("RDTRACE_CHUNK_EVENTS", "4096")])
        .status
        .success());
    let bytes = std::fs::read(&tp).unwrap();
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let chunks = trace.event_chunks().to_vec();
    assert!(chunks.len() > 4);

    // Truncated inside the last events chunk: exit 0, a warning, the whole chunks analysed.
    let cut = dir.path().join("cut.rdtrace");
    std::fs::write(&cut, &bytes[..chunks[3].offset as usize + 50]).unwrap();
    let (ok, out, err) = rda_report(&["histogram", cut.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    assert!(err.contains("truncated at offset"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["total"].as_u64().unwrap() > 0);

    // A flipped bit in a payload (issue 10): the thread ends before that chunk, with a
    // warning naming the file, the offset and the thread; exit 0. With --strict: exit 1.
    let flip = dir.path().join("flip.rdtrace");
    let mut b = bytes.clone();
    b[chunks[2].offset as usize + 40] ^= 1;
    std::fs::write(&flip, &b).unwrap();
    let (ok, out, err) = rda_report(&["histogram", flip.to_str().unwrap(), "--json"]);
    assert!(ok, "{err}");
    assert!(
        err.contains(&format!(
            "thread 0: corrupt chunk at offset {}",
            chunks[2].offset
        )) && err.contains("flip.rdtrace"),
        "{err}"
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["total"].as_u64().unwrap() > 0);
    let o = std::process::Command::new(&tools().rda_report)
        .arg("histogram")
        .arg(&flip)
        .arg("--strict")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("corrupt chunk at offset {}", chunks[2].offset)),
        "{err}"
    );

    // Not a trace at all.
    let o = std::process::Command::new(&tools().rda_report)
        .arg("info")
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an rdtools trace"));

    // A usage error is status 2.
    let o = std::process::Command::new(&tools().rda_report)
        .arg("histogram")
        .arg(&tp)
        .args(["--line", "48"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("48 is not a power of two"));
}

#[test]
fn identical_builds_give_identical_objects_and_ids() {
    let dir = tempfile::tempdir().unwrap();
    let objs: Vec<Vec<u8>> = (0..2)
        .map(|i| {
            let o = dir.path().join(format!("o{i}.o"));
            let s = std::process::Command::new(&tools().rdcc)
                .args(["-fopenmp", "-O2", "-c"])
                .arg(program("basic/omp_reduction.c"))
                .arg("-o")
                .arg(&o)
                .status()
                .unwrap();
            assert!(s.success());
            std::fs::read(o).unwrap()
        })
        .collect();
    assert!(objs[0] == objs[1], "two identical builds differ");
}

#[test]
fn report_commands_print_tables_json_and_plots() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("red");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-fopenmp", "-O1", "-g", "-DN=4000"],
        &exe,
    );
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("OMP_NUM_THREADS", "2")])
        .status
        .success());
    let t = tp.to_str().unwrap();

    let (ok, json, err) = rda_report(&["info", t, "--json"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["threads"].as_array().unwrap().len(), 2);
    assert_eq!(v["static_counts"]["regions"].as_u64(), Some(1));
    assert_eq!(v["events"]["region_enters"].as_u64(), Some(2));
    assert_eq!(v["events"]["forks"].as_u64(), Some(1));

    // Dump shows events with file:line locations.
    let (ok, text, err) = rda_report(&["dump", t, "--limit", "50", "--no-stamps"]);
    assert!(ok, "{err}");
    assert!(text.contains("omp_reduction.c:"), "{text}");
    assert_eq!(text.lines().count(), 50 + 2, "header, rule and 50 events");
    let (ok, text, err) = rda_report(&["dump", t, "--limit", "1000000", "--no-stamps"]);
    assert!(ok, "{err}");
    assert!(text.contains("region enter 0 as omp thread 1/2"), "{text}");

    // Per-thread histograms sum to the whole, and the plot is an SVG with one bar per bin.
    let svg = dir.path().join("h.svg");
    let (ok, json, err) = rda_report(&[
        "histogram",
        t,
        "--per-thread",
        "--json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let threads = v["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    let sum: u64 = threads.iter().map(|t| t["total"].as_u64().unwrap()).sum();
    assert_eq!(v["total"].as_u64(), Some(sum));
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("<rect"));
    let bins = v["log2"].as_array().unwrap().len();
    assert_eq!(
        plot.matches("<rect x=").count(),
        bins + 1,
        "one bar per log2 bin plus cold"
    );

    // CSV has a header row and the same bins.
    let (ok, csv, _) = rda_report(&["histogram", t, "--csv"]);
    assert!(ok);
    assert!(
        csv.starts_with("distance,references,%,cumulative %"),
        "{csv}"
    );
}

#[test]
fn multi_file_program_has_one_module_per_source_and_disjoint_ids() {
    let dir = tempfile::tempdir().unwrap();
    let srcs: Vec<_> = ["main.c", "vec.c", "stats.c"]
        .iter()
        .map(|f| program(&format!("multifile/{f}")))
        .collect();
    let exe = dir.path().join("mf");
    rdcc(&srcs, &["-fopenmp", "-O1"], &exe);
    let tp = dir.path().join("t.rdtrace");
    assert!(run_traced(&exe, &tp, &[("OMP_NUM_THREADS", "2")])
        .status
        .success());
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let m = &trace.meta;
    assert_eq!(m.modules.len(), 3);
    // Bases are cumulative: module k's ids start where module k-1's end.
    for w in m.modules.windows(2) {
        assert!(w[0].bases.iter().zip(&w[1].bases).all(|(a, b)| a <= b));
    }
    // Every event refers to an id that exists, and blocks of each function stay inside it.
    let c = counts(&trace);
    assert!(c.blocks.keys().all(|&b| (b as usize) < m.blocks.len()));
    assert!(c
        .accesses
        .keys()
        .all(|&i| (i as usize) < m.mem_instrs.len()));
    for (fid, f) in m.functions.iter().enumerate() {
        for b in f.first_block..f.first_block + f.num_blocks {
            assert_eq!(m.blocks[b as usize].function as usize, fid);
        }
    }
}

#[test]
fn inline_records_and_hook_calls_give_the_same_trace() {
    // rdcc appends block, access and branch records inline by default, leaving out the records
    // of blocks that branch records imply; --rd-no-implied-blocks records every block, and
    // --rd-no-inline calls the runtime for each event. The traces must agree event for event (addresses up to ASLR),
    // stamps included: both count blocks on the same countdown, so the stamps fall between the
    // same events (only their times differ). `computed_goto.c` has an indirectbr to blocks
    // with PHIs, a self-loop, deep returns and a block longer than one run of inline records;
    // `app_mix.c` is branchy, call-heavy code. At -O1 and -O2, with the default stamp interval
    // and with intervals below and above the runtime's blocks between countdown hooks.
    // Addresses are compared where they can be: at -O0 the two builds' stack frames differ in
    // size (a recursion's stack addresses move), and heap blocks of app_mix.c land where the
    // runtime's own allocations (its writer thread's among them) leave room.
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("basic/branches.c", &["-O1"], &[]),
        ("basic/computed_goto.c", &["-O2"], &["300"]),
        ("basic/computed_goto.c", &["-O0"], &["300"]),
        (
            "bench/app_mix.c",
            &[
                "-O2",
                "-DROUNDS=1",
                "-DVM_N=40",
                "-DKEYS=300",
                "-DTREE_N=300",
            ],
            &[],
        ),
    ];
    for (source, opt, args) in cases {
        let addresses = !opt.contains(&"-O0") && !source.starts_with("bench/");
        for stamp_every in ["16", "5", "37"] {
            let mut seqs = Vec::new();
            let mut stored = Vec::new();
            let variants = [
                &[][..],
                &["--rd-no-implied-blocks"][..],
                &["--rd-no-inline"][..],
            ];
            for (i, extra) in variants.iter().enumerate() {
                let exe = dir.path().join(format!("p{i}"));
                let mut flags = vec!["-g"];
                flags.extend_from_slice(opt);
                flags.extend_from_slice(extra);
                rdcc(&[program(source)], &flags, &exe);
                let tp = dir.path().join(format!("t{i}.rdtrace"));
                let mut cmd = std::process::Command::new(&exe);
                cmd.args(*args)
                    .env("RDTRACE_QUIET", "1")
                    .env("RDTRACE_STAMP_EVERY", stamp_every);
                assert!(output_traced(&mut cmd, &tp).status.success());
                let trace = rdtrace::Trace::open(&tp).unwrap();
                stored.push(trace.stored_events());
                let mut events = Vec::new();
                trace.visit_thread(0, &mut events).unwrap();
                // Normalise: stamps without their times, each instruction's addresses relative
                // to its first (the stack and globals may move between two executables).
                let mut first: std::collections::HashMap<u32, u64> = Default::default();
                let norm: Vec<Event> = events
                    .into_iter()
                    .map(|e| match e {
                        Event::Stamp { .. } => Event::Stamp { time: 0 },
                        Event::Access { mi, addr, len } => {
                            let base = *first.entry(mi).or_insert(addr);
                            Event::Access {
                                mi,
                                addr: if addresses {
                                    addr.wrapping_sub(base)
                                } else {
                                    0
                                },
                                len,
                            }
                        }
                        other => other,
                    })
                    .collect();
                seqs.push(norm);
            }
            let what = format!("{source} {opt:?} RDTRACE_STAMP_EVERY={stamp_every}");
            assert!(seqs[0].len() > 2000, "{what}: {}", seqs[0].len());
            // The stamp rule, on the hook calls' trace: one before the first block, then one
            // before every `stamp_every`th block (no OpenMP events in these programs).
            let every: usize = stamp_every.parse().unwrap();
            let mut blocks = 0;
            for (k, e) in seqs[2].iter().enumerate() {
                if let Event::Block { .. } = e {
                    let stamped = k > 0 && matches!(seqs[2][k - 1], Event::Stamp { .. });
                    assert_eq!(stamped, blocks % every == 0, "{what}: block {blocks}");
                    blocks += 1;
                }
            }
            // The one difference implied blocks make: the stamp that an implied block's
            // countdown writes comes after the block event (which the decoder emits with the
            // branch, or which the predecessor's edge record stands for), not before it. So
            // the events are compared without stamps, and each stamp by the number of block
            // events before it, which an implied block may raise by one.
            let split = |seq: &[Event]| {
                let mut blocks = 0u64;
                let mut stamps_after = Vec::new();
                let mut rest = Vec::new();
                for e in seq {
                    match e {
                        Event::Stamp { .. } => stamps_after.push(blocks),
                        Event::Block { .. } => {
                            blocks += 1;
                            rest.push(*e)
                        }
                        _ => rest.push(*e),
                    }
                }
                (rest, stamps_after)
            };
            let (calls, calls_stamps) = split(&seqs[2]);
            for (v, name) in [(0, "inline"), (1, "inline, no implied blocks")] {
                let (events, stamps) = split(&seqs[v]);
                assert_eq!(events.len(), calls.len(), "{what}: {name}");
                if let Some(at) = (0..calls.len()).find(|&k| events[k] != calls[k]) {
                    panic!(
                        "{what}: event {at} differs: {name} {:?}, calls {:?}",
                        &events[at.saturating_sub(3)..(at + 3).min(calls.len())],
                        &calls[at.saturating_sub(3)..(at + 3).min(calls.len())]
                    );
                }
                assert_eq!(stamps.len(), calls_stamps.len(), "{what}: {name}");
                let slack = if v == 0 { 1 } else { 0 };
                for (k, (a, b)) in stamps.iter().zip(&calls_stamps).enumerate() {
                    assert!(
                        a >= b && a - b <= slack,
                        "{what}: {name}: stamp {k}: {a} vs {b}"
                    );
                }
            }
            // Every event is stored without implied blocks; with them, some blocks are not
            // (these programs' loops and conditionals enter blocks through branches).
            assert_eq!(stored[1], seqs[1].len() as u64, "{what}");
            assert_eq!(stored[2], seqs[2].len() as u64, "{what}");
            assert!(stored[0] < stored[1], "{what}: {stored:?}");
        }
    }
}

#[test]
fn inline_records_survive_huge_blocks_and_deep_returns() {
    // One straight-line block of 5000 stores (far more than the runtime's slack), and a
    // recursion 20000 deep whose every frame records accesses after the recursive call returns:
    // both must be traced completely, which needs the pass's checks in long blocks and after
    // calls.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("big.c");
    let mut c = String::from("#include <stdio.h>\nint a[5000];\nint depth_sum(int n) {\n  if (n == 0) return 0;\n  int r = depth_sum(n - 1);\n  a[n % 5000] += r;\n  return r + a[n % 5000] + 1;\n}\nint main(void) {\n");
    for k in 0..5000 {
        c.push_str(&format!("  a[{k}] = {k};\n"));
    }
    c.push_str("  printf(\"%d\\n\", depth_sum(20000));\n  return 0;\n}\n");
    std::fs::write(&src, c).unwrap();
    let exe = dir.path().join("big");
    rdcc(&[src], &["-O0", "-g"], &exe);
    let tp = dir.path().join("t.rdtrace");
    let out = run_traced(&exe, &tp, &[("RDTRACE_BUFFER_EVENTS", "64")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let trace = rdtrace::Trace::open(&tp).unwrap();
    let c = counts(&trace);
    let m = &trace.meta;
    // Stores to the global a[] from main: exactly 5000, at consecutive ints.
    let main_stores: Vec<u64> = c
        .accesses
        .iter()
        .filter(|(&mi, _)| {
            let i = &m.mem_instrs[mi as usize];
            i.kind == AccessKind::Store
                && i.derivation.contains("@a")
                && m.functions[m.blocks[i.block as usize].function as usize].name == "main"
        })
        .flat_map(|(_, v)| v.iter().copied())
        .collect();
    assert_eq!(main_stores.len(), 5000);
    // The recursion: the entry block of depth_sum runs 20001 times; the block after the call
    // (the `+=` line) 20000 times, each with its loads and stores of a[].
    let line = 6; // a[n % 5000] += r;
    let after_call: u64 = mem_instrs_at(&trace, "big.c", line)
        .iter()
        .filter(|&&mi| m.mem_instrs[mi as usize].derivation.contains("@a"))
        .map(|mi| c.accesses.get(mi).map_or(0, |v| v.len() as u64))
        .sum();
    assert_eq!(
        after_call,
        2 * 20_000,
        "a load and a store of a[] per frame"
    );
}
