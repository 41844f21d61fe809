//! Hook calls and declarations, the module constructor, and refusing a second pass.

use super::*;

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
