//! Accesses gathered into batches for another thread ([`Batcher`]), the emptied batches coming
//! back for reuse: what [`super::stacks`] and [`super::chain`] feed their threads with.

use std::sync::mpsc::Receiver;

/// Items gathered into batches of a fixed size for another thread, which hands the emptied
/// batches back through `spare`.
pub(super) struct Batcher<T> {
    batch: Vec<T>,
    size: usize,
    spare: Receiver<Vec<T>>,
}

impl<T> Batcher<T> {
    /// Batches of `size` items; emptied ones come back through `spare`.
    pub(super) fn new(size: usize, spare: Receiver<Vec<T>>) -> Self {
        Batcher {
            batch: Vec::with_capacity(size),
            size,
            spare,
        }
    }

    /// Adds `item`; returns the batch when it is full.
    #[inline]
    pub(super) fn push(&mut self, item: T) -> Option<Vec<T>> {
        self.batch.push(item);
        if self.batch.len() >= self.size {
            self.take()
        } else {
            None
        }
    }

    /// The items gathered so far, if any (a spare batch, or a new one, takes their place).
    pub(super) fn take(&mut self) -> Option<Vec<T>> {
        if self.batch.is_empty() {
            return None;
        }
        let next = self
            .spare
            .try_recv()
            .unwrap_or_else(|_| Vec::with_capacity(self.size));
        Some(std::mem::replace(&mut self.batch, next))
    }
}
