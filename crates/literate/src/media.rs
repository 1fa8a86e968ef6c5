//! Values turned into files: images (PNG), animations (GIF or APNG) and
//! sounds (WAV), all encoded in process by Rust crates (`png`, `gif`,
//! `hound`), so that no external program is needed and the bytes depend
//! only on the values.
//!
//! Pixel conventions are Futhark's: a `[h][w]u32` or `[h][w]i32` pixel is
//! `0xAARRGGBB` whose alpha byte is ignored (programs commonly leave it 0,
//! which must not make the image transparent); `[h][w]f32`/`f64` are grey
//! levels from 0 (black) to 1 (white), clamped; `[h][w]u8` grey levels
//! 0..=255; `[h][w]bool` black and white. parad also takes `[h][w][3]u8`
//! (red, green, blue).

use parad_values::{ArrayData, Value};

/// An RGB image: `width * height * 3` bytes, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    /// Pixels a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Red, green, blue of each pixel, row by row.
    pub pixels: Vec<u8>,
}

/// The image a value denotes (see the module documentation), or why it
/// denotes none.
pub fn image_of(v: &Value) -> Result<Rgb, String> {
    let Value::Array(a) = v else {
        return Err(format!(
            "cannot make an image of a value of type {}",
            v.type_name()
        ));
    };
    frames(&a.shape, &a.data, 0, v)?
        .pop()
        .ok_or_else(|| "no image".to_string())
}

/// The frames of a `[n]` array of images (`[n][h][w]u32`, …).
pub fn frames_of(v: &Value) -> Result<Vec<Rgb>, String> {
    let Value::Array(a) = v else {
        return Err(format!(
            "cannot make an animation of a value of type {}",
            v.type_name()
        ));
    };
    frames(&a.shape, &a.data, 1, v)
}

/// The images in `data` of shape `shape` whose first `outer` dimensions
/// index images.
fn frames(shape: &[usize], data: &ArrayData, outer: usize, v: &Value) -> Result<Vec<Rgb>, String> {
    let rgb3 =
        matches!(data, ArrayData::U8(_)) && shape.len() == outer + 3 && shape[outer + 2] == 3;
    if shape.len() != outer + 2 && !rgb3 {
        return Err(format!(
            "cannot make {} of a value of type {} (expected {}[h][w]u32, i32, f32, f64, u8, bool or [h][w][3]u8)",
            if outer == 0 { "an image" } else { "an animation" },
            v.type_name(),
            if outer == 0 { "" } else { "[frames]" }
        ));
    }
    let n: usize = shape[..outer].iter().product();
    let (h, w) = (shape[outer], shape[outer + 1]);
    if h == 0 || w == 0 || n == 0 {
        return Err(format!(
            "cannot make an image of an empty array ({})",
            v.type_name()
        ));
    }
    if h > u16::MAX as usize * 4 || w > u16::MAX as usize * 4 {
        return Err(format!("an image of {w}x{h} pixels is too large"));
    }
    let per = h * w;
    let grey = |g: u8| [g, g, g];
    let argb = |p: u32| [(p >> 16) as u8, (p >> 8) as u8, p as u8];
    let unit = |x: f64| {
        grey(if x.is_nan() {
            0
        } else {
            (x.clamp(0.0, 1.0) * 255.0).round() as u8
        })
    };
    let pixel = |i: usize| -> [u8; 3] {
        match data {
            ArrayData::U32(d) => argb(d[i]),
            ArrayData::I32(d) => argb(d[i] as u32),
            ArrayData::F32(d) => unit(d[i] as f64),
            ArrayData::F64(d) => unit(d[i]),
            ArrayData::U8(d) if rgb3 => [d[3 * i], d[3 * i + 1], d[3 * i + 2]],
            ArrayData::U8(d) => grey(d[i]),
            ArrayData::Bool(d) => grey(if d[i] { 255 } else { 0 }),
            _ => unreachable!("element type checked before"),
        }
    };
    if !matches!(
        data,
        ArrayData::U32(_)
            | ArrayData::I32(_)
            | ArrayData::F32(_)
            | ArrayData::F64(_)
            | ArrayData::U8(_)
            | ArrayData::Bool(_)
    ) {
        return Err(format!(
            "cannot make an image of elements of type {} (expected u32, i32, f32, f64, u8 or bool)",
            data.elem_type().name()
        ));
    }
    Ok((0..n)
        .map(|f| Rgb {
            width: w as u32,
            height: h as u32,
            pixels: (f * per..(f + 1) * per).flat_map(pixel).collect(),
        })
        .collect())
}

