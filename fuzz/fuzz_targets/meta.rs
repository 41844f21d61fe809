//! The metadata decoder on arbitrary blobs: `rdtrace::fuzzing::meta` (`ModuleMeta::from_blob`,
//! merging twice, the events decoder's bounds, the other metadata records).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rdtrace::fuzzing::meta(data));
