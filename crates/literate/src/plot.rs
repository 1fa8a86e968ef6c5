//! `:plot2d`: line plots drawn with `plotters` into a pixel buffer, then
//! encoded as PNG by [`crate::media::png`].
//!
//! Text (tick labels, the legend) needs a font. `plotters` is built with
//! its pure-Rust `ab_glyph` text renderer (no fontconfig or other system
//! library needed at build time), which draws only fonts registered with
//! it, so parad looks for a TrueType font file: the one named by
//! `PARAD_FONT`, else DejaVu Sans or Liberation Sans where Linux
//! distributions install them (Debian: `apt-get install
//! fonts-dejavu-core`), else common macOS and Windows fonts. Without one
//! the plot is still drawn, with its axes and lines but without text, and
//! [`font_warning`] says so once.

use crate::media::Rgb;
use plotters::prelude::*;
use std::sync::OnceLock;

/// The font family name the found font is registered under.
const FAMILY: &str = "sans-serif";

/// Where a font is looked for, in order, after `PARAD_FONT`.
const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/liberation-sans/LiberationSans-Regular.ttf",
    "/usr/local/share/fonts/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Whether a font was found and registered (looked for once).
fn have_font() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let env = std::env::var_os("PARAD_FONT").map(std::path::PathBuf::from);
        let candidates = env
            .into_iter()
            .chain(FONT_PATHS.iter().map(std::path::PathBuf::from));
        for p in candidates {
            let Ok(bytes) = std::fs::read(&p) else {
                continue;
            };
            // plotters keeps the font for the life of the process.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font(FAMILY, FontStyle::Normal, bytes).is_ok() {
                return true;
            }
        }
        false
    })
}

/// A warning for standard error when plots are drawn without text (no
/// font found), else `None`.
pub fn font_warning() -> Option<&'static str> {
    (!have_font()).then_some(
        "warning: no font found (set PARAD_FONT to a .ttf file, or install fonts-dejavu-core): plots are drawn without labels",
    )
}

/// One line of a plot: its name (shown in a legend when any series has
/// one) and its points.
pub struct Series {
    /// The name of the series (a field of the plotted record).
    pub name: Option<String>,
    /// The points (x, y), joined in order; a non-finite one breaks the
    /// line.
    pub points: Vec<(f64, f64)>,
}

/// The colours of successive series.
const COLOURS: [RGBColor; 6] = [
    RGBColor(0x1f, 0x77, 0xb4),
    RGBColor(0xd6, 0x27, 0x28),
    RGBColor(0x2c, 0xa0, 0x2c),
    RGBColor(0xff, 0x7f, 0x0e),
    RGBColor(0x94, 0x67, 0xbd),
    RGBColor(0x8c, 0x56, 0x4b),
];

/// The range `lo..hi` of `xs` (finite values only), widened when empty
/// or a single point, with a margin of 5 %.
fn range(xs: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in xs.filter(|x| x.is_finite()) {
        lo = lo.min(x);
        hi = hi.max(x);
    }
    if lo > hi {
        return 0.0..1.0;
    }
    if lo == hi {
        return lo - 1.0..hi + 1.0;
    }
    let m = (hi - lo) * 0.05;
    lo - m..hi + m
}

/// Draws `series` on a white `width`×`height` image, with tick labels
/// and a legend (for named series) when a font was found.
pub fn plot(series: &[Series], width: u32, height: u32) -> Result<Rgb, String> {
    draw(series, width, height, have_font())
}

/// [`plot`], with text or without.
fn draw(series: &[Series], width: u32, height: u32, text: bool) -> Result<Rgb, String> {
    let mut pixels = vec![0u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (width, height)).into_drawing_area();
        let err = |e: DrawingAreaErrorKind<_>| format!("plot: {e}");
        root.fill(&WHITE).map_err(err)?;
        let points = || series.iter().flat_map(|s| s.points.iter());
        let xr = range(points().map(|p| p.0));
        let yr = range(points().map(|p| p.1));
        let mut builder = ChartBuilder::on(&root);
        builder.margin(10);
        if text {
            builder.x_label_area_size(30).y_label_area_size(50);
        }
        let mut chart = builder.build_cartesian_2d(xr, yr).map_err(err)?;
        if text {
            chart
                .configure_mesh()
                .label_style((FAMILY, 13))
                .light_line_style(WHITE.mix(0.0))
                .draw()
                .map_err(err)?;
        } else {
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(0)
                .y_labels(0)
                .draw()
                .map_err(err)?;
        }
        let legend = text && series.iter().any(|s| s.name.is_some());
        for (i, s) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            // A non-finite point breaks the line.
            for run in s.points.split(|p| !(p.0.is_finite() && p.1.is_finite())) {
                let drawn = chart
                    .draw_series(LineSeries::new(run.iter().copied(), colour.stroke_width(2)))
                    .map_err(err)?;
                if legend && std::ptr::eq(run.as_ptr(), s.points.as_ptr()) {
                    let name = s.name.clone().unwrap_or_default();
                    drawn.label(name).legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                    });
                }
            }
        }
        if legend {
            chart
                .configure_series_labels()
                .label_font((FAMILY, 13))
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(Rgb {
        width,
        height,
        pixels,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plot_has_the_size_asked_and_lines() {
        let xs: Vec<f64> = (0..50).map(|i| i as f64 / 10.0).collect();
        let series = vec![
            Series {
                name: Some("sin".into()),
                points: xs.iter().map(|&x| (x, x.sin())).collect(),
            },
            Series {
                name: Some("cos".into()),
                points: xs.iter().map(|&x| (x, x.cos())).collect(),
            },
        ];
        let img = plot(&series, 320, 200).unwrap();
        assert_eq!((img.width, img.height), (320, 200));
        let px: Vec<&[u8]> = img.pixels.chunks_exact(3).collect();
        assert_eq!(px.len(), 320 * 200);
        // The background is white; both series' colours appear.
        assert_eq!(px[0], [255, 255, 255]);
        for c in &COLOURS[..2] {
            assert!(
                px.iter().any(|p| *p == [c.0, c.1, c.2]),
                "no pixel of {c:?}"
            );
        }
        let bytes = crate::media::png(&img).unwrap();
        let r = png::Decoder::new(&bytes[..]).read_info().unwrap();
        assert_eq!((r.info().width, r.info().height), (320, 200));
        // Deterministic.
        assert_eq!(plot(&series, 320, 200).unwrap(), img);
    }

    #[test]
    fn without_a_font_the_lines_are_drawn() {
        let s = [Series {
            name: Some("line".into()),
            points: vec![(0.0, 0.0), (1.0, 1.0)],
        }];
        let img = draw(&s, 60, 40, false).unwrap();
        let c = COLOURS[0];
        assert!(img.pixels.chunks_exact(3).any(|p| p == [c.0, c.1, c.2]));
    }

    #[test]
    fn degenerate_ranges_still_plot() {
        let s = [Series {
            name: None,
            points: vec![(1.0, 2.0), (f64::NAN, 0.0)],
        }];
        let img = plot(&s, 50, 40).unwrap();
        // Too small for labels: still no panic.
        for (w, h) in [(1, 1), (5, 300), (300, 5)] {
            for text in [true, false] {
                let _ = draw(&s, w, h, text);
            }
        }
        assert_eq!(img.pixels.len(), 50 * 40 * 3);
        assert_eq!(range([].into_iter()), 0.0..1.0);
        assert_eq!(range([3.0].into_iter()), 2.0..4.0);
    }
}
