//! Cut, repeated, hostile and alien input, read live and from a file.

use super::*;

#[test]
fn a_truncated_stream_keeps_its_whole_chunks() {
    let (stream, file) = simulate(3, 1, 2000);
    let all = live_merged(&stream);
    let cut = &stream[..stream.len() * 2 / 3];
    let mut live = LiveTrace::new(cut, "<test>", None).unwrap();
    let mut n = 0;
    while live.next_merged().unwrap().is_some() {
        n += 1;
    }
    assert!(n > 0 && n < all.len());
    assert!(live.exit.is_none());
    assert!(
        live.warnings().iter().any(|w| w.contains("truncated")),
        "{:?}",
        live.warnings()
    );
    // Not a trace at all: a clear error.
    assert!(LiveTrace::new(&b"hello world, not a trace"[..], "<test>", None).is_err());
    let mut bad = file.clone();
    bad[8] = 99;
    let e = LiveTrace::new(&bad[..], "<test>", None).err().unwrap();
    assert!(e.to_string().contains("version 99"), "{e}");
}

/// `bytes` with a copy of its `k`-th events chunk inserted before chunk `before`.
fn with_repeat(bytes: &[u8], k: usize, before: usize) -> Vec<u8> {
    let spans = chunk_spans(bytes);
    let events: Vec<_> = spans.iter().filter(|s| s.2 == 4).collect();
    let (at, len, _) = *events[k];
    let insert = spans[before].0;
    let mut out = bytes[..insert].to_vec();
    out.extend_from_slice(&bytes[at..at + len]);
    out.extend_from_slice(&bytes[insert..]);
    out
}

/// Issue 27, a loose end: a stream with a repeated sequence number is refused as a file is
/// (its events would count twice), and under salvage the copy is dropped with a warning and
/// the merge is the intact stream's, as the file reader's is the intact file's.
#[test]
fn a_repeated_chunk_is_refused_in_a_stream_as_in_a_file() {
    let (stream, file) = simulate(13, 3, 2000);
    let intact = live_merged(&stream);
    let spans = chunk_spans(&stream);
    let first_events = spans.iter().position(|s| s.2 == 4).unwrap();
    // The copy right after the original (still waiting to be merged), and just before the
    // end chunk (long merged by then).
    for (k, before) in [(0, first_events + 1), (1, spans.len() - 1)] {
        let repeated = with_repeat(&stream, k, before);
        let mut live = LiveTrace::new(&repeated[..], "<test>", None).unwrap();
        let e = loop {
            match live.next_merged() {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the repeat was read past"),
                Err(e) => break e.to_string(),
            }
        };
        assert!(e.contains("repeats") && e.contains("twice"), "{e}");
        let mut live = LiveTrace::new(&repeated[..], "<test>", None).unwrap();
        let mut events = Vec::new();
        let e = loop {
            match live.next_thread_chunk(&mut events) {
                Ok(Some(_)) => {}
                Ok(None) => panic!("the repeat was read past"),
                Err(e) => break e.to_string(),
            }
        };
        assert!(e.contains("repeats"), "{e}");

        let options = rdtrace::OpenOptions {
            salvage: true,
            ..Default::default()
        };
        let mut live = LiveTrace::with_options(&repeated[..], "<test>", None, options).unwrap();
        let mut salvaged = Vec::new();
        while let Some(x) = live.next_merged().unwrap() {
            salvaged.push(x);
        }
        assert_eq!(salvaged, intact);
        assert_eq!(live.warnings().len(), 1, "{:?}", live.warnings());
        assert!(live.warnings()[0].contains("dropped (salvage)"));
    }
    // The same repeat in a file: refused, or dropped under salvage.
    let file_spans = chunk_spans(&file);
    let repeated = with_repeat(
        &file,
        0,
        file_spans.iter().position(|s| s.2 == 4).unwrap() + 1,
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    std::fs::write(&path, &repeated).unwrap();
    let e = Trace::open(&path).unwrap_err().to_string();
    assert!(e.contains("repeats the chunk at offset"), "{e}");
    let options = rdtrace::OpenOptions {
        salvage: true,
        ..Default::default()
    };
    let trace = Trace::open_with(&path, options).unwrap();
    let merged: Vec<_> = trace.merged().unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(merged, offline_merged(&file));
}

/// A stamp of `u64::MAX` (hostile, or a clock gone wrong) is a key like any other: the merge
/// emits it rather than waiting for a smaller one forever, from a file and from a stream
/// (found by the fuzz corpus test).
#[test]
fn a_stamp_at_the_end_of_time_does_not_stall_the_merge() {
    let access = |a: u64| Event::Access {
        mi: 0,
        addr: a * 8,
        len: 8,
    };
    let end = Event::Stamp { time: u64::MAX };
    let threads = vec![
        (1, vec![vec![end, access(1), access(2)]]),
        (
            2,
            vec![vec![Event::Stamp { time: 5 }, access(3), end, access(4)]],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.rdtrace");
    rdtrace::testing::write_trace_chunks(&path, &module(1), &threads).unwrap();
    let merged = offline_merged(&std::fs::read(&path).unwrap());
    let order: Vec<(u32, Event)> = vec![
        (1, Event::Stamp { time: 5 }),
        (1, access(3)),
        (0, end),
        (0, access(1)),
        (0, access(2)),
        (1, end),
        (1, access(4)),
    ];
    assert_eq!(merged, order);
    // Live, the file's bytes end too (a thread unknown when a segment goes cannot hold it
    // back, so only the events are compared, not their order).
    let mut live = live_merged(&std::fs::read(&path).unwrap());
    let mut all = order;
    live.sort_by_key(|x| format!("{x:?}"));
    all.sort_by_key(|x| format!("{x:?}"));
    assert_eq!(live, all);
}

/// Issue 28: one file-header rule for both readers. A header cut after the magic is an empty
/// trace with the same warning; a short or alien start is not a trace; a version the reader
/// does not know is refused naming the newest it reads.
#[test]
fn a_file_and_a_stream_read_the_file_header_by_one_rule() {
    let dir = tempfile::tempdir().unwrap();
    let good = rdtrace::chunk::file_header(rdtrace::version::CURRENT);
    // The magic and two bytes of the version.
    let cut = &good[..10];
    let path = dir.path().join("cut.rdtrace");
    std::fs::write(&path, cut).unwrap();
    let file = Trace::open(&path).unwrap();
    assert_eq!(file.total_events(), 0);
    assert!(file.warnings()[0].ends_with("file ends inside the file header"));
    let mut live = LiveTrace::new(cut, "<test>", None).unwrap();
    assert_eq!(live.next_merged().unwrap(), None);
    assert!(live.warnings()[0].ends_with("file ends inside the file header"));
    for alien in [&good[..7], b"not a trace at all", &[][..]] {
        std::fs::write(&path, alien).unwrap();
        assert!(matches!(
            Trace::open(&path),
            Err(rdtrace::TraceError::NotATrace { .. })
        ));
        assert!(matches!(
            LiveTrace::new(alien, "<test>", None),
            Err(rdtrace::TraceError::NotATrace { .. })
        ));
    }
    let future = rdtrace::chunk::file_header(999);
    std::fs::write(&path, future).unwrap();
    let e = Trace::open(&path).err().unwrap().to_string();
    assert!(
        e.contains("version 999") && e.contains(&format!("..={}", rdtrace::version::CURRENT)),
        "{e}"
    );
    let e = LiveTrace::new(&future[..], "<test>", None)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("version 999") && e.contains(&format!("..={}", rdtrace::version::STREAM)),
        "{e}"
    );
}
