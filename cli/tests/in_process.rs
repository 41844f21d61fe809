//! Commands run in process through the `rda_report` library (the binary's own entry point,
//! [`rda_report::run_args`]) on small traces written by hand, so every expected value is counted
//! from the events rather than copied from a run: reuse distances, cold misses, hit rates of
//! traces that fit in the caches, and the exit statuses 0 / 1 / 2. The end-to-end tests
//! (`tests/tests/`) run the binary on traces of real programs.

use clap::Parser;
use rda_report::exit::{FAILURE, SUCCESS, USAGE};
use rda_report::Cli;
use rdtrace::meta::ModuleMeta;
use rdtrace::testing::{at, load8, one_block_module, write_trace};
use rdtrace::Event;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// Lines of 64 bytes (the default `--line` and the default caches' line size).
const LINE: u64 = 64;
/// Start of the addresses the traces touch (line-aligned).
const BASE: u64 = 0x1000_0000;

/// The address of 64-byte line `i`.
fn line(i: u64) -> u64 {
    BASE + i * LINE
}

/// An 8-byte load by memory instruction `mi` at `addr` (within one line).
fn load(mi: u32, addr: u64) -> Event {
    Event::Access { mi, addr, len: 8 }
}

/// Module `m` (file `m.c`): `main` with one block of three loads at lines 10, 20 and 30.
fn module() -> ModuleMeta {
    let mut m = one_block_module("m", 3);
    m.mem_instrs = vec![
        load8(0, at(0, 10)),
        load8(0, at(0, 20)),
        load8(0, at(0, 30)),
    ];
    m
}

#[test]
fn histogram_of_ranges_counts_every_line_they_touch() {
    // Ten copies of one range of 10 000 lines (a memcpy source, say): the first touches every
    // line cold, each later one reuses every line with the 9 999 others between. The lines
    // outnumber the chunk's events many times over: read ahead on other cores, such a chunk is
    // handed over as its accesses, not its lines.
    let range = Event::Access {
        mi: 0,
        addr: line(0),
        len: 10_000 * LINE,
    };
    let mut events = vec![Event::Block { bb: 0 }];
    events.extend(std::iter::repeat_n(range, 10));
    let f = Fixture::new(&[events]);
    for flags in [&[][..], &["--per-thread"], &["--engine", "parda"]] {
        let v = f.json("histogram", flags);
        assert_eq!(
            (&v["total"], &v["cold"], pairs(&v["histogram"])),
            (&json!(100_000), &json!(10_000), vec![(9_999, 90_000)]),
            "{flags:?}"
        );
    }
}

/// A temporary directory with a trace of one thread per entry of `threads`.
struct Fixture {
    dir: tempfile::TempDir,
    trace: PathBuf,
}

impl Fixture {
    fn new(threads: &[Vec<Event>]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let trace = dir.path().join("t.rdtrace");
        write_trace(&trace, &module(), threads).unwrap();
        Fixture { dir, trace }
    }

    fn trace(&self) -> &str {
        self.trace.to_str().unwrap()
    }

    /// Runs `command` on the trace with `flags` and `--json --output FILE`: the exit status and
    /// the JSON written (a fresh file: one an earlier run left is removed first).
    fn run_json(&self, command: &str, flags: &[&str]) -> (i32, Value) {
        let out = self.dir.path().join(format!("{command}.json"));
        let _ = std::fs::remove_file(&out);
        let mut args = vec![command, self.trace()];
        args.extend_from_slice(flags);
        args.extend_from_slice(&["--json", "--output", out.to_str().unwrap()]);
        let status = run(&args);
        let text = std::fs::read_to_string(&out)
            .unwrap_or_else(|e| panic!("{args:?} (status {status}) wrote no JSON: {e}"));
        (status, serde_json::from_str(&text).unwrap())
    }

    /// [`Fixture::run_json`] of a command that must succeed.
    fn json(&self, command: &str, flags: &[&str]) -> Value {
        let (status, v) = self.run_json(command, flags);
        assert_eq!(status, SUCCESS, "{command} {flags:?}: {v}");
        v
    }
}

/// Runs a command line (without the program name) in process: its exit status.
fn run(args: &[&str]) -> i32 {
    rda_report::run_args(std::iter::once("rda-report").chain(args.iter().copied()))
}

/// One thread entering block 0, then `rounds` times the loads of lines 0, 1, 2 (memory
/// instructions 0, 1, 2): A B C A B C ...
fn cyclic(rounds: u64) -> Vec<Event> {
    let mut events = vec![Event::Block { bb: 0 }];
    for _ in 0..rounds {
        for l in 0..3 {
            events.push(load(l as u32, line(l)));
        }
    }
    events
}

