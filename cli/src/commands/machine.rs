//! `rda-report machine`: a real machine's cache hierarchy, this machine's from `/sys` or a
//! named preset ([`rdcachesim::machine`]).

use crate::output::{OutputArgs, Table};
use anyhow::{Context, Result};
use rdcachesim::machine::{self, format_size, Machine, MachineError};
use std::path::PathBuf;

/// Arguments of `machine`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "`host` reads this machine's caches from /sys/devices/system/cpu/cpu*/cache \
(each cache shared by several cpus counted once); a preset name gives a documented real CPU \
(`--list` names them with their sources).\n\
Exit status: 0 success, 1 /sys unreadable, 2 usage error (an unknown preset name).\n\n\
Examples:\n  rda-report machine\n  rda-report machine host --json\n  rda-report machine zen4\n  \
rda-report machine --list"
)]
pub struct MachineArgs {
    /// `host` (this machine, from /sys) or a preset name (see `--list`).
    #[arg(default_value = machine::HOST, conflicts_with = "list")]
    pub name: String,
    /// List the presets with the CPU each describes and its sources.
    #[arg(long)]
    pub list: bool,
    /// Read `host` from DIR instead of /sys/devices/system/cpu (a copy of another machine's
    /// sysfs, or a test tree).
    #[arg(long, value_name = "DIR", default_value = machine::SYSFS_CPU_ROOT)]
    pub sysfs: PathBuf,
    #[command(flatten)]
    pub out: OutputArgs,
}

/// Prints the hierarchy of `host` or a preset, or the list of presets.
pub fn run(args: &MachineArgs) -> Result<()> {
    if args.list {
        let presets = machine::presets();
        let mut t = Table::new(["name", "cpu", "source"]).titled("machine presets");
        for p in &presets {
            // Long texts wrap onto rows of their own under the preset's name (one row each in
            // CSV, where nothing wraps).
            let (cpu, source) = if args.out.format() == crate::output::Format::Csv {
                (vec![p.cpu.clone()], vec![p.source.clone()])
            } else {
                (wrap(&p.cpu, 48), wrap(&p.source, 72))
            };
            for i in 0..cpu.len().max(source.len()) {
                let cell = |v: &[String]| v.get(i).cloned().unwrap_or_default();
                let name = if i == 0 {
                    p.name.clone()
                } else {
                    String::new()
                };
                t.row([name, cell(&cpu), cell(&source)]);
            }
        }
        return args.out.emit(&presets, &[t]);
    }
    let m = resolve(&args.name, &args.sysfs)?;
    let mut t = Table::new([
        "level",
        "type",
        "size",
        "ways",
        "line",
        "sets",
        "cpus sharing",
        "cores sharing",
        "copies",
        "first copy's cpus",
    ])
    .titled(format!("{}: {} cpus, {} cores", m.name, m.cpus, m.cores));
    for c in &m.levels {
        t.row([
            format!("L{}", c.level),
            c.kind.to_string(),
            format_size(c.size),
            if c.ways == 0 {
                "full".to_string()
            } else {
                c.ways.to_string()
            },
            c.line.to_string(),
            c.sets.to_string(),
            c.cpus_sharing.to_string(),
            c.cores_sharing.to_string(),
            c.instances.to_string(),
            c.shared_cpus.clone(),
        ]);
    }
    let mut tables = vec![t];
    let mut source = Table::new(["source"]);
    if args.out.format() == crate::output::Format::Csv {
        source.row([m.source.as_str()]);
    } else {
        for line in wrap(&m.source, 100) {
            source.row([line]);
        }
    }
    tables.push(source);
    if !m.warnings.is_empty() {
        let mut w =
            Table::new(["warning"]).titled("geometries that do not add up (kept as reported)");
        for line in &m.warnings {
            w.row([line]);
        }
        tables.push(w);
    }
    args.out.emit(&m, &tables)
}

/// Splits `text` at blanks into lines of at most `width` characters (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

