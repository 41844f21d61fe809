//! The engine a command runs: `--engine`'s choices, the engines' configuration and construction.

use crate::exit::usage;
use anyhow::Result;
use rdengines::{make_engine, EngineConfig, EngineKind, Granularity, ReuseEngine};

/// Maps the engine flags onto the engines' configuration.
pub fn engine_config(
    threads: Option<usize>,
    bound: Option<u64>,
    chunk: Option<usize>,
) -> EngineConfig {
    let mut cfg = EngineConfig::default();
    if let Some(t) = threads {
        cfg.threads = t.max(1);
    }
    if bound.is_some() {
        cfg.bound = bound;
    }
    if let Some(c) = chunk {
        cfg.chunk = c.max(1);
    }
    cfg
}

/// An engine of `rdengines` or the GPU engine of `rdgpu`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// A CPU engine.
    Cpu(EngineKind),
    /// HP-RDA on the GPU (`hprda-gpu`, build feature `gpu`).
    HpRdaGpu,
    /// PARDA over MPI ranks (`parda-mpi`, build feature `mpi`; `histogram` only).
    PardaMpi,
}

impl std::fmt::Display for EngineChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineChoice::Cpu(k) => k.fmt(f),
            EngineChoice::HpRdaGpu => f.write_str("hprda-gpu"),
            EngineChoice::PardaMpi => f.write_str("parda-mpi"),
        }
    }
}

/// Parses `--engine` (a usage error, exit status 2, when unknown).
pub fn parse_engine(s: &str) -> Result<EngineChoice, String> {
    if matches!(
        s.trim().to_ascii_lowercase().as_str(),
        "hprda-gpu" | "hp-rda-gpu"
    ) {
        return if cfg!(feature = "gpu") {
            Ok(EngineChoice::HpRdaGpu)
        } else {
            Err("engine hprda-gpu needs rda-report built with `--features gpu`".into())
        };
    }
    if matches!(s.trim().to_ascii_lowercase().as_str(), "parda-mpi") {
        return if cfg!(feature = "mpi") {
            Ok(EngineChoice::PardaMpi)
        } else {
            Err("engine parda-mpi needs rda-report built with `--features mpi`".into())
        };
    }
    s.parse()
        .map(EngineChoice::Cpu)
        .map_err(|e: rdengines::UnknownEngine| format!("{e}, hprda-gpu or parda-mpi"))
}

/// Builds the chosen engine (opening the GPU for `hprda-gpu`: an error when there is none).
pub fn build_engine(
    choice: EngineChoice,
    cfg: &EngineConfig,
    adapter: Option<&str>,
) -> Result<Box<dyn ReuseEngine>> {
    match choice {
        EngineChoice::Cpu(k) => Ok(make_engine(k, cfg)),
        #[cfg(feature = "gpu")]
        EngineChoice::HpRdaGpu => crate::commands::gpu::engine(cfg, adapter),
        #[cfg(not(feature = "gpu"))]
        EngineChoice::HpRdaGpu => {
            let _ = adapter;
            anyhow::bail!("engine hprda-gpu needs rda-report built with `--features gpu`")
        }
        EngineChoice::PardaMpi => Err(usage(
            "engine parda-mpi runs only in `histogram` (as `mpirun -np P rda-report histogram TRACE --engine parda-mpi`)",
        )),
    }
}

/// The granularity for a line size already checked by [`parse_line`].
pub fn granularity(line: u32) -> Granularity {
    if line <= 1 {
        Granularity::Byte
    } else {
        Granularity::Line(line)
    }
}
