//! Issue 27 point 8: the fuzz targets in every `cargo test`. Every seed of `fuzz/corpus/`
//! goes through its target ([`rdtrace::fuzzing`], the bodies the cargo-fuzz targets call),
//! and a proptest per target feeds it random mutations of its seeds: bit flips, byte
//! overwrites, inserts and deletes, truncation, and splices of two seeds (trace files are
//! also spliced with the other targets' seeds, a metadata blob or an events payload in the
//! middle of a file). The trace target recomputes every chunk's CRC itself, so the mutants
//! reach the decoders. `PROPTEST_CASES=N` runs more cases (a longer fuzzing session); a
//! failure is shrunk and kept in `proptest-regressions/` beside this file.

use proptest::prelude::*;
use proptest::sample::Index;
use std::path::PathBuf;
use std::sync::OnceLock;

/// A fuzz target's body.
type Target = fn(&[u8]);

/// A seed: its file name and bytes.
type Seed = (String, Vec<u8>);

/// The targets, by the name of their corpus folder.
const TARGETS: [(&str, Target); 3] = [
    ("chunk_scanner", rdtrace::fuzzing::chunk_scanner),
    ("codec", rdtrace::fuzzing::codec),
    ("meta", rdtrace::fuzzing::meta),
];

/// The seeds of `target`'s corpus: the files git keeps, `seed-*` (real inputs) and
/// `regress-*` (inputs the fuzzers found a bug with); a local fuzzing session leaves thousands
/// of others there, which `.gitignore` ignores and this test skips.
fn seeds(target: &str, prefix: &str) -> Vec<Seed> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/corpus")
        .join(target);
    let mut out: Vec<Seed> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with(prefix))
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// Every target's `seed-*` files, read once per test process: what the mutations start from.
fn corpus() -> &'static [Vec<Seed>; 3] {
    static CORPUS: OnceLock<[Vec<Seed>; 3]> = OnceLock::new();
    CORPUS.get_or_init(|| {
        TARGETS.map(|(name, _)| {
            let s = seeds(name, "seed-");
            assert!(!s.is_empty(), "no seeds for {name}");
            s
        })
    })
}

/// Every target's `regress-*` files: inputs a fuzzer found a bug with (not mutated further).
fn regressions() -> [Vec<Seed>; 3] {
    TARGETS.map(|(name, _)| seeds(name, "regress-"))
}

/// Runs `target` on `bytes` in a thread of its own; panics when it panics or runs past 20 s,
/// the bound every command has on a hostile trace (a hung target is left spinning until the
/// test process ends, so that the failure is reported instead of hanging the run).
fn run_bounded(what: &str, target: Target, bytes: Vec<u8>) {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| target(&bytes)));
        let _ = tx.send(r.is_ok());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(true) => {}
        Ok(false) => panic!("{what}: the target panicked (message above)"),
        Err(_) => panic!("{what}: still running after 20 s"),
    }
}

/// Every seed and regression input through its target, unchanged.
#[test]
fn issue27_every_corpus_seed_passes_its_target() {
    let regressions = regressions();
    for ((target, run), (seeds, regress)) in TARGETS.iter().zip(corpus().iter().zip(&regressions)) {
        for (name, bytes) in seeds.iter().chain(regress) {
            eprintln!("{target}/{name}: {} bytes", bytes.len());
            run_bounded(&format!("{target}/{name}"), *run, bytes.clone());
        }
    }
}

/// Found by `cargo fuzz run chunk_scanner` (2026-11-26): a one-thread trace whose only events
/// chunk fails validation after its first event (checksums recomputed) sent
/// `Trace::merged()` into an endless loop in `rdtrace::merge::Merge::next_slow` (the source
/// finished, a thread neither ready nor exhausted, `read_more` doing nothing), so
/// `rda-report dump` and `annotate` hung on the file.
#[test]
fn issue27_fuzz_found_merge_of_a_cut_short_thread_ends() {
    let [scanner, _, _] = regressions();
    let (_, bytes) = scanner
        .into_iter()
        .find(|(n, _)| n == "regress-merge-hang.rdtrace")
        .expect("the regression seed");
    run_bounded(
        "chunk_scanner/regress-merge-hang.rdtrace",
        rdtrace::fuzzing::chunk_scanner,
        bytes,
    );
}

