//! The phase being buffered, kept in pieces, with rank 0 analysing them on its own thread as
//! they fill (Alg. 5's `read(INPUT, S)` overlapped with Alg. 3 at rank 0).
//!
//! Rank 0's chunk starts the phase, so it can start on the first piece; where its chunk ends is
//! decided only when the phase is complete (the split is balanced on a sample of the whole
//! phase, [`crate::balance`]). Until then rank 0 *claims* each piece before analysing it; at
//! the close its chunk ends at the balanced split or at the pieces it has already claimed,
//! whichever is later (any split into consecutive chunks is exact). The other ranks then start
//! on the pieces after it. So the buffer fill no longer holds every rank back: on a stream fed
//! from a file or in batches, rank 0 works while the rest of the phase arrives.

use super::Rank;
use crate::accum::DenseHist;
use crate::fast::FastCore;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;

/// Set in the claim counter once the phase is complete; the other bits are then the end of
/// rank 0's chunk in pieces (exclusive).
const CLOSED: u64 = 1 << 63;

/// What rank 0 owns while it runs on its own thread, given back at the end of the phase.
pub(super) struct RootState {
    /// The global stack.
    pub core: FastCore,
    /// Rank 0's histogram.
    pub hist: DenseHist,
    /// Rank 0's global misses (bounded mode).
    pub misses: Vec<u64>,
}

/// Rank 0 of the phase, running from the phase's first piece on.
struct RootWorker {
    /// Pieces in order, as they fill; dropped at the close.
    pieces: Option<Sender<Arc<Vec<u64>>>>,
    /// Pieces rank 0 has claimed while open, or `CLOSED | end`.
    claim: Arc<AtomicU64>,
    handle: JoinHandle<RootState>,
}

/// A complete phase whose rank 0 knows where its chunk ends.
pub(super) struct Closed<'a> {
    /// The end of rank 0's chunk, in pieces.
    pub rank0_end: usize,
    /// The phase's pieces.
    pub pieces: &'a [Arc<Vec<u64>>],
    /// Rank 1's end of the channel to rank 0.
    pub to_root: Sender<Vec<u64>>,
}

/// The phase being buffered.
pub(super) struct Filling {
    /// References per piece.
    piece_len: usize,
    /// Full pieces of the phase, in order.
    pieces: Vec<Arc<Vec<u64>>>,
    /// The piece being filled.
    current: Vec<u64>,
    /// References buffered in this phase.
    len: usize,
    root: Option<RootWorker>,
    /// Rank 1's end of the channel to rank 0, until rank 1 starts.
    to_root: Option<Sender<Vec<u64>>>,
    /// Pieces of earlier phases, for reuse.
    free: Vec<Vec<u64>>,
}

impl Filling {
    /// An empty phase buffer cut into pieces of `piece_len` references.
    pub fn new(piece_len: usize) -> Self {
        Filling {
            piece_len: piece_len.max(1),
            pieces: Vec::new(),
            current: Vec::new(),
            len: 0,
            root: None,
            to_root: None,
            free: Vec::new(),
        }
    }

    /// References buffered in this phase.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Pieces rank 0 has claimed so far (while the phase is open; it analyses each after
    /// claiming it, so all but the last are done). A snapshot: rank 0 goes on meanwhile.
    pub fn claimed(&self) -> usize {
        self.root
            .as_ref()
            .map_or(0, |r| (r.claim.load(Ordering::Acquire) & !CLOSED) as usize)
    }

    /// References per piece.
    pub fn piece_len(&self) -> usize {
        self.piece_len
    }

    /// Bytes of heap held by the pieces.
    pub fn heap_bytes(&self) -> usize {
        let pieces = self.pieces.len() + self.free.len() + 1;
        pieces * self.piece_len * std::mem::size_of::<u64>()
    }

    /// Appends `blocks` to the phase; each piece that fills goes to rank 0 at once. `start_root`
    /// hands over rank 0's state when the first piece is full.
    pub fn push(
        &mut self,
        mut blocks: &[u64],
        bound: Option<u64>,
        start_root: impl FnOnce() -> RootState,
    ) {
        let mut start_root = Some(start_root);
        while !blocks.is_empty() {
            if self.current.capacity() == 0 {
                self.current = self
                    .free
                    .pop()
                    .unwrap_or_else(|| Vec::with_capacity(self.piece_len));
            }
            let take = (self.piece_len - self.current.len()).min(blocks.len());
            self.current.extend_from_slice(&blocks[..take]);
            self.len += take;
            blocks = &blocks[take..];
            if self.current.len() == self.piece_len {
                if self.root.is_none() {
                    let state = start_root.take().expect("rank 0 starts once")();
                    self.start(state, bound);
                }
                self.seal();
            }
        }
    }

