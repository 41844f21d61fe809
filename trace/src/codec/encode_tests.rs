//! Tests of the encoder: the fast `append` against the reference encoder, periods included.

use super::*;
use proptest::prelude::*;

/// Records from a small program-like alphabet: loop iterations (a block, strided accesses
/// by consecutive instructions, a branch) mixed with random accesses, ranges, OpenMP events,
/// stamps and loop runs, well-formed or not, so runs, broken predictions, RUN_MAX and every
/// opcode all occur.
fn records() -> impl Strategy<Value = Vec<RawEvent>> {
    let piece = (0u8..12, 0u32..6, any::<u64>(), 1u64..5);
    proptest::collection::vec(piece, 1..300).prop_map(|pieces| {
        let mut out = Vec::new();
        for (k, (kind, id, v, reps)) in pieces.into_iter().enumerate() {
            match kind {
                0..=4 => {
                    // `reps * 20` iterations of a loop body: a block, `id % 3` accesses by
                    // consecutive instructions, a branch, with a stamp every 16 blocks as
                    // the runtime records them. Address patterns (`v % 5`): 0 strided;
                    // 1 descending through address 0 (which the predictor treats as "not
                    // seen"); 2 all at address 0; 3 one instruction twice per body, its
                    // addresses first one arithmetic sequence, then advancing by one step
                    // per body (a period that repeats but is not predicted); 4 strided
                    // without the branch, so a run is pending between bodies.
                    let pattern = v % 5;
                    let accesses = if pattern == 3 { 2 } else { id % 3 };
                    for it in 0..reps * 20 {
                        if it % 16 == 15 {
                            out.push(RawEvent::new(TAG_STAMP, 0, 0, v.wrapping_add(it)));
                        }
                        out.push(RawEvent::new(TAG_BLOCK, 0, id, 0));
                        for q in 0..accesses {
                            let (mi, addr) = match pattern {
                                1 => (q, (8 * 30u64).wrapping_sub(8 * it)),
                                2 => (q, 0),
                                3 => {
                                    let step = if it < 10 { 2 * it } else { it + 9 };
                                    (0, 0x4000 + 8 * (step + q as u64))
                                }
                                _ => (q, 0x1000 * (q as u64 + 1) + 8 * (q as u64 + 1) * it),
                            };
                            out.push(RawEvent::new(TAG_ACCESS, 0, mi, addr));
                        }
                        if pattern != 4 {
                            out.push(RawEvent::new(TAG_BRANCH, 0, id, (it % 7 == 6) as u64));
                        }
                    }
                }
                5 => out.push(RawEvent::new(TAG_ACCESS, 0, id, v % 3 * (v >> 2))),
                6 => {
                    out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, id, v));
                    out.push(RawEvent::new(TAG_EXT, 0, 0, reps * 8));
                }
                7 => {
                    out.push(RawEvent::new(TAG_WS_INIT, (v >> 40) as u32 & 0xff, id, v));
                    for x in 0..4 {
                        out.push(RawEvent::new(TAG_EXT, 0, 0, v.rotate_left(x)));
                    }
                }
                8 => out.push(RawEvent::new(TAG_STAMP, 0, 0, k as u64 * 1000 + v % 100)),
                10 => loop_run_group(&mut out, id, v, reps),
                11 => malformed_loop_run(&mut out, id, v),
                _ => out.push(RawEvent::new(
                    [TAG_FORK, TAG_JOIN, TAG_BARRIER, TAG_REGION_EXIT, TAG_GAP][id as usize % 5],
                    0,
                    id,
                    0,
                )),
            }
        }
        out
    })
}

/// `reps` loop runs of branch `id` over `1 + id % 3` consecutive instructions, as the runtime
/// writes them: counts and exits from `v`, addresses strided (sometimes at 0 or random), so
/// that the accesses after them are predicted or not, and `v % 3` run-time strides (at most
/// one per instruction).
fn loop_run_group(out: &mut Vec<RawEvent>, id: u32, v: u64, reps: u64) {
    let m = 1 + id % 3;
    let strides = (v % 3) as u32 % (m + 1);
    let mut r = Rng(v | 1);
    for rep in 0..reps {
        let count = match r.below(4) {
            0 => 0,
            1 => 256,
            _ => r.below(40),
        };
        let exit = r.below(2);
        out.push(RawEvent::new(
            TAG_LOOP_RUN,
            m | strides << 8,
            id,
            count << 1 | exit,
        ));
        for q in 0..m {
            let addr = match r.below(8) {
                0 => 0,
                1 => r.next(),
                _ => 0x1000 * (q as u64 + 1) + 8 * (rep + 1) * count,
            };
            out.push(RawEvent::new(TAG_ACCESS, 0, q + (v % 2) as u32, addr));
        }
        for _ in 0..strides {
            let stride = [8, -8i64 as u64, 4096, r.next()][r.below(4) as usize];
            out.push(RawEvent::new(TAG_EXT, 0, 0, stride));
        }
    }
}

