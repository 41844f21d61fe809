//! Loop runs through the encoders and the decoder: bytes, round trips and errors.

use super::tests::decode_err;
use super::*;
use crate::event::Event;
use crate::raw::*;

/// A loop recorded in runs (`version::V_LOOP_RUNS`): `entry` (block 0) ends in branch 0,
/// whose outcome 0 enters `loop` (block 1, implied; instructions 0-2 of 8, 4 and 8 bytes,
/// strides 8, -4 (a run-time stride, which each run carries) and 16); `loop` ends in branch 1 (the loop run's: outcome 0 exits to
/// `exit`, block 2, implied, instruction 3; outcome 1 loops); `other` (block 3, recorded,
/// instruction 4) ends in branch 2, outcome 0 looping, 1 to `exit`.
fn loop_run_module() -> crate::meta::ModuleMeta {
    use crate::meta::*;
    // Built here rather than with the shared test fixtures, which write traces through the writer,
    // which encodes through this module.
    let block = |name: &str, successors: Vec<u32>, (first, num): (u32, u32), implied| BlockMeta {
        function: 0,
        name: name.into(),
        loc: None,
        parallel: false,
        successors,
        loop_id: None,
        first_mem_instr: first,
        num_mem_instrs: num,
        implied,
    };
    let load = |block, size| MemInstrMeta {
        block,
        kind: AccessKind::Load,
        size,
        vector: false,
        loc: None,
        class: VarClass::Shared,
        derivation: "global @A".into(),
        derived: None,
    };
    let branch = |block, successors: Vec<u32>, strides: Option<Vec<Option<i64>>>| BranchMeta {
        block,
        kind: BranchKind::Conditional,
        back_edge_of: vec![None; successors.len()],
        successors,
        loc: None,
        loop_run: strides.map(|strides| LoopRun { strides }),
    };
    let tables = MetaTables {
        files: vec!["runs.c".into()],
        functions: vec![FunctionMeta {
            name: "main".into(),
            loc: None,
            outlined: false,
            parallel: false,
            first_block: 0,
            num_blocks: 4,
        }],
        blocks: vec![
            block("entry", vec![1, 2], (0, 0), false),
            block("loop", vec![2, 1], (0, 3), true),
            block("exit", vec![3], (3, 1), true),
            block("other", vec![3, 2], (4, 1), false),
        ],
        mem_instrs: [(1, 8), (1, 4), (1, 8), (2, 8), (3, 8)]
            .into_iter()
            .map(|(b, size)| load(b, size))
            .collect(),
        branches: vec![
            branch(0, vec![1, 2], None),
            branch(1, vec![2, 1], Some(vec![Some(8), None, Some(16)])),
            branch(3, vec![3, 2], None),
        ],
        ..Default::default()
    };
    ModuleMeta {
        name: "runs".into(),
        content_hash: 7,
        tables,
    }
}

/// The program of [`loop_run_module`] alone (its ids are the global ids).
fn loop_run_program() -> crate::meta::ProgramMeta {
    let mut p = crate::meta::ProgramMeta::default();
    p.add_module(loop_run_module(), [0; crate::abi::IdKind::COUNT])
        .expect("a valid module at bases zero");
    p
}

/// The records of a run of `count` iterations of `loop_run_module`'s loop whose last
/// iteration accessed `last`.
fn loop_run(raw: &mut Vec<RawEvent>, count: u64, exit: bool, last: [u64; 3]) {
    raw.push(RawEvent::new(
        TAG_LOOP_RUN,
        3 | 1 << 8,
        1,
        count << 1 | exit as u64,
    ));
    for (k, addr) in last.into_iter().enumerate() {
        raw.push(RawEvent::new(TAG_ACCESS, 0, k as u32, addr));
    }
    raw.push(RawEvent::new(TAG_EXT, 0, 0, -4i64 as u64));
}

