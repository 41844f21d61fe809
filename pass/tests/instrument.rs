//! IR tests of the instrumentation itself: every input verifies and compiles, hook calls match
//! what the input contains, ids are dense and stable, and the embedded metadata round-trips.

mod common;

use std::process::Command;

use common::*;
use inkwell::context::Context;
use inkwell::values::{AsValueRef, InstructionOpcode};
use rdpass::{instrument_file, instrument_module, PassConfig, PassError};
use rdtrace::abi;
use rdtrace::meta::{AccessKind, BranchKind, ModuleMeta, VarClass};

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

#[test]
fn hook_calls_match_the_input() {
    for name in ALL_INPUTS {
        let input = count_input(name);
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let meta = &report.meta;
        let back_edges = meta
            .branches
            .iter()
            .filter(|b| b.kind == BranchKind::BackEdge)
            .count();
        assert_eq!(
            count_calls(&module, abi::BASIC_BLOCK),
            input.blocks,
            "{name}: block hooks"
        );
        assert_eq!(meta.blocks.len(), input.blocks, "{name}: block metadata");
        assert_eq!(
            count_calls(&module, abi::ACCESS),
            input.fixed_accesses,
            "{name}: access hooks"
        );
        assert_eq!(
            count_calls(&module, abi::ACCESS_RANGE),
            input.range_accesses,
            "{name}: range hooks"
        );
        assert_eq!(
            meta.mem_instrs.len(),
            input.fixed_accesses + input.range_accesses,
            "{name}: memory instruction metadata"
        );
        assert_eq!(
            count_calls(&module, abi::BRANCH),
            input.conditional_branches + input.switches + back_edges,
            "{name}: branch hooks"
        );
        assert_eq!(
            meta.branches.len(),
            count_calls(&module, abi::BRANCH),
            "{name}"
        );
        let kinds = |k| meta.branches.iter().filter(|b| b.kind == k).count();
        assert_eq!(
            kinds(BranchKind::Conditional),
            input.conditional_branches,
            "{name}"
        );
        assert_eq!(kinds(BranchKind::Switch), input.switches, "{name}");
        // One explain line per memory instruction, plus lines for untraced ones.
        assert!(
            report.explain.len() >= meta.mem_instrs.len(),
            "{name}: explain lines"
        );
    }
}

#[test]
fn inline_records_replace_access_and_branch_calls() {
    for name in ALL_INPUTS {
        let input = count_input(name);
        let ctx = Context::create();
        let module = load(&ctx, name);
        let calls_in = instructions(&module)
            .into_iter()
            .filter(|&i| {
                i.get_opcode() == InstructionOpcode::Call
                    && !callee_name(i).unwrap_or_default().starts_with("llvm.")
            })
            .count();
        let cfg = rdpass::PassConfig {
            inline_records: true,
            ..rdpass::PassConfig::default()
        };
        let report = rdpass::instrument_module(&module, &cfg).unwrap();
        module.verify().unwrap();
        // No block, access or branch calls are left; ranges still call the runtime, and every
        // block entry has its (cold) countdown call.
        assert_eq!(count_calls(&module, abi::ACCESS), 0, "{name}");
        assert_eq!(count_calls(&module, abi::BRANCH), 0, "{name}");
        assert_eq!(count_calls(&module, abi::BASIC_BLOCK), 0, "{name}");
        assert_eq!(
            count_calls(&module, abi::BLOCK_COUNTDOWN),
            input.blocks,
            "{name}"
        );
        assert_eq!(
            count_calls(&module, abi::ACCESS_RANGE),
            input.range_accesses,
            "{name}"
        );
        // One record per fixed access, branch and block that is not implied, and one edge
        // record per unconditional `br` (a block without a branch site) into an implied block:
        // each writes the cursor back once; and one countdown decrement per block, implied or
        // not.
        let meta = &report.meta;
        let implied = meta.blocks.iter().filter(|b| b.implied).count();
        let branching: std::collections::HashSet<u32> =
            meta.branches.iter().map(|b| b.block).collect();
        let edge_records = (0..meta.blocks.len() as u32)
            .filter(|p| !branching.contains(p))
            .flat_map(|p| meta.blocks[p as usize].successors.iter())
            .filter(|&&s| meta.blocks[s as usize].implied)
            .count();
        assert_eq!(
            tls_stores(&module, abi::CURSOR_TLS),
            input.blocks - implied + edge_records + input.fixed_accesses + meta.branches.len(),
            "{name}"
        );
        // Entries are never implied; blocks whose every predecessor branches to them are.
        for f in &meta.functions {
            assert!(!meta.blocks[f.first_block as usize].implied, "{name}");
        }
        for (b, block) in meta.blocks.iter().enumerate() {
            let preds: Vec<usize> = (0..meta.blocks.len())
                .filter(|&p| meta.blocks[p].successors.contains(&(b as u32)))
                .collect();
            let recorded = |p: &usize| branching.contains(&(*p as u32));
            if !preds.is_empty() && preds.iter().all(recorded) {
                let f = &meta.functions[block.function as usize];
                assert!(block.implied || f.first_block == b as u32, "{name}: {b}");
            }
        }
        assert_eq!(
            tls_stores(&module, abi::COUNTDOWN_TLS),
            input.blocks,
            "{name}"
        );
        // A check after every call of the input that is not an intrinsic (none of these inputs
        // has blocks long enough to need more).
        assert_eq!(count_calls(&module, abi::CHECK), calls_in, "{name}");
        for tls in [abi::CURSOR_TLS, abi::COUNTDOWN_TLS] {
            let g = module.get_global(tls).expect("thread-local declared");
            assert!(g.is_thread_local() && g.is_declaration(), "{name}: {tls}");
        }
    }
}

