//! Value parsers of flags that several commands share (clap calls them; a bad value is a usage
//! error, exit status 2).

use anyhow::Result;
use rdcachesim::CacheConfig;
use std::path::PathBuf;

/// Parses a cache geometry flag (`SIZE:WAYS:LINE`, see [`CacheConfig::parse`]).
pub fn parse_cache(s: &str) -> Result<CacheConfig, String> {
    CacheConfig::parse(s).map_err(|e| e.to_string())
}

/// Parses `--real CORES=TRACE`: a real run's core count (at least 1) and trace.
pub fn parse_real(s: &str) -> Result<(usize, PathBuf), String> {
    let (m, p) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected CORES=TRACE"))?;
    match m.trim().parse::<usize>() {
        Ok(m) if m >= 1 && !p.is_empty() => Ok((m, PathBuf::from(p))),
        _ => Err(format!("`{s}`: expected CORES=TRACE with CORES at least 1")),
    }
}

/// Cache geometry flags.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// Private L1 per thread (per core in the model) as SIZE:WAYS:LINE (WAYS may be `full`).
    #[arg(long, default_value = "8K:8:64", value_parser = parse_cache)]
    pub l1: CacheConfig,
    /// Shared L2 as SIZE:WAYS:LINE (annotate and html need the L1's line size).
    #[arg(long, default_value = "128K:16:64", value_parser = parse_cache)]
    pub l2: CacheConfig,
}

impl CacheArgs {
    /// Both levels (the CLI checks them against each other where they must agree).
    pub fn parse(&self) -> Result<(CacheConfig, CacheConfig)> {
        Ok((self.l1, self.l2))
    }
}
