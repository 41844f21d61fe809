//! A self-contained HTML page: sections of tables, inline SVG plots (from [`crate::plot`]) and
//! definitions, with the stylesheet and script inlined so the file opens offline and never
//! touches the network. The script sorts tables, shows plot values on hover, and marks the
//! `<body>` with `data-report-status="rendered"` when it is done (errors go to `#js-errors`),
//! which the browser test checks.

use crate::output::Table;
use crate::terms::Term;
use std::fmt::Write;

const CSS: &str = include_str!("report.css");
const JS: &str = include_str!("report.js");

/// Escapes text for HTML element content and attribute values.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// A page under construction.
#[derive(Default)]
pub struct Page {
    title: String,
    subtitle: String,
    sections: Vec<(String, String, String)>,
}

impl Page {
    /// An empty page.
    pub fn new(title: &str, subtitle: &str) -> Page {
        Page {
            title: title.into(),
            subtitle: subtitle.into(),
            sections: Vec::new(),
        }
    }

    /// Appends a section with an `id` (anchor and test hook), a heading and HTML content.
    pub fn section(&mut self, id: &str, heading: &str, html: String) {
        self.sections.push((id.into(), heading.into(), html));
    }

    /// The whole document.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = write!(
            s,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
             <title>{}</title><style>{CSS}</style></head>\n\
             <body data-report-status=\"loading\"><header><h1>{}</h1><p>{}</p></header><nav>",
            esc(&self.title),
            esc(&self.title),
            esc(&self.subtitle)
        );
        for (id, heading, _) in &self.sections {
            let _ = write!(s, "<a href=\"#{}\">{}</a>", esc(id), esc(heading));
        }
        s.push_str("</nav><main><pre id=\"js-errors\"></pre>\n");
        for (id, heading, html) in &self.sections {
            let _ = write!(
                s,
                "<section id=\"{}\" data-section><h2>{}</h2>\n{html}\n</section>\n",
                esc(id),
                esc(heading)
            );
        }
        let _ = writeln!(
            s,
            "</main><div id=\"tooltip\"></div><script>{JS}</script></body></html>"
        );
        s
    }
}

/// Whether a cell holds a number (sorted numerically).
fn number(cell: &str) -> Option<f64> {
    let t = cell.trim().trim_end_matches('%');
    if t.is_empty() {
        return None;
    }
    t.parse::<f64>().ok()
}

/// A [`Table`] as an HTML table; `sortable` makes headers clickable. Numeric cells are
/// right-aligned and sort by value.
pub fn table(t: &Table, sortable: bool) -> String {
    let mut s = String::new();
    if let Some(title) = &t.title {
        let _ = write!(s, "<h3>{}</h3>", esc(title));
    }
    let _ = write!(
        s,
        "<div class=\"scroll\"><table{}><thead><tr>",
        if sortable { " class=\"sortable\"" } else { "" }
    );
    for h in &t.headers {
        let _ = write!(s, "<th>{}</th>", esc(h));
    }
    s.push_str("</tr></thead><tbody>");
    for r in &t.rows {
        s.push_str("<tr>");
        for c in r {
            match number(c) {
                Some(v) => {
                    let _ = write!(s, "<td class=\"num\" data-v=\"{v}\">{}</td>", esc(c));
                }
                None => {
                    let _ = write!(s, "<td>{}</td>", esc(c));
                }
            }
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table></div>\n");
    s
}

/// A definition list of terms.
pub fn terms(title: &str, ts: &[Term]) -> String {
    let mut s = format!("<h3>{}</h3><dl class=\"terms\">", esc(title));
    for (name, def) in ts {
        let _ = write!(s, "<dt>{}</dt><dd>{}</dd>", esc(name), esc(def));
    }
    s.push_str("</dl>\n");
    s
}

/// A short explanatory paragraph.
pub fn note(text: &str) -> String {
    format!("<p class=\"note\">{}</p>\n", esc(text))
}

/// Inline SVG plots side by side (`small`: narrower, for per-thread small multiples).
pub fn plots(svgs: &[String], small: bool) -> String {
    let mut s = format!("<div class=\"plots{}\">", if small { " small" } else { "" });
    for svg in svgs {
        // The plot module writes standalone files; drop nothing but keep them inline as is.
        s.push_str(svg);
    }
    s.push_str("</div>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_everywhere() {
        let mut t = Table::new(["a<b"]).titled("x & y");
        t.row(["<script>alert(1)</script>"]);
        let h = table(&t, true);
        assert!(!h.contains("<script>"));
        assert!(h.contains("&lt;script&gt;") && h.contains("x &amp; y") && h.contains("a&lt;b"));
        let mut p = Page::new("t\"", "s");
        p.section("id", "head<", note("n>"));
        let doc = p.render();
        assert!(doc.contains("head&lt;") && doc.contains("n&gt;") && doc.contains("t&quot;"));
        // Exactly one script: ours.
        assert_eq!(doc.matches("<script>").count(), 1);
        assert!(!doc.contains("https://") && !doc.contains(" src="));
    }

    #[test]
    fn numeric_cells_sort_by_value() {
        let mut t = Table::new(["n", "name"]);
        t.row(["12.50", "x"]);
        let h = table(&t, true);
        assert!(h.contains("<td class=\"num\" data-v=\"12.5\">12.50</td>"));
        assert!(h.contains("<td>x</td>"));
    }
}
