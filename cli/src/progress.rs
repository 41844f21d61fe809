//! Progress bars for long work, drawn on stderr only when it is a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;

/// Where every bar is drawn once [`side_by_side`] was called.
static SHARED: OnceLock<indicatif::MultiProgress> = OnceLock::new();

/// From now on every bar is drawn with the others (`live` runs several analyses at once, each
/// with its own bars), rather than each redrawing the same terminal line.
pub fn side_by_side() {
    SHARED.get_or_init(indicatif::MultiProgress::new);
}

/// A bar counting `total` units (events, references) with a label; hidden when `quiet` or when
/// stderr is not a terminal, so pipes and CI logs stay clean.
pub fn bar(total: u64, label: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(total);
    pb.set_style(
        ProgressStyle::with_template(
            "{msg:>12} [{bar:40}] {percent:>3}% {human_pos}/{human_len} ({per_sec}, eta {eta})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    pb.set_message(label.to_string());
    match SHARED.get() {
        Some(bars) => bars.add(pb),
        None => pb,
    }
}

/// A [`bar`] drawn with the others of `bars` (for work that runs side by side), or hidden
/// like [`bar`].
pub fn bar_in(
    bars: &indicatif::MultiProgress,
    total: u64,
    label: &str,
    quiet: bool,
) -> ProgressBar {
    let pb = bar(total, label, quiet);
    // Already drawn with every other bar (see `side_by_side`).
    if pb.is_hidden() || SHARED.get().is_some() {
        pb
    } else {
        bars.add(pb)
    }
}
