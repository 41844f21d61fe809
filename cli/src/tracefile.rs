//! Opening traces for commands: errors name the file, warnings go to stderr once, and
//! `--strict` (flattened into every command that reads traces) turns warnings into errors.

use anyhow::Result;
use rdtrace::{OpenOptions, Trace};
use std::path::Path;

/// Trace-reading flags shared by every command that opens a trace.
#[derive(clap::Args, Debug, Clone, Copy, Default)]
pub struct OpenArgs {
    /// Treat every reader warning as an error: truncation, a missing end chunk, lost chunks,
    /// and a corrupt events chunk that would otherwise end its thread's stream early.
    #[arg(long)]
    pub strict: bool,
}

/// Opens a trace and prints its warnings (truncation, missing end chunk, salvaged threads) on
/// stderr; with `--strict` the first warning is the error instead.
pub fn open(path: &Path, args: &OpenArgs) -> Result<Trace> {
    let trace = Trace::open_with(
        path,
        OpenOptions {
            strict: args.strict,
        },
    )?;
    for w in trace.warnings() {
        eprintln!("rda-report: warning: {w}");
    }
    Ok(trace)
}
