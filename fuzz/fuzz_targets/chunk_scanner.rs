//! The whole reader on arbitrary files: `Trace::open` (chunk scanner, metadata decoding, the
//! validation pass over every events chunk), then every thread's events and the merged stream.
//! Any panic, abort, or allocation past libFuzzer's `-rss_limit_mb` is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdtrace::{OpenOptions, Trace};

fuzz_target!(|data: &[u8]| {
    // The reader reads files; one per fuzzing process, rewritten each run.
    let path = std::env::temp_dir().join(format!("rdtrace-fuzz-{}.rdtrace", std::process::id()));
    std::fs::write(&path, data).unwrap();
    for strict in [false, true] {
        let Ok(trace) = Trace::open_with(&path, OpenOptions { strict }) else {
            continue;
        };
        let _ = trace.total_events();
        for t in trace.thread_indices() {
            let _ = trace.visit_thread(t, &mut Vec::new());
        }
        if let Ok(merged) = trace.merged() {
            for e in merged {
                if e.is_err() {
                    break;
                }
            }
        }
    }
});
