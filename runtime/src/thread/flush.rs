//! Flushing a state's buffer: deciding where the chunk ends, handing the buffer being filled
//! over to the background writer (with back-pressure when none is free), or without the writer
//! encoding it here, and waiting for the writer to finish a state's jobs.

use super::local::expanded_var;
use super::registry::LIVE;
use super::{chunk_buffers, writer, ThreadState, CLOSED, NO_BUFFER};
use crate::config;
use std::sync::atomic::{AtomicU32, Ordering};

impl ThreadState {
    /// Hands the raw buffer to the writer (which encodes it into the open chunk), or without a
    /// writer encodes it here; the chunk closes when it is full ([`Self::chunk_full_after`]) or
    /// when `close` (exit, thread end, parking, signal). Closed chunks are compressed and written
    /// by the writer, or here (compressed, or raw from a signal handler, without allocating).
    pub fn flush(&self, from_signal: bool, close: bool) {
        if !self.lock(from_signal) {
            return;
        }
        if !CLOSED.load(Ordering::Acquire) {
            let n = self.len();
            if from_signal {
                self.flush_from_signal(&self.events()[..n]);
            } else {
                // What the buffer's loop runs stand for, from the owner's thread-local count (a
                // flush that does not close runs on the owner's thread; one that closes needs
                // no count, and may run on another thread at exit).
                let expanded = if close {
                    0
                } else {
                    expanded_var().replace(0).max(0) as u64
                };
                let close = close || self.chunk_full_after(n, expanded);
                if writer::running() {
                    self.hand_off(n, expanded, close);
                } else {
                    self.flush_normal(n, expanded, close);
                }
            }
        }
        self.reset_cursor();
        self.busy.store(false, Ordering::Release);
    }

    /// Whether the open chunk is full once `n` more records, standing for `expanded` more events
    /// through their loop runs, join it: at [`chunk_buffers`] buffers, or at
    /// `RDTRACE_CHUNK_EVENTS` events it decodes to at most. Decided at hand-off, before the
    /// writer encodes anything, so the owner knows each chunk's end and number, and a thread's
    /// consecutive chunks can be encoded at once. Called under `busy`.
    fn chunk_full_after(&self, n: usize, expanded: u64) -> bool {
        n > 0
            && (self.open_buffers.load(Ordering::Relaxed) + 1 >= chunk_buffers()
                || self.open_events.load(Ordering::Relaxed) + n as u64 + expanded
                    >= config::get().chunk_events as u64)
    }

    /// Counts `n` records standing for `expanded` more events into the open chunk, or when
    /// `close` starts the next one (its number is the next sequence number). Called under `busy`.
    pub(super) fn note_flushed(&self, n: usize, expanded: u64, close: bool) {
        if close {
            self.seq.fetch_add(1, Ordering::Relaxed);
            self.open_buffers.store(0, Ordering::Relaxed);
            self.open_events.store(0, Ordering::Relaxed);
        } else if n > 0 {
            self.open_buffers.fetch_add(1, Ordering::Relaxed);
            self.open_events
                .fetch_add(n as u64 + expanded, Ordering::Relaxed);
        }
    }

    /// Queues the buffer being filled (its first `n` records) for the writer and makes a free
    /// buffer the one being filled, waiting for the writer to give one back when none is free.
    /// A job without records is queued only to close a chunk that has records. Called under
    /// `busy`.
    ///
    /// Once a fatal-signal handler has taken the writer over, the job is not queued: this
    /// thread lets go of `busy` and waits for the end of the process, so the handler flushes
    /// the buffer in sequence (see [`writer::take_over`]), into the open chunk, which this
    /// thread's counts still describe.
    fn hand_off(&self, n: usize, expanded: u64, close: bool) {
        let open = self.open_buffers.load(Ordering::Relaxed) > 0;
        if n == 0 && !(close && open) {
            return;
        }
        let cur = self.cur_buf.load(Ordering::Relaxed);
        let seq = self.seq.load(Ordering::Relaxed);
        let job = writer::Job {
            state: self as *const ThreadState,
            buf: if n > 0 { cur } else { NO_BUFFER },
            n,
            close,
            seq,
            lane: writer::lane_of(self.first_lane, self.encoders.len(), seq),
        };
        self.pending.fetch_add(1, Ordering::SeqCst);
        if !writer::submit(job) {
            self.pending.fetch_sub(1, Ordering::SeqCst);
            self.busy.store(false, Ordering::Release);
            writer::wait_for_the_end();
        }
        self.note_flushed(n, expanded, close);
        if n == 0 {
            return;
        }
        loop {
            let free = self.free.load(Ordering::Acquire) & self.usable_buffers();
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

    /// Whether a thread waiting for this state's jobs may go on: two usable buffers free, or no
    /// job left (the writer wakes waiters only then).
    pub fn may_go_on(&self) -> bool {
        (self.free.load(Ordering::SeqCst) & self.usable_buffers()).count_ones() >= 2
            || self.pending.load(Ordering::SeqCst) == 0
    }

    /// The raw buffers the owner may fill next, as a mask of `free`: all of them while each
    /// thread's lanes are workers of its own ([`writer::threads_with_all_buffers`]: a thread's consecutive
    /// chunks then keep all of its workers busy), else the first half, so that a program with
    /// many threads does not hold twice the raw memory for no gain (bfs on four threads: 4.19 s
    /// with four buffers a thread, 4.07 s with eight, 20 MiB more). Buffers beyond them still
    /// in flight come back and stay free.
    fn usable_buffers(&self) -> u32 {
        let all = (1u32 << self.bufs.len()) - 1;
        if LIVE.load(Ordering::Relaxed) <= writer::threads_with_all_buffers() {
            all
        } else {
            all >> (self.bufs.len() / 2)
        }
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
