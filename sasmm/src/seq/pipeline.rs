//! [`SequentialTrace::stream_with`] with the model on a thread of its own: the trace is decoded
//! and cut into windows here while the fragments cut so far are mimicked, interleaved and
//! simulated there, so a pass costs the slower of the two rather than their sum.
//!
//! Fragments in memory go over whole: the builder hands over their buffers and takes in their
//! place ones that the model's thread handed back once it was done with them (a copy cost a
//! serial program's pass a few percent of its time); the program's tables (classes, block
//! names) go over once. A spilled fragment goes over as a second handle
//! on its temporary file ([`SpilledFragment::try_clone`]): the model's thread reads it while
//! the builder goes on with the next fragment (an OpenMP program's parallel sections are
//! mostly spilled, so this is most of the overlap there). At most [`SPILLS_AHEAD`] + 1
//! temporary files exist at once: the builder hands a finished spilled fragment over only once
//! the model's thread is done with the one [`SPILLS_AHEAD`] before it. The model sees the same
//! fragments in the same order as without the pipeline.

use super::{Fragment, FragmentMut, SequentialTrace, StreamLimits};
use crate::error::{Result, SasmmError};
use crate::spill::SpilledFragment;
use rdtrace::Trace;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Fragments sent ahead of the model's thread (besides the one it works on): enough to ride
/// out uneven fragments, few enough to bound memory (a fragment holds up to
/// [`StreamLimits::spill`] accesses).
const IN_FLIGHT: usize = 2;

/// Spilled fragments handed over that the model's thread may not have finished when the
/// builder hands over the next: with one, the two sides took turns on sections of uneven
/// length (bfs's sequential trace, `predict --cores 4`: 1.77 s, 1.60 s with two, 1.58 s with
/// three).
const SPILLS_AHEAD: usize = 2;

/// What the builder's side sends the model's thread.
enum Job {
    /// A fragment held in memory, with the program's tables in the first one only.
    Memory(Box<SequentialTrace>),
    /// A spilled fragment; the model's thread says when it is done with it.
    Spilled(Box<SpilledFragment>, SyncSender<()>),
}

