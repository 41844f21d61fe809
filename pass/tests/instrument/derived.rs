//! Derived accesses: which accesses the pass leaves unrecorded, and from which anchor.

use super::*;
use rdtrace::meta::DerivedAddress;

#[test]
fn derived_accesses_follow_one_pointer_between_hooks() {
    let ctx = Context::create();
    let module = load(&ctx, "derived_accesses.ll");
    let report = instrument_explained(&module);
    // `rdcc --rd-explain` says where a derived access's address comes from.
    assert!(
        report.explain[1].ends_with("(no record: at mi 0's address +8)"),
        "{}",
        report.explain[1]
    );
    assert!(report.explain[4].ends_with("(no record: at mi 3's address +4)"));
    assert!(!report.explain[3].contains("no record"));
    let derived: Vec<Option<DerivedAddress>> =
        report.meta.mem_instrs.iter().map(|m| m.derived).collect();
    let from = |anchor, offset| Some(DerivedAddress { anchor, offset });
    // See the comments in the input.
    let expected = [
        None,
        from(0, 8),
        from(0, 16),
        None,
        from(3, 4),
        None,
        from(5, 8),
        None,
        None,
        from(8, 12),
        None,
        None,
        None,
        from(12, 24),
        None,
    ];
    assert_eq!(derived, expected);
    // The blob carries them (version 7) and the metadata they pass validates.
    let blob = report.meta.to_blob();
    assert_eq!(
        blob[4..8],
        rdtrace::version::V_DERIVED_ACCESSES.to_le_bytes()
    );
    assert_eq!(ModuleMeta::from_blob(&blob).unwrap(), report.meta);
    // Only the recorded ones write records: 15 accesses, one ranged, 6 derived.
    assert_eq!(count_calls(&module, abi::ACCESS_RANGE), 1);

    // Without inline records, or when asked, every access is recorded.
    for cfg in [
        PassConfig::default(),
        PassConfig {
            inline_records: true,
            no_derived_accesses: true,
            ..PassConfig::default()
        },
    ] {
        let ctx = Context::create();
        let module = load(&ctx, "derived_accesses.ll");
        let report = instrument_module(&module, &cfg).unwrap();
        assert!(report.meta.mem_instrs.iter().all(|m| m.derived.is_none()));
        // Implied blocks perhaps (version 5), derived accesses not.
        assert_ne!(
            report.meta.to_blob()[4..8],
            rdtrace::version::V_DERIVED_ACCESSES.to_le_bytes()
        );
    }
}

#[test]
fn a_long_block_forgets_its_anchors_at_each_check() {
    // Stores to one global's elements: all but the first are derived, so the block needs no
    // check; but a pointer loaded each time (a new base per access) keeps them recorded, and
    // at every `INLINE_RECORDS_BETWEEN_CHECKS` records a check ends the anchors' reach.
    let n = 3 * abi::INLINE_RECORDS_BETWEEN_CHECKS;
    let mut ir = String::from("@g = global [1000 x i64] zeroinitializer\n@pp = global ptr null\n");
    ir.push_str("define void @f() {\nentry:\n");
    for k in 0..n {
        // A fresh pointer (recorded load of @pp is derived from the first one after k = 0;
        // the pointer it yields is a base of its own) and a store through it at +8.
        ir.push_str(&format!(
            "  %p{k} = load ptr, ptr @pp\n  %q{k} = getelementptr i8, ptr %p{k}, i64 8\n  store i64 {k}, ptr %q{k}\n"
        ));
    }
    ir.push_str("  ret void\n}\n");
    let ctx = Context::create();
    let buf =
        inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "long");
    let module = ctx.create_module_from_ir(buf).unwrap();
    let cfg = PassConfig {
        inline_records: true,
        ..PassConfig::default()
    };
    let report = instrument_module(&module, &cfg).unwrap();
    module.verify().unwrap();
    let m = &report.meta.mem_instrs;
    assert_eq!(m.len(), 2 * n);
    // Load k of @pp: mi 2k; the store through it: mi 2k + 1, always recorded (a new base).
    let recorded_loads: Vec<usize> = (0..n).filter(|&k| m[2 * k].derived.is_none()).collect();
    assert!((0..n).all(|k| m[2 * k + 1].derived.is_none()));
    // The records of the block: its own, then a load recorded where the previous anchor of
    // @pp was cut off by a check, each store; checks every INLINE_RECORDS_BETWEEN_CHECKS.
    let mut since = 1;
    let mut expected = Vec::new();
    let mut anchor = false;
    for k in 0..n {
        // The load: derived when the anchor of @pp is still in reach.
        if !anchor {
            if since == abi::INLINE_RECORDS_BETWEEN_CHECKS {
                since = 0;
            }
            since += 1;
            expected.push(k);
            anchor = true;
        }
        // The store, recorded; its check forgets the anchor.
        if since == abi::INLINE_RECORDS_BETWEEN_CHECKS {
            since = 0;
            anchor = false;
        }
        since += 1;
    }
    assert_eq!(recorded_loads, expected);
    assert!(expected.len() > 1, "{expected:?}");
    for k in 1..n {
        if let Some(d) = m[2 * k].derived {
            assert_eq!(d.offset, 0, "load {k}");
            assert!(
                recorded_loads.contains(&((d.anchor / 2) as usize)),
                "load {k}"
            );
        }
    }
}
