//! Run-time CPU feature detection for the hot loops.
//!
//! The engines' counting structures are popcount-heavy and sum 16-lane count lines. The
//! baseline x86-64 target has no POPCNT instruction (so `count_ones` compiles to a
//! dozen-instruction bit trick) and only SSE2 vectors. Instead of asking every user for
//! `-C target-cpu=native`, each hot loop is written once as an `#[inline(always)]` body and
//! instantiated up to three times: inside a `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,
//! popcnt")]` method (x86-64-v3, picked by [`has_v3`]; the masked count-line sums become two
//! AVX2 operations, worth about 25 % on the fast engine), a `#[target_feature(enable =
//! "popcnt")]` one ([`has_popcnt`]) and a plain one.

/// Whether the CPU executes POPCNT (std caches the CPUID query, so this is one load).
#[inline]
pub fn has_popcnt() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the CPU has the x86-64-v3 features the hot loops are also compiled for (AVX2, BMI1,
/// BMI2, LZCNT, POPCNT): the count levels' masked 16-lane sums then take two vector operations.
#[inline]
pub fn has_v3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
            && std::is_x86_feature_detected!("bmi1")
            && std::is_x86_feature_detected!("bmi2")
            && std::is_x86_feature_detected!("lzcnt")
            && std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Runs `body` compiled for the best instruction set this CPU has: x86-64-v3 ([`has_v3`]), else
/// POPCNT ([`has_popcnt`]), else the baseline. The one dispatch mechanism of the hot loops:
/// `body` is a closure around an `#[inline(always)]` loop, instantiated (and inlined) once per
/// feature level here, so callers write no `unsafe` and no per-level copies.
#[inline(always)]
pub fn dispatch<R>(body: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
        fn v3<R>(body: impl FnOnce() -> R) -> R {
            body()
        }
        #[target_feature(enable = "popcnt")]
        fn popcnt<R>(body: impl FnOnce() -> R) -> R {
            body()
        }
        if has_v3() {
            // SAFETY: the CPU supports every x86-64-v3 feature `v3` is compiled for, checked
            // just above.
            return unsafe { v3(body) };
        }
        if has_popcnt() {
            // SAFETY: the CPU supports POPCNT, checked just above.
            return unsafe { popcnt(body) };
        }
    }
    body()
}
