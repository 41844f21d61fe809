//! Unit tests of every SASMM step on a hand-made program whose expected results are worked out
//! by hand in the comments.
//!
//! The program: `main` runs block 0 (one shared access), forks region 0 whose outlined function
//! runs block 2 (a private and a shared-variable access, then `__kmpc_for_static_init` for
//! iterations 0..=3), the worksharing loop 0 (header block 3, body block 4 with one access to
//! `A[i]` 64 bytes apart), exit block 5, and after the join block 1 (one shared access).

mod exact;
mod formula;
mod measure;
mod mimic;
mod streaming;

use crate::interleave::{for_each_shared_access, Interleave};
use crate::measure::{measure, MeasureConfig, Measurer};
use crate::mimic::{static_owner, MimicConfig, MimickedTrace, OffsetPolicy, StaticSplit};
use crate::model::Profile;
use crate::predict::{predict, SasmmConfig};
use crate::profile::{
    block_probabilities, concurrent_profile, private_block_probabilities, private_profile,
    sample_windows,
};
use crate::seq::{Placement, SequentialTrace, StreamLimits};
use proptest::prelude::*;
use rdcachesim::{CacheConfig, Hierarchy};
use rdengines::{analyse, EngineConfig, EngineKind};
use rdtrace::meta::*;
use rdtrace::testing::{function, mem_instr, natural_loop, program, region, workshare};
use rdtrace::Event;

const A: u64 = 0x10000;
const STACK: u64 = 0x7000;
const N_VAR: u64 = 0x2000;
const G: u64 = 0x1000;

fn block(function: u32, name: &str, parallel: bool, loop_id: Option<u32>) -> BlockMeta {
    BlockMeta {
        parallel,
        loop_id,
        ..rdtrace::testing::block(function, name)
    }
}

fn mi(block: u32, class: VarClass, derivation: &str) -> MemInstrMeta {
    MemInstrMeta {
        derivation: derivation.into(),
        derived: None,
        ..mem_instr(block, AccessKind::Load, class)
    }
}

fn module() -> ModuleMeta {
    let tables = MetaTables {
        functions: vec![
            function("main", 0, 2),
            FunctionMeta {
                outlined: true,
                parallel: true,
                ..function("main.omp_outlined", 2, 4)
            },
        ],
        blocks: vec![
            block(0, "entry", false, None),
            block(0, "after", false, None),
            block(1, "entry", true, None),
            block(1, "header", true, Some(0)),
            block(1, "body", true, Some(0)),
            block(1, "exit", true, None),
        ],
        mem_instrs: vec![
            mi(0, VarClass::Shared, "global @G"),
            mi(2, VarClass::Private, "alloca %i in main.omp_outlined"),
            mi(4, VarClass::Shared, "%A loaded -> pointer loaded from memory at %0 -> shared variable argument %A of main.omp_outlined"),
            mi(2, VarClass::Shared, "shared variable argument %n of main.omp_outlined"),
            mi(1, VarClass::Shared, "global @G"),
        ],
        loops: vec![natural_loop(1, 3, None, 1)],
        workshares: vec![WorkshareMeta {
            schedule: Some(34),
            ..workshare(1, 2, WorkshareKind::Static, Some(0))
        }],
        // The region the hand-made streams fork (the reader checks region ids).
        regions: vec![region(1, 0)],
        ..Default::default()
    };
    ModuleMeta {
        name: "hand.c".into(),
        content_hash: 0,
        tables,
    }
}

fn meta() -> ProgramMeta {
    program(module())
}

fn acc(mi: u32, addr: u64) -> Event {
    Event::Access { mi, addr, len: 8 }
}

/// The sequential run's events (one thread).
fn events(iterations: u64) -> Vec<Event> {
    let mut e = vec![
        Event::Block { bb: 0 },
        acc(0, G),
        Event::Fork { region: 0 },
        Event::RegionEnter {
            region: 0,
            omp_thread: 0,
            team_size: 1,
        },
        Event::Block { bb: 2 },
        acc(1, STACK),
        acc(3, N_VAR),
        Event::WorkshareInit {
            ws: 0,
            schedule: 34,
            lower: 0,
            upper: iterations as i64 - 1,
            stride: iterations as i64,
            incr: 1,
            chunk: 1,
        },
    ];
    for i in 0..iterations {
        e.push(Event::Block { bb: 3 });
        e.push(Event::Block { bb: 4 });
        e.push(acc(2, A + 64 * i));
    }
    e.extend([
        Event::Block { bb: 5 },
        Event::WorkshareFini { ws: 0 },
        Event::RegionExit { region: 0 },
        Event::Join { region: 0 },
        Event::Block { bb: 1 },
        acc(4, G),
    ]);
    e
}

