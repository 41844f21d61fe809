//! The events decoder on arbitrary payloads, with bounds taken from the input's first bytes:
//! every event it delivers must lie within the bounds, and it must never deliver more events
//! than allowed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdtrace::codec::{ChunkDecoder, EventBounds, MAX_RANGE_LEN};
use rdtrace::{Event, EventVisitor};

/// Checks each event against the bounds as it arrives.
struct Check<'a>(&'a EventBounds, u64);

impl EventVisitor for Check<'_> {
    fn block(&mut self, bb: u32) {
        assert!(bb < self.0.blocks);
        self.1 += 1;
    }
    fn access(&mut self, mi: u32, _addr: u64, len: u64) {
        assert!((mi as usize) < self.0.mem_instr_sizes.len());
        assert!(len <= MAX_RANGE_LEN);
        self.1 += 1;
    }
    fn branch(&mut self, br: u32, outcome: u32) {
        assert!(outcome < self.0.branch_outcomes[br as usize]);
        self.1 += 1;
    }
    fn other(&mut self, e: Event) {
        match e {
            Event::Fork { region } | Event::Join { region } | Event::RegionExit { region } => {
                assert!(region < self.0.regions)
            }
            Event::RegionEnter {
                region,
                omp_thread,
                team_size,
            } => assert!(region < self.0.regions && omp_thread < team_size),
            Event::WorkshareInit { ws, .. }
            | Event::WorkshareNext { ws, .. }
            | Event::WorkshareFini { ws } => assert!(ws < self.0.workshares),
            _ => {}
        }
        self.1 += 1;
    }
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (head, payload) = data.split_at(4);
    let bounds = EventBounds {
        mem_instr_sizes: (0..head[0] as u32)
            .map(|i| [0, 1, 4, 8][i as usize % 4])
            .collect(),
        branch_outcomes: (0..head[1] as u32).map(|i| 2 + i % 3).collect(),
        blocks: head[2] as u32,
        regions: (head[3] & 0xf) as u32,
        workshares: (head[3] >> 4) as u32,
    };
    let max = payload.len() as u64 * 64;
    let mut check = Check(&bounds, 0);
    let mut d = ChunkDecoder::new(bounds.mem_instr_sizes.len());
    match d.decode(payload, &bounds, max, &mut check) {
        Ok(n) => assert_eq!(n, check.1),
        Err(e) => assert_eq!(e.events, check.1),
    }
});
