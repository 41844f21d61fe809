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

/// One cache as a preset describes it.
struct PresetCache {
    level: u8,
    kind: CacheKind,
    size: u64,
    ways: u32,
    line: u32,
    /// Cores sharing one copy.
    cores_sharing: usize,
}

/// A real CPU's documented hierarchy.
struct Preset {
    name: &'static str,
    /// The CPU (model) described.
    cpu: &'static str,
    /// Where the figures come from.
    source: &'static str,
    cores: usize,
    threads_per_core: usize,
    caches: &'static [PresetCache],
}

const K: u64 = 1 << 10;
const M: u64 = 1 << 20;

const fn pc(
    level: u8,
    kind: CacheKind,
    size: u64,
    ways: u32,
    line: u32,
    cores_sharing: usize,
) -> PresetCache {
    PresetCache {
        level,
        kind,
        size,
        ways,
        line,
        cores_sharing,
    }
}

use CacheKind::{Data, Instruction, Unified};

/// The presets. Each states its sources; where a vendor does not publish a figure (Apple's
/// associativities) the source says so.
const PRESETS: &[Preset] = &[
    // Intel Xeon Platinum 8480+ (4th gen Xeon Scalable, Golden Cove cores), one socket.
    Preset {
        name: "sapphire-rapids",
        cpu: "Intel Xeon Platinum 8480+ (Sapphire Rapids), one socket: 56 cores, 2 threads each",
        source: "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), Golden \
                 Cove cache parameters: L1d 48 KiB 12-way, L1i 32 KiB 8-way, L2 2 MiB 16-way, \
                 64 B lines; Intel support article 000027820 (4th gen Xeon Scalable: 2 MB private \
                 L2, 1.875 MB LLC per core); Intel ARK: 105 MB L3 for the 8480+; L3 15-way, \
                 114688 sets as Linux sysfs reports it on these parts",
        cores: 56,
        threads_per_core: 2,
        caches: &[
            pc(1, Data, 48 * K, 12, 64, 1),
            pc(1, Instruction, 32 * K, 8, 64, 1),
            pc(2, Unified, 2 * M, 16, 64, 1),
            pc(3, Unified, 105 * M, 15, 64, 56),
        ],
    },
    // Intel Xeon Platinum 8380 (3rd gen Xeon Scalable, Sunny Cove cores), one socket.
    Preset {
        name: "ice-lake-sp",
        cpu: "Intel Xeon Platinum 8380 (Ice Lake SP), one socket: 40 cores, 2 threads each",
        source: "Intel 64 and IA-32 Architectures Optimization Reference Manual (248966), Ice \
                 Lake server (Sunny Cove) cache parameters: L1d 48 KiB 12-way, L1i 32 KiB \
                 8-way, L2 1.25 MiB 20-way, 64 B lines, L3 12-way; Intel support article \
                 000027820 (3rd gen Xeon Scalable: 1.25 MB private L2, 1.5 MB LLC per core); \
                 Intel ARK: 60 MB L3 for the 8380",
        cores: 40,
        threads_per_core: 2,
        caches: &[
            pc(1, Data, 48 * K, 12, 64, 1),
            pc(1, Instruction, 32 * K, 8, 64, 1),
            pc(2, Unified, 1280 * K, 20, 64, 1),
            pc(3, Unified, 60 * M, 12, 64, 40),
        ],
    },
    // AMD EPYC 9654 (Genoa); a Ryzen 7000 CCX has the same caches.
    Preset {
        name: "zen4",
        cpu: "AMD EPYC 9654 (Zen 4, Genoa): 96 cores, 2 threads each, 12 CCXs of 8 cores \
              (a Ryzen 7000 CCX is the same)",
        source: "AMD Software Optimization Guide for the AMD Zen4 Microarchitecture (pub. \
                 57647), cache sections: L1d 32 KiB 8-way, L1i 32 KiB 8-way, L2 1 MiB 8-way \
                 private, L3 32 MiB 16-way shared by the 8 cores of a CCX, 64 B lines",
        cores: 96,
        threads_per_core: 2,
        caches: &[
            pc(1, Data, 32 * K, 8, 64, 1),
            pc(1, Instruction, 32 * K, 8, 64, 1),
            pc(2, Unified, M, 8, 64, 1),
            pc(3, Unified, 32 * M, 16, 64, 8),
        ],
    },
    // Apple M1's performance cluster (Firestorm cores).
    Preset {
        name: "apple-m1",
        cpu: "Apple M1 performance cluster: 4 Firestorm cores, 1 thread each (the 8 MiB \
              system-level cache sits at the memory side and is left out)",
        source: "sizes and line from macOS sysctl hw.perflevel0.l1dcachesize (128 KiB), \
                 l1icachesize (192 KiB), l2cachesize (12 MiB, shared by the 4 P-cores) and \
                 hw.cachelinesize (128 B), as reported in AnandTech's \"Apple Announces The \
                 Apple Silicon M1\" deep dive (2020); Apple does not publish associativity: \
                 8-way L1d, 6-way L1i and 12-way L2 are published microbenchmark measurements",
        cores: 4,
        threads_per_core: 1,
        caches: &[
            pc(1, Data, 128 * K, 8, 128, 1),
            pc(1, Instruction, 192 * K, 6, 128, 1),
            pc(2, Unified, 12 * M, 12, 128, 4),
        ],
    },
    // Arm Neoverse N1 as in AWS Graviton2 (1 MiB L2, 32 MiB system-level cache).
    Preset {
        name: "neoverse-n1",
        cpu: "AWS Graviton2 (Arm Neoverse N1): 64 cores, 1 thread each",
        source: "Arm Neoverse N1 Core Technical Reference Manual (100616): L1d 64 KiB 4-way, \
                 L1i 64 KiB 4-way, private L2 8-way, 64 B lines; Arm Learning Paths, \
                 'Memory subsystem: cache hierarchy' (learn.arm.com): Graviton2 has a 1 MB \
                 private L2 per core and a 32 MB L3 shared by all 64 cores; the L3's \
                 associativity is not published: 16-way is an assumption",
        cores: 64,
        threads_per_core: 1,
        caches: &[
            pc(1, Data, 64 * K, 4, 64, 1),
            pc(1, Instruction, 64 * K, 4, 64, 1),
            pc(2, Unified, M, 8, 64, 1),
            pc(3, Unified, 32 * M, 16, 64, 64),
        ],
    },
    // The configuration the SASMM paper evaluates with (and this project's default).
    Preset {
        name: "sasmm-paper",
        cpu: "the SASMM paper's simulated machine: up to 16 cores, private L1, shared L2",
        source: "SASMM paper, evaluation section: L1 D-cache 8 KB 8-way, L2 128 KB 16-way \
                 shared among all cores, 64 B lines, 1 to 16 cores (rdtools' default --l1/--l2)",
        cores: 16,
        threads_per_core: 1,
        caches: &[
            pc(1, Data, 8 * K, 8, 64, 1),
            pc(2, Unified, 128 * K, 16, 64, 16),
        ],
    },
];

