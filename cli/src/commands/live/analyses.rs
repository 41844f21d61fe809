//! The offline analyses `live ANALYSIS` runs. Each is the offline command itself: its options
//! are parsed by the offline command's own clap arguments (declared once, in its module), and
//! it runs through [`crate::commands::run`] on a trace path that `live` provides, so a live
//! report is the offline report by construction. Adding an analysis is a row in each `match`
//! below, not a new wiring.
//!
//! The command line after `live` is `ANALYSIS [OPTIONS] [ANALYSIS [OPTIONS]]... -- PROGRAM`:
//! each analysis's options are parsed with its trace argument filled in by a placeholder, so
//! the next bare word can only be the next analysis's name (clap's external subcommand), and an
//! option's value that happens to be an analysis name stays a value.

use super::args::LiveAnalysis;
use crate::commands::annotate::AnnotateArgs;
use crate::commands::check::CheckArgs;
use crate::commands::histogram::{EngineChoice, HistogramArgs, InputFormat};
use crate::commands::html::HtmlArgs;
use crate::commands::paths::{PathsArgs, PathsCommand};
use crate::commands::sasmm::{
    check_predict_flags, check_simulated_lines, MeasureArgs, PredictArgs, SasmmCommand,
};
use crate::commands::simt::{SimtArgs, SimtInput};
use crate::commands::Command;
use crate::exit::usage;
use anyhow::Result;
use clap::{Args, FromArgMatches};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The analyses, in the order `live --help` lists them.
const NAMES: [&str; 8] = [
    "histogram",
    "predict",
    "measure",
    "annotate",
    "check",
    "simt",
    "paths",
    "html",
];

/// What the trace argument holds until `live` knows the trace's path.
const PLACEHOLDER: &str = "<live run>";

/// How an analysis reads a live run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reads {
    /// In one pass, in order: it can read the pipe while the program runs.
    Stream,
    /// It seeks in a file: it reads the copy after the program ends.
    File,
}

/// A parsed `live ANALYSIS...` command line.
pub(super) struct Plan {
    /// The analyses as the offline commands they are, in command-line order (trace argument:
    /// [`PLACEHOLDER`], set by [`with_trace`]).
    pub analyses: Vec<Command>,
    /// `--tee FILE`, given after any one analysis's name.
    pub tee: Option<PathBuf>,
    /// The program and its arguments.
    pub program: Vec<OsString>,
}

/// Parses `live ANALYSIS ...`. Clap's own errors (and `--help`) end the process here, as a
/// parse error of the whole command line would, before the program runs.
pub(super) fn parse(first: &LiveAnalysis) -> Result<Plan> {
    let (name, rest) = first.parts();
    let (mut options, program) = split_program(rest);
    let mut plan = Plan {
        analyses: Vec::new(),
        tee: None,
        program,
    };
    let mut name: &'static str = name;
    loop {
        let mut argv = vec![OsString::from(name), OsString::from(PLACEHOLDER)];
        argv.append(&mut options);
        let m = clap_command(name)
            .try_get_matches_from(argv)
            .unwrap_or_else(|e| e.exit());
        plan.analyses
            .push(from_matches(name, &m).unwrap_or_else(|e| e.exit()));
        if let Some(t) = m.get_one::<PathBuf>("live-tee") {
            if plan.tee.replace(t.clone()).is_some() {
                return Err(usage("--tee is given more than once"));
            }
        }
        let Some((next, m)) = m.subcommand() else {
            break;
        };
        name = NAMES.iter().find(|n| **n == next).ok_or_else(|| {
            usage(format!(
                "`{next}` is not an analysis of live (one of {}); the program comes after `--`",
                NAMES.join(", ")
            ))
        })?;
        options = m
            .get_many::<OsString>("")
            .into_iter()
            .flatten()
            .cloned()
            .collect();
    }
    if plan.program.is_empty() {
        return Err(usage(
            "no program: give it after `--` (`live ANALYSIS [OPTIONS] -- PROGRAM [ARGS]`)",
        ));
    }
    Ok(plan)
}

