//! The metadata decoder on arbitrary blobs: `ModuleMeta::from_blob` (header, postcard, every
//! cross-reference), then merging into a `ProgramMeta` twice (the second at the first's counts)
//! and the bounds the events decoder derives from it; plus the other metadata records.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdtrace::chunk::{ExitInfo, ModuleRecord, ProgramInfo, ThreadInfo};
use rdtrace::codec::EventBounds;
use rdtrace::meta::{ModuleMeta, ProgramMeta};

fuzz_target!(|data: &[u8]| {
    if let Ok(m) = ModuleMeta::from_blob(data) {
        let mut p = ProgramMeta::default();
        p.add_module(m.clone(), p.counts()).unwrap();
        p.add_module(m, p.counts()).unwrap();
        let b = EventBounds::of(&p);
        assert_eq!(b.blocks as usize, p.blocks.len());
        for l in &p.loops {
            assert!(l.parent.is_none_or(|q| (q as usize) < p.loops.len()));
        }
        let _ = p.format_loc(p.blocks.first().and_then(|b| b.loc));
    }
    let _ = postcard::from_bytes::<ModuleRecord>(data);
    let _ = postcard::from_bytes::<ProgramInfo>(data);
    let _ = postcard::from_bytes::<ThreadInfo>(data);
    let _ = postcard::from_bytes::<ExitInfo>(data);
});