/// A preset's name, the CPU it describes and its sources (for listing).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresetInfo {
    /// The name [`Machine::preset`] takes.
    pub name: String,
    /// The CPU described.
    pub cpu: String,
    /// Where the figures come from.
    pub source: String,
}

/// The presets' names, in listing order.
pub fn preset_names() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).collect()
}

/// Every preset with the CPU it describes and its sources.
pub fn presets() -> Vec<PresetInfo> {
    PRESETS
        .iter()
        .map(|p| PresetInfo {
            name: p.name.into(),
            cpu: p.cpu.into(),
            source: p.source.into(),
        })
        .collect()
}

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

    /// A preset by name ([`preset_names`]); [`MachineError::UnknownPreset`] lists the names.
    pub fn preset(name: &str) -> Result<Machine, MachineError> {
        let p =
            PRESETS
                .iter()
                .find(|p| p.name == name)
                .ok_or_else(|| MachineError::UnknownPreset {
                    name: name.to_string(),
                    known: preset_names().into_iter().map(String::from).collect(),
                })?;
        let levels = p
            .caches
            .iter()
            .map(|c| {
                // Linux's usual numbering: cores first, then each core's further SMT threads
                // at core + t × cores; the first copy serves cores 0..cores_sharing.
                let mut cpus: Vec<u32> = (0..p.threads_per_core)
                    .flat_map(|t| (0..c.cores_sharing).map(move |core| (t * p.cores + core) as u32))
                    .collect();
                cpus.sort_unstable();
                MachineCache {
                    level: c.level,
                    kind: c.kind,
                    size: c.size,
                    ways: c.ways,
                    line: c.line,
                    sets: c.size / (c.ways as u64 * c.line as u64),
                    shared_cpus: format_cpu_list(&cpus),
                    cpus_sharing: cpus.len(),
                    shared_cpu_list: cpus,
                    cores_sharing: c.cores_sharing,
                    instances: p.cores / c.cores_sharing,
                }
            })
            .collect();
        Ok(Machine {
            name: p.name.into(),
            source: p.source.into(),
            cpus: p.cores * p.threads_per_core,
            cores: p.cores,
            levels,
            warnings: Vec::new(),
        })
    }

    /// Reads the caches of every online CPU under `root` (normally [`SYSFS_CPU_ROOT`]): see the
    /// module documentation for the files read.
    pub fn from_sysfs(root: &Path) -> Result<Machine, MachineError> {
        let entries = std::fs::read_dir(root).map_err(|e| MachineError::Unreadable {
            path: root.to_path_buf(),
            why: e.to_string(),
        })?;
        let mut cpu_ids: Vec<u32> = entries
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().into_string().ok()?;
                let digits = name.strip_prefix("cpu")?;
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                digits.parse().ok()
            })
            .collect();
        cpu_ids.sort_unstable();

        // One record per distinct (level, type, CPUs): the cache instances.
        let mut instances: BTreeMap<(u8, CacheKind, Vec<u32>), Raw> = BTreeMap::new();
        let mut core_of: BTreeMap<u32, u32> = BTreeMap::new();
        let mut online = Vec::new();
        for &cpu in &cpu_ids {
            let dir = root.join(format!("cpu{cpu}"));
            // Offline CPUs (where hot-plug exists, `online` reads 0) describe nothing useful.
            if let Ok(s) = std::fs::read_to_string(dir.join("online")) {
                if s.trim() == "0" {
                    continue;
                }
            }
            online.push(cpu);
            core_of.insert(cpu, core_key(&dir, cpu)?);
            let cache_dir = dir.join("cache");
            let Ok(indices) = std::fs::read_dir(&cache_dir) else {
                continue;
            };
            let mut index_dirs: Vec<PathBuf> = indices
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with("index"))
                .map(|e| e.path())
                .collect();
            index_dirs.sort();
            for idx in index_dirs {
                let raw = Raw::read(&idx)?;
                let key = (raw.level, raw.kind, raw.cpus.clone());
                match instances.get(&key) {
                    Some(seen) if seen.geometry() != raw.geometry() => {
                        return Err(MachineError::Inconsistent {
                            what: format!(
                                "level-{} {} cache of cpus {}: {} in {} but {} in {}",
                                raw.level,
                                raw.kind,
                                format_cpu_list(&raw.cpus),
                                seen.describe(),
                                seen.dir.display(),
                                raw.describe(),
                                idx.display()
                            ),
                        });
                    }
                    Some(_) => {}
                    None => {
                        instances.insert(key, raw);
                    }
                }
            }
        }
        if instances.is_empty() {
            return Err(MachineError::NoCaches {
                root: root.to_path_buf(),
            });
        }

        // Rows: instances of equal level, type, geometry and sharing, first CPU first.
        let mut rows: BTreeMap<RowKey, MachineCache> = BTreeMap::new();
        for ((level, kind, cpus), raw) in instances {
            let cores_sharing = {
                let mut cores: Vec<u32> = cpus
                    .iter()
                    .map(|c| core_of.get(c).copied().unwrap_or(*c))
                    .collect();
                cores.sort_unstable();
                cores.dedup();
                cores.len()
            };
            let key = (
                level,
                kind,
                raw.size,
                raw.ways,
                raw.line,
                raw.sets,
                cpus.len(),
            );
            match rows.get_mut(&key) {
                Some(row) => {
                    row.instances += 1;
                    if cpus < row.shared_cpu_list {
                        row.shared_cpus = format_cpu_list(&cpus);
                        row.shared_cpu_list = cpus;
                        row.cores_sharing = cores_sharing;
                    }
                }
                None => {
                    rows.insert(
                        key,
                        MachineCache {
                            level,
                            kind,
                            size: raw.size,
                            ways: raw.ways,
                            line: raw.line,
                            sets: raw.sets,
                            shared_cpus: format_cpu_list(&cpus),
                            cpus_sharing: cpus.len(),
                            shared_cpu_list: cpus,
                            cores_sharing,
                            instances: 1,
                        },
                    );
                }
            }
        }
        let mut levels: Vec<MachineCache> = rows.into_values().collect();
        levels.sort_by(|a, b| {
            (a.level, a.kind, &a.shared_cpu_list).cmp(&(b.level, b.kind, &b.shared_cpu_list))
        });
        let warnings = levels
            .iter()
            .filter_map(|c| {
                c.geometry_problem()
                    .map(|p| format!("level-{} {} cache: {p}", c.level, c.kind))
            })
            .collect();
        let mut cores: Vec<u32> = core_of.values().copied().collect();
        cores.sort_unstable();
        cores.dedup();
        Ok(Machine {
            name: HOST.into(),
            source: root.display().to_string(),
            cpus: online.len(),
            cores: cores.len(),
            levels,
            warnings,
        })
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

