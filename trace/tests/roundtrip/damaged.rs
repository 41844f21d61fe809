//! The reader's answers to damaged files: cut, flipped, contradicting, alien or newer.

use super::*;

fn sample(dir: &Path) -> (std::path::PathBuf, Vec<Event>) {
    let p = dir.join("x.rdtrace");
    let events: Vec<Event> = (0..3000u64)
        .map(|i| Event::Access {
            mi: (i % 8) as u32,
            addr: i * 64,
            len: 8,
        })
        .collect();
    write_trace(&p, std::slice::from_ref(&events), 1000);
    (p, events)
}

#[test]
fn truncated_file_reads_whole_chunks_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (p, events) = sample(dir.path());
    let bytes = std::fs::read(&p).unwrap();
    let trace = Trace::open(&p).unwrap();
    let last = trace.event_chunks()[2].offset as usize;
    // Cut inside the third events chunk.
    std::fs::write(&p, &bytes[..last + 40]).unwrap();
    let trace = Trace::open(&p).unwrap();
    assert_eq!(trace.event_chunks().len(), 2);
    assert!(
        trace.warnings()[0].contains("truncated at offset"),
        "{:?}",
        trace.warnings()
    );
    assert!(trace.exit.is_none());
    assert_eq!(read_thread(&trace, 0), events[..2000].to_vec());
}

/// Issue 10: a damaged events chunk ends its thread at the last good event, with a warning
/// naming the file, the offset and the thread; `strict` makes the same warning an error.
#[test]
fn issue10_flipped_payload_bit_ends_the_thread_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let (p, events) = sample(dir.path());
    let trace = Trace::open(&p).unwrap();
    let at = trace.event_chunks()[1].offset;
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[at as usize + 40] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
    let trace = Trace::open(&p).unwrap();
    // Chunk 0 (1000 events) is whole; chunk 1 fails its checksum, so nothing of it is kept
    // and chunk 2, although intact, comes after the damage in the same thread.
    assert_eq!(read_thread(&trace, 0), events[..1000].to_vec());
    assert_eq!(trace.total_events(), 1000);
    let w = trace.warnings().join("\n");
    assert!(
        w.contains("x.rdtrace")
            && w.contains(&format!("corrupt chunk at offset {at}"))
            && w.contains("thread 0")
            && w.contains("checksum mismatch"),
        "{w}"
    );
    let err = Trace::open_with(
        &p,
        OpenOptions {
            strict: true,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(matches!(err, TraceError::Strict(_)), "{err}");
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
}

/// Issue 10: events that contradict the metadata (a block id past the table, as a program
/// that scribbled over its trace buffer leaves) end only that thread's stream, after the good
/// events of the same chunk; other threads read in full.
#[test]
fn issue10_events_contradicting_metadata_end_only_their_thread() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("s.rdtrace");
    let good: Vec<Event> = (0..25).map(|i| Event::Block { bb: i % 2 }).collect();
    let mut bad = good.clone();
    bad[13] = Event::Block { bb: 99 }; // the modules have 2 blocks
    write_trace(&p, &[good.clone(), bad], 10);
    let trace = Trace::open(&p).unwrap();
    assert_eq!(read_thread(&trace, 0), good);
    // Chunk 0 (events 0..10) whole, chunk 1 cut before event 13, chunk 2 skipped.
    assert_eq!(read_thread(&trace, 1), good[..13].to_vec());
    let chunk = trace
        .event_chunks()
        .iter()
        .find(|c| c.thread == 1 && c.seq == 1)
        .unwrap();
    assert_eq!(chunk.events, 3);
    let w = trace.warnings().join("\n");
    assert!(
        w.contains("thread 1")
            && w.contains(&format!("offset {}", chunk.offset))
            && w.contains("block 99 is not in the metadata"),
        "{w}"
    );
    // The merged stream and the per-chunk reader agree on where thread 1 ends.
    let merged = trace
        .merged()
        .unwrap()
        .filter(|r| matches!(r, Ok((1, _))))
        .count();
    assert_eq!(merged, 13);
    assert!(Trace::open_with(
        &p,
        OpenOptions {
            strict: true,
            ..Default::default()
        }
    )
    .is_err());
}

