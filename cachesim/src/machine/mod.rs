//! Real machines' cache hierarchies: read from Linux's `/sys/devices/system/cpu/cpu*/cache`
//! ([`from_sysfs`](crate::machine::Machine::from_sysfs)) or taken from a named preset of a
//! documented CPU ([`preset`](crate::machine::Machine::preset)), and turned into the
//! [`CacheConfig`](crate::CacheConfig)s the simulator and the models take
//! ([`data_levels`](crate::machine::Machine::data_levels),
//! [`sim_levels`](crate::machine::Machine::sim_levels)).
//!
//! **Sysfs.** Every online `cpuN/cache/indexM/` describes one cache that CPU `N` uses, with
//! `level`, `type` (`Data`, `Instruction`, `Unified`), `size` (`48K`), `ways_of_associativity`,
//! `coherency_line_size`, `number_of_sets` and `shared_cpu_list` (the logical CPUs that use the
//! same cache, as ranges like `0-3,8-11`). A cache shared by several CPUs appears once under
//! each of them; it is counted once here (one *instance* per distinct `shared_cpu_list`).
//! Instances of the same level, type, geometry and sharing are one
//! [`MachineCache`](crate::machine::MachineCache) row with an instance count, so a machine with
//! two kinds of cores (a hybrid CPU) keeps a row per kind.
//! Logical CPUs are grouped into cores by `cpuN/topology/core_cpus_list` (or
//! `thread_siblings_list`), so an L1 that two SMT threads of one core use counts as private to
//! one core.
//!
//! This module is the one place of the crate that does IO
//! ([`from_sysfs`](crate::machine::Machine::from_sysfs) reads small text files under a root the
//! caller gives); the simulator itself still only takes addresses.

use crate::CacheConfig;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Where Linux describes the CPUs and their caches.
pub const SYSFS_CPU_ROOT: &str = "/sys/devices/system/cpu";

/// The name that [`Machine::resolve`] reads from this machine's sysfs.
pub const HOST: &str = "host";

/// Errors reading or converting a machine description.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MachineError {
    /// The sysfs CPU directory is missing or cannot be listed.
    #[error("cannot read cpu directory {path}: {why}")]
    Unreadable {
        /// The directory.
        path: PathBuf,
        /// The operating system's reason.
        why: String,
    },
    /// A file every cache directory must have is missing or cannot be read.
    #[error("cannot read {path}: {why}")]
    MissingFile {
        /// The file.
        path: PathBuf,
        /// The operating system's reason.
        why: String,
    },
    /// A file's content does not parse.
    #[error("bad value `{value}` in {path}: {why}")]
    BadValue {
        /// The file.
        path: PathBuf,
        /// Its content (trimmed).
        value: String,
        /// What is wrong with it.
        why: String,
    },
    /// No online CPU under the root describes any cache.
    #[error("no cache descriptions under {root} (no cpu*/cache/index* directories)")]
    NoCaches {
        /// The root read.
        root: PathBuf,
    },
    /// Two CPUs describe the same cache instance (same level, type and CPUs) differently.
    #[error("inconsistent descriptions of one cache: {what}")]
    Inconsistent {
        /// Which cache and how the descriptions differ.
        what: String,
    },
    /// A name that is neither `host` nor a preset.
    #[error("unknown machine `{name}` (known: host, {})", known.join(", "))]
    UnknownPreset {
        /// The name given.
        name: String,
        /// The preset names.
        known: Vec<String>,
    },
    /// The machine lacks a data (or unified) cache at a level a conversion needs.
    #[error("machine `{machine}` has no level-{level} data or unified cache")]
    MissingLevel {
        /// The machine's name.
        machine: String,
        /// The level.
        level: u8,
    },
    /// A cache's geometry is not one the simulator can take.
    #[error("level-{level} {kind} cache of `{machine}`: {why}")]
    BadGeometry {
        /// The machine's name.
        machine: String,
        /// The level.
        level: u8,
        /// The cache's type.
        kind: CacheKind,
        /// What is wrong.
        why: String,
    },
}

/// What a cache holds (sysfs `type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum CacheKind {
    /// Data only.
    Data,
    /// Instructions only.
    Instruction,
    /// Data and instructions.
    Unified,
}

impl CacheKind {
    /// Whether data accesses go through this cache (data or unified).
    pub fn holds_data(self) -> bool {
        matches!(self, CacheKind::Data | CacheKind::Unified)
    }