/// What makes cache instances one row: level, type, size, ways, line, sets, cpus sharing.
type RowKey = (u8, CacheKind, u64, u32, u32, u64, usize);

/// One `cpuN/cache/indexM` directory as read.
struct Raw {
    dir: PathBuf,
    level: u8,
    kind: CacheKind,
    size: u64,
    ways: u32,
    line: u32,
    sets: u64,
    cpus: Vec<u32>,
}

impl Raw {
    fn read(dir: &Path) -> Result<Raw, MachineError> {
        let level_path = dir.join("level");
        let level_text = read_value(&level_path)?;
        let level: u8 = parse_num(&level_path, &level_text)?;
        let type_path = dir.join("type");
        let type_text = read_value(&type_path)?;
        let kind = CacheKind::parse(&type_text).ok_or_else(|| MachineError::BadValue {
            path: type_path.clone(),
            value: type_text.clone(),
            why: "expected Data, Instruction or Unified".into(),
        })?;
        let size_path = dir.join("size");
        let size_text = read_value(&size_path)?;
        let size = parse_sysfs_size(&size_text).ok_or_else(|| MachineError::BadValue {
            path: size_path.clone(),
            value: size_text.clone(),
            why: "expected bytes with an optional K, M or G suffix, e.g. 48K".into(),
        })?;
        let line_path = dir.join("coherency_line_size");
        let line_text = read_value(&line_path)?;
        let line: u32 = parse_num(&line_path, &line_text)?;
        if line == 0 || !line.is_power_of_two() {
            return Err(MachineError::BadValue {
                path: line_path,
                value: line_text,
                why: "line size must be a power of two".into(),
            });
        }
        let cpus_path = dir.join("shared_cpu_list");
        let cpus_text = read_value(&cpus_path)?;
        let cpus = parse_cpu_list(&cpus_text).map_err(|why| MachineError::BadValue {
            path: cpus_path.clone(),
            value: cpus_text.clone(),
            why,
        })?;
        // Linux hides `ways_of_associativity` when it is 0 (fully associative or unknown) and
        // some kernels lack `number_of_sets`: derive one from the other, but not both.
        let ways_path = dir.join("ways_of_associativity");
        let sets_path = dir.join("number_of_sets");
        let ways_text = read_optional(&ways_path)?;
        let sets_text = read_optional(&sets_path)?;
        let (ways, sets) = match (ways_text, sets_text) {
            (Some(w), Some(s)) => (parse_num(&ways_path, &w)?, parse_num(&sets_path, &s)?),
            (Some(w), None) => {
                let ways: u32 = parse_num(&ways_path, &w)?;
                let per_set = (ways.max(1) as u64) * line as u64;
                (ways, if ways == 0 { 1 } else { size / per_set })
            }
            (None, Some(s)) => {
                let sets: u64 = parse_num(&sets_path, &s)?;
                let ways = size / (sets.max(1) * line as u64);
                let ways = u32::try_from(ways).map_err(|_| MachineError::BadValue {
                    path: sets_path.clone(),
                    value: s.clone(),
                    why: "too few sets for the size".into(),
                })?;
                (if sets == 1 { 0 } else { ways }, sets)
            }
            (None, None) => {
                return Err(MachineError::MissingFile {
                    path: ways_path,
                    why: "neither it nor number_of_sets exists".into(),
                })
            }
        };
        Ok(Raw {
            dir: dir.to_path_buf(),
            level,
            kind,
            size,
            ways,
            line,
            sets,
            cpus,
        })
    }

