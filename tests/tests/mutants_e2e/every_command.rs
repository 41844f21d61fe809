//! Every command on the chosen mutants, within the time and memory limits.

use super::damage::{mutants, Mutant};
use super::*;

/// Mutants a plain `cargo test` runs: about this many of the 251 (rounded up per class), each
/// through every command.
const SAMPLE: usize = 72;

/// Which of `all` (seed, threads, mutant) to run. `RDTOOLS_MUTANTS=all`: every one (about 6000
/// runs, 5 minutes on two cores); `RDTOOLS_MUTANTS=TEXT`: those whose description contains
/// TEXT (to reproduce one); unset: the sequential seed's decompression bombs, and of each
/// other class of each seed evenly spaced ones in proportion to the class's size, at least one (the same ones
/// every run).
fn chosen(all: &[(usize, u32, Mutant)], filter: Option<&str>) -> Vec<bool> {
    match filter {
        Some("all") => return vec![true; all.len()],
        Some(text) => return all.iter().map(|(_, _, m)| m.what.contains(text)).collect(),
        None => {}
    }
    let mut out = vec![false; all.len()];
    let mut groups: std::collections::BTreeMap<(usize, &str), Vec<usize>> = Default::default();
    for (i, (k, _, m)) in all.iter().enumerate() {
        groups.entry((*k, m.class)).or_default().push(i);
    }
    for ((seed, class), members) in groups {
        // Each bomb run decompresses 256 MiB, one to five seconds: the sequential seed's only.
        if class == "bomb" && seed > 0 {
            continue;
        }
        let n = members.len();
        let take = if class == "bomb" {
            n
        } else {
            (n * SAMPLE).div_ceil(all.len()).clamp(1, n)
        };
        for j in 0..take {
            out[members[j * n / take]] = true;
        }
    }
    out
}

/// Issue 27 point 8: every command on every structure-aware mutant ends within 20 s and
/// 4 GiB with exit 0 or 1 and a message.
#[test]
fn issue27_structure_aware_mutants_pass_every_command_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    // Sequential (what predict and validate model) and two threads; 4096 elements, chunks of
    // 4096 and 2048 events: 17 and 30 chunks.
    let seeds = [
        (vecadd_trace(dir.path(), "seq.rdtrace", 1, 4096, 4096), 1),
        (vecadd_trace(dir.path(), "two.rdtrace", 2, 2048, 4096), 2),
    ];
    let seq = seeds[0].0.clone();
    // The pristine seeds: every command succeeds (predict refuses the threaded run).
    for (path, threads) in &seeds {
        for args in commands(path, *threads, &seq, &dir.path().join("pristine.html")) {
            let run = rda_report_bounded(&args)
                .unwrap_or_else(|why| panic!("rda-report {args:?} on a pristine seed: {why}"));
            let want = if args[0] == "predict" && *threads > 1 {
                1
            } else {
                0
            };
            assert_eq!(run.code, want, "{args:?}: {}", run.stderr);
        }
    }
    // The chosen mutants on disk, then (mutant, command) jobs over a few workers.
    let mut all = Vec::new();
    for (k, (path, threads)) in seeds.iter().enumerate() {
        let bytes = std::fs::read(path).unwrap();
        all.extend(mutants(path, &bytes).into_iter().map(|m| (k, *threads, m)));
    }
    let total = all.len();
    let chosen = chosen(&all, std::env::var("RDTOOLS_MUTANTS").ok().as_deref());
    let mut files: Vec<(PathBuf, u32, String)> = Vec::new();
    for (i, (k, threads, m)) in all.into_iter().enumerate() {
        if chosen[i] {
            let p = dir.path().join(format!("m{k}-{i}.rdtrace"));
            std::fs::write(&p, &m.bytes).unwrap();
            files.push((p, threads, format!("seed {k} mutant {i}: {}", m.what)));
        }
    }
    assert!(!files.is_empty(), "RDTOOLS_MUTANTS selects no mutant");
    let per_mutant = commands(&seq, 1, &seq, &seq).len();
    let jobs: Vec<(usize, usize)> = (0..files.len())
        .flat_map(|f| (0..per_mutant).map(move |c| (f, c)))
        .collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    // Runs over a quarter of the time limit, listed in the summary.
    let slow = Mutex::new(Vec::new());
    // Exit 0 and 1 counts, and the slowest and largest runs.
    let stats = Mutex::new(([0usize; 2], (0.0f64, String::new()), (0u64, String::new())));
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for w in 0..workers {
            let (jobs, files, next, failures, stats, slow, seq) =
                (&jobs, &files, &next, &failures, &stats, &slow, &seq);
            let out = dir.path().join(format!("out{w}.html"));
            scope.spawn(move || {
                while let Some(&(f, c)) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (path, threads, what) = &files[f];
                    let args = commands(path, *threads, seq, &out).swap_remove(c);
                    match rda_report_bounded(&args) {
                        Ok(run) => {
                            let mut s = stats.lock().unwrap();
                            s.0[run.code as usize] += 1;
                            let secs = run.wall.as_secs_f64();
                            if run.wall > HOSTILE_TIME_LIMIT / 4 {
                                slow.lock()
                                    .unwrap()
                                    .push(format!("{secs:.1} s: {what}: {}", args.join(" ")));
                            }
                            if secs > s.1 .0 {
                                s.1 = (secs, format!("{what}: {}", args[0]));
                            }
                            if run.peak_rss_kib > s.2 .0 {
                                s.2 = (run.peak_rss_kib, format!("{what}: {}", args[0]));
                            }
                        }
                        Err(why) => {
                            let keep = std::env::temp_dir().join(format!(
                                "rdtools-mutant-{}",
                                path.file_name().unwrap().to_string_lossy()
                            ));
                            let _ = std::fs::copy(path, &keep);
                            failures.lock().unwrap().push(format!(
                                "{what}: rda-report {} -> {why} (mutant kept at {})",
                                args.join(" "),
                                keep.display()
                            ));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let ([ok, refused], slowest, largest) = stats.into_inner().unwrap();
    eprintln!(
        "{} of {total} mutants x {per_mutant} commands = {} runs in {:.1} s on {workers} workers: {ok} exit 0, \
         {refused} exit 1, {} failed; slowest {:.2} s ({}), largest {} MiB ({})",
        files.len(),
        jobs.len(),
        start.elapsed().as_secs_f64(),
        failures.len(),
        slowest.0,
        slowest.1,
        largest.0 >> 10,
        largest.1
    );
    for s in slow.into_inner().unwrap() {
        eprintln!("slow: {s}");
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(ok > 0 && refused > 0, "{ok} read, {refused} refused");
}
