//! Chunk payloads to events ([`ChunkDecoder`]), every value checked against the metadata
//! ([`EventBounds`]).

use super::loop_runs::LoopRuns;
use super::predictor::Predictor;
use super::*;
use crate::event::{Event, EventVisitor};

/// Why a payload failed to decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeError {
    /// Byte offset in the (decompressed) payload.
    pub offset: usize,
    /// Events delivered to the visitor before the bad one (all of them passed every check).
    pub events: u64,
    /// What was wrong.
    pub what: String,
}

/// Largest length a ranged access (memcpy/memmove/memset) may carry: 1 GiB. A longer range is
/// reported as corrupt rather than handed to analyses, which touch every line of a range.
pub const MAX_RANGE_LEN: u64 = 1 << 30;

/// What the metadata allows an event to name. The decoder checks every decoded id, outcome and
/// length against it before the event reaches a visitor, so analyses may index their metadata
/// tables with any id they are given (see `docs/trace-format.md`, "What the reader validates").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventBounds {
    /// Static access size of each memory instruction (0: a ranged instruction, whose length
    /// comes with each event).
    pub mem_instr_sizes: Vec<u32>,
    /// Number of outcomes (successors) of each branch.
    pub branch_outcomes: Vec<u32>,
    /// Number of basic blocks.
    pub blocks: u32,
    /// Number of OpenMP parallel regions.
    pub regions: u32,
    /// Number of worksharing loops.
    pub workshares: u32,
    /// The blocks the decoder emits right after branch events (implied blocks).
    pub implied: ImpliedBlocks,
    /// The accesses the decoder emits right after the access before them (derived accesses).
    pub derived: DerivedAccesses,
    /// The single-block loops whose iterations loop-run events stand for (loop runs).
    pub loop_runs: LoopRuns,
}

/// Which memory instructions are *derived* ([`crate::meta::MemInstrMeta::derived`],
/// [`crate::version::V_DERIVED_ACCESSES`]): an access without a record of its own, whose event
/// the decoder emits right after the access event of the instruction before it (`mi - 1`, the
/// same block), at its anchor's last address in the chunk plus its offset. Empty for metadata
/// without derived accesses (then no access costs a lookup).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DerivedAccesses {
    /// Per memory instruction: its anchor and offset, or [`NOT_DERIVED`] as the anchor.
    from: Vec<(u32, i64)>,
}

/// [`DerivedAccesses`]' anchor for an instruction that has its own records.
const NOT_DERIVED: u32 = u32::MAX;

impl DerivedAccesses {
    /// The derived accesses of `meta`.
    pub fn of(meta: &crate::meta::MetaTables) -> Self {
        if !meta.mem_instrs.iter().any(|m| m.derived.is_some()) {
            return DerivedAccesses::default();
        }
        let from = (meta.mem_instrs.iter())
            .map(|m| m.derived.map_or((NOT_DERIVED, 0), |d| (d.anchor, d.offset)))
            .collect();
        DerivedAccesses { from }
    }

    /// Whether any access is derived.
    #[inline(always)]
    pub fn any(&self) -> bool {
        !self.from.is_empty()
    }

    /// The anchor and offset of `mi` when it is derived.
    #[inline(always)]
    pub fn of_instr(&self, mi: u32) -> Option<(u32, i64)> {
        self.from
            .get(mi as usize)
            .copied()
            .filter(|&(anchor, _)| anchor != NOT_DERIVED)
    }

    /// The events of one thread's stream that a writer stores: `events` without each derived
    /// access that directly follows the access event of the instruction before it (the decoder
    /// re-creates those, at its anchor's address plus its offset). `pending` carries the last
    /// event's instruction when it was an access (start with `None` per thread), so a stream
    /// may be cut anywhere.
    pub fn stored<'e>(
        &'e self,
        events: impl Iterator<Item = Event> + 'e,
        pending: &'e mut Option<u32>,
    ) -> impl Iterator<Item = Event> + 'e {
        events.filter(move |e| {
            let (derived_here, now) = match *e {
                Event::Access { mi, .. } => (
                    self.of_instr(mi).is_some() && *pending == Some(mi.wrapping_sub(1)),
                    Some(mi),
                ),
                _ => (false, None),
            };
            *pending = now;
            !derived_here
        })
    }
}

