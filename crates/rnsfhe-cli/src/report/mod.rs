//! `rnsfhe bench --out DIR`: everything a run prints (headings, notes, tables) is also collected here,
//! with named data series; at the end `DIR/report.md` is written with a header naming the machine,
//! and one PNG per plot in the style of the papers' figures (time on a log scale, one line per method),
//! linked from the report where the suite produced it.

mod render;

pub use render::render;
#[cfg(test)]
use render::{superscript, tick_label};

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint, Ranged};
use plotters::prelude::*;
use plotters::style::{register_font, FontStyle};

use rnsfhe_math::arith::{ntt_primes, Modulus};
use rnsfhe_math::ntt::NttTable;

use crate::table::Table;
use crate::timing::human;

/// DejaVu Sans reduced to Latin, Greek and a few signs (license in assets/LICENSE-DejaVu.txt): the
/// bitmap backend draws text with ab_glyph from this, with no system font library.
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans-subset.ttf");
const FONT_NAME: &str = "sans-serif";

pub type ReportResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

/// How an axis maps its values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Linear, integer ticks (depth, levels).
    Linear,
    /// log2, ticks at powers of two labelled 2^k (ring degrees, m).
    Log2Power,
    /// log2, ticks at powers of two labelled as plain numbers (c, k).
    Log2Plain,
    /// log10 of seconds, ticks at decades labelled with a time unit.
    Time,
    /// log10 of bytes, ticks at decades labelled B, kB, MB.
    Bytes,
}

impl Scale {
    fn map(self, v: f64) -> f64 {
        match self {
            Scale::Linear => v,
            Scale::Log2Power | Scale::Log2Plain => v.log2(),
            Scale::Time | Scale::Bytes => v.log10(),
        }
    }
}

/// How a series is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// A measured series: solid line with markers.
    Measured,
    /// A reference (a paper's figure, a bound, a limit): dashed line with markers.
    Reference,
}

/// One line of a plot.
#[derive(Clone, Debug)]
pub struct Series {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub style: Style,
}

impl Series {
    pub fn new(label: impl Into<String>) -> Self {
        Series {
            label: label.into(),
            points: Vec::new(),
            style: Style::Measured,
        }
    }

    pub fn reference(label: impl Into<String>) -> Self {
        Series {
            style: Style::Reference,
            ..Series::new(label)
        }
    }

    pub fn push(&mut self, x: f64, y: f64) {
        self.points.push((x, y));
    }
}

/// A figure: a file name (without extension), a title, the axes and the series.
#[derive(Clone, Debug)]
pub struct Plot {
    pub name: String,
    pub title: String,
    pub x_label: String,
    pub x_scale: Scale,
    pub y_label: String,
    pub y_scale: Scale,
    pub series: Vec<Series>,
    /// One line under the image in the report: the parameters of the figure.
    pub caption: String,
}

impl Plot {
    /// A plot of times (log y) against `x_scale`.
    pub fn time(name: &str, title: &str, x_label: &str, x_scale: Scale, caption: &str) -> Self {
        Plot {
            name: name.into(),
            title: title.into(),
            x_label: x_label.into(),
            x_scale,
            y_label: "time (log scale)".into(),
            y_scale: Scale::Time,
            series: Vec::new(),
            caption: caption.into(),
        }
    }

    /// Adds a series (kept even when empty: `render` skips empty ones).
    pub fn add(&mut self, s: Series) {
        self.series.push(s);
    }

    /// The series with this label, created (measured style) if missing.
    pub fn series_mut(&mut self, label: &str) -> &mut Series {
        let i = match self.series.iter().position(|s| s.label == label) {
            Some(i) => i,
            None => {
                self.series.push(Series::new(label));
                self.series.len() - 1
            }
        };
        &mut self.series[i]
    }
}

/// Collects a run: prints as it goes (stdout stays as before) and, when writing, keeps the markdown.
pub struct Report {
    collect: bool,
    body: String,
    plots: Vec<Plot>,
}

impl Report {
    /// A report that only prints (the demo, `bench` without an output directory).
    pub fn stdout_only() -> Self {
        Report {
            collect: false,
            body: String::new(),
            plots: Vec::new(),
        }
    }

    /// A report that prints and keeps everything for `write`.
    pub fn collecting() -> Self {
        Report {
            collect: true,
            ..Report::stdout_only()
        }
    }

    /// A line of markdown (heading, note): printed, and kept followed by a blank line.
    pub fn text(&mut self, s: &str) {
        println!("{s}");
        if self.collect {
            self.body.push_str(s.trim_matches('\n'));
            self.body.push_str("\n\n");
        }
    }

