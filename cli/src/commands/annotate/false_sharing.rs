//! The false-sharing view of `annotate --false-sharing` and of the `html` report: tables of the
//! cache lines with coherence misses (threads, bytes written and read, source lines, verdict and
//! fix) and of the source lines that have them; the fix in words, derived from each line's
//! bytes ([`rdannotate::sharing::LineVerdict`]).

use crate::output::Table;
use rdannotate::sharing::{Fix, LineVerdict, Ranges, SharedLine, ThreadRanges};
use rdannotate::FalseSharing;
use rdcachesim::sharing::{ranges_text, PadElements};
use rdtrace::demangle::display_name;

/// Cache lines shown by default (`--false-sharing-top`).
pub const DEFAULT_TOP: usize = 10;
/// Cache lines recorded at most by default (`--false-sharing-max-lines`); the JSON lists all
/// recorded ones.
pub const DEFAULT_MAX_LINES: usize = 1024;

/// The view with readable function names (`rdtrace::demangle::display_name`, as `measure`'s
/// coherence table has them) in place of the symbols, for the JSON.
pub fn readable(mut fs: FalseSharing) -> FalseSharing {
    let names = |v: &mut Vec<String>| {
        for f in v.iter_mut() {
            *f = display_name(f).into_owned();
        }
    };
    for l in &mut fs.lines {
        for s in &mut l.sources {
            names(&mut s.functions);
        }
    }
    for s in &mut fs.sources {
        names(&mut s.functions);
    }
    fs
}

/// Bytes as text: `0-7,16-23`.
pub fn bytes(r: &Ranges) -> String {
    ranges_text(r)
}

