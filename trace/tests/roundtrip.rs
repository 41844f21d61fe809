//! Round trips through writer, file and reader, and the reader's answers to damaged files.

use proptest::prelude::*;
use rdtrace::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo};
use rdtrace::meta::*;
use rdtrace::writer::TraceWriter;
use rdtrace::{Event, OpenOptions, Trace, TraceError};
use std::path::Path;

/// A module with `n` memory instructions of 8 bytes each in one block.
fn module(name: &str, n: u32) -> ModuleMeta {
    let mut m = rdtrace::testing::one_block_module(name, n);
    m.blocks[0].loc = rdtrace::testing::at(0, 3);
    // Enough branches, regions and worksharing loops for every id `arb_event` makes.
    m.branches = (0..2500)
        .map(|_| BranchMeta {
            block: 0,
            kind: BranchKind::Switch,
            successors: vec![0; 4],
            back_edge_of: vec![None; 4],
            loc: None,
        })
        .collect();
    m.regions = (0..2)
        .map(|_| RegionMeta {
            outlined_function: 0,
            fork_block: 0,
            loc: None,
            shared_args: vec![],
        })
        .collect();
    m.workshares = (0..2)
        .map(|_| WorkshareMeta {
            function: 0,
            block: 0,
            kind: WorkshareKind::Static,
            schedule: None,
            chunk: None,
            loop_id: None,
            loc: None,
        })
        .collect();
    m
}

fn write_trace(path: &Path, threads: &[Vec<Event>], chunk: usize) {
    let f = std::fs::File::create(path).unwrap();
    let mut w = TraceWriter::new(
        f,
        &ProgramInfo {
            program: "t".into(),
            ..Default::default()
        },
    )
    .unwrap();
    w.module(&module("a", 4)).unwrap();
    w.module(&module("b", 4)).unwrap();
    for (t, events) in threads.iter().enumerate() {
        w.thread(&ThreadInfo {
            thread: t as u32,
            os_tid: 100 + t as u64,
            start_time: 0,
        })
        .unwrap();
        for part in events.chunks(chunk.max(1)) {
            w.events(t as u32, part).unwrap();
        }
    }
    w.finish(&ExitInfo {
        reason: ExitReason::Exit,
        end_time: 9,
        events_recorded: vec![],
    })
    .unwrap();
}

fn read_thread(trace: &Trace, t: u32) -> Vec<Event> {
    let mut v = Vec::new();
    trace.visit_thread(t, &mut v).unwrap();
    v
}

fn arb_event() -> impl Strategy<Value = Event> {
    prop_oneof![
        (0u32..2).prop_map(|bb| Event::Block { bb }),
        (
            0u32..8,
            prop_oneof![Just(0x1000u64), 0x1000u64..0x1100, any::<u64>()],
            1u64..100
        )
            .prop_map(|(mi, addr, len)| Event::Access { mi, addr, len }),
        (0u32..5000, 0u32..4).prop_map(|(br, outcome)| Event::Branch { br, outcome }),
        (0u32..3).prop_map(|region| Event::Fork { region }),
        (0u32..3, 0u32..8, 1u32..9).prop_map(|(region, omp_thread, team_size)| {
            Event::RegionEnter {
                region,
                omp_thread: omp_thread % team_size,
                team_size,
            }
        }),
        (
            0u32..4,
            -40i32..40,
            any::<i64>(),
            any::<i64>(),
            -3i64..3,
            -3i64..3,
            0i64..9
        )
            .prop_map(|(ws, schedule, lower, upper, stride, incr, chunk)| {
                Event::WorkshareInit {
                    ws,
                    schedule,
                    lower,
                    upper,
                    stride,
                    incr,
                    chunk,
                }
            }),
        (0u32..4, any::<bool>(), any::<i64>(), any::<i64>()).prop_map(
            |(ws, more, lower, upper)| Event::WorkshareNext {
                ws,
                more,
                lower,
                upper
            }
        ),
        Just(Event::Barrier),
        Just(Event::Gap),
        any::<u64>().prop_map(|time| Event::Stamp { time }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn any_events_round_trip(events in proptest::collection::vec(arb_event(), 0..400), chunk in 1usize..90) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("t.rdtrace");
        write_trace(&p, std::slice::from_ref(&events), chunk);
        let trace = Trace::open(&p).unwrap();
        prop_assert!(trace.warnings().is_empty(), "{:?}", trace.warnings());
        prop_assert_eq!(read_thread(&trace, 0), events);
    }
}

/// A strided sweep: the compact path (predicted runs) must decode to the same addresses.
#[test]
fn strided_accesses_round_trip_compactly() {
    let mut events = Vec::new();
    for i in 0..10_000u64 {
        events.push(Event::Block { bb: 0 });
        for mi in 0..4u32 {
            events.push(Event::Access {
                mi,
                addr: 0x10_0000 + mi as u64 * 0x8000 + 8 * i,
                len: 8,
            });
        }
        events.push(Event::Branch {
            br: 0,
            outcome: (i % 7 == 0) as u32,
        });
    }
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("s.rdtrace");
    let f = std::fs::File::create(&p).unwrap();
    let mut w = TraceWriter::new(f, &ProgramInfo::default()).unwrap();
    w.module(&module("a", 4)).unwrap();
    let mut raw = Vec::new();
    for e in &events {
        match *e {
            // Static-size accesses go through the compact path (TAG_ACCESS), as from the runtime.
            Event::Access { mi, addr, .. } => raw.push(rdtrace::raw::RawEvent::new(
                rdtrace::raw::TAG_ACCESS,
                0,
                mi,
                addr,
            )),
            other => rdtrace::codec::to_raw(&[other], &mut raw),
        }
    }
    w.raw_events(0, &raw).unwrap();
    w.finish(&ExitInfo {
        reason: ExitReason::Exit,
        end_time: 0,
        events_recorded: vec![],
    })
    .unwrap();
    let trace = Trace::open(&p).unwrap();
    assert_eq!(read_thread(&trace, 0), events);
    // 40k accesses in a regular pattern must cost well under a byte each.
    let bytes = std::fs::metadata(&p).unwrap().len();
    assert!(bytes < 40_000 / 4, "trace is {bytes} bytes");
}

#[test]
fn ids_are_rebased_across_modules() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("m.rdtrace");
    write_trace(&p, &[vec![]], 1);
    let trace = Trace::open(&p).unwrap();
    assert_eq!(trace.meta.modules.len(), 2);
    assert_eq!(trace.meta.modules[1].bases[2], 4);
    assert_eq!(trace.meta.mem_instrs.len(), 8);
    assert_eq!(trace.meta.blocks[1].first_mem_instr, 4);
    assert_eq!(trace.meta.blocks[1].function, 1);
    assert_eq!(trace.meta.format_loc(trace.meta.blocks[1].loc), "b.c:3:1");
}

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