/// A loop-run record without its access records as the encoder wants them: cut off by
/// another record, followed by an access with aux set or by a range, claiming more accesses
/// than follow (up to the 24-bit aux), or at the end of the buffer (`v % 5`).
fn malformed_loop_run(out: &mut Vec<RawEvent>, id: u32, v: u64) {
    let m = 1 + id % 3;
    match v % 5 {
        0 => {
            out.push(RawEvent::new(TAG_LOOP_RUN, m, id, v >> 40));
            out.push(RawEvent::new(TAG_ACCESS, 0, 0, 0x100));
            out.push(RawEvent::new(TAG_BLOCK, 0, id, 0));
        }
        1 => {
            out.push(RawEvent::new(TAG_LOOP_RUN, m, id, 6));
            out.push(RawEvent::new(TAG_ACCESS, 1 + (v >> 8) as u32 % 3, 0, 0x100));
            for q in 1..m {
                out.push(RawEvent::new(TAG_ACCESS, 0, q, 0x200));
            }
        }
        2 => {
            out.push(RawEvent::new(TAG_LOOP_RUN, m, id, 4));
            out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, 0, 0x100));
            out.push(RawEvent::new(TAG_EXT, 0, 0, 16));
        }
        3 => {
            out.push(RawEvent::new(TAG_LOOP_RUN, 0xff_ffff, id, v));
            out.push(RawEvent::new(TAG_ACCESS, 0, 0, 0x100));
        }
        _ => out.push(RawEvent::new(TAG_LOOP_RUN, m, id, v)),
    }
}

/// A small deterministic generator (xorshift), so that one proptest value describes a whole
/// loop nest's worth of detail.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Loops as the instrumentation without block records for blocks entered through recorded
/// branches writes them, mixed with loops that keep their block records: bodies of up to
/// four accesses and one to three branches, with or without a block record, branch outcomes
/// constant, periodic or random, stamps after a branch (where the runtime's block-entry
/// countdown puts them), before one or anywhere, and accesses strided, at address 0, by one
/// instruction twice, irregular now and then, or ranged; between loops, single records of
/// every kind. So the candidate periods of `append` (blocks and branches) start, repeat,
/// break off at every kind of record and meet buffer boundaries.
fn loops() -> impl Strategy<Value = Vec<RawEvent>> {
    proptest::collection::vec((0u8..8, any::<u64>()), 1..40).prop_map(|pieces| {
        let mut out = Vec::new();
        for (kind, seed) in pieces {
            let mut r = Rng(seed | 1);
            match kind {
                0..=5 => {
                    let block = match r.below(3) {
                        0 => Some(r.below(4) as u32),
                        _ => None,
                    };
                    let accesses = r.below(5) as u32;
                    let branches = 1 + r.below(3) as u32;
                    let outcomes = r.below(4);
                    let stamps = r.below(4);
                    let addresses = r.below(6);
                    let disturb = r.below(8);
                    let base = r.below(4) * 0x1000;
                    let iterations = 1 + r.below(100);
                    for it in 0..iterations {
                        if stamps == 1 && it % 16 == 15 {
                            out.push(RawEvent::new(TAG_STAMP, 0, 0, seed.wrapping_add(it)));
                        }
                        if let Some(bb) = block {
                            out.push(RawEvent::new(TAG_BLOCK, 0, bb, 0));
                        }
                        for q in 0..accesses {
                            let mi = if addresses == 3 { q / 2 } else { q };
                            let strided = base + 0x100 * (q as u64 + 1) + 8 * it;
                            let addr = match addresses {
                                1 => 0,
                                2 => (8 * 40u64).wrapping_sub(8 * it),
                                4 if r.below(16) == 0 => r.next() >> 20,
                                _ => strided,
                            };
                            if disturb == 0 && it % 23 == 22 && q == 0 {
                                out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, mi, addr));
                                out.push(RawEvent::new(TAG_EXT, 0, 0, 8 + it % 3));
                            } else {
                                out.push(RawEvent::new(TAG_ACCESS, 0, mi, addr));
                            }
                        }
                        for b in 0..branches {
                            let outcome = match outcomes {
                                0 => 0,
                                1 => (b == 0) as u64,
                                2 => (it % 5 == 4) as u64,
                                _ => r.below(2),
                            };
                            if stamps == 2 && it % 7 == 6 && b == branches - 1 {
                                out.push(RawEvent::new(TAG_STAMP, 0, 0, it * 3));
                            }
                            let br = b + (block.unwrap_or(0) & 1);
                            out.push(RawEvent::new(TAG_BRANCH, 0, br, outcome));
                            if stamps == 3 && r.below(8) == 0 {
                                out.push(RawEvent::new(TAG_STAMP, 0, 0, r.next() >> 40));
                            }
                        }
                        if disturb == 1 && it % 31 == 30 {
                            out.push(RawEvent::new(TAG_BARRIER, 0, 0, 0));
                        }
                    }
                }
                6 => out.push(RawEvent::new(TAG_STAMP, 0, 0, seed >> 30)),
                _ => out.push(RawEvent::new(
                    [TAG_ACCESS, TAG_BRANCH, TAG_BLOCK, TAG_GAP][r.below(4) as usize],
                    0,
                    r.below(4) as u32,
                    r.below(3) * 0x2000,
                )),
            }
        }
        out
    })
}

