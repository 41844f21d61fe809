//! [`CacheConfig`]: size, associativity and line size, parsed from `"8K:8:64"`.

use crate::CacheSimError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Geometry of one cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CacheConfig {
    /// Capacity in bytes.
    pub size: u64,
    /// Associativity (lines per set); equal to [`CacheConfig::lines`] for a fully associative
    /// cache, 1 for a direct-mapped one.
    pub ways: u32,
    /// Line size in bytes (a power of two).
    pub line: u32,
}

impl Default for CacheConfig {
    /// The SASMM paper's L1: 8 KiB, 8-way, 64-byte lines.
    fn default() -> Self {
        CacheConfig {
            size: 8 << 10,
            ways: 8,
            line: 64,
        }
    }
}

impl CacheConfig {
    /// The SASMM paper's shared L2: 128 KiB, 16-way, 64-byte lines.
    pub fn paper_l2() -> Self {
        CacheConfig {
            size: 128 << 10,
            ways: 16,
            line: 64,
        }
    }

    /// Builds and validates a geometry.
    pub fn new(size: u64, ways: u32, line: u32) -> Result<Self, CacheSimError> {
        let c = CacheConfig { size, ways, line };
        c.validate().map_err(|why| CacheSimError::BadSpec {
            spec: c.to_string(),
            why,
        })?;
        Ok(c)
    }

    fn validate(&self) -> Result<(), String> {
        if let Err(e) = rdengines::LineSize::new(self.line) {
            return Err(format!("line size {e}"));
        }
        if self.ways == 0 {
            return Err("associativity must be at least 1".into());
        }
        let set_bytes = self.line as u64 * self.ways as u64;
        if self.size == 0 || self.size.checked_rem(set_bytes) != Some(0) {
            return Err(format!(
                "size {} is not a positive multiple of ways x line = {set_bytes}",
                self.size
            ));
        }
        Ok(())
    }

    /// Parses `SIZE:WAYS:LINE`; SIZE takes an optional `K`, `M` or `G` suffix (powers of 1024)
    /// and WAYS may be `full` for a fully associative cache.
    pub fn parse(spec: &str) -> Result<Self, CacheSimError> {
        let bad = |why: String| CacheSimError::BadSpec {
            spec: spec.to_string(),
            why,
        };
        let parts: Vec<&str> = spec.trim().split(':').collect();
        if parts.len() != 3 {
            return Err(bad(format!("{} fields", parts.len())));
        }
        let size = parse_size(parts[0]).ok_or_else(|| bad(format!("size `{}`", parts[0])))?;
        let line: u32 = parts[2]
            .trim()
            .parse()
            .map_err(|_| bad(format!("line size `{}`", parts[2])))?;
        let ways: u32 = if parts[1].trim().eq_ignore_ascii_case("full") {
            if line == 0 {
                return Err(bad("line size 0".into()));
            }
            u32::try_from(size / line as u64).map_err(|_| bad("too many lines".into()))?
        } else {
            parts[1]
                .trim()
                .parse()
                .map_err(|_| bad(format!("associativity `{}`", parts[1])))?
        };
        let c = CacheConfig { size, ways, line };
        c.validate().map_err(bad)?;
        Ok(c)
    }

    /// Number of lines (the paper's B).
    pub fn lines(&self) -> u64 {
        self.size / self.line as u64
    }

    /// Number of sets.
    pub fn sets(&self) -> u64 {
        self.lines() / self.ways as u64
    }

    /// Low address bits dropped to get the line address.
    pub fn line_shift(&self) -> u32 {
        self.line.trailing_zeros()
    }

    /// Calls `f` with the line address of every line that `len` bytes at `addr` touch.
    #[inline]
    pub fn for_each_line(&self, addr: u64, len: u64, f: impl FnMut(u64)) {
        rdengines::granularity::for_each_block(self.line_shift(), addr, len, f)
    }
}

fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().last()? {
        (i, 'k' | 'K') => (&s[..i], 1u64 << 10),
        (i, 'm' | 'M') => (&s[..i], 1 << 20),
        (i, 'g' | 'G') => (&s[..i], 1 << 30),
        _ => (s, 1),
    };
    num.trim().parse::<u64>().ok()?.checked_mul(mult)
}

impl fmt::Display for CacheConfig {
    /// Writes the geometry back in `parse` form, with the largest exact K/M/G suffix.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size;
        let s = if size >= 1 << 30 && size.trailing_zeros() >= 30 {
            format!("{}G", size >> 30)
        } else if size >= 1 << 20 && size.trailing_zeros() >= 20 {
            format!("{}M", size >> 20)
        } else if size >= 1 << 10 && size.trailing_zeros() >= 10 {
            format!("{}K", size >> 10)
        } else {
            size.to_string()
        };
        write!(f, "{s}:{}:{}", self.ways, self.line)
    }
}

impl FromStr for CacheConfig {
    type Err = CacheSimError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        CacheConfig::parse(s)
    }
}