/// The events `raw` stands for, expanded by hand from the metadata: each loop run's
/// iterations (accesses a stride apart per iteration before the last, the branch, the
/// implied block its outcome enters), and after every branch the implied block it enters.
fn expand(meta: &crate::meta::ProgramMeta, raw: &[RawEvent]) -> Vec<Event> {
    let mut out = Vec::new();
    let implied_after = |out: &mut Vec<Event>, br: u32, outcome: u32| {
        let s = meta.branches[br as usize].successors[outcome as usize];
        if meta.blocks[s as usize].implied {
            out.push(Event::Block { bb: s });
        }
    };
    let len = |mi: u32| meta.mem_instrs[mi as usize].size as u64;
    let mut i = 0;
    while i < raw.len() {
        let r = raw[i];
        match r.tag() {
            TAG_BLOCK => out.push(Event::Block { bb: r.id() }),
            TAG_ACCESS => out.push(Event::Access {
                mi: r.id(),
                addr: r.value,
                len: len(r.id()),
            }),
            TAG_BRANCH => {
                out.push(Event::Branch {
                    br: r.id(),
                    outcome: r.value as u32,
                });
                implied_after(&mut out, r.id(), r.value as u32);
            }
            TAG_STAMP => out.push(Event::Stamp { time: r.value }),
            TAG_LOOP_RUN => {
                let br = &meta.branches[r.id() as usize];
                let fixed = &br.loop_run.as_ref().unwrap().strides;
                let back = br.successors.iter().position(|&s| s == br.block).unwrap() as u32;
                let (m, r_) = ((r.aux() & 0xff) as usize, (r.aux() >> 8) as usize);
                let mut carried = raw[i + 1 + m..i + 1 + m + r_]
                    .iter()
                    .map(|x| x.value as i64);
                let strides: Vec<i64> = (fixed.iter())
                    .map(|s| s.unwrap_or_else(|| carried.next().unwrap()))
                    .collect();
                let (count, exit) = (r.value >> 1, r.value & 1 == 1);
                for j in 0..count {
                    for k in 0..m {
                        let a = raw[i + 1 + k];
                        let before = (count - 1 - j) as i64 * strides[k];
                        out.push(Event::Access {
                            mi: a.id(),
                            addr: a.value.wrapping_sub(before as u64),
                            len: len(a.id()),
                        });
                    }
                    let outcome = if exit && j == count - 1 {
                        1 - back
                    } else {
                        back
                    };
                    out.push(Event::Branch {
                        br: r.id(),
                        outcome,
                    });
                    implied_after(&mut out, r.id(), outcome);
                }
                i += m + r_;
            }
            other => panic!("no expansion for tag {other}"),
        }
        i += 1;
    }
    out
}

/// Encodes each chunk with the fast and the reference encoder (the same bytes and count:
/// the records less a run's three access records and one stride record), decodes it (exactly the header's
/// count) and returns all events.
fn loop_run_round_trip(chunks: &[&[RawEvent]]) -> Vec<Event> {
    let meta = loop_run_program();
    let bounds = EventBounds::of(&meta);
    assert!(bounds.loop_runs.any());
    let mut events = Vec::new();
    let mut fast = ChunkEncoder::new(5, 64);
    let mut slow = ChunkEncoder::new(5, 64);
    let mut decoder = ChunkDecoder::new(5);
    for chunk in chunks {
        let (bytes, count) = fast.encode(chunk);
        let bytes = bytes.to_vec();
        slow.start_chunk();
        slow.append_reference(chunk);
        let (reference, reference_count) = slow.finish_chunk();
        assert_eq!((&bytes[..], count), (reference, reference_count));
        let runs = chunk.iter().filter(|r| r.tag() == TAG_LOOP_RUN).count();
        assert_eq!(count as usize, chunk.len() - 4 * runs);
        assert!(bytes.len() <= MAX_BYTES_PER_RECORD * chunk.len() + 1);
        let n = decoder
            .decode(&bytes, &bounds, count as u64, &mut events)
            .unwrap();
        assert_eq!(n, count as u64);
    }
    let all: Vec<RawEvent> = chunks.iter().flat_map(|c| c.iter().copied()).collect();
    assert_eq!(events, expand(&meta, &all));
    events
}

