//! The predictor the encoder and the decoder share (the same rules on both sides): expected
//! next instruction and per-instruction last address and stride, reset per chunk.

/// Per-memory-instruction predictor entry; `generation` says which chunk it belongs to, so the
/// table never has to be cleared between chunks.
#[derive(Clone, Copy, Default)]
pub(super) struct Prediction {
    pub(super) generation: u32,
    /// The instruction that followed this one last time, plus one (0: not seen yet).
    pub(super) next_plus_one: u32,
    pub(super) last: u64,
    pub(super) stride: u64,
}

/// Predictor state shared by encoder and decoder (the same rules on both sides).
pub(super) struct Predictor {
    pub(super) table: Vec<Prediction>,
    pub(super) generation: u32,
    pub(super) prev_bb: u32,
    pub(super) prev_mi: u32,
    pub(super) expected_mi: u32,
    pub(super) prev_br: u32,
    pub(super) prev_time: u64,
}

impl Predictor {
    pub(super) fn new(mem_instrs: usize) -> Self {
        Predictor {
            table: vec![Prediction::default(); mem_instrs],
            generation: 0,
            prev_bb: u32::MAX,
            prev_mi: u32::MAX,
            expected_mi: 0,
            prev_br: 0,
            prev_time: 0,
        }
    }

    pub(super) fn start_chunk(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: stale entries could look current, so clear them once every 2^32 chunks.
            self.table
                .iter_mut()
                .for_each(|p| *p = Prediction::default());
            self.generation = 1;
        }
        self.prev_bb = u32::MAX;
        self.prev_mi = u32::MAX;
        self.expected_mi = 0;
        self.prev_br = 0;
        self.prev_time = 0;
    }

    /// The predicted address of `mi` (0 when not yet seen in this chunk).
    #[inline(always)]
    pub(super) fn entry(&mut self, mi: u32) -> &mut Prediction {
        let i = mi as usize;
        if i >= self.table.len() {
            // Only for modules registered after the encoder was sized (dlopen); amortised.
            self.table
                .resize((i + 1).next_power_of_two(), Prediction::default());
        }
        let generation = self.generation;
        let e = &mut self.table[i];
        if e.generation != generation {
            *e = Prediction {
                generation,
                ..Prediction::default()
            };
        }
        e
    }

    /// The instruction expected to access next (cached; see [`Predictor::access`]).
    #[inline(always)]
    pub(super) fn expected_mi(&self) -> u32 {
        self.expected_mi
    }

    /// One access by `mi`: `actual(predicted)` gives the real address (the encoder knows it, the
    /// decoder adds the coded delta). Learns the stride, the successor of the previous
    /// instruction, and the next expected instruction, with one table lookup for `mi`.
    #[inline(always)]
    pub(super) fn access(&mut self, mi: u32, actual: impl FnOnce(u64) -> u64) -> (u64, u64) {
        if self.prev_mi != u32::MAX {
            // The previous entry was touched in this chunk, so it is current: no generation check.
            let prev = self.prev_mi as usize;
            self.table[prev].next_plus_one = mi.wrapping_add(1);
        }
        let e = self.entry(mi);
        let predicted = e.last.wrapping_add(e.stride);
        let addr = actual(predicted);
        // A first sighting in this chunk has no stride yet.
        e.stride = if e.last == 0 {
            0
        } else {
            addr.wrapping_sub(e.last)
        };
        e.last = addr;
        let expected = match e.next_plus_one {
            0 => mi.wrapping_add(1),
            n => n - 1,
        };
        self.expected_mi = expected;
        self.prev_mi = mi;
        (predicted, addr)
    }
}
