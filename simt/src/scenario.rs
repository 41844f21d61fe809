//! The six scenarios of the data reuse characterization (thesis section VI): which MI streams
//! are built from a kernel's blocks, and which histograms are computed over them.
//!
//! | scenario | streams analysed |
//! |---|---|
//! | 1 serialized blocks | all blocks one after another, one stream |
//! | 2 within each block | every block on its own, one histogram per block |
//! | 3 all blocks in parallel | one aggregate block of the whole grid |
//! | 4 K concurrent blocks | arrays of K concurrent slots merged into aggregate blocks, serialized |
//! | 5 limited LSUs, per cluster | each cluster's blocks serialized, MIs split at `lsu` lanes; one histogram per cluster |
//! | 6 limited LSUs, merged | rounds of one block per cluster merged into aggregate blocks, serialized, MIs split at `lsu × clusters` lanes |

use crate::error::{Result, SimtError};
use crate::grid::{aggregate_block, split_for_lsu, BlockStream, Kernel};
use crate::mi::MemInstr;
use crate::reuse::{analyze_lane_stream, DsHistogram, ReuseDegreeAnalyzer};
use crate::schedule::{BlockScheduler, Schedule, SchedulePolicy};
use serde::{Deserialize, Serialize};

/// One of the six scenarios.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Scenario {
    /// 1: infinite resources, thread blocks serialized.
    #[default]
    SerializedBlocks,
    /// 2: infinite resources, analysis within each thread block.
    WithinBlock,
    /// 3: infinite resources, all blocks in parallel (one aggregate block).
    AllBlocksParallel,
    /// 4: infinite resources, K blocks in parallel (arrays of concurrent slots).
    ConcurrentBlocks,
    /// 5: limited load/store units, analysis within each core cluster.
    ClusterLocal,
    /// 6: limited load/store units, clusters merged into aggregate blocks.
    ClusterAggregate,
}

impl Scenario {
    /// All scenarios in thesis order.
    pub const ALL: [Scenario; 6] = [
        Scenario::SerializedBlocks,
        Scenario::WithinBlock,
        Scenario::AllBlocksParallel,
        Scenario::ConcurrentBlocks,
        Scenario::ClusterLocal,
        Scenario::ClusterAggregate,
    ];

    /// The thesis's number, 1..=6.
    pub fn number(self) -> u8 {
        Scenario::ALL.iter().position(|&s| s == self).unwrap() as u8 + 1
    }

    /// The scenario with thesis number `n`.
    pub fn from_number(n: u8) -> Option<Scenario> {
        Scenario::ALL.get((n as usize).checked_sub(1)?).copied()
    }

    /// A one-line description.
    pub fn description(self) -> &'static str {
        match self {
            Scenario::SerializedBlocks => "infinite resources, thread blocks serialized",
            Scenario::WithinBlock => "infinite resources, within each thread block",
            Scenario::AllBlocksParallel => "infinite resources, all blocks in parallel",
            Scenario::ConcurrentBlocks => "infinite resources, K blocks in parallel",
            Scenario::ClusterLocal => "limited load/store units, within each core cluster",
            Scenario::ClusterAggregate => "limited load/store units, clusters aggregated",
        }
    }
}

/// Parameters of a scenario run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioConfig {
    /// Which scenario.
    pub scenario: Scenario,
    /// K, the blocks of an array of concurrent slots (scenario 4).
    pub concurrent_blocks: usize,
    /// Core clusters (scenarios 5 and 6); each runs one block at a time.
    pub clusters: usize,
    /// Load/store units per core cluster (scenarios 5 and 6).
    pub lsu: usize,
    /// Largest reuse distance considered; `None` pairs every MI with every later one.
    pub max_rd: Option<u64>,
    /// Block scheduling policy (scenarios 4, 5, 6).
    pub policy: SchedulePolicy,
}

impl Default for ScenarioConfig {
    /// Scenario 1; K = 2; 16 clusters of 16 load/store units (the thesis's section 9.3 setup).
    fn default() -> Self {
        ScenarioConfig {
            scenario: Scenario::SerializedBlocks,
            concurrent_blocks: 2,
            clusters: 16,
            lsu: 16,
            max_rd: None,
            policy: SchedulePolicy::Sequential,
        }
    }
}

/// What one analysed stream covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StreamLabel {
    /// The whole grid (scenarios 1, 3, 4, 6).
    Grid,
    /// One block, by id (scenario 2).
    Block(u64),
    /// One core cluster, by index (scenario 5).
    Cluster(usize),
}

/// The characteristic of one analysed stream.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StreamResult {
    /// What the stream covers.
    pub label: StreamLabel,
    /// Blocks that contributed to it.
    pub blocks: usize,
    /// Its DS-vs-RD histogram (with its MI and lane counts).
    pub histogram: DsHistogram,
}

