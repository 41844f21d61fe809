//! The page's sections drawn from the annotation: summary, reuse distances, threads, hot lines.

use super::args::HtmlArgs;
use super::mrc::{bin_label, miss_ratio, mrc_sizes};
use super::{MAX_THREADS, MAX_THREAD_SERIES};
use crate::html;
use crate::output::{percent, Table};
use crate::plot::{self, Series};
use rdannotate::Annotation;

pub(super) fn summary(trace: &rdtrace::Trace, a: &Annotation, args: &HtmlArgs) -> String {
    let mut t = Table::new(["quantity", "value"]);
    let p = &trace.program;
    t.row(["program".to_string(), p.program.clone()]);
    if !p.args.is_empty() {
        t.row(["arguments".to_string(), p.args.join(" ")]);
    }
    t.row(["trace".to_string(), args.trace.display().to_string()]);
    t.row(["trace bytes".to_string(), trace.file_len().to_string()]);
    t.row(["events".to_string(), trace.total_events().to_string()]);
    t.row(["threads".to_string(), trace.threads.len().to_string()]);
    t.row([
        "exit".to_string(),
        trace
            .exit
            .as_ref()
            .map_or("no end chunk (crash or kill)".into(), |e| {
                format!("{:?}", e.reason)
            }),
    ]);
    let tot = &a.total;
    t.row(["accesses".to_string(), tot.accesses.to_string()]);
    t.row([
        "cache-line references".to_string(),
        tot.references.to_string(),
    ]);
    t.row([
        "cold references".to_string(),
        format!("{} ({} %)", tot.cold, percent(tot.cold, tot.references)),
    ]);
    t.row([
        format!("L1 misses ({} per thread)", a.config.l1),
        format!(
            "{} ({} % of references)",
            tot.l1_misses,
            percent(tot.l1_misses, tot.references)
        ),
    ]);
    t.row([
        format!("L2 misses ({} shared)", a.config.l2),
        format!(
            "{} ({} % of references)",
            tot.l2_misses,
            percent(tot.l2_misses, tot.references)
        ),
    ]);
    let mut s = html::table(&t, false);
    for w in trace.warnings() {
        s.push_str(&format!("<p class=\"warn\">{}</p>", html::esc(w)));
    }
    s
}

pub(super) fn reuse(a: &Annotation) -> String {
    let h = &a.histogram;
    let line = a.config.l1.line;
    let bins = h.log2_bins();
    let mut labels: Vec<String> = bins.iter().map(|&(lo, hi, _)| bin_label(lo, hi)).collect();
    let mut values: Vec<f64> = bins.iter().map(|b| b.2 as f64).collect();
    labels.push("cold".into());
    values.push(h.cold as f64);
    let bar = plot::bar_chart(
        &format!("Reuse-distance histogram ({line} B lines, all threads)"),
        "reuse distance (distinct lines, log2 bins)",
        "references",
        &labels,
        &values,
    );
    let sizes = mrc_sizes(h, &[a.config.l1.lines(), a.config.l2.lines()]);
    let pts: Vec<(f64, f64)> = sizes
        .iter()
        .map(|&c| ((c as f64).log2(), 100.0 * miss_ratio(h, c)))
        .collect();
    let mrc = plot::line_chart(
        "Miss-ratio curve (fully associative LRU)",
        "cache size: log2(lines)",
        "miss ratio (%)",
        &[Series {
            name: "miss ratio %".into(),
            points: pts,
            dashed: false,
        }],
        Some(100.0),
    );
    let mut hist_t = Table::new(["distance", "references", "%"]).titled("Histogram");
    for (&(lo, hi, n), l) in bins.iter().zip(&labels) {
        let _ = (lo, hi);
        hist_t.row([l.clone(), n.to_string(), percent(n, h.total())]);
    }
    hist_t.row([
        "cold".to_string(),
        h.cold.to_string(),
        percent(h.cold, h.total()),
    ]);
    let mut mrc_t = Table::new(["cache lines", "cache bytes", "miss ratio %", "note"])
        .titled("Miss-ratio curve");
    for &c in &sizes {
        let note = if c == a.config.l1.lines() {
            "L1 size"
        } else if c == a.config.l2.lines() {
            "L2 size"
        } else {
            ""
        };
        mrc_t.row([
            c.to_string(),
            (c * line as u64).to_string(),
            format!("{:.2}", 100.0 * miss_ratio(h, c)),
            note.to_string(),
        ]);
    }
    let mut s = html::note(
        "Reuse distance: distinct other cache lines touched between two references to a line, \
         over all threads in the order the trace's stamps give (concurrent reuse). The \
         miss-ratio curve reads the histogram as a fully associative LRU cache of each size; the \
         hot-lines table below uses the exact set-associative simulator instead.",
    );
    s.push_str(&html::plots(&[bar, mrc], false));
    s.push_str("<div class=\"plots\">");
    s.push_str(&html::table(&hist_t, true));
    s.push_str(&html::table(&mrc_t, true));
    s.push_str("</div>");
    s
}

