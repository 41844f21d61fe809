//! Handing finished launches to the caller: with two CPUs or more, three threads form a
//! pipeline. The walk (the caller's thread) decodes the trace and collects each launch's
//! accesses, a second thread builds each finished launch's kernel (the lockstep merge into
//! MIs), and a third calls the caller's `f` on it (the DS-vs-RD analysis, in `simt`), so a pass
//! costs about its slowest stage rather than the sum: on a one-thread OpenMP trace of many
//! launches the three take about 40, 20 and 40 % of the work. A trace with a single launch
//! gains nothing (each stage waits for the one before). With one CPU the walk's thread does
//! all three in turn.
//!
//! Memory: each stage takes a launch only when it is done with the one before (rendezvous
//! channels), so at most three launches are held at once: one being collected, one being
//! built and one kernel being analysed.

use super::kernel::PendingLaunch;
use super::{KernelLaunch, SimtConfig, SkippedLoop};
use crate::error::SimtError;
use std::sync::mpsc::sync_channel;

/// An error of the walk: its own, the caller's, or (pipelined) that the threads after it
/// stopped on the caller's error.
pub(super) enum WalkError<E> {
    /// The trace's worksharing bounds (or another check of the walk) failed.
    Simt(SimtError),
    /// The caller's `f` failed (walk's thread only).
    Caller(E),
    /// The threads after the walk stopped: the caller's error says why.
    Stopped,
}

impl<E> From<SimtError> for WalkError<E> {
    fn from(e: SimtError) -> Self {
        WalkError::Simt(e)
    }
}

/// What a walk gives back: `Err` for a trace that cannot be read (which comes before any
/// error of the launches, as it did when the walk called `f` itself), else its own report.
pub(super) type WalkOutcome<E> = Result<Result<Vec<SkippedLoop>, WalkError<E>>, SimtError>;

/// The sink a walk hands its finished launches to.
pub(super) type LaunchSink<'s, E> = dyn FnMut(PendingLaunch) -> Result<(), WalkError<E>> + 's;