/// Stores to the calling thread's copy of the thread-local `global` (through
/// `llvm.threadlocal.address`).
fn tls_stores(module: &inkwell::module::Module<'_>, global: &str) -> usize {
    instructions(module)
        .into_iter()
        .filter(|&i| i.get_opcode() == InstructionOpcode::Store)
        .filter(|&i| {
            i.get_operand(1)
                .and_then(|o| o.value())
                .and_then(|v| inkwell::values::BasicValue::as_instruction_value(&v))
                .is_some_and(|p| {
                    callee_name(p).is_some_and(|c| c.starts_with("llvm.threadlocal.address"))
                        && p.get_operand(0)
                            .and_then(|o| o.value())
                            .is_some_and(|g| g.get_name().to_str() == Ok(global))
                })
        })
        .count()
}

#[test]
fn inline_block_entries_split_blocks_soundly() {
    // Every instrumented block is split after its countdown test: an entry block (PHIs, EH pad,
    // allocas, the test) that branches to a block calling the countdown hook or straight on to
    // the original block, which starts with the block record and keeps the terminator.
    let ctx = Context::create();
    let module = load(&ctx, "block_entries.ll");
    // Every block with its own record, which the checks below find (implied blocks have none).
    let cfg = PassConfig {
        inline_records: true,
        no_implied_blocks: true,
        ..PassConfig::default()
    };
    instrument_module(&module, &cfg).unwrap();
    module.verify().unwrap();
    type Block<'c> = inkwell::basic_block::BasicBlock<'c>;
    fn successors<'c>(bb: Block<'c>) -> Vec<Block<'c>> {
        let term = bb.get_terminator().unwrap();
        (0..term.get_num_operands())
            .filter_map(|i| term.get_operand(i).and_then(|o| o.block()))
            .collect()
    }
    let name = |bb: Block<'_>| bb.get_name().to_str().unwrap().to_owned();
    let mut entries = 0;
    for f in module.get_functions() {
        for bb in f.get_basic_blocks() {
            let hooks: Vec<String> = bb.get_instructions().filter_map(callee_name).collect();
            if !hooks.iter().any(|h| h == abi::BLOCK_COUNTDOWN) {
                continue;
            }
            // The hook block: the call and a branch back to the original block.
            assert_eq!(hooks, [abi::BLOCK_COUNTDOWN], "{}", name(bb));
            assert_eq!(bb.get_instructions().count(), 2);
            let [original] = successors(bb)[..] else {
                panic!("{}: {:?}", name(bb), successors(bb));
            };
            // Its one predecessor: the entry block, `br (countdown - 1 <= 0), hook, original`.
            let preds: Vec<_> = f
                .get_basic_blocks()
                .into_iter()
                .filter(|p| successors(*p).contains(&bb))
                .collect();
            let [pre] = preds[..] else {
                panic!("{}: {} predecessors", name(bb), preds.len());
            };
            let term = pre.get_terminator().unwrap();
            assert_eq!(term.get_num_operands(), 3, "{}", name(pre));
            let mut targets = successors(pre);
            targets.sort_by_key(|b| name(*b));
            let mut expect = vec![bb, original];
            expect.sort_by_key(|b| name(*b));
            assert_eq!(targets, expect, "{}", name(pre));
            // The original block starts with the block record: its first store is a head
            // word with the block tag.
            let head = rdtrace::raw::head_of(rdtrace::raw::TAG_BLOCK, 0);
            let first_store = original
                .get_instructions()
                .find(|i| i.get_opcode() == InstructionOpcode::Store)
                .unwrap();
            let value = first_store.get_operand(0).unwrap().value().unwrap();
            let or = inkwell::values::BasicValue::as_instruction_value(&value).unwrap();
            assert_eq!(or.get_opcode(), InstructionOpcode::Or, "{}", name(original));
            let tag = or.get_operand(1).unwrap().value().unwrap().into_int_value();
            assert_eq!(tag.get_zero_extended_constant(), Some(head));
            // PHIs and landing pads stay in front, in the entry block.
            for i in original.get_instructions() {
                assert!(
                    !matches!(
                        i.get_opcode(),
                        InstructionOpcode::Phi | InstructionOpcode::LandingPad
                    ),
                    "{}",
                    name(original)
                );
            }
            entries += 1;
        }
    }
    assert_eq!(entries, 12, "one per block of the input");
    // The invoke unwinds to the entry block of the landing pad, which starts with it.
    let guarded = module.get_function("guarded").unwrap();
    let invoke = guarded
        .get_basic_blocks()
        .into_iter()
        .flat_map(|b| b.get_instructions().collect::<Vec<_>>())
        .find(|i| i.get_opcode() == InstructionOpcode::Invoke)
        .unwrap();
    let unwind = (0..invoke.get_num_operands())
        .filter_map(|i| invoke.get_operand(i).and_then(|o| o.block()))
        .next_back()
        .unwrap();
    assert_eq!(
        unwind.get_first_instruction().unwrap().get_opcode(),
        InstructionOpcode::LandingPad
    );
    // Computed goto lands on the entry blocks: every address taken (the table's constants) and
    // every indirectbr destination is a block that branches to a countdown call.
    let is_entry = |bb: Block<'_>| {
        successors(bb).iter().any(|s| {
            s.get_instructions()
                .filter_map(callee_name)
                .any(|c| c == abi::BLOCK_COUNTDOWN)
        })
    };
    let table = module
        .get_global("table")
        .unwrap()
        .get_initializer()
        .unwrap();
    for i in 0..3 {
        // Safety: @table is a constant [3 x ptr] of blockaddress constants.
        let bb = unsafe {
            let c = inkwell::llvm_sys::core::LLVMGetAggregateElement(table.as_value_ref(), i);
            inkwell::basic_block::BasicBlock::new(
                inkwell::llvm_sys::core::LLVMGetBlockAddressBasicBlock(c),
            )
            .unwrap()
        };
        assert!(is_entry(bb), "blockaddress {i} is {}", name(bb));
    }
    let threaded = module.get_function("threaded").unwrap();
    for bb in threaded.get_basic_blocks() {
        let term = bb.get_terminator().unwrap();
        if term.get_opcode() == InstructionOpcode::IndirectBr {
            for dest in successors(bb) {
                assert!(is_entry(dest), "indirectbr to {}", name(dest));
            }
        }
    }
    // The self-loop re-enters through its entry block, whose PHI names the loop block (which
    // kept the terminator) as its incoming block.
    let spin = module.get_function("spin").unwrap();
    let loop_bb = spin
        .get_basic_blocks()
        .into_iter()
        .find(|b| name(*b) == "loop")
        .unwrap();
    let pre = successors(loop_bb)
        .into_iter()
        .find(|b| b.get_first_instruction().unwrap().get_opcode() == InstructionOpcode::Phi)
        .expect("the loop's entry block");
    let phi = pre.get_first_instruction().unwrap();
    let phi = inkwell::values::PhiValue::try_from(phi).unwrap();
    let incoming: Vec<_> = (0..phi.count_incoming())
        .map(|i| name(phi.get_incoming(i).unwrap().1))
        .collect();
    assert!(incoming.contains(&"loop".to_owned()), "{incoming:?}");
    // It compiles.
    if Command::new("clang-19").arg("--version").output().is_ok() {
        let dir = tempfile::tempdir().unwrap();
        let bc = dir.path().join("e.bc");
        assert!(module.write_bitcode_to_path(&bc));
        let out = Command::new("clang-19")
            .arg("-c")
            .arg(&bc)
            .arg("-o")
            .arg(dir.path().join("e.o"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn back_edges_of_loops_o0_follow_the_source() {
    // loops.c at -O0: nested() has two `for` loops, skip_odd() one `while` whose `continue` and
    // end of body both jump back to the condition, classify() one `for`: five unconditional
    // back-edge branches, no conditional ones (clang -O0 tests at the top of each loop).
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "loops_O0.ll");
    let back: Vec<_> = report
        .meta
        .branches
        .iter()
        .filter(|b| b.kind == BranchKind::BackEdge)
        .collect();
    assert_eq!(back.len(), 5);
    for b in &back {
        assert_eq!(b.successors.len(), 1);
        let lp = b.back_edge_of[0].expect("a back-edge names its loop");
        assert_eq!(report.meta.loops[lp as usize].header, b.successors[0]);
    }
    let conditional_back = report
        .meta
        .branches
        .iter()
        .filter(|b| b.kind != BranchKind::BackEdge && b.back_edge_of.iter().any(Option::is_some))
        .count();
    assert_eq!(conditional_back, 0);
}

#[test]
fn ids_are_dense_and_contiguous() {
    for name in ALL_INPUTS {
        let ctx = Context::create();
        let (_, report) = instrument(&ctx, name);
        let m = &report.meta;
        let mut next_block = 0;
        for (f, func) in m.functions.iter().enumerate() {
            assert_eq!(func.first_block, next_block, "{name}: {}", func.name);
            for b in func.first_block..func.first_block + func.num_blocks {
                assert_eq!(m.blocks[b as usize].function, f as u32, "{name}");
                assert_eq!(m.blocks[b as usize].parallel, func.parallel, "{name}");
            }
            next_block += func.num_blocks;
        }
        assert_eq!(next_block as usize, m.blocks.len(), "{name}");
        let mut next_mem = 0;
        for (b, block) in m.blocks.iter().enumerate() {
            assert_eq!(block.first_mem_instr, next_mem, "{name}: block {b}");
            for mi in block.first_mem_instr..block.first_mem_instr + block.num_mem_instrs {
                assert_eq!(m.mem_instrs[mi as usize].block, b as u32, "{name}");
            }
            next_mem += block.num_mem_instrs;
            for &s in &block.successors {
                assert_eq!(m.blocks[s as usize].function, block.function, "{name}");
            }
        }
        assert_eq!(next_mem as usize, m.mem_instrs.len(), "{name}");
        for l in &m.loops {
            assert_eq!(
                m.blocks[l.header as usize]
                    .loop_id
                    .map(|x| m.loops[x as usize].header),
                Some(l.header)
            );
        }
    }
}

#[test]
fn instrumenting_twice_gives_identical_bitcode() {
    for name in CLANG_INPUTS {
        for inline_records in [false, true] {
            let bitcode = |name: &str| {
                let ctx = Context::create();
                let module = load(&ctx, name);
                let cfg = PassConfig {
                    inline_records,
                    ..PassConfig::default()
                };
                instrument_module(&module, &cfg).unwrap();
                module.write_bitcode_to_memory().as_slice().to_vec()
            };
            assert!(
                bitcode(name) == bitcode(name),
                "{name} (inline records: {inline_records}): instrumentation is not deterministic"
            );
        }
    }
}

/// Reads the bytes of a constant `[N x i8]` global's initializer.
fn global_bytes(module: &inkwell::module::Module<'_>, name: &str) -> Vec<u8> {
    let global = module
        .get_global(name)
        .unwrap_or_else(|| panic!("no global @{name}"));
    let init = global.get_initializer().expect("initializer");
    let mut len = 0usize;
    // Safety: `init` is a live constant data array of i8; LLVM returns a pointer to its `len`
    // bytes, valid while the module lives, copied at once.
    unsafe {
        let ptr = inkwell::llvm_sys::core::LLVMGetAsString(init.as_value_ref(), &mut len);
        std::slice::from_raw_parts(ptr.cast::<u8>(), len).to_vec()
    }
}

#[test]
fn embedded_blob_round_trips() {
    for name in ALL_INPUTS {
        let ctx = Context::create();
        let (module, report) = instrument(&ctx, name);
        let blob = global_bytes(&module, abi::MODULE_BLOB_GLOBAL);
        assert_eq!(blob, report.meta.to_blob(), "{name}");
        let decoded = ModuleMeta::from_blob(&blob).expect("blob decodes");
        assert_eq!(decoded, report.meta, "{name}");
        assert_eq!(
            rdtrace::meta::blob_counts(&blob).unwrap(),
            report.meta.counts()
        );
    }
}

#[test]
fn module_name_and_hash_are_recorded() {
    let ctx = Context::create();
    let (_, report) = instrument(&ctx, "omp_loops_O0.ll");
    assert_eq!(report.meta.name, "omp_loops.c");
    assert_eq!(report.meta.files, vec!["omp_loops.c".to_string()]);
    let ctx2 = Context::create();
    let (_, again) = instrument(&ctx2, "omp_loops_O0.ll");
    assert_eq!(report.meta.content_hash, again.meta.content_hash);
    let ctx3 = Context::create();
    let (_, other) = instrument(&ctx3, "omp_loops_O2.ll");
    assert_ne!(report.meta.content_hash, other.meta.content_hash);

    let ctx4 = Context::create();
    let module = load(&ctx4, "loops_O0.ll");
    let cfg = PassConfig {
        module_name: Some("src/loops.c".into()),
        ..PassConfig::default()
    };
    let named = instrument_module(&module, &cfg).unwrap();
    assert_eq!(named.meta.name, "src/loops.c");
    assert!(named.explain.is_empty(), "explain lines only on request");
}

#[test]
fn ctor_is_appended_and_existing_ctors_are_kept() {
    let ctx = Context::create();
    let (module, _) = instrument(&ctx, "handwritten.ll");
    let ctors = module
        .get_global("llvm.global_ctors")
        .expect("global_ctors");
    let init = ctors.get_initializer().unwrap().into_array_value();
    let entries: Vec<(u64, String)> = (0..2)
        .map(|i| {
            // Safety: the initializer is a constant array of `{ i32, ptr, ptr }` with 2 entries.
            let entry =
                unsafe { inkwell::llvm_sys::core::LLVMGetAggregateElement(init.as_value_ref(), i) };
            // Safety: fields 0 and 1 of a constant ctor entry are an i32 and a function.
            unsafe {
                let prio = inkwell::llvm_sys::core::LLVMGetAggregateElement(entry, 0);
                let func = inkwell::llvm_sys::core::LLVMGetAggregateElement(entry, 1);
                let mut len = 0;
                let name = inkwell::llvm_sys::core::LLVMGetValueName2(func, &mut len);
                let name = std::slice::from_raw_parts(name.cast::<u8>(), len);
                (
                    inkwell::llvm_sys::core::LLVMConstIntGetZExtValue(prio),
                    String::from_utf8_lossy(name).into_owned(),
                )
            }
        })
        .collect();
    assert_eq!(entries[0], (65535, "user_ctor".to_string()));
    assert_eq!(
        entries[1],
        (
            abi::MODULE_CTOR_PRIORITY as u64,
            abi::MODULE_CTOR.to_string()
        )
    );
    assert_eq!(init.get_type().len(), 2);

    let ctor = module.get_function(abi::MODULE_CTOR).unwrap();
    assert_eq!(
        count_calls_in(&module, abi::MODULE_CTOR, abi::REGISTER_MODULE),
        1
    );
    assert_eq!(ctor.get_linkage(), inkwell::module::Linkage::Internal);
    // The pass's own constructor is not instrumented; user constructors are.
    assert_eq!(
        count_calls_in(&module, abi::MODULE_CTOR, abi::BASIC_BLOCK),
        0
    );
    assert_eq!(count_calls_in(&module, "user_ctor", abi::BASIC_BLOCK), 1);
}

#[test]
fn hooks_are_declared_with_the_abi_signatures() {
    let ctx = Context::create();
    let (module, _) = instrument(&ctx, "omp_loops_O0.ll");
    let expect = [
        (abi::REGISTER_MODULE, "void (ptr, i64, ptr)"),
        (abi::BASIC_BLOCK, "void (i32)"),
        (abi::BLOCK_COUNTDOWN, "void ()"),
        (abi::ACCESS, "void (i32, ptr)"),
        (abi::ACCESS_RANGE, "void (i32, ptr, i64)"),
        (abi::BRANCH, "void (i32, i32)"),
        (abi::OMP_FORK, "void (i32)"),
        (abi::OMP_JOIN, "void (i32)"),
        (abi::OMP_REGION_ENTER, "void (i32, i32, i32)"),
        (abi::OMP_REGION_EXIT, "void (i32)"),
        (
            abi::OMP_FOR_INIT,
            "void (i32, i32, i64, i64, i64, i64, i64)",
        ),
        (abi::OMP_DISPATCH_NEXT, "void (i32, i32, i64, i64)"),
        (abi::OMP_FOR_FINI, "void (i32)"),
        (abi::OMP_BARRIER, "void ()"),
        (abi::ROI_ENTER, "void (i32)"),
        (abi::ROI_EXIT, "void (i32)"),
        (abi::CHECK, "void ()"),
    ];
    assert_eq!(expect.len(), abi::ALL_HOOKS.len());
    let nounwind = inkwell::attributes::Attribute::get_named_enum_kind_id("nounwind");
    for (name, ty) in expect {
        let f = module
            .get_function(name)
            .unwrap_or_else(|| panic!("@{name} not declared"));
        assert_eq!(f.get_type().print_to_string().to_string(), ty, "@{name}");
        assert!(
            f.get_enum_attribute(inkwell::attributes::AttributeLoc::Function, nounwind)
                .is_some(),
            "@{name} is not nounwind"
        );
    }
    let bases = module.get_global(abi::MODULE_BASES_GLOBAL).unwrap();
    assert_eq!(
        bases.get_value_type().print_to_string().to_string(),
        "[7 x i32]"
    );
    assert_eq!(bases.get_linkage(), inkwell::module::Linkage::Internal);
}

#[test]
fn already_instrumented_modules_are_rejected() {
    let ctx = Context::create();
    let (module, _) = instrument(&ctx, "loops_O0.ll");
    let again = instrument_module(&module, &PassConfig::default());
    assert!(
        matches!(again, Err(PassError::AlreadyInstrumented(_))),
        "{again:?}"
    );
}

#[test]
fn handwritten_accesses_get_sizes_kinds_and_classes() {
    let ctx = Context::create();
    let (module, report) = instrument(&ctx, "handwritten.ll");
    let m = &report.meta;
    let f = function_id(m, "accesses");
    let func = &m.functions[f as usize];
    let mis: Vec<_> = m
        .mem_instrs
        .iter()
        .filter(|mi| (func.first_block..func.first_block + func.num_blocks).contains(&mi.block))
        .collect();
    let summary: Vec<(AccessKind, u32, bool, VarClass)> = mis
        .iter()
        .map(|mi| (mi.kind, mi.size, mi.vector, mi.class))
        .collect();
    use AccessKind::*;
    use VarClass::*;
    assert_eq!(
        summary,
        vec![
            (Load, 4, false, Shared),           // volatile load through an argument
            (Store, 4, false, Shared),          // atomic store to @g
            (Load, 4, false, Private),          // atomic load of a thread_local global
            (Load, 16, true, Private),          // vector load from an alloca
            (Store, 16, true, Shared),          // vector store through an argument
            (AtomicRmw, 4, false, Shared),      // atomicrmw
            (CmpXchg, 4, false, Private),       // cmpxchg on an alloca
            (TransferRead, 0, false, Shared),   // memcpy source %p
            (TransferWrite, 0, false, Private), // memcpy destination %local
            (Load, 4, false, Shared),           // select of private and shared: mixed
            (Load, 4, false, Private),          // select of two private addresses
            (Load, 4, false, Private),          // inttoptr(ptrtoint %local + 4)
            (Load, 4, false, Shared),           // through addrspacecast of an argument
            (Load, 4, false, Private),          // phi cycle over private addresses
        ]
    );
    assert!(mis[9].derivation.contains("mixed"), "{}", mis[9].derivation);
    assert!(
        mis[2].derivation.contains("thread-local"),
        "{}",
        mis[2].derivation
    );
    assert_eq!(mis[0].derivation, "argument %p of accesses, assumed shared");
    // The masked load is listed but not traced.
    assert!(
        report
            .explain
            .iter()
            .any(|l| l.contains("llvm.masked.load") && l.contains("not traced")),
        "{:#?}",
        report.explain
    );
    // The switch: default first, then cases in order.
    let sw = m
        .branches
        .iter()
        .find(|b| b.kind == BranchKind::Switch)
        .unwrap();
    let label = |id: u32| m.blocks[id as usize].name.clone();
    let names: Vec<_> = sw.successors.iter().map(|&s| label(s)).collect();
    assert_eq!(names, ["other", "zero", "five"]);
    // The loop's latch is a conditional back-edge on its second successor.
    let latch = m
        .branches
        .iter()
        .find(|b| label(b.block) == "loop")
        .unwrap();
    assert_eq!(latch.kind, BranchKind::Conditional);
    assert_eq!(latch.back_edge_of[0], None);
    assert!(latch.back_edge_of[1].is_some());
    // One select per switch case computes the outcome.
    let selects = instructions(&module)
        .into_iter()
        .filter(|i| i.get_opcode() == InstructionOpcode::Select)
        .count();
    assert_eq!(
        selects,
        2 + 2,
        "two selects of the input plus one per switch case"
    );
}

#[test]
fn files_are_written_as_bitcode_or_text_and_compile() {
    let dir = tempfile::tempdir().unwrap();
    let clang = Command::new("clang-19").arg("--version").output().is_ok();
    for name in ALL_INPUTS {
        let bc = dir.path().join(format!("{name}.bc"));
        let ll = dir.path().join(format!("{name}.instr.ll"));
        let from_text = instrument_file(&ir_path(name), &bc, &PassConfig::default()).unwrap();
        let text = instrument_file(&ir_path(name), &ll, &PassConfig::default()).unwrap();
        assert_eq!(from_text.meta, text.meta, "{name}");
        assert!(
            std::fs::read(&bc).unwrap().starts_with(b"BC\xC0\xDE"),
            "{name}: not bitcode"
        );
        assert!(std::fs::read_to_string(&ll)
            .unwrap()
            .contains(abi::MODULE_CTOR));
        // Bitcode input works too and gives the same metadata.
        let original_bc = dir.path().join(format!("{name}.orig.bc"));
        let ctx = Context::create();
        assert!(load(&ctx, name).write_bitcode_to_path(&original_bc));
        let again = instrument_file(
            &original_bc,
            &dir.path().join("again.bc"),
            &PassConfig::default(),
        )
        .unwrap();
        assert_eq!(again.meta.mem_instrs, from_text.meta.mem_instrs, "{name}");
        if !clang {
            eprintln!("clang-19 not found: skipping the compile check");
            continue;
        }
        let obj = dir.path().join(format!("{name}.o"));
        let out = Command::new("clang-19")
            .arg("-c")
            .arg(&bc)
            .arg("-o")
            .arg(&obj)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn unreadable_input_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ll");
    std::fs::write(&bad, "this is not IR").unwrap();
    let err = instrument_file(&bad, &dir.path().join("out.bc"), &PassConfig::default());
    assert!(matches!(err, Err(PassError::Read { .. })), "{err:?}");
    let missing = instrument_file(&dir.path().join("missing.bc"), &bad, &PassConfig::default());
    assert!(
        matches!(missing, Err(PassError::Read { .. })),
        "{missing:?}"
    );
}
