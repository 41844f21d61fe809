//! A consumer of a stream of items, fed in batches, on a thread of its own or on the caller's.
//!
//! The histogram's engine, annotate's reuse stacks and paths' records' distances each take a
//! stream the caller produces and need nothing else from it: on a second CPU they run beside
//! the producer. Full batches go over a bounded channel (memory stays bounded by the batches in
//! flight), emptied batches come back for reuse, and [`Batched::finish`] hands the consumer back
//! once it has taken every item. Inline, the same batches are taken on the caller's thread, so
//! the consumer sees the same items in the same order either way.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// What a [`Batched`] feeds: it takes the items in order, a batch at a time.
pub trait BatchSink: Send + 'static {
    /// One item of the stream.
    type Item: Copy + Send + 'static;

    /// Takes the next items.
    fn take(&mut self, items: &[Self::Item]);
}

impl BatchSink for Box<dyn crate::ReuseEngine> {
    type Item = u64;

    fn take(&mut self, blocks: &[u64]) {
        self.process(blocks);
    }
}

/// A [`BatchSink`] fed in batches of `cap` items (see the module documentation).
pub struct Batched<S: BatchSink> {
    batch: Vec<S::Item>,
    cap: usize,
    side: Side<S>,
}

/// Where the batches are taken.
enum Side<S: BatchSink> {
    Inline(S),
    Threaded {
        to_thread: Option<SyncSender<Vec<S::Item>>>,
        back: Receiver<Vec<S::Item>>,
        thread: Option<std::thread::JoinHandle<S>>,
    },
}

impl<S: BatchSink> Batched<S> {
    /// `sink` fed on the caller's thread, `cap` items at a time.
    pub fn inline(sink: S, cap: usize) -> Self {
        Batched {
            batch: Vec::with_capacity(cap),
            cap,
            side: Side::Inline(sink),
        }
    }

    /// `sink` on a thread named `name` where the machine has a second CPU and a thread can be
    /// started (else inline), with up to `in_flight` full batches waiting for it.
    pub fn on_second_cpu(sink: S, cap: usize, in_flight: usize, name: &str) -> Self {
        let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
        if cpus < 2 {
            return Batched::inline(sink, cap);
        }
        // The sink goes to the thread once it runs, so a failed spawn leaves it here.
        let (hand_over, receive) = sync_channel::<S>(1);
        let (to_thread, batches) = sync_channel::<Vec<S::Item>>(in_flight);
        let (give_back, back) = std::sync::mpsc::channel::<Vec<S::Item>>();
        let spawned = std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let mut sink = receive.recv().expect("the producer hands the sink over");
                for mut batch in batches {
                    sink.take(&batch);
                    batch.clear();
                    let _ = give_back.send(batch);
                }
                sink
            });
        match spawned {
            Ok(handle) => {
                hand_over
                    .send(sink)
                    .expect("the sink's thread waits for its sink");
                Batched {
                    batch: Vec::with_capacity(cap),
                    cap,
                    side: Side::Threaded {
                        to_thread: Some(to_thread),
                        back,
                        thread: Some(handle),
                    },
                }
            }
            Err(_) => Batched::inline(sink, cap),
        }
    }

    /// Whether the sink runs on a thread of its own.
    pub fn is_threaded(&self) -> bool {
        matches!(self.side, Side::Threaded { .. })
    }

    /// The next item.
    #[inline]
    pub fn push(&mut self, item: S::Item) {
        self.batch.push(item);
        if self.batch.len() >= self.cap {
            self.flush();
        }
    }

    /// The next items.
    pub fn extend(&mut self, items: &[S::Item]) {
        for part in items.chunks(self.cap) {
            self.batch.extend_from_slice(part);
            if self.batch.len() >= self.cap {
                self.flush();
            }
        }
    }

    /// Hands `items` to the sink whole, after the items given before: no copy when the sink
    /// runs on a thread of its own (a stream that comes in vectors already).
    pub fn push_vec(&mut self, items: Vec<S::Item>) {
        if !self.batch.is_empty() {
            self.flush();
        }
        match &mut self.side {
            Side::Inline(sink) => sink.take(&items),
            Side::Threaded {
                to_thread, back, ..
            } => {
                // The sink hands the vector back emptied, as it does batches: drop what came
                // back (the batch being gathered has its own), or such vectors would pile up.
                while back.try_recv().is_ok() {}
                // A send fails only when the thread is gone (it panicked): `finish` says so.
                if let Some(tx) = to_thread {
                    let _ = tx.send(items);
                }
            }
        }
    }

    /// Hands the batch so far to the sink.
    fn flush(&mut self) {
        match &mut self.side {
            Side::Inline(sink) => {
                sink.take(&self.batch);
                self.batch.clear();
            }
            Side::Threaded {
                to_thread, back, ..
            } => {
                let spare = back
                    .try_recv()
                    .unwrap_or_else(|_| Vec::with_capacity(self.cap));
                let full = std::mem::replace(&mut self.batch, spare);
                // A send fails only when the thread is gone (it panicked): `finish` says so.
                if let Some(tx) = to_thread {
                    let _ = tx.send(full);
                }
            }
        }
    }

    /// [`Batched::finish`], with a panic of the sink's thread resumed on the caller's (for
    /// callers that have nothing better to do with it).
    pub fn join(self) -> S {
        self.finish()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    }

    /// Waits for the sink to take every item and gives it back; `Err` with the panic's payload
    /// when its thread panicked.
    pub fn finish(mut self) -> std::thread::Result<S> {
        if !self.batch.is_empty() {
            self.flush();
        }
        match self.side {
            Side::Inline(sink) => Ok(sink),
            Side::Threaded {
                mut to_thread,
                mut thread,
                ..
            } => {
                drop(to_thread.take());
                thread.take().expect("joined once").join()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeps what it is given.
    struct Keep(Vec<u32>);

    impl BatchSink for Keep {
        type Item = u32;
        fn take(&mut self, items: &[u32]) {
            self.0.extend_from_slice(items);
        }
    }

    /// Inline or on a thread, pushed one by one, in slices longer than a batch or as whole
    /// vectors, the sink gets every item once, in order.
    #[test]
    fn every_item_arrives_in_order() {
        let items: Vec<u32> = (0..10_000).collect();
        for threaded in [false, true] {
            let new = || {
                if threaded {
                    Batched::on_second_cpu(Keep(Vec::new()), 64, 2, "test")
                } else {
                    Batched::inline(Keep(Vec::new()), 64)
                }
            };
            let mut one_by_one = new();
            for &i in &items {
                one_by_one.push(i);
            }
            assert_eq!(one_by_one.finish().unwrap().0, items);
            let mut sliced = new();
            for part in items.chunks(150) {
                sliced.extend(part);
            }
            assert_eq!(sliced.finish().unwrap().0, items);
            // Whole vectors between single items.
            let mut mixed = new();
            for (k, part) in items.chunks(1000).enumerate() {
                if k % 2 == 0 {
                    mixed.push_vec(part.to_vec());
                } else {
                    part.iter().for_each(|&i| mixed.push(i));
                }
            }
            assert_eq!(mixed.finish().unwrap().0, items);
        }
    }
}