fn seq(iterations: u64) -> SequentialTrace {
    SequentialTrace::from_events(&meta(), events(iterations)).unwrap()
}

fn mimic(s: &SequentialTrace, cores: usize, policy: OffsetPolicy) -> MimickedTrace<'_> {
    MimickedTrace::build(
        s,
        MimicConfig {
            cores,
            offset_policy: policy,
            ..MimicConfig::default()
        },
    )
    .unwrap()
}

const OFF: u64 = 1 << 44;

/// The per-core counts added up.
fn sum_of(per_core: &[crate::CoreRates]) -> crate::CoreCounts {
    crate::CoreCounts::sum(per_core.iter().map(|c| &c.counts))
}

/// A random sequential run of the hand program: serial stretches, parallel regions with
/// barriers, and worksharing loops of every schedule kind, finished or not (dynamic loops
/// without a `WorkshareFini`), sometimes several in one section.
fn random_program() -> impl Strategy<Value = Vec<Event>> {
    // (kind, iterations, accesses per iteration, address seed)
    let part = (0u8..6, 1u64..12, 0usize..4, 0u64..64);
    prop::collection::vec(part, 0..12).prop_map(|parts| {
        let mut e = vec![Event::Block { bb: 0 }];
        let mut depth = 0;
        for (kind, n, k, seed) in parts {
            let addr = |i: u64, j: usize| A + 64 * ((seed * 7 + i * 3 + j as u64) % 97);
            match kind {
                0 => {
                    // Serial stretch (closes any open region first).
                    if depth > 0 {
                        e.push(Event::RegionExit { region: 0 });
                        e.push(Event::Join { region: 0 });
                        depth = 0;
                    }
                    for i in 0..n {
                        e.push(Event::Block { bb: (i % 2) as u32 });
                        for j in 0..k {
                            e.push(acc(if j % 2 == 0 { 0 } else { 4 }, addr(i, j)));
                        }
                    }
                }
                1 if depth == 0 => {
                    e.push(Event::Fork { region: 0 });
                    e.push(Event::RegionEnter {
                        region: 0,
                        omp_thread: 0,
                        team_size: 1,
                    });
                    e.push(Event::Block { bb: 2 });
                    e.push(acc(1, STACK + 8 * (seed % 4)));
                    e.push(acc(3, N_VAR));
                    depth = 1;
                }
                2 if depth > 0 => e.push(Event::Barrier),
                _ if depth > 0 => {
                    // A worksharing loop: 3 static unchunked, 4 static chunked, 5 dynamic
                    // (never finished).
                    let (schedule, chunk) = match kind {
                        3 => (34, 1),
                        4 => (33, 2),
                        _ => (35, 1),
                    };
                    e.push(Event::WorkshareInit {
                        ws: 0,
                        schedule,
                        lower: 0,
                        upper: n as i64 - 1,
                        stride: n as i64,
                        incr: 1,
                        chunk,
                    });
                    for i in 0..n {
                        e.push(Event::Block { bb: 3 });
                        e.push(Event::Block { bb: 4 });
                        for j in 0..=k {
                            e.push(acc(2, addr(i, j)));
                        }
                    }
                    e.push(Event::Block { bb: 5 });
                    e.push(acc(1, STACK));
                    if kind != 5 {
                        e.push(Event::WorkshareFini { ws: 0 });
                    }
                }
                _ => {
                    e.push(Event::Block { bb: 1 });
                    e.push(acc(4, G + 64 * (seed % 5)));
                }
            }
        }
        if depth > 0 {
            e.push(Event::RegionExit { region: 0 });
        }
        e.push(Event::Block { bb: 1 });
        e.push(acc(4, G));
        e
    })
}

/// [`random_program`] with barriers and bare accesses (no block event before them) inserted at
/// random places: more empty continuation windows (a barrier's continuation followed by a
/// block), accesses before the first block and before a region's first block, and
/// continuations opened by an access after a fragment was handed over.
fn random_program_with_cuts() -> impl Strategy<Value = Vec<Event>> {
    let inserts = prop::collection::vec((0usize..256, 0u8..3), 0..8);
    (random_program(), inserts).prop_map(|(mut e, inserts)| {
        for (at, kind) in inserts {
            let event = match kind {
                0 => Event::Barrier,
                1 => acc(4, G + 8),
                _ => acc(2, A),
            };
            e.insert(at % (e.len() + 1), event);
        }
        e
    })
}
