//! The false-sharing view of an annotation: the [`rdcachesim::SharingRecorder`]'s cache lines
//! with cores turned into thread indices, byte masks into byte ranges, memory instructions into
//! source lines and functions, and each line's verdict ([`rdcachesim::sharing::verdict`]); plus
//! the source lines with coherence misses, and the source lines whose writes from other threads
//! invalidated the cache lines they missed on.

use super::Annotator;
pub use rdcachesim::sharing::PadElements;
use rdcachesim::sharing::{byte_ranges, verdict, Padding, Verdict};
use rdcachesim::SharingReport;
use serde::Serialize;
use std::collections::BTreeSet;

/// Byte ranges of a line, first and last byte inclusive: `[(0, 7)]` is bytes 0-7.
pub type Ranges = Vec<(u32, u32)>;

/// One thread's part in a cache line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadBytes {
    /// Thread index.
    pub thread: u32,
    /// Bytes it read.
    pub read: Ranges,
    /// Bytes it wrote.
    pub written: Ranges,
    /// Its references to the line once recorded (0 when only a recalled earlier write shows).
    pub references: u64,
    /// Its coherence misses on the line, true sharing.
    pub true_sharing: u64,
    /// Its coherence misses on the line, false sharing.
    pub false_sharing: u64,
}

/// One source line's part in a cache line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LineSource {
    /// Source file (`?` when unknown).
    pub file: String,
    /// 1-based line (0 when unknown).
    pub line: u32,
    /// Symbols of the functions of its instructions that touched the cache line.
    pub functions: Vec<String>,
    /// Threads that touched the cache line from it.
    pub threads: Vec<u32>,
    /// Threads that wrote the cache line from it.
    pub writing_threads: Vec<u32>,
    /// Bytes read from it.
    pub read: Ranges,
    /// Bytes written from it.
    pub written: Ranges,
    /// References from it.
    pub references: u64,
    /// Coherence misses of its accesses, true sharing.
    pub true_sharing: u64,
    /// Coherence misses of its accesses, false sharing.
    pub false_sharing: u64,
}

/// A thread and byte ranges.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadRanges {
    /// Thread index.
    pub thread: u32,
    /// Bytes.
    pub bytes: Ranges,
}

/// How to separate the bytes of a falsely shared line (see [`Padding`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fix {
    /// Per-thread elements of one array: pad each element to the line.
    PadElements(PadElements),
    /// Put each writer's bytes on a line of their own, apart from what the readers read.
    Separate {
        /// Each writing thread's bytes.
        writers: Vec<ThreadRanges>,
        /// Each thread that only read, and its bytes.
        readers: Vec<ThreadRanges>,
    },
}

/// What a cache line's recorded bytes say.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LineVerdict {
    /// Most coherence misses touched bytes another thread wrote: padding cannot help.
    TrueSharing {
        /// The bytes one thread wrote and another read or wrote.
        shared: Ranges,
    },
    /// Most coherence misses touched only bytes no other thread wrote: padding fixes them.
    FalseSharing {
        /// How.
        padding: Fix,
        /// Bytes one thread wrote and another read or wrote all the same (the line's true
        /// sharing, which padding leaves; usually empty).
        shared: Ranges,
    },
    /// Fewer than two threads were seen on the line.
    Undetermined,
}

/// One cache line with coherence misses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharedLine {
    /// The line's first byte address.
    pub address: u64,
    /// Its coherence misses (all threads).
    pub coherence: u64,
    /// Those that touched bytes other threads wrote.
    pub true_sharing: u64,
    /// Those that touched none of the bytes other threads wrote.
    pub false_sharing: u64,
    /// The threads that touched it, ascending.
    pub threads: Vec<ThreadBytes>,
    /// The source lines that touched it, most coherence misses first.
    pub sources: Vec<LineSource>,
    /// References by instructions beyond the per-line bound.
    pub other_source_references: u64,
    /// The verdict and the fix.
    pub verdict: LineVerdict,
}