/// The result of one scenario on one kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioResult {
    /// The configuration it ran with.
    pub config: ScenarioConfig,
    /// Name of the block scheduler used.
    pub scheduler: String,
    /// Blocks in the grid.
    pub blocks: usize,
    /// Aggregate blocks formed (scenarios 3, 4, 6), ⌈N/K⌉ for N blocks; 0 otherwise.
    pub aggregate_blocks: usize,
    /// Every analysed stream.
    pub streams: Vec<StreamResult>,
    /// Sum of the streams' histograms.
    pub total: DsHistogram,
}

/// Runs a scenario with the configuration's built-in scheduling policy.
pub fn run_scenario(kernel: &Kernel, config: &ScenarioConfig) -> Result<ScenarioResult> {
    let mut scheduler = config.policy.scheduler();
    run_scenario_with(kernel, config, scheduler.as_mut())
}

/// Runs a scenario with any block scheduler.
pub fn run_scenario_with(
    kernel: &Kernel,
    config: &ScenarioConfig,
    scheduler: &mut dyn BlockScheduler,
) -> Result<ScenarioResult> {
    check(config)?;
    let blocks = &kernel.blocks;
    let n = blocks.len();
    let max_rd = config.max_rd;
    let mut aggregate_blocks = 0;
    let schedule = |scheduler: &mut dyn BlockScheduler, slots: usize| -> Result<Schedule> {
        let s = scheduler.schedule(blocks, slots);
        s.validate(n, &scheduler.name())?;
        Ok(s)
    };
    let streams = match config.scenario {
        // See: thesis section 6.1: every thread in parallel, blocks one at a time.
        Scenario::SerializedBlocks => vec![grid_stream(
            stream_on_cpus(blocks.iter().flat_map(|b| &b.mis), max_rd),
            n,
        )],
        // See: section 6.2: the stream of each block on its own.
        Scenario::WithinBlock => blocks
            .iter()
            .map(|b| {
                let mut a = ReuseDegreeAnalyzer::new(max_rd);
                push_blocks(&mut a, std::iter::once(b), usize::MAX);
                StreamResult {
                    label: StreamLabel::Block(b.id),
                    blocks: 1,
                    histogram: a.finish(),
                }
            })
            .collect(),
        // See: section 6.3: all blocks merged into one aggregate block.
        Scenario::AllBlocksParallel => {
            let all: Vec<&BlockStream> = blocks.iter().collect();
            let histogram = if n > 0 {
                aggregate_blocks = 1;
                stream_on_cpus(aggregate_block(&all).mis.iter(), max_rd)
            } else {
                ReuseDegreeAnalyzer::new(max_rd).finish()
            };
            vec![grid_stream(histogram, n)]
        }
        // See: section 6.4, definitions 3-4 and Algorithms 3-5: arrays of K concurrent slots,
        // each merged into an aggregate block, aggregate blocks serialized.
        Scenario::ConcurrentBlocks => {
            let s = schedule(scheduler, config.concurrent_blocks)?;
            aggregate_blocks = s.arrays.len();
            let mut a = ReuseDegreeAnalyzer::new(max_rd);
            push_aggregates(&mut a, blocks, &s, usize::MAX);
            vec![grid_stream(a.finish(), n)]
        }
        // See: section 6.5 and Algorithm 3 lines 3-8: one block per cluster at a time; each
        // cluster's blocks serialized, not merged; MIs split at the cluster's LSU count.
        Scenario::ClusterLocal => {
            let s = schedule(scheduler, config.clusters)?;
            (0..config.clusters)
                .map(|c| {
                    let queue = s.slot_queue(c);
                    let mut a = ReuseDegreeAnalyzer::new(max_rd);
                    push_blocks(&mut a, queue.iter().map(|&b| &blocks[b]), config.lsu);
                    StreamResult {
                        label: StreamLabel::Cluster(c),
                        blocks: queue.len(),
                        histogram: a.finish(),
                    }
                })
                .collect()
        }
        // See: section 6.6: the clusters' concurrent blocks merged into aggregate blocks that
        // run on one cluster with the load/store units of all clusters.
        Scenario::ClusterAggregate => {
            let s = schedule(scheduler, config.clusters)?;
            aggregate_blocks = s.arrays.len();
            let mut a = ReuseDegreeAnalyzer::new(max_rd);
            push_aggregates(
                &mut a,
                blocks,
                &s,
                config.lsu.saturating_mul(config.clusters),
            );
            vec![grid_stream(a.finish(), n)]
        }
    };
    let mut total = DsHistogram::new(max_rd);
    for s in &streams {
        total.merge(&s.histogram);
    }
    Ok(ScenarioResult {
        config: config.clone(),
        scheduler: match config.scenario {
            Scenario::ConcurrentBlocks | Scenario::ClusterLocal | Scenario::ClusterAggregate => {
                scheduler.name()
            }
            _ => "none".into(),
        },
        blocks: n,
        aggregate_blocks,
        streams,
        total,
    })
}