/// Which branch outcomes lead into an *implied* block ([`crate::meta::BlockMeta::implied`],
/// [`crate::version::V_IMPLIED_BLOCKS`]): a block without a record of its own, whose block event
/// the decoder emits right after the branch event that enters it. Empty for metadata without
/// implied blocks (then no branch costs a lookup).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImpliedBlocks {
    /// Per branch: the index in `block` of its outcome 0.
    first: Vec<u32>,
    /// Per branch outcome: the implied block it enters, or [`NOT_IMPLIED`].
    block: Vec<u32>,
}

/// [`ImpliedBlocks`]' entry for an outcome whose successor has its own block record.
const NOT_IMPLIED: u32 = u32::MAX;

impl ImpliedBlocks {
    /// The implied successors of every branch of `meta`.
    pub fn of(meta: &crate::meta::MetaTables) -> Self {
        if !meta.blocks.iter().any(|b| b.implied) {
            return ImpliedBlocks::default();
        }
        let mut first = Vec::with_capacity(meta.branches.len());
        let mut block = Vec::new();
        for br in &meta.branches {
            first.push(block.len() as u32);
            block.extend(br.successors.iter().map(|&s| {
                if meta.blocks[s as usize].implied {
                    s
                } else {
                    NOT_IMPLIED
                }
            }));
        }
        ImpliedBlocks { first, block }
    }

    /// The implied block that outcome `outcome` of branch `br` enters, if any (`outcome` must be
    /// one of the branch's outcomes).
    #[inline(always)]
    pub fn after(&self, br: u32, outcome: u32) -> Option<u32> {
        if self.first.is_empty() {
            return None;
        }
        let at = self.first[br as usize] as usize + outcome as usize;
        Some(self.block[at]).filter(|&b| b != NOT_IMPLIED)
    }

    /// Whether any block is implied.
    pub fn any(&self) -> bool {
        !self.first.is_empty()
    }

    /// The events of one thread's stream that a writer stores: `events` without each implied
    /// block that directly follows the branch event entering it (the decoder re-creates those).
    /// `pending` carries that state across calls (start with `None` per thread), so a stream
    /// may be cut anywhere. An implied block anywhere else is kept, as an explicit record.
    pub fn stored<'e>(
        &'e self,
        events: &'e [Event],
        pending: &'e mut Option<u32>,
    ) -> impl Iterator<Item = Event> + 'e {
        events.iter().copied().filter(move |e| {
            let implied_here = matches!(*e, Event::Block { bb } if *pending == Some(bb));
            *pending = match *e {
                Event::Branch { br, outcome } => self.after(br, outcome),
                _ => None,
            };
            !implied_here
        })
    }
}

impl EventBounds {
    /// The bounds a program's merged metadata sets.
    pub fn of(meta: &crate::meta::ProgramMeta) -> Self {
        EventBounds {
            mem_instr_sizes: meta.mem_instrs.iter().map(|m| m.size).collect(),
            branch_outcomes: meta
                .branches
                .iter()
                .map(|b| b.successors.len() as u32)
                .collect(),
            blocks: meta.blocks.len() as u32,
            regions: meta.regions.len() as u32,
            workshares: meta.workshares.len() as u32,
            implied: ImpliedBlocks::of(meta),
            derived: DerivedAccesses::of(meta),
            loop_runs: LoopRuns::of(meta),
        }
    }
}

/// Decodes events chunk payloads, validating every event against [`EventBounds`] and emitting
/// the implied blocks ([`ImpliedBlocks`]) after their branches, the derived accesses
/// ([`DerivedAccesses`]) after the access before them and the iterations of loop runs
/// ([`LoopRuns`]): an id
/// outside the metadata, a branch outcome the branch does not have, a range longer than
/// [`MAX_RANGE_LEN`] or more events than the chunk header announced are errors, reported
/// before the offending event reaches the visitor.
pub struct ChunkDecoder {
    predictor: Predictor,
}

pub(super) struct Cursor<'a> {
    pub(super) data: &'a [u8],
    pub(super) pos: usize,
    /// Events delivered so far (for [`DecodeError::events`]).
    pub(super) count: u64,
}