/// Encodes `raw` cut into pieces of `piece` records (moved past EXT records) with the fast
/// encoder and the reference one; both payloads and event counts.
fn both(raw: &[RawEvent], piece: usize) -> ((Vec<u8>, u32), (Vec<u8>, u32)) {
    let mut fast = ChunkEncoder::new(4, 16);
    let mut slow = ChunkEncoder::new(4, 16);
    let mut at = 0;
    while at < raw.len() {
        let mut end = (at + piece).min(raw.len());
        while end < raw.len() && raw[end].tag() == TAG_EXT {
            end += 1;
        }
        let before = fast.chunk_bytes();
        fast.append(&raw[at..end]);
        assert!(fast.chunk_bytes() - before <= MAX_BYTES_PER_RECORD * (end - at) + 1);
        slow.append_reference(&raw[at..end]);
        at = end;
    }
    let (a, n) = fast.finish_chunk();
    let a = (a.to_vec(), n);
    let (b, m) = slow.finish_chunk();
    (a, (b.to_vec(), m))
}

/// A loop without block records (three strided accesses and a branch, a stamp after every
/// 16th branch, where the runtime puts them) repeats its branch's period and writes the
/// same bytes as the reference encoder, whole or in pieces.
#[test]
fn branch_periods_without_block_records() {
    let mut raw = Vec::new();
    for it in 0..1000u64 {
        for q in 0..3u64 {
            raw.push(RawEvent::new(
                TAG_ACCESS,
                0,
                q as u32,
                0x1000 * (q + 1) + 8 * it,
            ));
        }
        raw.push(RawEvent::new(TAG_BRANCH, 0, 2, 0));
        if it % 16 == 15 {
            raw.push(RawEvent::new(TAG_STAMP, 0, 0, 100 * it));
        }
    }
    for piece in [raw.len(), 1000, 7] {
        let (fast, slow) = both(&raw, piece);
        assert_eq!(fast, slow, "pieces of {piece}");
    }
}

/// An access at address 0 in a repeated period makes the next period's access by the same
/// instruction a first sighting, which forgets the stride: the repetition must stop there
/// (it once went on, writing a run where the reference writes the access).
#[test]
fn periods_stop_at_address_zero() {
    for block in [false, true] {
        let mut raw = Vec::new();
        for it in 0..60u64 {
            if block {
                raw.push(RawEvent::new(TAG_BLOCK, 0, 1, 0));
            }
            let addr = (8 * 40u64).wrapping_sub(8 * it);
            raw.push(RawEvent::new(TAG_ACCESS, 0, 0, addr));
            raw.push(RawEvent::new(TAG_BRANCH, 0, 0, 0));
        }
        let (fast, slow) = both(&raw, raw.len());
        assert_eq!(fast, slow, "block records: {block}");
    }
}