fn check(config: &ScenarioConfig) -> Result<()> {
    let bad = |what: &str| Err(SimtError::InvalidConfig(what.into()));
    match config.scenario {
        Scenario::ConcurrentBlocks if config.concurrent_blocks == 0 => {
            bad("scenario 4 needs at least one concurrent block (K ≥ 1)")
        }
        Scenario::ClusterLocal | Scenario::ClusterAggregate if config.clusters == 0 => {
            bad("scenarios 5 and 6 need at least one core cluster")
        }
        Scenario::ClusterLocal | Scenario::ClusterAggregate if config.lsu == 0 => {
            bad("scenarios 5 and 6 need at least one load/store unit per cluster")
        }
        _ if config.max_rd == Some(0) => bad("the reuse-distance window must be at least 1"),
        _ => Ok(()),
    }
}

/// The result of the one stream of the whole grid, over `blocks` blocks.
fn grid_stream(histogram: DsHistogram, blocks: usize) -> StreamResult {
    StreamResult {
        label: StreamLabel::Grid,
        blocks,
        histogram,
    }
}

/// The histogram of `mis` as one stream (MIs whole, no load/store unit limit), with a window
/// in segments on all CPUs ([`analyze_lane_stream`]: the same histogram as one analyzer's).
fn stream_on_cpus<'a>(mis: impl Iterator<Item = &'a MemInstr>, max_rd: Option<u64>) -> DsHistogram {
    let lanes: Vec<&[u64]> = mis.map(|mi| mi.lanes.as_slice()).collect();
    let threads = std::thread::available_parallelism().map_or(1, |c| c.get());
    analyze_lane_stream(&lanes, max_rd, threads)
}

/// Pushes blocks one after another (their positions are renumbered by the analyzer: thesis
/// Algorithm 5), splitting MIs wider than `lsu` lanes.
fn push_blocks<'a>(
    a: &mut ReuseDegreeAnalyzer,
    blocks: impl Iterator<Item = &'a BlockStream>,
    lsu: usize,
) {
    for block in blocks {
        for mi in &block.mis {
            split_for_lsu(&mi.lanes, lsu, |g| a.push_lanes(g));
        }
    }
}

