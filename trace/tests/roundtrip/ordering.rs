//! Events come back in order: merged by stamps, visited merged, decoded in parallel.

use super::*;

#[test]
fn merged_order_follows_stamps() {
    let a = vec![
        Event::Stamp { time: 10 },
        Event::Block { bb: 0 },
        Event::Stamp { time: 30 },
        Event::Block { bb: 1 },
    ];
    let b = vec![
        Event::Stamp { time: 20 },
        Event::Block { bb: 0 },
        Event::Stamp { time: 40 },
        Event::Block { bb: 1 },
    ];
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.rdtrace");
    write_trace(&p, &[a, b], 1);
    let trace = Trace::open(&p).unwrap();
    let blocks: Vec<(u32, u32)> = trace
        .merged()
        .unwrap()
        .filter_map(|r| match r.unwrap() {
            (t, Event::Block { bb }) => Some((t, bb)),
            _ => None,
        })
        .collect();
    assert_eq!(blocks, vec![(0, 0), (1, 0), (0, 1), (1, 1)]);
}

#[test]
fn visit_merged_gives_the_merged_events_in_order() {
    // One thread (the direct path) and three threads (the merge), several chunks each.
    for threads in [1usize, 3] {
        let streams: Vec<Vec<Event>> = (0..threads)
            .map(|t| {
                (0..5000u64)
                    .map(|i| match i % 7 {
                        0 => Event::Stamp {
                            time: i * 10 + t as u64,
                        },
                        1 | 2 => Event::Block { bb: 0 },
                        _ => Event::Access {
                            mi: 0,
                            addr: 0x1000 + 8 * i,
                            len: 8,
                        },
                    })
                    .collect()
            })
            .collect();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("v.rdtrace");
        write_trace(&p, &streams, 1000);
        let trace = Trace::open(&p).unwrap();
        let expect: Vec<Event> = trace.merged().unwrap().map(|r| r.unwrap().1).collect();
        let mut got: Vec<Event> = Vec::new();
        let mut reported = 0u64;
        trace.visit_merged(&mut got, |n| reported += n).unwrap();
        assert_eq!(got, expect, "{threads} threads");
        assert_eq!(reported, expect.len() as u64);
    }
}

#[test]
fn chunks_decoded_in_parallel_come_back_in_order() {
    // Forty chunks of one thread, decoded by 1-4 workers with windows of 1-3 chunks: every
    // chunk's events, in file order, as one sequential reading gives them.
    let events: Vec<Event> = (0..8000u64)
        .map(|i| match i % 5 {
            0 => Event::Block { bb: 1 },
            _ => Event::Access {
                mi: 0,
                addr: 0x2000 + 24 * i,
                len: 8,
            },
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("par.rdtrace");
    write_trace(&p, std::slice::from_ref(&events), 200);
    let trace = Trace::open(&p).unwrap();
    let chunks = trace.event_chunks();
    assert_eq!(chunks.len(), 40);
    for workers in 1..=4 {
        for window in 1..=3 {
            let mut got: Vec<Event> = Vec::new();
            trace
                .decode_chunks_in_order(
                    chunks,
                    workers,
                    window,
                    |r, c| {
                        let mut v = Vec::new();
                        r.visit_chunk(c, &mut v)?;
                        Ok(v)
                    },
                    |v| {
                        got.extend(v);
                        Ok(())
                    },
                )
                .unwrap();
            assert_eq!(got, events, "{workers} workers, window {window}");
        }
    }
    // A consumer's error stops the work and is returned; nothing after it is consumed.
    let mut taken = 0;
    let err = trace
        .decode_chunks_in_order(
            chunks,
            3,
            2,
            |_, c| Ok(c.offset),
            |_| {
                taken += 1;
                if taken == 7 {
                    Err(rdtrace::TraceError::NotATrace {
                        path: "stop".into(),
                    })
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("stop"), "{err}");
    assert_eq!(taken, 7);
}
