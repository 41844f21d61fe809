//! `live ANALYSIS...`: one run of the program, any of the offline analyses on its trace.
//!
//! The one layer between a live run and the offline commands is a trace *path*: every offline
//! command opens its trace by path ([`crate::tracefile`]), and those that read in one pass
//! read a stream path (a pipe) with the same [`rdtrace::LiveTrace`] reader `live` uses. So:
//!
//! * every analysis that reads a stream ([`Reads::Stream`]) runs, unchanged, on `/dev/fd/N`
//!   while the program runs, each on a thread of its own: one reads the program's trace pipe
//!   itself, several read a copy each of its bytes ([`super::fanout`]);
//! * when a copy of the run is wanted (`--tee`, or an analysis that reads a file: `paths`,
//!   `html`), the first streamed analysis's reader writes it as it reads
//!   ([`crate::tracefile::copy_stream_to`]: a trace file, floor chunks dropped, as `live`'s
//!   tee copy always was); with no stream analysis, `live` reads the pipe only to write the
//!   copy ([`copy_only`]). The copy is the `--tee` file or a temporary spool file
//!   ([`super::spool`]);
//! * after the program ends, every other analysis runs, unchanged, on the copy.
//!
//! The streamed analyses' reports are held back ([`crate::output::capture_stdout`]) while the
//! program runs; every report is printed in command-line order after the program's own output,
//! and then `live` exits with the program's status.

use super::analyses::{self, Plan, Reads};
use super::os::drain;
use super::{fanout, program, spool};
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
    let streamed: Vec<usize> = (0..plan.analyses.len())
        .filter(|&i| analyses::reads(&plan.analyses[i]) == Reads::Stream)
        .collect();
    let needs_copy = tee.is_some() || plan.analyses.len() > streamed.len();
    if needs_copy && tee.is_none() {
        spool::check_spool_writable("live paths or html")?;
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
    // What each streamed analysis printed (or its error), by command-line position.
    let mut printed: Vec<Option<Result<Vec<u8>>>> = (0..analyses.len()).map(|_| None).collect();
    let mut copied = Ok(());
    if streamed.is_empty() {
        let (_, file) = copy.expect("a plan without a stream analysis has a file analysis");
        copied = copy_only(read_end, file);
    } else {
        let cmds = streamed.iter().map(|&i| (i, analyses[i].take()));
        let outcome = side_by_side(cmds.collect(), &read_end, copy.map(|(_, f)| f))?;
        let all_ok = outcome.iter().all(|(_, r)| r.is_ok());
        for (i, r) in outcome {
            printed[i] = Some(r);
        }
        if all_ok {
            drain(&read_end);
        }
        // Our read end closes: if an analysis failed, the program's writes fail instead of
        // blocking, and it runs to its end untraced.
        drop(read_end);
    }
    let status = child.wait().context("waiting for the program")?;
    let failed = |r: anyhow::Error| {
        no_trace_said_plainly(r).context(format!("analysing the trace of {name}"))
    };
    // The copy is whole only if the analysis that wrote it read the run to its end: its
    // error comes first.
    if let (Some(_), Some(&owner)) = (&copy_path, streamed.first()) {
        if printed[owner].as_ref().is_some_and(|r| r.is_err()) {
            let e = printed[owner].take().and_then(|r| r.err());
            return Err(failed(e.expect("the error just seen")));
        }
    }
    copied.with_context(|| format!("copying the trace of {name}"))?;
    // The reports in command-line order, after the program's output.
    for (cmd, out) in analyses.into_iter().zip(printed) {
        match (cmd, out) {
            (_, Some(Ok(report))) => print_report(&report)?,
            (_, Some(Err(e))) => return Err(failed(e)),
            (Some(cmd), None) => {
                let path = copy_path.as_deref().expect("file analyses read the copy");
                run_on_copy(cmd, path).with_context(|| format!("analysing the trace of {name}"))?
            }
            (None, None) => {}
        }
    }
    drop(temp);
    program::exit_with(status);
}

/// Runs the streamed analyses `cmds` (command-line position, command) side by side, each on a
/// thread of its own reading its own copy of the program's trace pipe `read_end`
/// ([`super::fanout`]); the first one also writes `copy` as it reads. Returns, by position,
/// what each printed or its error, once all have read the run to its end.
fn side_by_side(
    cmds: Vec<(usize, Option<crate::commands::Command>)>,
    read_end: &File,
    copy: Option<File>,
) -> Result<Vec<(usize, Result<Vec<u8>>)>> {
    if cmds.len() > 1 {
        crate::progress::side_by_side();
    }
    std::thread::scope(|s| {
        let mut fan = fanout::fan_out(s, read_end, cmds.len())?;
        let mut copy = copy;
        let mut running = Vec::new();
        for ((i, cmd), pipe) in cmds.into_iter().zip(std::mem::take(&mut fan.readers)) {
            let path = PathBuf::from(format!("/dev/fd/{}", pipe.as_raw_fd()));
            if let Some(file) = copy.take() {
                let w = BufWriter::with_capacity(1 << 20, file);
                crate::tracefile::copy_stream_to(&path, Box::new(w));
            }
            let cmd = cmd.map(|c| analyses::with_trace(c, &path));
            let thread = std::thread::Builder::new()
                .name(format!("live-analysis-{i}"))
                // As the main thread's: the offline commands run there.
                .stack_size(8 << 20)
                .spawn_scoped(s, move || {
                    crate::output::capture_stdout();
                    let r = cmd.map_or(Ok(()), crate::commands::run);
                    let report = crate::output::take_captured_stdout();
                    // A copy the analysis never opened (it failed first) is dropped unwritten.
                    drop(crate::tracefile::take_stream_copy(&path));
                    // Its pipe closes: the copier goes on with the others.
                    drop(pipe);
                    r.map(|()| report)
                })
                .context("starting an analysis thread")?;
            running.push((i, thread));
        }
        let done: Vec<_> = running
            .into_iter()
            .map(|(i, t)| {
                let r = t
                    .join()
                    .unwrap_or_else(|_| Err(anyhow::anyhow!("the analysis panicked")));
                (i, r)
            })
            .collect();
        fan.finish()?;
        Ok(done)
    })
}

/// Prints a streamed analysis's report.
fn print_report(report: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(report)
        .and_then(|()| out.flush())
        .context("writing the report")
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
