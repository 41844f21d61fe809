//! Issue 10: hostile and damaged traces. Real traces (programs built with `rdcc`) are mutated
//! thousands of ways (bit flips, overwrites, truncations, and mutants whose chunk checksums were
//! recomputed, with the payload mutated before or after decompression, as a crafted or
//! memory-clobbered file would be), and every `rda-report` analysis runs on them as a
//! subprocess under a 1 GiB address-space limit and a 10 s timeout. Exit 0 (read with warnings)
//! and exit 1 (a clear error) are the accepted outcomes; a panic (101), a signal (an abort from
//! a failed allocation included), a usage error (2) or a hang fails the test.

use rdtools_e2e::*;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Address-space limit of every analysis run (`setrlimit(RLIMIT_AS)`).
const MEM_LIMIT: u64 = 1 << 30;
/// Wall-clock limit of every analysis run.
const TIMEOUT: Duration = Duration::from_secs(10);
/// Mutants per seed trace.
const MUTANTS_PER_SEED: usize = 1200;

/// xorshift64*: deterministic mutants, so a failure reproduces.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A chunk of a trace file: header offset, kind, codec, sequence number (events chunks),
/// stored payload range.
#[derive(Clone, Copy, Debug)]
struct Chunk {
    offset: usize,
    kind: u8,
    codec: u8,
    seq: u32,
    payload: (usize, usize),
}

fn chunks(bytes: &[u8]) -> Vec<Chunk> {
    let mut out = Vec::new();
    let mut at = 16;
    while at + 32 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
        if at + 32 + len > bytes.len() {
            break;
        }
        out.push(Chunk {
            offset: at,
            kind: bytes[at + 4],
            codec: bytes[at + 5],
            seq: u32::from_le_bytes(bytes[at + 12..at + 16].try_into().unwrap()),
            payload: (at + 32, at + 32 + len),
        });
        at += 32 + len;
    }
    out
}

/// Recomputes the CRC of the chunk whose header is at `at`.
fn fix_crc(bytes: &mut [u8], at: usize) {
    let len = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
    let end = (at + 32 + len).min(bytes.len());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[at..at + 28]);
    crc.update(&bytes[at + 32..end]);
    bytes[at + 28..at + 32].copy_from_slice(&crc.finalize().to_le_bytes());
}

/// Replaces chunk `c`'s payload with `raw` stored uncompressed, with a consistent header
/// (lengths, codec, checksum): what a writer with a clobbered buffer would produce.
fn reframe(bytes: &[u8], c: Chunk, raw: &[u8], events_delta: i64) -> Vec<u8> {
    let mut h: [u8; 32] = bytes[c.offset..c.offset + 32].try_into().unwrap();
    h[5] = 0;
    h[16..20].copy_from_slice(&(raw.len() as u32).to_le_bytes());
    h[20..24].copy_from_slice(&(raw.len() as u32).to_le_bytes());
    let events = u32::from_le_bytes(h[24..28].try_into().unwrap()) as i64 + events_delta;
    h[24..28].copy_from_slice(&(events.clamp(0, u32::MAX as i64) as u32).to_le_bytes());
    let mut out = bytes[..c.offset].to_vec();
    out.extend_from_slice(&h);
    out.extend_from_slice(raw);
    out.extend_from_slice(&bytes[c.payload.1..]);
    fix_crc(&mut out, c.offset);
    out
}

