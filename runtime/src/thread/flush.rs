//! Flushing a state's buffer: handing the buffer being filled over to the background writer
//! (with back-pressure when none is free), or without the writer encoding it here, and waiting
//! for the writer to finish a state's jobs.

use super::{writer, ThreadState, CLOSED, NO_BUFFER};
use std::sync::atomic::{AtomicU32, Ordering};

impl ThreadState {
    /// Hands the raw buffer to the writer thread (which encodes it into the current chunk), or
    /// without a writer encodes it here; the chunk closes when it is full or when `close`
    /// (exit, thread end, signal). Closed chunks are compressed and written by the writer, or
    /// here (compressed, or raw from a signal handler, without allocating).
    pub fn flush(&self, from_signal: bool, close: bool) {
        if !self.lock(from_signal) {
            return;
        }
        if !CLOSED.load(Ordering::Acquire) {
            let n = self.len();
            if from_signal {
                self.flush_from_signal(&self.events()[..n]);
            } else if writer::running() {
                self.hand_off(n, close);
            } else {
                self.flush_normal(n, close);
            }
        }
        self.reset_cursor();
        self.busy.store(false, Ordering::Release);
    }

    /// Queues the buffer being filled (its first `n` records) for the writer and makes a free
    /// buffer the one being filled, waiting for the writer to give one back when none is free.
    /// A job without records is queued only to close the chunk. Called under `busy`.
    ///
    /// Once a fatal-signal handler has taken the writer over, the job is not queued: this
    /// thread lets go of `busy` and waits for the end of the process, so the handler flushes
    /// the buffer in sequence (see [`writer::take_over`]).
    fn hand_off(&self, n: usize, close: bool) {
        if n == 0 && !close {
            return;
        }
        let cur = self.cur_buf.load(Ordering::Relaxed);
        let job = writer::Job {
            state: self as *const ThreadState,
            buf: if n > 0 { cur } else { NO_BUFFER },
            n,
            close,
        };
        self.pending.fetch_add(1, Ordering::SeqCst);
        if !writer::submit(job) {
            self.pending.fetch_sub(1, Ordering::SeqCst);
            self.busy.store(false, Ordering::Release);
            writer::wait_for_the_end();
        }
        if n == 0 {
            return;
        }
        loop {
            let free = self.free.load(Ordering::Acquire);
            if free != 0 {
                let next = free.trailing_zeros() as usize;
                self.free.fetch_and(!(1 << next), Ordering::AcqRel);
                self.use_buffer(next);
                return;
            }
            // Back-pressure: the writer is behind. Wait until it has given back two buffers
            // (or all), so a writer slower than this thread costs a wait per two buffers, not
            // per buffer. (Taken over: the job above is the handler's to write, and this thread
            // holds no record it has not handed over.)
            writer::wait_for_state(&self.wake_word, || self.may_go_on() || writer::taken_over());
            if writer::taken_over() {
                writer::wait_for_the_end();
            }
        }
    }

    /// The word the owner sleeps on while it waits for this state's jobs.
    pub fn wake_word(&self) -> &AtomicU32 {
        &self.wake_word
    }

    /// Whether a thread waiting for this state's jobs may go on: two buffers free, or no job
    /// left (the writer wakes waiters only then).
    pub fn may_go_on(&self) -> bool {
        self.free.load(Ordering::SeqCst).count_ones() >= 2
            || self.pending.load(Ordering::SeqCst) == 0
    }

    /// Waits until the writer has finished every job of this state (thread exit, parking).
    pub(super) fn wait_idle(&self) {
        if !writer::running() {
            return;
        }
        writer::wait_for_state(&self.wake_word, || {
            self.pending.load(Ordering::SeqCst) == 0 || writer::taken_over()
        });
        if self.pending.load(Ordering::SeqCst) != 0 {
            writer::wait_for_the_end();
        }
    }
}
