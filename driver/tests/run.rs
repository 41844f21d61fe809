//! Link and run: programs built by rdcc run like their clang-19 builds and leave a trace.
//! These tests build the runtime crate (`cargo build -p rdruntime`) into rdcc's target
//! directory first, where rdcc finds it.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use rdtrace::Trace;

/// A serial program whose output is known by arithmetic: the sum of 1..=100 is 5050 and the
/// sum of their squares 100·101·201/6 = 338350.
const SERIAL: &str = r#"#include <stdio.h>
#include <stdlib.h>
static long squares(const long *a, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += a[i] * a[i];
    return s;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 100;
    long *a = malloc(n * sizeof *a);
    long sum = 0;
    for (int i = 0; i < n; i++) a[i] = i + 1;
    for (int i = 0; i < n; i++) sum += a[i];
    printf("sum=%ld squares=%ld\n", sum, squares(a, n));
    free(a);
    return 0;
}
"#;

/// An OpenMP program whose output does not depend on the thread count (integer reduction).
const PARALLEL: &str = r#"#include <stdio.h>
#define N 4096
static int a[N];
int main(void) {
    long s = 0;
    #pragma omp parallel for schedule(static)
    for (int i = 0; i < N; i++) a[i] = i % 10;
    #pragma omp parallel for reduction(+:s)
    for (int i = 0; i < N; i++) s += a[i];
    printf("s=%ld\n", s);
    return 0;
}
"#;

fn run_program(dir: &Path, program: &str, trace: Option<&Path>) -> String {
    let mut command = Command::new(dir.join(program));
    command.current_dir(dir).env("OMP_NUM_THREADS", "2");
    match trace {
        Some(trace) => command.env("RDTRACE", trace),
        None => command.env_remove("RDTRACE"),
    };
    success(&mut command)
}

#[test]
fn serial_program_runs_like_clangs_and_writes_a_trace() {
    ensure_runtime();
    let dir = scratch();
    write(dir.path(), "serial.c", SERIAL);
    success(clang(dir.path()).args(["-O2", "serial.c", "-o", "native"]));
    success(rdcc(dir.path()).args(["-O2", "serial.c", "-o", "traced"]));

    let native = run_program(dir.path(), "native", None);
    assert_eq!(native, "sum=5050 squares=338350\n");
    let trace_path = dir.path().join("serial.rdtrace");
    assert_eq!(run_program(dir.path(), "traced", Some(&trace_path)), native);

    let trace = Trace::open(&trace_path).expect("the traced run left a readable trace");
    assert_eq!(trace.meta.modules.len(), 1, "{:?}", trace.meta.modules);
    assert!(
        trace.meta.files.iter().any(|f| f.ends_with("serial.c")),
        "{:?}",
        trace.meta.files
    );
    assert!(
        trace.exit.is_some(),
        "the run ended normally, so the end chunk is there"
    );
    // Two loops over 100 elements load at least 200 times.
    assert!(
        trace.total_events() >= 200,
        "only {} events",
        trace.total_events()
    );
}

#[test]
fn openmp_program_links_libomp_and_runtime() {
    ensure_runtime();
    let dir = scratch();
    write(dir.path(), "par.c", PARALLEL);
    success(clang(dir.path()).args(["-O2", "-fopenmp", "par.c", "-o", "native"]));
    success(rdcc(dir.path()).args(["-O2", "-fopenmp", "par.c", "-o", "traced"]));
    // 4096 = 409·10 + 6: each digit 0..9 occurs 409 times plus 0..5 once more, so
    // s = 409·45 + 15 = 18420.
    let native = run_program(dir.path(), "native", None);
    assert_eq!(native, "s=18420\n");
    let trace_path = dir.path().join("par.rdtrace");
    assert_eq!(run_program(dir.path(), "traced", Some(&trace_path)), native);
    let trace = Trace::open(&trace_path).unwrap();
    assert_eq!(
        trace.threads.len(),
        2,
        "OMP_NUM_THREADS=2: {:?}",
        trace.threads
    );
}

#[test]
fn separately_compiled_objects_link_into_one_program() {
    ensure_runtime();
    let dir = scratch();
    write(
        dir.path(),
        "lib.c",
        "long twice(long x) { return 2 * x; }\n",
    );
    write(
        dir.path(),
        "main.c",
        "#include <stdio.h>\nlong twice(long);\nint main(void) { printf(\"%ld\\n\", twice(21)); }\n",
    );
    success(rdcc(dir.path()).args(["-O1", "-c", "lib.c", "main.c"]));
    success(
        Command::new("ar")
            .current_dir(dir.path())
            .args(["rcs", "libtwice.a", "lib.o"]),
    );
    success(rdcc(dir.path()).args(["main.o", "-L.", "-ltwice", "-o", "prog"]));
    let trace_path = dir.path().join("prog.rdtrace");
    assert_eq!(run_program(dir.path(), "prog", Some(&trace_path)), "42\n");
    let trace = Trace::open(&trace_path).unwrap();
    assert_eq!(trace.meta.modules.len(), 2, "{:?}", trace.meta.modules);
}

