//! `rda-report`: every analysis of rdtools traces as a subcommand.
//!
//! Analyses live in library crates and return plain data; this binary parses flags into their
//! `*Config` structs and renders results through [`output`] (tables, JSON, CSV) and [`plot`]
//! (SVG). Exit status: 0 success, 1 failure (bad trace, I/O), 2 usage error, decided here only
//! (see [`exit`]).

mod commands;
mod exit;
mod html;
mod output;
mod plot;
mod progress;
mod terms;
mod tracefile;

use clap::Parser;

/// Reuse-distance (locality) analysis of traces written by programs built with `rdcc`.
#[derive(Parser, Debug)]
#[command(
    name = "rda-report",
    version,
    about,
    after_help = "Examples:\n  rdcc -fopenmp -O2 app.c -o app && RDTRACE=app.rdtrace ./app\n  rda-report info app.rdtrace\n  rda-report dump app.rdtrace --limit 40\n  rda-report histogram app.rdtrace --line 64 --plot hist.svg\n  rda-report histogram app.rdtrace --per-thread --json\n  rda-report annotate app.rdtrace --source-dir .\n  rda-report html app.rdtrace -o report.html --source-dir .\n  rda-report machine host"
)]
struct Cli {
    #[command(subcommand)]
    command: commands::Command,
}

fn main() {
    // Parse errors exit here with clap's status 2 (--help and --version with 0).
    let cli = Cli::parse();
    std::process::exit(exit::report(commands::run(cli.command)));
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