impl Cursor<'_> {
    #[inline(always)]
    pub(super) fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self
            .data
            .get(self.pos)
            .ok_or_else(|| self.err("payload ends inside an event"))?;
        self.pos += 1;
        Ok(b)
    }
    #[inline(always)]
    pub(super) fn varint(&mut self) -> Result<u64, DecodeError> {
        let mut v = 0u64;
        let mut shift = 0;
        loop {
            let b = self.byte()?;
            if shift == 63 && b > 1 {
                return Err(self.err("varint overflows 64 bits"));
            }
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
            shift += 7;
            if shift > 63 {
                return Err(self.err("varint longer than 10 bytes"));
            }
        }
    }
    pub(super) fn u32(&mut self) -> Result<u32, DecodeError> {
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| self.err("id does not fit 32 bits"))
    }
    /// An id of `kind` that must be below `count`.
    pub(super) fn id(&mut self, kind: &str, count: u32) -> Result<u32, DecodeError> {
        let id = self.u32()?;
        self.check_id(kind, id, count)
    }
    #[inline(always)]
    pub(super) fn check_id(&self, kind: &str, id: u32, count: u32) -> Result<u32, DecodeError> {
        if id < count {
            Ok(id)
        } else {
            Err(self.err(&format!(
                "{kind} {id} is not in the metadata ({count} known)"
            )))
        }
    }
    pub(super) fn err(&self, what: &str) -> DecodeError {
        DecodeError {
            offset: self.pos,
            events: self.count,
            what: what.to_string(),
        }
    }
}

impl ChunkDecoder {
    /// A decoder sized for `mem_instrs` memory instructions.
    pub fn new(mem_instrs: usize) -> Self {
        ChunkDecoder {
            predictor: Predictor::new(mem_instrs),
        }
    }

