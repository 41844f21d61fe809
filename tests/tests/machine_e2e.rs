//! `rda-report machine` end to end (issue 29 point 5): `host` equals what this test reads from
//! `/sys` itself, presets round-trip through JSON with their documented figures, and an
//! unknown name is a usage error that lists the valid names.

use rdtools_e2e::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const ROOT: &str = "/sys/devices/system/cpu";

fn read(p: &Path) -> String {
    std::fs::read_to_string(p)
        .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        .trim()
        .to_string()
}

/// The CPUs a sysfs list like `0-3,8` names.
fn cpus_of(list: &str) -> Vec<u64> {
    list.split(',')
        .filter(|s| !s.is_empty())
        .flat_map(|r| match r.split_once('-') {
            Some((a, b)) => (a.parse().unwrap()..=b.parse().unwrap()).collect::<Vec<u64>>(),
            None => vec![r.parse().unwrap()],
        })
        .collect()
}

/// One cache instance as sysfs shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Instance {
    level: u64,
    kind: String,
    size: u64,
    ways: u64,
    line: u64,
    sets: u64,
    cpus: String,
}

/// What makes instances one row of `machine`: level, type, size, ways, line, sets, cpus sharing.
type RowKey = (u64, String, u64, u64, u64, u64, usize);

/// Every distinct cache instance under `/sys`, read file by file (a cache shared by several
/// cpus appears once).
fn sysfs_instances() -> Vec<Instance> {
    let mut out = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(ROOT).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        let is_cpu = name
            .strip_prefix("cpu")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if !is_cpu {
            continue;
        }
        let Ok(indices) = std::fs::read_dir(Path::new(ROOT).join(&name).join("cache")) else {
            continue;
        };
        for i in indices {
            let d = i.unwrap().path();
            if !d
                .file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("index")
            {
                continue;
            }
            // The kernel writes sizes as "<KiB>K".
            let size = read(&d.join("size"));
            let kib: u64 = size.strip_suffix('K').expect("size in K").parse().unwrap();
            out.insert(Instance {
                level: read(&d.join("level")).parse().unwrap(),
                kind: read(&d.join("type")),
                size: kib * 1024,
                ways: read(&d.join("ways_of_associativity")).parse().unwrap(),
                line: read(&d.join("coherency_line_size")).parse().unwrap(),
                sets: read(&d.join("number_of_sets")).parse().unwrap(),
                cpus: read(&d.join("shared_cpu_list")),
            });
        }
    }
    out.into_iter().collect()
}