/// Splits what follows the first analysis's name at the first `--`. Clap drops a `--` that
/// comes right after the name (`live measure -- ./app`), so without one the words are the
/// program, unless they start with an option: then they are options and the program is missing
/// (`live measure --json`), which [`parse`] reports after the options (so `--help` works).
fn split_program(rest: &[OsString]) -> (Vec<OsString>, Vec<OsString>) {
    if let Some(at) = rest.iter().position(|w| w == "--") {
        return (rest[..at].to_vec(), rest[at + 1..].to_vec());
    }
    match rest.first() {
        Some(w) if !w.to_string_lossy().starts_with('-') => (Vec::new(), rest.to_vec()),
        _ => (rest.to_vec(), Vec::new()),
    }
}

/// The clap command of analysis `name`: the offline command's arguments, its trace hidden
/// (filled by [`PLACEHOLDER`]), `live`'s `--tee`, and the next analysis as an external
/// subcommand.
fn clap_command(name: &'static str) -> clap::Command {
    let base = clap::Command::new(name);
    let c = match name {
        "histogram" => HistogramArgs::augment_args(base),
        "predict" => PredictArgs::augment_args(base),
        "measure" => MeasureArgs::augment_args(base),
        "annotate" => AnnotateArgs::augment_args(base),
        "check" => CheckArgs::augment_args(base),
        "simt" => SimtArgs::augment_args(base),
        "paths" => PathsArgs::augment_args(base),
        "html" => HtmlArgs::augment_args(base),
        _ => unreachable!("not an analysis: {name}"),
    };
    // The offline command's notes (its examples, its memory bound) still hold, after ours.
    let offline_notes = c
        .get_after_help()
        .map(|h| format!("\n\nAs `rda-report {name}`:\n{h}"))
        .unwrap_or_default();
    c.bin_name(format!("rda-report live {name}"))
        .about(format!(
            "`rda-report {name}` of a program's run, traced live (see `rda-report live --help`)"
        ))
        .override_usage(format!(
            "rda-report live {name} [OPTIONS] [ANALYSIS [OPTIONS]]... -- PROGRAM [ARGS]..."
        ))
        .after_help(format!(
            "The options are those of `rda-report {name}`; the trace is the program's. More \
             analyses may follow (ANALYSIS: {}), each with its own options.{offline_notes}",
            NAMES.join(", ")
        ))
        .mut_arg("trace", |a| a.hide(true))
        .arg(
            clap::Arg::new("live-tee")
                .long("tee")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("Keep a copy of the trace in FILE (default: $RDTRACE_TEE)"),
        )
        .allow_external_subcommands(true)
}

/// The offline command analysis `name` runs, from its parsed options.
fn from_matches(name: &str, m: &clap::ArgMatches) -> Result<Command, clap::Error> {
    Ok(match name {
        "histogram" => Command::Histogram(HistogramArgs::from_arg_matches(m)?),
        "predict" => Command::Sasmm(SasmmCommand::Predict(PredictArgs::from_arg_matches(m)?)),
        "measure" => Command::Sasmm(SasmmCommand::Measure(MeasureArgs::from_arg_matches(m)?)),
        "annotate" => Command::Annotate(AnnotateArgs::from_arg_matches(m)?),
        "check" => Command::Check(CheckArgs::from_arg_matches(m)?),
        "simt" => Command::Simt(SimtArgs::from_arg_matches(m)?),
        "paths" => Command::Paths(PathsCommand::Paths(PathsArgs::from_arg_matches(m)?)),
        "html" => Command::Html(HtmlArgs::from_arg_matches(m)?),
        _ => unreachable!("not an analysis: {name}"),
    })
}

/// The trace argument of an analysis.
fn trace_mut(cmd: &mut Command) -> &mut PathBuf {
    match cmd {
        Command::Histogram(a) => &mut a.trace,
        Command::Sasmm(SasmmCommand::Predict(a)) => &mut a.trace,
        Command::Sasmm(SasmmCommand::Measure(a)) => &mut a.trace,
        Command::Annotate(a) => &mut a.trace,
        Command::Check(a) => &mut a.trace,
        Command::Simt(a) => &mut a.trace,
        Command::Paths(PathsCommand::Paths(a)) => &mut a.trace,
        Command::Html(a) => &mut a.trace,
        _ => unreachable!("not a live analysis"),
    }
}

