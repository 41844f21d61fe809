//! Loop runs: one stored event per run of a single-block loop, read back as every iteration's
//! accesses, branch and implied block, and checked in the metadata.

use super::*;
use rdtrace::raw::{RawEvent, TAG_ACCESS, TAG_BLOCK, TAG_BRANCH, TAG_LOOP_RUN};

/// `entry` (block 0) ends in branch 0, whose outcome 0 enters `loop` (block 1, implied;
/// instructions 0-2 of 8, 4 and 8 bytes); `loop` ends in branch 1, recorded in runs (strides
/// 8, -4 and 16; outcome 0 exits to `exit`, block 2, implied, instruction 3; outcome 1
/// loops) (`version::V_LOOP_RUNS`).
fn loop_run_module() -> ModuleMeta {
    use rdtrace::testing::{block, branch, function, load8};
    let mut m = rdtrace::testing::one_block_module("runs", 4);
    m.functions = vec![function("main", 0, 3)];
    m.blocks = vec![
        BlockMeta {
            successors: vec![1, 2],
            ..block(0, "entry")
        },
        BlockMeta {
            successors: vec![2, 1],
            num_mem_instrs: 3,
            implied: true,
            ..block(0, "loop")
        },
        BlockMeta {
            first_mem_instr: 3,
            num_mem_instrs: 1,
            implied: true,
            ..block(0, "exit")
        },
    ];
    m.mem_instrs = [(1, 8), (1, 4), (1, 8), (2, 8)]
        .into_iter()
        .map(|(b, size)| MemInstrMeta {
            size,
            ..load8(b, None)
        })
        .collect();
    m.branches = vec![
        branch(0, vec![1, 2], vec![None, None]),
        BranchMeta {
            loop_run: Some(LoopRun {
                strides: vec![Some(8), Some(-4), Some(16)],
            }),
            ..branch(1, vec![2, 1], vec![None, None])
        },
    ];
    m
}

/// Iteration `t`'s addresses.
fn addrs(t: u64) -> [u64; 3] {
    [0x1000 + 8 * t, 0x8000 - 4 * t, 0x2000 + 16 * t]
}

fn run(raw: &mut Vec<RawEvent>, count: u64, exit: bool, last: [u64; 3]) {
    raw.push(RawEvent::new(TAG_LOOP_RUN, 3, 1, count << 1 | exit as u64));
    for (k, addr) in last.into_iter().enumerate() {
        raw.push(RawEvent::new(TAG_ACCESS, 0, k as u32, addr));
    }
}

/// Iterations `from..to` of the loop as events, the last one leaving when `exit`.
fn iterations(events: &mut Vec<Event>, from: u64, to: u64, exit: bool) {
    for t in from..to {
        for (mi, (addr, len)) in addrs(t).into_iter().zip([8, 4, 8]).enumerate() {
            events.push(Event::Access {
                mi: mi as u32,
                addr,
                len,
            });
        }
        let leave = exit && t == to - 1;
        events.push(Event::Branch {
            br: 1,
            outcome: !leave as u32,
        });
        events.push(Event::Block {
            bb: if leave { 2 } else { 1 },
        });
    }
}

fn write_raw(path: &Path, m: &ModuleMeta, chunks: &[Vec<RawEvent>], events: Option<&[Event]>) {
    let f = std::fs::File::create(path).unwrap();
    let mut w = TraceWriter::new(f, &ProgramInfo::default()).unwrap();
    w.module(m).unwrap();
    w.thread(&ThreadInfo {
        thread: 0,
        os_tid: 1,
        start_time: 0,
    })
    .unwrap();
    match events {
        Some(events) => w.events(0, events).unwrap(),
        None => {
            for c in chunks {
                w.raw_events(0, c).unwrap();
            }
        }
    }
    w.finish(&ExitInfo {
        reason: ExitReason::Exit,
        end_time: 9,
        events_recorded: vec![],
    })
    .unwrap();
}

