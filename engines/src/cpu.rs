//! Run-time CPU feature detection for the hot loops.
//!
//! The engines' counting structures are popcount-heavy. The baseline x86-64 target has no
//! POPCNT instruction, so `count_ones` compiles to a dozen-instruction bit trick. Instead of
//! asking every user for `-C target-cpu=native`, each hot loop is written once as an
//! `#[inline(always)]` body and instantiated twice: inside a
//! `#[target_feature(enable = "popcnt")]` method and in a plain one; [`has_popcnt`] picks the
//! copy at run time.

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