/// A loop whose body and exit blocks are implied (`version::V_IMPLIED_BLOCKS`): `entry` (block
/// 0) falls into `body` (1) through an unconditional `br`, which carries the body's record;
/// `body` ends in branch 0, whose outcome 0 loops and outcome 1 leaves to `exit` (2).
fn implied_loop_module() -> ModuleMeta {
    use rdtrace::testing::{block, function, load8};
    let mut m = rdtrace::testing::one_block_module("loop", 3);
    m.functions = vec![function("main", 0, 3)];
    m.blocks = vec![
        BlockMeta {
            successors: vec![1],
            num_mem_instrs: 1,
            ..block(0, "entry")
        },
        BlockMeta {
            successors: vec![1, 2],
            first_mem_instr: 1,
            num_mem_instrs: 1,
            implied: true,
            ..block(0, "body")
        },
        BlockMeta {
            first_mem_instr: 2,
            num_mem_instrs: 1,
            implied: true,
            ..block(0, "exit")
        },
    ];
    m.mem_instrs = (0..3).map(|b| load8(b, None)).collect();
    m.branches = vec![rdtrace::testing::branch(1, vec![1, 2], vec![None, None])];
    m
}

#[test]
fn implied_blocks_are_not_stored_and_read_back_after_their_branches() {
    let m = implied_loop_module();
    // The blob says the new version and lists the implied blocks; a module without any keeps
    // the first version's header.
    let blob = m.to_blob();
    assert_eq!(blob[4..8], rdtrace::version::V_IMPLIED_BLOCKS.to_le_bytes());
    assert_eq!(ModuleMeta::from_blob(&blob).unwrap(), m);
    let plain = rdtrace::testing::one_block_module("plain", 1);
    assert_eq!(
        plain.to_blob()[4..8],
        rdtrace::version::META_BLOB.to_le_bytes()
    );

    let mut events = vec![
        Event::Block { bb: 0 },
        Event::Access {
            mi: 0,
            addr: 0x100,
            len: 8,
        },
        // The edge record of `entry`'s unconditional `br`: stored.
        Event::Block { bb: 1 },
    ];
    for i in 0..5u64 {
        events.push(Event::Access {
            mi: 1,
            addr: 0x1000 + 8 * i,
            len: 8,
        });
        let outcome = u32::from(i == 4);
        events.push(Event::Branch { br: 0, outcome });
        // Implied: the decoder emits it after the branch.
        events.push(Event::Block { bb: 1 + outcome });
    }
    events.push(Event::Access {
        mi: 2,
        addr: 0x2000,
        len: 8,
    });
    let dir = tempfile::tempdir().unwrap();
    for chunk in [1, 2, 3, events.len()] {
        let path = dir.path().join(format!("implied-{chunk}.rdtrace"));
        let chunks: Vec<Vec<Event>> = events.chunks(chunk).map(|c| c.to_vec()).collect();
        rdtrace::testing::write_trace_chunks(&path, &m, &[(0, chunks)]).unwrap();
        let trace = Trace::open(&path).unwrap();
        assert!(trace.meta.blocks[1].implied && !trace.meta.blocks[0].implied);
        assert_eq!(read_thread(&trace, 0), events, "chunks of {chunk}");
        // Five implied blocks were not stored; the reader counts them as events.
        assert_eq!(
            trace.stored_events(),
            events.len() as u64 - 5,
            "chunks of {chunk}"
        );
        assert_eq!(
            trace.total_events(),
            events.len() as u64,
            "chunks of {chunk}"
        );
    }
}

#[test]
fn corrupt_implied_lists_are_refused() {
    let m = implied_loop_module();
    let mut blob = m.to_blob();
    // The list's last id (2) becomes 9, beyond the module's 3 blocks.
    let last = blob.len() - 1;
    assert_eq!(blob[last], 2);
    blob[last] = 9;
    let err = ModuleMeta::from_blob(&blob).unwrap_err().to_string();
    assert!(err.contains("implied block 9"), "{err}");
    // A function's entry cannot be implied: nothing records an edge into it.
    let mut entry = implied_loop_module();
    entry.blocks[0].implied = true;
    let err = ModuleMeta::from_blob(&entry.to_blob())
        .unwrap_err()
        .to_string();
    assert!(err.contains("entry"), "{err}");
}
