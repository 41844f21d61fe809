//! rdcc as a command: version, passthrough, errors, compile-only outputs, temporary files.
//! Nothing here links a program (see `run.rs`).

mod common;

use std::process::Command;

use common::*;
use rdtrace::abi;

const HELLO: &str = "#include <stdio.h>\n#include \"hello.h\"\n\
                     int main(void) { printf(\"%d\\n\", ANSWER); return 0; }\n";
const SUM: &str = "long sum(const long *a, long n) {\n  long s = 0;\n\
                   for (long i = 0; i < n; i++) s += a[i];\n  return s;\n}\n";

fn hello_dir() -> TempDir {
    let dir = scratch();
    write(dir.path(), "hello.c", HELLO);
    write(dir.path(), "hello.h", "#define ANSWER 42\n");
    dir
}

#[test]
fn version_names_rdcc_llvm_and_clang() {
    let dir = scratch();
    let stdout = success(rdcc(dir.path()).arg("--version"));
    let first = stdout.lines().next().unwrap();
    let prefix = format!("rdcc {} (rdtools) — LLVM 19.", env!("CARGO_PKG_VERSION"));
    assert!(first.starts_with(&prefix), "{first}");
    assert!(
        first.contains(", clang /") && first.ends_with("clang-19"),
        "{first}"
    );
    // clang's own --version text follows.
    let clang_version = success(clang(dir.path()).arg("--version"));
    assert!(stdout.ends_with(&clang_version), "{stdout}");
}

