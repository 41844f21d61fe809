//! How much work a trace may ask of an analysis: the *touch bound*.
//!
//! Every analysis visits each cache line an access touches. For an ordinary access that is one
//! line (two when it straddles a boundary), so the work follows the number of events, which
//! the chunk limits already bound by the file's size ([`crate::chunk::events_unjustified`]).
//! A *wide* access adds a line visit per extra line: a static access of up to
//! [`crate::meta::MAX_ACCESS_SIZE`] bytes, a `memcpy`/`memset` range of up to
//! [`crate::codec::MAX_RANGE_LEN`]. Such events compress to almost nothing, so a 30 KB file can
//! ask for 10^8 line visits and more: minutes to hours in every command. The readers therefore
//! count the bytes accesses touch *beyond their first [`TOUCH_LINE`]-byte line* as they
//! validate events (the file reader at open, before any analysis runs; the stream reader chunk
//! by chunk, before it hands a chunk over), and refuse a trace whose count exceeds its bound:
//!
//! * [`TouchLimit::Auto`] (the default): the largest of [`TOUCH_FLOOR`], [`TOUCH_PER_TRACE_BYTE`]
//!   per byte of trace read, and one line per access (what straddling accesses may add).
//!   Traces of ordinary code stay far below it; a crafted file of huge accesses ends in a clear
//!   error instead of hours of work.
//! * [`TouchLimit::Bytes`]: a bound the user states (`--max-touched 64G`).
//! * [`TouchLimit::Unlimited`]: no bound (`--max-touched unlimited`), for a genuine trace of
//!   very many large ranges.

use crate::event::{Event, EventVisitor};

/// Line size in which touched bytes are counted: what the analyses' default line visits cost.
pub const TOUCH_LINE: u64 = 64;

/// The automatic bound never refuses a trace whose wide accesses add at most this many bytes
/// (256 MiB: 4 Mi line visits, seconds in the slowest command).
pub const TOUCH_FLOOR: u64 = 256 << 20;

/// Bytes beyond first lines the automatic bound allows per byte of trace read (8 KiB: 128
/// lines; a loop of 4 KiB `memcpy`s adds about 20 lines per trace byte).
pub const TOUCH_PER_TRACE_BYTE: u64 = 8 << 10;

/// How many bytes accesses may touch beyond their first line before the readers refuse the
/// trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TouchLimit {
    /// The largest of [`TOUCH_FLOOR`], [`TOUCH_PER_TRACE_BYTE`] per trace byte and
    /// [`TOUCH_LINE`] per access.
    #[default]
    Auto,
    /// At most this many bytes.
    Bytes(u64),
    /// No bound.
    Unlimited,
}

impl TouchLimit {
    /// The bound for a trace of which `trace_bytes` bytes and `accesses` accesses have been
    /// read; `None`: no bound.
    pub fn bound(self, trace_bytes: u64, accesses: u64) -> Option<u64> {
        match self {
            TouchLimit::Auto => Some(
                TOUCH_FLOOR
                    .max(trace_bytes.saturating_mul(TOUCH_PER_TRACE_BYTE))
                    .max(accesses.saturating_mul(TOUCH_LINE)),
            ),
            TouchLimit::Bytes(b) => Some(b),
            TouchLimit::Unlimited => None,
        }
    }

    /// Whether `t` exceeds the bound.
    pub fn exceeded(self, t: &Touched) -> bool {
        self.bound(t.trace_bytes, t.accesses)
            .is_some_and(|b| t.beyond_first_line > b)
    }

    /// How the bound was set, for messages.
    pub fn describe(self) -> String {
        match self {
            TouchLimit::Auto => format!(
                "the default: the largest of {}, {} per trace byte and {TOUCH_LINE} B per access",
                human_bytes(TOUCH_FLOOR),
                human_bytes(TOUCH_PER_TRACE_BYTE)
            ),
            TouchLimit::Bytes(_) => "as given".into(),
            TouchLimit::Unlimited => "no bound".into(),
        }
    }
}

/// What a reader has counted of a trace so far, in bytes of whole [`TOUCH_LINE`]-byte lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Touched {
    /// Bytes of trace read.
    pub trace_bytes: u64,
    /// Accesses decoded.
    pub accesses: u64,
    /// Bytes the accesses span, in whole lines: the line visits of every analysis.
    pub total: u64,
    /// Of `total`, the bytes beyond each access's first line: what wide accesses add.
    pub beyond_first_line: u64,
}

impl Touched {
    /// Adds `accesses` accesses that span `lines` [`TOUCH_LINE`]-byte lines in all (an empty
    /// access counted as one line, as [`Touching`] counts them).
    pub(crate) fn add(&mut self, accesses: u64, lines: u64) {
        self.accesses = self.accesses.saturating_add(accesses);
        self.total = self.total.saturating_add(lines.saturating_mul(TOUCH_LINE));
        let beyond = lines.saturating_sub(accesses);
        self.beyond_first_line = self
            .beyond_first_line
            .saturating_add(beyond.saturating_mul(TOUCH_LINE));
    }
}