/// `machine host --json` lists exactly the caches `/sys` describes: every row's fields equal
/// the files' contents, its copies are the distinct instances of that kind, and the CPU count
/// is `/sys/devices/system/cpu/online`'s.
#[test]
fn host_equals_sysfs_field_by_field() {
    // Linux on the machines this project supports describes its caches here; a machine
    // without them fails this test rather than passing it unchecked.
    assert!(
        Path::new(ROOT).join("cpu0/cache/index0").is_dir(),
        "no {ROOT}/cpu0/cache/index0 on this machine: nothing to compare `machine host` with"
    );
    let v = rda_report_json(&["machine", "host", "--json"]);
    assert_eq!(v["name"], "host");
    assert_eq!(v["source"], ROOT);
    assert_eq!(
        v["cpus"].as_u64().unwrap() as usize,
        cpus_of(&read(&Path::new(ROOT).join("online"))).len()
    );
    let instances = sysfs_instances();
    // Group the instances as rows: same level, type, geometry and number of cpus.
    let mut groups: BTreeMap<RowKey, Vec<&Instance>> = BTreeMap::new();
    for i in &instances {
        groups
            .entry((
                i.level,
                i.kind.clone(),
                i.size,
                i.ways,
                i.line,
                i.sets,
                cpus_of(&i.cpus).len(),
            ))
            .or_default()
            .push(i);
    }
    let rows = v["levels"].as_array().unwrap();
    assert_eq!(rows.len(), groups.len(), "{rows:?} vs {groups:?}");
    for row in rows {
        let u = |k: &str| row[k].as_u64().unwrap_or_else(|| panic!("{k} in {row}"));
        let key = (
            u("level"),
            row["type"].as_str().unwrap().to_string(),
            u("size"),
            u("ways"),
            u("line"),
            u("sets"),
            u("cpus_sharing") as usize,
        );
        let group = groups
            .get(&key)
            .unwrap_or_else(|| panic!("{row} is not in /sys: {instances:?}"));
        assert_eq!(u("instances") as usize, group.len(), "{row}");
        // The row shows its lowest-numbered copy's cpus, in sysfs form and as a list.
        let first = group
            .iter()
            .min_by_key(|i| cpus_of(&i.cpus))
            .unwrap()
            .cpus
            .clone();
        assert_eq!(row["shared_cpus"], first.as_str(), "{row}");
        let list: Vec<u64> = row["shared_cpu_list"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        assert_eq!(list, cpus_of(&first), "{row}");
        assert!(u("cores_sharing") >= 1 && u("cores_sharing") <= u("cpus_sharing"));
    }
    // The table names the same sizes.
    let (ok, text, err) = rda_report(&["machine"]);
    assert!(ok, "{err}");
    for i in &instances {
        assert!(text.contains(&i.kind), "{text}");
    }
}

/// Every preset listed by `--list --json` prints under its own name, with sources, and with
/// geometries that add up; two presets' figures are checked against their vendor manuals.
#[test]
fn presets_round_trip() {
    let list = rda_report_json(&["machine", "--list", "--json"]);
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert!(!p["source"].as_str().unwrap().is_empty(), "{p}");
            p["name"].as_str().unwrap()
        })
        .collect();
    assert!(
        names.contains(&"zen4") && names.contains(&"sapphire-rapids"),
        "{names:?}"
    );
    for name in &names {
        let m = rda_report_json(&["machine", name, "--json"]);
        assert_eq!(m["name"], *name);
        let source = list
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == *name)
            .unwrap();
        assert_eq!(m["source"], source["source"]);
        for c in m["levels"].as_array().unwrap() {
            let u = |k: &str| c[k].as_u64().unwrap();
            assert_eq!(u("ways") * u("sets") * u("line"), u("size"), "{name}: {c}");
            assert_eq!(
                u("instances") * u("cores_sharing"),
                m["cores"].as_u64().unwrap()
            );
        }
    }
    // AMD Zen 4 optimization guide: 32K 8-way L1d, 1M 8-way L2, 32M 16-way L3 per 8-core CCX.
    let zen4 = rda_report_json(&["machine", "zen4", "--json"]);
    let summary: Vec<(u64, String, u64, u64, u64)> = zen4["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["level"].as_u64().unwrap(),
                c["type"].as_str().unwrap().to_string(),
                c["size"].as_u64().unwrap(),
                c["ways"].as_u64().unwrap(),
                c["cores_sharing"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (1, "Data".into(), 32 << 10, 8, 1),
            (1, "Instruction".into(), 32 << 10, 8, 1),
            (2, "Unified".into(), 1 << 20, 8, 1),
            (3, "Unified".into(), 32 << 20, 16, 8),
        ]
    );
    // Sapphire Rapids: 105 MB 15-way L3 over 64 B lines is 105·2^20 / (15·64) = 114688 sets.
    let spr = rda_report_json(&["machine", "sapphire-rapids", "--json"]);
    assert_eq!(spr["levels"][3]["sets"], 114_688);
    assert_eq!(spr["levels"][0]["shared_cpus"], "0,56");
    // CSV works too (one row per preset in --list).
    let (ok, csv, err) = rda_report(&["machine", "--list", "--csv"]);
    assert!(ok, "{err}");
    assert_eq!(csv.lines().count(), names.len() + 1, "{csv}");
}

