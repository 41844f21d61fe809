//! Loop runs: which single-block loops the pass records in runs, with which strides.

use super::*;
use inkwell::values::AnyValue;

#[test]
fn loop_runs_take_single_block_loops_with_constant_strides() {
    let ctx = Context::create();
    let module = load(&ctx, "loop_runs.ll");
    let report = instrument_explained(&module);
    let m = &report.meta;
    // Each loop's strides, by the name of its block (see the comments in the input).
    let runs: Vec<(String, Vec<Option<i64>>)> = (m.branches.iter())
        .filter_map(|b| {
            let name = m.blocks[b.block as usize].name.clone();
            b.loop_run.as_ref().map(|r| (name, r.strides.clone()))
        })
        .collect();
    let expected = [
        ("loop".to_string(), vec![Some(16), Some(48), Some(0)]),
        ("loop".to_string(), vec![Some(4), Some(-4)]),
        ("loop2".to_string(), vec![Some(4)]),
        ("rows".to_string(), vec![None, Some(8)]),
        ("body".to_string(), vec![None, Some(24)]),
    ];
    assert_eq!(runs, expected);
    // Narrow values extended without a no-wrap flag are tested in every iteration, and a
    // run ends after an iteration from which the next could wrap: loop 2's `j` (signed, +1),
    // loop 7's `lb + iv + 1` (signed, +1) and its `trunc k ^ MIN` (unsigned, +3); loop 1's
    // IV has `nsw` and is not tested.
    let ir = |f: &str| {
        module
            .get_function(f)
            .unwrap()
            .print_to_string()
            .to_string()
    };
    let narrow = ir("narrow");
    let (loop1, loop2) = narrow.split_at(narrow.find("\nmid:").unwrap());
    assert!(!loop1.contains("rdt.run.cut"), "{loop1}");
    assert!(loop2.contains("phi i1"), "{loop2}");
    assert!(loop2.contains("icmp sgt i32 %j, 2147483646"), "{loop2}");
    let flang = ir("flang_like");
    assert!(flang.contains("icmp sgt i32 %x1, 2147483646"), "{flang}");
    assert!(flang.contains("icmp ugt i32 %u, -4"), "{flang}");
    assert!(flang.contains("rdt.run.ends"), "{flang}");
    // `--rd-explain` says which runs end where an index could wrap.
    let says = |text: &str| report.explain.iter().filter(|l| l.contains(text)).count();
    assert_eq!(
        says("+4 per iteration, ends where a narrow index could wrap)"),
        1
    );
    assert_eq!(
        says("per iteration, ends where one of 2 narrow indices could wrap)"),
        2
    );
    // `rdcc --rd-explain` says so.
    assert!(
        report.explain[1].ends_with("(no record: loop run, +48 per iteration)"),
        "{}",
        report.explain[1]
    );
    // The blob carries them (version 9) and they pass its checks.
    let blob = m.to_blob();
    assert_eq!(blob[4..8], rdtrace::version::V_LOOP_RUNS.to_le_bytes());
    assert_eq!(&ModuleMeta::from_blob(&blob).unwrap(), m);
    // The instrumented module compiles.
    assert_compiles(&module);

    // Without implied blocks (or inline records), or when asked, no loop is recorded in runs.
    for cfg in [
        PassConfig::default(),
        PassConfig {
            inline_records: true,
            no_loop_runs: true,
            ..PassConfig::default()
        },
        PassConfig {
            inline_records: true,
            no_implied_blocks: true,
            ..PassConfig::default()
        },
    ] {
        let ctx = Context::create();
        let module = load(&ctx, "loop_runs.ll");
        let report = instrument_module(&module, &cfg).unwrap();
        assert!(report.meta.branches.iter().all(|b| b.loop_run.is_none()));
    }
}
