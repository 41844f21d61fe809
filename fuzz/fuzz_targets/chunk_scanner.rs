//! The whole reader on arbitrary files: `rdtrace::fuzzing::chunk_scanner` (every way of
//! opening, every thread, the merged stream, the checker, the stream reader; each input also
//! with every chunk's CRC recomputed). Any panic, abort, or allocation past libFuzzer's
//! `-rss_limit_mb` is a finding.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rdtrace::fuzzing::chunk_scanner(data));
