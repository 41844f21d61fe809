//! Tests of the machine descriptions: sysfs trees written by hand, presets, levels.

use super::presets::*;
use super::sysfs::*;
use super::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use CacheKind::{Data, Instruction, Unified};

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
    assert!(m
        .levels
        .iter()
        .all(|c| c.cpus_sharing == 2 && c.cores_sharing == 1 && c.private() && c.instances == 1));
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