/// `cmd` reading the trace at `path`.
pub(super) fn with_trace(mut cmd: Command, path: &Path) -> Command {
    *trace_mut(&mut cmd) = path.to_path_buf();
    cmd
}

/// How `cmd` reads the run: from the pipe when the offline command reads a stream with these
/// options, else from the copy.
pub(super) fn reads(cmd: &Command) -> Reads {
    let stream = match cmd {
        Command::Histogram(a) => !a.open.salvage,
        // Either model streams the run in one pass.
        Command::Sasmm(SasmmCommand::Predict(a)) => !a.open.salvage,
        Command::Sasmm(SasmmCommand::Measure(a)) => !a.open.salvage,
        Command::Annotate(a) => !a.open.salvage,
        Command::Check(a) => !a.open.salvage,
        Command::Simt(a) => !a.open.salvage,
        _ => false,
    };
    if stream {
        Reads::Stream
    } else {
        Reads::File
    }
}

/// Whether `cmd` needs a sequential run (`predict`: `live` then sets `OMP_NUM_THREADS=1` unless
/// it is set, as `live --predict` does).
pub(super) fn sequential(cmd: &Command) -> bool {
    matches!(cmd, Command::Sasmm(SasmmCommand::Predict(_)))
}

/// The checks the offline command makes before reading that can fail on flags alone, and
/// every file it will write: made before the program runs, so that a usage error (exit status
/// 2) costs no run.
pub(super) fn preflight(cmd: &Command) -> Result<()> {
    match cmd {
        Command::Histogram(a) => {
            if a.input_format != InputFormat::Rdtrace {
                return Err(usage(
                    "live analyses the program's trace: no --input-format",
                ));
            }
            if a.engine == EngineChoice::PardaMpi {
                return Err(usage(
                    "live runs one process; keep a copy (--tee FILE) and run `mpirun -np P \
                     rda-report histogram FILE --engine parda-mpi`",
                ));
            }
            a.sample.get().engine(a.engine, a.bound)?;
        }
        Command::Sasmm(SasmmCommand::Predict(a)) => {
            let caches = a.caches.resolved()?;
            check_predict_flags(&a.model, &caches)?;
            check_simulated_lines(&a.cores, &caches)?;
        }
        // The cache levels, resolved as `measure` resolves them first.
        Command::Sasmm(SasmmCommand::Measure(a)) => match &a.machine {
            Some(name) => {
                crate::commands::machine::measured_levels(name)?;
            }
            None => {
                a.caches.parse()?;
            }
        },
        Command::Simt(a) if a.input_format != SimtInput::Rdtrace => {
            return Err(usage(
                "live analyses the program's trace: no --input-format",
            ));
        }
        Command::Html(a) => crate::output::check_writable("--output", &a.output)?,
        _ => {}
    }
    if let Some(out) = crate::commands::output_of(cmd) {
        out.check_writable_now()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_analysis_command_is_well_formed() {
        for name in NAMES {
            clap_command(name).debug_assert();
        }
    }

    #[test]
    fn an_analysis_name_as_an_option_value_stays_a_value() {
        let m = clap_command("check")
            .try_get_matches_from(["check", PLACEHOLDER, "--limit", "3", "paths", "--top", "2"])
            .unwrap();
        let (next, sub) = m.subcommand().unwrap();
        assert_eq!(next, "paths");
        let rest: Vec<&OsString> = sub.get_many::<OsString>("").unwrap().collect();
        assert_eq!(rest, ["--top", "2"]);
    }

    #[test]
    fn the_program_follows_the_first_double_dash() {
        let w = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let split = |v: &[&str]| split_program(&w(v));
        assert_eq!(
            split(&["--json", "--", "./app", "--", "x"]),
            (w(&["--json"]), w(&["./app", "--", "x"]))
        );
        assert_eq!(
            split(&["./app", "--json"]),
            (w(&[]), w(&["./app", "--json"]))
        );
        assert_eq!(split(&["--json"]), (w(&["--json"]), w(&[])));
        assert_eq!(split(&[]), (w(&[]), w(&[])));
    }
}