fn payload_of(bytes: &[u8], c: Chunk) -> Vec<u8> {
    let stored = &bytes[c.payload.0..c.payload.1];
    if c.codec == 1 {
        zstd::bulk::decompress(stored, 64 << 20).unwrap()
    } else {
        stored.to_vec()
    }
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Bytes that decode to something hostile: a huge range, a huge block, branch or region id, a
/// long run of predicted accesses, an overlong varint.
fn hostile_event(rng: &mut Rng) -> Vec<u8> {
    let mut e = Vec::new();
    let big = [
        1u64 << 31,
        1 << 40,
        u32::MAX as u64,
        u64::MAX >> 1,
        0x0fff_ffff_ffff,
    ][rng.below(5)];
    match rng.below(7) {
        0 => {
            e.extend_from_slice(&[0x41, 0x00, 0x00]);
            put_varint(&mut e, big);
        }
        1 => {
            e.push(0x42);
            put_varint(&mut e, big);
        }
        2 => {
            e.push(0x43);
            put_varint(&mut e, big);
            put_varint(&mut e, rng.next() % 8);
        }
        3 => {
            e.push(0x44 + rng.below(4) as u8);
            put_varint(&mut e, big);
        }
        4 => e.extend(std::iter::repeat_n(0x3f, 1 + rng.below(64))),
        5 => {
            e.push(0x46);
            put_varint(&mut e, 0);
            put_varint(&mut e, big);
            put_varint(&mut e, big);
        }
        _ => e.extend_from_slice(&[
            0x40, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
        ]),
    }
    e
}

/// One mutant of `seed` and what was done to it.
fn mutant(seed: &[u8], rng: &mut Rng, i: usize) -> (String, Vec<u8>) {
    let cs = chunks(seed);
    let mut b = seed.to_vec();
    match i % 8 {
        0 => {
            let at = rng.below(b.len());
            let bit = rng.below(8);
            b[at] ^= 1 << bit;
            (format!("flip bit {bit} at {at}"), b)
        }
        1 => {
            let at = rng.below(b.len());
            let n = 1 + rng.below(8);
            let v = [0x00, 0xff, rng.next() as u8][rng.below(3)];
            for x in b.iter_mut().skip(at).take(n) {
                *x = v;
            }
            (format!("overwrite {n} bytes at {at} with {v:#x}"), b)
        }
        2 => {
            let at = rng.below(b.len());
            b.truncate(at);
            (format!("truncate at {at}"), b)
        }
        3 => {
            // A header field changed, checksum recomputed (thread, seq, lengths, count).
            let c = cs[rng.below(cs.len())];
            let at = c.offset + 4 + rng.below(24);
            let v = [0x00, 0xff, 0x7f, rng.next() as u8][rng.below(4)];
            b[at] = v;
            fix_crc(&mut b, c.offset);
            (format!("header byte {at} = {v:#x}, crc fixed"), b)
        }
        4 => {
            // Stored payload bytes changed, checksum recomputed.
            let c = cs[rng.below(cs.len())];
            if c.payload.1 > c.payload.0 {
                let at = c.payload.0 + rng.below(c.payload.1 - c.payload.0);
                b[at] ^= 1 << rng.below(8);
                fix_crc(&mut b, c.offset);
            }
            (
                format!("stored payload of chunk at {}, crc fixed", c.offset),
                b,
            )
        }
        5 | 6 => {
            // Decompressed events payload mutated (bytes or a hostile event spliced in),
            // re-framed with a valid checksum: a clobbered buffer encoded faithfully.
            let evs: Vec<Chunk> = cs.iter().copied().filter(|c| c.kind == 4).collect();
            let c = evs[rng.below(evs.len())];
            let mut raw = payload_of(seed, c);
            let at = rng.below(raw.len() + 1);
            let mut delta = 0;
            if i % 8 == 5 && !raw.is_empty() {
                let at = at.min(raw.len() - 1);
                raw[at] = [0x00, 0xff, 0x41, 0x42, rng.next() as u8][rng.below(5)];
            } else {
                let e = hostile_event(rng);
                raw.splice(at..at, e);
                delta = 1;
            }
            (
                format!("events payload of chunk at {} mutated at {at}", c.offset),
                reframe(seed, c, &raw, delta),
            )
        }
        _ => {
            // Metadata payload (program, module, thread, end) mutated, checksum valid.
            let metas: Vec<Chunk> = cs.iter().copied().filter(|c| c.kind != 4).collect();
            let c = metas[rng.below(metas.len())];
            let mut raw = payload_of(seed, c);
            if !raw.is_empty() {
                let at = rng.below(raw.len());
                raw[at] = [0x00, 0xff, 0x7f, 0x80, rng.next() as u8][rng.below(5)];
            }
            (
                format!("metadata payload of chunk at {} mutated", c.offset),
                reframe(seed, c, &raw, 0),
            )
        }
    }
}

/// The analyses, cycled over the mutants (`predict` models sequential traces; multi-threaded
/// ones get the per-thread histogram in its place).
fn commands(trace: &Path, sequential: bool) -> Vec<Vec<String>> {
    let t = trace.to_str().unwrap().to_string();
    let c = |args: &[&str]| -> Vec<String> {
        let mut v = vec![args[0].to_string(), t.clone()];
        v.extend(args[1..].iter().map(|s| s.to_string()));
        v
    };
    vec![
        c(&["info"]),
        c(&["histogram"]),
        if sequential {
            c(&["predict", "--cores", "1,2"])
        } else {
            c(&["histogram", "--per-thread"])
        },
        c(&["paths"]),
        c(&["measure"]),
        c(&["dump", "--limit", "300"]),
    ]
}

/// Outcome of one run: `Ok(exit code)` for 0/1, `Err(why)` for anything else.
fn run_limited(args: &[String]) -> Result<(i32, String), String> {
    let mut cmd = Command::new(&tools().rda_report);
    cmd.args(args)
        // Few malloc arenas and worker threads: the limit is on address space, not use.
        .env("MALLOC_ARENA_MAX", "2")
        .env("RAYON_NUM_THREADS", "2")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // Safety: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: MEM_LIMIT,
                rlim_max: MEM_LIMIT,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(|e| format!("spawn: {e}"))?;
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            break st;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("still running after {TIMEOUT:?}"));
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let err = reader.join().unwrap();
    let tail: String = err
        .chars()
        .rev()
        .take(600)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    match (status.code(), status.signal()) {
        (Some(0), _) => Ok((0, err)),
        (Some(1), _) if err.contains("rda-report: error:") => Ok((1, err)),
        (Some(c), _) => Err(format!("exit status {c}: {tail}")),
        (None, Some(s)) => Err(format!("killed by signal {s}: {tail}")),
        _ => Err(format!("{status:?}")),
    }
}