#[test]
fn missing_clang_is_one_clear_line() {
    let dir = hello_dir();
    let out = output(
        rdcc(dir.path())
            .env("RDCC_CLANG", "/nonexistent/clang-19")
            .args(["-c", "hello.c"]),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "rdcc: error: RDCC_CLANG names /nonexistent/clang-19, which does not exist\n"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn clang_from_environment_is_used() {
    // A "clang" that records that it ran and then defers to the real one.
    let dir = hello_dir();
    let log = dir.path().join("log");
    let script = write(
        dir.path(),
        "myclang",
        &format!(
            "#!/bin/sh\necho ran >> '{}'\nexec {CLANG} \"$@\"\n",
            log.display()
        ),
    );
    let executable = std::os::unix::fs::PermissionsExt::from_mode(0o755);
    std::fs::set_permissions(&script, executable).unwrap();
    success(
        rdcc(dir.path())
            .env("RDCC_CLANG", &script)
            .args(["-E", "hello.c", "-o", "x.i"]),
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "ran\n");
}

#[test]
fn compile_error_gives_clangs_diagnostics_and_status() {
    let dir = scratch();
    write(
        dir.path(),
        "bad.c",
        "int main(void) { return undeclared_name }\n",
    );
    let theirs = output(clang(dir.path()).args(["-c", "bad.c", "-o", "bad.o"]));
    let ours = output(rdcc(dir.path()).args(["-c", "bad.c", "-o", "bad.o"]));
    assert!(!theirs.status.success());
    assert_eq!(ours.status.code(), theirs.status.code());
    let stderr = String::from_utf8(ours.stderr).unwrap();
    assert!(
        stderr.contains("bad.c:1:25: error: use of undeclared identifier"),
        "{stderr}"
    );
    assert_eq!(
        stderr,
        String::from_utf8(theirs.stderr).unwrap(),
        "diagnostics differ"
    );
    assert!(
        !stderr.contains("rdcc"),
        "rdcc added its own message: {stderr}"
    );
    assert!(ours.stdout.is_empty());
    assert!(!dir.path().join("bad.o").exists());
}

#[test]
fn usage_error_exits_2() {
    let dir = scratch();
    let out = output(rdcc(dir.path()).args(["-c", "a.c", "b.c", "-o", "x.o"]));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "rdcc: error: cannot specify -o when generating multiple output files\n"
    );
    let out = output(rdcc(dir.path()).args(["--rd-nonsense", "-c", "a.c"]));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn preprocessing_is_passed_through() {
    let dir = hello_dir();
    let ours = success(rdcc(dir.path()).args(["-E", "-DEXTRA=1", "hello.c"]));
    let theirs = success(clang(dir.path()).args(["-E", "-DEXTRA=1", "hello.c"]));
    assert!(ours.contains("printf(\"%d\\n\", 42)"), "{ours}");
    assert_eq!(ours, theirs);
    // -M lists dependencies on stdout, as clang does.
    let ours = success(rdcc(dir.path()).args(["-MM", "hello.c"]));
    assert_eq!(ours, "hello.o: hello.c hello.h\n");
}

#[test]
fn object_registers_its_module_with_the_runtime() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    success(rdcc(dir.path()).args(["-O2", "-c", "sum.c", "-o", "sum.o"]));
    let syms = symbols(&dir.path().join("sum.o"));
    assert!(
        defines(&syms, abi::MODULE_CTOR),
        "no module constructor in {syms:?}"
    );
    assert!(
        references(&syms, abi::REGISTER_MODULE),
        "no {} in {syms:?}",
        abi::REGISTER_MODULE
    );
    // By default the loop's load is appended inline at the runtime's thread-local cursor, and
    // so are block entries, which count down on the runtime's thread-local countdown.
    assert!(
        references(&syms, abi::CURSOR_TLS) && !references(&syms, abi::ACCESS),
        "the loop's load is not traced inline: {syms:?}"
    );
    assert!(
        references(&syms, abi::COUNTDOWN_TLS)
            && references(&syms, abi::BLOCK_COUNTDOWN)
            && !references(&syms, abi::BASIC_BLOCK),
        "blocks are not traced inline: {syms:?}"
    );
    assert!(defines(&syms, "sum"));
    // With --rd-no-inline it calls the access hook instead.
    success(rdcc(dir.path()).args(["-O2", "--rd-no-inline", "-c", "sum.c", "-o", "sum2.o"]));
    let syms = symbols(&dir.path().join("sum2.o"));
    assert!(
        references(&syms, abi::ACCESS) && !references(&syms, abi::CURSOR_TLS),
        "the loop's load is not traced by a call: {syms:?}"
    );
    assert!(
        references(&syms, abi::BASIC_BLOCK) && !references(&syms, abi::COUNTDOWN_TLS),
        "blocks are not traced by calls: {syms:?}"
    );
}

#[test]
fn two_sources_compile_to_two_objects_named_like_clangs() {
    let dir = hello_dir();
    write(dir.path(), "sum.c", SUM);
    success(rdcc(dir.path()).args(["-c", "hello.c", "sum.c"]));
    for object in ["hello.o", "sum.o"] {
        let syms = symbols(&dir.path().join(object));
        assert!(defines(&syms, abi::MODULE_CTOR), "{object}: {syms:?}");
        assert!(
            references(&syms, abi::REGISTER_MODULE),
            "{object}: {syms:?}"
        );
    }
    assert!(defines(&symbols(&dir.path().join("hello.o")), "main"));
}

#[test]
fn assembly_and_ir_outputs_are_instrumented() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    success(rdcc(dir.path()).args(["-O1", "-S", "sum.c"]));
    let asm = std::fs::read_to_string(dir.path().join("sum.s")).unwrap();
    assert!(asm.contains(abi::REGISTER_MODULE), "{asm}");
    success(rdcc(dir.path()).args(["-O1", "-S", "-emit-llvm", "sum.c"]));
    let ir = std::fs::read_to_string(dir.path().join("sum.ll")).unwrap();
    assert!(ir.contains(&format!("@{}", abi::REGISTER_MODULE)), "{ir}");
    success(rdcc(dir.path()).args(["-O1", "-c", "-emit-llvm", "sum.c"]));
    let bitcode = std::fs::read(dir.path().join("sum.bc")).unwrap();
    assert!(bitcode.starts_with(b"BC\xC0\xDE"), "not bitcode");
    let needle = abi::REGISTER_MODULE.as_bytes();
    assert!(
        bitcode.windows(needle.len()).any(|w| w == needle),
        "bitcode is not instrumented"
    );
    // clang's optimiser ran before instrumentation: at -O1 the loop counter lives in a
    // register, so the function has no stack slots left.
    assert!(!ir.contains("alloca"), "{ir}");
}