    fn geometry(&self) -> (u64, u32, u32, u64) {
        (self.size, self.ways, self.line, self.sets)
    }

    fn describe(&self) -> String {
        format!(
            "size {} ways {} line {} sets {}",
            self.size, self.ways, self.line, self.sets
        )
    }
}

/// The core a CPU belongs to, as the lowest CPU of its `topology/core_cpus_list` (or
/// `thread_siblings_list` on older kernels); the CPU itself without topology.
fn core_key(cpu_dir: &Path, cpu: u32) -> Result<u32, MachineError> {
    for name in ["core_cpus_list", "thread_siblings_list"] {
        let path = cpu_dir.join("topology").join(name);
        if let Some(text) = read_optional(&path)? {
            let cpus = parse_cpu_list(&text).map_err(|why| MachineError::BadValue {
                path: path.clone(),
                value: text.clone(),
                why,
            })?;
            return Ok(cpus.first().copied().unwrap_or(cpu).min(cpu));
        }
    }
    Ok(cpu)
}

fn read_value(path: &Path) -> Result<String, MachineError> {
    std::fs::read_to_string(path)
        .map(|s| s.trim().to_string())
        .map_err(|e| MachineError::MissingFile {
            path: path.to_path_buf(),
            why: e.to_string(),
        })
}