pub(super) fn threads(a: &Annotation) -> String {
    let shown = &a.thread_histograms[..a.thread_histograms.len().min(MAX_THREADS)];
    let mut series = Vec::new();
    for (t, h) in shown.iter().take(MAX_THREAD_SERIES) {
        let total = h.total().max(1) as f64;
        // Every bin from 0 to the thread's largest, empty ones at 0 %, so lines do not bridge
        // gaps.
        let bins = h.log2_bins();
        let k_of = |lo: u64| {
            if lo == 0 {
                0
            } else {
                64 - lo.leading_zeros() as usize
            }
        };
        let last = bins.last().map_or(0, |b| k_of(b.0));
        let mut pct = vec![0.0; last + 1];
        for &(lo, _, n) in &bins {
            pct[k_of(lo)] = 100.0 * n as f64 / total;
        }
        let pts: Vec<(f64, f64)> = pct
            .iter()
            .enumerate()
            .map(|(k, &p)| (k as f64, p))
            .collect();
        series.push(Series {
            name: format!("thread {t}"),
            points: pts,
            dashed: false,
        });
    }
    let chart = plot::line_chart(
        "Private reuse distance per thread",
        "log2 bin k (k=0: distance 0; k>=1: 2^(k-1)..2^k-1 lines)",
        "% of the thread's references",
        &series,
        None,
    );
    let l1 = a.config.l1.lines();
    let l2 = a.config.l2.lines();
    let mut t = Table::new([
        "thread",
        "references",
        "cold",
        "cold %",
        &format!("distance < {l1} (L1 lines) %"),
        &format!("distance < {l2} (L2 lines) %"),
    ]);
    for (th, h) in shown {
        t.row([
            th.to_string(),
            h.total().to_string(),
            h.cold.to_string(),
            percent(h.cold, h.total()),
            percent(h.hits_below(l1), h.total()),
            percent(h.hits_below(l2), h.total()),
        ]);
    }
    let mut s = html::note(&format!(
        "Each thread's own reuse distances (private reuse: other threads' accesses do not count). \
         Showing {} of {} threads; the plot draws the first {}.",
        shown.len(),
        a.thread_histograms.len(),
        MAX_THREAD_SERIES.min(shown.len())
    ));
    s.push_str(&html::plots(&[chart], false));
    s.push_str(&html::table(&t, true));
    s
}

pub(super) fn hot_lines(a: &Annotation, args: &HtmlArgs) -> String {
    let top = args.top as usize;
    let tables = crate::commands::annotate::tables(a, top);
    let mut s = html::note(
        "Sorted by L1 misses, then L2 misses; click a header to sort by another column. RD pXX: \
         reuse-distance percentiles in lines (cold references excluded). The L1 misses split \
         into compulsory (the thread's L1 never had the line), capacity (a fully associative \
         L1 of the same size misses too), conflict (the rest: the set mapping) and coherence \
         (another thread's write invalidated the line); the four add up to the L1 misses.",
    );
    for (i, t) in tables.iter().enumerate() {
        let mut t = t.clone();
        if i == 0 {
            // The totals row would sort in with the lines; the run summary has the totals.
            t.rows.pop();
        }
        s.push_str(&html::table(&t, true));
    }
    if let Some(dir) = &args.source_dir {
        let (ex, missing) = crate::commands::annotate::excerpts(a, dir, top.min(10), 2);
        for e in &ex {
            s.push_str(&format!(
                "<h3>{}</h3><pre class=\"source\"><span class=\"margin\">{:>10} {:>10} {:>10}</span>  line\n",
                html::esc(&e.file),
                "accesses",
                "L1 misses",
                "L2 misses"
            ));
            for (i, run) in e.runs.iter().enumerate() {
                if i > 0 {
                    s.push_str(
                        "<span class=\"gap\">                                   ...</span>\n",
                    );
                }
                for l in run {
                    let margin = match l.counts {
                        Some((x, m1, m2)) => format!("{x:>10} {m1:>10} {m2:>10}"),
                        None => format!("{:>10} {:>10} {:>10}", ".", ".", "."),
                    };
                    let text = format!(
                        "<span class=\"margin\">{margin}</span> {:>5}  {}",
                        l.line,
                        html::esc(&l.text)
                    );
                    if l.hot {
                        s.push_str(&format!("<span class=\"hot\">{text}</span>\n"));
                    } else {
                        s.push_str(&text);
                        s.push('\n');
                    }
                }
            }
            s.push_str("</pre>\n");
        }
        for f in missing {
            s.push_str(&format!(
                "<p class=\"warn\">source {} not found under {}</p>",
                html::esc(&f),
                html::esc(&dir.display().to_string())
            ));
        }
    }
    s
}
