//! Loop runs: which single-block loops the pass records in runs, with which strides.

use super::*;

#[test]
fn loop_runs_take_single_block_loops_with_constant_strides() {
    let ctx = Context::create();
    let module = load(&ctx, "loop_runs.ll");
    let cfg = PassConfig {
        inline_records: true,
        explain: true,
        ..PassConfig::default()
    };
    let report = instrument_module(&module, &cfg).unwrap();
    module.verify().unwrap();
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
        ("rows".to_string(), vec![None, Some(8)]),
    ];
    assert_eq!(runs, expected);
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
