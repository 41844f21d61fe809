//! Inline records against hook calls, and inline records under stress.

use super::*;

#[test]
fn inline_records_and_hook_calls_give_the_same_trace() {
    // rdcc appends block, access and branch records inline by default, leaving out the records
    // of blocks that branch records imply and of accesses at a constant offset from an earlier
    // one of the block; --rd-no-implied-blocks --rd-no-derived-accesses records every block and
    // access, and --rd-no-inline calls the runtime for each event. The traces must agree event for event (addresses up to ASLR),
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
                &["--rd-no-implied-blocks", "--rd-no-derived-accesses"][..],
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
            for (v, name) in [(0, "inline"), (1, "inline, every block and access")] {
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
            // Every event is stored without implied blocks and derived accesses; with them,
            // some blocks and accesses are not (these programs' loops and conditionals enter
            // blocks through branches, and their blocks access neighbouring fields and slots).
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

/// Builds the test program `source` (C, C++ or Fortran) with `flags` into `exe`, in `dir`
/// (flang writes the program's module files where it runs).
fn build_in(dir: &std::path::Path, source: &str, flags: &[&str], exe: &std::path::Path) {
    let compiler = if source.ends_with(".cpp") {
        &tools().rdcxx
    } else {
        &tools().rdcc
    };
    let o = std::process::Command::new(compiler)
        .current_dir(dir)
        .args(flags)
        .arg(program(source))
        .arg("-o")
        .arg(exe)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn derived_accesses_are_where_a_full_trace_puts_them() {
    // A derived access is left unrecorded because the pass proved its address is its anchor's
    // plus a constant and that it comes right after the access before it. A second build that
    // records every access (--rd-no-derived-accesses: the same ids) checks the proof on real
    // runs: in its trace, every access the first build derives directly follows the access of
    // the instruction before it, at the anchor's last address plus the offset. Branchy C with
    // structures and pointer chasing, C++ with templates and OpenMP at 4 threads, and Fortran
    // arrays (their descriptors' fields) at 2.
    use rdtrace::EventVisitor;
    struct Check {
        derived: Vec<Option<rdtrace::meta::DerivedAddress>>,
        last: Vec<u64>,
        prev: Option<u32>,
        checked: u64,
    }
    impl EventVisitor for Check {
        fn access(&mut self, mi: u32, addr: u64, _len: u64) {
            if let Some(d) = self.derived[mi as usize] {
                assert_eq!(self.prev, Some(mi - 1), "derived access {mi}: position");
                let at = self.last[d.anchor as usize].wrapping_add(d.offset as u64);
                assert_eq!(at, addr, "derived access {mi}: {d:?}");
                self.checked += 1;
            }
            self.last[mi as usize] = addr;
            self.prev = Some(mi);
        }
        fn block(&mut self, _bb: u32) {
            self.prev = None;
        }
        fn branch(&mut self, _br: u32, _outcome: u32) {
            self.prev = None;
        }
        fn other(&mut self, e: Event) {
            // Stamps come with block entries, between accesses of different blocks.
            if !matches!(e, Event::Stamp { .. }) {
                self.prev = None;
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let app_mix = [
        "-O2",
        "-DROUNDS=1",
        "-DVM_N=400",
        "-DKEYS=3000",
        "-DTREE_N=3000",
    ];
    let cases: &[(&str, &[&str], &str)] = &[
        ("bench/app_mix.c", &app_mix, "1"),
        ("cxx/particles.cpp", &["-O2", "-fopenmp"], "4"),
        ("fortran/heat.f90", &["-O2", "-fopenmp"], "2"),
    ];
    for (source, flags, threads) in cases {
        let mut traces = Vec::new();
        // Loop runs (which take whole loop blocks, derived accesses and all) off in both.
        for (i, extra) in [
            &["--rd-no-loop-runs"][..],
            &["--rd-no-loop-runs", "--rd-no-derived-accesses"][..],
        ]
        .iter()
        .enumerate()
        {
            let exe = dir.path().join(format!("d{i}"));
            build_in(dir.path(), source, &[*flags, *extra].concat(), &exe);
            let tp = dir.path().join(format!("d{i}.rdtrace"));
            let mut cmd = std::process::Command::new(&exe);
            cmd.env("RDTRACE_QUIET", "1")
                .env("OMP_NUM_THREADS", threads);
            assert!(output_traced(&mut cmd, &tp).status.success(), "{source}");
            traces.push(rdtrace::Trace::open(&tp).unwrap());
        }
        let derived: Vec<_> = traces[0]
            .meta
            .mem_instrs
            .iter()
            .map(|m| m.derived)
            .collect();
        assert!(traces[1]
            .meta
            .mem_instrs
            .iter()
            .all(|m| m.derived.is_none()));
        assert_eq!(derived.len(), traces[1].meta.mem_instrs.len(), "{source}");
        let mut check = Check {
            last: vec![0; derived.len()],
            derived,
            prev: None,
            checked: 0,
        };
        for t in traces[1].thread_indices() {
            check.prev = None;
            traces[1].visit_thread(t, &mut check).unwrap();
        }
        assert!(check.checked > 1000, "{source}: {} checked", check.checked);
        // The derived build stores fewer events for the same run's worth of accesses.
        assert!(
            traces[0].stored_events() < traces[1].stored_events(),
            "{source}"
        );
    }
}

#[test]
fn loop_runs_give_every_iteration_exactly() {
    // A single-block loop whose accesses move by constant strides is recorded in runs: one
    // record with the iteration count and the last iteration's addresses per run (between two
    // countdown hooks, and at the exit), from which the decoder re-creates every iteration's
    // accesses, branch and block. A build that records every iteration (--rd-no-loop-runs, the
    // same ids) must give the same events, stamps in the same places: a matrix multiply (an
    // unrolled inner loop of strided loads), a Jacobi stencil (neighbouring loads, vectorised
    // bodies), branchy C (app_mix) and C++ templates (one OpenMP thread, so both runs do the
    // same), Fortran arrays (descriptor strides, narrow indices), at the default stamp
    // interval and at intervals below and above the countdown's reach. Addresses are compared per instruction, relative to its first,
    // but on app_mix, whose heap blocks land where the runtime's own allocations leave room.
    let dir = tempfile::tempdir().unwrap();
    let app_mix = [
        "-O2",
        "-DROUNDS=1",
        "-DVM_N=40",
        "-DKEYS=300",
        "-DTREE_N=300",
    ];
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("bench/matmul.c", &["-O2", "-DN=48"], &["16", "5", "37"]),
        (
            "bench/stencil.c",
            &["-O2", "-DN=64", "-DT=2"],
            &["16", "37"],
        ),
        ("bench/app_mix.c", &app_mix, &["16"]),
        ("cxx/particles.cpp", &["-O2", "-fopenmp"], &["16"]),
        // flang's loops: `lb + iv` in i32 without nsw, sign-extended (checked for wrapping).
        ("fortran/heat.f90", &["-O2", "-fopenmp"], &["16", "37"]),
    ];
    for (source, flags, intervals) in cases {
        let mut exes = Vec::new();
        for (i, extra) in [&[][..], &["--rd-no-loop-runs"][..]].iter().enumerate() {
            let exe = dir.path().join(format!("r{i}"));
            build_in(dir.path(), source, &[*flags, *extra].concat(), &exe);
            exes.push(exe);
        }
        for stamp_every in *intervals {
            let what = format!("{source} RDTRACE_STAMP_EVERY={stamp_every}");
            let mut runs = Vec::new();
            for (i, exe) in exes.iter().enumerate() {
                let tp = dir.path().join(format!("r{i}.rdtrace"));
                let mut cmd = std::process::Command::new(exe);
                cmd.current_dir(dir.path())
                    .env("RDTRACE_QUIET", "1")
                    .env("OMP_NUM_THREADS", "1")
                    .env("RDTRACE_STAMP_EVERY", stamp_every);
                assert!(output_traced(&mut cmd, &tp).status.success(), "{what}");
                let trace = rdtrace::Trace::open(&tp).unwrap();
                let mut threads = Vec::new();
                for t in trace.thread_indices() {
                    let mut events = Vec::new();
                    trace.visit_thread(t, &mut events).unwrap();
                    let mut first: std::collections::HashMap<u32, u64> = Default::default();
                    let norm: Vec<Event> = (events.into_iter())
                        .map(|e| match e {
                            Event::Stamp { .. } => Event::Stamp { time: 0 },
                            Event::Access { mi, addr, len } => {
                                let base = *first.entry(mi).or_insert(addr);
                                let addr = if source.contains("app_mix") {
                                    0
                                } else {
                                    addr.wrapping_sub(base)
                                };
                                Event::Access { mi, addr, len }
                            }
                            other => other,
                        })
                        .collect();
                    threads.push(norm);
                }
                let loops = (trace.meta.branches.iter())
                    .filter(|b| b.loop_run.is_some())
                    .count();
                runs.push((threads, trace.stored_events(), loops));
            }
            let (runs_threads, runs_stored, loops) = &runs[0];
            let (full_threads, full_stored, none) = &runs[1];
            assert!(
                *loops > 0 && *none == 0,
                "{what}: {loops} / {none} loops in runs"
            );
            assert_eq!(runs_threads.len(), full_threads.len(), "{what}");
            for (a, b) in runs_threads.iter().zip(full_threads) {
                assert!(b.len() > 2000, "{what}: {}", b.len());
                assert_runs_match_every_iteration(&what, a, b);
            }
            assert!(
                runs_stored < full_stored,
                "{what}: {runs_stored} / {full_stored}"
            );
        }
    }
}

#[test]
fn loop_runs_put_every_access_at_its_address() {
    // The test above compares addresses relative to each instruction's first, which would not
    // see every address of an instruction off by the same amount (a run's first iteration
    // misplaced by a stride, say). This program prints where its arrays are, so each heap
    // access becomes (array, offset) and both builds' traces must give exactly the same: loops
    // forwards and backwards, strides of 8, 12 and 56 bytes and strides known only at run time
    // (a column walk, down and up), an unrolled and a vectorised body, runs that end at the
    // exit and runs cut by the countdown.
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("strides.c");
    std::fs::write(
        &src,
        r#"#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 3000;
    double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
    float *c = malloc(3 * n * sizeof(float));
    if (!a || !b || !c) return 1;
    printf("%p %p %p\n", (void *)a, (void *)b, (void *)c);
    for (int i = 0; i < n; i++) a[i] = i;
    for (int i = 0; i + 1 < n; i++) b[i] = a[i] * 2 + a[i + 1];
    for (int i = n - 1; i >= 0; i--) c[3 * i + 1] = (float)b[i];
    double s = 0;
    for (int r = 0; r < 3; r++)
        for (int i = 0; i < n; i += 7) s += a[i] * c[3 * i + 1];
    /* Strides known only at run time: rows of w doubles, walked down a column. */
    int w = argc > 2 ? atoi(argv[2]) : 30, rows = n / w;
    for (int j = 0; j < w; j++)
        for (int i = 0; i < rows; i++) s += a[i * w + j] * b[(rows - 1 - i) * w + j];
    printf("%f\n", s);
    return 0;
}
"#,
    )
    .unwrap();
    let mut seqs = Vec::new();
    let mut loops = Vec::new();
    let mut runtime_strides = 0;
    for (i, extra) in [&[][..], &["--rd-no-loop-runs"][..]].iter().enumerate() {
        let exe = dir.path().join(format!("s{i}"));
        let mut flags = vec!["-O2"];
        flags.extend_from_slice(extra);
        rdcc(std::slice::from_ref(&src), &flags, &exe);
        let tp = dir.path().join(format!("s{i}.rdtrace"));
        let out = output_traced(
            std::process::Command::new(&exe).env("RDTRACE_QUIET", "1"),
            &tp,
        );
        assert!(out.status.success());
        let stdout = String::from_utf8(out.stdout).unwrap();
        let bases: Vec<u64> = (stdout.lines().next().unwrap().split(' '))
            .map(|p| u64::from_str_radix(p.trim_start_matches("0x"), 16).unwrap())
            .collect();
        let sizes = [3000 * 8, 3000 * 8, 3000 * 12];
        let trace = rdtrace::Trace::open(&tp).unwrap();
        let mut events = Vec::new();
        trace.visit_thread(0, &mut events).unwrap();
        let mut heap = 0;
        let norm: Vec<(Event, Option<(usize, u64)>)> = (events.into_iter())
            .filter(|e| !matches!(e, Event::Stamp { .. }))
            .map(|e| match e {
                Event::Access { mi, addr, len } => {
                    let at = (0..3).find(|&k| addr >= bases[k] && addr < bases[k] + sizes[k]);
                    heap += at.is_some() as u64;
                    let place = at.map(|k| (k, addr - bases[k]));
                    (Event::Access { mi, addr: 0, len }, place)
                }
                other => (other, None),
            })
            .collect();
        assert!(heap > 10_000, "{heap} heap accesses");
        loops.push(
            (trace.meta.branches.iter())
                .filter(|b| b.loop_run.is_some())
                .count(),
        );
        runtime_strides += (trace.meta.branches.iter())
            .filter_map(|b| b.loop_run.as_ref())
            .flat_map(|r| r.strides.iter())
            .filter(|s| s.is_none())
            .count();
        seqs.push(norm);
    }
    assert!(loops[0] >= 4 && loops[1] == 0, "{loops:?} loops in runs");
    assert!(runtime_strides > 0, "no loop with a run-time stride");
    assert_runs_match_every_iteration("strides.c", &seqs[0], &seqs[1]);
}
