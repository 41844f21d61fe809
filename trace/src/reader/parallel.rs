//! Decoding a file's chunks on several threads, results handed over in chunk order.
//!
//! Decoding is a third to a half of a one-thread `histogram`, and on branchy code (many block
//! and branch events per access) it is the slower side of the decode → engine pipeline. Chunks
//! decode independently (the codec's predictor restarts in every chunk), so workers can each
//! turn a chunk into a value (say, the chunk's cache-line ids) while one consumer takes the
//! values strictly in chunk order. Workers stay at most a window of chunks ahead of the
//! consumer, so memory is bounded by the window, not the trace.

use super::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};

/// Where the consumer is, and whether it stopped early (so that workers stop too).
struct Progress {
    /// Chunks the consumer has taken.
    consumed: usize,
    stopped: bool,
}

impl Trace {
    /// Decodes each of `chunks` into a value with `decode` on `workers` threads (each with its
    /// own [`ChunkReader`]) and hands the values to `consume` in the order of `chunks`. At most
    /// `window` decoded values wait for the consumer. The first error (of `decode` in chunk
    /// order, or of `consume`) stops the work and is returned. With one worker this is a plain
    /// loop on the calling thread.
    pub fn decode_chunks_in_order<T: Send>(
        &self,
        chunks: &[EventChunkRef],
        workers: usize,
        window: usize,
        decode: impl Fn(&mut ChunkReader<'_>, &EventChunkRef) -> Result<T> + Sync,
        mut consume: impl FnMut(T) -> Result<()>,
    ) -> Result<()> {
        let window = window.max(1);
        if workers <= 1 || chunks.len() <= 1 {
            let mut reader = self.chunk_reader()?;
            for c in chunks {
                consume(decode(&mut reader, c)?)?;
            }
            return Ok(());
        }
        let next = AtomicUsize::new(0);
        let progress = Mutex::new(Progress {
            consumed: 0,
            stopped: false,
        });
        let moved = Condvar::new();
        let (to_consumer, from_workers) = std::sync::mpsc::channel::<(usize, Result<T>)>();
        std::thread::scope(|s| -> Result<()> {
            for _ in 0..workers {
                let to_consumer = to_consumer.clone();
                let (next, progress, moved, decode) = (&next, &progress, &moved, &decode);
                let work = move || {
                    let mut reader = match self.chunk_reader() {
                        Ok(r) => r,
                        Err(e) => {
                            // Reported as the failure of the next chunk no worker decoded.
                            let _ =
                                to_consumer.send((next.fetch_add(1, Ordering::Relaxed), Err(e)));
                            return;
                        }
                    };
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= chunks.len() {
                            return;
                        }
                        {
                            // Wait until chunk i is within the window after the consumer.
                            let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
                            while !p.stopped && i >= p.consumed + window {
                                p = moved.wait(p).unwrap_or_else(|e| e.into_inner());
                            }
                            if p.stopped {
                                return;
                            }
                        }
                        let value = decode(&mut reader, &chunks[i]);
                        let failed = value.is_err();
                        if to_consumer.send((i, value)).is_err() || failed {
                            return;
                        }
                    }
                };
                if std::thread::Builder::new().spawn_scoped(s, work).is_err() {
                    // Fewer workers than asked: the others take the chunks.
                    continue;
                }
            }
            drop(to_consumer);
            let stop = |progress: &Mutex<Progress>| {
                progress.lock().unwrap_or_else(|e| e.into_inner()).stopped = true;
                moved.notify_all();
            };
            let mut waiting: BTreeMap<usize, Result<T>> = BTreeMap::new();
            let mut taken = 0usize;
            while taken < chunks.len() {
                let value = match waiting.remove(&taken) {
                    Some(v) => v,
                    None => match from_workers.recv() {
                        Ok((i, v)) => {
                            waiting.insert(i, v);
                            continue;
                        }
                        // Every worker ended before the last chunk: one failed to start its
                        // reader after another took the chunk, or none could be spawned.
                        Err(_) => {
                            stop(&progress);
                            return self.finish_alone(&chunks[taken..], &decode, &mut consume);
                        }
                    },
                };
                let outcome = value.and_then(&mut consume);
                if let Err(e) = outcome {
                    stop(&progress);
                    return Err(e);
                }
                taken += 1;
                progress.lock().unwrap_or_else(|e| e.into_inner()).consumed = taken;
                moved.notify_all();
            }
            Ok(())
        })
    }

    /// The rest of [`decode_chunks_in_order`](Self::decode_chunks_in_order) on this thread.
    fn finish_alone<T>(
        &self,
        rest: &[EventChunkRef],
        decode: &impl Fn(&mut ChunkReader<'_>, &EventChunkRef) -> Result<T>,
        consume: &mut impl FnMut(T) -> Result<()>,
    ) -> Result<()> {
        let mut reader = self.chunk_reader()?;
        for c in rest {
            consume(decode(&mut reader, c)?)?;
        }
        Ok(())
    }
}