#[test]
fn make_builds_the_multifile_program() {
    ensure_runtime();
    let dir = scratch();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-programs/multifile");
    for name in ["Makefile", "main.c", "vec.c", "stats.c", "vec.h"] {
        std::fs::copy(source.join(name), dir.path().join(name)).unwrap();
    }
    let cc = format!("CC={}", rdcc_path().display());
    success(
        Command::new("make")
            .current_dir(dir.path())
            .args(["-s", &cc]),
    );
    // The dependency files name the real objects and headers.
    let deps = std::fs::read_to_string(dir.path().join("stats.d")).unwrap();
    assert!(deps.starts_with("stats.o: stats.c vec.h\n"), "{deps}");

    let trace_path = dir.path().join("multifile.rdtrace");
    let stdout = run_program(dir.path(), "multifile", Some(&trace_path));
    // The values are derived in main.c's header comment.
    assert_eq!(
        stdout,
        "n = 1000\nsum = 500500\nsum_squares = 333833500\ndot_reversed = 167167000\n\
         squares_sum = 333833500\nlast_square = 1000000\nhist_mod7 = 142 143 143 143 143 143 143\n"
    );
    let trace = Trace::open(&trace_path).unwrap();
    assert_eq!(trace.meta.modules.len(), 3, "{:?}", trace.meta.modules);
    for file in ["main.c", "vec.c", "stats.c"] {
        assert!(
            trace.meta.files.iter().any(|f| f.ends_with(file)),
            "{:?}",
            trace.meta.files
        );
    }

    // Nothing is rebuilt when nothing changed; touching the header rebuilds every object.
    let again = success(
        Command::new("make")
            .current_dir(dir.path())
            .args(["-s", "-n", &cc]),
    );
    assert_eq!(again, "");
    std::fs::write(
        dir.path().join("vec.h"),
        std::fs::read(source.join("vec.h")).unwrap(),
    )
    .unwrap();
    let rebuild = success(
        Command::new("make")
            .current_dir(dir.path())
            .args(["-n", &cc]),
    );
    assert_eq!(rebuild.matches(" -c ").count(), 3, "{rebuild}");
}

#[test]
fn uninstrumented_build_runs_without_a_trace() {
    ensure_runtime();
    let dir = scratch();
    write(dir.path(), "serial.c", SERIAL);
    success(rdcc(dir.path()).args(["--rd-no-instrument", "-O2", "serial.c", "-o", "plain"]));
    let trace_path = dir.path().join("plain.rdtrace");
    assert_eq!(
        run_program(dir.path(), "plain", Some(&trace_path)),
        "sum=5050 squares=338350\n"
    );
    assert!(!trace_path.exists(), "no instrumented code, no trace");
}

#[test]
fn cmake_project_builds_with_rdcc() {
    // scripts/setup.sh installs cmake: a missing one is a set-up failure, not a skip.
    assert!(
        Command::new("cmake").arg("--version").output().is_ok(),
        "cmake is not installed: run scripts/setup.sh"
    );
    ensure_runtime();
    let dir = scratch();
    let src = dir.path().join("src");
    std::fs::create_dir(&src).unwrap();
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../test-programs/multifile");
    for name in ["main.c", "vec.c", "stats.c", "vec.h"] {
        std::fs::copy(source.join(name), src.join(name)).unwrap();
    }
    write(
        &src,
        "CMakeLists.txt",
        "cmake_minimum_required(VERSION 3.16)\nproject(multifile C)\n\
         find_package(OpenMP REQUIRED)\nadd_executable(multifile main.c vec.c stats.c)\n\
         target_link_libraries(multifile PRIVATE OpenMP::OpenMP_C)\n",
    );
    // CMake identifies the compiler, checks that it works, probes its ABI with -v and finds
    // OpenMP; each of these compiles and links small programs with rdcc.
    let configure = success(Command::new("cmake").current_dir(dir.path()).args([
        "-S",
        "src",
        "-B",
        "build",
        &format!("-DCMAKE_C_COMPILER={}", rdcc_path().display()),
        "-DCMAKE_BUILD_TYPE=Release",
    ]));
    assert!(
        configure.contains("The C compiler identification is Clang 19."),
        "{configure}"
    );
    assert!(configure.contains("Found OpenMP_C"), "{configure}");
    success(
        Command::new("cmake")
            .current_dir(dir.path())
            .args(["--build", "build"]),
    );
    let trace_path = dir.path().join("cmake.rdtrace");
    let stdout = run_program(&dir.path().join("build"), "multifile", Some(&trace_path));
    assert!(
        stdout.ends_with("hist_mod7 = 142 143 143 143 143 143 143\n"),
        "{stdout}"
    );
    assert_eq!(Trace::open(&trace_path).unwrap().meta.modules.len(), 3);
}
