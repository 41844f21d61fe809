//! Decoded events back to raw records ([`to_raw`]).

use crate::event::Event;
use crate::raw::*;

/// Converts decoded events back to raw records (the inverse of decoding; used by tests and by
/// tools that rewrite traces).
pub fn to_raw(events: &[Event], out: &mut Vec<RawEvent>) {
    for &e in events {
        match e {
            Event::Block { bb } => out.push(RawEvent::new(TAG_BLOCK, 0, bb, 0)),
            Event::Access { mi, addr, len } => {
                // Ranged accesses are written as ranges even when their length equals the
                // static size; the decoder cannot tell, so callers compare lengths, not tags.
                out.push(RawEvent::new(TAG_ACCESS_RANGE, 0, mi, addr));
                out.push(RawEvent::new(TAG_EXT, 0, 0, len));
            }
            Event::Branch { br, outcome } => {
                out.push(RawEvent::new(TAG_BRANCH, 0, br, outcome as u64))
            }
            Event::Fork { region } => out.push(RawEvent::new(TAG_FORK, 0, region, 0)),
            Event::Join { region } => out.push(RawEvent::new(TAG_JOIN, 0, region, 0)),
            Event::RegionEnter {
                region,
                omp_thread,
                team_size,
            } => out.push(RawEvent::new(
                TAG_REGION_ENTER,
                0,
                region,
                (omp_thread as u64) << 32 | team_size as u64,
            )),
            Event::RegionExit { region } => out.push(RawEvent::new(TAG_REGION_EXIT, 0, region, 0)),
            Event::WorkshareInit {
                ws,
                schedule,
                lower,
                upper,
                stride,
                incr,
                chunk,
            } => {
                out.push(RawEvent::new(
                    TAG_WS_INIT,
                    schedule as u32,
                    ws,
                    lower as u64,
                ));
                for v in [upper, stride, incr, chunk] {
                    out.push(RawEvent::new(TAG_EXT, 0, 0, v as u64));
                }
            }
            Event::WorkshareNext {
                ws,
                more,
                lower,
                upper,
            } => {
                out.push(RawEvent::new(TAG_WS_NEXT, more as u32, ws, lower as u64));
                out.push(RawEvent::new(TAG_EXT, 0, 0, upper as u64));
            }
            Event::WorkshareFini { ws } => out.push(RawEvent::new(TAG_WS_FINI, 0, ws, 0)),
            Event::Barrier => out.push(RawEvent::new(TAG_BARRIER, 0, 0, 0)),
            Event::Gap => out.push(RawEvent::new(TAG_GAP, 0, 0, 0)),
            Event::Stamp { time } => out.push(RawEvent::new(TAG_STAMP, 0, 0, time)),
        }
    }
}
