//! Reading a machine's caches from Linux's sysfs (see the parent module's documentation).

use super::*;

impl Machine {
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