/// An unknown name is a usage error (status 2) that names every valid one; an unreadable sysfs
/// root is a failure (status 1).
#[test]
fn unknown_name_is_a_usage_error_and_unreadable_sysfs_a_failure() {
    let o = Command::new(&tools().rda_report)
        .args(["machine", "pentium-pro"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("pentium-pro"), "{err}");
    let list = rda_report_json(&["machine", "--list", "--json"]);
    for p in list.as_array().unwrap() {
        assert!(err.contains(p["name"].as_str().unwrap()), "{err}");
    }
    assert!(err.contains("host"), "{err}");

    let dir = tempfile::tempdir().unwrap();
    let o = Command::new(&tools().rda_report)
        .args(["machine", "host", "--sysfs"])
        .arg(dir.path().join("missing"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing"));
    // A cpu tree without cache descriptions is a failure too.
    std::fs::create_dir_all(dir.path().join("cpu0/topology")).unwrap();
    let o = Command::new(&tools().rda_report)
        .args(["machine", "host", "--sysfs"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no cache descriptions"));
}

/// Issue 29 point 5 in predict: `--machine` gives the model a machine's cache levels, as the
/// presets document them: a private L1 and the shared L2 where the L2 is shared, and all three
/// levels (private L1 and L2, shared L3, as `measure --machine` simulates them) where the L2 is
/// private, with the L3's rates; it conflicts with `--l1`/`--l2`/`--l3`.
#[test]
fn predict_models_a_machines_l1_and_shared_level() {
    let dir = tempfile::tempdir().unwrap();
    let seq = vecadd_trace(dir.path(), "seq.rdtrace", 1, 4096, 4096);
    let s = seq.to_str().unwrap();
    let predict = |extra: &[&str]| {
        let o = Command::new(&tools().rda_report)
            .args(["predict", s, "--cores", "1,2", "-q", "--json"])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let rows: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (rows, String::from_utf8_lossy(&o.stderr).into_owned())
    };
    // (preset, L1, L2, L3): Zen 4's 1 MiB L2 is private to a core and its 32 MiB L3 shared by
    // a CCD (three levels); the M1's 12 MiB L2 is shared by the performance cluster; the
    // SASMM paper's machine has a private L1 and a shared L2.
    for (name, l1, l2, l3) in [
        ("zen4", "32K:8:64", "1M:8:64", Some("32M:16:64")),
        ("apple-m1", "128K:8:128", "12M:12:128", None),
        ("sasmm-paper", "8K:8:64", "128K:16:64", None),
    ] {
        let (rows, err) = predict(&["--machine", name]);
        for row in rows.as_array().unwrap() {
            assert_eq!(row["l1_cache"], l1, "{name}");
            assert_eq!(row["l2_cache"], l2, "{name}");
            match l3 {
                Some(l3) => {
                    assert_eq!(row["l3_cache"], l3, "{name}");
                    // The L3 is looked up on the private L2s' misses: its rates are there, and
                    // each core's L3 accesses are its L2 misses.
                    let (global, local) = (&row["l3_hit_global"], &row["l3_hit_local"]);
                    assert!(
                        global.as_f64().is_some_and(|g| (0.0..=1.0).contains(&g)),
                        "{row}"
                    );
                    assert!(
                        local.as_f64().is_some_and(|l| (0.0..=1.0).contains(&l)),
                        "{row}"
                    );
                    assert!(row["l3_mpka"].is_number(), "{row}");
                    let mut l3_accesses = 0;
                    for c in row["per_core"].as_array().unwrap() {
                        assert_eq!(c["l3_accesses"], c["l2_misses"], "{name}: {c}");
                        l3_accesses += c["l3_accesses"].as_u64().unwrap();
                    }
                    assert_eq!(row["l3_accesses"], l3_accesses, "{name}");
                }
                None => assert!(row.get("l3_cache").is_none(), "{name}: {row}"),
            }
        }
        assert!(!err.contains("left out"), "{name}: {err}");
        // The same levels given by hand predict the same.
        let mut by_hand = vec!["--l1", l1, "--l2", l2];
        by_hand.extend(l3.iter().flat_map(|l3| ["--l3", *l3]));
        assert_eq!(predict(&by_hand).0, rows, "{name}");
    }
    for extra in [["--l1", "32K:8:64"], ["--l3", "32M:16:64"]] {
        let o = Command::new(&tools().rda_report)
            .args(["predict", s, "--machine", "zen4"])
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
    }
}
