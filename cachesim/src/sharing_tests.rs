//! The recorder on small access streams through a [`CoherentHierarchy`], the byte-range merging
//! and the padding advice, with expected values worked out by hand.

use super::*;
use crate::{CacheConfig, CoherentHierarchy};
use proptest::prelude::*;

/// A hierarchy with 64-byte lines whose L1 holds all the lines these tests touch.
fn hierarchy() -> CoherentHierarchy {
    CoherentHierarchy::new(
        CacheConfig::new(8192, 8, 64).unwrap(),
        CacheConfig::new(131072, 16, 64).unwrap(),
        None,
    )
}

/// One access through the hierarchy and the recorder, line by line as the callers do.
#[allow(clippy::too_many_arguments)]
fn access(
    h: &mut CoherentHierarchy,
    r: &mut SharingRecorder,
    core: usize,
    source: u32,
    addr: u64,
    len: u64,
    read: bool,
    write: bool,
) {
    let mut outcomes = Vec::new();
    h.access_with(core, addr, len, write, |o| outcomes.push(o));
    let mut k = 0;
    CacheConfig::new(8192, 8, 64)
        .unwrap()
        .for_each_line(addr, len, |line| {
            r.record(
                core,
                source,
                line,
                addr,
                addr + len,
                read,
                write,
                outcomes[k].l1_miss,
            );
            k += 1;
        });
}

#[test]
fn byte_ranges_merge_adjacent_granules() {
    assert_eq!(byte_ranges(0, 1), vec![]);
    assert_eq!(byte_ranges(0xff, 1), vec![(0, 7)]);
    // Bits 8..=15 and 16..=19 are one run: bytes 8-19.
    assert_eq!(byte_ranges(0xf_ff00, 1), vec![(8, 19)]);
    assert_eq!(byte_ranges(0b101, 1), vec![(0, 0), (2, 2)]);
    assert_eq!(byte_ranges(u64::MAX, 1), vec![(0, 63)]);
    assert_eq!(byte_ranges(1 << 63, 1), vec![(63, 63)]);
    assert_eq!(byte_ranges(0xff | (0xff << 56), 1), vec![(0, 7), (56, 63)]);
    // 128-byte lines: a bit is 2 bytes; bits 0..=3 are bytes 0-7, bit 63 bytes 126-127.
    assert_eq!(byte_ranges(0xf | (1 << 63), 2), vec![(0, 7), (126, 127)]);
    assert_eq!(ranges_text(&byte_ranges(0b101 | 0xff00, 1)), "0,2,8-15");
    assert_eq!(ranges_text(&[]), "-");
}

/// Two cores take turns incrementing their own 8-byte counter (a load then a store by the same
/// two instructions) in one line, as `test-programs/coherence/counters.c` does.
fn counters(rounds: u64, stride: u64) -> (SharingReport, crate::CoherentStats) {
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(64, SharingConfig::default());
    for _ in 0..rounds {
        for core in 0..2 {
            let addr = 0x1000 + core as u64 * stride;
            access(&mut h, &mut r, core, 1, addr, 8, true, false);
            access(&mut h, &mut r, core, 2, addr, 8, false, true);
        }
    }
    (r.finish(), h.stats())
}

