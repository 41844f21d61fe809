//! Test fixtures shared by the crates' tests (feature `test-util`): small metadata modules built
//! by hand, so a test states only what it changes.

use crate::meta::*;

/// A function `main` with one block `entry` (no successors) holding `n` 8-byte shared loads,
/// in module `name` with the single file `{name}.c`. Override fields with struct update syntax:
/// `ModuleMeta { branches: ..., ..one_block_module("m", 4) }`.
pub fn one_block_module(name: &str, n: u32) -> ModuleMeta {
    ModuleMeta {
        name: name.into(),
        content_hash: 7,
        files: vec![format!("{name}.c")],
        functions: vec![FunctionMeta {
            name: "main".into(),
            loc: None,
            outlined: false,
            parallel: false,
            first_block: 0,
            num_blocks: 1,
        }],
        blocks: vec![BlockMeta {
            function: 0,
            name: "entry".into(),
            loc: None,
            parallel: false,
            successors: vec![],
            loop_id: None,
            first_mem_instr: 0,
            num_mem_instrs: n,
        }],
        mem_instrs: (0..n).map(|_| load8(0, None)).collect(),
        ..Default::default()
    }
}

/// An 8-byte shared load of block `block` (derivation `global @A`) at `loc`.
pub fn load8(block: u32, loc: Option<SourceLoc>) -> MemInstrMeta {
    MemInstrMeta {
        block,
        kind: AccessKind::Load,
        size: 8,
        vector: false,
        loc,
        class: VarClass::Shared,
        derivation: "global @A".into(),
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
    use crate::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo};
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = crate::writer::TraceWriter::new(file, &ProgramInfo::default())?;
    w.module(module)?;
    for (i, events) in threads.iter().enumerate() {
        w.thread(&ThreadInfo {
            thread: i as u32,
            ..Default::default()
        })?;
        w.events(i as u32, events)?;
    }
    let exit = ExitInfo {
        reason: ExitReason::Exit,
        end_time: 0,
        events_recorded: vec![],
    };
    use std::io::Write;
    w.finish(&exit)?.flush()
}