/// Streams `trace`'s sequential trace with `limits` into `consume` on a thread of its own
/// (see the module documentation); with one CPU, [`SequentialTrace::stream_with`] straight
/// into it. The first error of either side is returned (the model's, which comes first in
/// the stream, before the builder's).
pub fn stream_pipelined<S: Send>(
    trace: &Trace,
    limits: StreamLimits,
    state: &mut S,
    consume: &(dyn Fn(&mut S, Fragment<'_>) -> Result<()> + Sync),
) -> Result<()> {
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    if cpus < 2 {
        return SequentialTrace::stream_with(trace, limits, &mut |f| consume(state, f));
    }
    let (to_model, jobs) = sync_channel::<Job>(IN_FLIGHT);
    let (give_back, spare) = std::sync::mpsc::channel::<Box<SequentialTrace>>();
    std::thread::scope(|scope| {
        let model = std::thread::Builder::new()
            .name("sasmm-model".into())
            .spawn_scoped(scope, move || run_model(jobs, give_back, state, consume))
            .map_err(|e| SasmmError::Config(format!("cannot start the model's thread: {e}")))?;
        let mut tables_sent = false;
        // The model's signals that it is done with the spilled fragments sent, oldest first.
        let mut spill_read: std::collections::VecDeque<Receiver<()>> = Default::default();
        let streamed = SequentialTrace::stream_handing_over(trace, limits, &mut |f| match f {
            FragmentMut::Memory(s) => {
                let taken = take_fragment(s, spare.try_recv().ok(), !tables_sent);
                tables_sent = true;
                to_model
                    .send(Job::Memory(taken))
                    .map_err(|_| model_stopped())
            }
            FragmentMut::Spilled(s) => {
                let handle = Box::new(s.try_clone()?);
                if spill_read.len() >= SPILLS_AHEAD {
                    if let Some(read) = spill_read.pop_front() {
                        read.recv().map_err(|_| model_stopped())?;
                    }
                }
                let (done, read) = sync_channel(1);
                spill_read.push_back(read);
                to_model
                    .send(Job::Spilled(handle, done))
                    .map_err(|_| model_stopped())
            }
        });
        drop(to_model);
        let modelled = model
            .join()
            .map_err(|_| SasmmError::Config("the model's thread panicked".into()))?;
        // The model's error is the first in the stream; the builder's is then only that the
        // model stopped.
        modelled.and(streamed)
    })
}

/// The model's side: each fragment consumed in order, its buffers handed back.
fn run_model<S>(
    jobs: Receiver<Job>,
    give_back: std::sync::mpsc::Sender<Box<SequentialTrace>>,
    state: &mut S,
    consume: &(dyn Fn(&mut S, Fragment<'_>) -> Result<()> + Sync),
) -> Result<()> {
    // The program's tables, from the first fragment in memory.
    let mut tables = SequentialTrace::default();
    for job in jobs {
        match job {
            Job::Memory(mut s) => {
                if !s.block_names.is_empty() {
                    // The first fragment: its tables stay here.
                    swap_tables(&mut s, &mut tables);
                }
                swap_tables(&mut s, &mut tables);
                let r = consume(state, Fragment::Memory(&s));
                swap_tables(&mut s, &mut tables);
                r?;
                // The builder may have stopped (its own error): nothing to give back to then.
                let _ = give_back.send(s);
            }
            Job::Spilled(f, done) => {
                consume(state, Fragment::Spilled(&f))?;
                // Its temporary file goes now (the builder dropped its handle).
                drop(f);
                let _ = done.send(());
            }
        }
    }
    Ok(())
}

/// Swaps the program's tables of `a` and `b`.
fn swap_tables(a: &mut SequentialTrace, b: &mut SequentialTrace) {
    std::mem::swap(&mut a.mi_class, &mut b.mi_class);
    std::mem::swap(&mut a.mi_shared_variable, &mut b.mi_shared_variable);
    std::mem::swap(&mut a.block_names, &mut b.block_names);
}

/// Fragment `s`'s windows, accesses, sections and worksharing runs, taken from the builder
/// (which gets `spare`'s buffers, if any, in their place: it clears them and fills them
/// again; see [`take_or_copy`]), with copies of the program's tables when `with_tables`.
fn take_fragment(
    s: &mut SequentialTrace,
    spare: Option<Box<SequentialTrace>>,
    with_tables: bool,
) -> Box<SequentialTrace> {
    let mut taken = spare.unwrap_or_default();
    take_or_copy(&mut taken.accesses, &mut s.accesses);
    take_or_copy(&mut taken.windows, &mut s.windows);
    take_or_copy(&mut taken.sections, &mut s.sections);
    take_or_copy(&mut taken.workshares, &mut s.workshares);
    if with_tables {
        taken.mi_class.clone_from(&s.mi_class);
        taken.mi_shared_variable.clone_from(&s.mi_shared_variable);
        taken.block_names.clone_from(&s.block_names);
    }
    taken
}

/// Moves `from`'s contents into `to`: by swapping the buffers, unless `from`'s buffer is far
/// larger than its contents (the builder held a long parallel fragment in it before spilling
/// it): then by a copy, so that the large buffer stays with the builder rather than going
/// round every buffer in flight (swapped regardless, bfs's sequential trace took 20 MiB more).
fn take_or_copy<T: Clone>(to: &mut Vec<T>, from: &mut Vec<T>) {
    if from.capacity() > 2 * from.len() + 1024 {
        to.clone_from(from);
    } else {
        std::mem::swap(to, from);
    }
}

/// The builder's error when the model's thread stopped (its own error is returned instead).
fn model_stopped() -> SasmmError {
    SasmmError::Config("the model's thread stopped".into())
}