fn threads_text(t: &[u32]) -> String {
    if t.is_empty() {
        return "-".into();
    }
    t.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

fn functions_text(f: &[String]) -> String {
    f.iter()
        .map(|f| display_name(f).into_owned())
        .collect::<Vec<_>>()
        .join("; ")
}

/// `thread 0's bytes 0-7 (written at a.c:12)`, naming the source lines on `l` through which
/// each thread wrote (`writes`) or read the line.
fn thread_ranges(l: &SharedLine, v: &[ThreadRanges], writes: bool) -> String {
    v.iter()
        .map(|t| {
            let at: Vec<String> = l
                .sources
                .iter()
                .filter(|s| {
                    let by = if writes {
                        &s.writing_threads
                    } else {
                        &s.threads
                    };
                    by.contains(&t.thread) && (!writes || !s.written.is_empty())
                })
                .map(|s| format!("{}:{}", short_file(&s.file), s.line))
                .collect();
            let verb = if writes { "written" } else { "read" };
            if at.is_empty() {
                format!("thread {}'s bytes {}", t.thread, bytes(&t.bytes))
            } else {
                format!(
                    "thread {}'s bytes {} ({verb} at {})",
                    t.thread,
                    bytes(&t.bytes),
                    at.join(", ")
                )
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// A file's base name (the tables give the full path).
fn short_file(f: &str) -> &str {
    f.rsplit('/').next().unwrap_or(f)
}

/// One word for the verdict.
pub fn verdict_word(v: &LineVerdict) -> &'static str {
    match v {
        LineVerdict::TrueSharing { .. } => "true sharing",
        LineVerdict::FalseSharing { .. } => "false sharing",
        LineVerdict::Undetermined => "undetermined",
    }
}

/// The true-sharing misses beside a false-sharing verdict, in words.
fn also_true(l: &SharedLine, shared: &Ranges) -> String {
    if l.true_sharing == 0 {
        return String::new();
    }
    format!(
        " ({} of its misses were true sharing, on bytes {} that another thread also touched: \
         padding leaves those)",
        l.true_sharing,
        bytes(shared)
    )
}

/// The verdict and the fix in words, from the line's own bytes.
pub fn advice(l: &SharedLine, line_bytes: u32) -> String {
    match &l.verdict {
        LineVerdict::TrueSharing { shared } => {
            let mut s = format!(
                "true sharing: threads write bytes {} that other threads also read or write; \
                 padding will not help (the same bytes are shared): accumulate in a \
                 thread-private copy (a local variable, or `reduction(...)`) and combine once \
                 at the end, or communicate less often",
                bytes(shared)
            );
            if l.false_sharing > 0 {
                s.push_str(&format!(
                    "; {} of its misses touched only other bytes (false sharing): move the \
                     bytes that are not shared to a line of their own",
                    l.false_sharing
                ));
            }
            s
        }
        LineVerdict::FalseSharing {
            padding:
                Fix::PadElements(PadElements {
                    slot,
                    stride,
                    line,
                    pad,
                }),
            shared,
        } => {
            let each = if slot == stride {
                format!("each thread writes its own {slot}-byte element")
            } else {
                format!("each thread writes {slot} bytes of its own {stride}-byte element")
            };
            format!(
                "false sharing: {each} of one array (elements {stride} B apart share this \
                 {line}-byte line); pad each per-thread element to the line size ({line} B): \
                 `alignas({line})` / `__attribute__((aligned({line})))` on the element type, or \
                 add `char pad[{pad}]` ({line} - {stride}) to it{}",
                also_true(l, shared),
            )
        }
        LineVerdict::FalseSharing {
            padding: Fix::Separate { writers, readers },
            shared,
        } => {
            let what = if writers.len() == 1 {
                format!(
                    "place {} on a line of its own",
                    thread_ranges(l, writers, true)
                )
            } else {
                format!(
                    "place each of {} on a line of its own",
                    thread_ranges(l, writers, true)
                )
            };
            let apart = if readers.is_empty() {
                String::new()
            } else {
                format!(
                    ", apart from {} (read only)",
                    thread_ranges(l, readers, false)
                )
            };
            format!(
                "false sharing: the threads write different bytes; {what}{apart}: \
                 `alignas({line_bytes})` on each variable or field that starts such a group, \
                 padding between them, or separate {line_bytes}-byte-aligned allocations{}",
                also_true(l, shared)
            )
        }
        LineVerdict::Undetermined => "undetermined: only one thread was seen on the line after \
                                      its first coherence miss"
            .into(),
    }
}

/// The view's tables: cache lines, each line's threads and bytes, each line's source lines,
/// the source lines with coherence misses; `top` cache lines (0: all).
pub fn tables(fs: &FalseSharing, l1: &str, top: usize) -> Vec<Table> {
    let shown = if top == 0 {
        &fs.lines[..]
    } else {
        &fs.lines[..fs.lines.len().min(top)]
    };
    let rest: u64 = fs.lines[shown.len()..]
        .iter()
        .map(|l| l.coherence)
        .sum::<u64>();
    let mut title = format!(
        "False sharing: cache lines with coherence misses (L1 {l1} per thread, {}-byte lines; \
         {} of {} lines shown",
        fs.line_bytes,
        shown.len(),
        fs.lines.len()
    );
    if rest > 0 {
        title.push_str(&format!(
            "; {rest} coherence misses on the {} lines not shown",
            fs.lines.len() - shown.len()
        ));
    }
    if fs.dropped_misses > 0 {
        title.push_str(&format!(
            "; {} coherence misses on lines beyond the {} recorded",
            fs.dropped_misses, fs.max_lines
        ));
    }
    title.push(')');
    let mut lines = Table::new([
        "line address",
        "coherence",
        "true sharing",
        "false sharing",
        "threads",
        "verdict",
    ])
    .titled(title);
    let mut fixes = Table::new(["line address", "verdict and fix"])
        .titled("What would fix each line (from the bytes each thread wrote and read)");
    if fs.lines.is_empty() {
        lines.title = Some(format!(
            "False sharing: no coherence misses (L1 {l1} per thread)"
        ));
    }
    let mut bytes_t = Table::new([
        "line address",
        "thread",
        "wrote bytes",
        "read bytes",
        "references",
        "true sharing",
        "false sharing",
    ])
    .titled("Threads of each line: bytes written and read (offsets in the line)");
    let mut srcs = Table::new([
        "line address",
        "source line",
        "function",
        "threads",
        "wrote bytes",
        "read bytes",
        "references",
        "true sharing",
        "false sharing",
    ])
    .titled("Source lines of each cache line");
    for l in shown {
        let addr = format!("{:#x}", l.address);
        lines.row([
            addr.clone(),
            l.coherence.to_string(),
            l.true_sharing.to_string(),
            l.false_sharing.to_string(),
            threads_text(&l.threads.iter().map(|t| t.thread).collect::<Vec<_>>()),
            verdict_word(&l.verdict).to_string(),
        ]);
        fixes.row([addr.clone(), advice(l, fs.line_bytes)]);
        for t in &l.threads {
            bytes_t.row([
                addr.clone(),
                t.thread.to_string(),
                bytes(&t.written),
                bytes(&t.read),
                t.references.to_string(),
                t.true_sharing.to_string(),
                t.false_sharing.to_string(),
            ]);
        }
        for s in &l.sources {
            srcs.row([
                addr.clone(),
                format!("{}:{}", s.file, s.line),
                functions_text(&s.functions),
                threads_text(&s.threads),
                bytes(&s.written),
                bytes(&s.read),
                s.references.to_string(),
                s.true_sharing.to_string(),
                s.false_sharing.to_string(),
            ]);
        }
        if l.other_source_references > 0 {
            srcs.row([
                addr.clone(),
                "(other instructions)".into(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                l.other_source_references.to_string(),
                String::new(),
                String::new(),
            ]);
        }
    }
    let mut by_source = Table::new([
        "source line",
        "function",
        "coherence",
        "true sharing",
        "false sharing",
        "cache lines",
        "written by (other threads)",
    ])
    .titled(format!(
        "Source lines with coherence misses: {} (cache lines: recorded lines it missed on)",
        fs.sources.len()
    ));
    for s in &fs.sources {
        by_source.row([
            format!("{}:{}", s.file, s.line),
            functions_text(&s.functions),
            s.coherence.to_string(),
            s.true_sharing.to_string(),
            s.false_sharing.to_string(),
            s.cache_lines.to_string(),
            if s.written_by.is_empty() {
                "-".into()
            } else {
                s.written_by.join(", ")
            },
        ]);
    }
    if fs.lines.is_empty() {
        return vec![lines];
    }
    vec![lines, bytes_t, srcs, fixes, by_source]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdannotate::sharing::ThreadBytes;

    fn line(verdict: LineVerdict, threads: &[u32]) -> SharedLine {
        SharedLine {
            address: 0x1000,
            coherence: 4,
            true_sharing: 0,
            false_sharing: 4,
            threads: threads
                .iter()
                .map(|&t| ThreadBytes {
                    thread: t,
                    read: vec![],
                    written: vec![],
                    references: 0,
                    true_sharing: 0,
                    false_sharing: 0,
                })
                .collect(),
            sources: vec![],
            other_source_references: 0,
            verdict,
        }
    }

    #[test]
    fn advice_follows_the_bytes() {
        // Two 8-byte counters 8 bytes apart: pad each to 64 bytes, 56 bytes of padding.
        let pad = line(
            LineVerdict::FalseSharing {
                padding: Fix::PadElements(PadElements {
                    slot: 8,
                    stride: 8,
                    line: 64,
                    pad: 56,
                }),
                shared: vec![],
            },
            &[0, 1],
        );
        let a = advice(&pad, 64);
        assert!(a.starts_with("false sharing: each thread writes its own 8-byte element"));
        assert!(a.contains("pad each per-thread element to the line size (64 B)"));
        assert!(a.contains("`alignas(64)`") && a.contains("`char pad[56]` (64 - 8)"));
        // One field of a 24-byte struct per thread.
        let wide = line(
            LineVerdict::FalseSharing {
                padding: Fix::PadElements(PadElements {
                    slot: 4,
                    stride: 24,
                    line: 64,
                    pad: 40,
                }),
                shared: vec![],
            },
            &[0, 1],
        );
        assert!(advice(&wide, 64).contains("4 bytes of its own 24-byte element"));
        // A writer and a reader of other bytes.
        let sep = line(
            LineVerdict::FalseSharing {
                padding: Fix::Separate {
                    writers: vec![ThreadRanges {
                        thread: 0,
                        bytes: vec![(0, 7)],
                    }],
                    readers: vec![ThreadRanges {
                        thread: 1,
                        bytes: vec![(8, 15)],
                    }],
                },
                shared: vec![],
            },
            &[0, 1],
        );
        assert_eq!(
            advice(&sep, 64),
            "false sharing: the threads write different bytes; place thread 0's bytes 0-7 on a \
             line of its own, apart from thread 1's bytes 8-15 (read only): `alignas(64)` on \
             each variable or field that starts such a group, padding between them, or separate \
             64-byte-aligned allocations"
        );
        // With the source lines known, the advice names where each thread's bytes are written.
        let mut sep = sep;
        sep.sources.push(rdannotate::sharing::LineSource {
            file: "/src/a.c".into(),
            line: 12,
            functions: vec!["f".into()],
            threads: vec![0],
            writing_threads: vec![0],
            read: vec![],
            written: vec![(0, 7)],
            references: 3,
            true_sharing: 0,
            false_sharing: 0,
        });
        assert!(advice(&sep, 64)
            .contains("place thread 0's bytes 0-7 (written at a.c:12) on a line of its own"));
        let t = line(
            LineVerdict::TrueSharing {
                shared: vec![(0, 7)],
            },
            &[0, 1],
        );
        let a = advice(&t, 64);
        assert!(a.starts_with("true sharing: threads write bytes 0-7"));
        assert!(a.contains("padding will not help"));
    }
}
