//! rdcc under its other names (issue 25): `make CC=rdclang` with a makefile that picks flags by
//! the compiler's name, `rdc++`/`rdclang++` as a drop-in clang++ that links the C++ standard
//! library, `rdflang` and `.f90` sources through flang, and sources that cannot be instrumented
//! failing loudly instead of building natively.

use rdtools_e2e::*;
use std::path::Path;
use std::process::Command;

/// Copies `test-programs/makefile_names` into a fresh directory and runs `make CC=<cc>` there
/// with rdcc's directory first on PATH; returns the directory.
fn make_with(cc: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for file in ["Makefile", "threads.c"] {
        std::fs::copy(program("makefile_names").join(file), dir.path().join(file)).unwrap();
    }
    let bin = tools().rdcc.parent().unwrap().to_path_buf();
    let path = std::env::join_paths(
        std::iter::once(bin).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap())),
    )
    .unwrap();
    let out = Command::new("make")
        .arg(format!("CC={cc}"))
        .current_dir(dir.path())
        .env("PATH", path)
        .output()
        .expect("make runs");
    success_stdout(out, &format!("make CC={cc}"));
    dir
}

fn run_threads(dir: &Path, threads: &str) -> (String, rdtrace::Trace) {
    let trace = dir.join("threads.rdtrace");
    let out = run_traced(
        &dir.join("threads"),
        &trace,
        &[("OMP_NUM_THREADS", threads)],
    );
    let stdout = success_stdout(out, "threads");
    (stdout, rdtrace::Trace::open(&trace).unwrap())
}

#[test]
fn make_cc_rdclang_keeps_the_makefiles_openmp_flags() {
    let _ = tools();
    // Under a name with "clang" in it the makefile adds -fopenmp: 3 threads, all traced.
    let dir = make_with("rdclang");
    let (stdout, trace) = run_threads(dir.path(), "3");
    assert_eq!(stdout.trim(), "threads=3 sum=8386560");
    assert_eq!(trace.threads.len(), 3, "every OpenMP thread is traced");
    assert!(
        !trace.meta.tables.regions.is_empty(),
        "the parallel region is instrumented"
    );
    // The same makefile with CC=rdcc silently drops OpenMP: the reason rdclang exists.
    let dir = make_with("rdcc");
    let (stdout, trace) = run_threads(dir.path(), "3");
    assert_eq!(stdout.trim(), "threads=1 sum=8386560");
    assert!(trace.meta.tables.regions.is_empty());
}

const CXX: &str = r#"
#include <iostream>
#include <numeric>
#include <vector>
template <typename T> T total(const std::vector<T> &v) { return std::accumulate(v.begin(), v.end(), T{}); }
int main() {
    std::vector<double> v(1000);
    #pragma omp parallel for
    for (int i = 0; i < 1000; i++) v[i] = 0.5 * i;
    std::cout << "total " << total(v) << std::endl;
}
"#;

#[test]
fn cxx_names_link_the_cxx_standard_library() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("t.cpp");
    std::fs::write(&src, CXX).unwrap();
    let bin = tools().rdcc.parent().unwrap().to_path_buf();
    for name in ["rdc++", "rdclang++"] {
        let exe = dir.path().join(name.replace('+', "x"));
        let out = Command::new(bin.join(name))
            .args(["-fopenmp", "-O2"])
            .arg(&src)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        success_stdout(out, name);
        let trace = dir.path().join("t.rdtrace");
        let out = run_traced(&exe, &trace, &[("OMP_NUM_THREADS", "2")]);
        assert_eq!(success_stdout(out, "t").trim(), "total 249750");
    }
    // Plain rdcc is clang's C driver: like clang, it does not link the C++ library.
    let out = Command::new(&tools().rdcc)
        .arg(&src)
        .arg("-o")
        .arg(dir.path().join("c"))
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn a_missing_flang_is_an_error_with_a_message_never_a_native_build() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("p.f90");
    std::fs::write(&src, "program p\n  print *, 'hi'\nend program p\n").unwrap();
    let exe = dir.path().join("p");
    let out = Command::new(&tools().rdflang)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .env("RDCC_FLANG", "/nonexistent/flang-new")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("rdflang: error") && err.contains("RDCC_FLANG"),
        "{err}"
    );
    assert!(!exe.exists(), "no binary from a failed build");
}

#[test]
fn a_fortran_source_flang_rejects_fails_with_flangs_message() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("bad.f90");
    std::fs::write(&src, "program bad\n  x = = 1\nend program bad\n").unwrap();
    let exe = dir.path().join("bad");
    let out = Command::new(&tools().rdcc)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).is_empty());
    assert!(!exe.exists());
}

#[test]
fn sources_rdcc_cannot_instrument_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["k.cu", "v.m"] {
        let src = dir.path().join(name);
        std::fs::write(&src, "int x;\n").unwrap();
        let out = Command::new(&tools().rdcc)
            .arg("-c")
            .arg(&src)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot instrument"), "{err}");
    }
}
