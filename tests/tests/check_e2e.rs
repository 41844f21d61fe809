//! `rda-report check`, the trace invariant checker: clean on real traces (and `run_traced`
//! runs it on every trace the e2e tests write), each kind of violation found and listed on a
//! hand-written trace, and the exit statuses 0 / 1 / 2.

use rdtools_e2e::*;
use rdtrace::meta::*;
use rdtrace::testing::{one_block_module, write_trace};
use rdtrace::Event;

/// An OpenMP program with a parallel region, a worksharing loop and a reduction: clean, with
/// the CFG edges of every thread checked.
#[test]
fn real_openmp_trace_is_clean() {
    let (_dir, tp) = trace_program(
        "basic/omp_reduction.c",
        &["-fopenmp", "-O1", "-DN=2000"],
        &[("OMP_NUM_THREADS", "3")],
    );
    let t = tp.to_str().unwrap();
    let v = rda_report_json(&["check", t, "--json"]);
    assert_eq!(v["violations_total"], 0, "{v}");
    assert!(v["threads"].as_u64().unwrap() >= 3, "{v}");
    // The reduction loop alone runs 2000 iterations, each a block-to-block edge.
    assert!(v["edges_checked"].as_u64().unwrap() >= 2000, "{v}");
    let (ok, out, _) = rda_report(&["check", t]);
    assert!(ok);
    assert!(out.contains("Trace invariants"), "{out}");
}

/// `main` with blocks 0 (entry, successor 1) and 1 (no successors), one region.
fn two_block_module() -> ModuleMeta {
    let mut m = one_block_module("m", 0);
    m.functions[0].num_blocks = 2;
    m.blocks[0].successors = vec![1];
    let exit = BlockMeta {
        name: "exit".into(),
        successors: vec![],
        ..m.blocks[0].clone()
    };
    m.blocks.push(exit);
    m.regions.push(rdtrace::testing::region(0, 0));
    m
}

#[test]
fn each_kind_of_violation_is_listed_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.rdtrace");
    let events = vec![
        Event::Block { bb: 0 },
        Event::Block { bb: 1 }, // 0 -> 1: an edge of the CFG
        Event::Stamp { time: 10 },
        Event::Stamp { time: 5 },  // event 3: the clock went back
        Event::Join { region: 0 }, // event 4: no fork to close
        Event::Block { bb: 1 },    // event 5: 1 -> 1 is not an edge (1 has no successors)
    ];
    write_trace(&path, &two_block_module(), &[events]).unwrap();
    let p = path.to_str().unwrap();
    let (ok, out, err) = rda_report(&["check", p, "--json"]);
    assert!(!ok);
    assert!(err.contains("3 invariant violation"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["violations_total"], 3);
    let found: Vec<(u64, &str)> = v["violations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| (x["event"].as_u64().unwrap(), x["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(found, [(3, "stamp"), (4, "pair"), (5, "cfg")]);
    // Counting goes on past the listing limit.
    let v = rda_report_json_status(&["check", p, "--json", "--limit", "1"]);
    assert_eq!(v["violations_total"], 3);
    assert_eq!(v["violations"].as_array().unwrap().len(), 1);
}

/// Like `rda_report_json` for a run that is expected to fail with status 1.
fn rda_report_json_status(args: &[&str]) -> serde_json::Value {
    let o = std::process::Command::new(&tools().rda_report)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn usage_errors_exit_2_and_missing_files_exit_1() {
    let status = |args: &[&str]| {
        std::process::Command::new(&tools().rda_report)
            .args(args)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(status(&["check"]), Some(2));
    assert_eq!(status(&["check", "x.rdtrace", "--limit", "many"]), Some(2));
    assert_eq!(status(&["check", "/nonexistent/x.rdtrace"]), Some(1));
}

/// `f` (blocks 0-2) calls `g` (blocks 3-4), which calls `f` again; block 0 ends in `setjmp`'s
/// test (branch 0: outcome 0 → block 1, the call; 1 → block 2, the return).
fn setjmp_module() -> ModuleMeta {
    use rdtrace::testing::{block, branch, function};
    let mut m = one_block_module("jmp", 0);
    m.functions = vec![function("f", 0, 3), function("g", 3, 2)];
    m.blocks = vec![
        BlockMeta {
            successors: vec![1, 2],
            ..block(0, "entry")
        },
        BlockMeta {
            successors: vec![2],
            ..block(0, "call")
        },
        block(0, "ret"),
        BlockMeta {
            successors: vec![4],
            ..block(1, "entry")
        },
        block(1, "throw"),
    ];
    m.branches = vec![branch(0, vec![1, 2], vec![None, None])];
    m
}

/// A recursive call made in the middle of block 0 returns (its frame ends at block 2, which has
/// no successors), then the caller's block 0 ends with its branch: the branch belongs to the
/// caller's frame, not to the returned one (SQLite's recursive walkers gave 120 false cfg
/// violations in real_programs' trace before returned frames were popped at branches).
#[test]
fn a_branch_after_a_returned_recursive_call_belongs_to_the_caller() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rec.rdtrace");
    let events = vec![
        Event::Block { bb: 0 }, // outer f
        Event::Block { bb: 0 }, // inner f, called from the middle of block 0
        Event::Branch { br: 0, outcome: 1 },
        Event::Block { bb: 2 },              // inner f returns
        Event::Branch { br: 0, outcome: 0 }, // the outer block 0's branch
        Event::Block { bb: 1 },
    ];
    write_trace(&path, &setjmp_module(), &[events]).unwrap();
    let v = rda_report_json(&["check", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["violations_total"], 0, "{v}");
    // The edges 0→2 (inner) and 0→1 (outer).
    assert_eq!(v["edges_checked"], 2, "{v}");
}

/// Lua's `pcall` inside `pcall`: the inner protected call (a recursive `f`) returns, and the
/// code it returned to (`g`, with the error thrown inline) jumps back with `longjmp` into the
/// outer `f`, whose `setjmp` returns a second time: branch 0 again, with no block in between.
/// The inner `f`'s frame has returned (its block 2 has no successors), so the branch belongs to
/// the outer frame (the real_programs Lua trace was reported with 27 cfg violations).
#[test]
fn setjmp_returning_twice_after_a_returned_recursive_call_is_no_violation() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("jmp.rdtrace");
    let events = vec![
        Event::Block { bb: 0 }, // outer f
        Event::Branch { br: 0, outcome: 0 },
        Event::Block { bb: 1 },
        Event::Block { bb: 3 }, // g
        Event::Block { bb: 0 }, // inner f
        Event::Branch { br: 0, outcome: 1 },
        Event::Block { bb: 2 }, // inner f returns to g, which throws
        Event::Branch { br: 0, outcome: 1 }, // outer setjmp returns again
        Event::Block { bb: 2 },
    ];
    write_trace(&path, &setjmp_module(), &[events]).unwrap();
    let v = rda_report_json(&["check", path.to_str().unwrap(), "--json"]);
    assert_eq!(v["violations_total"], 0, "{v}");
    // Blocks 1, 3, 0 (calls), 2 (inner), 2 (outer): the edges 0→1 and 0→2 twice are checked.
    assert_eq!(v["edges_checked"], 3, "{v}");
}