/// Runs `walk` with a sink of finished launches; builds each launch's kernel and calls `f`,
/// in the order the walk hands them over, on threads of their own when `pipelined` (see the
/// module documentation; [`pipelined`] says whether this machine should). The first error in
/// stream order is returned: the trace's if it cannot be read, else the first of the
/// launches' (a launch `f` failed on came before any launch the walk met after it).
pub(super) fn deliver<E: From<SimtError> + Send>(
    config: &SimtConfig,
    f: &mut (dyn FnMut(KernelLaunch) -> Result<(), E> + Send),
    pipelined: bool,
    walk: impl FnOnce(&mut LaunchSink<'_, E>) -> WalkOutcome<E>,
) -> Result<Vec<SkippedLoop>, E> {
    if !pipelined {
        let outcome = walk(&mut |p| f(p.build(config)).map_err(WalkError::Caller));
        return finish(outcome, Ok(()));
    }
    let (to_builder, launches) = sync_channel::<PendingLaunch>(0);
    let (to_caller, built) = sync_channel::<KernelLaunch>(0);
    std::thread::scope(|scope| {
        let spawn_error =
            |e: std::io::Error| E::from(SimtError::Threads(format!("cannot start one: {e}")));
        let caller = std::thread::Builder::new()
            .name("simt-analysis".into())
            .spawn_scoped(scope, move || -> Result<(), E> {
                for l in built {
                    f(l)?;
                }
                Ok(())
            })
            .map_err(spawn_error)?;
        // Stops when the caller's side stops (its error), which stops the walk in turn.
        let builder = std::thread::Builder::new()
            .name("simt-kernels".into())
            .spawn_scoped(scope, move || {
                for p in launches {
                    if to_caller.send(p.build(config)).is_err() {
                        break;
                    }
                }
            })
            .map_err(spawn_error)?;
        let outcome = walk(&mut |p| to_builder.send(p).map_err(|_| WalkError::Stopped));
        drop(to_builder);
        let joined = builder.join().and_then(|()| caller.join());
        let called = joined.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        finish(outcome, called)
    })
}

/// Whether launches go to threads of their own here: with two CPUs or more.
pub(super) fn pipelined() -> bool {
    std::thread::available_parallelism().is_ok_and(|c| c.get() >= 2)
}

/// The result of a walk whose launches went to `f` with result `called`.
fn finish<E: From<SimtError>>(
    outcome: WalkOutcome<E>,
    called: Result<(), E>,
) -> Result<Vec<SkippedLoop>, E> {
    let report = outcome.map_err(E::from)?;
    called?;
    match report {
        Ok(skipped) => Ok(skipped),
        Err(WalkError::Simt(e)) => Err(e.into()),
        Err(WalkError::Caller(e)) => Err(e),
        // The threads after the walk stop early only on the caller's error, returned above.
        Err(WalkError::Stopped) => {
            Err(SimtError::Threads("stopped without an error".into()).into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a delivery gave: the launches `f` saw, and the result.
    type Delivered = (Vec<u32>, Result<Vec<SkippedLoop>, SimtError>);

    /// Delivers launches `0..n` (the walk stops at the sink's first error, or fails with
    /// `walk_fails_at` bad bounds after handing that many over, or the trace fails at the end
    /// when `trace_fails`), with `f` failing at launch `f_fails_at`.
    fn run(
        pipelined: bool,
        n: u32,
        f_fails_at: Option<u32>,
        walk_fails_at: Option<u32>,
        trace_fails: bool,
    ) -> Delivered {
        let mut seen = Vec::new();
        let result = deliver::<SimtError>(
            &SimtConfig::default(),
            &mut |l| {
                if Some(l.launch) == f_fails_at {
                    return Err(SimtError::InvalidConfig(format!(
                        "f failed at {}",
                        l.launch
                    )));
                }
                seen.push(l.launch);
                Ok(())
            },
            pipelined,
            |sink| {
                let mut report = Ok(Vec::new());
                for i in 0..n {
                    if Some(i) == walk_fails_at {
                        report = Err(WalkError::Simt(SimtError::BadBounds(format!("bad {i}"))));
                        break;
                    }
                    if let Err(e) = sink(PendingLaunch::empty(i)) {
                        report = Err(e);
                        break;
                    }
                }
                if trace_fails {
                    return Err(SimtError::InvalidConfig("the trace failed".into()));
                }
                Ok(report)
            },
        );
        (seen, result)
    }

    fn message(d: &Delivered) -> String {
        match &d.1 {
            Ok(_) => "ok".into(),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn launches_reach_f_in_order_on_the_walks_thread_and_on_a_thread_of_their_own() {
        for pipelined in [false, true] {
            let d = run(pipelined, 300, None, None, false);
            assert_eq!(d.0, (0..300).collect::<Vec<_>>(), "pipelined {pipelined}");
            assert!(d.1.is_ok());
        }
    }

    #[test]
    fn the_first_error_in_stream_order_is_returned_either_way() {
        // (f fails at, the walk fails at, the trace fails) -> the error and the launches seen.
        let cases = [
            (
                (Some(7), None, false),
                "invalid configuration: f failed at 7",
                7,
            ),
            ((None, Some(5), false), "bad 5", 5),
            // f's error at 3 comes before the walk's at 9, whichever thread noticed first.
            (
                (Some(3), Some(9), false),
                "invalid configuration: f failed at 3",
                3,
            ),
            ((Some(9), Some(3), false), "bad 3", 3),
            // A trace that cannot be read wins, as when the walk called f itself.
            (
                (Some(2), None, true),
                "invalid configuration: the trace failed",
                2,
            ),
        ];
        for ((f_at, walk_at, trace), error, seen) in cases {
            let on_walk = run(false, 20, f_at, walk_at, trace);
            let piped = run(true, 20, f_at, walk_at, trace);
            assert_eq!(message(&on_walk), error);
            assert_eq!(message(&piped), error);
            assert_eq!(on_walk.0, (0..seen).collect::<Vec<_>>());
            assert_eq!(piped.0, on_walk.0);
        }
    }
}
