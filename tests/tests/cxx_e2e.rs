//! End to end on C++: `test-programs/cxx/particles.cpp` (classes, templates, `std::vector`,
//! lambdas, a `parallel for` in a member function, an exception) built with the rdtools driver
//! prints what its header comment derives, as the native clang++-19 build does, at 1 and at 4
//! threads; its traces break no invariant; and every report names its functions readably
//! (`sim::Particles::step(double)`, never `_ZN3sim9Particles4stepEd`), `annotate` listing only
//! the functions that ran.

use rdtools_e2e::{line_of, program, rda_report, rda_report_json, run_traced, tools};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

const REL: &str = "cxx/particles.cpp";

/// The outlined `parallel for` of `sim::Particles::step(double)`, as reports name it.
const STEP_OUTLINED: &str = "sim::Particles::step(double).omp_outlined";

/// Flags of both builds: OpenMP, optimised, with line tables for `annotate`.
const FLAGS: [&str; 3] = ["-fopenmp", "-O2", "-g"];

/// The rdtools C++ compiler and the flags it needs beyond clang++'s. Until `tools()` knows
/// `rdc++`: `rdcc` (clang reads `.cpp` as C++) linking the C++ standard library itself.
fn rdcxx() -> (PathBuf, &'static [&'static str]) {
    (tools().rdcxx.clone(), &[])
}

/// The native and traced builds and the traces of a run at 1 and at 4 threads, made once per
/// test process in the target directory's scratch space.
struct Fixture {
    native: PathBuf,
    /// (threads, trace, traced program's stdout)
    runs: Vec<(u32, PathBuf, String)>,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cxx_e2e");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let src = program(REL);
        let native = dir.join("particles-native");
        compile(Path::new("clang++-19"), &[], &src, &native);
        let traced = dir.join("particles");
        let (cxx, extra) = rdcxx();
        compile(&cxx, extra, &src, &traced);
        let runs = [1, 4]
            .into_iter()
            .map(|threads| {
                let trace = dir.join(format!("particles-{threads}.rdtrace"));
                // Every traced run goes through the invariant checker (`rda-report check`'s).
                let out = run_traced(
                    &traced,
                    &trace,
                    &[("OMP_NUM_THREADS", &threads.to_string())],
                );
                assert!(
                    out.status.success(),
                    "traced particles ({threads} threads) failed: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
                (threads, trace, String::from_utf8(out.stdout).unwrap())
            })
            .collect();
        Fixture { native, runs }
    })
}

