//! `parad literate`: a Futhark program whose top-level comments are
//! Markdown and whose `-- >` lines are directives becomes a Markdown
//! document: the code in fenced blocks, the comments as prose, and in
//! place of each directive its output — a value, an image, a plot, an
//! animation or a sound — with the files in a folder beside the document.
//! It follows `futhark literate` (same document layout, directives and
//! parameters), with every file made in process:
//!
//! - [`doc`] splits the program into blocks and parses directives;
//! - [`render`] runs the directives over a loaded program
//!   ([`parad_driver::Loaded`], any backend), evaluating their
//!   FutharkScript expressions with the test runner's evaluator
//!   ([`parad_testrun::eval_structured`]), and assembles the Markdown;
//! - [`media`] encodes images (PNG), animations (GIF, APNG) and sounds
//!   (WAV); [`plot`] draws `:plot2d` plots with `plotters`.
//!
//! Differences from Futhark, by design: no external program is run, so
//! `:gnuplot` is not supported (the document says so, the run does not
//! fail), `:video` writes GIF (default) or APNG instead of WebM, and
//! `:audio` writes WAV only. Directives call entry points (Futhark
//! compiles any function a directive names as one). Files are named after
//! the directive's line (`img-12.png`) unless `file:` names them, so the
//! output depends only on the program: the same program gives the same
//! bytes.

pub mod doc;
pub mod media;
pub mod plot;

use doc::{Action, Block, Directive, Show};
use parad_driver::Loaded;
use parad_testrun::{ScriptError, ScriptValue};
use parad_values::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where a document's files go and how it runs.
pub struct Env<'a> {
    /// The program's name as messages show it (`prog.fut`).
    pub program: &'a Path,
    /// The folder file names in directives (`$loaddata "x.in"`) are
    /// relative to: the program's.
    pub dir: &'a Path,
    /// The folder the files are written to.
    pub img_dir: PathBuf,
    /// The same folder as the document links to it (relative to the
    /// document: `prog-img`).
    pub img_link: String,
    /// Stop at the first directive that fails.
    pub stop_on_error: bool,
    /// Say on standard error which directive runs.
    pub verbose: bool,
}

/// A rendered document.
pub struct Outcome {
    /// The Markdown text.
    pub markdown: String,
    /// The files written to [`Env::img_dir`], by name.
    pub files: Vec<String>,
    /// How many directives failed (each was reported as it failed).
    pub failures: usize,
}

/// A run stopped at a failing directive (`stop_on_error`); the failure
/// was reported already.
#[derive(Debug)]
pub struct Stopped;

/// Runs the directives of `blocks` with `program` and assembles the
/// document. Failures are written to `log` (standard error) as
/// `PROG:LINE: directive failed: …` and put in the document in place of
/// the directive's output.
pub fn render(
    blocks: &[Block],
    program: &mut dyn Loaded,
    env: &Env,
    log: &mut dyn FnMut(&str),
) -> Result<Outcome, Stopped> {
    let mut parts = Vec::with_capacity(blocks.len());
    let mut files: BTreeMap<String, usize> = BTreeMap::new();
    let mut failures = 0;
    for b in blocks {
        parts.push(match b {
            Block::Code(c) if c.is_empty() => String::new(),
            Block::Code(c) => format!("```futhark\n{c}```\n"),
            Block::Prose(p) => p.clone(),
            Block::Directive(d) => {
                if env.verbose {
                    log(&format!(
                        "{}:{}: {}",
                        env.program.display(),
                        d.line,
                        d.text.lines().next().unwrap_or("")
                    ));
                }
                let prompt = prompt(d);
                match directive(d, program, env, &mut files) {
                    Ok(out) => format!("{prompt}\n{out}"),
                    Err(e) => {
                        failures += 1;
                        let e = e.trim_end();
                        log(&format!(
                            "{}:{}: directive `{}` failed:\n{e}",
                            env.program.display(),
                            d.line,
                            d.text.lines().next().unwrap_or("")
                        ));
                        if env.stop_on_error {
                            return Err(Stopped);
                        }
                        format!("{prompt}\n**FAILED**\n```\n{e}\n```\n")
                    }
                }
            }
        });
    }
    Ok(Outcome {
        markdown: parts.join("\n"),
        files: files.into_keys().collect(),
        failures,
    })
}

