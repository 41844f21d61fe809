//! IR tests of the instrumentation itself: every input verifies and compiles, hook calls match
//! what the input contains, ids are dense and stable, and the embedded metadata round-trips.

#[path = "../common/mod.rs"]
mod common;

use std::process::Command;

use common::*;
use inkwell::context::Context;
use inkwell::values::{AsValueRef, InstructionOpcode};
use rdpass::{instrument_file, instrument_module, PassConfig, PassError};
use rdtrace::abi;
use rdtrace::meta::{AccessKind, BranchKind, ModuleMeta, VarClass};

mod coalesce;
mod derived;
mod files;
mod hooks;
mod inline_records;
mod loop_runs;
mod metadata;

/// Instruments `module` as rdcc does by default (inline records) with `--rd-explain`, and
/// checks that the result verifies.
fn instrument_explained(module: &inkwell::module::Module<'_>) -> rdpass::InstrumentReport {
    let cfg = PassConfig {
        inline_records: true,
        explain: true,
        ..PassConfig::default()
    };
    let report = instrument_module(module, &cfg).unwrap();
    module.verify().unwrap();
    report
}

/// Asserts that clang-19 (part of the README's set-up) compiles the instrumented `module` to an
/// object file.
fn assert_compiles(module: &inkwell::module::Module<'_>) {
    let dir = tempfile::tempdir().unwrap();
    let bc = dir.path().join("m.bc");
    assert!(module.write_bitcode_to_path(&bc));
    let out = Command::new("clang-19")
        .arg("-c")
        .arg(&bc)
        .arg("-o")
        .arg(dir.path().join("m.o"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// What the uninstrumented input contains, counted independently of the pass.
#[derive(Debug, Default, PartialEq)]
struct InputCounts {
    blocks: usize,
    fixed_accesses: usize,
    range_accesses: usize,
    conditional_branches: usize,
    switches: usize,
}

fn count_input(name: &str) -> InputCounts {
    let ctx = Context::create();
    let module = load(&ctx, name);
    let mut c = InputCounts {
        blocks: count_blocks(&module),
        ..Default::default()
    };
    for inst in instructions(&module) {
        match inst.get_opcode() {
            InstructionOpcode::Load
            | InstructionOpcode::Store
            | InstructionOpcode::AtomicRMW
            | InstructionOpcode::AtomicCmpXchg => c.fixed_accesses += 1,
            InstructionOpcode::Br if inst.get_num_operands() == 3 => c.conditional_branches += 1,
            InstructionOpcode::Switch => c.switches += 1,
            InstructionOpcode::Call => {
                let callee = callee_name(inst).unwrap_or_default();
                if callee.starts_with("llvm.memcpy") || callee.starts_with("llvm.memmove") {
                    c.range_accesses += 2;
                } else if callee.starts_with("llvm.memset") {
                    c.range_accesses += 1;
                }
            }
            _ => {}
        }
    }
    c
}
