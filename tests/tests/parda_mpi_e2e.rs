//! `mpirun -np P rda-report histogram … --engine parda-mpi` end to end (feature `mpi`): local
//! ranks on loopback only (`--oversubscribe`, shared-memory and self transports), compared with
//! the naive oracle and `--engine fast` on random, adversarial, text and real traces, with and
//! without a bound, for P = 1..4 including more ranks than chunks; and a rank that cannot read
//! its slice stops every rank with one message, under a timeout.

#![cfg(feature = "mpi")]

use rdengines::naive::naive_histogram;
use rdengines::workload::generate;
use rdengines::Histogram;
use rdtools_e2e::{local_mpirun, program, rda_report, rdcc, run_traced};
use serde_json::Value;
use std::path::Path;
use std::process::Output;

/// Seconds any one mpirun may take before the test calls it a hang.
const TIMEOUT_S: &str = "120";

/// Runs `mpirun -np np rda-report args…` on this machine only, under a timeout.
fn mpirun(np: usize, args: &[&str]) -> Output {
    let o = local_mpirun(np, &["timeout", "--kill-after=10", TIMEOUT_S])
        .args(args)
        .output()
        .expect("mpirun runs (is openmpi-bin installed? scripts/setup.sh installs it)");
    assert_ne!(
        o.status.code(),
        Some(124),
        "mpirun -np {np} {args:?} timed out:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The histogram of a `--json` report.
fn histogram_of(json: &str) -> Histogram {
    let v: Value = serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let mut h = Histogram::new_exact();
    h.cold = v["cold"].as_u64().unwrap();
    h.overflow = v["overflow"].as_u64().unwrap();
    h.bound = v["bound"].as_u64();
    for pair in v["histogram"].as_array().unwrap() {
        h.add(pair[0].as_u64().unwrap(), pair[1].as_u64().unwrap());
    }
    h
}

/// `parda-mpi` on `np` ranks, as a histogram.
fn parda_mpi(np: usize, file: &Path, extra: &[&str]) -> Histogram {
    let mut args = vec![
        "histogram",
        file.to_str().unwrap(),
        "--engine",
        "parda-mpi",
        "--json",
    ];
    args.extend(extra);
    let o = mpirun(np, &args);
    let (out, err) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    assert!(o.status.success(), "np={np} {extra:?} failed:\n{err}");
    // Rank 0 prints one report; the others print nothing.
    assert_eq!(out.matches("\"engine\"").count(), 1, "np={np}: {out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["engine"], "parda-mpi");
    assert_eq!(v["exact"], true);
    histogram_of(&out)
}

/// `--engine fast` in one process, as a histogram.
fn fast(file: &Path, extra: &[&str]) -> Histogram {
    let mut args = vec!["histogram", file.to_str().unwrap(), "--json"];
    args.extend(extra);
    let (ok, out, err) = rda_report(&args);
    assert!(ok, "{err}");
    histogram_of(&out)
}

fn write_binary(path: &Path, addrs: &[u64]) {
    let bytes: Vec<u8> = addrs.iter().flat_map(|a| a.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

/// Streams whose shape stresses the exchange: cold-heavy, reuse across many chunks, reuses
/// only across chunk boundaries, one hot block.
fn adversarial() -> Vec<(&'static str, Vec<u64>)> {
    let cyclic: Vec<u64> = (0..3000).map(|i| i % 700).collect();
    // 0..M then M..0: every reuse distance differs and most reuses cross chunks.
    let sawtooth: Vec<u64> = (0..600).chain((0..600).rev()).chain(0..600).collect();
    let distinct: Vec<u64> = (0..2500).map(|i| i * 64).collect();
    let hot: Vec<u64> = (0..1500).map(|i| if i % 3 == 0 { 42 } else { i }).collect();
    // One block repeated, then new blocks: the last rank of a phase ends with far more
    // survivors than the others, so the state reduction takes direction (b) (the survivors
    // move to the last rank, which becomes the holder).
    let hot_then_new: Vec<u64> = std::iter::repeat_n(0, 300)
        .chain(1..1000)
        .chain(std::iter::repeat_n(0, 300))
        .chain(1000..3000)
        .chain(0..500)
        .collect();
    vec![
        ("hot_then_new", hot_then_new),
        ("cyclic", cyclic),
        ("sawtooth", sawtooth),
        ("distinct", distinct),
        ("hot", hot),
    ]
}

/// Binary PARDA input: every P in 1..4, chunk sizes from a few references to more than the
/// whole stream (P larger than the number of chunks), unbounded and bounded, equal the naive
/// oracle and `fast`.
#[test]
fn binary_input_equals_naive_and_fast_for_every_p_chunk_and_bound() {
    let dir = tempfile::tempdir().unwrap();
    let mut streams = adversarial();
    streams.push(("random", generate(4000, 900, 7)));
    for (name, blocks) in &streams {
        let file = dir.path().join(format!("{name}.bin"));
        write_binary(&file, blocks);
        for bound in [None, Some(64u64)] {
            let want = naive_histogram(blocks, bound);
            let b = bound.map(|b| b.to_string());
            let mut flags = vec!["--input-format", "parda-binary", "--line", "1"];
            if let Some(b) = &b {
                flags.extend(["--bound", b.as_str()]);
            }
            assert_eq!(fast(&file, &flags), want, "{name} fast bound={bound:?}");
            // Every stream meets every rank count; the random one every configuration.
            let configs: &[(usize, &str)] = if *name == "random" {
                &[
                    (1, "997"),
                    (2, "333"),
                    (3, "100"),
                    (4, "1000"),
                    (4, "100000"),
                ]
            } else if bound.is_none() {
                &[(2, "333"), (4, "100")]
            } else {
                &[(3, "250"), (4, "100000")]
            };
            for &(np, chunk) in configs {
                let mut f = flags.clone();
                f.extend(["--chunk", chunk]);
                assert_eq!(
                    parda_mpi(np, &file, &f),
                    want,
                    "{name} np={np} chunk={chunk} bound={bound:?}"
                );
            }
        }
    }
}

/// Text PARDA input cut by byte range at line starts (comments, blank lines, `0x` and bare
/// hex, lines of uneven length), at 64-byte lines: equal `fast` on the same file.
#[test]
fn text_input_split_at_line_starts_equals_fast() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("addrs.txt");
    let blocks = generate(3000, 400, 11);
    let mut text = String::from("# PARDA text input\n");
    for (i, b) in blocks.iter().enumerate() {
        let addr = b * 64 + (i as u64 % 64);
        match i % 5 {
            0 => text.push_str(&format!("0x{addr:x}\n")),
            1 => text.push_str(&format!("{addr:016X}\n")),
            2 => text.push_str(&format!("  {addr:x}  \n\n")),
            _ => text.push_str(&format!("{addr:x}\n")),
        }
    }
    std::fs::write(&file, text).unwrap();
    let flags = ["--input-format", "parda-text", "--line", "64"];
    let want = fast(&file, &flags);
    assert_eq!(want.total(), 3000);
    assert_eq!(want, naive_histogram(&blocks, None));
    // --chunk 40 means 640-byte slices: many chunks, boundaries inside lines.
    for (np, chunk) in [(3, "57"), (4, "40"), (4, "100000")] {
        let mut f = flags.to_vec();
        f.extend(["--chunk", chunk]);
        assert_eq!(parda_mpi(np, &file, &f), want, "np={np} chunk={chunk}");
        f.extend(["--bound", "50"]);
        let mut bounded = flags.to_vec();
        bounded.extend(["--bound", "50"]);
        assert_eq!(
            parda_mpi(np, &file, &f),
            fast(&file, &bounded),
            "np={np} bounded"
        );
    }
}

/// A real program built with rdcc (serial_loop.c: N/8 lines written once, then read in two
/// sweeps; see its header): each rank decodes only its own trace chunks, and the histogram
/// equals `fast`'s, and the reasoning in the program's header.
#[test]
fn real_trace_sliced_by_chunk_index_equals_fast() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("serial_loop");
    // N = 65536 doubles: 8192 lines; small trace chunks so that ranks get several each.
    // Without vectorisation every loop makes one 8-byte access per element, as the header
    // assumes (vectorised, the init loop would store two doubles at a time).
    rdcc(
        &[program("basic/serial_loop.c")],
        &["-O2", "-fno-vectorize", "-fno-slp-vectorize", "-DN=65536"],
        &exe,
    );
    let trace = dir.path().join("t.rdtrace");
    let out = run_traced(&exe, &trace, &[("RDTRACE_CHUNK_EVENTS", "4096")]);
    assert!(out.status.success());
    let want = fast(&trace, &[]);
    // From the header: 8192 cold, 2 · 8192 at distance 8191, the rest (7 of 8 accesses of
    // each line in each of three sweeps) at distance 0.
    assert_eq!(want.cold, 8192);
    assert_eq!(want.counts.get(&8191), Some(&(2 * 8192)));
    assert_eq!(want.counts.get(&0), Some(&(3 * 65536 - 3 * 8192)));
    for np in [1, 2, 3, 4] {
        assert_eq!(
            parda_mpi(np, &trace, &["--chunk", "20000"]),
            want,
            "np={np}"
        );
    }
    // Outside mpirun the engine runs as one rank (an MPI singleton).
    let (ok, out, err) = rda_report(&[
        "histogram",
        trace.to_str().unwrap(),
        "--engine",
        "parda-mpi",
        "--chunk",
        "20000",
        "--json",
    ]);
    assert!(ok, "{err}");
    assert_eq!(histogram_of(&out), want, "singleton");
    let bounded = fast(&trace, &["--bound", "4096"]);
    assert_eq!(bounded.overflow, 2 * 8192);
    for np in [2, 4] {
        assert_eq!(
            parda_mpi(np, &trace, &["--chunk", "30000", "--bound", "4096"]),
            bounded,
            "np={np} bounded"
        );
    }
}

/// An OpenMP program on 3 threads: per-thread histograms by parda-mpi equal fast's, and so
/// does the merged order (windows of stamps found by the ranks' pre-pass), for 1 to 4 ranks and
/// windows much smaller than a thread's part.
#[test]
fn openmp_trace_per_thread_and_merged() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("omp");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-fopenmp", "-O2", "-DN=40000"],
        &exe,
    );
    let trace = dir.path().join("t.rdtrace");
    let out = run_traced(
        &exe,
        &trace,
        &[("OMP_NUM_THREADS", "3"), ("RDTRACE_CHUNK_EVENTS", "2048")],
    );
    assert!(out.status.success());
    let path = trace.to_str().unwrap();
    let (ok, fast_out, err) = rda_report(&["histogram", path, "--per-thread", "--json"]);
    assert!(ok, "{err}");
    let want: Value = serde_json::from_str(&fast_out).unwrap();
    for np in [2, 3] {
        let o = mpirun(
            np,
            &[
                "histogram",
                path,
                "--per-thread",
                "--json",
                "--engine",
                "parda-mpi",
                "--chunk",
                "5000",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let got: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(got["threads"], want["threads"], "np={np}");
        assert_eq!(got["histogram"], want["histogram"], "np={np}");
        assert_eq!(got["cold"], want["cold"], "np={np}");
    }
    let (ok, fast_out, err) = rda_report(&["histogram", path, "--json"]);
    assert!(ok, "{err}");
    let want: Value = serde_json::from_str(&fast_out).unwrap();
    assert!(want["total"].as_u64() > Some(50_000), "{want}");
    for np in [1, 2, 3, 4] {
        for chunk in ["5000", "400000"] {
            let o = mpirun(
                np,
                &[
                    "histogram",
                    path,
                    "--json",
                    "--engine",
                    "parda-mpi",
                    "--chunk",
                    chunk,
                ],
            );
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let got: Value = serde_json::from_slice(&o.stdout).unwrap();
            for key in ["histogram", "cold", "total", "log2"] {
                assert_eq!(got[key], want[key], "merged, np={np} chunk={chunk}: {key}");
            }
        }
    }
}

/// A missing file on every rank, and a bad line that only one rank's slice holds: every rank
/// stops with status 1, one message names the problem, and nothing hangs (timeout).
#[test]
fn a_failing_rank_stops_every_rank_with_one_message() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nope.bin");
    let o = mpirun(
        3,
        &[
            "histogram",
            missing.to_str().unwrap(),
            "--input-format",
            "parda-binary",
            "--engine",
            "parda-mpi",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_ne!(o.status.code(), Some(0), "{err}");
    assert_eq!(err.matches("rda-report: error:").count(), 1, "{err}");
    assert!(
        err.contains("rank 0: opening") && err.contains("nope.bin"),
        "{err}"
    );

    // 400 good lines, then a bad one at the very end: with 4 ranks and ~40-line chunks it lies
    // in a chunk of a late phase read by a single rank.
    let file = dir.path().join("bad.txt");
    let mut text: String = (0..400).map(|i| format!("{:x}\n", i * 8)).collect();
    text.push_str("not-hex\n");
    std::fs::write(&file, text).unwrap();
    let o = mpirun(
        4,
        &[
            "histogram",
            file.to_str().unwrap(),
            "--input-format",
            "parda-text",
            "--engine",
            "parda-mpi",
            "--chunk",
            "10",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code().map(|c| c != 0), Some(true), "{err}");
    assert_eq!(err.matches("rda-report: error:").count(), 1, "{err}");
    assert!(
        err.contains("\"not-hex\" is not a hexadecimal address"),
        "{err}"
    );
}

/// Rank 0 writes the report itself with `--output` (the other ranks write nothing), byte for
/// byte what `fast` writes but for the engine's name, here at 64-byte lines of a binary input
/// (each rank turns its own words into lines); `--mpi-stats` accounts for every reference once
/// and gives each rank's seconds per step.
#[test]
fn output_file_and_statistics_from_rank_0() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("random.bin");
    let addrs: Vec<u64> = generate(50_000, 3000, 11).iter().map(|b| b * 24).collect();
    write_binary(&file, &addrs);
    let flags = ["--input-format", "parda-binary", "--line", "64", "--json"];
    let fast_out = dir.path().join("fast.json");
    let (ok, _, err) = rda_report(
        &[
            &["histogram", file.to_str().unwrap(), "--output"][..],
            &[fast_out.to_str().unwrap()],
            &flags,
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    let want = std::fs::read_to_string(&fast_out).unwrap();
    for np in [2, 3] {
        let out = dir.path().join(format!("mpi{np}.json"));
        let stats = dir.path().join(format!("stats{np}.json"));
        let o = mpirun(
            np,
            &[
                &[
                    "histogram",
                    file.to_str().unwrap(),
                    "--engine",
                    "parda-mpi",
                    "--chunk",
                    "4000",
                    "--output",
                    out.to_str().unwrap(),
                    "--mpi-stats",
                    stats.to_str().unwrap(),
                ][..],
                &flags,
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(
            o.stdout.is_empty(),
            "np={np}: stdout not empty with --output"
        );
        let got = std::fs::read_to_string(&out).unwrap();
        assert_eq!(
            got.replace("\"parda-mpi\"", "\"fast\""),
            want,
            "np={np}: the report differs from fast's"
        );
        let s: Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let ranks = s["per_rank"].as_array().unwrap();
        assert_eq!(ranks.len(), np);
        let refs: u64 = ranks
            .iter()
            .map(|r| r["references"].as_u64().unwrap())
            .sum();
        assert_eq!(refs, addrs.len() as u64, "np={np}: references counted once");
        for r in ranks {
            let secs = r["seconds"].as_object().unwrap();
            let names: Vec<&str> = secs.keys().map(|k| k.as_str()).collect();
            assert_eq!(names, ["infinities", "own_chunk", "read", "reduce"], "{r}");
            for (k, v) in secs {
                let v = v.as_f64().unwrap();
                assert!((0.0..60.0).contains(&v), "{k} = {v}");
            }
            assert!(secs["own_chunk"].as_f64().unwrap() > 0.0, "{r}");
        }
    }
}

/// A rank reads its chunk one source chunk at a time and its send store is resident only
/// where local infinities were written, so its peak RSS (`--mpi-stats`) does not grow with
/// `--chunk`: 1.6·10^7 references over 4096 blocks at P = 2, one phase of 2^24 references per
/// rank against 2^18 (a rank that held its chunk, or wrote its store in full, would hold
/// 128 MiB more at 2^24).
#[test]
fn rank_memory_does_not_grow_with_the_chunk() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("long.bin");
    {
        use std::io::Write;
        let mut w = std::io::BufWriter::new(std::fs::File::create(&file).unwrap());
        let mut gen = rdengines::workload::Workload::new(4096, 5);
        let mut buf = vec![0u64; 1 << 16];
        for _ in 0..(16_000_000 / buf.len()) {
            gen.fill(&mut buf);
            for b in &buf {
                w.write_all(&b.to_le_bytes()).unwrap();
            }
        }
    }
    let peak = |chunk: &str| -> Vec<u64> {
        let stats = dir.path().join(format!("stats{chunk}.json"));
        let out = dir.path().join(format!("out{chunk}.json"));
        let o = mpirun(
            2,
            &[
                "histogram",
                file.to_str().unwrap(),
                "--input-format",
                "parda-binary",
                "--line",
                "1",
                "--engine",
                "parda-mpi",
                "--chunk",
                chunk,
                "--json",
                "--output",
                out.to_str().unwrap(),
                "--mpi-stats",
                stats.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s: Value = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        s["per_rank"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["peak_rss_bytes"].as_u64().unwrap())
            .collect()
    };
    let small = peak("262144");
    let large = peak("16777216");
    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    for (rank, (s, l)) in small.iter().zip(&large).enumerate() {
        assert!(*s > 0, "rank {rank}: no peak RSS measured");
        assert!(
            *l < *s + (24 << 20),
            "rank {rank}: peak RSS {:.0} MiB at --chunk 2^24 against {:.0} MiB at 2^18",
            mib(*l),
            mib(*s)
        );
    }
    let a = std::fs::read_to_string(dir.path().join("out262144.json")).unwrap();
    let b = std::fs::read_to_string(dir.path().join("out16777216.json")).unwrap();
    assert_eq!(a, b, "the histogram depends on the chunk");
}
