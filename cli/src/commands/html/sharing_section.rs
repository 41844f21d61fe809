//! The "False sharing" section: the cache lines with coherence misses, their threads and bytes,
//! the verdict and fix, and the source lines that have them (the tables of `annotate
//! --false-sharing`, bounded by `--top`).

use crate::commands::annotate::false_sharing::tables;
use crate::html;
use rdannotate::Annotation;

/// Threads listed per cache line at most (the rest are in the line's thread count).
const MAX_LINE_THREADS: usize = super::MAX_THREADS;

pub(super) fn false_sharing(a: &Annotation, top: usize) -> String {
    let Some(fs) = &a.false_sharing else {
        return html::note("no coherence misses (the view was not recorded)");
    };
    if fs.lines.is_empty() && fs.dropped_misses == 0 {
        return html::note(&format!(
            "no coherence misses: no thread's write invalidated a line another thread's L1 \
             (L1 {} per thread) then missed on.",
            a.config.l1
        ));
    }
    let mut s = html::note(&format!(
        "Cache lines on which a thread missed because another thread's write invalidated its copy \
         (write-invalidate between the private L1s, {} per thread), most first: {} coherence \
         misses in all ({} true sharing: the same bytes; {} false sharing: other bytes of the \
         line). Bytes are offsets in the {}-byte line; a line is recorded from its first \
         coherence miss on. The fix is derived from the bytes each thread wrote and read.",
        a.config.l1,
        fs.coherence,
        a.total.l1_kinds.true_sharing,
        a.total.l1_kinds.false_sharing,
        fs.line_bytes
    ));
    for (i, mut t) in tables(fs, &a.config.l1.to_string(), top)
        .into_iter()
        .enumerate()
    {
        if i == 1 && t.rows.len() > top * MAX_LINE_THREADS {
            t.rows.truncate(top * MAX_LINE_THREADS);
        }
        if i == 4 && t.rows.len() > top {
            t.rows.truncate(top);
        }
        s.push_str(&html::table(&t, true));
    }
    s
}