#[test]
fn per_thread_counters_are_false_sharing_fixed_by_padding_to_the_line() {
    // Round 0: both loads are compulsory; core 1's store invalidates core 0's copy. From round
    // 1 on each load finds its copy invalidated by the other's store to the other 8 bytes: a
    // false-sharing coherence miss, 2 (R - 1) in all. The entry starts at core 0's miss in
    // round 1; core 1's round-0 store (bytes 8-15) is recalled from the recent writes.
    let (rep, stats) = counters(10, 8);
    assert_eq!(stats.l1[0].misses.false_sharing, 9);
    assert_eq!(stats.l1[1].misses.false_sharing, 9);
    assert_eq!(rep.lines.len(), 1);
    let l = &rep.lines[0];
    assert_eq!(l.line, 0x1000 / 64);
    assert_eq!((l.true_sharing, l.false_sharing), (0, 18));
    assert_eq!(l.cores.len(), 2);
    assert_eq!((l.cores[0].read, l.cores[0].written), (0xff, 0xff));
    assert_eq!((l.cores[1].read, l.cores[1].written), (0xff00, 0xff00));
    assert_eq!(rep.ranges(l.cores[1].written), vec![(8, 15)]);
    // Core 0's references: 9 rounds × 2; core 1's: 9 rounds × 2 (its round-0 store is recalled,
    // not counted).
    assert_eq!((l.cores[0].references, l.cores[1].references), (18, 18));
    // The load (source 1) has all the misses; the store (source 2) none (upgrades).
    assert_eq!(l.sources[0].source, 1);
    assert_eq!(l.sources[0].false_sharing, 18);
    assert_eq!(l.sources[1].writing_cores, vec![0, 1]);
    assert_eq!(
        verdict(l, 64, 1),
        Verdict::FalseSharing {
            padding: Padding::PadElements(PadElements {
                slot: 8,
                stride: 8,
                line: 64,
                pad: 56
            }),
            shared: 0
        }
    );
    // 8-byte counters in 24-byte elements: slot 8, stride 24, 40 bytes of padding.
    let (rep, _) = counters(10, 24);
    assert_eq!(
        verdict(&rep.lines[0], 64, 1),
        Verdict::FalseSharing {
            padding: Padding::PadElements(PadElements {
                slot: 8,
                stride: 24,
                line: 64,
                pad: 40
            }),
            shared: 0
        }
    );
    // Core 0 then reads both counters at once (a final report): its copy was invalidated by
    // core 1's last store to bytes 8-15, which it reads: one true-sharing miss. The line stays
    // false sharing (18 of 19 misses), the fix the same, and bytes 8-15 are named as shared.
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(64, SharingConfig::default());
    for _ in 0..10 {
        for core in 0..2 {
            let addr = 0x1000 + core as u64 * 8;
            access(&mut h, &mut r, core, 1, addr, 8, true, false);
            access(&mut h, &mut r, core, 2, addr, 8, false, true);
        }
    }
    access(&mut h, &mut r, 0, 3, 0x1000, 16, true, false);
    let rep = r.finish();
    assert_eq!(
        (rep.lines[0].true_sharing, rep.lines[0].false_sharing),
        (1, 18)
    );
    assert_eq!(
        verdict(&rep.lines[0], 64, 1),
        Verdict::FalseSharing {
            padding: Padding::PadElements(PadElements {
                slot: 8,
                stride: 8,
                line: 64,
                pad: 56
            }),
            shared: 0xff00
        }
    );
    // Padded to 64 bytes: no coherence miss, no entry.
    let (rep, stats) = counters(10, 64);
    assert!(rep.lines.is_empty());
    assert_eq!(stats.l1[0].misses.coherence, 0);
}

#[test]
fn a_shared_sum_is_true_sharing() {
    // Both cores read-modify-write the same 8 bytes, 5 rounds: each core's first access is
    // compulsory and every later one finds its copy invalidated by the other's write to the
    // same bytes: 2 × 4 true-sharing misses; the shared bytes are 0-7.
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(64, SharingConfig::default());
    for _ in 0..5 {
        for core in 0..2 {
            access(&mut h, &mut r, core, 7, 0x2000, 8, true, true);
        }
    }
    let rep = r.finish();
    assert_eq!(rep.lines.len(), 1);
    assert_eq!(
        (rep.lines[0].true_sharing, rep.lines[0].false_sharing),
        (8, 0)
    );
    assert_eq!(
        verdict(&rep.lines[0], 64, 1),
        Verdict::TrueSharing { shared: 0xff }
    );
}

#[test]
fn unrelated_variables_and_a_reader_get_separated() {
    // Two different instructions write bytes 0-7 (core 0) and 32-39 (core 1): not one array
    // indexed by thread, so each writer's bytes go on a line of their own.
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(64, SharingConfig::default());
    for _ in 0..3 {
        access(&mut h, &mut r, 0, 1, 0x3000, 8, true, true);
        access(&mut h, &mut r, 1, 2, 0x3020, 8, true, true);
    }
    let rep = r.finish();
    assert_eq!(
        verdict(&rep.lines[0], 64, 1),
        Verdict::FalseSharing {
            padding: Padding::Separate {
                writers: vec![(0, 0xff), (1, 0xff << 32)],
                readers: vec![],
            },
            shared: 0
        }
    );
    // Core 0 writes bytes 0-7, core 1 only reads bytes 8-15 (one instruction each): the writer's
    // bytes need a line apart from the reader's.
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(64, SharingConfig::default());
    for _ in 0..3 {
        access(&mut h, &mut r, 0, 1, 0x4000, 8, false, true);
        access(&mut h, &mut r, 1, 2, 0x4008, 8, true, false);
    }
    let rep = r.finish();
    assert_eq!(rep.lines[0].false_sharing, 2);
    assert_eq!(
        verdict(&rep.lines[0], 64, 1),
        Verdict::FalseSharing {
            padding: Padding::Separate {
                writers: vec![(0, 0xff)],
                readers: vec![(1, 0xff00)],
            },
            shared: 0
        }
    );
}

