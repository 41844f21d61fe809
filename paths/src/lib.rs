//! Path-based reuse-distance analysis: which execution paths lead to which locality patterns of
//! a memory instruction, and how those patterns move with the input size.
//!
//! Follows "Path-Based Reuse Distance Analysis" (Fang, Carr, Önder, Wang; CC 2006), by section:
//!
//! * [`history`]: the per-thread branch-history stack with loop squashing (Section 3.2);
//! * exact cache-line reuse distance of every single reference: [`rdengines::LastLineStack`];
//! * [`bins`] and [`patterns`]: log/1K bins and locality patterns by bin merging (Section 3.1);
//! * [`profile`]: the trace visitor charging each distance to (instruction, path);
//! * [`analysis`]: multiple patterns, differentiability by n-bit paths, history aliasing,
//!   short/long mixing (Section 4.2), over each instruction's records keyed once for every
//!   history length (`keys`);
//! * [`mod@predict`]: curve fitting across inputs, coverage and accuracy (Sections 3.3, 4.3).
//!
//! Analyses return plain data (serialisable); printing is the CLI's job.
//!
//! Architecture invariant: this crate depends on the trace format only; it does no printing and
//! knows nothing of LLVM or of the CLI.

pub mod analysis;
pub mod bins;
pub mod error;
pub mod history;
mod keys;
pub mod patterns;
pub mod predict;
pub mod profile;
mod recent;
mod reuse;

pub use analysis::{analyse, group_by_history, PathKey, PathReport};
pub use error::{PathsError, Result};
pub use history::{BranchHistory, SquashPeriod};
pub use patterns::{form_patterns, Pattern, PatternConfig};
pub use predict::{predict, PredictConfig, PredictionReport, SizedProfile};
pub use profile::{profile_trace, PathCollector, PathConfig, PathProfile};
