//! Output plumbing shared by every subcommand: analyses hand over plain data, and this module
//! renders it as an aligned text table, CSV or JSON. Every number a command prints is also in
//! its JSON.

use anyhow::{Context, Result};
use serde::Serialize;
use std::io::Write;

/// How a command prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Aligned tables for people.
    Table,
    /// One JSON document.
    Json,
    /// CSV, one block per table separated by a blank line.
    Csv,
}

/// Output flags common to all commands.
#[derive(clap::Args, Debug, Clone)]
pub struct OutputArgs {
    /// Print JSON instead of tables.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of tables.
    #[arg(long)]
    pub csv: bool,
    /// Hide progress bars.
    #[arg(long, short)]
    pub quiet: bool,
    /// Write the tables, CSV or JSON to FILE instead of standard output (under `mpirun`, rank
    /// 0 writes it directly instead of sending it through mpirun's output forwarding).
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
}

impl OutputArgs {
    /// Prints a command's result in the chosen format (`json` for `--json`, the tables
    /// otherwise) to `--output`'s file or standard output ([`OutputArgs::sink`]).
    pub fn emit(&self, json: &impl Serialize, tables: &[Table]) -> Result<()> {
        let r = write_result(self.sink()?, self.format(), json, tables);
        match &self.output {
            Some(p) => r.with_context(|| format!("writing {}", p.display())),
            None => r,
        }
    }

    /// Checks `--output` before any work, so a long analysis does not end on a path it cannot
    /// write: its directory must exist and the path must not be a directory (a usage error,
    /// exit status 2). Whether the file can then be created is found when it is written (1).
    pub fn check_destination(&self) -> Result<()> {
        let Some(p) = &self.output else {
            return Ok(());
        };
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => std::path::Path::new("."),
        };
        if !dir.is_dir() {
            return Err(crate::exit::usage(format!(
                "--output {}: directory {} does not exist",
                p.display(),
                dir.display()
            )));
        }
        if p.is_dir() {
            return Err(crate::exit::usage(format!(
                "--output {} is a directory",
                p.display()
            )));
        }
        Ok(())
    }

    /// [`OutputArgs::check_destination`], and that `--output` can be written now
    /// ([`check_writable`]): for a command that starts something costly to repeat (`live` runs
    /// the program) before it writes.
    pub fn check_writable_now(&self) -> Result<()> {
        self.check_destination()?;
        match &self.output {
            Some(p) => check_writable("--output", p),
            None => Ok(()),
        }
    }

    /// Where a command that writes as it goes (`dump`) writes: `--output`'s file, created or
    /// truncated, or standard output.
    pub fn sink(&self) -> Result<Box<dyn Write>> {
        Ok(match &self.output {
            None => stdout(),
            Some(p) => Box::new(
                std::fs::File::create(p).with_context(|| format!("creating {}", p.display()))?,
            ),
        })
    }

    /// The chosen format.
    pub fn format(&self) -> Format {
        if self.json {
            Format::Json
        } else if self.csv {
            Format::Csv
        } else {
            Format::Table
        }
    }
}

std::thread_local! {
    /// The report this thread prints, held back (see [`capture_stdout`]).
    static CAPTURED: std::cell::RefCell<Option<Vec<u8>>> = const { std::cell::RefCell::new(None) };
}

/// Where a report printed on this thread goes: standard output, or the buffer that
/// [`capture_stdout`] started on this thread. Every command prints its report through this.
pub fn stdout() -> Box<dyn Write> {
    if CAPTURED.with(|c| c.borrow().is_some()) {
        Box::new(Captured)
    } else {
        Box::new(std::io::stdout().lock())
    }
}

/// Holds back what this thread's commands print through [`stdout`] until
/// [`take_captured_stdout`]: `live` runs several analyses side by side while the program
/// runs, and prints their reports after the program's output, one after the other.
pub fn capture_stdout() {
    CAPTURED.with(|c| *c.borrow_mut() = Some(Vec::new()));
}

/// Ends this thread's capture and returns what was printed since [`capture_stdout`].
pub fn take_captured_stdout() -> Vec<u8> {
    CAPTURED.with(|c| c.borrow_mut().take().unwrap_or_default())
}

/// The writer [`stdout`] hands out while this thread captures.
struct Captured;

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURED.with(|c| match c.borrow_mut().as_mut() {
            Some(buf) => {
                buf.extend_from_slice(bytes);
                Ok(bytes.len())
            }
            // The capture ended while a writer was still out: what it prints goes out.
            None => std::io::stdout().lock().write(bytes),
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Checks that the file `path`, given as `flag`, can be written, before any work: its
/// directory exists and it is not a directory; an existing file is opened for appending (and
/// left as it is), a new one is created and removed again, so the check also finds a directory
/// that cannot be written (permissions, a read-only file system). A usage error (exit status 2)
/// naming the flag otherwise.
pub fn check_writable(flag: &str, path: &std::path::Path) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let fail = |what: String| {
        Err(crate::exit::usage(format!(
            "{flag} {}: {what}",
            path.display()
        )))
    };
    if !dir.is_dir() {
        return fail(format!("directory {} does not exist", dir.display()));
    }
    if path.is_dir() {
        return fail("is a directory".into());
    }
    let opened = if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map(drop)
    } else {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .and_then(|f| {
                drop(f);
                std::fs::remove_file(path)
            })
    };
    match opened {
        Ok(()) => Ok(()),
        Err(e) => fail(format!("cannot be written in {}: {e}", dir.display())),
    }
}