#[test]
fn loop_runs_are_stored_once_and_read_back_per_iteration() {
    let m = loop_run_module();
    let blob = m.to_blob();
    assert_eq!(blob[4..8], rdtrace::version::V_LOOP_RUNS.to_le_bytes());
    assert_eq!(ModuleMeta::from_blob(&blob).unwrap(), m);
    // Without loop runs the blob keeps the implied blocks' version.
    let mut plain = m.clone();
    plain.branches[1].loop_run = None;
    assert_eq!(
        plain.to_blob()[4..8],
        rdtrace::version::V_IMPLIED_BLOCKS.to_le_bytes()
    );

    // Two chunks, cut between the runs (the runtime cuts only at hooks, never inside a run).
    let mut first = vec![
        RawEvent::new(TAG_BLOCK, 0, 0, 0),
        RawEvent::new(TAG_BRANCH, 0, 0, 0),
    ];
    run(&mut first, 3, false, addrs(2));
    run(&mut first, 0, false, addrs(2));
    let mut second = Vec::new();
    run(&mut second, 2, true, addrs(4));
    second.push(RawEvent::new(TAG_ACCESS, 0, 3, 0x500));
    let mut events = vec![
        Event::Block { bb: 0 },
        Event::Branch { br: 0, outcome: 0 },
        Event::Block { bb: 1 },
    ];
    iterations(&mut events, 0, 3, false);
    iterations(&mut events, 3, 5, true);
    events.push(Event::Access {
        mi: 3,
        addr: 0x500,
        len: 8,
    });

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("runs.rdtrace");
    write_raw(&path, &m, &[first, second], None);
    let trace = Trace::open(&path).unwrap();
    assert_eq!(trace.version, rdtrace::version::CURRENT);
    assert_eq!(read_thread(&trace, 0), events);
    // Stored: two records, three runs (one event each), one access.
    assert_eq!(trace.stored_events(), 6);
    assert_eq!(trace.total_events(), events.len() as u64);

    // The writer stores decoded iterations as plain events, which read back the same.
    let path = dir.path().join("plain.rdtrace");
    write_raw(&path, &m, &[], Some(&events));
    let trace = Trace::open(&path).unwrap();
    assert_eq!(read_thread(&trace, 0), events);
}

#[test]
fn corrupt_loop_runs_are_refused() {
    type Edit = fn(&mut ModuleMeta);
    let cases: [(Edit, &str); 9] = [
        (
            |m| {
                m.branches[1].successors = vec![2, 1, 0];
                m.branches[1].back_edge_of = vec![None; 3];
            },
            "has 3 successors, not two",
        ),
        (
            |m| m.branches[1].successors = vec![2, 0],
            "not exactly one successor is the branch's own block",
        ),
        (
            |m| m.branches[1].successors = vec![1, 1],
            "not exactly one successor is the branch's own block",
        ),
        (
            |m| m.blocks[1].implied = false,
            "the loop's block is not implied",
        ),
        (
            |m| {
                m.branches[1].loop_run.as_mut().unwrap().strides.pop();
            },
            "2 strides for the block's 3 memory instructions",
        ),
        (
            |m| {
                m.blocks[1].num_mem_instrs = 0;
                m.branches[1].loop_run.as_mut().unwrap().strides.clear();
            },
            "the loop's block has 0 memory instructions; a loop run has 1 to 32",
        ),
        (
            |m| {
                let extra = rdtrace::testing::load8(1, None);
                m.mem_instrs.extend(std::iter::repeat_n(extra, 30));
                m.blocks[1].num_mem_instrs = 33;
                m.branches[1].loop_run.as_mut().unwrap().strides = vec![Some(8); 33];
            },
            "the loop's block has 33 memory instructions",
        ),
        (
            |m| m.mem_instrs[1].size = 0,
            "memory instruction 1 is ranged",
        ),
        (
            |m| {
                m.mem_instrs[2].derived = Some(DerivedAddress {
                    anchor: 0,
                    offset: 8,
                })
            },
            "memory instruction 2 is derived",
        ),
    ];
    for (edit, why) in cases {
        let mut m = loop_run_module();
        edit(&mut m);
        let err = m.validate().unwrap_err().to_string();
        assert!(
            err.contains("loop run of branch 1") && err.contains(why),
            "{err}"
        );
        let err = ModuleMeta::from_blob(&m.to_blob()).unwrap_err().to_string();
        assert!(err.contains(why), "{err}");
    }
    // A loop-run list naming a branch outside the module.
    let mut blob = loop_run_module().to_blob();
    let tail = blob.len() - 9;
    // One entry: branch 1, three strides (each `Some`, then z(8), z(-4), z(16)).
    assert_eq!(blob[tail..], [1, 1, 3, 1, 16, 1, 7, 1, 32]);
    blob[tail + 1] = 9;
    let err = ModuleMeta::from_blob(&blob).unwrap_err().to_string();
    assert!(
        err.contains("loop-run branch 9 is not in the module (2 branches)"),
        "{err}"
    );
}
