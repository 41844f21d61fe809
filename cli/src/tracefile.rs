//! Opening traces for commands: errors name the file, warnings go to stderr once.

use anyhow::Result;
use rdtrace::Trace;
use std::path::Path;

/// Opens a trace and prints its warnings (truncation, missing end chunk) on stderr.
pub fn open(path: &Path) -> Result<Trace> {
    let trace = Trace::open(path)?;
    for w in trace.warnings() {
        eprintln!("rda-report: warning: {w}");
    }
    Ok(trace)
}