/// The trace seeds are real traces: they must open cleanly, or the mutants start from
/// something the reader refuses at once and fuzz nothing past the header.
#[test]
fn issue27_trace_seeds_are_readable_traces() {
    for (name, bytes) in &corpus()[0] {
        let path = std::env::temp_dir().join(format!("rdtrace-seed-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let trace = rdtrace::Trace::open_with(
            &path,
            rdtrace::OpenOptions {
                strict: true,
                ..Default::default()
            },
        );
        let _ = std::fs::remove_file(&path);
        let trace = trace.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(trace.total_events() > 0, "{name}");
    }
}

/// One mutation of a byte string; positions are fractions of its length at the time.
#[derive(Clone, Debug)]
enum Mutation {
    FlipBit(Index, u8),
    Overwrite(Index, Vec<u8>),
    Insert(Index, Vec<u8>),
    Delete(Index, usize),
    Truncate(Index),
    /// Replaces the tail from a position with a slice of another seed (of any target when
    /// the flag says so).
    Splice(Index, Index, Index, Index, bool),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let bytes = prop::collection::vec(
        prop_oneof![Just(0u8), Just(0xff), Just(0x7f), Just(0x80), any::<u8>()],
        1..16,
    );
    prop_oneof![
        4 => (any::<Index>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit(at, bit)),
        2 => (any::<Index>(), bytes.clone()).prop_map(|(at, b)| Mutation::Overwrite(at, b)),
        2 => (any::<Index>(), bytes).prop_map(|(at, b)| Mutation::Insert(at, b)),
        2 => (any::<Index>(), 1usize..64).prop_map(|(at, n)| Mutation::Delete(at, n)),
        1 => any::<Index>().prop_map(Mutation::Truncate),
        1 => (any::<Index>(), any::<Index>(), any::<Index>(), any::<Index>(), any::<bool>())
            .prop_map(|(at, seed, from, len, any_target)| {
                Mutation::Splice(at, seed, from, len, any_target)
            }),
    ]
}

/// Applies `m` to `b`; `target` is the index of the seed's target (for splices).
fn apply(b: &mut Vec<u8>, m: &Mutation, target: usize) {
    let pos = |i: &Index, len: usize| if len == 0 { 0 } else { i.index(len + 1) };
    match m {
        Mutation::FlipBit(at, bit) => {
            if !b.is_empty() {
                let at = at.index(b.len());
                b[at] ^= 1 << bit;
            }
        }
        Mutation::Overwrite(at, bytes) => {
            let at = pos(at, b.len());
            for (x, v) in b.iter_mut().skip(at).zip(bytes) {
                *x = *v;
            }
        }
        Mutation::Insert(at, bytes) => {
            let at = pos(at, b.len());
            b.splice(at..at, bytes.iter().copied());
        }
        Mutation::Delete(at, n) => {
            let at = pos(at, b.len());
            let end = (at + n).min(b.len());
            b.drain(at..end);
        }
        Mutation::Truncate(at) => {
            let at = pos(at, b.len());
            b.truncate(at);
        }
        Mutation::Splice(at, seed, from, len, any_target) => {
            let pool: Vec<&Vec<u8>> = if *any_target {
                corpus().iter().flatten().map(|(_, s)| s).collect()
            } else {
                corpus()[target].iter().map(|(_, s)| s).collect()
            };
            let other = pool[seed.index(pool.len())];
            let from = pos(from, other.len());
            let len = pos(len, other.len() - from);
            let at = pos(at, b.len());
            b.truncate(at);
            b.extend_from_slice(&other[from..from + len]);
        }
    }
}

/// A seed of target `target` with one to eight mutations.
fn mutant(target: usize) -> impl Strategy<Value = (usize, Vec<Mutation>)> {
    (
        0..corpus()[target].len(),
        prop::collection::vec(mutation(), 1..8),
    )
}

/// Cases per target in a plain `cargo test`, unless `PROPTEST_CASES` says otherwise: 4000
/// mutated traces (about 2 s in the dev profile; each is read eight ways) and 20000 payloads
/// and blobs (about 0.6 s each).
fn cases(default: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    ProptestConfig {
        // A failing case reruns up to 20 s (a hang) per shrinking step: shrink for a minute.
        max_shrink_time: 60_000,
        ..ProptestConfig::with_cases(cases)
    }
}

fn run_mutant(target: usize, seed: usize, mutations: &[Mutation]) {
    let mut b = corpus()[target][seed].1.clone();
    for m in mutations {
        apply(&mut b, m, target);
    }
    run_bounded(
        &format!("{} on a mutant", TARGETS[target].0),
        TARGETS[target].1,
        b,
    );
}

proptest! {
    #![proptest_config(cases(4000))]

    /// Mutated traces through the whole reader (file, strict, salvage, stream, checker).
    #[test]
    fn issue27_mutated_traces_pass_the_chunk_scanner((seed, ms) in mutant(0)) {
        run_mutant(0, seed, &ms);
    }
}

proptest! {
    #![proptest_config(cases(20000))]

    /// Mutated events payloads (and bounds) through the events decoder.
    #[test]
    fn issue27_mutated_payloads_pass_the_codec((seed, ms) in mutant(1)) {
        run_mutant(1, seed, &ms);
    }

    /// Mutated metadata blobs through the metadata decoder.
    #[test]
    fn issue27_mutated_blobs_pass_the_meta_decoder((seed, ms) in mutant(2)) {
        run_mutant(2, seed, &ms);
    }
}
