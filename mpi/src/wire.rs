//! The message layer: point-to-point pieces ([`Wire`]), non-blocking sends of local
//! infinities ([`Outbox`], [`emit`]) and the displacements of variable-size collectives.

use crate::{RankStats, Step, INF_MESSAGE, PIECE, TAG_INF, TAG_STOP};
use mpi::request::{LocalScope, Request};
use mpi::traits::*;
use mpi::Count;
use rdengines::parda::Rank;
use std::collections::VecDeque;

/// Point-to-point messages of one rank, with its statistics.
pub(crate) struct Wire<'c, C: Communicator> {
    pub(crate) world: &'c C,
    pub(crate) stats: RankStats,
}

impl<C: Communicator> Wire<'_, C> {
    /// Adds the time since `started` to `step`.
    pub(crate) fn time(&mut self, step: Step, started: std::time::Instant) {
        self.stats.step_ns[step as usize] += started.elapsed().as_nanos() as u64;
    }

    /// Sends `blocks` to `dest` in pieces (never an empty one: that ends a stream).
    pub(crate) fn send_pieces(&mut self, dest: i32, tag: i32, blocks: &[u64]) {
        let p = self.world.process_at_rank(dest);
        for piece in blocks.chunks(PIECE) {
            p.send_with_tag(piece, tag);
            self.stats.bytes_sent += std::mem::size_of_val(piece) as u64;
            self.stats.messages += 1;
        }
    }

    /// Ends a stream of pieces to `dest`.
    pub(crate) fn send_end(&mut self, dest: i32, tag: i32) {
        let empty: [u64; 0] = [];
        self.world
            .process_at_rank(dest)
            .send_with_tag(&empty[..], tag);
        self.stats.messages += 1;
    }

    /// Receives the next piece of `src`'s stream; empty at its end.
    pub(crate) fn receive_piece(&self, src: i32, tag: i32) -> Vec<u64> {
        self.world
            .process_at_rank(src)
            .receive_vec_with_tag::<u64>(tag)
            .0
    }

    /// Whether a message with `tag` from `src` is waiting to be received.
    pub(crate) fn piece_pending(&self, src: i32, tag: i32) -> bool {
        let p = self.world.process_at_rank(src);
        // OpenMPI's probe that finds nothing runs the progress engine and answers "no" without
        // looking again, so what arrived meanwhile (after a long computation, everything the
        // other rank sent) shows only to a second probe.
        p.immediate_probe_with_tag(tag).is_some() || p.immediate_probe_with_tag(tag).is_some()
    }

    /// Whether the left neighbour's stop has arrived from `src` (then it is received).
    pub(crate) fn stop_arrived(&self, src: i32) -> bool {
        let here = self.piece_pending(src, TAG_STOP);
        if here {
            self.receive_piece(src, TAG_STOP);
        }
        here
    }

    /// Receives a whole stream of pieces from `src`, appending to `out`.
    pub(crate) fn receive_all(&self, src: i32, tag: i32, out: &mut Vec<u64>) {
        loop {
            let piece = self.receive_piece(src, tag);
            if piece.is_empty() {
                return;
            }
            out.extend_from_slice(&piece);
        }
    }
}

/// Sends local infinities left, or at virtual rank 0 counts them as global infinities.
pub(crate) fn emit<'a, 's, C: Communicator>(
    wire: &mut Wire<'_, C>,
    outbox: &mut Outbox<'a, 's>,
    rank: &mut Rank<'_>,
    left: Option<i32>,
    list: Vec<u64>,
) {
    match left {
        Some(left) => outbox.send(wire, left, TAG_INF, &list),
        None => rank.global_infinities(list),
    }
}

/// Non-blocking sends of one phase's local infinities. Each piece is copied into the rank's
/// send store (which outlives the request scope) and sent with `MPI_Isend`, so the sender goes
/// on while the receiver is still busy; when the store is full, a piece is sent blocking.
pub(crate) struct Outbox<'a, 's> {
    pub(crate) scope: &'s LocalScope<'a>,
    /// The unused part of the store.
    pub(crate) free: &'a mut [u64],
    /// Sends not known to be complete, oldest first.
    pub(crate) pending: VecDeque<Request<'a, [u64], &'s LocalScope<'a>>>,
}

impl<'a, 's> Outbox<'a, 's> {
    pub(crate) fn new(scope: &'s LocalScope<'a>, store: &'a mut [u64]) -> Self {
        Outbox {
            scope,
            free: store,
            pending: VecDeque::new(),
        }
    }

    /// Sends `blocks` to `dest` in pieces (never an empty one: that ends a stream).
    pub(crate) fn send<C: Communicator>(
        &mut self,
        wire: &mut Wire<'_, C>,
        dest: i32,
        tag: i32,
        blocks: &[u64],
    ) {
        let p = wire.world.process_at_rank(dest);
        for piece in blocks.chunks(INF_MESSAGE) {
            if self.free.len() >= piece.len() {
                let (copy, rest) = std::mem::take(&mut self.free).split_at_mut(piece.len());
                copy.copy_from_slice(piece);
                self.free = rest;
                let copy: &'a [u64] = copy;
                self.pending
                    .push_back(p.immediate_send_with_tag(self.scope, copy, tag));
            } else {
                p.send_with_tag(piece, tag);
            }
            wire.stats.bytes_sent += std::mem::size_of_val(piece) as u64;
            wire.stats.messages += 1;
        }
        // Retire the sends that are done (this also lets MPI progress the others).
        while let Some(r) = self.pending.pop_front() {
            if let Err(r) = r.test() {
                self.pending.push_front(r);
                break;
            }
        }
    }

    /// Waits until every send has completed (before the scope ends).
    pub(crate) fn complete(self) {
        for r in self.pending {
            r.wait_without_status();
        }
    }
}

/// Exclusive prefix sums of per-rank counts.
pub(crate) fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |acc, &c| {
            let d = *acc;
            *acc += c;
            Some(d)
        })
        .collect()
}
