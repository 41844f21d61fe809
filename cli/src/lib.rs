//! `rda-report` as a library: the whole command-line tool (every analysis of rdtools traces as a
//! subcommand) behind one entry point, so that the binary is a thin wrapper over it and commands
//! are tested in process (`cli/tests/`), through the same parsing and exit statuses as a run of
//! the binary, without spawning it.
//!
//! Analyses live in library crates and return plain data; this crate parses flags into their
//! `*Config` structs and renders results through its `output` module (tables, JSON, CSV) and
//! `plot` (SVG). Exit status: 0 success, 1 failure (bad trace, I/O), 2 usage error, decided
//! here only (see [`exit`]). It depends on the analysis crates and the trace reader only, never
//! on the compiler pass (`rdpass`) or the tracing runtime (`rdruntime`): those are linked into
//! traced programs, not into tools that read their traces.
//!
//! In process, [`run`] and [`run_args`] return the status instead of exiting, with one
//! exception: `live` ends the process itself, with the traced program's status once its report
//! is out, and clap's errors in the options of its analyses exit (status 2) before the program
//! runs; `live` is tested by running the binary (`tests/tests/live_*.rs`).

mod commands;
pub mod exit;
mod html;
mod output;
mod plot;
mod progress;
mod terms;
mod tracefile;

use clap::Parser;
use std::ffi::OsString;

/// Reuse-distance (locality) analysis of traces written by programs built with `rdcc`.
#[derive(Parser, Debug)]
#[command(
    name = "rda-report",
    version,
    about,
    after_help = "Examples:\n  rdcc -fopenmp -O2 app.c -o app && RDTRACE=app.rdtrace ./app\n  rda-report info app.rdtrace\n  rda-report dump app.rdtrace --limit 40\n  rda-report histogram app.rdtrace --line 64 --plot hist.svg\n  rda-report histogram app.rdtrace --per-thread --json\n  rda-report annotate app.rdtrace --source-dir .\n  rda-report html app.rdtrace -o report.html --source-dir .\n  rda-report machine host"
)]
pub struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

/// Runs a parsed command line: prints its report (or its error, to standard error) and returns
/// the exit status ([`exit::SUCCESS`], [`exit::FAILURE`] or [`exit::USAGE`]).
pub fn run(cli: Cli) -> i32 {
    exit::report(commands::run(cli.command))
}

/// Parses a whole command line (`args` starts with the program's name, as
/// [`std::env::args_os`] does) and runs it ([`run`]). A command line clap refuses prints clap's
/// message to standard error and returns clap's status ([`exit::USAGE`]); `--help` and
/// `--version` print to standard output and return [`exit::SUCCESS`]. What the binary's `main`
/// runs.
pub fn run_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    match Cli::try_parse_from(args) {
        Ok(cli) => run(cli),
        Err(e) => {
            // What clap's `Error::exit` prints (stdout for --help and --version, else stderr),
            // without ending the process.
            let _ = e.print();
            e.exit_code()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
