//! `live ANALYSIS...`: one run of the program, any of the offline analyses on its trace.
//!
//! The one layer between a live run and the offline commands is a trace *path*: every offline
//! command opens its trace by path ([`crate::tracefile`]), and those that read in one pass
//! read a stream path (a pipe) with the same [`rdtrace::LiveTrace`] reader `live` uses. So:
//!
//! * the first analysis that reads a stream ([`Reads::Stream`]) runs, unchanged, on
//!   `/dev/fd/N`, the read end of the program's trace pipe, while the program runs;
//! * when a copy of the run is wanted (`--tee`, or an analysis that reads a file: `paths`,
//!   `html`, the formula model, any second stream analysis), the streamed analysis's reader
//!   writes it as it reads ([`crate::tracefile::copy_stream_to`]: a trace file, floor chunks
//!   dropped, as `live`'s tee copy always was); with no stream analysis, `live` reads the pipe
//!   only to write the copy ([`copy_only`]). The copy is the `--tee` file or a temporary spool
//!   file ([`super::spool`]);
//! * after the program ends, every other analysis runs, unchanged, on the copy.
//!
//! Reports are printed in that order (the streamed one first, then the others in command-line
//! order), after the program's own output; then `live` exits with the program's status.

use super::analyses::{self, Plan, Reads};
use super::os::{drain, StdoutCapture};
use super::{program, spool};
use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

/// Runs `live ANALYSIS...`: never returns on success (exits with the program's status).
pub(super) fn run(plan: Plan) -> Result<()> {
    let tee_flag = if plan.tee.is_some() {
        "--tee"
    } else {
        "RDTRACE_TEE"
    };
    let tee = plan
        .tee
        .clone()
        .or_else(|| std::env::var_os("RDTRACE_TEE").map(PathBuf::from));
    // Everything that can be refused on flags alone is refused before the program runs.
    if let Some(t) = &tee {
        crate::output::check_writable(tee_flag, t)?;
    }
    for cmd in &plan.analyses {
        analyses::preflight(cmd)?;
    }
    let streamed = plan
        .analyses
        .iter()
        .position(|c| analyses::reads(c) == Reads::Stream);
    let needs_copy = tee.is_some() || plan.analyses.len() > usize::from(streamed.is_some());
    if needs_copy && tee.is_none() {
        spool::check_spool_writable(
            "live paths, html, predict --model formula or a second analysis",
        )?;
    }
    let sequential = plan.analyses.iter().any(analyses::sequential);

    // The copy, made before the program starts so that failing to make it costs no run: the
    // tee file, or a temporary file removed with `temp`.
    let mut temp = None;
    let copy = match &tee {
        Some(t) => Some((t.clone(), spool::create_tee(t)?)),
        None if needs_copy => {
            let (guard, file) = spool::create_spool()?;
            let path = guard.0.clone();
            temp = Some(guard);
            Some((path, file))
        }
        None => None,
    };
    let copy_path = copy.as_ref().map(|(p, _)| p.clone());
    let (mut child, read_end) = program::start(&plan.program, sequential)?;
    let name = plan.program[0].to_string_lossy().into_owned();
    let mut analyses: Vec<_> = plan.analyses.into_iter().map(Some).collect();
    let mut streamed_run = None;
    let mut copied = Ok(());
    match (streamed, copy) {
        (Some(i), copy) => {
            let path = PathBuf::from(format!("/dev/fd/{}", read_end.as_raw_fd()));
            if let Some((_, file)) = copy {
                let w = BufWriter::with_capacity(1 << 20, file);
                crate::tracefile::copy_stream_to(&path, Box::new(w));
            }
            let cmd = analyses[i].take().map(|c| analyses::with_trace(c, &path));
            let capture = StdoutCapture::start()?;
            let r = cmd.map_or(Ok(()), crate::commands::run);
            // A copy the analysis never opened (it failed first) is dropped unwritten.
            drop(crate::tracefile::take_stream_copy(&path));
            if r.is_ok() {
                drain(&read_end);
            }
            // Our read end closes: if the analysis failed, the program's writes fail instead
            // of blocking, and it runs to its end untraced.
            drop(read_end);
            streamed_run = Some((capture, r));
        }
        (None, Some((_, file))) => copied = copy_only(read_end, file),
        (None, None) => unreachable!("a plan without a stream analysis has a file analysis"),
    }
    let status = child.wait().context("waiting for the program")?;
    // The streamed report now, after the program's output.
    if let Some((capture, r)) = streamed_run {
        drop(capture);
        r.map_err(no_trace_said_plainly)
            .with_context(|| format!("analysing the trace of {name}"))?;
    }
    copied.with_context(|| format!("copying the trace of {name}"))?;
    if let Some(path) = &copy_path {
        for cmd in analyses.into_iter().flatten() {
            run_on_copy(cmd, path).with_context(|| format!("analysing the trace of {name}"))?;
        }
    }
    drop(temp);
    program::exit_with(status);
}

/// An analysis's error, or when the pipe held no trace at all, the reason in `live`'s words
/// (as `live`'s histogram says it).
fn no_trace_said_plainly(e: anyhow::Error) -> anyhow::Error {
    let not_a_trace = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<rdtrace::TraceError>(),
            Some(rdtrace::TraceError::NotATrace { .. })
        )
    });
    if not_a_trace {
        anyhow::anyhow!("the program wrote no trace (was it built with rdcc?)")
    } else {
        e
    }
}

/// Runs an analysis on the copy of the run.
fn run_on_copy(cmd: crate::commands::Command, path: &Path) -> Result<()> {
    crate::commands::run(analyses::with_trace(cmd, path))?;
    std::io::stdout().flush().context("writing the report")
}

/// Reads the program's trace pipe to its end only to write the copy (no analysis reads the
/// pipe): the same reader and copy as a streamed analysis's, each thread's chunks decoded and
/// dropped as they arrive so that memory stays bounded. The touch bound is left to the
/// analyses, which apply theirs when they read the copy.
fn copy_only(pipe: File, copy: File) -> Result<()> {
    let options = rdtrace::OpenOptions {
        max_touched: rdtrace::work::TouchLimit::Unlimited,
        ..Default::default()
    };
    let copy: Box<dyn Write> = Box::new(BufWriter::with_capacity(1 << 20, copy));
    let input = BufReader::with_capacity(1 << 20, &pipe);
    let mut live = match rdtrace::LiveTrace::with_options(input, "<pipe>", Some(copy), options) {
        Ok(l) => l,
        Err(rdtrace::TraceError::NotATrace { .. }) => {
            anyhow::bail!("the program wrote no trace (was it built with rdcc?)")
        }
        Err(e) => return Err(e.into()),
    };
    let mut events = Vec::new();
    while live.next_thread_chunk(&mut events)?.is_some() {}
    drop(live);
    drain(&pipe);
    Ok(())
}