/// The bytes of one loop-run event, and the events it decodes to.
#[test]
fn loop_run_bytes() {
    let mut raw = Vec::new();
    loop_run(&mut raw, 2, true, [0x1000, 0x2000, 0x3000]);
    let mut enc = ChunkEncoder::new(5, 64);
    let (bytes, count) = enc.encode(&raw);
    assert_eq!(count, 1);
    #[rustfmt::skip]
    assert_eq!(
        bytes,
        [
            OP_LOOP_RUN, 0x02, 0x05, // branch 0 + 1, count 2 << 1 | exit
            0x00, 0x80, 0x40, // mi 0 as expected, 0x1000 from the prediction 0
            0x00, 0x80, 0x80, 0x01, // mi 1, 0x2000
            0x00, 0x80, 0xc0, 0x01, // mi 2, 0x3000
            0x07, // mi 1's run-time stride, -4
        ]
    );
    let events = loop_run_round_trip(&[&raw]);
    let access = |mi, addr, len| Event::Access { mi, addr, len };
    assert_eq!(
        events,
        [
            access(0, 0xff8, 8),
            access(1, 0x2004, 4),
            access(2, 0x2ff0, 8),
            Event::Branch { br: 1, outcome: 1 },
            Event::Block { bb: 1 },
            access(0, 0x1000, 8),
            access(1, 0x2000, 4),
            access(2, 0x3000, 8),
            Event::Branch { br: 1, outcome: 0 },
            Event::Block { bb: 2 },
        ]
    );
}

/// Runs of 0, 1, 16 and 256 iterations, leaving the loop and not, several runs of the same
/// loop, predicted accesses of another block after a run, stamps between runs; in one chunk
/// and in chunks cut between runs.
#[test]
fn loop_runs_round_trip() {
    // Pieces that chunks may be cut between.
    let mut pieces: Vec<Vec<RawEvent>> = Vec::new();
    let last = |it: u64| [0x1000 + 8 * it, 0x8000 - 4 * it, 0x20000 + 16 * it];
    let mut it = 0;
    for round in 0..3u64 {
        let mut entry = vec![RawEvent::new(TAG_BLOCK, 0, 0, 0)];
        entry.push(RawEvent::new(TAG_BRANCH, 0, 0, 0));
        pieces.push(entry);
        for (count, exit) in [(16, false), (1, false), (0, false), (256, true)] {
            let mut p = Vec::new();
            it += count;
            loop_run(&mut p, count, exit, last(it.saturating_sub(1)));
            if count == 1 {
                p.push(RawEvent::new(TAG_STAMP, 0, 0, 100 * it));
            }
            pieces.push(p);
        }
        // The exit block's access, then another loop with predicted accesses.
        let mut p = vec![RawEvent::new(TAG_ACCESS, 0, 3, 0x4_0000 + round)];
        for k in 0..20u64 {
            p.push(RawEvent::new(TAG_BLOCK, 0, 3, 0));
            p.push(RawEvent::new(TAG_ACCESS, 0, 4, 0x9_0000 + 8 * k));
            p.push(RawEvent::new(TAG_BRANCH, 0, 2, (k == 19) as u64));
        }
        p.push(RawEvent::new(TAG_ACCESS, 0, 3, 0x5_0000));
        pieces.push(p);
        // Runs straight after each other, the second one leaving.
        let mut p = Vec::new();
        loop_run(&mut p, 5, false, last(it + 5));
        loop_run(&mut p, 1, true, last(it + 6));
        pieces.push(p);
    }
    let whole: Vec<RawEvent> = pieces.concat();
    let events = loop_run_round_trip(&[&whole]);
    assert!(events.len() > 3 * 274 * 5);
    for per_chunk in [1, 2, 3] {
        let chunks: Vec<Vec<RawEvent>> = pieces.chunks(per_chunk).map(|c| c.concat()).collect();
        let chunks: Vec<&[RawEvent]> = chunks.iter().map(|c| &c[..]).collect();
        assert_eq!(
            loop_run_round_trip(&chunks),
            events,
            "{per_chunk} pieces a chunk"
        );
    }
}