/// `img` as a PNG file (8-bit RGB).
pub fn png(img: &Rgb) -> Result<Vec<u8>, String> {
    let mut out = vec![];
    let mut enc = png::Encoder::new(&mut out, img.width, img.height);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| format!("PNG: {e}"))?;
    w.write_image_data(&img.pixels)
        .map_err(|e| format!("PNG: {e}"))?;
    w.finish().map_err(|e| format!("PNG: {e}"))?;
    Ok(out)
}

/// Decodes a PNG file (any colour type and depth) to 8-bit RGB, the
/// alpha channel dropped.
pub fn decode_png(bytes: &[u8]) -> Result<Rgb, String> {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut r = dec.read_info().map_err(|e| format!("PNG: {e}"))?;
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).map_err(|e| format!("PNG: {e}"))?;
    buf.truncate(info.buffer_size());
    let pixels = match info.color_type {
        png::ColorType::Rgb => buf,
        png::ColorType::Rgba => buf
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g]).collect(),
        png::ColorType::GrayscaleAlpha => buf
            .chunks_exact(2)
            .flat_map(|p| [p[0], p[0], p[0]])
            .collect(),
        png::ColorType::Indexed => return Err("PNG: palette not expanded".into()),
    };
    Ok(Rgb {
        width: info.width,
        height: info.height,
        pixels,
    })
}

/// The number of frames of a GIF file and its size (width, height).
pub fn gif_info(bytes: &[u8]) -> Result<(usize, u32, u32), String> {
    let mut d = gif::DecodeOptions::new()
        .read_info(bytes)
        .map_err(|e| format!("GIF: {e}"))?;
    let mut n = 0;
    while d
        .next_frame_info()
        .map_err(|e| format!("GIF: {e}"))?
        .is_some()
    {
        n += 1;
    }
    Ok((n, d.width() as u32, d.height() as u32))
}

/// The formats of animations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimFormat {
    /// GIF: every viewer shows it; at most 256 colours a frame (exact when
    /// a frame has no more, else quantised).
    Gif,
    /// Animated PNG: lossless.
    Apng,
}

impl AnimFormat {
    /// The format called `name` (`gif`, `apng` or `png`); `None` for
    /// others (Futhark's `webm` needs a video encoder parad does not have).
    pub fn named(name: &str) -> Option<AnimFormat> {
        match name {
            "gif" => Some(AnimFormat::Gif),
            "apng" | "png" => Some(AnimFormat::Apng),
            _ => None,
        }
    }

    /// The file extension.
    pub fn extension(self) -> &'static str {
        match self {
            AnimFormat::Gif => "gif",
            AnimFormat::Apng => "png",
        }
    }
}

/// An animation of `frames` (all of one size, at least one) at `fps`
/// frames a second, repeated forever or played once.
pub fn animation(
    frames: &[Rgb],
    fps: u32,
    repeat: bool,
    format: AnimFormat,
) -> Result<Vec<u8>, String> {
    let first = frames
        .first()
        .ok_or("an animation needs at least one frame")?;
    let (w, h) = (first.width, first.height);
    match format {
        AnimFormat::Gif => {
            let (w16, h16) = match (u16::try_from(w), u16::try_from(h)) {
                (Ok(a), Ok(b)) => (a, b),
                _ => {
                    return Err(format!(
                        "a GIF cannot be {w}x{h} pixels (at most 65535 each way)"
                    ))
                }
            };
            let mut out = vec![];
            {
                let mut enc =
                    gif::Encoder::new(&mut out, w16, h16, &[]).map_err(|e| format!("GIF: {e}"))?;
                if repeat {
                    enc.set_repeat(gif::Repeat::Infinite)
                        .map_err(|e| format!("GIF: {e}"))?;
                }
                // GIF delays are in hundredths of a second.
                let delay = (100.0 / fps as f64).round().max(1.0) as u16;
                for f in frames {
                    let mut frame = gif_frame(f, w16, h16);
                    frame.delay = delay;
                    enc.write_frame(&frame).map_err(|e| format!("GIF: {e}"))?;
                }
            }
            Ok(out)
        }
        AnimFormat::Apng => {
            let mut out = vec![];
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(png::ColorType::Rgb);
            enc.set_depth(png::BitDepth::Eight);
            let apng = |e: png::EncodingError| format!("APNG: {e}");
            enc.set_animated(frames.len() as u32, if repeat { 0 } else { 1 })
                .map_err(apng)?;
            enc.set_frame_delay(1, fps.min(u16::MAX as u32) as u16)
                .map_err(apng)?;
            let mut wr = enc.write_header().map_err(apng)?;
            for f in frames {
                wr.write_image_data(&f.pixels).map_err(apng)?;
            }
            wr.finish().map_err(apng)?;
            Ok(out)
        }
    }
}

