//! Test fixtures shared by the crates' tests (feature `test-util`): small metadata modules built
//! by hand, so a test states only what it changes.

use crate::meta::*;

/// A function `main` with one block `entry` (no successors) holding `n` 8-byte shared loads,
/// in module `name` with the single file `{name}.c`. Change what a test needs through the
/// tables (`m.branches.push(...)`, `m.blocks[0].successors = ...`).
pub fn one_block_module(name: &str, n: u32) -> ModuleMeta {
    let tables = MetaTables {
        files: vec![format!("{name}.c")],
        functions: vec![function("main", 0, 1)],
        blocks: vec![BlockMeta {
            num_mem_instrs: n,
            ..block(0, "entry")
        }],
        mem_instrs: (0..n).map(|_| load8(0, None)).collect(),
        ..Default::default()
    };
    module(name, tables)
}

/// A module named `name` (content hash 7) with `tables`.
pub fn module(name: &str, tables: MetaTables) -> ModuleMeta {
    ModuleMeta {
        name: name.into(),
        content_hash: 7,
        tables,
    }
}

/// The program of one module registered at bases zero (its ids are the global ids).
pub fn program(module: ModuleMeta) -> ProgramMeta {
    let mut p = ProgramMeta::default();
    p.add_module(module, [0; crate::abi::IdKind::COUNT])
        .expect("a valid module at bases zero");
    p
}

/// A plain (not outlined, not parallel) function without location owning blocks
/// `first_block..first_block + num_blocks`.
pub fn function(name: &str, first_block: u32, num_blocks: u32) -> FunctionMeta {
    FunctionMeta {
        name: name.into(),
        loc: None,
        outlined: false,
        parallel: false,
        first_block,
        num_blocks,
    }
}

/// A block of `function` without location, successors, loop or memory instructions (set what a
/// test needs with struct update syntax).
pub fn block(function: u32, name: &str) -> BlockMeta {
    BlockMeta {
        function,
        name: name.into(),
        loc: None,
        parallel: false,
        successors: vec![],
        loop_id: None,
        first_mem_instr: 0,
        num_mem_instrs: 0,
        implied: false,
    }
}

/// A conditional branch of `block` without location; `back_edge_of[i]` names the loop whose
/// back-edge outcome `i` takes.
pub fn branch(block: u32, successors: Vec<u32>, back_edge_of: Vec<Option<u32>>) -> BranchMeta {
    BranchMeta {
        block,
        kind: BranchKind::Conditional,
        successors,
        back_edge_of,
        loc: None,
        loop_run: None,
    }
}

/// A loop of `function` with header `header` at nesting depth `depth` under `parent`.
pub fn natural_loop(function: u32, header: u32, parent: Option<u32>, depth: u32) -> LoopMeta {
    LoopMeta {
        function,
        header,
        parent,
        depth,
        loc: None,
    }
}

/// An 8-byte scalar access of `block` without location or derivation.
pub fn mem_instr(block: u32, kind: AccessKind, class: VarClass) -> MemInstrMeta {
    MemInstrMeta {
        block,
        kind,
        size: 8,
        vector: false,
        loc: None,
        class,
        derivation: String::new(),
        derived: None,
    }
}

/// A parallel region forked in `fork_block` that starts `outlined_function`, without location
/// or shared arguments.
pub fn region(outlined_function: u32, fork_block: u32) -> RegionMeta {
    RegionMeta {
        outlined_function,
        fork_block,
        loc: None,
        shared_args: vec![],
    }
}

/// A worksharing loop whose init call is in `block` of `function`, driving `loop_id`, with a
/// run-time schedule and chunk (set them with struct update syntax).
pub fn workshare(
    function: u32,
    block: u32,
    kind: WorkshareKind,
    loop_id: Option<u32>,
) -> WorkshareMeta {
    WorkshareMeta {
        function,
        block,
        kind,
        schedule: None,
        chunk: None,
        loop_id,
        loc: None,
    }
}

/// An 8-byte shared load of block `block` (derivation `global @A`) at `loc`.
pub fn load8(block: u32, loc: Option<SourceLoc>) -> MemInstrMeta {
    MemInstrMeta {
        loc,
        derivation: "global @A".into(),
        derived: None,
        ..mem_instr(block, AccessKind::Load, VarClass::Shared)
    }
}

/// `file:line:1`.
pub fn at(file: u32, line: u32) -> Option<SourceLoc> {
    Some(SourceLoc { file, line, col: 1 })
}

/// Writes a trace file of one module whose thread `i` runs `threads[i]`, ending with a normal
/// exit (no recorded event counts).
pub fn write_trace(
    path: &std::path::Path,
    module: &ModuleMeta,
    threads: &[Vec<crate::Event>],
) -> std::io::Result<()> {
    let threads: Vec<(u64, Vec<Vec<crate::Event>>)> =
        threads.iter().map(|t| (0, vec![t.clone()])).collect();
    write_trace_chunks(path, module, &threads)
}

/// Writes a trace file of one module whose thread `i` registers at time `threads[i].0` and
/// writes the events chunks `threads[i].1`, the threads' chunks interleaved in the file as a
/// run writes them (first chunks of every thread, then second chunks, ...), ending with a
/// normal exit (no recorded event counts).
pub fn write_trace_chunks(
    path: &std::path::Path,
    module: &ModuleMeta,
    threads: &[(u64, Vec<Vec<crate::Event>>)],
) -> std::io::Result<()> {
    use crate::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo};
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = crate::writer::TraceWriter::new(file, &ProgramInfo::default())?;
    w.module(module)?;
    let rounds = threads.iter().map(|t| t.1.len()).max().unwrap_or(0).max(1);
    for round in 0..rounds {
        for (i, (start_time, chunks)) in threads.iter().enumerate() {
            if round == 0 {
                w.thread(&ThreadInfo {
                    thread: i as u32,
                    start_time: *start_time,
                    ..Default::default()
                })?;
            }
            if let Some(events) = chunks.get(round) {
                w.events(i as u32, events)?;
            }
        }
    }
    let exit = ExitInfo {
        reason: ExitReason::Exit,
        end_time: 0,
        events_recorded: vec![],
    };
    use std::io::Write;
    w.finish(&exit)?.flush()
}
