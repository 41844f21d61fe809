//! The metadata: back-edges, dense ids, the embedded blob, names and access classes.

use super::*;

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
