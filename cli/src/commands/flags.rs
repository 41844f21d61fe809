//! Value parsers of flags that several commands share, and the bounds of numeric flags (clap
//! calls the parsers; a bad value is a usage error, exit status 2, whose message says what the
//! flag accepts). Every numeric flag states its range in `--help` and is parsed by one of
//! these, so no value can make a command start absurdly many threads or allocate absurdly much.

use anyhow::Result;
use rdcachesim::CacheConfig;
use std::fmt::Display;
use std::path::PathBuf;
use std::str::FromStr;

/// Most worker threads a parallel engine may start (`--threads`).
pub const MAX_THREADS: usize = 1024;
/// Most cores a model predicts for, or a real run is labelled with (`--cores`, `--real`).
pub const MAX_CORES: u16 = 1024;
/// Largest line (or memory element) size in bytes (`--line`, a cache's LINE, `line:BYTES`).
pub const MAX_LINE: u32 = 4096;
/// Most lines a simulated cache may hold (`--l1`, `--l2`: SIZE / LINE): 16 Mi lines, 1 GiB of
/// 64-byte lines (the simulators keep state per line).
pub const MAX_CACHE_LINES: u64 = 1 << 24;
/// 2^32, the upper bound of counts that only bound what is printed or sampled.
pub const FOUR_G: u64 = 1 << 32;

/// An integer flag's parser: values in `lo..=hi`, anything else (negative, too large, not a
/// number) a usage error naming the flag and its range.
pub fn int_in<T>(
    flag: &'static str,
    lo: T,
    hi: T,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |s: &str| match s.trim().parse::<T>() {
        Ok(v) if v >= lo && v <= hi => Ok(v),
        _ => Err(format!("{flag} must be an integer from {lo} to {hi}")),
    }
}

/// Which ends of a fraction's range belong to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ends {
    /// `(0, 1]`.
    AboveZero,
    /// `[0, 1)`.
    BelowOne,
    /// `[0, 1]`.
    Both,
}

/// A fraction flag's parser: a number in the range `ends` names, anything else a usage error
/// naming the flag and its range.
pub fn fraction(
    flag: &'static str,
    ends: Ends,
) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |s: &str| {
        let ok = |x: f64| match ends {
            Ends::AboveZero => x > 0.0 && x <= 1.0,
            Ends::BelowOne => (0.0..1.0).contains(&x),
            Ends::Both => (0.0..=1.0).contains(&x),
        };
        let range = match ends {
            Ends::AboveZero => "(0, 1]",
            Ends::BelowOne => "[0, 1)",
            Ends::Both => "[0, 1]",
        };
        match s.trim().parse::<f64>() {
            Ok(x) if ok(x) => Ok(x),
            _ => Err(format!("{flag} must be a fraction in {range}")),
        }
    }
}

/// A line or element size in bytes: a power of two from 1 to [`MAX_LINE`] (`what` names the
/// flag in the message).
pub fn line_size(what: &str, s: &str) -> Result<u32, String> {
    let rule = format!("{what} must be a power of two between 1 and {MAX_LINE}");
    match s.trim().parse::<u64>() {
        Ok(n) if n <= MAX_LINE as u64 && (n as u32).is_power_of_two() => Ok(n as u32),
        Ok(n) if n > MAX_LINE as u64 => Err(format!("{n} is too large: {rule}")),
        Ok(n) => Err(format!("{n} is not a power of two: {rule}")),
        Err(_) => Err(format!("{s:?} is not a number of bytes: {rule}")),
    }
}

/// Parses a cache geometry flag (`SIZE:WAYS:LINE`, see [`CacheConfig::parse`]) of at most
/// [`MAX_CACHE_LINES`] lines of at most [`MAX_LINE`] bytes.
pub fn parse_cache(s: &str) -> Result<CacheConfig, String> {
    let c = CacheConfig::parse(s).map_err(|e| e.to_string())?;
    if c.line as u64 > MAX_LINE as u64 {
        return Err(format!(
            "`{s}`: lines of {} bytes; a cache's LINE must be at most {MAX_LINE}",
            c.line
        ));
    }
    if c.lines() > MAX_CACHE_LINES {
        return Err(format!(
            "`{s}`: {} lines; a simulated cache holds at most {MAX_CACHE_LINES} lines (SIZE / LINE; \
             1G with 64-byte lines)",
            c.lines()
        ));
    }
    Ok(c)
}

/// Parses `--real CORES=TRACE`: a real run's core count (1 to [`MAX_CORES`]) and trace.
pub fn parse_real(s: &str) -> Result<(usize, PathBuf), String> {
    let (m, p) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected CORES=TRACE"))?;
    match m.trim().parse::<usize>() {
        Ok(m) if (1..=MAX_CORES as usize).contains(&m) && !p.is_empty() => {
            Ok((m, PathBuf::from(p)))
        }
        _ => Err(format!(
            "`{s}`: expected CORES=TRACE with CORES from 1 to {MAX_CORES}"
        )),
    }
}

/// Cache geometry flags.
#[derive(clap::Args, Debug, Clone)]
pub struct CacheArgs {
    /// Private L1 per thread (per core in the model) as SIZE:WAYS:LINE (WAYS may be `full`;
    /// LINE a power of two up to 4096, at most 16 Mi lines).
    #[arg(long, default_value = "8K:8:64", value_parser = parse_cache)]
    pub l1: CacheConfig,
    /// Shared L2 as SIZE:WAYS:LINE (annotate and html need the L1's line size; at most 16 Mi
    /// lines).
    #[arg(long, default_value = "128K:16:64", value_parser = parse_cache)]
    pub l2: CacheConfig,
}

impl CacheArgs {
    /// Both levels (the CLI checks them against each other where they must agree).
    pub fn parse(&self) -> Result<(CacheConfig, CacheConfig)> {
        Ok((self.l1, self.l2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_outside_the_range_name_the_flag_and_the_range() {
        let p = int_in("--threads", 1usize, MAX_THREADS);
        assert_eq!(p("4"), Ok(4));
        assert_eq!(p("1024"), Ok(1024));
        for bad in ["0", "1025", "-1", "x", "99999999999999999999999"] {
            assert_eq!(
                p(bad),
                Err("--threads must be an integer from 1 to 1024".to_string()),
                "{bad}"
            );
        }
    }

    #[test]
    fn fractions_and_line_sizes() {
        let f = fraction("--drop-below", Ends::BelowOne);
        assert_eq!(f("0"), Ok(0.0));
        assert!(f("1").unwrap_err().contains("[0, 1)"));
        assert!(f("-0.5").is_err());
        assert_eq!(line_size("--line", "64"), Ok(64));
        assert_eq!(line_size("--line", "1"), Ok(1));
        assert!(line_size("--line", "48")
            .unwrap_err()
            .contains("48 is not a power of two"));
        for bad in ["0", "8192", "-1", "99999999999"] {
            assert!(
                line_size("--line", bad)
                    .unwrap_err()
                    .contains("--line must be a power of two between 1 and 4096"),
                "{bad}"
            );
        }
    }

    #[test]
    fn caches_are_bounded() {
        assert!(parse_cache("1G:16:64").is_ok());
        assert!(parse_cache("1024G:16:64").unwrap_err().contains("at most"));
        assert!(parse_cache("64M:full:1").unwrap_err().contains("at most"));
        assert!(parse_real("0=x").is_err());
        assert!(parse_real("1025=x").is_err());
        assert_eq!(parse_real("4=x").unwrap().0, 4);
    }
}