/// `host` or a preset by name; an unknown name is a usage error (2) that lists the valid ones.
fn resolve(name: &str, sysfs: &std::path::Path) -> Result<Machine> {
    match Machine::resolve_with_root(name, sysfs) {
        Ok(m) => Ok(m),
        Err(e @ MachineError::UnknownPreset { .. }) => Err(crate::exit::usage(e.to_string())),
        Err(e) => Err(e).with_context(|| format!("reading machine `{name}`")),
    }
}

/// The simulator's levels `(l1, l2, l3)` of a machine ([`Machine::sim_levels`]).
type Levels = (
    rdcachesim::CacheConfig,
    rdcachesim::CacheConfig,
    Option<rdcachesim::CacheConfig>,
);

/// The machine `name` (`host` from this machine's /sys, or a preset) and its [`Levels`]: what
/// `measure --machine` and `predict --machine` start from.
fn sim_levels(
    name: &str,
) -> Result<(
    Machine,
    rdcachesim::CacheConfig,
    rdcachesim::CacheConfig,
    Option<rdcachesim::CacheConfig>,
)> {
    let m = resolve(
        name,
        std::path::Path::new(rdcachesim::machine::SYSFS_CPU_ROOT),
    )?;
    let (l1, l2, l3) = m
        .sim_levels()
        .with_context(|| format!("machine `{name}`"))?;
    Ok((m, l1, l2, l3))
}

/// The caches `measure --machine NAME` simulates: `(l1, l2, l3)` with a private L1 per
/// thread, and either a shared L2 (no L3: the SASMM paper's machine, Apple M1's cluster) or a
/// private L2 and a shared L3 (most server and desktop CPUs). Other shapes are refused, since
/// the simulator has no model for them.
pub(crate) fn measured_levels(name: &str) -> Result<Levels> {
    let (m, l1, l2, l3) = sim_levels(name)?;
    match (l3.is_some(), m.l2_private()) {
        (true, Some(true)) | (false, Some(false)) => Ok((l1, l2, l3)),
        (true, _) => anyhow::bail!(
            "machine `{name}` has an L3 behind a shared L2, which measure does not model"
        ),
        (false, _) => anyhow::bail!(
            "machine `{name}` has a private L2 and no L3, which measure does not model"
        ),
    }
}

/// The machine `name` as the SASMM exact model's levels `(l1, l2, l3, note)`: its level-1
/// data cache, private per core, and either its shared L2 (`l3 = None`: the SASMM paper's
/// machine, Apple M1's cluster) or its private L2 and shared L3 (most server and desktop CPUs:
/// the three levels `measure --machine` simulates). `note` names a level left out: an L3
/// behind a shared L2, or the private L2 when its line differs from the L1's (the three-level
/// model needs one line size; the L3 is then the shared level behind the L1).
pub(crate) fn modelled_levels(
    name: &str,
) -> Result<(
    rdcachesim::CacheConfig,
    rdcachesim::CacheConfig,
    Option<rdcachesim::CacheConfig>,
    Option<String>,
)> {
    let (m, l1, l2, l3) = sim_levels(name)?;
    match (m.l2_private(), l3) {
        (Some(true), Some(l3)) if l2.line == l1.line => Ok((l1, l2, Some(l3), None)),
        (Some(true), Some(l3)) => Ok((
            l1,
            l3,
            None,
            Some(format!(
                "machine `{name}`: modelling its private L1 {l1} and shared L3 {l3}; its private \
                 L2 {l2} has another line size than the L1, which the three-level model does not \
                 describe, so it is left out (L3 rates are of the L1 misses)"
            )),
        )),
        (Some(true), None) => anyhow::bail!(
            "machine `{name}` has a private L2 and no shared level, which the model (private L1s, \
             one shared level) does not describe; give --l1 and --l2"
        ),
        (_, l3) => Ok((
            l1,
            l2,
            None,
            l3.map(|l3| {
                format!("machine `{name}`: modelling its L1 {l1} and shared L2 {l2}; its L3 {l3} is left out")
            }),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn wrap_splits_at_blanks_and_keeps_long_words() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefgh ij", 4), ["abcdefgh", "ij"]);
        assert!(wrap("", 10).is_empty());
    }
}
