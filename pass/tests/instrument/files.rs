//! Files in and out: deterministic bitcode, text or bitcode output that compiles, bad input.

use super::*;

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
