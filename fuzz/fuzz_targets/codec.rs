//! The events decoder on arbitrary payloads, with bounds from the input's first bytes:
//! `rdtrace::fuzzing::codec` (every event within the bounds, never more than allowed).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| rdtrace::fuzzing::codec(data));