/// How the document shows directive `d` (a fenced block, or nothing).
fn prompt(d: &Directive) -> String {
    match &d.parsed {
        Ok(p) if p.show == Show::Covert => String::new(),
        Ok(p) if p.show == Show::Brief => {
            let name = match &p.action {
                Action::Value { .. } => "",
                Action::Img { .. } => ":img ",
                Action::Plot { .. } => ":plot2d ",
                Action::Gnuplot { .. } => ":gnuplot ",
                Action::Video { .. } => ":video ",
                Action::Audio { .. } => ":audio ",
            };
            format!("```\n> {name}{}\n```\n", p.action.exp())
        }
        _ => format!("```\n{}```\n", d.text),
    }
}

/// The document's text for directive `d` (after its prompt), or why it
/// failed. `files` maps the names of the files written so far to the
/// line of the directive that wrote each.
fn directive(
    d: &Directive,
    program: &mut dyn Loaded,
    env: &Env,
    files: &mut BTreeMap<String, usize>,
) -> Result<String, String> {
    let action = &d.parsed.as_ref()?.action;
    let mut write = |name: String, bytes: Vec<u8>| -> Result<String, String> {
        if let Some(line) = files.get(&name) {
            return Err(format!(
                "the file `{name}` is written by the directive on line {line} already"
            ));
        }
        std::fs::create_dir_all(&env.img_dir)
            .map_err(|e| format!("cannot create {}: {e}", env.img_dir.display()))?;
        let path = env.img_dir.join(&name);
        std::fs::write(&path, bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        files.insert(name.clone(), d.line);
        Ok(format!("{}/{name}", env.img_link))
    };
    let line = d.line;
    match action {
        Action::Value { exp } => Ok(format!("```\n{}\n```\n", show(&eval(exp, program, env)?))),
        Action::Img { exp, file } => {
            let v = single(eval(exp, program, env)?)?;
            let bytes = media::png(&media::image_of(&v)?)?;
            let link = write(file.clone().unwrap_or(format!("img-{line}.png")), bytes)?;
            Ok(format!("![]({link})\n"))
        }
        Action::Plot { exp, size } => {
            let series = series(eval(exp, program, env)?)?;
            let (w, h) = size.unwrap_or((500, 500));
            let bytes = media::png(&plot::plot(&series, w, h)?)?;
            let link = write(format!("plot-{line}.png"), bytes)?;
            Ok(format!("![]({link})\n"))
        }
        Action::Gnuplot { .. } => Ok(
            "**Not supported:** `:gnuplot` needs the gnuplot program, which parad does not run; `:plot2d` draws line plots.\n"
                .into(),
        ),
        Action::Video { exp, params } => {
            let name = params.format.as_deref().unwrap_or("gif");
            let format = media::AnimFormat::named(name).ok_or_else(|| match name {
                "webm" => "the video format `webm` needs a video encoder (ffmpeg), which parad does not run; use `format: gif` or `format: apng`".to_string(),
                other => format!("unknown video format `{other}` (parad writes `gif` or `apng`)"),
            })?;
            let v = single(eval(exp, program, env)?)?;
            let frames = media::frames_of(&v)?;
            let bytes = media::animation(
                &frames,
                params.fps.unwrap_or(30),
                params.repeat.unwrap_or(true),
                format,
            )?;
            let default = format!("video-{line}.{}", format.extension());
            let link = write(params.file.clone().unwrap_or(default), bytes)?;
            let attrs: Vec<String> = [("loop", params.repeat), ("autoplay", params.autoplay)]
                .into_iter()
                .filter_map(|(k, v)| v.map(|b| format!("{k}=\"{b}\"")))
                .collect();
            let attrs = match attrs.is_empty() {
                true => String::new(),
                false => format!("{{{}}}", attrs.join(" ")),
            };
            Ok(format!("![]({link}){attrs}\n"))
        }
        Action::Audio { exp, params } => {
            match params.codec.as_deref() {
                None | Some("wav") => {}
                Some(c) => {
                    return Err(format!(
                        "the audio codec `{c}` needs an encoder (ffmpeg), which parad does not run; use `codec: wav`"
                    ))
                }
            }
            let v = single(eval(exp, program, env)?)?;
            let bytes = media::wav(&v, params.sampling_frequency.unwrap_or(44100))?;
            let link = write(format!("audio-{line}.wav"), bytes)?;
            Ok(format!("![]({link})\n"))
        }
    }
}

/// The value of FutharkScript `exp`, or the error as text.
fn eval(exp: &str, program: &mut dyn Loaded, env: &Env) -> Result<ScriptValue, String> {
    parad_testrun::eval_structured(exp, env.dir, program).map_err(|e| match e {
        ScriptError::Bad(m) if m.starts_with("unknown name") => {
            format!("{m} (directives call the program's entry points)")
        }
        ScriptError::Bad(m) => m,
        ScriptError::Call(f, e) => format!("`{f}` failed:\n{}", e.render()),
        ScriptError::Unsupported(why) => format!("not supported: {why}"),
    })
}

/// A value as Futhark prints it: scalars and arrays in the data format,
/// tuples in parentheses, records in braces.
pub fn show(v: &ScriptValue) -> String {
    match v {
        ScriptValue::Flat(vs) if vs.len() == 1 => parad_values::to_text(&vs[0]),
        ScriptValue::Flat(vs) => {
            let items: Vec<String> = vs.iter().map(parad_values::to_text).collect();
            format!("({})", items.join(", "))
        }
        ScriptValue::Tuple(xs) => {
            let items: Vec<String> = xs.iter().map(show).collect();
            format!("({})", items.join(", "))
        }
        ScriptValue::Record(fs) => {
            let items: Vec<String> = fs
                .iter()
                .map(|(n, v)| format!("{n} = {}", show(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The type of a value, for messages (`([3]f64, [3]f64)`).
fn type_of(v: &ScriptValue) -> String {
    match v {
        ScriptValue::Flat(vs) if vs.len() == 1 => vs[0].type_name(),
        ScriptValue::Flat(vs) => {
            let items: Vec<String> = vs.iter().map(Value::type_name).collect();
            format!("({})", items.join(", "))
        }
        ScriptValue::Tuple(xs) => {
            let items: Vec<String> = xs.iter().map(type_of).collect();
            format!("({})", items.join(", "))
        }
        ScriptValue::Record(fs) => {
            let items: Vec<String> = fs
                .iter()
                .map(|(n, v)| format!("{n}: {}", type_of(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// The one value of `v`.
fn single(v: ScriptValue) -> Result<Value, String> {
    match v {
        ScriptValue::Flat(mut vs) if vs.len() == 1 => Ok(vs.pop().expect("one value")),
        other => Err(format!(
            "expected one array, not a value of type {}",
            type_of(&other)
        )),
    }
}

/// The series of a `:plot2d` value: a pair of arrays, or a record of them.
fn series(v: ScriptValue) -> Result<Vec<plot::Series>, String> {
    let bad = |v: &ScriptValue| {
        format!(
            "cannot plot a value of type {}: expected two numeric arrays of one length ([n]t, [n]t), or a record of such pairs",
            type_of(v)
        )
    };
    let pair = |v: &ScriptValue| -> Option<Vec<(f64, f64)>> {
        let (x, y) = match v {
            ScriptValue::Flat(vs) if vs.len() == 2 => (&vs[0], &vs[1]),
            ScriptValue::Tuple(xs) if xs.len() == 2 => match (&xs[0], &xs[1]) {
                (ScriptValue::Flat(a), ScriptValue::Flat(b)) if a.len() == 1 && b.len() == 1 => {
                    (&a[0], &b[0])
                }
                _ => return None,
            },
            _ => return None,
        };
        let (xs, ys) = (numbers(x)?, numbers(y)?);
        (xs.len() == ys.len()).then(|| xs.into_iter().zip(ys).collect())
    };
    if let Some(points) = pair(&v) {
        return Ok(vec![plot::Series { name: None, points }]);
    }
    match &v {
        ScriptValue::Record(fs) if !fs.is_empty() => fs
            .iter()
            .map(|(n, f)| {
                pair(f)
                    .map(|points| plot::Series {
                        name: Some(n.clone()),
                        points,
                    })
                    .ok_or_else(|| format!("field `{n}`: {}", bad(f)))
            })
            .collect(),
        _ => Err(bad(&v)),
    }
}

/// The elements of a one-dimensional numeric array, as `f64`.
fn numbers(v: &Value) -> Option<Vec<f64>> {
    let Value::Array(a) = v else { return None };
    if a.rank() != 1 {
        return None;
    }
    use parad_values::ArrayData as D;
    Some(match &a.data {
        D::I8(d) => d.iter().map(|&x| x as f64).collect(),
        D::I16(d) => d.iter().map(|&x| x as f64).collect(),
        D::I32(d) => d.iter().map(|&x| x as f64).collect(),
        D::I64(d) => d.iter().map(|&x| x as f64).collect(),
        D::U8(d) => d.iter().map(|&x| x as f64).collect(),
        D::U16(d) => d.iter().map(|&x| x as f64).collect(),
        D::U32(d) => d.iter().map(|&x| x as f64).collect(),
        D::U64(d) => d.iter().map(|&x| x as f64).collect(),
        D::F16(d) => d.iter().map(|&x| x.to_f64()).collect(),
        D::F32(d) => d.iter().map(|&x| x as f64).collect(),
        D::F64(d) => d.clone(),
        D::Bool(_) => return None,
    })
}

/// Removes the files of `dir` that are not in `keep` (files of an
/// earlier run whose directives are gone), then `dir` itself if it is
/// left empty. Folders inside it are left alone.
pub fn clean_img_dir(dir: &Path, keep: &[String]) -> std::io::Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for e in entries {
        let e = e?;
        let name = e.file_name().to_string_lossy().into_owned();
        if e.file_type()?.is_file() && !keep.contains(&name) {
            std::fs::remove_file(e.path())?;
        }
    }
    if std::fs::read_dir(dir)?.next().is_none() {
        std::fs::remove_dir(dir)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use parad_values::{ArrayData, ArrayValue, Scalar};

    #[test]
    fn brief_and_covert_directives_are_shown_so() {
        let d = |s: &str| match &doc::split(s)[0] {
            Block::Directive(d) => prompt(d),
            other => panic!("{other:?}"),
        };
        assert_eq!(
            d("-- > :img f 1;\n-- file: a.png\n"),
            "```\n> :img f 1;\nfile: a.png\n```\n"
        );
        assert_eq!(
            d("-- > :brief :img f 1;\n-- file: a.png\n"),
            "```\n> :img f 1\n```\n"
        );
        assert_eq!(d("-- > :covert f 1\n"), "");
        // One that cannot be parsed is shown as written.
        assert_eq!(d("-- > :what\n"), "```\n> :what\n```\n");
    }

    #[test]
    fn values_print_as_futhark_does() {
        let a = Value::Array(ArrayValue::new(vec![2], ArrayData::F64(vec![1.5, -2.0])).unwrap());
        let s = Value::Scalar(Scalar::I32(3));
        assert_eq!(show(&ScriptValue::Flat(vec![s.clone()])), "3i32");
        assert_eq!(
            show(&ScriptValue::Flat(vec![s.clone(), a.clone()])),
            "(3i32, [1.5f64, -2.0f64])"
        );
        let r = ScriptValue::Record(vec![
            ("a".into(), ScriptValue::Flat(vec![a])),
            (
                "b".into(),
                ScriptValue::Tuple(vec![ScriptValue::Flat(vec![s])]),
            ),
        ]);
        assert_eq!(show(&r), "{a = [1.5f64, -2.0f64], b = (3i32)}");
        assert_eq!(type_of(&r), "{a: [2]f64, b: (i32)}");
    }

    #[test]
    fn plot_values_are_pairs_or_records_of_pairs() {
        let arr =
            |v: Vec<f32>| Value::Array(ArrayValue::new(vec![v.len()], ArrayData::F32(v)).unwrap());
        let s = series(ScriptValue::Flat(vec![
            arr(vec![1.0, 2.0]),
            arr(vec![3.0, 4.0]),
        ]))
        .unwrap();
        assert_eq!(s[0].points, [(1.0, 3.0), (2.0, 4.0)]);
        let r = ScriptValue::Record(vec![(
            "f".into(),
            ScriptValue::Tuple(vec![
                ScriptValue::Flat(vec![arr(vec![1.0])]),
                ScriptValue::Flat(vec![arr(vec![2.0])]),
            ]),
        )]);
        let s = series(r).unwrap();
        assert_eq!(
            (s[0].name.as_deref(), &s[0].points[..]),
            (Some("f"), &[(1.0, 2.0)][..])
        );
        let e = series(ScriptValue::Flat(vec![arr(vec![1.0]), arr(vec![1.0, 2.0])]))
            .err()
            .unwrap();
        assert_eq!(e, "cannot plot a value of type ([1]f32, [2]f32): expected two numeric arrays of one length ([n]t, [n]t), or a record of such pairs");
    }
}
