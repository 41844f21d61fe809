//! Source locations from debug info, and the module's table of source file names.
//!
//! Locations come from each instruction's `!dbg` attachment through llvm-c's
//! `LLVMGetDebugLoc*` queries. File names are recorded as the debug info spells them (the path
//! given to clang for the main file, absolute paths for headers), which is what a compiler
//! diagnostic would print; the directory is not joined in. Without debug info every location is
//! `None`.

use std::collections::HashMap;

use inkwell::basic_block::BasicBlock;
use inkwell::llvm_sys::core::{
    LLVMGetDebugLocColumn, LLVMGetDebugLocFilename, LLVMGetDebugLocLine,
};
use inkwell::values::{AsValueRef, InstructionValue};
use rdtrace::meta::SourceLoc;

/// Deduplicated file names, indexed by [`SourceLoc::file`].
#[derive(Debug, Default)]
pub(crate) struct FileTable {
    files: Vec<String>,
    index: HashMap<String, u32>,
}

impl FileTable {
    /// Source location of an instruction, registering its file; `None` without a `!dbg`.
    pub(crate) fn loc_of(&mut self, inst: InstructionValue<'_>) -> Option<SourceLoc> {
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
    pub(crate) fn block_loc(&mut self, bb: BasicBlock<'_>) -> Option<SourceLoc> {
        bb.get_instructions()
            .find_map(|i| self.loc_of(i).filter(|l| l.line > 0))
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
