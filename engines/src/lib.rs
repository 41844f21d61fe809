//! Reuse-distance engines behind one trait.
//!
//! An engine consumes a stream of block addresses (already reduced to a [`Granularity`]) and
//! produces a [`Histogram`]. Engines: the Olken tree baseline, a fast exact engine (the default),
//! PARDA (exact, parallel) and HP-RDA (approximate, parallel), plus the naive LRU stack used as
//! the test oracle. Every engine can run bounded (distances ≥ B counted as overflow).
//!
//! Architecture invariant: this crate does no IO and knows nothing of LLVM or the trace format.

pub mod accum;
pub mod balance;
pub mod batched;
pub mod blockmap;
pub mod cpu;
pub mod fast;
pub mod fast_engine;
pub mod front;
pub mod granularity;
pub mod histogram;
pub mod hprda;
pub mod last_line;
pub mod liveset;
pub mod naive;
pub mod olken;
pub mod parda;
pub mod rng;
pub mod shards;
pub mod table;
pub mod workload;

pub use fast::FastCore;
pub use fast_engine::FastEngine;
pub use front::FrontedStack;
pub use granularity::{Granularity, LineSize};
pub use histogram::Histogram;
pub use hprda::{histogram_error, HpRdaConfig, HpRdaEngine};
pub use last_line::LastLineStack;
pub use naive::NaiveEngine;
pub use olken::OlkenEngine;
pub use parda::{PardaConfig, PardaEngine};
pub use rng::SplitMix64;
pub use shards::{SampleStats, ShardsConfig, ShardsEngine};
pub use table::mix64;

use std::fmt;
use std::str::FromStr;

/// A reuse-distance engine: feed it blocks in order, then take its histogram.
pub trait ReuseEngine: Send {
    /// Short name used on the command line (`olken`, `fast`, `parda`, `hprda`, `naive`).
    fn name(&self) -> &'static str;
    /// Whether the histogram is exact (equal to a naive LRU stack's).
    fn is_exact(&self) -> bool;
    /// Processes the next blocks of the stream, in order.
    fn process(&mut self, blocks: &[u64]);
    /// Ends the stream and returns the histogram.
    fn finish(self: Box<Self>) -> Histogram;
    /// What sampling did so far, for sampling engines ([`ShardsEngine`]); `None` for the
    /// others.
    fn sample_stats(&self) -> Option<SampleStats> {
        None
    }
    /// Why the engine could not analyse the whole stream (it then ignores the rest), or `None`.
    /// Drivers check it before [`ReuseEngine::finish`] and report it as an error.
    fn failure(&self) -> Option<String> {
        None
    }
}

/// Which engine to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// Hash map + order-statistic treap (PARDA Alg. 1–2, Olken): the classic baseline.
    Olken,
    /// The fast exact engine (bitmap/popcount counting, compacted slots): the default.
    #[default]
    Fast,
    /// PARDA: exact, multi-threaded, streaming, optionally bounded.
    Parda,
    /// HP-RDA: approximate, multi-threaded.
    HpRda,
    /// The naive O(N·M) LRU stack (test oracle; only for small traces).
    Naive,
}

impl EngineKind {
    /// All kinds, in a fixed order.
    pub const ALL: [EngineKind; 5] = [
        EngineKind::Olken,
        EngineKind::Fast,
        EngineKind::Parda,
        EngineKind::HpRda,
        EngineKind::Naive,
    ];

    /// The command-line name.
    pub fn as_str(self) -> &'static str {
        match self {
            EngineKind::Olken => "olken",
            EngineKind::Fast => "fast",
            EngineKind::Parda => "parda",
            EngineKind::HpRda => "hprda",
            EngineKind::Naive => "naive",
        }
    }

    /// Whether the engine's histogram is exact.
    pub fn is_exact(self) -> bool {
        self != EngineKind::HpRda
    }
}

impl fmt::Display for EngineKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for an unknown engine name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown engine `{0}` (expected one of: olken, fast, parda, hprda, naive)")]
pub struct UnknownEngine(pub String);

impl FromStr for EngineKind {
    type Err = UnknownEngine;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "olken" => Ok(EngineKind::Olken),
            "fast" => Ok(EngineKind::Fast),
            "parda" => Ok(EngineKind::Parda),
            "hprda" | "hp-rda" => Ok(EngineKind::HpRda),
            "naive" => Ok(EngineKind::Naive),
            _ => Err(UnknownEngine(s.to_string())),
        }
    }
}

/// Settings shared by all engines (each uses the ones that apply to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Worker threads of the parallel engines (PARDA ranks, HP-RDA pool). 0 means 1 for PARDA
    /// and rayon's default for HP-RDA.
    pub threads: usize,
    /// PARDA chunk size C (references per rank per phase).
    pub chunk: usize,
    /// Cache bound B: distances ≥ B are counted as overflow (all engines).
    pub bound: Option<u64>,
    /// HP-RDA settings (its `threads` is overridden by [`EngineConfig::threads`] when that is
    /// non-zero).
    pub hprda: HpRdaConfig,
}

impl Default for EngineConfig {
    fn default() -> Self {
        let p = PardaConfig::default();
        EngineConfig {
            threads: p.threads,
            chunk: p.chunk,
            bound: None,
            hprda: HpRdaConfig::default(),
        }
    }
}

impl EngineConfig {
    /// The PARDA configuration these settings describe.
    pub fn parda(&self) -> PardaConfig {
        PardaConfig {
            threads: self.threads.max(1),
            chunk: self.chunk,
            bound: self.bound,
        }
    }
}

/// Builds an engine of the given kind.
pub fn make_engine(kind: EngineKind, cfg: &EngineConfig) -> Box<dyn ReuseEngine> {
    match kind {
        EngineKind::Olken => Box::new(OlkenEngine::with_bound(cfg.bound)),
        EngineKind::Fast => Box::new(FastEngine::with_bound(cfg.bound)),
        EngineKind::Parda => Box::new(PardaEngine::new(cfg.parda())),
        EngineKind::HpRda => {
            let mut h = cfg.hprda;
            if cfg.threads > 0 {
                h.threads = cfg.threads;
            }
            Box::new(HpRdaEngine::new(h, cfg.bound))
        }
        EngineKind::Naive => Box::new(NaiveEngine::with_bound(cfg.bound)),
    }
}

/// Runs `kind` over `blocks` in one go and returns its histogram.
pub fn analyse(kind: EngineKind, cfg: &EngineConfig, blocks: &[u64]) -> Histogram {
    let mut e = make_engine(kind, cfg);
    e.process(blocks);
    e.finish()
}