fn compile(compiler: &Path, extra: &[&str], src: &Path, out: &Path) {
    let o = Command::new(compiler)
        .args(FLAGS)
        .arg(src)
        .args(extra)
        .arg("-o")
        .arg(out)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", compiler.display()));
    assert!(
        o.status.success(),
        "{} failed:\n{}",
        compiler.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The output the program's header comment derives (its `Expected output:` block).
fn expected_output() -> String {
    let text = std::fs::read_to_string(program(REL)).unwrap();
    let mut out = String::new();
    for line in text
        .lines()
        .skip_while(|l| !l.starts_with("// Expected output:"))
        .skip(1)
        .take_while(|l| l.starts_with("//   "))
    {
        out.push_str(&line["//   ".len()..]);
        out.push('\n');
    }
    assert!(out.lines().count() >= 8, "no expected output in {REL}");
    out
}

fn trace_of(threads: u32) -> &'static str {
    let (_, trace, _) = fixture()
        .runs
        .iter()
        .find(|(t, _, _)| *t == threads)
        .unwrap();
    trace.to_str().unwrap()
}

fn report(args: &[&str]) -> String {
    let (ok, out, err) = rda_report(args);
    assert!(ok, "rda-report {args:?} failed: {err}");
    out
}

fn assert_no_symbols(what: &str, text: &str) {
    if let Some(at) = text.find("_Z") {
        let from = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let to = text[at..].find('\n').map_or(text.len(), |n| at + n);
        panic!("{what} prints a mangled name: {}", &text[from..to]);
    }
}

#[test]
fn traced_output_equals_native_and_the_header_at_1_and_4_threads() {
    let f = fixture();
    let expected = expected_output();
    for (threads, trace, traced_out) in &f.runs {
        let native = Command::new(&f.native)
            .env("OMP_NUM_THREADS", threads.to_string())
            .output()
            .unwrap();
        assert!(native.status.success(), "native particles failed");
        assert_eq!(
            String::from_utf8_lossy(&native.stdout),
            expected,
            "native output at {threads} threads"
        );
        assert_eq!(*traced_out, expected, "traced output at {threads} threads");
        // `rda-report check` agrees: no invariant violated (exit 0).
        let (ok, out, err) = rda_report(&["check", trace.to_str().unwrap()]);
        assert!(ok, "check of the {threads}-thread trace: {out}{err}");
    }
    // The 4-thread run really ran the parallel loop on 4 threads.
    let t = rdtrace::Trace::open(trace_of(4)).unwrap();
    assert!(t.threads.len() >= 4, "{} threads", t.threads.len());
}

fn annotate_json(threads: u32) -> Value {
    rda_report_json(&[
        "annotate",
        trace_of(threads),
        "--json",
        "--quiet",
        "--top",
        "0",
    ])
}

fn line_row(j: &Value, line: u32) -> &Value {
    j["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["line"] == line && r["file"].as_str().unwrap().ends_with("particles.cpp"))
        .unwrap_or_else(|| panic!("line {line} not annotated"))
}

#[test]
fn annotate_names_the_parallel_loop_readably_and_lists_only_functions_that_ran() {
    let step = line_of(REL, "/* STEP */");
    let mut step_accesses = Vec::new();
    for threads in [1, 4] {
        let j = annotate_json(threads);
        // The STEP line is the parallel loop's: its function is the outlined region of
        // Particles::step, the symbol kept beside the readable name.
        let row = line_row(&j, step);
        let names = row["functions_demangled"].as_array().unwrap();
        assert_eq!(names.len(), 1, "{row}");
        assert!(
            names[0].as_str().unwrap().starts_with(STEP_OUTLINED),
            "{row}"
        );
        assert!(row["functions"][0]
            .as_str()
            .unwrap()
            .starts_with("_ZN3sim9Particles4stepEd.omp_outlined"));
        // The constructor touched every line of x and v first (header comment).
        assert_eq!(row["cold"], 0, "cold references on the STEP line");
        step_accesses.push(row["accesses"].as_u64().unwrap());
        for init in ["/* INIT_X */", "/* INIT_V */"] {
            assert_eq!(line_row(&j, line_of(REL, init))["functions"][0], "main");
        }

        // The function table: readable names beside the symbols, only functions that ran.
        let functions = j["functions"].as_array().unwrap();
        let readable: Vec<&str> = functions
            .iter()
            .map(|f| {
                f["name_demangled"]
                    .as_str()
                    .unwrap_or_else(|| f["name"].as_str().unwrap())
            })
            .collect();
        assert!(
            readable.iter().any(|n| n.starts_with(STEP_OUTLINED)),
            "{readable:?}"
        );
        assert!(readable.contains(&"main"), "{readable:?}");
        // Called twice (the second call throws).
        assert!(
            readable.contains(&"sim::Particles::at(unsigned long) const"),
            "{readable:?}"
        );
        for f in functions {
            assert!(f["accesses"].as_u64().unwrap() > 0, "{f}");
            if f["name"].as_str().unwrap().starts_with("_Z") {
                assert!(f["name_demangled"].is_string(), "{f}");
            }
        }
        // debug_dump is in the program (with memory instructions on lines that ran) but never
        // ran: no row names it, neither in the function table nor beside a line.
        let t = rdtrace::Trace::open(trace_of(threads)).unwrap();
        let dump_symbol = "_Z10debug_dumpRKN3sim9ParticlesE";
        let dump_id = t
            .meta
            .functions
            .iter()
            .position(|f| f.name == dump_symbol)
            .expect("debug_dump is instrumented");
        assert!(t
            .meta
            .mem_instrs
            .iter()
            .any(|m| t.meta.blocks[m.block as usize].function as usize == dump_id));
        let text = j.to_string();
        assert!(!text.contains(dump_symbol) && !text.contains("debug_dump"));
    }
    // The same particles move the same way whatever the team size.
    assert_eq!(step_accesses[0], step_accesses[1]);

    // Text and CSV show the readable names only.
    let text = report(&["annotate", trace_of(4), "--quiet", "--top", "0"]);
    assert_no_symbols("annotate", &text);
    assert!(text.contains(STEP_OUTLINED), "{text}");
    assert!(text.contains("sim::Particles::step.omp_outlined"), "{text}");
    let csv = report(&["annotate", trace_of(4), "--quiet", "--csv", "--top", "0"]);
    assert_no_symbols("annotate --csv", &csv);
    // With the sources, the STEP line is printed among the hot lines.
    let src = report(&[
        "annotate",
        trace_of(4),
        "--quiet",
        "--source-dir",
        program("cxx").to_str().unwrap(),
    ]);
    assert!(
        src.lines()
            .any(|l| l.contains("/* STEP */") && l.contains(&format!(">{step:>5}"))),
        "{src}"
    );
}

#[test]
fn dump_paths_simt_and_html_show_no_mangled_names() {
    let trace = trace_of(4);
    // Every event, as text (CSV: one pass) and as JSON for the symbols kept beside.
    let dump = report(&["dump", trace, "--limit", "100000000", "--csv"]);
    assert_no_symbols("dump", &dump);
    assert!(
        dump.lines()
            .any(|l| l.contains(&format!(" {STEP_OUTLINED}:"))),
        "the outlined loop's blocks are named readably"
    );
    // The first step starts after the constructor's 4096 iterations (a few events each).
    let rows = rda_report_json(&["dump", trace, "--limit", "40000", "--json"]);
    let named = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| {
            r["what_demangled"]
                .as_str()
                .is_some_and(|w| w.contains(STEP_OUTLINED))
        })
        .expect("a block row of the loop with its readable name");
    assert!(named["what"]
        .as_str()
        .unwrap()
        .contains("_ZN3sim9Particles4stepEd.omp_outlined"));

    let paths = report(&["paths", trace, "--quiet"]);
    assert_no_symbols("paths", &paths);

    // The loop ran ten times: ten kernels, named after Particles::step's outlined region.
    let simt = report(&["simt", trace, "--quiet"]);
    assert_no_symbols("simt", &simt);
    assert_eq!(
        simt.lines()
            .filter(|l| l.contains(&format!("{STEP_OUTLINED} (")))
            .count(),
        10,
        "{simt}"
    );
    let j = rda_report_json(&["simt", trace, "--quiet", "--json"]);
    let k = &j["kernels"][0];
    assert!(k["name"]
        .as_str()
        .unwrap()
        .starts_with("_ZN3sim9Particles4stepEd"));
    assert!(k["name_demangled"]
        .as_str()
        .unwrap()
        .starts_with(STEP_OUTLINED));
    assert!(k["origin"]["function_demangled"]
        .as_str()
        .unwrap()
        .starts_with(STEP_OUTLINED));

    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("report.html");
    report(&[
        "html",
        trace,
        "-o",
        page.to_str().unwrap(),
        "--simt",
        "1",
        "--quiet",
    ]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert_no_symbols("html", &html);
    assert!(html.contains(STEP_OUTLINED));
}
