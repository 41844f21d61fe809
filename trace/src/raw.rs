//! The runtime's in-buffer event record ([`RawEvent`]): what the hot path writes, 16 bytes,
//! fixed size, no encoding work. The chunk encoder turns a buffer of these into the compact wire
//! form ([`crate::codec`]).
//!
//! Layout: `head = tag << 56 | aux << 32 | id`, `value` = an address, a length, a stamp or a
//! bound. Events that need more than one value are followed by [`TAG_EXT`] records.

/// One raw event record. Part of ABI between runtime, pass and encoder: 16 bytes, no padding,
/// 16-byte aligned (the pass's inline stores of `head` carry `align 16`; see
/// [`crate::abi::RECORD_ALIGN`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct RawEvent {
    /// `tag << 56 | aux << 32 | id`.
    pub head: u64,
    /// Payload value.
    pub value: u64,
}

/// Bit position of the tag in [`RawEvent::head`] (the top byte).
pub const TAG_SHIFT: u32 = 56;
/// Bit position of the 24-bit aux field in [`RawEvent::head`].
pub const AUX_SHIFT: u32 = 32;
/// Mask of the aux field after shifting it down.
pub const AUX_MASK: u64 = 0xff_ffff;

/// The `head` word of a record without aux: `tag << TAG_SHIFT | id` (what the pass's inline
/// stores and the encoder's fast path build).
#[inline(always)]
pub const fn head_of(tag: u8, id: u32) -> u64 {
    (tag as u64) << TAG_SHIFT | id as u64
}

const _: () = assert!(std::mem::size_of::<RawEvent>() == crate::abi::RECORD_SIZE as usize);
// The pass emits `store ..., align RECORD_ALIGN` at the cursor; LLVM may assume that alignment,
// so every buffer of records must really have it.
const _: () = assert!(std::mem::align_of::<RawEvent>() == crate::abi::RECORD_ALIGN as usize);
const _: () = assert!(std::mem::offset_of!(RawEvent, value) == 8);

/// Block entry: id = block.
pub const TAG_BLOCK: u8 = 1;
/// Access with the static size: id = mi, value = address.
pub const TAG_ACCESS: u8 = 2;
/// Access of a run-time length: id = mi, value = address; one EXT record with the length.
pub const TAG_ACCESS_RANGE: u8 = 3;
/// Branch: id = branch, value = outcome.
pub const TAG_BRANCH: u8 = 4;
/// Fork: id = region.
pub const TAG_FORK: u8 = 5;
/// Join: id = region.
pub const TAG_JOIN: u8 = 6;
/// Region enter: id = region, value = thread_num << 32 | num_threads.
pub const TAG_REGION_ENTER: u8 = 7;
/// Region exit: id = region.
pub const TAG_REGION_EXIT: u8 = 8;
/// Worksharing init: id = ws, aux = schedule (low 24 bits, two's complement), value = lower;
/// then EXT records upper, stride, incr, chunk.
pub const TAG_WS_INIT: u8 = 9;
/// Dispatch next: id = ws, aux = more, value = lower; then EXT upper.
pub const TAG_WS_NEXT: u8 = 10;
/// Worksharing fini: id = ws.
pub const TAG_WS_FINI: u8 = 11;
/// Barrier passed.
pub const TAG_BARRIER: u8 = 12;
/// Ordering stamp: value = clock.
pub const TAG_STAMP: u8 = 13;
/// Extra value of the preceding event.
pub const TAG_EXT: u8 = 14;
/// Recording stops here until the thread enters the region of interest again: no id, no value.
pub const TAG_GAP: u8 = 15;
/// Loop run ([`crate::version::V_LOOP_RUNS`]): id = the loop's branch, aux = `m | r << 8` (`m`
/// memory instructions in the loop's block, `r` of them with run-time strides), value =
/// `count << 1 | exit` (`count` iterations since the loop's entry or its previous run; `exit`:
/// the last of them left the loop); then `m` [`TAG_ACCESS`] records, in the block's order, with
/// the addresses of the run's last iteration, and `r` [`TAG_EXT`] records with the run-time
/// strides, in the same order.
pub const TAG_LOOP_RUN: u8 = 16;

impl RawEvent {
    /// Builds a record.
    #[inline(always)]
    pub const fn new(tag: u8, aux: u32, id: u32, value: u64) -> Self {
        RawEvent {
            head: head_of(tag, id) | ((aux as u64) & AUX_MASK) << AUX_SHIFT,
            value,
        }
    }
    /// The tag.
    #[inline(always)]
    pub const fn tag(&self) -> u8 {
        (self.head >> TAG_SHIFT) as u8
    }
    /// The 24-bit aux field.
    #[inline(always)]
    pub const fn aux(&self) -> u32 {
        ((self.head >> AUX_SHIFT) & AUX_MASK) as u32
    }
    /// The id field.
    #[inline(always)]
    pub const fn id(&self) -> u32 {
        self.head as u32
    }
}

/// Sign-extends the 24-bit aux field (used for the schedule constant).
pub fn aux_to_i32(aux: u32) -> i32 {
    ((aux << 8) as i32) >> 8
}
