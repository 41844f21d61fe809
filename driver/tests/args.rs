//! Classification of clang command lines (no processes are run).

use rdcc::args::{
    parse, parse_as, Action, ExplainTarget, Input, InputKind, LinkItem, PassthroughReason, Stage,
};

fn args(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

fn argv(line: &str) -> Vec<String> {
    line.split_whitespace().map(str::to_string).collect()
}

fn parse_line(line: &str) -> rdcc::args::Invocation {
    parse(&argv(line)).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn kinds(inputs: &[Input]) -> Vec<InputKind> {
    inputs.iter().map(|i| i.kind).collect()
}

#[test]
fn compile_only_splits_front_end_and_codegen_flags() {
    let inv = parse_line(
        "-c -O2 -g -Iinc -I other -DNDEBUG -D X=1 -UY -std=c11 -Wall -Werror -fPIC -march=native \
         -fopenmp foo.c -o out/foo.o",
    );
    assert_eq!(inv.action, Action::Build(Stage::Object));
    assert_eq!(inv.output.as_deref(), Some("out/foo.o"));
    assert_eq!(kinds(&inv.inputs), [InputKind::Source]);
    assert_eq!(
        inv.front_flags,
        argv(
            "-O2 -g -Iinc -I other -DNDEBUG -D X=1 -UY -std=c11 -Wall -Werror -fPIC -march=native \
             -fopenmp"
        )
    );
    // Code generation gets what shapes machine code, not the preprocessor, language, warnings
    // or OpenMP (already lowered in the IR).
    assert_eq!(inv.codegen_flags, argv("-O2 -g -fPIC -march=native"));
    assert!(inv.has_debug_flag);
    assert!(inv.openmp);
}

#[test]
fn link_line_keeps_order_of_inputs_and_libraries() {
    let inv = parse_line(
        "-O2 main.c -Wall util.o -L/opt/lib -lfoo libbar.a -Wl,--as-needed -lm -fopenmp -o prog",
    );
    assert_eq!(inv.action, Action::Build(Stage::Link));
    assert_eq!(
        kinds(&inv.inputs),
        [InputKind::Source, InputKind::Linker, InputKind::Linker]
    );
    let flag = |s: &str| LinkItem::Flag(s.to_string());
    assert_eq!(
        inv.link_items,
        vec![
            flag("-O2"),
            LinkItem::Input(0),
            LinkItem::Input(1),
            flag("-L/opt/lib"),
            flag("-lfoo"),
            LinkItem::Input(2),
            flag("-Wl,--as-needed"),
            flag("-lm"),
            flag("-fopenmp"),
        ]
    );
    // Link-only flags never reach the compile steps; warnings never reach the link.
    assert_eq!(inv.front_flags, argv("-O2 -Wall -fopenmp"));
    assert!(!inv.has_debug_flag);
}

#[test]
fn separate_values_are_not_taken_for_inputs() {
    let inv = parse_line(
        "-c -include config.h -isystem sys -Xclang -ast-dump-filter=x -mllvm -x86-asm-syntax=intel \
         -MF deps.d -MT target -x c weird.src",
    );
    assert_eq!(inv.inputs.len(), 1);
    assert_eq!(inv.inputs[0].path, "weird.src");
    assert_eq!(inv.inputs[0].kind, InputKind::Source);
    assert_eq!(inv.inputs[0].language.as_deref(), Some("c"));
    assert!(inv
        .front_flags
        .windows(2)
        .any(|w| w == ["-include", "config.h"]));
    assert!(inv
        .codegen_flags
        .windows(2)
        .any(|w| w == ["-mllvm", "-x86-asm-syntax=intel"]));
    assert_eq!(inv.deps.file.as_deref(), Some("deps.d"));
    assert!(inv.deps.has_target);
    assert!(
        !inv.deps.enabled,
        "-MF alone does not ask for a dependency file"
    );
}

#[test]
fn language_switch_applies_to_following_inputs_until_none() {
    let inv = parse_line("-c -x c a.txt -x none b.c c.ll d.bc e.S f.o -x ir g.bin");
    assert_eq!(
        kinds(&inv.inputs),
        [
            InputKind::Source,
            InputKind::Source,
            InputKind::LlvmIr,
            InputKind::LlvmIr,
            InputKind::Assembly,
            InputKind::Linker,
            InputKind::LlvmIr,
        ]
    );
    assert_eq!(inv.inputs[1].language, None);
}

#[test]
fn rd_flags_are_ours_and_never_reach_clang() {
    let inv = parse_line("--rd-explain -c a.c --rd-no-instrument");
    assert_eq!(inv.rd.explain, Some(ExplainTarget::Stderr));
    assert!(inv.rd.no_instrument);
    assert_eq!(inv.clang_args, argv("-c a.c"));
    assert!(!inv.front_flags.iter().any(|f| f.starts_with("--rd")));

    let inv = parse_line("--rd-explain=why.txt -c a.c");
    assert_eq!(inv.rd.explain, Some(ExplainTarget::File("why.txt".into())));

    let err = parse(&argv("--rd-frobnicate a.c")).unwrap_err();
    assert!(err.0.contains("--rd-frobnicate"), "{err}");
    assert!(parse(&argv("--rd-explain= a.c")).is_err());
}

#[test]
fn non_code_modes_are_passed_through() {
    let cases = [
        ("-E a.c", PassthroughReason::Preprocess),
        ("-M a.c", PassthroughReason::Preprocess),
        ("-MM -c a.c", PassthroughReason::Preprocess),
        ("-fsyntax-only a.c", PassthroughReason::NoCodegen),
        ("--help", PassthroughReason::Information),
        ("-### -c a.c", PassthroughReason::Information),
        ("-print-resource-dir", PassthroughReason::Information),
        ("-dumpmachine", PassthroughReason::Information),
        ("-v", PassthroughReason::NothingToCompile),
        ("", PassthroughReason::NothingToCompile),
        ("-c a.o", PassthroughReason::NothingToCompile),
        ("-c a.h", PassthroughReason::Header),
        ("-emit-llvm a.c", PassthroughReason::EmitLlvmLink),
    ];
    for (line, reason) in cases {
        assert_eq!(
            parse_line(line).action,
            Action::Passthrough(reason),
            "{line}"
        );
    }
    // Passthrough gives clang the whole line, flags and inputs in order.
    assert_eq!(
        parse_line("-E -DX a.c -o -").clang_args,
        argv("-E -DX a.c -o -")
    );
}

#[test]
fn dependency_flags_go_to_the_front_end() {
    let inv = parse_line("-MMD -MP -c a.c -o a.o");
    assert!(inv.deps.enabled);
    assert_eq!(inv.deps.file, None);
    assert!(!inv.deps.has_target);
    assert_eq!(inv.front_flags, argv("-MMD -MP"));
    assert!(inv.codegen_flags.is_empty());
    assert!(inv
        .link_items
        .iter()
        .all(|item| matches!(item, LinkItem::Input(_))));
}

#[test]
fn version_assembly_and_emit_llvm_actions() {
    assert_eq!(parse_line("--version").action, Action::Version);
    assert_eq!(parse_line("--rd-help").action, Action::RdHelp);
    assert_eq!(parse_line("-S a.c").action, Action::Build(Stage::Assembly));
    assert_eq!(
        parse_line("-c -S a.c").action,
        Action::Build(Stage::Assembly)
    );
    let inv = parse_line("-S -emit-llvm a.c");
    assert_eq!(inv.action, Action::Build(Stage::Assembly));
    assert!(inv.emit_llvm);
    assert_eq!(parse_line("-c a.c b.c").inputs.len(), 2);
}

#[test]
fn usage_errors() {
    let err = parse(&argv("-c a.c b.c -o x.o")).unwrap_err();
    assert_eq!(
        err.0,
        "cannot specify -o when generating multiple output files"
    );
    // Linking several sources into one output is fine.
    assert!(parse(&argv("a.c b.c -o prog")).is_ok());
    let err = parse(&argv("-c a.c -o")).unwrap_err();
    assert!(err.0.contains("'-o'"), "{err}");
}

#[test]
fn link_only_and_shared_flags() {
    let inv = parse_line("-shared -fPIC a.c -o liba.so -Xlinker -soname -Xlinker liba.so.1");
    assert_eq!(inv.action, Action::Build(Stage::Link));
    assert_eq!(inv.inputs.len(), 1);
    assert_eq!(inv.front_flags, argv("-fPIC"));
    assert_eq!(inv.codegen_flags, argv("-fPIC"));
    let flags: Vec<&str> = inv
        .link_items
        .iter()
        .filter_map(|item| match item {
            LinkItem::Flag(f) => Some(f.as_str()),
            LinkItem::Input(_) => None,
        })
        .collect();
    assert_eq!(
        flags,
        [
            "-shared",
            "-fPIC",
            "-Xlinker",
            "-soname",
            "-Xlinker",
            "liba.so.1"
        ]
    );
}

#[test]
fn response_files_are_expanded() {
    let dir = rdcc::tempdir::TempDir::new(false).unwrap();
    let rsp = dir.path().join("args.rsp");
    std::fs::write(&rsp, "-c \"my file.c\"\n-DNAME='a b'\n").unwrap();
    let inv = parse(&[format!("@{}", rsp.display())]).unwrap();
    assert_eq!(inv.action, Action::Build(Stage::Object));
    assert_eq!(inv.inputs[0].path, "my file.c");
    assert_eq!(inv.front_flags, ["-DNAME=a b"]);
}

#[test]
fn double_dash_ends_options() {
    let inv = parse_line("-c -- -weird.c");
    assert_eq!(inv.inputs.len(), 1);
    assert_eq!(inv.inputs[0].path, "-weird.c");
    assert_eq!(inv.inputs[0].kind, InputKind::Source);
}

#[test]
fn fortran_sources_are_compiled_and_alien_sources_refused() {
    let inv = parse(&args(&[
        "-fopenmp", "heat.f90", "old.f", "pre.F90", "main.c", "-o", "app",
    ]))
    .unwrap();
    assert_eq!(
        kinds(&inv.inputs),
        [
            InputKind::Fortran,
            InputKind::Fortran,
            InputKind::Fortran,
            InputKind::Source
        ]
    );
    assert_eq!(inv.action, Action::Build(Stage::Link));
    let inv = parse(&args(&["-x", "f95", "-c", "kernel.inc"])).unwrap();
    assert_eq!(kinds(&inv.inputs), [InputKind::Fortran]);
    for alien in [
        &["-c", "k.cu"][..],
        &["v.m", "-o", "v"],
        &["-x", "cuda", "-c", "k.txt"],
    ] {
        let err = parse(&args(alien)).unwrap_err();
        assert!(err.0.contains("cannot instrument"), "{alien:?}: {err}");
    }
    // Preprocessing an alien source is clang's business, not a build.
    assert!(matches!(
        parse(&args(&["-E", "k.cu"])).unwrap().action,
        Action::Passthrough(_)
    ));
}

#[test]
fn flang_front_end_flags_reach_flang_only() {
    // What Fortran makefiles pass (preprocessing, source form, default kinds, module
    // directories): flang's front end reads them; clang, which compiles the instrumented IR
    // and links, rejects them, so they go nowhere else. Module directories take their value.
    let inv = parse_line(
        "-O2 -cpp -ffree-form -ffixed-line-length=132 -fdefault-real-8 -fconvert=big-endian          -J mods -module-dir out/mods -Jother -fintrinsic-modules-path /opt/mods          -fimplicit-none -fno-automatic -fopenmp solver.f90 -o solver",
    );
    assert_eq!(kinds(&inv.inputs), [InputKind::Fortran]);
    assert_eq!(
        inv.front_flags,
        argv(
            "-O2 -cpp -ffree-form -ffixed-line-length=132 -fdefault-real-8 -fconvert=big-endian \
             -J mods -module-dir out/mods -Jother -fintrinsic-modules-path /opt/mods \
             -fimplicit-none -fno-automatic -fopenmp"
        )
    );
    assert_eq!(inv.codegen_flags, argv("-O2"));
    let link: Vec<&LinkItem> = inv.link_items.iter().collect();
    assert_eq!(
        link,
        [
            &LinkItem::Flag("-O2".into()),
            &LinkItem::Flag("-fopenmp".into()),
            &LinkItem::Input(0)
        ]
    );
}

#[test]
fn the_program_name_picks_the_personality() {
    use rdcc::personality::Personality;
    let inv = parse_as(Personality::Cxx, &args(&["-c", "a.cpp"])).unwrap();
    assert_eq!(inv.personality, Personality::Cxx);
    assert_eq!(
        parse(&args(&["-c", "a.c"])).unwrap().personality,
        Personality::C
    );
}