/// A titled table of strings; numbers are formatted by the caller.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Printed above the table (not in CSV).
    pub title: Option<String>,
    /// Column names.
    pub headers: Vec<String>,
    /// Rows, each as long as `headers`.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names.
    pub fn new<S: Into<String>>(headers: impl IntoIterator<Item = S>) -> Table {
        Table {
            title: None,
            headers: headers.into_iter().map(Into::into).collect(),
            rows: Vec::new(),
        }
    }

    /// Sets the title.
    pub fn titled(mut self, title: impl Into<String>) -> Table {
        self.title = Some(title.into());
        self
    }

    /// Appends a row.
    pub fn row<S: ToString>(&mut self, cells: impl IntoIterator<Item = S>) {
        self.rows
            .push(cells.into_iter().map(|c| c.to_string()).collect());
    }

    /// Renders with columns padded; numeric-looking cells are right-aligned.
    pub fn render_text(&self) -> String {
        let mut width = vec![0usize; self.headers.len()];
        for r in std::iter::once(&self.headers).chain(&self.rows) {
            widen(&mut width, r);
        }
        let mut out = String::new();
        if let Some(t) = &self.title {
            out.push_str(t);
            out.push('\n');
        }
        text_head(&self.headers, &width, &mut out);
        for r in &self.rows {
            text_line(r, &width, &mut out);
        }
        out
    }

    /// Renders as CSV (RFC 4180 quoting).
    pub fn render_csv(&self) -> String {
        let mut out = String::new();
        for r in std::iter::once(&self.headers).chain(&self.rows) {
            csv_line(r, &mut out);
        }
        out
    }
}

/// Grows `width` (one entry per column) to fit `cells` (a text table's column widths are the
/// widest cell of each column, header included).
pub fn widen<S: AsRef<str>>(width: &mut [usize], cells: &[S]) {
    for (w, c) in width.iter_mut().zip(cells) {
        *w = (*w).max(c.as_ref().chars().count());
    }
}

/// Appends `n` blanks.
fn pad(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// Appends one row of a text table with columns `width` wide, as [`Table::render_text`] prints
/// it (numeric-looking cells right-aligned, trailing blanks trimmed). Allocates nothing beyond
/// `out`'s growth (`dump` prints millions of rows through it).
pub fn text_line<S: AsRef<str>>(cells: &[S], width: &[usize], out: &mut String) {
    let numeric = |s: &str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_digit() || ".-+%eE,∞".contains(c))
    };
    let start = out.len();
    for (i, c) in cells.iter().enumerate().take(width.len()) {
        let c = c.as_ref();
        if i > 0 {
            out.push_str("  ");
        }
        let blanks = width[i] - c.chars().count();
        if numeric(c) {
            pad(out, blanks);
            out.push_str(c);
        } else {
            out.push_str(c);
            pad(out, blanks);
        }
    }
    let kept = start + out[start..].trim_end().len();
    out.truncate(kept);
    out.push('\n');
}

/// Appends a text table's header line and the rule under it.
pub fn text_head<S: AsRef<str>>(headers: &[S], width: &[usize], out: &mut String) {
    text_line(headers, width, out);
    let rule: Vec<String> = width.iter().map(|w| "-".repeat(*w)).collect();
    text_line(&rule, width, out);
}

/// Appends one CSV line (RFC 4180 quoting), as [`Table::render_csv`] prints it. Allocates
/// nothing beyond `out`'s growth.
pub fn csv_line<S: AsRef<str>>(cells: &[S], out: &mut String) {
    for (i, c) in cells.iter().enumerate() {
        let c = c.as_ref();
        if i > 0 {
            out.push(',');
        }
        // A byte scan: `str::contains` with a char-array pattern costs several times more.
        if c.bytes().any(|b| matches!(b, b',' | b'"' | b'\n')) {
            out.push('"');
            for part in c.split('"').enumerate() {
                if part.0 > 0 {
                    out.push_str("\"\"");
                }
                out.push_str(part.1);
            }
            out.push('"');
        } else {
            out.push_str(c);
        }
    }
    out.push('\n');
}

/// Writes a command's result to `sink` (buffered), as [`OutputArgs::emit`] describes.
fn write_result(
    sink: impl Write,
    format: Format,
    json: &impl Serialize,
    tables: &[Table],
) -> Result<()> {
    // Buffered: stdout is line-buffered, and pretty JSON has a line per number (a histogram
    // of 10^6 distances was millions of write calls).
    let mut out = std::io::BufWriter::with_capacity(1 << 16, sink);
    let r = match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut out, json).context("writing JSON")?;
            writeln!(out)
        }
        Format::Csv => {
            let mut r = Ok(());
            for (i, t) in tables.iter().enumerate() {
                if i > 0 {
                    r = r.and(writeln!(out));
                }
                r = r.and(out.write_all(t.render_csv().as_bytes()));
            }
            r
        }
        Format::Table => {
            let mut r = Ok(());
            for (i, t) in tables.iter().enumerate() {
                if i > 0 {
                    r = r.and(writeln!(out));
                }
                r = r.and(out.write_all(t.render_text().as_bytes()));
            }
            r
        }
    };
    let r = r.and_then(|()| out.flush());
    match r {
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing output"),
    }
}

/// Formats a fraction as a percentage with two decimals.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "0.00".into()
    } else {
        format!("{:.2}", 100.0 * part as f64 / whole as f64)
    }
}