#[test]
fn ir_inputs_are_instrumented_directly() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    success(clang(dir.path()).args(["-O1", "-S", "-emit-llvm", "sum.c", "-o", "plain.ll"]));
    success(rdcc(dir.path()).args(["-c", "plain.ll", "-o", "plain.o"]));
    let syms = symbols(&dir.path().join("plain.o"));
    assert!(references(&syms, abi::REGISTER_MODULE), "{syms:?}");
}

#[test]
fn pass_failure_names_the_source() {
    let dir = scratch();
    write(dir.path(), "broken.ll", "define i32 @f( {\n");
    let out = output(rdcc(dir.path()).args(["-c", "broken.ll"]));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("rdcc: error: cannot instrument broken.ll: "),
        "{stderr}"
    );
    assert!(!dir.path().join("broken.o").exists());
}

#[test]
fn no_instrument_compiles_without_hooks() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    success(rdcc(dir.path()).args(["--rd-no-instrument", "-O2", "-c", "sum.c"]));
    let syms = symbols(&dir.path().join("sum.o"));
    assert!(defines(&syms, "sum"));
    assert!(
        !syms.iter().any(|(_, name)| name.starts_with("__rdt_")),
        "{syms:?}"
    );
}

#[test]
fn explain_goes_to_the_named_file() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    success(rdcc(dir.path()).args(["--rd-explain=why.txt", "-O2", "-c", "sum.c"]));
    let text = std::fs::read_to_string(dir.path().join("why.txt")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("# explain: sum.c"));
    assert!(
        lines.next().is_some(),
        "no explanation for the loop's load: {text}"
    );
}

#[test]
fn dependency_file_names_the_real_object() {
    let dir = hello_dir();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    success(rdcc(dir.path()).args(["-MMD", "-c", "hello.c", "-o", "out/hello.o"]));
    let deps = std::fs::read_to_string(dir.path().join("out/hello.d")).unwrap();
    assert_eq!(deps, "out/hello.o: hello.c hello.h\n");
    // Explicit -MF/-MT are the user's.
    success(rdcc(dir.path()).args(["-MMD", "-MF", "x.dep", "-MT", "tgt", "-c", "hello.c"]));
    let deps = std::fs::read_to_string(dir.path().join("x.dep")).unwrap();
    assert_eq!(deps, "tgt: hello.c hello.h\n");
}

#[test]
fn temporary_files_are_removed_or_kept_on_request() {
    let dir = hello_dir();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    success(rdcc(dir.path()).env("TMPDIR", &tmp).args(["-c", "hello.c"]));
    assert!(entries(&tmp).is_empty(), "left behind: {:?}", entries(&tmp));

    let out = output(
        rdcc(dir.path())
            .env("TMPDIR", &tmp)
            .env("RDCC_KEEP_TEMPS", "1")
            .args(["-c", "hello.c"]),
    );
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let kept = entries(&tmp);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let kept_dir = tmp.join(&kept[0]);
    assert_eq!(
        stderr,
        format!("rdcc: keeping temporary files in {}\n", kept_dir.display())
    );
    let files = entries(&kept_dir);
    assert!(files.contains(&"0-hello.bc".to_string()), "{files:?}");
    assert!(files.contains(&"0-hello.instr.bc".to_string()), "{files:?}");
}

#[test]
fn compile_failure_in_link_mode_cleans_up() {
    let dir = scratch();
    write(dir.path(), "bad.c", "int main(void) { return @; }\n");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = output(
        rdcc(dir.path())
            .env("TMPDIR", &tmp)
            .env("RDCC_RUNTIME", "/dev/null")
            .args(["--rd-no-instrument", "bad.c", "-o", "prog"]),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(entries(&tmp).is_empty());
    assert!(!dir.path().join("prog").exists());
}

#[test]
fn missing_runtime_names_where_rdcc_looked() {
    let dir = hello_dir();
    let out = output(
        rdcc(dir.path())
            .env("RDCC_RUNTIME", "/nonexistent/librdruntime.a")
            .args(["hello.c", "-o", "hello"]),
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "rdcc: error: RDCC_RUNTIME names /nonexistent/librdruntime.a, which does not exist\n"
    );

    // A copy of rdcc in a directory without the runtime looks beside itself and in ../lib.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::fs::copy(rdcc_path(), bin.join("rdcc")).unwrap();
    let mut command = Command::new(bin.join("rdcc"));
    command
        .current_dir(dir.path())
        .env_remove("RDCC_RUNTIME")
        .args(["hello.c", "-o", "hello"]);
    let out = output(&mut command);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(&format!("{}/librdruntime.a", bin.display())),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{}/../lib/librdruntime.a", bin.display())),
        "{stderr}"
    );
    assert!(!dir.path().join("hello").exists());
}