/// Branchy records, whose bodies rarely repeat, turn the candidate periods off for
/// `PERIODS_OFF_CALLS` calls (see `PERIODS_RARE`); a loop brings them back on. The bytes are
/// the reference encoder's throughout, whatever the pieces.
#[test]
fn rare_periods_turn_off_and_the_bytes_stay_the_same() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut branchy = Vec::new();
    while branchy.len() < 2 * PERIODS_PROBE_RECORDS {
        let v = next();
        branchy.push(match v % 3 {
            0 => RawEvent::new(TAG_BLOCK, 0, (v >> 8) as u32 % 50, 0),
            1 => RawEvent::new(TAG_BRANCH, 0, (v >> 8) as u32 % 20, (v >> 40) & 1),
            _ => RawEvent::new(TAG_ACCESS, 0, (v >> 8) as u32 % 4, (v >> 16) & 0xfff8),
        });
    }
    let mut looping = Vec::new();
    for it in 0..2 * PERIODS_PROBE_RECORDS as u64 {
        looping.push(RawEvent::new(TAG_BLOCK, 0, 60, 0));
        looping.push(RawEvent::new(TAG_ACCESS, 0, 1, 0x8000 + 8 * it));
        looping.push(RawEvent::new(TAG_BRANCH, 0, 30, 0));
    }
    let mut e = ChunkEncoder::new(4, 16);
    e.append(&branchy);
    assert_eq!(e.periods_off_for, PERIODS_OFF_CALLS);
    for k in (0..PERIODS_OFF_CALLS).rev() {
        e.append(&looping[..PERIODS_PROBE_RECORDS]);
        assert_eq!(e.periods_off_for, k);
    }
    // Back on: the loop's periods repeat, so they stay on.
    e.append(&looping);
    assert_eq!(e.periods_off_for, 0);
    let mut raw = branchy.clone();
    raw.extend_from_slice(&looping);
    raw.extend_from_slice(&branchy);
    raw.extend_from_slice(&looping);
    for piece in [PERIODS_PROBE_RECORDS, 5000, raw.len()] {
        let (fast, slow) = both(&raw, piece);
        assert_eq!(fast, slow, "pieces of {piece}");
    }
}

/// Loop-run groups, whole and malformed, among loops: the fast encoder writes the reference's
/// bytes and counts a whole group as one event and a malformed loop-run record as none, in
/// any pieces (a piece boundary inside a group makes it malformed for both).
#[test]
fn loop_runs_equal_the_reference() {
    let mut raw = Vec::new();
    for k in 0..60u64 {
        for it in 0..10u64 {
            raw.push(RawEvent::new(TAG_BLOCK, 0, 1, 0));
            raw.push(RawEvent::new(TAG_ACCESS, 0, 3, 0x8000 + 8 * it));
            raw.push(RawEvent::new(TAG_BRANCH, 0, 2, 0));
        }
        loop_run_group(
            &mut raw,
            k as u32 % 6,
            k.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            3,
        );
        if k % 4 == 3 {
            malformed_loop_run(&mut raw, k as u32 % 6, k * 7);
        }
    }
    let mut whole = ChunkEncoder::new(4, 16);
    let (_, count) = whole.encode(&raw);
    let runs = raw.iter().filter(|r| r.tag() == TAG_LOOP_RUN).count();
    assert!(count as usize > raw.len() - 4 * runs && (count as usize) < raw.len() - runs);
    for piece in [raw.len(), 1000, 61, 7, 2, 1] {
        let (fast, slow) = both(&raw, piece);
        assert_eq!(fast, slow, "pieces of {piece}");
    }
    // A whole group: its records less its accesses; a malformed one: none.
    let mut one = Vec::new();
    loop_run_group(&mut one, 2, 5, 1);
    assert_eq!(whole.encode(&one).1, 1);
    for v in 0..5 {
        let mut bad = Vec::new();
        malformed_loop_run(&mut bad, 2, v);
        let exts = bad.iter().filter(|r| r.tag() == TAG_EXT).count();
        assert_eq!(
            whole.encode(&bad).1 as usize,
            bad.len() - 1 - exts,
            "case {v}"
        );
    }
}

proptest! {
    /// The fast encoder writes the reference encoder's bytes for loops with and without
    /// block records (see `loops`), whole or in pieces of any size.
    #[test]
    fn branch_and_block_periods_equal_the_reference(raw in loops(), piece in 1usize..5000) {
        let (fast, slow) = both(&raw, piece);
        prop_assert_eq!(fast, slow);
    }

    /// The fast encoder writes exactly the bytes of the straightforward one, whatever the
    /// records and wherever a buffer boundary falls (between events), within the
    /// per-record bound.
    #[test]
    fn fast_append_equals_the_reference(raw in records(), cut in any::<prop::sample::Index>()) {
        // A cut between events: not before an EXT record.
        let mut at = cut.index(raw.len() + 1);
        while at < raw.len() && raw[at].tag() == TAG_EXT {
            at += 1;
        }
        let mut fast = ChunkEncoder::new(4, 16);
        let mut slow = ChunkEncoder::new(4, 16);
        for part in [&raw[..at], &raw[at..]] {
            let before = fast.chunk_bytes();
            fast.append(part);
            prop_assert!(fast.chunk_bytes() - before <= MAX_BYTES_PER_RECORD * part.len() + 1);
            slow.append_reference(part);
            prop_assert_eq!(fast.chunk_bytes(), slow.chunk_bytes());
        }
        let (a, n) = fast.finish_chunk();
        let (a, n) = (a.to_vec(), n);
        let (b, m) = slow.finish_chunk();
        prop_assert_eq!(n, m);
        prop_assert_eq!(a, b.to_vec());
    }
}