/// One source line with coherence misses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SharingSource {
    /// Source file.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// Symbols of the functions that executed it.
    pub functions: Vec<String>,
    /// Its L1 coherence misses (all cache lines, recorded or not).
    pub coherence: u64,
    /// Those with true sharing.
    pub true_sharing: u64,
    /// Those with false sharing.
    pub false_sharing: u64,
    /// Recorded cache lines on which it had coherence misses.
    pub cache_lines: u64,
    /// `file:line` of the source lines that wrote those cache lines from another thread (this
    /// line itself when the same code runs in several threads), in source order.
    pub written_by: Vec<String>,
}

/// The false-sharing view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FalseSharing {
    /// Bytes per cache line.
    pub line_bytes: u32,
    /// The bound on recorded cache lines.
    pub max_lines: usize,
    /// L1 coherence misses of the run (recorded lines' plus `dropped_misses`).
    pub coherence: u64,
    /// Coherence misses on cache lines that found the table full.
    pub dropped_misses: u64,
    /// Recorded cache lines, most coherence misses first.
    pub lines: Vec<SharedLine>,
    /// Source lines with coherence misses, most first.
    pub sources: Vec<SharingSource>,
}

/// One source line's instructions on a cache line, merged (cores and granules before they
/// become threads and ranges).
struct Merged {
    key: usize,
    source: LineSource,
    cores: Vec<u32>,
    writing: Vec<u32>,
    read: u64,
    written: u64,
}

fn label(file: &str, line: u32) -> String {
    format!("{file}:{line}")
}

