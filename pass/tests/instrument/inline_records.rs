//! Inline records: what replaces the hook calls, and the split block entries.

use super::*;

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
        // One record per fixed access that is not derived, branch and block that is not
        // implied, and one edge record per unconditional `br` (a block without a branch site)
        // into an implied block: each advances the cursor once; and one countdown decrement
        // per block, implied or not.
        let meta = &report.meta;
        let implied = meta.blocks.iter().filter(|b| b.implied).count();
        let derived = meta
            .mem_instrs
            .iter()
            .filter(|m| m.derived.is_some())
            .count();
        let branching: std::collections::HashSet<u32> =
            meta.branches.iter().map(|b| b.block).collect();
        let edge_records = (0..meta.blocks.len() as u32)
            .filter(|p| !branching.contains(p))
            .flat_map(|p| meta.blocks[p as usize].successors.iter())
            .filter(|&&s| meta.blocks[s as usize].implied)
            .count();
        // A loop recorded in runs records neither its accesses nor its branch, and writes its
        // runs in two places (where its countdown calls the hook, and on its exit edge).
        let runs: Vec<usize> = (meta.branches.iter())
            .filter_map(|b| b.loop_run.as_ref().map(|r| r.strides.len()))
            .collect();
        let run_accesses: usize = runs.iter().sum();
        assert_eq!(
            cursor_advances(&module),
            input.blocks - implied + edge_records + input.fixed_accesses - derived - run_accesses
                + meta.branches.len()
                + runs.len(),
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

/// The inline records' cursor advances (`rdt.next`: one per record, one per loop-run write).
fn cursor_advances(module: &inkwell::module::Module<'_>) -> usize {
    instructions(module)
        .into_iter()
        .filter(|&i| i.get_opcode() == InstructionOpcode::GetElementPtr)
        .filter(|&i| {
            let name = i.get_name().map(|n| n.to_string_lossy().into_owned());
            name.is_some_and(|n| n.starts_with("rdt.next"))
        })
        .count()
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
            // Its one predecessor: the entry block, `br (countdown - 1 < 0), hook, original`.
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
            // word, the block kind's entry of the head table (entry 0, the table's own
            // address) plus the block's local id.
            let first_store = original
                .get_instructions()
                .find(|i| i.get_opcode() == InstructionOpcode::Store)
                .unwrap();
            let add = operand_instruction(first_store, 0);
            assert_eq!(
                add.get_opcode(),
                InstructionOpcode::Add,
                "{}",
                name(original)
            );
            let load = operand_instruction(add, 0);
            assert_eq!(
                load.get_opcode(),
                InstructionOpcode::Load,
                "{}",
                name(original)
            );
            let table = module.get_global(abi::RECORD_HEADS_GLOBAL).unwrap();
            assert_eq!(
                load.get_operand(0).unwrap().value().unwrap(),
                inkwell::values::BasicValueEnum::from(table.as_pointer_value()),
                "{}",
                name(original)
            );
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
    assert_compiles(&module);
}

/// The module constructor fills the head table from the base table the runtime has just
/// filled: entry k is `zext(bases[kind k]) | head_of(tag k, 0)` for blocks, accesses and
/// branches, in that order, so an inline record's head (the entry plus a local id) is the
/// record's `head_of(tag, global id)`.
#[test]
fn the_constructor_fills_the_record_heads_from_the_bases() {
    use rdtrace::raw::{head_of, TAG_ACCESS, TAG_BLOCK, TAG_BRANCH};
    let ctx = Context::create();
    let module = load(&ctx, ALL_INPUTS[0]);
    let cfg = rdpass::PassConfig {
        inline_records: true,
        ..rdpass::PassConfig::default()
    };
    rdpass::instrument_module(&module, &cfg).unwrap();
    module.verify().unwrap();
    let ctor = module.get_function(abi::MODULE_CTOR).unwrap();
    let stores: Vec<inkwell::values::InstructionValue> = ctor
        .get_basic_blocks()
        .iter()
        .flat_map(|b| b.get_instructions())
        .filter(|i| i.get_opcode() == InstructionOpcode::Store)
        .collect();
    let tags = [(TAG_BLOCK, 1u64), (TAG_ACCESS, 2), (TAG_BRANCH, 3)];
    assert_eq!(stores.len(), tags.len());
    for (store, (tag, kind)) in stores.iter().zip(tags) {
        let or = operand_instruction(*store, 0);
        assert_eq!(or.get_opcode(), InstructionOpcode::Or);
        let bits = or.get_operand(1).unwrap().value().unwrap().into_int_value();
        assert_eq!(bits.get_zero_extended_constant(), Some(head_of(tag, 0)));
        let zext = operand_instruction(or, 0);
        assert_eq!(zext.get_opcode(), InstructionOpcode::ZExt);
        let load = operand_instruction(zext, 0);
        assert_eq!(load.get_opcode(), InstructionOpcode::Load);
        // The base's slot: `getelementptr ([7 x i32], @bases, 0, kind)`.
        let slot = load
            .get_operand(0)
            .unwrap()
            .value()
            .unwrap()
            .into_pointer_value();
        let printed = inkwell::values::AnyValue::print_to_string(&slot).to_string();
        assert!(printed.contains(abi::MODULE_BASES_GLOBAL), "{printed}");
        assert!(printed.ends_with(&format!("i32 {kind})")), "{printed}");
    }
}

/// The instruction that computes operand `n` of `inst` (panics if it is not one).
fn operand_instruction(
    inst: inkwell::values::InstructionValue<'_>,
    n: u32,
) -> inkwell::values::InstructionValue<'_> {
    let value = inst.get_operand(n).unwrap().value().unwrap();
    inkwell::values::BasicValue::as_instruction_value(&value).unwrap()
}
