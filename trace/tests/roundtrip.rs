//! Round trips through writer, file and reader, and the reader's answers to damaged files.

use proptest::prelude::*;
use rdtrace::chunk::{ExitInfo, ExitReason, ProgramInfo, ThreadInfo};
use rdtrace::meta::*;
use rdtrace::writer::TraceWriter;
use rdtrace::{Event, Trace, TraceError};
use std::path::Path;

/// A module with `n` memory instructions of 8 bytes each in one block.
fn module(name: &str, n: u32) -> ModuleMeta {
    ModuleMeta {
        name: name.into(),
        content_hash: 7,
        files: vec![format!("{name}.c")],
        functions: vec![FunctionMeta {
            name: "main".into(),
            loc: None,
            outlined: false,
            parallel: false,
            first_block: 0,
            num_blocks: 1,
        }],
        blocks: vec![BlockMeta {
            function: 0,
            name: "entry".into(),
            loc: Some(SourceLoc {
                file: 0,
                line: 3,
                col: 1,
            }),
            parallel: false,
            successors: vec![],
            loop_id: None,
            first_mem_instr: 0,
            num_mem_instrs: n,
        }],
        mem_instrs: (0..n)
            .map(|_| MemInstrMeta {
                block: 0,
                kind: AccessKind::Load,
                size: 8,
                vector: false,
                loc: None,
                class: VarClass::Shared,
                derivation: "global @A".into(),
            })
            .collect(),
        ..Default::default()
    }
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
                omp_thread,
                team_size,
            }
        }),
        (
            any::<u32>(),
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

#[test]
fn flipped_payload_bit_is_a_corrupt_chunk_error_naming_the_offset() {
    let dir = tempfile::tempdir().unwrap();
    let (p, _) = sample(dir.path());
    let trace = Trace::open(&p).unwrap();
    let at = trace.event_chunks()[1].offset;
    let mut bytes = std::fs::read(&p).unwrap();
    bytes[at as usize + 40] ^= 0x10;
    std::fs::write(&p, &bytes).unwrap();
    let trace = Trace::open(&p).unwrap();
    let err = trace.visit_thread(0, &mut Vec::new()).unwrap_err();
    let msg = err.to_string();
    assert!(
        matches!(err, TraceError::CorruptChunk { offset, .. } if offset == at),
        "{msg}"
    );
    assert!(
        msg.contains("checksum mismatch") && msg.contains("x.rdtrace"),
        "{msg}"
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
        Event::Block { bb: 2 },
        Event::Stamp { time: 40 },
        Event::Block { bb: 3 },
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
    assert_eq!(blocks, vec![(0, 0), (1, 2), (0, 1), (1, 3)]);
}
