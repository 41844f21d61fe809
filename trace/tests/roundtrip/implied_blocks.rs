//! Implied blocks: not stored, read back after their branches, and checked in the metadata.

use super::*;

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