#[test]
fn help_and_no_input_modes_reach_clang() {
    let dir = scratch();
    let out = output(rdcc(dir.path()).arg("--help"));
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("OVERVIEW: clang LLVM compiler"));
    // No inputs: clang's own error and status.
    let ours = output(rdcc(dir.path()).arg("-c"));
    let theirs = output(clang(dir.path()).arg("-c"));
    assert_eq!(ours.status.code(), theirs.status.code());
    assert_eq!(
        String::from_utf8_lossy(&ours.stderr).replace("clang-19", "clang"),
        String::from_utf8_lossy(&theirs.stderr).replace("clang-19", "clang")
    );
    let help = success(rdcc(dir.path()).arg("--rd-help"));
    assert!(help.contains("--rd-explain=FILE"));
}

/// The commands rdcc ran, from `RDCC_VERBOSE=1` (one `rdcc: ` line per command).
fn commands_of(dir: &std::path::Path, args: &[&str]) -> Vec<String> {
    let out = output(rdcc(dir).env("RDCC_VERBOSE", "1").args(args));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(out.status.success(), "{stderr}");
    stderr
        .lines()
        .filter_map(|l| l.strip_prefix("rdcc: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn pipeline_optimises_once_then_only_generates_code() {
    let dir = scratch();
    write(dir.path(), "sum.c", SUM);
    let commands = commands_of(
        dir.path(),
        &["-O2", "-DX=1", "-Wall", "-fPIC", "-c", "sum.c"],
    );
    assert_eq!(commands.len(), 2, "{commands:#?}");
    let (front, codegen) = (&commands[0], &commands[1]);
    assert!(
        front.contains(" -O2 -DX=1 -Wall -fPIC -gline-tables-only -D__RDTRACE__=1 -idirafter "),
        "{front}"
    );
    // The region-of-interest header's directory (runtime/include of this tree).
    assert!(front.contains("runtime/include -fno-discard-value-names -emit-llvm -c sum.c -o "));
    assert!(codegen.contains(" -O2 -fPIC "), "{codegen}");
    assert!(
        codegen.contains(" -Xclang -disable-llvm-passes -c "),
        "{codegen}"
    );
    assert!(codegen.contains(".instr.bc -o sum.o"), "{codegen}");
    assert!(
        !codegen.contains("-DX=1") && !codegen.contains("-Wall"),
        "{codegen}"
    );

    // The user's -g replaces rdcc's line tables.
    let commands = commands_of(dir.path(), &["-g", "-c", "sum.c"]);
    assert!(!commands[0].contains("-gline-tables-only"), "{commands:#?}");
}

#[test]
fn link_line_ends_with_the_runtime_and_its_libraries() {
    let dir = scratch();
    write(dir.path(), "main.c", "int main(void) { return 0; }\n");
    let runtime = write(dir.path(), "librdruntime.a", "!<arch>\n");
    let out = output(
        rdcc(dir.path())
            .env("RDCC_VERBOSE", "1")
            .env("RDCC_RUNTIME", &runtime)
            // Uninstrumented, so an empty archive links; a runtime that is found is linked.
            .args([
                "--rd-no-instrument",
                "-fopenmp",
                "main.c",
                "-lm",
                "-o",
                "prog",
            ]),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    let link = stderr.lines().last().unwrap();
    let expected_end = format!(".o -lm -o prog {} -lpthread -ldl -lm", runtime.display());
    assert!(link.contains(" -fopenmp /"), "{link}");
    assert!(link.ends_with(&expected_end), "{link}");
}