/// The trimmed content, `None` when the file does not exist, an error when it cannot be read.
fn read_optional(path: &Path) -> Result<Option<String>, MachineError> {
    match std::fs::read_to_string(path) {
        Ok(s) => Ok(Some(s.trim().to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(MachineError::MissingFile {
            path: path.to_path_buf(),
            why: e.to_string(),
        }),
    }
}

fn parse_num<T: std::str::FromStr>(path: &Path, text: &str) -> Result<T, MachineError> {
    text.parse().map_err(|_| MachineError::BadValue {
        path: path.to_path_buf(),
        value: text.to_string(),
        why: "expected a non-negative integer".into(),
    })
}

/// Parses a sysfs cache size: bytes with an optional `K`, `M` or `G` suffix (powers of 1024),
/// as in `48K`, `2048K`, `260M`.
pub fn parse_sysfs_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, mult) = match t.as_bytes().last()? {
        b'K' | b'k' => (&t[..t.len() - 1], K),
        b'M' | b'm' => (&t[..t.len() - 1], M),
        b'G' | b'g' => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(mult)
}

/// Parses a CPU list as sysfs writes it (`0-3,8-11`, `5`), ascending and without repeats; an
/// empty text is an empty list.
pub fn parse_cpu_list(text: &str) -> Result<Vec<u32>, String> {
    let mut cpus = Vec::new();
    let t = text.trim();
    if t.is_empty() {
        return Ok(cpus);
    }
    for part in t.split(',') {
        let part = part.trim();
        let num = |s: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| format!("`{s}` is not a cpu number"))
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(format!("range {part} runs backwards"));
                }
                if b - a > 1 << 20 {
                    return Err(format!("range {part} is implausibly long"));
                }
                cpus.extend(a..=b);
            }
            None => cpus.push(num(part)?),
        }
    }
    cpus.sort_unstable();
    cpus.dedup();
    Ok(cpus)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A directory under the system's temp dir, removed on drop (the crate has no tempfile).
    struct TempTree(PathBuf);

    impl TempTree {
        fn new() -> TempTree {
            static N: AtomicUsize = AtomicUsize::new(0);
            let dir = std::env::temp_dir().join(format!(
                "rdcachesim-machine-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::Relaxed)
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            TempTree(dir)
        }

        fn write(&self, rel: &str, text: &str) {
            let p = self.0.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, format!("{text}\n")).unwrap();
        }

        /// One `cpuN/cache/indexM` with all seven files.
        #[allow(clippy::too_many_arguments)]
        fn cache(
            &self,
            cpu: u32,
            index: u32,
            level: u8,
            kind: &str,
            size: &str,
            ways: u32,
            sets: u64,
            shared: &str,
        ) {
            let d = format!("cpu{cpu}/cache/index{index}");
            self.write(&format!("{d}/level"), &level.to_string());
            self.write(&format!("{d}/type"), kind);
            self.write(&format!("{d}/size"), size);
            self.write(&format!("{d}/ways_of_associativity"), &ways.to_string());
            self.write(&format!("{d}/coherency_line_size"), "64");
            self.write(&format!("{d}/number_of_sets"), &sets.to_string());
            self.write(&format!("{d}/shared_cpu_list"), shared);
        }
    }

    impl Drop for TempTree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Two CPUs, private 48K 12-way L1d, 32K 8-way L1i and 2M 16-way L2, a 260M 20-way L3
    /// shared by both (the figures MISSION.md gives for one of these machines).
    fn two_cpu_tree() -> TempTree {
        let t = TempTree::new();
        for cpu in 0..2 {
            let own = cpu.to_string();
            t.cache(cpu, 0, 1, "Data", "48K", 12, 64, &own);
            t.cache(cpu, 1, 1, "Instruction", "32K", 8, 64, &own);
            t.cache(cpu, 2, 2, "Unified", "2048K", 16, 2048, &own);
            t.cache(cpu, 3, 3, "Unified", "260M", 20, 212992, "0-1");
            t.write(&format!("cpu{cpu}/topology/core_cpus_list"), &own);
        }
        // Directories that are not CPUs are ignored.
        t.write("cpufreq/boost", "1");
        t.write("online", "0-1");
        t
    }

    #[test]
    fn reads_a_two_cpu_tree() {
        let t = two_cpu_tree();
        let m = Machine::from_sysfs(&t.0).unwrap();
        assert_eq!((m.name.as_str(), m.cpus, m.cores), ("host", 2, 2));
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
        let rows: Vec<_> = m
            .levels
            .iter()
            .map(|c| {
                (
                    c.level,
                    c.kind,
                    c.size,
                    c.ways,
                    c.line,
                    c.sets,
                    c.shared_cpus.as_str(),
                    c.cpus_sharing,
                    c.cores_sharing,
                    c.instances,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                (1, Data, 48 * K, 12, 64, 64, "0", 1, 1, 2),
                (1, Instruction, 32 * K, 8, 64, 64, "0", 1, 1, 2),
                (2, Unified, 2 * M, 16, 64, 2048, "0", 1, 1, 2),
                (3, Unified, 260 * M, 20, 64, 212992, "0-1", 2, 2, 1),
            ]
        );
        let levels = m.data_levels().unwrap();
        assert_eq!(
            levels
                .iter()
                .map(|l| (l.level, l.config.to_string(), l.private))
                .collect::<Vec<_>>(),
            [
                (1, "48K:12:64".to_string(), true),
                (2, "2M:16:64".to_string(), true),
                (3, "260M:20:64".to_string(), false),
            ]
        );
        let (l1, l2, l3) = m.sim_levels().unwrap();
        assert_eq!(l1, CacheConfig::parse("48K:12:64").unwrap());
        assert_eq!(l2, CacheConfig::parse("2M:16:64").unwrap());
        assert_eq!(l3, Some(CacheConfig::parse("260M:20:64").unwrap()));
        assert_eq!(m.l2_private(), Some(true));
    }

    #[test]
    fn smt_siblings_share_a_core_and_offline_cpus_are_skipped() {
        let t = TempTree::new();
        // cpu0 and cpu1 are two threads of one core; cpu2 is offline (and has no caches).
        for cpu in 0..2 {
            t.cache(cpu, 0, 1, "Data", "32K", 8, 64, "0-1");
            t.cache(cpu, 1, 2, "Unified", "1024K", 8, 2048, "0-1");
            t.write(&format!("cpu{cpu}/topology/core_cpus_list"), "0-1");
        }
        t.write("cpu2/online", "0");
        let m = Machine::from_sysfs(&t.0).unwrap();
        assert_eq!((m.cpus, m.cores), (2, 1));
        assert!(m.levels.iter().all(|c| c.cpus_sharing == 2
            && c.cores_sharing == 1
            && c.private()
            && c.instances == 1));
        assert_eq!(m.sim_levels().unwrap().2, None);
    }

    #[test]
    fn missing_ways_or_sets_are_derived_and_ways_0_is_fully_associative() {
        let t = TempTree::new();
        t.cache(0, 0, 1, "Data", "32K", 8, 64, "0");
        std::fs::remove_file(t.0.join("cpu0/cache/index0/number_of_sets")).unwrap();
        // A 4K fully associative level-2 cache: Linux hides `ways` when it is 0.
        t.cache(0, 1, 2, "Unified", "4K", 0, 1, "0");
        std::fs::remove_file(t.0.join("cpu0/cache/index1/ways_of_associativity")).unwrap();
        let m = Machine::from_sysfs(&t.0).unwrap();
        assert_eq!((m.levels[0].ways, m.levels[0].sets), (8, 64));
        let l2 = &m.levels[1];
        assert_eq!((l2.ways, l2.sets), (0, 1));
        assert!(l2.fully_associative());
        assert!(m.warnings.is_empty(), "{:?}", m.warnings);
        assert_eq!(m.sim_levels().unwrap().1.to_string(), "4K:64:64");
    }

    #[test]
    fn a_geometry_that_does_not_add_up_is_a_warning() {
        let t = TempTree::new();
        t.cache(0, 0, 1, "Data", "48K", 12, 60, "0");
        let m = Machine::from_sysfs(&t.0).unwrap();
        assert_eq!(m.warnings.len(), 1);
        assert!(
            m.warnings[0].contains("ways 12 x sets 60"),
            "{:?}",
            m.warnings
        );
    }

    #[test]
    fn errors_name_the_file() {
        let missing = Machine::from_sysfs(Path::new("/nonexistent/rdtools/cpu")).unwrap_err();
        assert!(
            matches!(missing, MachineError::Unreadable { .. }),
            "{missing}"
        );

        let t = two_cpu_tree();
        t.write("cpu1/cache/index2/size", "lots");
        let e = Machine::from_sysfs(&t.0).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, MachineError::BadValue { .. }), "{msg}");
        assert!(
            msg.contains("cpu1/cache/index2/size") && msg.contains("lots"),
            "{msg}"
        );

        let t = two_cpu_tree();
        std::fs::remove_file(t.0.join("cpu0/cache/index1/level")).unwrap();
        let e = Machine::from_sysfs(&t.0).unwrap_err();
        assert!(matches!(e, MachineError::MissingFile { .. }), "{e}");
        assert!(e.to_string().contains("cpu0/cache/index1/level"), "{e}");

        let t = two_cpu_tree();
        t.write("cpu0/cache/index3/shared_cpu_list", "3-1");
        assert!(Machine::from_sysfs(&t.0)
            .unwrap_err()
            .to_string()
            .contains("backwards"));

        let t = two_cpu_tree();
        t.write("cpu1/cache/index3/size", "130M");
        let e = Machine::from_sysfs(&t.0).unwrap_err();
        assert!(matches!(e, MachineError::Inconsistent { .. }), "{e}");

        let t = TempTree::new();
        t.write("cpu0/topology/core_id", "0");
        let e = Machine::from_sysfs(&t.0).unwrap_err();
        assert!(matches!(e, MachineError::NoCaches { .. }), "{e}");
    }

    #[test]
    fn sizes_and_cpu_lists_parse() {
        assert_eq!(parse_sysfs_size("48K"), Some(48 * K));
        assert_eq!(parse_sysfs_size("2048K\n"), Some(2 * M));
        assert_eq!(parse_sysfs_size("260M"), Some(260 * M));
        assert_eq!(parse_sysfs_size("1G"), Some(1 << 30));
        assert_eq!(parse_sysfs_size("512"), Some(512));
        for bad in ["", "K", "-4K", "4.5M", "4KB", "four"] {
            assert_eq!(parse_sysfs_size(bad), None, "{bad}");
        }
        assert_eq!(
            parse_cpu_list("0-3,8-11").unwrap(),
            [0, 1, 2, 3, 8, 9, 10, 11]
        );
        assert_eq!(parse_cpu_list("5\n").unwrap(), [5]);
        assert_eq!(parse_cpu_list("").unwrap(), Vec::<u32>::new());
        assert!(parse_cpu_list("1,x").is_err());
        assert_eq!(format_cpu_list(&[0, 1, 2, 3, 8, 9, 10, 11]), "0-3,8-11");
        assert_eq!(format_cpu_list(&[0, 2, 3, 7]), "0,2-3,7");
        assert_eq!(format_size(48 * K), "48K");
        assert_eq!(format_size(1280 * K), "1280K");
        assert_eq!(format_size(260 * M), "260M");
    }

    #[test]
    fn presets_are_consistent() {
        assert!(preset_names().len() >= 5);
        for name in preset_names() {
            let m = Machine::preset(name).unwrap();
            assert_eq!(m.name, name);
            assert!(!m.source.is_empty());
            for c in &m.levels {
                assert_eq!(c.geometry_problem(), None, "{name} L{}", c.level);
                assert!(
                    c.sets.is_power_of_two() || c.level == 3,
                    "{name} L{}",
                    c.level
                );
                assert_eq!(
                    c.instances * c.cores_sharing,
                    m.cores,
                    "{name} L{}",
                    c.level
                );
                assert_eq!(c.shared_cpu_list.len(), c.cpus_sharing);
            }
            let (l1, _, _) = m.sim_levels().unwrap();
            assert!(m.data_levels().unwrap()[0].private, "{name}");
            assert!(l1.size >= 8 * K);
        }
        let spr = Machine::preset("sapphire-rapids").unwrap();
        let (l1, l2, l3) = spr.sim_levels().unwrap();
        assert_eq!(
            (l1.to_string(), l2.to_string()),
            ("48K:12:64".into(), "2M:16:64".into())
        );
        assert_eq!(l3.unwrap().sets(), 114_688);
        // SMT siblings follow Linux's numbering: core 0's threads are cpus 0 and 56.
        assert_eq!(spr.levels[0].shared_cpus, "0,56");
        let zen4 = Machine::preset("zen4").unwrap();
        assert_eq!(zen4.levels[3].shared_cpus, "0-7,96-103");
        assert_eq!(zen4.levels[3].instances, 12);
        let m1 = Machine::preset("apple-m1").unwrap();
        assert_eq!(m1.l2_private(), Some(false));
        assert_eq!(m1.sim_levels().unwrap().2, None);
        let paper = Machine::preset("sasmm-paper")
            .unwrap()
            .sim_levels()
            .unwrap();
        assert_eq!(
            (paper.0, paper.1),
            (CacheConfig::default(), CacheConfig::paper_l2())
        );
        let e = Machine::resolve("pentium-pro").unwrap_err();
        assert!(matches!(e, MachineError::UnknownPreset { .. }));
        assert!(e.to_string().contains("zen4"), "{e}");
    }

    /// How many CPUs a sysfs list like `0-3,8` names (written apart from `parse_cpu_list`).
    fn count_cpus(list: &str) -> usize {
        list.split(',')
            .map(|r| match r.split_once('-') {
                Some((a, b)) => b.parse::<usize>().unwrap() - a.parse::<usize>().unwrap() + 1,
                None => 1,
            })
            .sum()
    }

    /// This machine's sysfs, read here file by file without this module's reader, equals
    /// `Machine::from_sysfs` of it.
    #[test]
    fn host_sysfs_matches_the_raw_files() {
        let root = Path::new(SYSFS_CPU_ROOT);
        // A machine without sysfs cache descriptions fails here rather than passing unchecked.
        assert!(
            root.join("cpu0/cache/index0").is_dir(),
            "no {SYSFS_CPU_ROOT}/cpu0/cache/index0 on this machine"
        );
        let m = Machine::from_sysfs(root).unwrap();
        let read = |p: PathBuf| std::fs::read_to_string(p).unwrap().trim().to_string();
        // Every cpu directory's every index: (level, type, size text, ways, line, sets, cpus).
        let mut seen = std::collections::BTreeSet::new();
        for entry in std::fs::read_dir(root).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(n) = name.strip_prefix("cpu") else {
                continue;
            };
            if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            let cache = root.join(&name).join("cache");
            let Ok(indices) = std::fs::read_dir(&cache) else {
                continue;
            };
            for idx in indices {
                let idx = idx.unwrap().path();
                if !idx
                    .file_name()
                    .unwrap()
                    .to_str()
                    .unwrap()
                    .starts_with("index")
                {
                    continue;
                }
                let size_text = read(idx.join("size"));
                // Independent of parse_sysfs_size: the kernel writes "<n>K".
                let size: u64 = size_text.strip_suffix('K').unwrap().parse::<u64>().unwrap() * 1024;
                seen.insert((
                    read(idx.join("level")),
                    read(idx.join("type")),
                    size,
                    read(idx.join("ways_of_associativity")),
                    read(idx.join("coherency_line_size")),
                    read(idx.join("number_of_sets")),
                    read(idx.join("shared_cpu_list")),
                ));
            }
        }
        // Each raw instance belongs to exactly one row with the same fields, and the rows'
        // instance counts add up to the instances seen.
        let mut total = 0;
        for c in &m.levels {
            let matching: Vec<_> = seen
                .iter()
                .filter(|(l, t, s, w, line, sets, cpus)| {
                    *l == c.level.to_string()
                        && *t == c.kind.to_string()
                        && *s == c.size
                        && *w == c.ways.to_string()
                        && *line == c.line.to_string()
                        && *sets == c.sets.to_string()
                        && count_cpus(cpus) == c.cpus_sharing
                })
                .collect();
            assert_eq!(matching.len(), c.instances, "{c:?} vs {seen:?}");
            assert!(matching.iter().any(|x| x.6 == c.shared_cpus), "{c:?}");
            total += c.instances;
        }
        assert_eq!(total, seen.len(), "{seen:?}");
        let online = read(root.join("online"));
        assert_eq!(count_cpus(&online), m.cpus);
    }
}