    /// Starts rank 0 on its own thread.
    fn start(&mut self, state: RootState, bound: Option<u64>) {
        let (pieces_tx, pieces_rx) = channel::<Arc<Vec<u64>>>();
        let (to_root, from_right) = channel::<Vec<u64>>();
        let claim = Arc::new(AtomicU64::new(0));
        let claim_root = Arc::clone(&claim);
        let handle = std::thread::spawn(move || {
            let mut state = state;
            Rank::new(
                &mut state.core,
                &mut state.hist,
                &mut state.misses,
                bound,
                true,
            )
            .run_root(pieces_rx, &claim_root, from_right);
            state
        });
        self.root = Some(RootWorker {
            pieces: Some(pieces_tx),
            claim,
            handle,
        });
        self.to_root = Some(to_root);
    }

    /// Ends the piece being filled and sends it to rank 0.
    fn seal(&mut self) {
        let piece = Arc::new(std::mem::take(&mut self.current));
        if let Some(tx) = self.root.as_ref().and_then(|r| r.pieces.as_ref()) {
            // Rank 0 only stops receiving at the close (or if it panicked: then the join
            // reports it).
            let _ = tx.send(Arc::clone(&piece));
        }
        self.pieces.push(piece);
    }

    /// Completes the phase: the last partial piece is sealed, rank 0 (started now if the phase
    /// is shorter than a piece) is told where its chunk ends, at least at `rank0_pieces`, and
    /// that end is returned with the pieces and rank 1's channel to rank 0.
    pub fn close(
        &mut self,
        rank0_pieces: usize,
        bound: Option<u64>,
        start_root: impl FnOnce() -> RootState,
    ) -> Closed<'_> {
        if self.root.is_none() {
            self.start(start_root(), bound);
        }
        if !self.current.is_empty() {
            self.seal();
        }
        let root = self.root.as_mut().expect("started above");
        let want = rank0_pieces.min(self.pieces.len()) as u64;
        let mut seen = root.claim.load(Ordering::Acquire);
        let end = loop {
            // Rank 0 never claims more than it has received, so `end` ≤ pieces sent.
            let end = want.max(seen);
            match root.claim.compare_exchange(
                seen,
                CLOSED | end,
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => break end,
                Err(now) => seen = now,
            }
        };
        // Every piece is sent: rank 0 stops receiving once it has its chunk.
        root.pieces = None;
        let to_root = self
            .to_root
            .take()
            .expect("rank 0 started with its channel");
        Closed {
            rank0_end: end as usize,
            pieces: &self.pieces,
            to_root,
        }
    }

    /// Waits for rank 0 to finish (after the other ranks have: they close its channel) and
    /// empties the buffer for the next phase, keeping the pieces for reuse.
    pub fn finish(&mut self) -> RootState {
        let root = self.root.take().expect("closed phase has rank 0");
        let state = match root.handle.join() {
            Ok(state) => state,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        for piece in self.pieces.drain(..) {
            // Rank 0 and the other ranks have dropped their references by now.
            if let Ok(mut v) = Arc::try_unwrap(piece) {
                v.clear();
                self.free.push(v);
            }
        }
        self.len = 0;
        state
    }
}

/// Rank 0's claim of piece `i` (it has received pieces `0..=i`): while the phase is open it
/// takes the piece; once closed, the piece is its own iff it lies before the end.
pub(super) fn claim_piece(claim: &AtomicU64, i: u64) -> bool {
    match claim.compare_exchange(i, i + 1, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => true,
        Err(now) => {
            debug_assert!(now & CLOSED != 0, "only rank 0 claims while open");
            i < now & !CLOSED
        }
    }
}

/// Rank 0's side of a filling phase: its pieces as they come, while they are its own.
pub(super) type PieceStream = Receiver<Arc<Vec<u64>>>;
