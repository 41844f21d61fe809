//! Derived accesses: not stored, read back after the access before them at their anchor's
//! address plus their offset, and checked in the metadata.

use super::*;

/// One block of five 8-byte loads: 0 and 3 recorded; 1 and 2 derived from 0 (+8, +16), 4 from
/// 3 (-8) (`version::V_DERIVED_ACCESSES`).
fn derived_module() -> ModuleMeta {
    use rdtrace::meta::DerivedAddress;
    use rdtrace::testing::load8;
    let mut m = rdtrace::testing::one_block_module("fields", 5);
    let from = |anchor, offset| Some(DerivedAddress { anchor, offset });
    m.mem_instrs = [None, from(0, 8), from(0, 16), None, from(3, -8)]
        .into_iter()
        .map(|derived| MemInstrMeta {
            derived,
            ..load8(0, None)
        })
        .collect();
    m
}

/// `rounds` executions of the block, each at its own addresses.
fn block_events(rounds: u64) -> Vec<Event> {
    let mut events = Vec::new();
    for r in 0..rounds {
        let (p, q) = (0x1000 + 0x40 * r, 0x9000 - 0x100 * r);
        events.push(Event::Block { bb: 0 });
        for (mi, addr) in [(0, p), (1, p + 8), (2, p + 16), (3, q), (4, q - 8)] {
            events.push(Event::Access { mi, addr, len: 8 });
        }
    }
    events
}

#[test]
fn derived_accesses_are_not_stored_and_read_back_at_their_addresses() {
    let m = derived_module();
    let blob = m.to_blob();
    assert_eq!(
        blob[4..8],
        rdtrace::version::V_DERIVED_ACCESSES.to_le_bytes()
    );
    assert_eq!(ModuleMeta::from_blob(&blob).unwrap(), m);
    let events = block_events(7);
    let dir = tempfile::tempdir().unwrap();
    // Chunks cut anywhere, also between an access and the derived one after it: the writer
    // leaves the derived one out, and the decoder emits it with the chunk of the one before.
    for chunk in [1, 2, 3, 4, 5, events.len()] {
        let path = dir.path().join(format!("derived-{chunk}.rdtrace"));
        let chunks: Vec<Vec<Event>> = events.chunks(chunk).map(|c| c.to_vec()).collect();
        rdtrace::testing::write_trace_chunks(&path, &m, &[(0, chunks)]).unwrap();
        let trace = Trace::open(&path).unwrap();
        assert_eq!(trace.version, rdtrace::version::CURRENT);
        assert_eq!(read_thread(&trace, 0), events, "chunks of {chunk}");
        // Three derived accesses per round were not stored; the reader counts them.
        let stored = events.len() as u64 - 3 * 7;
        assert_eq!(trace.stored_events(), stored, "chunks of {chunk}");
        assert_eq!(trace.total_events(), events.len() as u64);
    }
}

#[test]
fn corrupt_derived_lists_are_refused() {
    use rdtrace::meta::DerivedAddress;
    let cases: [(usize, DerivedAddress, &str); 3] = [
        // An anchor after the access.
        (
            1,
            DerivedAddress {
                anchor: 3,
                offset: 0,
            },
            "not an earlier instruction",
        ),
        // A derived anchor.
        (
            2,
            DerivedAddress {
                anchor: 1,
                offset: 0,
            },
            "derived itself",
        ),
        // Beyond the module.
        (
            4,
            DerivedAddress {
                anchor: 70,
                offset: 0,
            },
            "not an earlier instruction",
        ),
    ];
    for (mi, bad, why) in cases {
        let mut m = derived_module();
        m.mem_instrs[mi].derived = Some(bad);
        let err = ModuleMeta::from_blob(&m.to_blob()).unwrap_err().to_string();
        assert!(
            err.contains(why) && err.contains(&format!("derived access {mi}")),
            "{err}"
        );
    }
    // The first access of a module has no instruction before it.
    let mut m = derived_module();
    m.mem_instrs[0].derived = Some(DerivedAddress {
        anchor: 0,
        offset: 8,
    });
    assert!(ModuleMeta::from_blob(&m.to_blob()).is_err());
}