    /// A table: printed, and kept.
    pub fn table(&mut self, t: &Table) {
        let md = t.markdown();
        println!("{md}");
        if self.collect {
            self.body.push_str(&md);
            self.body.push('\n');
        }
    }

    /// A figure, linked here in the report (nothing on stdout).
    pub fn plot(&mut self, p: Plot) {
        if !self.collect || p.series.iter().all(|s| s.points.is_empty()) {
            return;
        }
        let _ = write!(
            self.body,
            "![{}]({}.png)\n\n*{}*\n\n",
            p.title, p.name, p.caption
        );
        self.plots.push(p);
    }

    /// Writes `dir/report.md` (header, then everything in order) and one PNG per plot; returns the
    /// report's path.
    pub fn write(&self, dir: &Path, command: &str) -> ReportResult<PathBuf> {
        std::fs::create_dir_all(dir)?;
        for p in &self.plots {
            render(p, &dir.join(format!("{}.png", p.name)))?;
        }
        let path = dir.join("report.md");
        std::fs::write(&path, format!("{}{}", header(command), self.body))?;
        Ok(path)
    }
}

/// "k x b" runs of equal bit widths, e.g. "60 + 10 x 40": the shape of a list of moduli.
pub fn moduli_shape(moduli: &[u64]) -> String {
    let mut runs: Vec<(usize, u32)> = Vec::new();
    for &q in moduli {
        let b = 64 - q.leading_zeros();
        match runs.last_mut() {
            Some((k, bits)) if *bits == b => *k += 1,
            _ => runs.push((1, b)),
        }
    }
    runs.iter()
        .map(|&(k, b)| {
            if k == 1 {
                format!("{b}")
            } else {
                format!("{k} x {b}")
            }
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// The CPU model ("model name" of /proc/cpuinfo), else the architecture.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The NTT kernel the library selects on this CPU for a 49-bit and a 61-bit prime (n = 2^12), as
/// "scalar (49-bit q), scalar (61-bit q)"; "unknown" where the table cannot be built.
pub fn selected_backends() -> String {
    [49u32, 61]
        .iter()
        .map(|&bits| {
            let name = ntt_primes(bits, 1 << 13, 1, &[])
                .ok()
                .and_then(|p| p.first().copied())
                .and_then(|q| Modulus::new(q).ok())
                .and_then(|q| NttTable::new(q, 1 << 12).ok())
                .map_or("unknown", |t| t.backend().name());
            format!("{name} ({bits}-bit q)")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The line every `rnsfhe bench` run starts with: which CPU, which SIMD backend and how many threads
/// per operation produced its figures.
pub fn machine_line(threads: usize) -> String {
    let threads = match threads {
        1 => "one thread".to_string(),
        n => format!("{n} threads"),
    };
    format!(
        "Figures of this run: CPU {}, NTT backend {}, {threads}.",
        cpu_model(),
        selected_backends()
    )
}

/// The report's header: command, date, machine, CPU and features, NTT backend, threads.
fn header(command: &str) -> String {
    let cpu = cpu_model();
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown".into());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let commit = std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .map_or(String::new(), |c| format!(" (work tree at git {c})"));
    format!(
        "# rnsfhe benchmark report\n\n\
         | | |\n|---|---|\n\
         | command | `{command}` |\n\
         | date | {} |\n\
         | version | rnsfhe-cli {}{commit}, {} build |\n\
         | machine | {host}, {} {} |\n\
         | CPU | {cpu} |\n\
         | CPU features (detected) | {} |\n\
         | NTT backend (selected) | {} |\n\
         | kernel backend | {} (`RNSFHE_BACKEND` ceiling; fastest detected: {}) |\n\
         | threads | every measurement runs on one thread ({threads} hardware threads available) |\n\
         | timing | fastest of 7 batches per row (see `timing.rs`), a shared machine makes numbers noisy |\n\n",
        utc_now(),
        env!("CARGO_PKG_VERSION"),
        if cfg!(debug_assertions) { "debug" } else { "release" },
        std::env::consts::OS,
        std::env::consts::ARCH,
        cpu_features(),
        selected_backends(),
        rnsfhe_math::backend(),
        rnsfhe_math::arith::detected_backend(),
    )
}

#[cfg(target_arch = "x86_64")]
fn cpu_features() -> String {
    let all = [
        ("sse4.2", std::arch::is_x86_feature_detected!("sse4.2")),
        ("avx2", std::arch::is_x86_feature_detected!("avx2")),
        ("bmi2", std::arch::is_x86_feature_detected!("bmi2")),
        ("adx", std::arch::is_x86_feature_detected!("adx")),
        ("avx512f", std::arch::is_x86_feature_detected!("avx512f")),
        ("avx512dq", std::arch::is_x86_feature_detected!("avx512dq")),
        (
            "avx512ifma",
            std::arch::is_x86_feature_detected!("avx512ifma"),
        ),
    ];
    let have: Vec<&str> = all.iter().filter(|f| f.1).map(|f| f.0).collect();
    let lack: Vec<&str> = all.iter().filter(|f| !f.1).map(|f| f.0).collect();
    format!(
        "{}{}",
        have.join(", "),
        if lack.is_empty() {
            String::new()
        } else {
            format!(" (not: {})", lack.join(", "))
        }
    )
}

#[cfg(not(target_arch = "x86_64"))]
fn cpu_features() -> String {
    "portable kernels only".into()
}

/// The current UTC date and time, "YYYY-MM-DD HH:MM UTC" (civil-from-days, no time-zone data).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs()) as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60
    )
}

// ---- rendering ----

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_a_png_linked_from_the_report() {
        let dir = std::env::temp_dir().join(format!("rnsfhe-report-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut rep = Report::collecting();
        rep.text("## A section");
        let mut t = Table::new(&["n", "time"]);
        t.row(vec!["2^12".into(), "1 ms".into()]);
        rep.table(&t);
        let mut p = Plot::time(
            "small",
            "Decryption by method",
            "n",
            Scale::Log2Power,
            "t = 2^10, 30-bit moduli",
        );
        let mut a = Series::new("Alg. 1 (gamma correction)");
        let mut b = Series::reference("paper");
        for (i, log_n) in (11..=15).enumerate() {
            let n = f64::from(1u32 << log_n);
            a.push(n, 1e-5 * 2f64.powi(i as i32));
            b.push(n, 3e-5 * 2.5f64.powi(i as i32));
        }
        p.add(a);
        p.add(b);
        rep.plot(p);
        let mut q = Plot {
            y_scale: Scale::Linear,
            y_label: "log2 noise".into(),
            ..Plot::time("depth", "Noise", "depth", Scale::Linear, "n = 2^13")
        };
        q.series_mut("m~ = 2^16").push(1.0, 20.0);
        q.series_mut("m~ = 2^16").push(2.0, 45.5);
        rep.plot(q);
        let path = rep.write(&dir, "rnsfhe bench test").unwrap();
        let md = std::fs::read_to_string(&path).unwrap();
        assert!(md.starts_with("# rnsfhe benchmark report"));
        let backend = format!("| NTT backend (selected) | {} |", selected_backends());
        assert!(md.contains(&backend) && md.contains(&cpu_model()), "{md}");
        assert!(md.contains("| 2^12 | 1 ms |"));
        for name in ["small", "depth"] {
            assert!(md.contains(&format!("]({name}.png)")), "{md}");
            let png = std::fs::read(dir.join(format!("{name}.png"))).unwrap();
            assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            assert!(png.len() > 5_000, "{} bytes", png.len());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn shapes_and_dates() {
        assert_eq!(
            moduli_shape(&[(1 << 59) + 1, (1 << 39) + 1, (1 << 39) + 3]),
            "60 + 2 x 40"
        );
        assert_eq!(superscript(-12), "⁻¹²");
        assert_eq!(tick_label(Scale::Time, -3.0), "1 ms");
        assert!(utc_now().ends_with(" UTC"));
    }

    #[test]
    fn the_machine_line_names_cpu_and_backend() {
        let line = machine_line(1);
        assert!(
            line.contains(&cpu_model()) && line.ends_with("one thread."),
            "{line}"
        );
        assert!(machine_line(2).ends_with(", 2 threads."));
        for (part, bits) in selected_backends().split(", ").zip([49u32, 61]) {
            let q = Modulus::new(ntt_primes(bits, 1 << 13, 1, &[]).unwrap()[0]).unwrap();
            let first = rnsfhe_math::ntt::available_backends(&q)[0].name();
            assert_eq!(part, format!("{first} ({bits}-bit q)"));
        }
        assert!(
            line.contains("(49-bit q)") && line.contains("(61-bit q)"),
            "{line}"
        );
    }

    #[test]
    fn a_plain_report_keeps_nothing() {
        let mut rep = Report::stdout_only();
        rep.text("x");
        let mut p = Plot::time("a", "a", "n", Scale::Log2Power, "");
        p.series_mut("s").push(1024.0, 1e-3);
        rep.plot(p);
        assert!(rep.plots.is_empty() && rep.body.is_empty());
    }
}