/// A loop-run event that names a branch without loop runs, too many iterations, another
/// instruction than the block's next one, or ends early is refused before any of its
/// events reach the visitor.
#[test]
fn loop_run_decoder_errors() {
    let meta = loop_run_program();
    let bounds = EventBounds::of(&meta);
    // Three addresses, then mi 1's run-time stride (-4).
    let good: &[u8] = &[0x00, 0x80, 0x40, 0x00, 0x80, 0x40, 0x00, 0x80, 0x40, 0x07];
    let with = |head: &[u8], rest: &[u8]| [head, rest].concat();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (
            with(&[OP_LOOP_RUN, 0x00, 0x02], good),
            "branch 0 is not a loop recorded in runs",
        ),
        (
            with(&[OP_LOOP_RUN, 0x04, 0x02], good),
            "branch 2 is not a loop recorded in runs",
        ),
        (
            with(&[OP_LOOP_RUN, 0x06, 0x02], good),
            "branch 3 is not in the metadata",
        ),
        // 257 << 1 = 514.
        (
            with(&[OP_LOOP_RUN, 0x02, 0x82, 0x04], good),
            "257 iterations",
        ),
        // 256 << 1 | 1 = 513 is the limit.
        (
            with(&[OP_LOOP_RUN, 0x02, 0x81, 0x04], &good[..8]),
            "payload ends inside an event",
        ),
        // The second address by instruction 2 (expected 1, z(1) = 2).
        (
            with(&[OP_LOOP_RUN, 0x02, 0x02, 0x00, 0x00, 0x02], &good[3..]),
            "names memory instruction 2 where its block has 1",
        ),
        (vec![OP_LOOP_RUN, 0x02], "payload ends inside an event"),
        (
            vec![OP_LOOP_RUN, 0x02, 0x02, 0x00],
            "payload ends inside an event",
        ),
    ];
    for (payload, want) in &cases {
        let mut events = Vec::new();
        let err = ChunkDecoder::new(5)
            .decode(payload, &bounds, 10, &mut events)
            .unwrap_err();
        assert!(err.what.contains(want), "{payload:02x?}: {err:?}");
        assert_eq!((err.events, events.len()), (0, 0), "{payload:02x?}");
    }
    // Without loop runs in the metadata every loop-run event is refused.
    let err = decode_err(&[OP_LOOP_RUN, 0x00, 0x02, 0x00, 0x00]);
    assert!(
        err.what.contains("branch 0 is not a loop recorded in runs"),
        "{err:?}"
    );
    // A run of the limit is one event: it fits a header count of 1.
    let mut events = Vec::new();
    let n = ChunkDecoder::new(5)
        .decode(
            &with(&[OP_LOOP_RUN, 0x02, 0x81, 0x04], good),
            &bounds,
            1,
            &mut events,
        )
        .unwrap();
    assert_eq!((n, events.len()), (1, 256 * 5));
    assert_eq!(events.last(), Some(&Event::Block { bb: 2 }));
    // One event more than the header says is refused as before.
    let twice = with(&[OP_LOOP_RUN, 0x02, 0x02], good).repeat(2);
    let err = ChunkDecoder::new(5)
        .decode(&twice, &bounds, 1, &mut Vec::new())
        .unwrap_err();
    assert!(err.what.contains("more events than the 1"), "{err:?}");
    assert_eq!(err.events, 1);
}
