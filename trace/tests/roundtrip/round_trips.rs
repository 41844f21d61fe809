//! Events and module ids written and read back unchanged.

use super::*;

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
