//! SHARDS sampling flags of `histogram` (`--sample-rate`, `--sample-max-blocks`) and `live`
//! (`--shards-rate`, `--shards-max-blocks`).

use super::EngineChoice;
use crate::commands::flags::{fraction, int_in, Ends, FOUR_G};
use crate::exit::usage;
use anyhow::Result;
use rdengines::shards::{SampleStats, ShardsConfig, ShardsEngine};
use rdengines::{EngineKind, ReuseEngine};

/// SHARDS settings from either command's flags.
#[derive(Debug, Clone, Default)]
pub struct SampleArgs {
    /// Sampling rate R.
    pub sample_rate: Option<f64>,
    /// Fixed-size bound S.
    pub sample_max_blocks: Option<usize>,
    /// Hash salt.
    pub sample_seed: u64,
    /// Skip SHARDS_adj.
    pub no_sample_adjust: bool,
}

/// `histogram`'s sampling flags (`--sample-rate`, `--sample-max-blocks`; `--shards-*` as in
/// `live` are accepted too).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct HistogramSampleArgs {
    /// SHARDS spatial sampling: analyse only the blocks whose hash falls below R·2^24 and scale
    /// the result back to the full trace (approximate; 1/2^24 <= R <= 1, e.g. 0.01).
    #[arg(long, value_name = "R", alias = "shards-rate",
          value_parser = fraction("--sample-rate", Ends::AboveZero), allow_negative_numbers = true)]
    pub sample_rate: Option<f64>,
    /// Fixed-size SHARDS: track at most S sampled blocks, lowering the rate as needed (starts at
    /// --sample-rate, or 1; 1 <= S <= 2^32).
    #[arg(long, value_name = "S", alias = "shards-max-blocks",
          value_parser = int_in("--sample-max-blocks", 1usize, FOUR_G as usize), allow_negative_numbers = true)]
    pub sample_max_blocks: Option<usize>,
    /// Salt of the sampling hash (another salt draws another sample; any 64-bit unsigned
    /// integer).
    #[arg(long, value_name = "N", default_value_t = 0, alias = "shards-seed",
          value_parser = int_in("--sample-seed", 0u64, u64::MAX), allow_negative_numbers = true)]
    pub sample_seed: u64,
    /// Skip SHARDS_adj (the correction of the first bucket to the trace's reference count).
    #[arg(long, alias = "no-shards-adjust")]
    pub no_sample_adjust: bool,
}

impl HistogramSampleArgs {
    /// The settings.
    pub fn get(&self) -> SampleArgs {
        SampleArgs {
            sample_rate: self.sample_rate,
            sample_max_blocks: self.sample_max_blocks,
            sample_seed: self.sample_seed,
            no_sample_adjust: self.no_sample_adjust,
        }
    }
}

/// `live`'s sampling flags: `--shards-*`, because `--sample-rate` there already names SASMM's
/// window sampling (Alg. 3) of `--predict`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct LiveSampleArgs {
    /// SHARDS spatial sampling of the histogram at rate R (as `histogram --sample-rate`;
    /// 1/2^24 <= R <= 1).
    #[arg(long, value_name = "R",
          value_parser = fraction("--shards-rate", Ends::AboveZero), allow_negative_numbers = true)]
    pub shards_rate: Option<f64>,
    /// Fixed-size SHARDS (as `histogram --sample-max-blocks`; 1 <= S <= 2^32).
    #[arg(long, value_name = "S",
          value_parser = int_in("--shards-max-blocks", 1usize, FOUR_G as usize), allow_negative_numbers = true)]
    pub shards_max_blocks: Option<usize>,
    /// Salt of the sampling hash (any 64-bit unsigned integer).
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = int_in("--shards-seed", 0u64, u64::MAX), allow_negative_numbers = true)]
    pub shards_seed: u64,
    /// Skip SHARDS_adj.
    #[arg(long)]
    pub no_shards_adjust: bool,
}

impl LiveSampleArgs {
    /// The settings.
    pub fn get(&self) -> SampleArgs {
        SampleArgs {
            sample_rate: self.shards_rate,
            sample_max_blocks: self.shards_max_blocks,
            sample_seed: self.shards_seed,
            no_sample_adjust: self.no_shards_adjust,
        }
    }
}

impl SampleArgs {
    /// Whether any sampling was asked for.
    pub fn enabled(&self) -> bool {
        self.sample_rate.is_some() || self.sample_max_blocks.is_some()
    }

    /// The SHARDS settings, or `None` without sampling flags (a usage error when out of range).
    pub fn config(&self, bound: Option<u64>) -> Result<Option<ShardsConfig>> {
        if !self.enabled() {
            return Ok(None);
        }
        let cfg = ShardsConfig {
            rate: self.sample_rate.unwrap_or(1.0),
            max_blocks: self.sample_max_blocks,
            bound,
            adjust: !self.no_sample_adjust,
            seed: self.sample_seed,
        };
        cfg.threshold().map_err(|e| usage(e.to_string()))?;
        Ok(Some(cfg))
    }

    /// The sampling engine for `engine`: sampling runs its own exact stack, so only the
    /// default engine (`fast`) can be sampled.
    pub fn engine(
        &self,
        engine: EngineChoice,
        bound: Option<u64>,
    ) -> Result<Option<Box<dyn ReuseEngine>>> {
        let Some(cfg) = self.config(bound)? else {
            return Ok(None);
        };
        if engine != EngineChoice::Cpu(EngineKind::Fast) {
            return Err(usage(format!(
                "SHARDS sampling runs its own exact stack; drop --engine {engine}"
            )));
        }
        let e = ShardsEngine::new(cfg).map_err(|e| usage(e.to_string()))?;
        Ok(Some(Box::new(e)))
    }
}

/// Adds what one engine's sampling did (per-thread engines) to the running total.
pub fn accumulate(total: &mut Option<SampleStats>, s: Option<SampleStats>) {
    if let Some(s) = s {
        match total {
            Some(a) => a.merge(&s),
            None => *total = Some(s),
        }
    }
}
