//! libomp loop schedules: the `sched_type` constant a worksharing init call passes (kmp.h
//! `enum sched_type`), as recorded in `WorkshareMeta::schedule` and `Event::WorkshareInit`.

/// A libomp `sched_type` value, modifier bits included (the raw value the program passed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Schedule(pub i32);

impl Schedule {
    /// `kmp_sch_static_chunked`: `schedule(static, chunk)`.
    pub const STATIC_CHUNKED: Schedule = Schedule(33);
    /// `kmp_sch_static`: `schedule(static)` without a chunk (unchunked).
    pub const STATIC: Schedule = Schedule(34);
    /// `kmp_sch_dynamic_chunked`: `schedule(dynamic[, chunk])`.
    pub const DYNAMIC_CHUNKED: Schedule = Schedule(35);
    /// `kmp_sch_guided_chunked`: `schedule(guided[, chunk])`.
    pub const GUIDED_CHUNKED: Schedule = Schedule(36);
    /// `kmp_sch_modifier_monotonic` bit.
    pub const MONOTONIC: i32 = 1 << 29;
    /// `kmp_sch_modifier_nonmonotonic` bit (clang sets it for dynamic schedules, OpenMP 5).
    pub const NONMONOTONIC: i32 = 1 << 30;

    /// The schedule without its monotonic / nonmonotonic modifier bits.
    pub const fn base(self) -> Schedule {
        Schedule(self.0 & !(Self::MONOTONIC | Self::NONMONOTONIC))
    }

    /// The schedule with the nonmonotonic modifier bit set.
    pub const fn nonmonotonic(self) -> Schedule {
        Schedule(self.0 | Self::NONMONOTONIC)
    }

    /// Whether this is an unchunked static schedule (`schedule(static)`).
    pub const fn is_static_unchunked(self) -> bool {
        self.base().0 == Self::STATIC.0
    }

    /// Whether this is a chunked static schedule (`schedule(static, chunk)`).
    pub const fn is_static_chunked(self) -> bool {
        self.base().0 == Self::STATIC_CHUNKED.0
    }
}

impl From<i32> for Schedule {
    fn from(raw: i32) -> Schedule {
        Schedule(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_do_not_change_the_base() {
        let s = Schedule::DYNAMIC_CHUNKED.nonmonotonic();
        assert_eq!(s.0, 35 | (1 << 30));
        assert_eq!(s.base(), Schedule::DYNAMIC_CHUNKED);
        assert!(Schedule(34 | Schedule::MONOTONIC).is_static_unchunked());
        assert!(Schedule::STATIC_CHUNKED.is_static_chunked());
        assert!(!Schedule::STATIC.is_static_chunked());
    }
}