/// Bytes as a person reads them: `256 MiB`, `8 KiB`, `1.5 GiB`, `123 B`.
pub fn human_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if b < 1024 {
        return format!("{b} B");
    }
    let mut v = b as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    if v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[unit])
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// Number of [`TOUCH_LINE`]-byte lines `len` bytes at `addr` span (0 for an empty access;
/// an access running past the top of the address space ends there).
#[inline]
pub fn lines_spanned(addr: u64, len: u64) -> u64 {
    if len == 0 {
        return 0;
    }
    let last = addr.saturating_add(len - 1);
    last / TOUCH_LINE - addr / TOUCH_LINE + 1
}

/// Forwards events to `inner` and counts what the accesses touch.
pub(crate) struct Touching<'v, V> {
    pub inner: &'v mut V,
    pub accesses: u64,
    pub lines: u64,
}

impl<'v, V: EventVisitor> Touching<'v, V> {
    pub fn new(inner: &'v mut V) -> Self {
        Touching {
            inner,
            accesses: 0,
            lines: 0,
        }
    }

    /// Adds what this visitor counted to `t`.
    pub fn add_to(&self, t: &mut Touched) {
        t.add(self.accesses, self.lines);
    }
}

impl<V: EventVisitor> EventVisitor for Touching<'_, V> {
    #[inline]
    fn block(&mut self, bb: u32) {
        self.inner.block(bb)
    }
    #[inline]
    fn access(&mut self, mi: u32, addr: u64, len: u64) {
        // An empty access visits no line but counts as one, so that it adds no "beyond".
        self.accesses += 1;
        self.lines += lines_spanned(addr, len).max(1);
        self.inner.access(mi, addr, len)
    }
    #[inline]
    fn branch(&mut self, br: u32, outcome: u32) {
        self.inner.branch(br, outcome)
    }
    #[inline]
    fn other(&mut self, event: Event) {
        self.inner.other(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_spanned_counts_partial_lines_at_both_ends() {
        assert_eq!(lines_spanned(0, 0), 0);
        assert_eq!(lines_spanned(0, 1), 1);
        assert_eq!(lines_spanned(0, 64), 1);
        assert_eq!(lines_spanned(63, 2), 2);
        assert_eq!(lines_spanned(64, 64), 1);
        assert_eq!(lines_spanned(32, 64), 2);
        assert_eq!(lines_spanned(0, 1 << 16), 1024);
        assert_eq!(lines_spanned(1, 1 << 16), 1025);
        // The top of the address space: the access ends there instead of wrapping.
        assert_eq!(lines_spanned(u64::MAX, 1 << 20), 1);
        assert_eq!(lines_spanned(u64::MAX - 63, 64), 1);
    }

    #[test]
    fn the_automatic_bound_is_the_floor_the_ratio_or_a_line_per_access() {
        assert_eq!(TouchLimit::Auto.bound(0, 0), Some(TOUCH_FLOOR));
        assert_eq!(TouchLimit::Auto.bound(1 << 10, 1 << 20), Some(TOUCH_FLOOR));
        assert_eq!(
            TouchLimit::Auto.bound(1 << 30, 0),
            Some((1 << 30) * TOUCH_PER_TRACE_BYTE)
        );
        assert_eq!(TouchLimit::Auto.bound(1, 1 << 30), Some(64 << 30));
        assert_eq!(TouchLimit::Auto.bound(u64::MAX, 0), Some(u64::MAX));
        assert_eq!(TouchLimit::Bytes(5).bound(1 << 40, 1 << 40), Some(5));
        assert_eq!(TouchLimit::Unlimited.bound(1, 1), None);
        let t = |beyond| Touched {
            beyond_first_line: beyond,
            ..Default::default()
        };
        assert!(TouchLimit::Bytes(5).exceeded(&t(6)));
        assert!(!TouchLimit::Bytes(5).exceeded(&t(5)));
        assert!(!TouchLimit::Unlimited.exceeded(&t(u64::MAX)));
    }

    #[test]
    fn only_lines_beyond_the_first_of_each_access_count_against_the_bound() {
        let mut sink = Vec::new();
        let mut v = Touching::new(&mut sink);
        v.access(0, 0, 8); // one line
        v.access(0, 60, 8); // straddles: one beyond
        v.access(0, 0, 0); // empty: none
        v.access(0, 128, 1 << 16); // 1024 lines: 1023 beyond
        let mut t = Touched::default();
        v.add_to(&mut t);
        assert_eq!(t.accesses, 4);
        assert_eq!(t.total, (1 + 2 + 1 + 1024) * 64);
        assert_eq!(t.beyond_first_line, 1024 * 64);
        assert_eq!(sink.len(), 4);
    }

    #[test]
    fn human_bytes_reads_well() {
        assert_eq!(human_bytes(123), "123 B");
        assert_eq!(human_bytes(8 << 10), "8 KiB");
        assert_eq!(human_bytes(256 << 20), "256 MiB");
        assert_eq!(human_bytes(3 << 29), "1.5 GiB");
    }
}
