//! Plot rendering: log axes with readable ticks, one colour and marker per series, the legend in
//! its own column (plotters, bitmap backend, the embedded font).

use super::*;

const WIDTH: u32 = 960;
const HEIGHT: u32 = 560;
const LEGEND_WIDTH: u32 = 250;

/// A colour-blind-safe palette (Okabe–Ito), then a few more.
const COLORS: [RGBColor; 9] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(40, 40, 40),
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(150, 150, 150),
    RGBColor(120, 60, 20),
];

/// Registers the embedded font once.
fn ensure_font() -> ReportResult<()> {
    static ONCE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *ONCE.get_or_init(|| register_font(FONT_NAME, FontStyle::Normal, FONT).is_ok()) {
        Ok(())
    } else {
        Err("the embedded font could not be parsed".into())
    }
}

/// Axis range in mapped units, padded, and its bold and light key points.
struct AxisSpec {
    lo: f64,
    hi: f64,
    bold: Vec<f64>,
    light: Vec<f64>,
}

fn axis_spec(scale: Scale, values: &[f64], widen: bool) -> AxisSpec {
    let (mut lo, mut hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() || !hi.is_finite() {
        lo = 0.0;
        hi = 1.0;
    }
    if hi - lo < 1e-9 {
        lo -= 0.5;
        hi += 0.5;
    }
    match scale {
        Scale::Time | Scale::Bytes => {
            // The data padded by a tenth of a decade (or more for a flat series); ticks at the
            // decades inside, and at 2 and 5 times them when fewer than three decades show; light
            // grid lines at 2..9 times each decade.
            let pad = ((hi - lo) * 0.06).max(0.1);
            let (lo, hi) = (lo - pad, hi + pad);
            let decades: Vec<i32> = (lo.floor() as i32..=hi.ceil() as i32).collect();
            let mults: &[f64] = if hi.floor() - lo.ceil() < 2.0 {
                &[1.0, 2.0, 5.0]
            } else {
                &[1.0]
            };
            let inside = |v: &f64| *v >= lo && *v <= hi;
            let bold: Vec<f64> = decades
                .iter()
                .flat_map(|&d| mults.iter().map(move |m| f64::from(d) + m.log10()))
                .filter(inside)
                .collect();
            let light = decades
                .iter()
                .flat_map(|&d| (2..10).map(move |m| f64::from(d) + f64::from(m).log10()))
                .filter(inside)
                .collect();
            AxisSpec {
                lo,
                hi,
                bold,
                light,
            }
        }
        Scale::Log2Power | Scale::Log2Plain => {
            let pad = ((hi - lo) * 0.06).max(0.25);
            let (lo, hi) = (lo - pad, hi + pad);
            let bold: Vec<f64> = (lo.ceil() as i32..=hi.floor() as i32)
                .map(f64::from)
                .collect();
            AxisSpec {
                lo,
                hi,
                bold,
                light: Vec::new(),
            }
        }
        Scale::Linear => {
            // Ticks every 1, 2, 5, 10, ... (at least 1: the x values are counts); a y range is widened
            // to whole steps, an x range only padded.
            let span = hi - lo;
            let step = nice_step(span / 10.0).max(1.0);
            let pad = (span * 0.04).max(0.3);
            let (lo, hi) = if widen {
                (
                    ((lo - pad) / step).floor() * step,
                    ((hi + pad) / step).ceil() * step,
                )
            } else {
                (lo - pad, hi + pad)
            };
            let bold = ((lo / step).ceil() as i64..=(hi / step).floor() as i64)
                .map(|i| i as f64 * step)
                .collect();
            AxisSpec {
                lo,
                hi,
                bold,
                light: Vec::new(),
            }
        }
    }
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let p = 10f64.powf(raw.max(1e-12).log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * p)
}

pub(super) fn superscript(n: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let mut s = String::new();
    if n < 0 {
        s.push('⁻');
    }
    for c in n.unsigned_abs().to_string().chars() {
        s.push(c.to_digit(10).map_or(c, |d| DIGITS[d as usize]));
    }
    s
}

pub(super) fn tick_label(scale: Scale, v: f64) -> String {
    match scale {
        Scale::Time => human(10f64.powf(v))
            .replace(".000 ", " ")
            .replace(".0 ", " "),
        Scale::Bytes => {
            let b = 10f64.powf(v).round();
            match b {
                b if b >= 1e6 => format!("{} MB", b / 1e6),
                b if b >= 1e3 => format!("{} kB", b / 1e3),
                b => format!("{b} B"),
            }
        }
        Scale::Log2Power => format!("2{}", superscript(v.round() as i32)),
        Scale::Log2Plain => format!("{}", 2f64.powf(v).round()),
        Scale::Linear => {
            if (v - v.round()).abs() < 1e-9 {
                format!("{}", v.round())
            } else {
                format!("{v:.1}")
            }
        }
    }
}

/// A linear axis over mapped values whose ticks are exactly `bold` (grid lines also at `light`).
impl Ranged for AxisSpec {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let f = (v - self.lo) / (self.hi - self.lo);
        limit.0 + (f * f64::from(limit.1 - limit.0)).round() as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.light.clone()
        } else {
            self.bold.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Renders a plot to a PNG: the chart on the left, the legend in its own column on the right so that
/// it never covers data.
pub fn render(p: &Plot, path: &Path) -> ReportResult<()> {
    ensure_font()?;
    let series: Vec<&Series> = p.series.iter().filter(|s| !s.points.is_empty()).collect();
    let xs: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|pt| p.x_scale.map(pt.0)))
        .collect();
    let ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.points.iter().map(|pt| p.y_scale.map(pt.1)))
        .filter(|v| v.is_finite())
        .collect();
    let xspec = axis_spec(p.x_scale, &xs, false);
    let yspec = axis_spec(p.y_scale, &ys, true);

    let root = BitMapBackend::new(path, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let (left, right) = root.split_horizontally(WIDTH - LEGEND_WIDTH);
    let (x_scale, y_scale) = (p.x_scale, p.y_scale);
    let mut chart = ChartBuilder::on(&left)
        .caption(&p.title, (FONT_NAME, 20))
        .margin(14)
        .x_label_area_size(52)
        .y_label_area_size(84)
        .build_cartesian_2d(xspec, yspec)?;
    chart
        .configure_mesh()
        .x_desc(p.x_label.as_str())
        .y_desc(p.y_label.as_str())
        .axis_desc_style((FONT_NAME, 16))
        .label_style((FONT_NAME, 14))
        .x_label_formatter(&|v| tick_label(x_scale, *v))
        .y_label_formatter(&|v| tick_label(y_scale, *v))
        .bold_line_style(RGBColor(200, 200, 200).stroke_width(1))
        .light_line_style(RGBColor(236, 236, 236).stroke_width(1))
        .draw()?;
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let pts: Vec<(f64, f64)> = s
            .points
            .iter()
            .map(|&(x, y)| (p.x_scale.map(x), p.y_scale.map(y)))
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        match s.style {
            Style::Measured => {
                chart.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))?;
            }
            Style::Reference => {
                chart.draw_series(DashedLineSeries::new(
                    pts.clone(),
                    8,
                    5,
                    color.stroke_width(2),
                ))?;
            }
        }
        // One marker shape per series index, repeated in the legend.
        let style = color.filled();
        match i % 4 {
            0 => {
                chart.draw_series(pts.iter().map(|&pt| Circle::new(pt, 4, style)))?;
            }
            1 => {
                chart.draw_series(pts.iter().map(|&pt| TriangleMarker::new(pt, 5, style)))?;
            }
            2 => {
                chart.draw_series(
                    pts.iter().map(|&pt| {
                        EmptyElement::at(pt) + Rectangle::new([(-4, -4), (4, 4)], style)
                    }),
                )?;
            }
            _ => {
                chart.draw_series(
                    pts.iter()
                        .map(|&pt| Cross::new(pt, 4, color.stroke_width(2))),
                )?;
            }
        }
    }
    // Legend column.
    let font = (FONT_NAME, 14).into_font();
    let mut y = 56;
    for (i, s) in series.iter().enumerate() {
        let color = COLORS[i % COLORS.len()];
        let (x0, x1) = (8, 44);
        let style = color.stroke_width(2);
        match s.style {
            Style::Measured => {
                right.draw(&PathElement::new(vec![(x0, y), (x1, y)], style))?;
            }
            Style::Reference => {
                right.draw(&PathElement::new(vec![(x0, y), (x0 + 12, y)], style))?;
                right.draw(&PathElement::new(vec![(x1 - 12, y), (x1, y)], style))?;
            }
        }
        let m = (x0 + x1) / 2;
        let ms = color.filled();
        match i % 4 {
            0 => right.draw(&Circle::new((m, y), 4, ms))?,
            1 => right.draw(&TriangleMarker::new((m, y), 5, ms))?,
            2 => right.draw(&Rectangle::new([(m - 4, y - 4), (m + 4, y + 4)], ms))?,
            _ => right.draw(&Cross::new((m, y), 4, color.stroke_width(2)))?,
        }
        // Long labels wrap onto a second line.
        let lines = wrap(&s.label, 26);
        for (j, line) in lines.iter().enumerate() {
            right.draw(&Text::new(
                line.clone(),
                (x1 + 8, y - 8 + 17 * j as i32),
                font.clone(),
            ))?;
        }
        y += 17 * lines.len() as i32 + 10;
    }
    root.present()?;
    Ok(())
}

/// Splits a label into lines of at most about `width` characters at spaces.
fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in s.split(' ') {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}
