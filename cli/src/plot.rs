//! Minimal SVG charts (bar and line) written by hand: no plotting dependency, output that
//! opens in any browser and diffs as text.

use std::fmt::Write;

/// One named series of (x, y) points for a line chart.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points in drawing order.
    pub points: Vec<(f64, f64)>,
    /// Dashed line (e.g. for predictions next to measurements).
    pub dashed: bool,
}

const W: f64 = 760.0;
const H: f64 = 420.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 80.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
];

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn header(title: &str, x_label: &str, y_label: &str) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="{}" y="24" text-anchor="middle" font-size="15">{}</text>
<text x="{}" y="{}" text-anchor="middle">{}</text>
<text x="18" y="{}" text-anchor="middle" transform="rotate(-90 18 {})">{}</text>
<line x1="{LEFT}" y1="{}" x2="{}" y2="{}" stroke="black"/>
<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{}" stroke="black"/>
"#,
        W / 2.0,
        esc(title),
        LEFT + (W - LEFT - RIGHT) / 2.0,
        H - 12.0,
        esc(x_label),
        TOP + (H - TOP - BOTTOM) / 2.0,
        TOP + (H - TOP - BOTTOM) / 2.0,
        esc(y_label),
        H - BOTTOM,
        W - RIGHT,
        H - BOTTOM,
        H - BOTTOM,
    );
    s
}

fn nice_max(v: f64) -> f64 {
    if v <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(v.log10().floor());
    for m in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if v <= m * p {
            return m * p;
        }
    }
    10.0 * p
}

fn y_axis(s: &mut String, y_max: f64) {
    for i in 0..=5 {
        let v = y_max * i as f64 / 5.0;
        let y = H - BOTTOM - (H - TOP - BOTTOM) * i as f64 / 5.0;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#ddd"/><text x="{}" y="{}" text-anchor="end">{}</text>"##,
            LEFT,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0,
            fmt_tick(v)
        );
    }
}

fn fmt_tick(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e6 {
        format!("{:.1e}", v)
    } else if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        format!("{:.2}", v)
    }
}

/// A bar chart with one bar per label.
pub fn bar_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    labels: &[String],
    values: &[f64],
) -> String {
    let mut s = header(title, x_label, y_label);
    let y_max = nice_max(values.iter().cloned().fold(0.0, f64::max));
    y_axis(&mut s, y_max);
    let n = values.len().max(1) as f64;
    let slot = (W - LEFT - RIGHT) / n;
    for (i, (&v, label)) in values.iter().zip(labels).enumerate() {
        let h = (H - TOP - BOTTOM) * v / y_max;
        let x = LEFT + slot * i as f64 + slot * 0.1;
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="{}"><title>{}: {}</title></rect>"#,
            H - BOTTOM - h,
            slot * 0.8,
            COLORS[0],
            esc(label),
            v
        );
        let lx = x + slot * 0.4;
        let ly = H - BOTTOM + 12.0;
        let _ = writeln!(
            s,
            r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="end" transform="rotate(-45 {lx:.1} {ly:.1})" font-size="10">{}</text>"#,
            esc(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A line chart of several series over numeric x values.
pub fn line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
    y_max: Option<f64>,
) -> String {
    let mut s = header(title, x_label, y_label);
    let all = series.iter().flat_map(|s| s.points.iter());
    let (x_min, x_max) = all
        .clone()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| {
            (a.min(p.0), b.max(p.0))
        });
    let (x_min, x_max) = if x_min.is_finite() && x_max > x_min {
        (x_min, x_max)
    } else {
        (0.0, 1.0)
    };
    let y_max = y_max.unwrap_or_else(|| nice_max(all.map(|p| p.1).fold(0.0, f64::max)));
    y_axis(&mut s, y_max);
    let px = |x: f64| LEFT + (W - LEFT - RIGHT) * (x - x_min) / (x_max - x_min);
    let py = |y: f64| H - BOTTOM - (H - TOP - BOTTOM) * y / y_max;
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.0))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    if xs.len() <= 20 {
        for x in xs {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"#,
                px(x),
                H - BOTTOM + 16.0,
                fmt_tick(x)
            );
        }
    }
    for (i, ser) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<String> = ser
            .points
            .iter()
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        let dash = if ser.dashed {
            r#" stroke-dasharray="6 4""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"{dash}/>"#,
            pts.join(" ")
        );
        for &(x, y) in &ser.points {
            let _ = writeln!(
                s,
                r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{color}"><title>{}: ({}, {})</title></circle>"#,
                px(x),
                py(y),
                esc(&ser.name),
                x,
                y
            );
        }
        let ly = TOP + 16.0 * i as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{color}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            W - RIGHT - 170.0,
            W - RIGHT - 145.0,
            W - RIGHT - 140.0,
            ly + 4.0,
            esc(&ser.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Writes an SVG file, with context on failure.
pub fn write_svg(path: &std::path::Path, svg: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    std::fs::write(path, svg).with_context(|| format!("writing plot {}", path.display()))
}
