//! Source locations from debug info, and the module's table of source file names.
//!
//! Locations come from each instruction's `!dbg` attachment through llvm-c's
//! `LLVMGetDebugLoc*` queries. File names are recorded as the debug info spells them (the path
//! given to clang for the main file, absolute paths for headers), which is what a compiler
//! diagnostic would print; the directory is not joined in. Without debug info every location is
//! `None`.
//!
//! flang leaves many instructions without a location (the OpenMPIRBuilder's loop and reduction
//! code, its own runtime helpers inlined at `-O2`, like the loop of `SUM`), where clang attaches
//! one to nearly everything. For flang modules [`FileTable::inherit_missing`] gives such an
//! instruction the location of the nearest located code that always runs before it (up the
//! dominator tree), much as a line table gives an address without a row of its own the row
//! before it; layout order would not do, since the OpenMPIRBuilder places loop bodies after
//! the code that follows the loop.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::llvm_sys::core::{
    LLVMGetDebugLocColumn, LLVMGetDebugLocFilename, LLVMGetDebugLocLine,
};
use inkwell::llvm_sys::prelude::LLVMValueRef;
use inkwell::values::{AsValueRef, InstructionValue};
use rdtrace::meta::SourceLoc;

use crate::dominators::Dominators;

/// Deduplicated file names, indexed by [`SourceLoc::file`].
#[derive(Debug, Default)]
pub(crate) struct FileTable {
    files: Vec<String>,
    index: HashMap<String, u32>,
    /// Locations given to instructions that have none (see [`FileTable::inherit_missing`]).
    inherited: HashMap<LLVMValueRef, SourceLoc>,
}

impl FileTable {
    /// Source location of an instruction, registering its file; `None` without a `!dbg`.
    pub(crate) fn loc_of(&mut self, inst: InstructionValue<'_>) -> Option<SourceLoc> {
        let own = self.raw_loc(inst);
        if own.is_some_and(|l| l.line > 0) {
            return own;
        }
        self.inherited.get(&inst.as_value_ref()).copied().or(own)
    }

    /// For every instruction of the given functions (blocks in layout order with their
    /// successor lists, as [`crate::ids::FunctionInfo`] has them) without a location of its
    /// own (none, or line 0), records the location of the nearest located instruction that
    /// always runs before it: earlier in its block, else the last one of the nearest block up
    /// its dominator tree. Instructions with none (the start of the entry block) take the next
    /// located one of their block, else the function's first. Call before any instruction is
    /// inserted, since the walk covers the original instructions.
    pub(crate) fn inherit_missing<'ctx, 'a>(
        &mut self,
        functions: impl IntoIterator<Item = (&'a [BasicBlock<'ctx>], &'a [Vec<usize>])>,
    ) where
        'ctx: 'a,
    {
        for (blocks, succs) in functions {
            let own: Vec<Vec<(LLVMValueRef, Option<SourceLoc>)>> = blocks
                .iter()
                .map(|bb| {
                    bb.get_instructions()
                        .map(|i| (i.as_value_ref(), self.own_loc(i)))
                        .collect()
                })
                .collect();
            let last_of_block: Vec<Option<SourceLoc>> = own
                .iter()
                .map(|insts| insts.iter().rev().find_map(|&(_, loc)| loc))
                .collect();
            let first_of_function = own.iter().flatten().find_map(|&(_, loc)| loc);
            let dominators = Dominators::compute(succs, 0);
            for (b, insts) in own.iter().enumerate() {
                // The nearest strict dominator with a location.
                let mut current = None;
                let mut up = b;
                while let Some(idom) = dominators.idom(up).filter(|&d| d != up) {
                    if let Some(loc) = last_of_block[idom] {
                        current = Some(loc);
                        break;
                    }
                    up = idom;
                }
                for (k, &(raw, loc)) in insts.iter().enumerate() {
                    if loc.is_some() {
                        current = loc;
                        continue;
                    }
                    let inherited = current
                        .or_else(|| insts[k..].iter().find_map(|&(_, l)| l))
                        .or(first_of_function);
                    if let Some(l) = inherited {
                        self.inherited.insert(raw, l);
                    }
                }
            }
        }
    }

    /// The instruction's own `!dbg` location, unless it is line 0 (none).
    pub(crate) fn own_loc(&mut self, inst: InstructionValue<'_>) -> Option<SourceLoc> {
        self.raw_loc(inst).filter(|l| l.line > 0)
    }

    /// The instruction's own `!dbg` location.
    fn raw_loc(&mut self, inst: InstructionValue<'_>) -> Option<SourceLoc> {
        let raw = inst.as_value_ref();
        let mut len = 0u32;
        // Safety: `raw` is a live instruction. For instructions without a debug location LLVM
        // returns null; otherwise the pointer refers to the DIFile's string, valid while the
        // module lives, and is copied immediately.
        let name_ptr = unsafe { LLVMGetDebugLocFilename(raw, &mut len) };
        if name_ptr.is_null() {
            return None;
        }
        // Safety: LLVM guarantees `len` readable bytes at `name_ptr`.
        let name = unsafe { std::slice::from_raw_parts(name_ptr.cast::<u8>(), len as usize) };
        let name = String::from_utf8_lossy(name).into_owned();
        // Safety: as above; line and column are plain reads of the attached DILocation.
        let (line, col) = unsafe { (LLVMGetDebugLocLine(raw), LLVMGetDebugLocColumn(raw)) };
        if line == 0 && name.is_empty() {
            return None;
        }
        Some(SourceLoc {
            file: self.intern(name),
            line,
            col,
        })
    }

    /// Location of the first instruction of `bb` that has one.
    /// Location of the first instruction of `bb` that has one of its own, else of the first
    /// that inherited one.
    pub(crate) fn block_loc(&mut self, bb: BasicBlock<'_>) -> Option<SourceLoc> {
        bb.get_instructions()
            .find_map(|i| self.own_loc(i))
            .or_else(|| {
                bb.get_instructions()
                    .find_map(|i| self.loc_of(i).filter(|l| l.line > 0))
            })
    }

    fn intern(&mut self, name: String) -> u32 {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.files.len() as u32;
        self.files.push(name.clone());
        self.index.insert(name, i);
        i
    }

    /// Formats a location as `file:line:col`, or `?` when unknown.
    pub(crate) fn format(&self, loc: Option<SourceLoc>) -> String {
        rdtrace::meta::format_loc(&self.files, loc)
    }

    /// The file names, in id order.
    pub(crate) fn into_files(self) -> Vec<String> {
        self.files
    }
}
