//! HP-RDA on the GPU: the paper's kernels as WGSL compute shaders run through `wgpu` (Vulkan).
//!
//! [`GpuHpRdaEngine`] is a [`ReuseEngine`](rdengines::ReuseEngine) that gives, for equal
//! [`HpRdaConfig`](rdengines::HpRdaConfig) parameters (ST, NB, adjustment), exactly the
//! histogram of the CPU engine [`rdengines::HpRdaEngine`].
//! Its batch size only bounds GPU memory (results do not depend on it, as on the CPU, because
//! batches are whole thread blocks); `threads` is the CPU pool size and is ignored here: the GPU
//! runs one invocation per thread-local trace.
//!
//! Division of work (see `docs/gpu.md`):
//!
//! * **Host, streaming:** run-length pre-processing (repeats are distance-0 reuses) and the
//!   mapping of 64-bit block addresses to dense 32-bit ids in first-touch order, chunk by chunk
//!   as references arrive. WGSL has 32-bit integers and atomics only; dense ids make every
//!   GPU hash key 32 bits and turn the persistent global table into an array indexed by id.
//!   Limit: fewer than 2^32 − 1 distinct blocks.
//! * **GPU, per batch** (`hprda.wgsl`): thread-level analysis (local arrays + per-trace hash
//!   tables), per-thread-block prefix counts, lock-free record insertion into per-thread-block
//!   hash tables, the thread-level formula (1) merge, and the thread-block-level formula (1)
//!   merge against the global table (64-bit positions as two u32 words).
//! * **Host, at the end:** formulas (2)–(3) over the distinct merged distances (one exact
//!   128-bit rational rounding each, [`rdengines::hprda::adjust_distance`], shared with the CPU
//!   engine so both round identically).

mod adapter;
mod context;
mod engine;
mod kernel;
#[cfg(test)]
mod tests;

pub use adapter::{list_adapters, AdapterSummary};
pub use context::GpuContext;
pub use engine::GpuHpRdaEngine;

/// Errors of the GPU back end.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan adapter at all (no driver, or `VK_ICD_FILENAMES` points nowhere).
    #[error("no GPU adapter found (Vulkan); install a driver — on Debian `mesa-vulkan-drivers` (lavapipe), which `scripts/setup.sh` installs")]
    NoAdapter,
    /// `--adapter NAME` matched nothing.
    #[error("no GPU adapter matches {wanted:?}; available: {available}")]
    AdapterNotFound {
        /// The requested name (substring, case-insensitive).
        wanted: String,
        /// Names of the adapters found.
        available: String,
    },
    /// The adapter refused to create a device.
    #[error("cannot open GPU device on {adapter}: {source}")]
    Device {
        /// Adapter name.
        adapter: String,
        /// The driver's reason.
        source: wgpu::RequestDeviceError,
    },
    /// ST × NB is too large for the adapter's buffer limits.
    #[error("ST × NB = {refs} references per thread block needs {bytes} bytes in one GPU buffer; the adapter allows {limit}")]
    TooLarge {
        /// References per thread block.
        refs: u64,
        /// Bytes needed by the largest buffer.
        bytes: u64,
        /// The adapter's limit.
        limit: u64,
    },
}
