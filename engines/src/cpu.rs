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

/// Runs a hot loop compiled for the best instruction set this CPU has: x86-64-v3 ([`has_v3`]),
/// else POPCNT ([`has_popcnt`]), else the baseline. The one dispatch mechanism of the hot loops.
///
/// `dispatch!((name: Type = value, ...) -> Ret { body })` defines the body once as an
/// `#[inline(always)]` function of the named parameters and instantiates it inside one
/// `#[target_feature]` function per level, so the whole loop is compiled for each level (a
/// closure would not do: LLVM keeps a closure called from three places out of line, compiled for
/// the baseline). It must be the tail of the calling function (it returns early for the
/// feature levels). Callers write no `unsafe`; the two `unsafe` calls are here. Exported as
/// `rdengines::dispatch!` (and reachable as `rdengines::cpu::dispatch!`) so that the models'
/// hot loops use the same mechanism.
#[macro_export]
macro_rules! dispatch {
    (($($arg:ident : $ty:ty = $val:expr),* $(,)?) -> $ret:ty $body:block) => {{
        #[inline(always)]
        fn body($($arg: $ty),*) -> $ret $body
        // The arguments are evaluated here, outside the `unsafe` blocks below, so that a
        // caller's expression never runs inside them.
        let args: ($($ty,)*) = ($($val,)*);
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
            fn v3(args: ($($ty,)*)) -> $ret {
                let ($($arg,)*) = args;
                body($($arg),*)
            }
            #[target_feature(enable = "popcnt")]
            fn popcnt(args: ($($ty,)*)) -> $ret {
                let ($($arg,)*) = args;
                body($($arg),*)
            }
            if $crate::cpu::has_v3() {
                // SAFETY: the CPU supports every x86-64-v3 feature `v3` is compiled for,
                // checked just above.
                return unsafe { v3(args) };
            }
            if $crate::cpu::has_popcnt() {
                // SAFETY: the CPU supports POPCNT, checked just above.
                return unsafe { popcnt(args) };
            }
        }
        let ($($arg,)*) = args;
        body($($arg),*)
    }};
}
pub use crate::dispatch;