    /// Decodes a payload, calling the visitor for every event; returns the number of events
    /// stored in it (implied blocks and derived accesses, which are emitted but not stored, do
    /// not count, and a loop run counts once however many iterations it stands for: the chunk
    /// header counts what the writer stored). More than `max_events` events is an error (the
    /// header's count bounds the work a corrupt payload can cause: a run byte stands for up to
    /// 64 accesses, a loop run for at most [`crate::abi::LOOP_RUN_MAX_ITERATIONS`] iterations of
    /// at most [`crate::abi::LOOP_RUN_MAX_ACCESSES`] accesses, a branch and a block each).
    pub fn decode(
        &mut self,
        payload: &[u8],
        bounds: &EventBounds,
        max_events: u64,
        v: &mut impl EventVisitor,
    ) -> Result<u64, DecodeError> {
        let p = &mut self.predictor;
        p.start_chunk();
        let mut c = Cursor {
            data: payload,
            pos: 0,
            count: 0,
        };
        let sizes = &bounds.mem_instr_sizes;
        let derived = &bounds.derived;
        // Tested per access, so kept in a register (most traces have none).
        let has_derived = derived.any();
        let size_of = |c: &Cursor, mi: u32| {
            sizes.get(mi as usize).copied().ok_or_else(|| {
                c.err(&format!(
                    "memory instruction {mi} is not in the metadata ({} known)",
                    sizes.len()
                ))
            })
        };
        while c.pos < payload.len() {
            let b = c.byte()?;
            if c.count >= max_events {
                c.pos -= 1;
                return Err(c.err(&format!(
                    "more events than the {max_events} the chunk header announces"
                )));
            }
            match b {
                0x00..=0x3f => {
                    if c.count + b as u64 >= max_events {
                        c.pos -= 1;
                        return Err(c.err(&format!(
                            "a run of {} accesses overruns the {max_events} events the chunk header announces",
                            b as u64 + 1
                        )));
                    }
                    for _ in 0..=b {
                        let mi = p.expected_mi();
                        // Checked before `access`, which would grow the table to a corrupt id.
                        let len = size_of(&c, mi)? as u64;
                        let (_, addr) = p.access(mi, |predicted| predicted);
                        v.access(mi, addr, len);
                        if has_derived && derived.of_instr(mi.wrapping_add(1)).is_some() {
                            emit_derived(p, derived, sizes, mi, v);
                        }
                        c.count += 1;
                    }
                    continue;
                }
                OP_ACCESS | OP_RANGE => {
                    let dmi = unzigzag(c.varint()?) as i32 as u32;
                    let mi = p.expected_mi().wrapping_add(dmi);
                    // Ranges may name any instruction (tools write static accesses as ranges).
                    let static_len = size_of(&c, mi)? as u64;
                    let daddr = unzigzag(c.varint()?) as u64;
                    let len = if b == OP_RANGE {
                        let len = c.varint()?;
                        if len > MAX_RANGE_LEN {
                            return Err(c.err(&format!(
                                "ranged access of {len} bytes exceeds the {MAX_RANGE_LEN} byte limit"
                            )));
                        }
                        len
                    } else {
                        static_len
                    };
                    let (_, addr) = p.access(mi, |predicted| predicted.wrapping_add(daddr));
                    v.access(mi, addr, len);
                    if has_derived && derived.of_instr(mi.wrapping_add(1)).is_some() {
                        emit_derived(p, derived, sizes, mi, v);
                    }
                }
                OP_BLOCK => {
                    let d = unzigzag(c.varint()?) as i32 as u32;
                    let bb = p.prev_bb.wrapping_add(1).wrapping_add(d);
                    p.prev_bb = c.check_id("block", bb, bounds.blocks)?;
                    v.block(bb);
                }
                0x80..=0xbf => {
                    let d = (b & 0x3f) as i32 - 32;
                    let bb = p.prev_bb.wrapping_add(1).wrapping_add(d as u32);
                    p.prev_bb = c.check_id("block", bb, bounds.blocks)?;
                    v.block(bb);
                }
                0xc0..=0xff | OP_BRANCH => {
                    let (br, outcome) = if b == OP_BRANCH {
                        let d = unzigzag(c.varint()?) as i32 as u32;
                        (p.prev_br.wrapping_add(d), c.u32()?)
                    } else {
                        let d = (b & 0x1f) as i32 - 16;
                        (p.prev_br.wrapping_add(d as u32), ((b >> 5) & 1) as u32)
                    };
                    let outcomes = bounds.branch_outcomes.get(br as usize).copied();
                    let Some(outcomes) = outcomes else {
                        return Err(c.err(&format!(
                            "branch {br} is not in the metadata ({} known)",
                            bounds.branch_outcomes.len()
                        )));
                    };
                    if outcome >= outcomes {
                        return Err(c.err(&format!(
                            "branch {br} has {outcomes} successors, the event says outcome {outcome}"
                        )));
                    }
                    p.prev_br = br;
                    v.branch(br, outcome);
                    // The block this outcome enters has no record of its own; the encoder
                    // never saw it, so the predictor's previous block stays.
                    if let Some(bb) = bounds.implied.after(br, outcome) {
                        v.block(bb);
                    }
                }
                OP_LOOP_RUN => decode_loop_run(p, &mut c, bounds, v)?,
                OP_FORK => v.other(Event::Fork {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_JOIN => v.other(Event::Join {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_REGION_EXIT => v.other(Event::RegionExit {
                    region: c.id("region", bounds.regions)?,
                }),
                OP_WS_FINI => v.other(Event::WorkshareFini {
                    ws: c.id("worksharing loop", bounds.workshares)?,
                }),
                OP_REGION_ENTER => {
                    let region = c.id("region", bounds.regions)?;
                    let omp_thread = c.u32()?;
                    let team_size = c.u32()?;
                    if omp_thread >= team_size {
                        return Err(c.err(&format!(
                            "region enter as OpenMP thread {omp_thread} of a team of {team_size}"
                        )));
                    }
                    v.other(Event::RegionEnter {
                        region,
                        omp_thread,
                        team_size,
                    });
                }
                OP_WS_INIT => {
                    let ws = c.id("worksharing loop", bounds.workshares)?;
                    let schedule = unzigzag(c.varint()?) as i32;
                    let mut vals = [0i64; 5];
                    for x in vals.iter_mut() {
                        *x = unzigzag(c.varint()?);
                    }
                    let [lower, upper, stride, incr, chunk] = vals;
                    v.other(Event::WorkshareInit {
                        ws,
                        schedule,
                        lower,
                        upper,
                        stride,
                        incr,
                        chunk,
                    });
                }
                OP_WS_NEXT => {
                    let ws = c.id("worksharing loop", bounds.workshares)?;
                    let more = c.varint()? != 0;
                    let lower = unzigzag(c.varint()?);
                    let upper = unzigzag(c.varint()?);
                    v.other(Event::WorkshareNext {
                        ws,
                        more,
                        lower,
                        upper,
                    });
                }
                OP_BARRIER => v.other(Event::Barrier),
                OP_GAP => v.other(Event::Gap),
                OP_STAMP => {
                    p.prev_time = p.prev_time.wrapping_add(unzigzag(c.varint()?) as u64);
                    v.other(Event::Stamp { time: p.prev_time });
                }
                other => {
                    c.pos -= 1;
                    return Err(c.err(&format!("unknown event opcode 0x{other:02x}")));
                }
            }
            c.count += 1;
        }
        Ok(c.count)
    }
}

/// Decodes a loop-run event (after its opcode) and emits the iterations it stands for (see
/// [`LoopRuns`]): for each iteration, the block's accesses (the run's last addresses less a
/// stride per iteration still to come), the branch event (the exit outcome for the last
/// iteration of a run that left the loop, else the back outcome) and the implied block that
/// outcome enters. Every operand is checked before the first event reaches the visitor. Out of
/// line, so the decoder's loop pays nothing for it (not cold: on loop kernels its emission is
/// most of the decoding).
#[inline(never)]
fn decode_loop_run(
    p: &mut Predictor,
    c: &mut Cursor,
    bounds: &EventBounds,
    v: &mut impl EventVisitor,
) -> Result<(), DecodeError> {
    let d = unzigzag(c.varint()?) as i32 as u32;
    let br = p.prev_br.wrapping_add(d);
    let known = bounds.branch_outcomes.len() as u32;
    c.check_id("branch", br, known)?;
    let Some(run) = bounds.loop_runs.of_branch(br) else {
        return Err(c.err(&format!("branch {br} is not a loop recorded in runs")));
    };
    let value = c.varint()?;
    let (count, exit) = (value >> 1, value & 1 != 0);
    let max = crate::abi::LOOP_RUN_MAX_ITERATIONS;
    if count > max as u64 {
        return Err(c.err(&format!(
            "a loop run of {count} iterations of branch {br} exceeds the limit of {max}"
        )));
    }
    let m = run.strides.len();
    let mut last = [0u64; crate::abi::LOOP_RUN_MAX_ACCESSES];
    for (k, last) in last[..m].iter_mut().enumerate() {
        let want = run.first_mi + k as u32;
        let dmi = unzigzag(c.varint()?) as i32 as u32;
        let mi = p.expected_mi().wrapping_add(dmi);
        if mi != want {
            return Err(c.err(&format!(
                "a loop run of branch {br} names memory instruction {mi} where its block has {want}"
            )));
        }
        let daddr = unzigzag(c.varint()?) as u64;
        (_, *last) = p.access(mi, |predicted| predicted.wrapping_add(daddr));
    }
    // The run-time strides follow the addresses, in block order.
    let mut strides = [0i64; crate::abi::LOOP_RUN_MAX_ACCESSES];
    for (stride, fixed) in strides[..m].iter_mut().zip(&run.strides) {
        *stride = match fixed {
            Some(s) => *s,
            None => unzigzag(c.varint()?),
        };
    }
    p.prev_br = br;
    for j in 0..count {
        let back = count - 1 - j;
        let each = last[..m].iter().zip(&strides[..m]).zip(&run.sizes);
        for (k, ((&last, &stride), &size)) in each.enumerate() {
            let addr = last.wrapping_sub(back.wrapping_mul(stride as u64));
            v.access(run.first_mi + k as u32, addr, size as u64);
        }
        let outcome = if exit && back == 0 {
            run.exit
        } else {
            run.back
        };
        v.branch(br, outcome);
        if let Some(bb) = bounds.implied.after(br, outcome) {
            v.block(bb);
        }
    }
    Ok(())
}

/// Emits the derived accesses ([`DerivedAccesses`]) that follow an access event of `mi`: the
/// instruction after it if that one is derived, and so on along the block. Out of line: the
/// decoder's loop keeps only the test whether the next instruction is derived.
#[inline(never)]
fn emit_derived(
    p: &Predictor,
    derived: &DerivedAccesses,
    sizes: &[u32],
    mut mi: u32,
    v: &mut impl EventVisitor,
) {
    while let Some((anchor, offset)) = derived.of_instr(mi.wrapping_add(1)) {
        mi += 1;
        let len = sizes.get(mi as usize).copied().unwrap_or(0) as u64;
        // The anchor's address in this chunk. The runtime cuts chunks only at hooks, which end
        // a block's derivations, so it is always there, except where a fatal signal's flush
        // or a signal handler's hooks cut a block in two: the access is then left out rather
        // than guessed.
        let anchor = p.table.get(anchor as usize);
        if let Some(a) = anchor.filter(|a| a.generation == p.generation) {
            v.access(mi, a.last.wrapping_add(offset as u64), len);
        }
    }
}
