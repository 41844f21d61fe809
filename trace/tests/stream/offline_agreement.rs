//! Simulated runs read live as the offline reader reads their files.

use super::*;

#[test]
fn simulated_runs_merge_exactly_as_the_offline_reader() {
    for seed in 1..=60 {
        let threads = 1 + (seed % 5) as u32;
        let (stream, file) = simulate(seed, threads, 3000);
        let offline = offline_merged(&file);
        let live = live_merged(&stream);
        assert!(!offline.is_empty());
        assert_eq!(live.len(), offline.len(), "seed {seed}");
        assert_eq!(live, offline, "seed {seed}");
    }
}

/// `stream` with each thread's events chunks swapped in pairs, where no floor lies between the
/// two, as the runtime's two writer workers may write a thread's consecutive chunks; and the
/// number of pairs swapped.
fn with_pairs_swapped(stream: &[u8]) -> (Vec<u8>, usize) {
    let spans = chunk_spans(stream);
    let thread_of =
        |k: usize| u32::from_le_bytes(stream[spans[k].0 + 8..][..4].try_into().unwrap());
    let mut order: Vec<usize> = (0..spans.len()).collect();
    let mut moved = vec![false; spans.len()];
    let mut swaps = 0;
    for i in 0..spans.len() {
        if moved[i] || spans[i].2 != 4 {
            continue;
        }
        // The thread's next chunk, unless a floor comes first.
        let next = (i + 1..spans.len())
            .find(|&j| spans[j].2 == 6 || (spans[j].2 == 4 && thread_of(j) == thread_of(i)));
        if let Some(j) = next.filter(|&j| spans[j].2 == 4) {
            order.swap(i, j);
            moved[i] = true;
            moved[j] = true;
            swaps += 1;
        }
    }
    let mut out = stream[..FILE_HEADER_LEN].to_vec();
    for k in order {
        let (at, len, _) = spans[k];
        out.extend_from_slice(&stream[at..at + len]);
    }
    (out, swaps)
}

/// A thread's chunks may reach the stream out of sequence order (the runtime's writer encodes a
/// thread's consecutive chunks on two workers): the live merge waits for the missing one and
/// merges exactly as the offline reader does, with no warning.
#[test]
fn chunks_written_out_of_sequence_order_merge_as_in_order() {
    let mut swapped_in_all = 0;
    for seed in 1..=30 {
        let threads = 1 + (seed % 4) as u32;
        let (stream, file) = simulate(seed, threads, 3000);
        let (swapped, swaps) = with_pairs_swapped(&stream);
        swapped_in_all += swaps;
        assert_eq!(swapped.len(), stream.len());
        assert_eq!(live_merged(&swapped), offline_merged(&file), "seed {seed}");
    }
    assert!(swapped_in_all > 100, "{swapped_in_all} pairs swapped");
}

#[test]
fn per_thread_chunks_come_in_sequence_order() {
    let (stream, file) = simulate(7, 4, 3000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    std::fs::write(&path, &file).unwrap();
    let trace = Trace::open(&path).unwrap();
    let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
    let mut per_thread: std::collections::BTreeMap<u32, Vec<Event>> = Default::default();
    let mut events = Vec::new();
    while let Some(t) = live.next_thread_chunk(&mut events).unwrap() {
        per_thread.entry(t).or_default().extend_from_slice(&events);
    }
    assert_eq!(live.thread_indices(), trace.thread_indices());
    for t in trace.thread_indices() {
        let mut expected = Vec::new();
        trace.visit_thread(t, &mut expected).unwrap();
        assert_eq!(
            per_thread.remove(&t).unwrap_or_default(),
            expected,
            "thread {t}"
        );
    }
}

/// Issue 28: one per-thread reading over any chunk source. A stream (as it arrives) and its
/// file (thread after thread) give each thread's events in order, equal to `visit_thread`.
#[test]
fn per_thread_reading_is_one_function_over_a_file_or_a_stream() {
    use rdtrace::source::for_each_thread_chunk;
    type PerThread = std::collections::BTreeMap<u32, Vec<Event>>;
    for seed in [3, 7, 11] {
        let (stream, file) = simulate(seed, 1 + (seed % 4) as u32, 3000);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.rdtrace");
        std::fs::write(&path, &file).unwrap();
        let trace = Trace::open(&path).unwrap();
        let collect = |source: &mut dyn FnMut(&mut PerThread) -> rdtrace::Result<()>| {
            let mut out = PerThread::new();
            source(&mut out).unwrap();
            out
        };
        let from_file = collect(&mut |out| {
            for_each_thread_chunk(&mut trace.source()?, |t, evs| {
                out.entry(t).or_default().extend_from_slice(evs);
                Ok::<(), rdtrace::TraceError>(())
            })
        });
        let mut live = LiveTrace::new(&stream[..], "<test>", None).unwrap();
        let from_stream = collect(&mut |out| {
            for_each_thread_chunk(&mut live, |t, evs| {
                out.entry(t).or_default().extend_from_slice(evs);
                Ok::<(), rdtrace::TraceError>(())
            })
        });
        assert!(live.warnings().is_empty(), "{:?}", live.warnings());
        let mut expected = PerThread::new();
        for t in trace.thread_indices() {
            let mut evs = Vec::new();
            trace.visit_thread(t, &mut evs).unwrap();
            if !evs.is_empty() {
                expected.insert(t, evs);
            }
        }
        assert_eq!(from_file, expected, "seed {seed}: file");
        assert_eq!(from_stream, expected, "seed {seed}: stream");
    }
}

#[test]
fn the_tee_copy_is_a_plain_file_of_the_current_version() {
    let (stream, file) = simulate(11, 3, 2000);
    let dir = tempfile::tempdir().unwrap();
    let tee_path = dir.path().join("tee.rdtrace");
    let tee = std::fs::File::create(&tee_path).unwrap();
    let mut live = LiveTrace::new(&stream[..], "<test>", Some(Box::new(tee))).unwrap();
    while live.next_merged().unwrap().is_some() {}
    drop(live);
    // Floors dropped and the header says the current file version: byte for byte the file the
    // run would have written.
    assert_eq!(std::fs::read(&tee_path).unwrap(), file);
    let t = Trace::open(&tee_path).unwrap();
    assert_eq!(t.version, rdtrace::version::CURRENT);
}

#[test]
fn a_version_1_file_piped_in_merges_at_the_end() {
    // No floors and no first-stamp promise: the live merge waits for the end, and is exact.
    let (_, file) = simulate(5, 4, 2000);
    assert_eq!(live_merged(&file), offline_merged(&file));
}