/// Resolves a recorder's report against the annotator's tables.
pub(crate) fn resolve(a: &Annotator, rep: SharingReport, thread_indices: &[u32]) -> FalseSharing {
    let thread = |core: u32| thread_indices.get(core as usize).copied().unwrap_or(core);
    let threads = |cores: &[u32]| -> Vec<u32> {
        let mut t: Vec<u32> = cores.iter().map(|&c| thread(c)).collect();
        t.sort_unstable();
        t
    };
    let g = rep.granule_bytes;
    let unknown = a.targets.last().copied().expect("unknown slot");
    let target = |mi: u32| a.targets.get(mi as usize).copied().unwrap_or(unknown);
    // Per source-line key: recorded cache lines with its misses, and the writers of those.
    let mut per_key: Vec<(u64, BTreeSet<usize>)> = vec![(0, BTreeSet::new()); a.line_keys.len()];
    let mut lines = Vec::with_capacity(rep.lines.len());
    for rec in &rep.lines {
        // Merge the instructions' records into source lines.
        let mut merged: Vec<Merged> = Vec::new();
        for s in &rec.sources {
            let t = target(s.source);
            let k = match merged.iter().position(|e| e.key == t.line) {
                Some(k) => k,
                None => {
                    let (file, line) = a.line_keys[t.line].clone();
                    merged.push(Merged {
                        key: t.line,
                        source: LineSource {
                            file,
                            line,
                            functions: Vec::new(),
                            threads: Vec::new(),
                            writing_threads: Vec::new(),
                            read: Vec::new(),
                            written: Vec::new(),
                            references: 0,
                            true_sharing: 0,
                            false_sharing: 0,
                        },
                        cores: Vec::new(),
                        writing: Vec::new(),
                        read: 0,
                        written: 0,
                    });
                    merged.len() - 1
                }
            };
            let e = &mut merged[k];
            let f = &a.function_names[t.function].0;
            if !e.source.functions.contains(f) {
                e.source.functions.push(f.clone());
            }
            e.cores.extend(&s.cores);
            e.writing.extend(&s.writing_cores);
            e.read |= s.read;
            e.written |= s.written;
            e.source.references += s.references;
            e.source.true_sharing += s.true_sharing;
            e.source.false_sharing += s.false_sharing;
        }
        let mut srcs: Vec<LineSource> = Vec::with_capacity(merged.len());
        for mut m in merged {
            m.cores.sort_unstable();
            m.cores.dedup();
            m.writing.sort_unstable();
            m.writing.dedup();
            let mut s = m.source;
            if s.true_sharing + s.false_sharing > 0 {
                per_key[m.key].0 += 1;
                // The source lines that wrote this cache line from a thread other than one of
                // those that touched it from here.
                for x in &rec.sources {
                    if x.writing_cores
                        .iter()
                        .any(|w| m.cores.iter().any(|c| c != w))
                    {
                        per_key[m.key].1.insert(target(x.source).line);
                    }
                }
            }
            s.threads = threads(&m.cores);
            s.writing_threads = threads(&m.writing);
            s.read = byte_ranges(m.read, g);
            s.written = byte_ranges(m.written, g);
            srcs.push(s);
        }
        srcs.sort_by_key(|s| std::cmp::Reverse(s.true_sharing + s.false_sharing));
        let mut ts: Vec<ThreadBytes> = rec
            .cores
            .iter()
            .map(|c| ThreadBytes {
                thread: thread(c.core),
                read: byte_ranges(c.read, g),
                written: byte_ranges(c.written, g),
                references: c.references,
                true_sharing: c.true_sharing,
                false_sharing: c.false_sharing,
            })
            .collect();
        let ranges = |v: &[(u32, u64)]| -> Vec<ThreadRanges> {
            v.iter()
                .map(|&(c, m)| ThreadRanges {
                    thread: thread(c),
                    bytes: byte_ranges(m, g),
                })
                .collect()
        };
        let verdict = match verdict(rec, rep.line_bytes, g) {
            Verdict::TrueSharing { shared } => LineVerdict::TrueSharing {
                shared: byte_ranges(shared, g),
            },
            Verdict::FalseSharing { padding, shared } => LineVerdict::FalseSharing {
                shared: byte_ranges(shared, g),
                padding: match padding {
                    Padding::PadElements(p) => Fix::PadElements(p),
                    Padding::Separate { writers, readers } => Fix::Separate {
                        writers: ranges(&writers),
                        readers: ranges(&readers),
                    },
                },
            },
            Verdict::Undetermined => LineVerdict::Undetermined,
        };
        ts.sort_by_key(|t| t.thread);
        lines.push(SharedLine {
            address: rec.line * rep.line_bytes as u64,
            coherence: rec.coherence(),
            true_sharing: rec.true_sharing,
            false_sharing: rec.false_sharing,
            threads: ts,
            sources: srcs,
            other_source_references: rec.other_source_references,
            verdict,
        });
    }
    let mut sources: Vec<SharingSource> = a
        .line_counts
        .iter()
        .enumerate()
        .filter(|(_, c)| c.l1_kinds.coherence > 0)
        .map(|(key, c)| {
            let (file, line) = a.line_keys[key].clone();
            let mut written_by: Vec<(String, u32)> = per_key[key]
                .1
                .iter()
                .map(|&k| a.line_keys[k].clone())
                .collect();
            written_by.sort();
            SharingSource {
                file,
                line,
                functions: a.line_functions[key]
                    .iter()
                    .filter(|&&(_, pair)| a.pair_accesses[pair] > 0)
                    .map(|&(f, _)| a.function_names[f].0.clone())
                    .collect(),
                coherence: c.l1_kinds.coherence,
                true_sharing: c.l1_kinds.true_sharing,
                false_sharing: c.l1_kinds.false_sharing,
                cache_lines: per_key[key].0,
                written_by: written_by.iter().map(|(f, l)| label(f, *l)).collect(),
            }
        })
        .collect();
    sources.sort_by(|x, y| {
        y.coherence
            .cmp(&x.coherence)
            .then_with(|| (&x.file, x.line).cmp(&(&y.file, y.line)))
    });
    let coherence = lines.iter().map(|l| l.coherence).sum::<u64>() + rep.dropped_misses;
    FalseSharing {
        line_bytes: rep.line_bytes,
        max_lines: rep.max_lines,
        coherence,
        dropped_misses: rep.dropped_misses,
        lines,
        sources,
    }
}
