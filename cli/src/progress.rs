//! Progress bars for long work, drawn on stderr only when it is a terminal.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;

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
    pb
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
    if pb.is_hidden() {
        pb
    } else {
        bars.add(pb)
    }
}