/// A GIF frame of `f`: its exact colours when there are at most 256 (the
/// palette in increasing order, so the bytes depend on the image only),
/// else colours chosen by the `gif` crate's quantiser (deterministic).
fn gif_frame(f: &Rgb, w: u16, h: u16) -> gif::Frame<'static> {
    let mut colours: Vec<[u8; 3]> = f
        .pixels
        .chunks_exact(3)
        .map(|c| [c[0], c[1], c[2]])
        .collect();
    colours.sort_unstable();
    colours.dedup();
    if colours.len() > 256 {
        return gif::Frame::from_rgb_speed(w, h, &f.pixels, 10);
    }
    let index: Vec<u8> = f
        .pixels
        .chunks_exact(3)
        .map(|c| {
            colours
                .binary_search(&[c[0], c[1], c[2]])
                .expect("colour in palette") as u8
        })
        .collect();
    let palette: Vec<u8> = colours.concat();
    gif::Frame::from_palette_pixels(w, h, index, palette, None)
}

/// A sound: `[samples]` (mono) or `[channels][samples]` of i8, u8, i16,
/// u16, i32, u32, f32 or f64 (floats between -1 and 1), as a WAV file at
/// `rate` samples a second. Unsigned samples are centred on zero (WAV
/// keeps 8-bit samples unsigned and the others signed).
pub fn wav(v: &Value, rate: u32) -> Result<Vec<u8>, String> {
    let bad = || {
        format!(
            "cannot make a sound of a value of type {} (expected [n] or [channels][n] of i8, u8, i16, u16, i32, u32, f32 or f64)",
            v.type_name()
        )
    };
    let Value::Array(a) = v else {
        return Err(bad());
    };
    let (channels, n) = match a.shape[..] {
        [n] => (1, n),
        [c, n] => (c, n),
        _ => return Err(bad()),
    };
    if channels == 0 || channels > u16::MAX as usize {
        return Err(format!("a sound cannot have {channels} channels"));
    }
    // Samples interleaved: sample 0 of every channel, then sample 1, ….
    let order = |i: usize| (i % channels) * n + i / channels;
    let total = channels * n;
    let (bits, float) = match &a.data {
        ArrayData::I8(_) | ArrayData::U8(_) => (8, false),
        ArrayData::I16(_) | ArrayData::U16(_) => (16, false),
        ArrayData::I32(_) | ArrayData::U32(_) => (32, false),
        ArrayData::F32(_) | ArrayData::F64(_) => (32, true),
        _ => return Err(bad()),
    };
    let spec = hound::WavSpec {
        channels: channels as u16,
        sample_rate: rate,
        bits_per_sample: bits,
        sample_format: if float {
            hound::SampleFormat::Float
        } else {
            hound::SampleFormat::Int
        },
    };
    let mut out = std::io::Cursor::new(vec![]);
    let err = |e: hound::Error| format!("WAV: {e}");
    {
        let mut w = hound::WavWriter::new(&mut out, spec).map_err(err)?;
        for i in (0..total).map(order) {
            match &a.data {
                ArrayData::I8(d) => w.write_sample(d[i]),
                ArrayData::U8(d) => w.write_sample((d[i] as i16 - 128) as i8),
                ArrayData::I16(d) => w.write_sample(d[i]),
                ArrayData::U16(d) => w.write_sample((d[i] as i32 - 32768) as i16),
                ArrayData::I32(d) => w.write_sample(d[i]),
                ArrayData::U32(d) => w.write_sample((d[i] as i64 - (1 << 31)) as i32),
                ArrayData::F32(d) => w.write_sample(d[i]),
                ArrayData::F64(d) => w.write_sample(d[i] as f32),
                _ => unreachable!("element type checked before"),
            }
            .map_err(err)?;
        }
        w.finalize().map_err(err)?;
    }
    Ok(out.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_values::ArrayValue;

    fn arr(shape: Vec<usize>, data: ArrayData) -> Value {
        Value::Array(ArrayValue::new(shape, data).unwrap())
    }

    /// Decodes a PNG to (width, height, RGB bytes).
    fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
        let mut r = png::Decoder::new(bytes).read_info().unwrap();
        let mut buf = vec![0; r.output_buffer_size()];
        let info = r.next_frame(&mut buf).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        buf.truncate(info.buffer_size());
        (info.width, info.height, buf)
    }

    #[test]
    fn argb_pixels_round_trip_through_png() {
        // 2 rows of 3 pixels; the alpha byte is ignored.
        let v = arr(
            vec![2, 3],
            ArrayData::U32(vec![
                0x00ff0000, 0xff00ff00, 0x000000ff, 0x00102030, 0, 0x00ffffff,
            ]),
        );
        let bytes = png(&image_of(&v).unwrap()).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let (w, h, px) = decode(&bytes);
        assert_eq!((w, h), (3, 2));
        assert_eq!(decode_png(&bytes).unwrap().pixels, px);
        assert_eq!(
            px,
            [255, 0, 0, 0, 255, 0, 0, 0, 255, 0x10, 0x20, 0x30, 0, 0, 0, 255, 255, 255]
        );
    }

    #[test]
    fn grey_and_rgb_images() {
        let f = arr(vec![1, 4], ArrayData::F32(vec![0.0, 0.5, 1.0, 7.0]));
        assert_eq!(
            image_of(&f).unwrap().pixels,
            [0, 0, 0, 128, 128, 128, 255, 255, 255, 255, 255, 255]
        );
        let b = arr(vec![1, 2], ArrayData::Bool(vec![true, false]));
        assert_eq!(image_of(&b).unwrap().pixels, [255, 255, 255, 0, 0, 0]);
        let c = arr(vec![1, 1, 3], ArrayData::U8(vec![1, 2, 3]));
        assert_eq!(image_of(&c).unwrap().pixels, [1, 2, 3]);
        let bad = arr(vec![3], ArrayData::U32(vec![1, 2, 3]));
        assert_eq!(
            image_of(&bad).unwrap_err(),
            "cannot make an image of a value of type [3]u32 (expected [h][w]u32, i32, f32, f64, u8, bool or [h][w][3]u8)"
        );
        let bad = arr(vec![1, 1], ArrayData::I64(vec![1]));
        assert_eq!(
            image_of(&bad).unwrap_err(),
            "cannot make an image of elements of type i64 (expected u32, i32, f32, f64, u8 or bool)"
        );
        let empty = arr(vec![0, 2], ArrayData::U32(vec![]));
        assert_eq!(
            image_of(&empty).unwrap_err(),
            "cannot make an image of an empty array ([0][2]u32)"
        );
    }

    #[test]
    fn gif_has_one_frame_per_row_and_exact_colours() {
        let v = arr(
            vec![3, 1, 2],
            ArrayData::U32(vec![0xff0000, 0x00ff00, 0x0000ff, 0, 0xffffff, 0x123456]),
        );
        let frames = frames_of(&v).unwrap();
        let bytes = animation(&frames, 10, true, AnimFormat::Gif).unwrap();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::RGBA);
        let mut d = opts.read_info(&bytes[..]).unwrap();
        let mut got = vec![];
        while let Some(f) = d.read_next_frame().unwrap() {
            assert_eq!(f.delay, 10);
            got.push(f.buffer.to_vec());
        }
        assert_eq!(got.len(), 3);
        assert_eq!(gif_info(&bytes).unwrap(), (3, 2, 1));
        assert_eq!(got[2], [0xff, 0xff, 0xff, 0xff, 0x12, 0x34, 0x56, 0xff]);
        // Same input, same bytes.
        assert_eq!(
            animation(&frames, 10, true, AnimFormat::Gif).unwrap(),
            bytes
        );
    }

    #[test]
    fn apng_has_one_frame_per_row() {
        let v = arr(
            vec![2, 2, 2],
            ArrayData::F64(vec![0.0, 1.0, 1.0, 0.0, 0.5, 0.5, 0.5, 0.5]),
        );
        let bytes = animation(&frames_of(&v).unwrap(), 4, false, AnimFormat::Apng).unwrap();
        let r = png::Decoder::new(&bytes[..]).read_info().unwrap();
        let ctl = r.info().animation_control().unwrap();
        assert_eq!((ctl.num_frames, ctl.num_plays), (2, 1));
    }

    #[test]
    fn wav_interleaves_channels() {
        let v = arr(vec![2, 3], ArrayData::I16(vec![1, 2, 3, -1, -2, -3]));
        let bytes = wav(&v, 8000).unwrap();
        let mut r = hound::WavReader::new(&bytes[..]).unwrap();
        assert_eq!(
            (
                r.spec().channels,
                r.spec().sample_rate,
                r.spec().bits_per_sample
            ),
            (2, 8000, 16)
        );
        let s: Vec<i16> = r.samples::<i16>().map(Result::unwrap).collect();
        assert_eq!(s, [1, -1, 2, -2, 3, -3]);
        let bad = arr(vec![1], ArrayData::Bool(vec![true]));
        assert!(wav(&bad, 8000)
            .unwrap_err()
            .starts_with("cannot make a sound of a value of type [1]bool"));
    }
}