#[test]
fn four_threads_at_a_16_byte_stride_pad_48_bytes() {
    let mut rec = LineRecord {
        line: 9,
        false_sharing: 12,
        ..Default::default()
    };
    for core in 0..4u32 {
        rec.core(core).written = 0xff << (16 * core);
    }
    rec.sources.push(SourceBytes {
        source: 3,
        cores: vec![0, 1, 2, 3],
        writing_cores: vec![0, 1, 2, 3],
        ..Default::default()
    });
    assert_eq!(
        verdict(&rec, 64, 1),
        Verdict::FalseSharing {
            padding: Padding::PadElements(PadElements {
                slot: 8,
                stride: 16,
                line: 64,
                pad: 48
            }),
            shared: 0
        }
    );
    // 24-byte per-thread structs: the loop (source 5) writes each thread's 8-byte `sum` at
    // stride 24, and another source wrote one thread's `count` beside it once: the writers'
    // own bytes are uneven, but the loop's writes give slot 8 at stride 24 (40 bytes of pad).
    let mut wide = LineRecord {
        line: 3,
        false_sharing: 8,
        ..Default::default()
    };
    for (core, written) in [(1u32, 0xffu64), (2, 0xffff << 16), (3, 0xffff << 40)] {
        wide.core(core).written = written;
    }
    wide.sources.push(SourceBytes {
        source: 5,
        cores: vec![1, 2, 3],
        writing_cores: vec![1, 2, 3],
        written: 0xff | (0xff << 24) | (0xff << 48),
        ..Default::default()
    });
    assert_eq!(
        verdict(&wide, 64, 1),
        Verdict::FalseSharing {
            padding: Padding::PadElements(PadElements {
                slot: 8,
                stride: 24,
                line: 64,
                pad: 40
            }),
            shared: 0
        }
    );
    // Mostly true-sharing misses: the verdict follows the misses, not the bytes alone.
    rec.true_sharing = 13;
    assert_eq!(verdict(&rec, 64, 1), Verdict::TrueSharing { shared: 0 });
    rec.true_sharing = 0;
    // Uneven spacing (core 3 at byte 56): not elements of one array.
    rec.cores[3].written = 0xff << 56;
    assert!(matches!(
        verdict(&rec, 64, 1),
        Verdict::FalseSharing {
            padding: Padding::Separate { .. },
            ..
        }
    ));
    // One core alone: undetermined.
    rec.cores.truncate(1);
    assert_eq!(verdict(&rec, 64, 1), Verdict::Undetermined);
}

#[test]
fn a_full_table_counts_the_dropped_misses() {
    // Two counter lines, a table of one: the second line's misses are counted, not recorded.
    let mut h = hierarchy();
    let mut r = SharingRecorder::new(
        64,
        SharingConfig {
            max_lines: 1,
            max_sources: 16,
        },
    );
    for _ in 0..4 {
        for core in 0..2 {
            for base in [0x1000u64, 0x5000] {
                access(
                    &mut h,
                    &mut r,
                    core,
                    1,
                    base + 8 * core as u64,
                    8,
                    true,
                    true,
                );
            }
        }
    }
    let rep = r.finish();
    assert_eq!(rep.lines.len(), 1);
    assert_eq!(rep.lines[0].coherence(), 6);
    assert_eq!(rep.dropped_misses, 6);
}

proptest! {
    /// On any stream, the recorded lines' coherence misses plus the dropped ones are the
    /// hierarchy's L1 coherence misses, split the same way into true and false sharing.
    #[test]
    fn recorded_misses_add_up_to_the_hierarchys(
        events in prop::collection::vec((0usize..3, 0u64..512, 1u64..24, any::<bool>()), 1..300),
        max_lines in 1usize..8,
    ) {
        let mut h = hierarchy();
        let mut r = SharingRecorder::new(64, SharingConfig { max_lines, max_sources: 2 });
        for &(core, addr, len, write) in &events {
            access(&mut h, &mut r, core, (addr % 5) as u32, addr, len, !write, write);
        }
        let stats = h.stats();
        let rep = r.finish();
        let (t, f): (u64, u64) = stats.l1.iter().fold((0, 0), |(t, f), c| (t + c.misses.true_sharing, f + c.misses.false_sharing));
        let lt: u64 = rep.lines.iter().map(|l| l.true_sharing).sum();
        let lf: u64 = rep.lines.iter().map(|l| l.false_sharing).sum();
        prop_assert_eq!(lt + lf + rep.dropped_misses, t + f);
        prop_assert!(rep.lines.len() <= max_lines);
        if rep.dropped_misses == 0 {
            prop_assert_eq!((lt, lf), (t, f));
        }
        for l in &rep.lines {
            prop_assert!(l.sources.len() <= 2);
            let by_core: u64 = l.cores.iter().map(|c| c.true_sharing + c.false_sharing).sum();
            prop_assert_eq!(by_core, l.coherence());
        }
        for w in rep.lines.windows(2) {
            prop_assert!(w[0].coherence() >= w[1].coherence());
        }
    }
}