/// `[[distance, count], ...]` as `histogram --json` lists it.
fn pairs(v: &Value) -> Vec<(u64, u64)> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()))
        .collect()
}

#[test]
fn info_counts_the_events_and_the_metadata() {
    let f = Fixture::new(&[cyclic(2)]);
    let v = f.json("info", &[]);
    assert_eq!(v["path"], f.trace());
    assert_eq!(v["exit"], "exit");
    assert_eq!(v["region_of_interest"], Value::Null);
    // One block entry and 6 loads of 8 bytes.
    assert_eq!(v["events"]["blocks"], 1);
    assert_eq!(v["events"]["accesses"], 6);
    assert_eq!(v["events"]["bytes_accessed"], 48);
    assert_eq!(v["events"]["branches"], 0);
    assert_eq!(v["events"]["stamps"], 0);
    let threads = v["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 1);
    assert_eq!(threads[0]["thread"], 0);
    assert_eq!(threads[0]["events"], 7);
    assert_eq!(threads[0]["records"], 7, "no implied blocks");
    assert_eq!(threads[0]["accesses"], 6);
    // Each load lies in one 64-byte line: 6 line visits, none beyond the first line.
    assert_eq!(v["bytes_touched"], 6 * LINE);
    assert_eq!(v["bytes_touched_beyond_first_line"], 0);
    let s = &v["static_counts"];
    assert_eq!(
        (
            &s["modules"],
            &s["functions"],
            &s["blocks"],
            &s["mem_instrs"]
        ),
        (&json!(1), &json!(1), &json!(1), &json!(3))
    );
    assert_eq!(s["shared_mem_instrs"], 3);
    assert_eq!((&s["regions"], &s["loops"]), (&json!(0), &json!(0)));
    assert_eq!(
        (
            &s["implied_blocks"],
            &s["derived_mem_instrs"],
            &s["loops_in_runs"]
        ),
        (&json!(0), &json!(0), &json!(0))
    );
}

#[test]
fn histogram_of_a_cyclic_sweep_has_distance_two_after_the_cold_misses() {
    // A B C A B C A B C A B C: 3 cold references, then every reference has the two other lines
    // between it and its previous use.
    let f = Fixture::new(&[cyclic(4)]);
    let v = f.json("histogram", &[]);
    assert_eq!(v["engine"], "fast");
    assert_eq!(v["exact"], true);
    assert_eq!(v["sampled"], false);
    assert_eq!(v["line"], 64);
    assert_eq!(v["total"], 12);
    assert_eq!(v["cold"], 3);
    assert_eq!(v["overflow"], 0);
    assert_eq!(pairs(&v["histogram"]), [(2, 9)]);
    // log2 bins: distance 2 lies in [2, 4).
    assert_eq!(v["log2"], json!([[2, 4, 9]]));
    assert!(v.get("threads").is_none(), "{v}");
    // Every exact engine counts the same distances.
    for engine in ["olken", "naive", "parda"] {
        let e = f.json("histogram", &["--engine", engine]);
        assert_eq!(
            (&e["total"], &e["cold"], pairs(&e["histogram"])),
            (&json!(12), &json!(3), vec![(2, 9)]),
            "{engine}"
        );
    }
}

#[test]
fn histogram_line_size_maps_addresses_to_lines() {
    // Lines 0 and 1 of 64 bytes are one 128-byte line X, line 2 is Y: X X Y X X Y. Cold: X, Y;
    // then X at 0 (just used), X at 1 (Y between), X at 0, Y at 1 (X between).
    let f = Fixture::new(&[cyclic(2)]);
    let v = f.json("histogram", &["--line", "128"]);
    assert_eq!(v["line"], 128);
    assert_eq!(v["total"], 6);
    assert_eq!(v["cold"], 2);
    assert_eq!(pairs(&v["histogram"]), [(0, 2), (1, 2)]);
    // With byte addresses (`--line 1`) each 8-byte load references its 8 bytes: 24 distinct
    // addresses, cold in the first round, each reused in the second with the 23 others between.
    let v = f.json("histogram", &["--line", "1"]);
    assert_eq!((&v["total"], &v["cold"]), (&json!(48), &json!(24)));
    assert_eq!(pairs(&v["histogram"]), [(23, 24)]);
}

#[test]
fn histogram_per_thread_counts_each_thread_apart_and_sums_them() {
    // Thread 0: A B A (cold, cold, 1). Thread 1: A D D A (A is cold again: reuse is private to
    // the thread; D cold, D at 0, A at 1).
    let t0 = vec![load(0, line(0)), load(1, line(1)), load(0, line(0))];
    let t1 = vec![
        load(0, line(0)),
        load(1, line(3)),
        load(1, line(3)),
        load(0, line(0)),
    ];
    let f = Fixture::new(&[t0, t1]);
    let v = f.json("histogram", &["--per-thread"]);
    let threads = v["threads"].as_array().unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(threads[0]["thread"], 0);
    assert_eq!(
        (&threads[0]["total"], &threads[0]["cold"]),
        (&json!(3), &json!(2))
    );
    assert_eq!(pairs(&threads[0]["histogram"]), [(1, 1)]);
    assert_eq!(threads[1]["thread"], 1);
    assert_eq!(
        (&threads[1]["total"], &threads[1]["cold"]),
        (&json!(4), &json!(2))
    );
    assert_eq!(pairs(&threads[1]["histogram"]), [(0, 1), (1, 1)]);
    // The overall histogram is their sum.
    assert_eq!((&v["total"], &v["cold"]), (&json!(7), &json!(4)));
    assert_eq!(pairs(&v["histogram"]), [(0, 1), (1, 2)]);
}

#[test]
fn measure_and_predict_of_a_trace_that_fits_in_the_l1_miss_only_cold() {
    // 3 lines in the default 8 KiB L1: only the 3 first references miss (compulsory), in the
    // L1 and in the L2 behind it, so the L1 hit rate is 1 - cold/total = 1 - 3/12.
    let f = Fixture::new(&[cyclic(4)]);
    let m = f.json("measure", &[]);
    assert_eq!(m["trace"], f.trace());
    // `l2` is the L2's counts (the measurement's own key wins), `l2_cache` its geometry.
    assert_eq!(
        (&m["l1"], &m["l2_cache"]),
        (&json!("8K:8:64"), &json!("128K:16:64"))
    );
    assert_eq!(m["threads"], 1);
    assert_eq!(m["references"], 12);
    assert_eq!(m["l1_hit"], 0.75);
    assert_eq!(m["l1_mpka"], 250.0);
    // Every L1 miss is a first touch, which the L2 misses too.
    assert_eq!(
        (&m["l2"]["accesses"], &m["l2"]["hits"]),
        (&json!(3), &json!(0))
    );
    assert_eq!(m["l2_hit_local"], 0.0);
    assert_eq!(m["l2_hit_global"], 0.75);
    let t = &m["per_thread"][0];
    assert_eq!(t["references"], 12);
    assert_eq!((&t["l1_hits"], &t["l1_misses"]), (&json!(9), &json!(3)));
    assert_eq!((&t["l2_hits"], &t["l2_misses"]), (&json!(0), &json!(3)));
    let l1 = &m["levels"][0];
    assert_eq!(l1["level"], "L1");
    assert_eq!((&l1["accesses"], &l1["hits"]), (&json!(12), &json!(9)));
    assert_eq!(l1["compulsory"], 3);
    assert_eq!(
        (&l1["capacity"], &l1["conflict"], &l1["coherence"]),
        (&json!(0), &json!(0), &json!(0))
    );

    // The exact model on one core replays the sequential trace itself: the same counts.
    let p = f.json("predict", &["--cores", "1"]);
    let rows = p.as_array().unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!((&r["model"], &r["cores"]), (&json!("exact"), &json!(1)));
    assert_eq!(r["references"], 12);
    assert_eq!(r["l1_hit"], 0.75);
    assert_eq!(r["l2_hit_local"], 0.0);
    assert_eq!(r["l1_hit_per_core"], json!([0.75]));
    assert_eq!(r["per_core"][0]["references"], 12);
    assert_eq!(r["l1_coherence"]["coherence"], 0);
}

#[test]
fn annotate_charges_references_to_source_lines() {
    // Line 10 (mi 0) loads A three times, line 20 (mi 1) B then C: A B A C A. A is cold once,
    // then at distance 1 twice; B and C are cold. Everything fits in the L1, so the L1 and L2
    // misses are the cold references.
    let events = vec![
        Event::Block { bb: 0 },
        load(0, line(0)),
        load(1, line(1)),
        load(0, line(0)),
        load(1, line(2)),
        load(0, line(0)),
    ];
    let f = Fixture::new(&[events]);
    let v = f.json("annotate", &[]);
    assert_eq!(v["threads"], 1);
    let total = &v["total"];
    assert_eq!(
        (&total["accesses"], &total["references"]),
        (&json!(5), &json!(5))
    );
    assert_eq!(total["cold"], 3);
    assert_eq!(
        (&total["l1_misses"], &total["l2_misses"]),
        (&json!(3), &json!(3))
    );
    assert_eq!(total["l1_miss_kinds"]["compulsory"], 3);
    assert_eq!(total["distance_percentiles"], json!([1, 1, 1]));
    // Rows by L1 misses, most first: line 20 (2), then line 10 (1). Line 30 never ran.
    let lines = v["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 2, "{v}");
    let l20 = &lines[0];
    assert_eq!((&l20["file"], &l20["line"]), (&json!("m.c"), &json!(20)));
    assert_eq!(l20["functions"], json!(["main"]));
    assert_eq!((&l20["accesses"], &l20["cold"]), (&json!(2), &json!(2)));
    assert_eq!(l20["l1_misses"], 2);
    assert_eq!(l20["distance_percentiles"], json!([null, null, null]));
    let l10 = &lines[1];
    assert_eq!((&l10["file"], &l10["line"]), (&json!("m.c"), &json!(10)));
    assert_eq!((&l10["accesses"], &l10["cold"]), (&json!(3), &json!(1)));
    assert_eq!(
        (&l10["l1_misses"], &l10["l2_misses"]),
        (&json!(1), &json!(1))
    );
    assert_eq!(l10["distance_percentiles"], json!([1, 1, 1]));
    let functions = v["functions"].as_array().unwrap();
    assert_eq!(functions.len(), 1);
    assert_eq!(
        (&functions[0]["name"], &functions[0]["accesses"]),
        (&json!("main"), &json!(5))
    );
}

#[test]
fn check_is_clean_on_a_valid_trace_and_fails_with_the_list_otherwise() {
    let f = Fixture::new(&[cyclic(2)]);
    let v = f.json("check", &[]);
    assert_eq!(v["threads"], 1);
    assert_eq!(v["events"], 7);
    assert_eq!(v["violations_total"], 0);
    assert_eq!(v["violations"], json!([]));

    // The thread's clock goes back at its event 2: the report is still written, status 1.
    let bad = Fixture::new(&[vec![
        Event::Block { bb: 0 },
        Event::Stamp { time: 10 },
        Event::Stamp { time: 5 },
        load(0, line(0)),
    ]]);
    let (status, v) = bad.run_json("check", &[]);
    assert_eq!(status, FAILURE);
    assert_eq!(v["violations_total"], 1);
    assert_eq!(v["violations"][0]["event"], 2);
    assert_eq!(v["violations"][0]["kind"], "stamp");
}

#[test]
fn usage_errors_return_2_and_failures_1() {
    let f = Fixture::new(&[cyclic(1)]);
    let t = f.trace();
    // clap refuses: a line size that is not a power of two, a number that is not one, an
    // unknown flag, a missing trace argument.
    assert_eq!(run(&["histogram", t, "--line", "3"]), USAGE);
    assert_eq!(run(&["histogram", t, "--line", "many"]), USAGE);
    assert_eq!(run(&["info", t, "--no-such-flag"]), USAGE);
    assert_eq!(run(&["check"]), USAGE);
    // The commands refuse: flags that conflict, an --output in a directory that is not there.
    assert_eq!(
        run(&["annotate", t, "--l1", "8K:8:32", "--l2", "128K:16:64"]),
        USAGE
    );
    let nowhere = f.dir.path().join("no/such/dir/out.json");
    assert_eq!(
        run(&["info", t, "--json", "--output", nowhere.to_str().unwrap()]),
        USAGE
    );
    // Inputs that cannot be read are failures.
    let missing = f.dir.path().join("missing.rdtrace");
    let missing = missing.to_str().unwrap();
    for command in ["info", "histogram", "check", "measure", "annotate"] {
        assert_eq!(run(&[command, missing]), FAILURE, "{command}");
    }
    let garbage = f.dir.path().join("garbage.rdtrace");
    std::fs::write(&garbage, b"not a trace").unwrap();
    assert_eq!(run(&["info", garbage.to_str().unwrap()]), FAILURE);
    // --version is a success, printed by clap without running a command.
    assert_eq!(run(&["--version"]), SUCCESS);
}

#[test]
fn a_parsed_command_line_runs_through_run() {
    // `run` takes what `Cli` parsed (as `run_args` does); `--output` then holds exactly one JSON
    // document.
    let f = Fixture::new(&[cyclic(1)]);
    let out: &Path = &f.dir.path().join("h.json");
    let cli = Cli::try_parse_from([
        "rda-report",
        "histogram",
        f.trace(),
        "--json",
        "--quiet",
        "--output",
        out.to_str().unwrap(),
    ])
    .unwrap();
    assert_eq!(rda_report::run(cli), SUCCESS);
    let text = std::fs::read_to_string(out).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!((&v["total"], &v["cold"]), (&json!(3), &json!(3)));
}
