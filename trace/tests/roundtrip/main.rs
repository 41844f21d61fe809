//! Round trips through writer, file and reader, and the reader's answers to damaged files.

use proptest::prelude::*;
use rdtrace::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo};
use rdtrace::meta::*;
use rdtrace::writer::TraceWriter;
use rdtrace::{Event, OpenOptions, Trace, TraceError};
use std::path::Path;

mod damaged;
mod deferred;
mod derived_accesses;
mod implied_blocks;
mod loop_runs;
mod ordering;
mod round_trips;

/// A module with `n` memory instructions of 8 bytes each in one block.
fn module(name: &str, n: u32) -> ModuleMeta {
    let mut m = rdtrace::testing::one_block_module(name, n);
    m.blocks[0].loc = rdtrace::testing::at(0, 3);
    // Enough branches, regions and worksharing loops for every id `arb_event` makes.
    m.branches = (0..2500)
        .map(|_| BranchMeta {
            block: 0,
            kind: BranchKind::Switch,
            successors: vec![0; 4],
            back_edge_of: vec![None; 4],
            loc: None,
            loop_run: None,
        })
        .collect();
    m.regions = (0..2)
        .map(|_| RegionMeta {
            outlined_function: 0,
            fork_block: 0,
            loc: None,
            shared_args: vec![],
        })
        .collect();
    m.workshares = (0..2)
        .map(|_| WorkshareMeta {
            function: 0,
            block: 0,
            kind: WorkshareKind::Static,
            schedule: None,
            chunk: None,
            loop_id: None,
            loc: None,
        })
        .collect();
    m
}

fn write_trace(path: &Path, threads: &[Vec<Event>], chunk: usize) {
    let f = std::fs::File::create(path).unwrap();
    let mut w = TraceWriter::new(
        f,
        &ProgramInfo {
            program: "t".into(),
            ..Default::default()
        },
    )
    .unwrap();
    w.module(&module("a", 4)).unwrap();
    w.module(&module("b", 4)).unwrap();
    for (t, events) in threads.iter().enumerate() {
        w.thread(&ThreadInfo {
            thread: t as u32,
            os_tid: 100 + t as u64,
            start_time: 0,
        })
        .unwrap();
        for part in events.chunks(chunk.max(1)) {
            w.events(t as u32, part).unwrap();
        }
    }
    w.finish(&ExitInfo {
        reason: ExitReason::Exit,
        end_time: 9,
        events_recorded: vec![],
    })
    .unwrap();
}

fn read_thread(trace: &Trace, t: u32) -> Vec<Event> {
    let mut v = Vec::new();
    trace.visit_thread(t, &mut v).unwrap();
    v
}
