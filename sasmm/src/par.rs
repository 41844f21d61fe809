//! The one way the models run independent jobs (one per core count) at once: on the
//! workspace's thread pool (rayon).

/// Runs `f` on every item on the workspace's thread pool (rayon); results come back in input
/// order.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync + Send) -> Vec<R> {
    use rayon::prelude::*;
    items.par_iter().map(f).collect()
}
