//! The whole reader on arbitrary files: `Trace::open` (chunk scanner, metadata decoding, the
//! validation pass over every events chunk), then every thread's events and the merged stream.
//! Each input is read twice: as is, and with every chunk's CRC recomputed (as a crafted file or
//! a clobbered buffer written faithfully would be), so mutations reach the payload decoders.
//! Any panic, abort, or allocation past libFuzzer's `-rss_limit_mb` is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdtrace::{OpenOptions, Trace};

/// `data` with the CRC of every whole chunk recomputed.
fn with_valid_crcs(data: &[u8]) -> Vec<u8> {
    let mut b = data.to_vec();
    let mut at = 16;
    while at + 32 <= b.len() {
        let len = u32::from_le_bytes(b[at + 16..at + 20].try_into().unwrap()) as usize;
        let Some(end) = (at + 32).checked_add(len).filter(|&e| e <= b.len()) else {
            break;
        };
        let mut crc = crc32fast::Hasher::new();
        crc.update(&b[at..at + 28]);
        crc.update(&b[at + 32..end]);
        b[at + 28..at + 32].copy_from_slice(&crc.finalize().to_le_bytes());
        at = end;
    }
    b
}

fuzz_target!(|data: &[u8]| {
    // The reader reads files; one per fuzzing process, rewritten each run.
    let path = std::env::temp_dir().join(format!("rdtrace-fuzz-{}.rdtrace", std::process::id()));
    std::fs::write(&path, data).unwrap();
    read(&path);
    std::fs::write(&path, with_valid_crcs(data)).unwrap();
    read(&path);
});

/// Opens the file leniently and strictly and reads every event both ways.
fn read(path: &std::path::Path) {
    for strict in [false, true] {
        let Ok(trace) = Trace::open_with(path, OpenOptions { strict }) else {
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
}
