//! PARDA's text input format, one hexadecimal address per line: the one parser of a line, used
//! by `rda-report histogram` reading a whole file and by `rdmpi`'s ranks reading their slices.

/// One line of a PARDA text file: `None` for a blank line or a `#` comment, else the
/// hexadecimal address (with or without `0x`).
pub fn parse_parda_line(s: &str) -> Option<Result<u64, std::num::ParseIntError>> {
    let s = s.trim();
    if s.is_empty() || s.starts_with('#') {
        return None;
    }
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    Some(u64::from_str_radix(hex, 16))
}