/// Issue 10: a range whose length no program could have touched (2^40 bytes, as a flipped
/// varint makes) is refused by the reader, not handed to analyses that walk every line.
#[test]
fn issue10_huge_range_length_is_refused_by_the_reader() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("r.rdtrace");
    let events = vec![
        Event::Access {
            mi: 0,
            addr: 0x1000,
            len: 8,
        },
        Event::Access {
            mi: 1,
            addr: 0x2000,
            len: 1 << 40,
        },
    ];
    write_trace(&p, std::slice::from_ref(&events), 10);
    let trace = Trace::open(&p).unwrap();
    assert_eq!(read_thread(&trace, 0), events[..1].to_vec());
    let w = trace.warnings().join("\n");
    assert!(
        w.contains("ranged access of 1099511627776 bytes exceeds"),
        "{w}"
    );
}

/// Issue 10: `check_sequences` used to size a vector from an events chunk's thread field
/// before any checksum was checked; a flipped high byte asked for gigabytes. Now the flipped
/// chunk fails its checksum and is dropped with a warning, and a chunk whose thread field was
/// rewritten with a valid checksum is simply another thread.
#[test]
fn issue10_thread_field_is_never_an_allocation_size() {
    let dir = tempfile::tempdir().unwrap();
    let (p, events) = sample(dir.path());
    let trace = Trace::open(&p).unwrap();
    let at = trace.event_chunks()[1].offset as usize;
    let pristine = std::fs::read(&p).unwrap();
    let mut bytes = pristine.clone();
    bytes[at + 11] = 0xff; // thread field, high byte: thread 0xff000000
    std::fs::write(&p, &bytes).unwrap();
    let trace = Trace::open(&p).unwrap();
    assert_eq!(trace.thread_indices(), vec![0]);
    assert_eq!(
        read_thread(&trace, 0),
        [&events[..1000], &events[2000..]].concat()
    );
    let w = trace.warnings().join("\n");
    assert!(
        w.contains("thread 4278190080") && w.contains("checksum mismatch"),
        "{w}"
    );
    assert!(w.contains("sequence number 2 where 1 was expected"), "{w}");
    // The same change with the checksum recomputed: a valid chunk of thread 0xff000000.
    let header: [u8; 32] = bytes[at..at + 32].try_into().unwrap();
    let stored_len = u32::from_le_bytes(header[16..20].try_into().unwrap()) as usize;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&header[..28]);
    crc.update(&bytes[at + 32..at + 32 + stored_len]);
    bytes[at + 28..at + 32].copy_from_slice(&crc.finalize().to_le_bytes());
    std::fs::write(&p, &bytes).unwrap();
    let trace = Trace::open(&p).unwrap();
    assert_eq!(trace.thread_indices(), vec![0, 0xff00_0000]);
    assert_eq!(
        read_thread(&trace, 0xff00_0000),
        events[1000..2000].to_vec()
    );
}

#[test]
fn flipped_header_bit_is_an_error_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = sample(dir.path());
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[16 + 1] ^= 0xff; // chunk magic of the program chunk
    std::fs::write(&p, &bytes).unwrap();
    let err = Trace::open(&p).unwrap_err().to_string();
    assert!(err.contains("corrupt chunk at offset 16"), "{err}");
}

#[test]
fn alien_file_is_not_a_trace() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("alien.bin");
    std::fs::write(&p, b"\x7fELF this is not a trace").unwrap();
    let err = Trace::open(&p).unwrap_err().to_string();
    assert!(err.contains("not an rdtools trace"), "{err}");
    std::fs::write(&p, b"").unwrap();
    assert!(matches!(Trace::open(&p), Err(TraceError::NotATrace { .. })));
}

#[test]
fn newer_version_names_both_versions() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = sample(dir.path());
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[8..12].copy_from_slice(&(rdtrace::version::CURRENT + 1).to_le_bytes());
    std::fs::write(&p, &bytes).unwrap();
    let err = Trace::open(&p).unwrap_err().to_string();
    assert!(
        err.contains(&format!("version {}", rdtrace::version::CURRENT + 1)),
        "{err}"
    );
    assert!(
        err.contains(&format!("..={}", rdtrace::version::CURRENT)),
        "{err}"
    );
}