/// Traces of real programs: an OpenMP reduction run with one thread (what `predict` models)
/// and with two, with small chunks so that each file has dozens of them.
fn seeds(dir: &Path) -> Vec<PathBuf> {
    let exe = dir.join("omp");
    rdcc(
        &[program("basic/omp_reduction.c")],
        &["-O1", "-g", "-fopenmp", "-DN=3000"],
        &exe,
    );
    let mut out = Vec::new();
    for threads in ["1", "2"] {
        let t = dir.join(format!("seed{threads}.rdtrace"));
        let o = run_traced(
            &exe,
            &t,
            &[
                ("OMP_NUM_THREADS", threads),
                ("RDTRACE_CHUNK_EVENTS", "512"),
                // A chunk holds at least one raw buffer: small buffers, many small chunks.
                ("RDTRACE_BUFFER_EVENTS", "512"),
            ],
        );
        assert!(o.status.success(), "{o:?}");
        out.push(t);
    }
    out
}

/// Thousands of mutants of real traces through every analysis: no panic, signal, hang or
/// over-limit allocation; each mutant also opens and decodes in process without panicking.
#[test]
fn issue10_mutated_traces_never_panic_hang_or_exhaust_memory() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = seeds(dir.path());
    // The pristine seeds: every analysis succeeds without warnings.
    for (k, s) in seeds.iter().enumerate() {
        for args in commands(s, k == 0) {
            let r = run_limited(&args);
            assert!(
                matches!(r, Ok((0, _))),
                "{args:?} on the pristine seed: {r:?}"
            );
        }
    }
    let mut jobs = Vec::new();
    for (k, s) in seeds.iter().enumerate() {
        let bytes = std::fs::read(s).unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ k as u64);
        for i in 0..MUTANTS_PER_SEED {
            let (what, m) = mutant(&bytes, &mut rng, i);
            jobs.push((format!("seed {k} mutant {i}: {what}"), k == 0, m));
        }
    }
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let outcomes = Mutex::new([0usize; 2]);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 8));
    std::thread::scope(|scope| {
        for w in 0..workers {
            let (jobs, next, failures, outcomes) = (&jobs, &next, &failures, &outcomes);
            let dir = dir.path();
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((what, sequential, bytes)) = jobs.get(i) else {
                    break;
                };
                let path = dir.join(format!("mutant{w}.rdtrace"));
                std::fs::write(&path, bytes).unwrap();
                // In process: opening and decoding every thread must not panic.
                if let Ok(trace) = rdtrace::Trace::open(&path) {
                    for t in trace.thread_indices() {
                        let _ = trace.visit_thread(t, &mut Vec::new());
                    }
                    for e in trace.merged().into_iter().flatten() {
                        if e.is_err() {
                            break;
                        }
                    }
                }
                let all = commands(&path, *sequential);
                let args = &all[i % all.len()];
                match run_limited(args) {
                    Ok((code, _)) => outcomes.lock().unwrap()[code as usize] += 1,
                    Err(why) => {
                        let keep =
                            std::env::temp_dir().join(format!("rdtools-issue10-{i}.rdtrace"));
                        let _ = std::fs::write(&keep, bytes);
                        failures.lock().unwrap().push(format!(
                            "{what}: rda-report {} -> {why} (mutant kept at {})",
                            args[0],
                            keep.display()
                        ));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let [ok, err] = outcomes.into_inner().unwrap();
    eprintln!(
        "{} mutants: {ok} read (exit 0), {err} refused (exit 1), {} failed",
        jobs.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The mutants exercise both outcomes.
    assert!(ok > 0 && err > 0, "{ok} read, {err} refused");
}

/// Prepends `event` to the third events chunk of the 1-thread seed, by sequence number (the
/// runtime's two writer workers may write a thread's chunks out of order; the predictor state
/// is empty at the start of a chunk, so the bytes mean exactly what they say).
fn crafted(dir: &Path, event: &[u8]) -> PathBuf {
    let seed = &seeds(dir)[0];
    let bytes = std::fs::read(seed).unwrap();
    let c = chunks(&bytes)
        .into_iter()
        .find(|c| c.kind == 4 && c.seq == 2)
        .unwrap();
    let mut raw = event.to_vec();
    raw.extend(payload_of(&bytes, c));
    let out = dir.join("crafted.rdtrace");
    std::fs::write(&out, reframe(&bytes, c, &raw, 1)).unwrap();
    out
}

/// Issue 10: an access/range event with a huge length made `predict` allocate about 2 GB and
/// abort, and `paths` run for minutes. The reader now refuses the range; every analysis reads
/// the trace with a warning that names the file, the chunk and the thread.
#[test]
fn issue10_huge_range_length_neither_allocates_nor_hangs() {
    let dir = tempfile::tempdir().unwrap();
    // Range by instruction 0 at address 0 of 2^40 bytes.
    let mut e = vec![0x41, 0x00, 0x00];
    put_varint(&mut e, 1 << 40);
    let t = crafted(dir.path(), &e);
    for args in commands(&t, true) {
        let (code, err) = run_limited(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.contains("exceeds the 1073741824 byte limit") && err.contains("thread 0"),
            "{args:?}: {err}"
        );
    }
    // --strict makes the warning an error.
    let (code, err) =
        run_limited(&["info".into(), t.to_str().unwrap().into(), "--strict".into()]).unwrap();
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("strict"), "{err}");
}

/// Issue 10: `predict` panicked at `sasmm/src/profile.rs:121` indexing a per-block table with a
/// block id from the trace (4294963925 of 8624). The reader checks ids against the metadata.
#[test]
fn issue10_block_id_outside_the_metadata_is_not_an_index() {
    let dir = tempfile::tempdir().unwrap();
    // Block with delta 4294963925 from the start (-1 + 1 + d).
    let mut e = vec![0x42];
    put_varint(
        &mut e,
        (4_294_963_925i64 as i32 as i64).unsigned_abs() * 2 - 1,
    );
    let t = crafted(dir.path(), &e);
    for args in commands(&t, true) {
        let (code, err) = run_limited(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            err.contains("block 4294963925 is not in the metadata"),
            "{args:?}: {err}"
        );
    }
}

/// Issue 10: a program that clobbers its own trace buffer and then dies of SIGSEGV leaves a
/// trace that `info` and `histogram` read, with a warning naming the file, the offset and the
/// thread; `--strict` refuses it.
#[test]
fn issue10_scribbling_crashing_program_leaves_a_readable_trace() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("scribble");
    rdcc(&[program("basic/scribble.c")], &["-O1", "-g"], &exe);
    let t = dir.path().join("s.rdtrace");
    let o = run_traced(&exe, &t, &[]);
    assert_eq!(o.status.signal(), Some(11), "{o:?}");
    let trace = rdtrace::Trace::open(&t).unwrap();
    let w = trace.warnings().join("\n");
    assert!(
        w.contains("s.rdtrace")
            && w.contains("thread 0: corrupt chunk at offset")
            && w.contains("is not in the metadata"),
        "{w}"
    );
    // Everything before the clobbered records is there: at least the N = 20000 stores to a[].
    assert!(trace.total_events() > 20_000, "{}", trace.total_events());
    let ts = t.to_str().unwrap();
    for args in [vec!["info", ts], vec!["histogram", ts]] {
        let (ok, out, err) = rda_report(&args);
        assert!(ok, "{args:?}: {err}");
        assert!(!out.is_empty());
        assert!(err.contains("warning") && err.contains("thread 0"), "{err}");
    }
    let (ok, _, err) = rda_report(&["histogram", ts, "--strict"]);
    assert!(!ok && err.contains("corrupt chunk at offset"), "{err}");
}
