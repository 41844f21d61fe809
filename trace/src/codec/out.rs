//! The unchecked payload writer [`Out`] of the encoder's hot loops, and the spare capacity
//! its fixed-size writes rely on.

/// Most payload bytes of one repeated loop body.
pub(super) const MAX_PERIOD_BYTES: usize = 64;

/// Unchecked appends into reserved payload capacity: the encoder reserves [`append_room`](super::append_room)
/// before it writes, so no write needs its own capacity check; `append` asserts the total
/// stayed within it before it sets the length (an overrun would be a bug in that bound, caught
/// by the per-record bound tests).
pub(super) struct Out {
    pub(super) ptr: *mut u8,
    pub(super) len: usize,
}

impl Out {
    #[inline(always)]
    pub(super) fn byte(&mut self, b: u8) {
        // Safety: within the reserved capacity (see the type's comment).
        unsafe { self.ptr.add(self.len).write(b) };
        self.len += 1;
    }

    /// Appends the first `len` bytes of `b`, copying all of it (one fixed-size copy): the
    /// capacity reserved has [`MAX_PERIOD_BYTES`] to spare for that (see [`append_room`](super::append_room)).
    #[inline(always)]
    pub(super) fn pattern(&mut self, b: &[u8; MAX_PERIOD_BYTES], len: usize) {
        // Safety: within the reserved capacity (see the type's comment and `append_room`);
        // `b` is not the payload buffer.
        unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), self.ptr.add(self.len), b.len()) };
        self.len += len;
    }

    /// LEB128. Values of 2 to 8 bytes (below 2^56) are spread into one 8-byte store without a
    /// loop (their lengths vary from access to access, so a byte loop's exit mispredicts); the
    /// store may write up to 6 bytes past the varint, inside the [`MAX_PERIOD_BYTES`] the
    /// reserved capacity has to spare, and later bytes overwrite them.
    #[inline(always)]
    pub(super) fn varint(&mut self, mut v: u64) {
        if v < 0x80 {
            self.byte(v as u8);
            return;
        }
        if v < 1 << 56 {
            let n = (64 - v.leading_zeros() as usize).div_ceil(7);
            let mut x = v & 0x7f;
            let mut k = 1;
            while k < 8 {
                x |= (v << k) & (0x7f << (8 * k));
                k += 1;
            }
            x |= 0x8080_8080_8080_8080u64 >> (8 * (9 - n));
            // Safety: within the reserved capacity plus its spare (see above and `Out`).
            unsafe { (self.ptr.add(self.len) as *mut u64).write_unaligned(x.to_le()) };
            self.len += n;
            return;
        }
        while v >= 0x80 {
            self.byte((v as u8) | 0x80);
            v >>= 7;
        }
        self.byte(v as u8);
    }
}
