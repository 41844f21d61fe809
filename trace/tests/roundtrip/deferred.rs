//! Deferred validation (`OpenOptions::defer_validation`): a clean trace reads as under the
//! validation at open, and whatever that validation would have judged is handed back to it.

use super::*;
use rdtrace::work::TouchLimit;

const DEFER: OpenOptions = OpenOptions {
    strict: false,
    salvage: false,
    max_touched: TouchLimit::Auto,
    defer_validation: true,
};

/// Two threads of accesses (some straddling a line, so they touch more than one) and blocks.
fn two_threads(dir: &Path) -> (std::path::PathBuf, Vec<Vec<Event>>) {
    let p = dir.join("d.rdtrace");
    let thread = |t: u64| -> Vec<Event> {
        (0..2500u64)
            .map(|i| match i % 3 {
                0 => Event::Block { bb: (i % 2) as u32 },
                _ => Event::Access {
                    mi: (i % 4) as u32,
                    addr: 0x10_000 * (t + 1) + i * 60,
                    len: 8,
                },
            })
            .collect()
    };
    let threads = vec![thread(0), thread(1)];
    write_trace(&p, &threads, 700);
    (p, threads)
}

#[test]
fn a_clean_trace_reads_as_under_validation_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let (p, threads) = two_threads(dir.path());
    let eager = Trace::open(&p).unwrap();
    let deferred = Trace::open_with(&p, DEFER).unwrap();
    assert_eq!(deferred.warnings(), eager.warnings());
    assert_eq!(deferred.event_chunks().len(), eager.event_chunks().len());
    // Before any chunk is decoded, the stored counts stand in for the decoded ones.
    assert_eq!(deferred.total_events(), deferred.stored_events());
    assert_eq!(deferred.touched().accesses, 0);
    for (t, events) in threads.iter().enumerate() {
        assert_eq!(&read_thread(&deferred, t as u32), events);
    }
    assert_eq!(deferred.total_events(), eager.total_events());
    assert_eq!(deferred.touched(), eager.touched());
    // A second pass counts nothing twice.
    let merged: Vec<_> = deferred.merged().unwrap().map(|r| r.unwrap()).collect();
    let eager_merged: Vec<_> = eager.merged().unwrap().map(|r| r.unwrap()).collect();
    assert_eq!(merged, eager_merged);
    assert_eq!(deferred.touched(), eager.touched());
    assert_eq!(deferred.total_events(), eager.total_events());
}

#[test]
fn a_damaged_chunk_is_handed_to_validation_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let (p, threads) = two_threads(dir.path());
    let at = Trace::open(&p).unwrap().event_chunks()[3].offset;
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[at as usize + 40] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
    // Validated at open: a warning, and the damaged chunk's thread ends before it.
    let eager = Trace::open(&p).unwrap();
    assert!(eager.warnings().join("\n").contains("checksum mismatch"));
    // Deferred: the open says nothing, the read that meets the chunk says to validate.
    let deferred = Trace::open_with(&p, DEFER).unwrap();
    assert!(deferred.warnings().is_empty(), "{:?}", deferred.warnings());
    let c = deferred.event_chunks()[3];
    let mut events = Vec::new();
    let err = deferred.visit_thread(c.thread, &mut events).unwrap_err();
    assert!(matches!(err, TraceError::Revalidate { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains(&format!("corrupt chunk at offset {at}")) && msg.contains("checksum mismatch"),
        "{msg}"
    );
    // The other thread's chunks are whole.
    let other = 1 - c.thread;
    assert_eq!(read_thread(&deferred, other), threads[other as usize]);
    // Salvage takes no deferral: the damage is judged at open.
    let salvaged = Trace::open_with(
        &p,
        OpenOptions {
            salvage: true,
            ..DEFER
        },
    )
    .unwrap();
    assert!(salvaged.warnings().join("\n").contains("checksum mismatch"));
}

#[test]
fn the_touch_bound_is_handed_to_validation_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = two_threads(dir.path());
    let tight = TouchLimit::Bytes(64);
    let eager = OpenOptions {
        max_touched: tight,
        ..Default::default()
    };
    assert!(matches!(
        Trace::open_with(&p, eager),
        Err(TraceError::TooMuchWork { .. })
    ));
    let deferred = Trace::open_with(
        &p,
        OpenOptions {
            max_touched: tight,
            ..DEFER
        },
    )
    .unwrap();
    let err = deferred.visit_thread(0, &mut Vec::new()).unwrap_err();
    assert!(matches!(err, TraceError::Revalidate { .. }), "{err}");
    assert!(err.to_string().contains("beyond their first line"), "{err}");
}

#[test]
fn finishing_validation_checks_what_no_reader_decoded() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = two_threads(dir.path());
    let eager = Trace::open(&p).unwrap();
    // A clean trace, one thread already read: the rest is checked and counted once.
    let deferred = Trace::open_with(&p, DEFER).unwrap();
    read_thread(&deferred, 0);
    deferred.finish_validation().unwrap();
    assert_eq!(deferred.total_events(), eager.total_events());
    assert_eq!(deferred.touched(), eager.touched());
    // Validated at open: nothing left to check.
    eager.finish_validation().unwrap();
    // A damaged chunk no reader met is handed to the validation at open.
    let at = eager.event_chunks()[5].offset;
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[at as usize + 40] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
    let deferred = Trace::open_with(&p, DEFER).unwrap();
    let err = deferred.finish_validation().unwrap_err();
    assert!(matches!(err, TraceError::Revalidate { .. }), "{err}");
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
}