/// Merges each array of the schedule into an aggregate block and pushes them in order.
fn push_aggregates(a: &mut ReuseDegreeAnalyzer, blocks: &[BlockStream], s: &Schedule, lsu: usize) {
    for array in &s.arrays {
        let members: Vec<&BlockStream> = array.iter().map(|&b| &blocks[b]).collect();
        let agg = aggregate_block(&members);
        push_blocks(a, std::iter::once(&agg), lsu);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mi::MemInstr;
    use crate::schedule::Sequential;

    /// A 1-D 3-point stencil kernel: thread g loads x[g], x[g+1], x[g+2] (three MIs per block).
    fn stencil(threads: u64, block: u64) -> Kernel {
        let blocks = (0..threads.div_ceil(block))
            .map(|b| {
                let g: Vec<u64> = (b * block..((b + 1) * block).min(threads)).collect();
                BlockStream {
                    id: b,
                    mis: (0..3)
                        .map(|k| MemInstr {
                            pc: k,
                            pos: k + 1,
                            gpos: 0,
                            lanes: g.iter().map(|t| t + k).collect(),
                        })
                        .collect(),
                }
            })
            .collect();
        Kernel {
            name: "stencil".into(),
            blocks,
        }
    }

    fn run(k: &Kernel, f: impl FnOnce(&mut ScenarioConfig)) -> ScenarioResult {
        let mut c = ScenarioConfig::default();
        f(&mut c);
        run_scenario(k, &c).unwrap()
    }

    #[test]
    fn scenario_numbers_round_trip() {
        for s in Scenario::ALL {
            assert_eq!(Scenario::from_number(s.number()), Some(s));
        }
        assert_eq!(Scenario::from_number(0), None);
        assert_eq!(Scenario::from_number(7), None);
    }

    #[test]
    fn within_block_stencil_reuse() {
        // Per block of T = 8: (L0,L1) and (L1,L2) share T-1 addresses, (L0,L2) T-2.
        let r = run(&stencil(32, 8), |c| c.scenario = Scenario::WithinBlock);
        assert_eq!(r.streams.len(), 4);
        for s in &r.streams {
            assert_eq!(s.histogram.ds, vec![0, 14, 6]);
        }
        assert_eq!(r.total.ds, vec![0, 56, 24]);
    }

    #[test]
    fn serialized_blocks_add_cross_block_reuse() {
        // Block k's L1 {g0+1..g0+8} and L2 {g0+2..g0+9} meet block k+1's L0 {g0+8..}: L2 → L0 at
        // RD 1 shares {g0+8, g0+9}; L1 → L0 at RD 2 shares {g0+8}; L2 → L1 at RD 2 shares {g0+9}.
        let r = run(&stencil(32, 8), |c| c.scenario = Scenario::SerializedBlocks);
        assert_eq!(r.total.ds, vec![0, 4 * 14 + 3 * 2, 4 * 6 + 3 * 2]);
    }

    #[test]
    fn all_blocks_parallel_is_one_wide_block() {
        let r = run(&stencil(32, 8), |c| {
            c.scenario = Scenario::AllBlocksParallel
        });
        assert_eq!(r.aggregate_blocks, 1);
        let one_block = run(&stencil(32, 32), |c| c.scenario = Scenario::WithinBlock);
        assert_eq!(r.total, one_block.total);
        assert_eq!(r.total.ds, vec![0, 62, 30]);
    }

    #[test]
    fn k_concurrent_blocks_equal_wider_serialized_blocks() {
        let r = run(&stencil(32, 8), |c| {
            c.scenario = Scenario::ConcurrentBlocks;
            c.concurrent_blocks = 2;
        });
        let wide = run(&stencil(32, 16), |c| {
            c.scenario = Scenario::SerializedBlocks
        });
        assert_eq!(r.aggregate_blocks, 2);
        assert_eq!(r.total.ds, wide.total.ds);
    }

    #[test]
    fn cluster_local_splits_mis_at_the_lsu_count() {
        // 2 clusters, blocks of 8 split into MIs of 4 lanes: the cluster streams hold blocks
        // {0, 2} and {1, 3}, which are 16 threads apart, so no reuse crosses blocks.
        let r = run(&stencil(32, 8), |c| {
            c.scenario = Scenario::ClusterLocal;
            c.clusters = 2;
            c.lsu = 4;
        });
        assert_eq!(r.streams.len(), 2);
        assert_eq!(r.streams[0].blocks, 2);
        assert_eq!(r.streams[0].histogram.mis, 12);
        // Per block, pieces a/b of L0 {0..3},{4..7}, L1 {1..4},{5..8}, L2 {2..5},{6..9}:
        // RD1: L0b→L1a {4}, L1b→L2a {5}; RD2: L0a→L1a 3, L0b→L1b 3, L1a→L2a 3, L1b→L2b 3;
        // RD3: L0b→L2a {4,5}; RD4: L0a→L2a 2, L0b→L2b 2.
        assert_eq!(
            r.streams[0].histogram.ds,
            vec![0, 2 * 2, 2 * 12, 2 * 2, 2 * 4]
        );
    }

    #[test]
    fn cluster_aggregate_with_ample_lsus_equals_k_concurrent() {
        let k = stencil(40, 8);
        let s6 = run(&k, |c| {
            c.scenario = Scenario::ClusterAggregate;
            c.clusters = 2;
            c.lsu = 64;
        });
        let s4 = run(&k, |c| {
            c.scenario = Scenario::ConcurrentBlocks;
            c.concurrent_blocks = 2;
        });
        assert_eq!(s6.total, s4.total);
        assert_eq!(s6.aggregate_blocks, 3);
    }

    #[test]
    fn custom_schedulers_are_validated() {
        struct Broken;
        impl BlockScheduler for Broken {
            fn name(&self) -> String {
                "broken".into()
            }
            fn schedule(&mut self, _: &[BlockStream], slots: usize) -> Schedule {
                Schedule {
                    slots,
                    arrays: vec![vec![0]],
                }
            }
        }
        let c = ScenarioConfig {
            scenario: Scenario::ConcurrentBlocks,
            ..Default::default()
        };
        let e = run_scenario_with(&stencil(16, 8), &c, &mut Broken).unwrap_err();
        assert!(e.to_string().contains("broken"), "{e}");
        let ok = run_scenario_with(&stencil(16, 8), &c, &mut Sequential).unwrap();
        assert_eq!(ok.scheduler, "sequential");
    }

    #[test]
    fn invalid_configurations_are_rejected() {
        let k = stencil(8, 8);
        for f in [
            (|c: &mut ScenarioConfig| {
                c.scenario = Scenario::ConcurrentBlocks;
                c.concurrent_blocks = 0
            }) as fn(&mut ScenarioConfig),
            |c| {
                c.scenario = Scenario::ClusterLocal;
                c.lsu = 0
            },
            |c| {
                c.scenario = Scenario::ClusterAggregate;
                c.clusters = 0
            },
            |c| c.max_rd = Some(0),
        ] {
            let mut c = ScenarioConfig::default();
            f(&mut c);
            assert!(matches!(
                run_scenario(&k, &c),
                Err(SimtError::InvalidConfig(_))
            ));
        }
    }
}