    fn parse(s: &str) -> Option<CacheKind> {
        match s {
            "Data" => Some(CacheKind::Data),
            "Instruction" => Some(CacheKind::Instruction),
            "Unified" => Some(CacheKind::Unified),
            _ => None,
        }
    }
}

impl fmt::Display for CacheKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CacheKind::Data => "Data",
            CacheKind::Instruction => "Instruction",
            CacheKind::Unified => "Unified",
        })
    }
}

/// One kind of cache of a machine: its geometry and how many CPUs and cores share each copy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineCache {
    /// Level, 1 nearest the core.
    pub level: u8,
    /// What it holds.
    #[serde(rename = "type")]
    pub kind: CacheKind,
    /// Capacity in bytes.
    pub size: u64,
    /// Associativity as the machine reports it; 0 for a fully associative cache.
    pub ways: u32,
    /// Line size in bytes.
    pub line: u32,
    /// Number of sets (1 for a fully associative cache).
    pub sets: u64,
    /// The logical CPUs sharing the first copy of this cache (lowest CPU numbers first).
    pub shared_cpu_list: Vec<u32>,
    /// `shared_cpu_list` in sysfs range form (`0-3,8-11`).
    pub shared_cpus: String,
    /// How many logical CPUs share one copy.
    pub cpus_sharing: usize,
    /// How many cores share one copy (SMT threads of one core count once): 1 means private to
    /// a core.
    pub cores_sharing: usize,
    /// How many copies the machine has.
    pub instances: usize,
}

impl MachineCache {
    /// Whether the cache is fully associative (one set).
    pub fn fully_associative(&self) -> bool {
        self.ways == 0 || self.sets == 1
    }

    /// Whether each copy serves a single core.
    pub fn private(&self) -> bool {
        self.cores_sharing <= 1
    }

    /// The associativity the simulator uses: the reported ways, or all lines when the cache is
    /// fully associative.
    pub fn effective_ways(&self) -> u64 {
        if self.ways == 0 {
            self.size / self.line.max(1) as u64
        } else {
            self.ways as u64
        }
    }

    /// The geometry as the simulator's [`CacheConfig`] (size, ways, line); an error when the
    /// line is not a power of two or the size is not a multiple of ways × line.
    pub fn cache_config(&self, machine: &str) -> Result<CacheConfig, MachineError> {
        let bad = |why: String| MachineError::BadGeometry {
            machine: machine.to_string(),
            level: self.level,
            kind: self.kind,
            why,
        };
        let ways = u32::try_from(self.effective_ways())
            .map_err(|_| bad(format!("{} ways do not fit", self.effective_ways())))?;
        CacheConfig::new(self.size, ways, self.line).map_err(|e| bad(e.to_string()))
    }

    /// Why the reported geometry does not add up, if it does not: the line must be a power of
    /// two and ways × sets × line must equal the size.
    pub fn geometry_problem(&self) -> Option<String> {
        if self.line == 0 || !self.line.is_power_of_two() {
            return Some(format!("line size {} is not a power of two", self.line));
        }
        if self.size == 0 {
            return Some("size 0".into());
        }
        if self.ways == 0 {
            // Fully associative: one set of size / line lines.
            return (self.sets != 1 || !self.size.is_multiple_of(self.line as u64)).then(|| {
                format!(
                    "fully associative but {} sets and size {} for line {}",
                    self.sets, self.size, self.line
                )
            });
        }
        let product = (self.ways as u64)
            .checked_mul(self.sets)
            .and_then(|x| x.checked_mul(self.line as u64));
        (product != Some(self.size)).then(|| {
            format!(
                "ways {} x sets {} x line {} != size {}",
                self.ways, self.sets, self.line, self.size
            )
        })
    }
}

/// A machine's cache hierarchy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Machine {
    /// `host`, or the preset's name.
    pub name: String,
    /// What the description comes from: the sysfs directory read, or the preset's documents.
    pub source: String,
    /// Logical CPUs described.
    pub cpus: usize,
    /// Cores (logical CPUs of one core counted once).
    pub cores: usize,
    /// The caches, by level, then type (data, instruction, unified), then first CPU.
    pub levels: Vec<MachineCache>,
    /// Reported geometries that do not add up (ways × sets × line ≠ size), one sentence each;
    /// the caches are kept as reported.
    pub warnings: Vec<String>,
}

