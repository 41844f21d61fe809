//! Named presets of real CPUs' documented cache hierarchies, each with its source.

use super::*;

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
}
