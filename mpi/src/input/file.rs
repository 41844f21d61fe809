//! Opening an input file on a rank (shared by the binary and text sources).

use std::fs::File;
use std::path::Path;

/// Opens `path` for a rank, naming the file in the error.
pub fn open_file(path: &Path) -> Result<(File, u64), String> {
    let f = File::open(path).map_err(|e| format!("opening {}: {e}", path.display()))?;
    let len = f
        .metadata()
        .map_err(|e| format!("reading the size of {}: {e}", path.display()))?
        .len();
    Ok((f, len))
}