/// One level that data accesses go through, as the simulator sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataLevel {
    /// Level, 1 nearest the core.
    pub level: u8,
    /// Data only or unified.
    pub kind: CacheKind,
    /// Geometry.
    pub config: CacheConfig,
    /// Whether each copy serves one core.
    pub private: bool,
    /// Cores sharing one copy.
    pub cores_sharing: usize,
}

/// Binary size units of the presets and of sysfs sizes.
const K: u64 = 1 << 10;
const M: u64 = 1 << 20;

mod presets;
mod sysfs;
#[cfg(test)]
mod tests;

pub use presets::{preset_names, presets, PresetInfo};
pub use sysfs::{parse_cpu_list, parse_sysfs_size};

impl Machine {
    /// `host` (this machine's sysfs under [`SYSFS_CPU_ROOT`]) or a preset name.
    pub fn resolve(name: &str) -> Result<Machine, MachineError> {
        Machine::resolve_with_root(name, Path::new(SYSFS_CPU_ROOT))
    }

    /// [`Machine::resolve`] with `host` read from `root` instead of [`SYSFS_CPU_ROOT`].
    pub fn resolve_with_root(name: &str, root: &Path) -> Result<Machine, MachineError> {
        if name == HOST {
            Machine::from_sysfs(root)
        } else {
            Machine::preset(name)
        }
    }

    /// The levels data accesses go through, nearest first: at each level the data or unified
    /// cache that the lowest-numbered CPU uses (on a hybrid CPU, that CPU's kind of core).
    /// Instruction caches are left out.
    pub fn data_levels(&self) -> Result<Vec<DataLevel>, MachineError> {
        let mut out: Vec<DataLevel> = Vec::new();
        for c in &self.levels {
            if !c.kind.holds_data() || out.last().is_some_and(|l| l.level == c.level) {
                continue;
            }
            // `levels` is sorted by first CPU within a level and type, and a level has either
            // a data or a unified cache, so the first data-holding row is the lowest CPU's.
            out.push(DataLevel {
                level: c.level,
                kind: c.kind,
                config: c.cache_config(&self.name)?,
                private: c.private(),
                cores_sharing: c.cores_sharing,
            });
        }
        Ok(out)
    }

    /// The machine as the simulator's three levels `(l1, l2, l3)`: the level-1 data cache,
    /// private to each core; the level-2 cache, private or shared as the machine has it (see
    /// [`Machine::l2_private`]); the level-3 cache, shared (`None` on a machine with two
    /// levels, such as Apple M1's cluster). Levels beyond 3 are left out. An error when the
    /// machine lacks a level-1 or level-2 data cache or a geometry does not fit
    /// [`CacheConfig`].
    pub fn sim_levels(
        &self,
    ) -> Result<(CacheConfig, CacheConfig, Option<CacheConfig>), MachineError> {
        let levels = self.data_levels()?;
        let at = |level: u8| levels.iter().find(|l| l.level == level).map(|l| l.config);
        let missing = |level: u8| MachineError::MissingLevel {
            machine: self.name.clone(),
            level,
        };
        let l1 = at(1).ok_or_else(|| missing(1))?;
        let l2 = at(2).ok_or_else(|| missing(2))?;
        Ok((l1, l2, at(3)))
    }

    /// Whether the level-2 data cache serves one core (Intel, AMD, Neoverse) rather than a
    /// cluster (Apple M1, the SASMM paper's machine); `None` without a level-2 data cache.
    pub fn l2_private(&self) -> Option<bool> {
        self.levels
            .iter()
            .find(|c| c.level == 2 && c.kind.holds_data())
            .map(MachineCache::private)
    }
}
/// Writes a CPU list in sysfs range form (`0-3,8-11`).
pub fn format_cpu_list(cpus: &[u32]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let start = cpus[i];
        let mut end = start;
        while i + 1 < cpus.len() && cpus[i + 1] == end + 1 {
            i += 1;
            end = cpus[i];
        }
        out.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    out.join(",")
}

/// Writes a byte count the way sysfs does where it can (`48K`, `2M`, `260M`), bytes otherwise.
pub fn format_size(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{}G", bytes >> 30)
    } else if bytes >= M && bytes.is_multiple_of(M) {
        format!("{}M", bytes >> 20)
    } else if bytes >= K && bytes.is_multiple_of(K) {
        format!("{}K", bytes >> 10)
    } else {
        bytes.to_string()
    }
}
