//! Splitting a literate program into blocks: code, prose and directives.
//!
//! The rules (those of `futhark literate`):
//! - a line that starts with `--` starts a comment block that takes every
//!   following line that starts with `--`; each line loses the `--` and
//!   one space after it, and the block is prose;
//! - but a block that starts with `-- >` is a directive (so a directive
//!   must follow a line that is not a comment: an empty line or code), and
//!   one that starts with `-- ==` is a test block, shown as code;
//! - any other run of lines is code, shown without its leading and
//!   trailing empty lines (a run of empty lines is an empty block).
//!
//! A directive is its `-- >` line; when that line ends with `;`, the
//! comment lines after it (up to the first empty or non-comment line) are
//! its parameters, `key: value` (for `:gnuplot`, its script). Unlike
//! Futhark, an expression cannot continue on the next line.

/// A block of the document.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// Program text (possibly empty: only empty lines), each line ending
    /// with a newline.
    Code(String),
    /// Markdown prose (the comment markers removed), each line ending with
    /// a newline.
    Prose(String),
    /// A directive to run.
    Directive(Directive),
}

/// A directive as written.
#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    /// The line of its `-- >` (1-based).
    pub line: usize,
    /// Its text without the comment markers (`> :img f 1;\nfile: a.png\n`),
    /// as the document shows it.
    pub text: String,
    /// What it asks for, or why it cannot be understood.
    pub parsed: Result<Parsed, String>,
}

/// A directive's meaning, with its `:brief`/`:covert` wrappers.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// How the document shows the directive.
    pub show: Show,
    /// What to compute.
    pub action: Action,
}

/// How a directive is shown before its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Show {
    /// As written, parameters included.
    Full,
    /// Without its parameters (`:brief`).
    Brief,
    /// Not at all (`:covert`).
    Covert,
}

/// What a directive computes. `exp` is FutharkScript text.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// `> e`: the value of `e`, printed.
    Value { exp: String },
    /// `> :img e`: an image.
    Img { exp: String, file: Option<String> },
    /// `> :plot2d e`: a line plot; `size` is (width, height) in pixels.
    Plot {
        exp: String,
        size: Option<(u32, u32)>,
    },
    /// `> :gnuplot e; script`: a plot drawn by a gnuplot script.
    Gnuplot { exp: String, script: String },
    /// `> :video e`: an animation.
    Video { exp: String, params: VideoParams },
    /// `> :audio e`: a sound.
    Audio { exp: String, params: AudioParams },
}

impl Action {
    /// The FutharkScript expression the directive evaluates.
    pub fn exp(&self) -> &str {
        match self {
            Action::Value { exp }
            | Action::Img { exp, .. }
            | Action::Plot { exp, .. }
            | Action::Gnuplot { exp, .. }
            | Action::Video { exp, .. }
            | Action::Audio { exp, .. } => exp,
        }
    }
}

/// The parameters of `:video`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VideoParams {
    /// Frames per second.
    pub fps: Option<u32>,
    /// Whether the animation repeats (`loop:` or `repeat:`).
    pub repeat: Option<bool>,
    /// Whether a player starts it by itself (shown as an attribute).
    pub autoplay: Option<bool>,
    /// `gif`, `apng`, ….
    pub format: Option<String>,
    /// The output file name.
    pub file: Option<String>,
}

/// The parameters of `:audio`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AudioParams {
    /// Samples per second.
    pub sampling_frequency: Option<u32>,
    /// The file format (`wav`).
    pub codec: Option<String>,
}

/// Splits the text of a literate program into its blocks.
pub fn split(text: &str) -> Vec<Block> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut blocks = vec![];
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if l.starts_with("-- >") {
            let start = i;
            i += 1;
            if body(l).trim_end().ends_with(';') {
                while i < lines.len()
                    && lines[i].starts_with("--")
                    && !uncomment(lines[i]).trim().is_empty()
                {
                    i += 1;
                }
            }
            blocks.push(Block::Directive(directive(start + 1, &lines[start..i])));
        } else if l.trim_end() == "-- ==" {
            let mut code = String::from("-- ==\n");
            i += 1;
            while i < lines.len() && lines[i].starts_with("--") {
                code.push_str("-- ");
                code.push_str(body(uncomment(lines[i])));
                code.push('\n');
                i += 1;
            }
            blocks.push(Block::Code(code));
        } else if l.starts_with("--") {
            let mut prose = String::new();
            while i < lines.len() && lines[i].starts_with("--") {
                prose.push_str(body(uncomment(lines[i])));
                prose.push('\n');
                i += 1;
            }
            blocks.push(Block::Prose(prose));
        } else {
            let start = i;
            while i < lines.len() && !lines[i].starts_with("--") {
                i += 1;
            }
            let run = &lines[start..i];
            let first = run.iter().position(|l| !l.trim().is_empty());
            let last = run.iter().rposition(|l| !l.trim().is_empty());
            let mut code = String::new();
            if let (Some(a), Some(b)) = (first, last) {
                for l in &run[a..=b] {
                    code.push_str(body(l));
                    code.push('\n');
                }
            }
            blocks.push(Block::Code(code));
        }
    }
    blocks
}

/// A line without its line break (`\n` or `\r\n`).
fn body(l: &str) -> &str {
    l.strip_suffix('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .unwrap_or(l)
}

/// A comment line without `--` and the one space after it.
fn uncomment(l: &str) -> &str {
    let l = &l[2..];
    l.strip_prefix(' ').unwrap_or(l)
}

/// The directive on `lines` (its `-- >` line first), at line `line`.
fn directive(line: usize, lines: &[&str]) -> Directive {
    let mut text = String::new();
    for l in lines {
        text.push_str(body(uncomment(l)));
        text.push('\n');
    }
    let first = body(&uncomment(lines[0])[1..]);
    let params: Vec<&str> = lines[1..].iter().map(|l| body(uncomment(l))).collect();
    Directive {
        line,
        text,
        parsed: parse(first, &params),
    }
}

/// Parses a directive: `head` is its first line after `>`, `params` the
/// lines of parameters after it.
fn parse(head: &str, params: &[&str]) -> Result<Parsed, String> {
    let mut rest = head.trim();
    let mut show = Show::Full;
    loop {
        if let Some(r) = word(rest, ":brief") {
            show = if show == Show::Covert {
                show
            } else {
                Show::Brief
            };
            rest = r;
        } else if let Some(r) = word(rest, ":covert") {
            show = Show::Covert;
            rest = r;
        } else {
            break;
        }
    }
    let (name, rest) = match rest.strip_prefix(':') {
        Some(r) => {
            let end = r.find(char::is_whitespace).unwrap_or(r.len());
            (&r[..end], r[end..].trim())
        }
        None => ("", rest),
    };
    let (exp, has_params) = match rest.strip_suffix(';') {
        Some(e) => (e.trim().to_string(), true),
        None => (rest.to_string(), false),
    };
    if exp.is_empty() {
        return Err(match name {
            "" => "a directive needs an expression".into(),
            n => format!(":{n} needs an expression"),
        });
    }
    if has_params && params.is_empty() && name != "gnuplot" {
        return Err("`;` must be followed by parameters on the next lines".into());
    }
    let pairs = || -> Result<Vec<(&str, &str)>, String> {
        params
            .iter()
            .map(|p| {
                p.split_once(':')
                    .map(|(k, v)| (k.trim(), v.trim()))
                    .ok_or_else(|| format!("expected a parameter `key: value`, found `{p}`"))
            })
            .collect()
    };
    let unknown = |k: &str| Err(format!("unknown parameter `{k}` of :{name}"));
    let action = match name {
        "" => {
            if has_params {
                return Err("`> e` takes no parameters".into());
            }
            Action::Value { exp }
        }
        "img" => {
            let mut file = None;
            for (k, v) in pairs()? {
                match k {
                    "file" => file = Some(file_name(v)?),
                    _ => return unknown(k),
                }
            }
            Action::Img { exp, file }
        }
        "plot2d" => {
            let mut size = None;
            for (k, v) in pairs()? {
                match k {
                    "size" => size = Some(size_param(v)?),
                    _ => return unknown(k),
                }
            }
            Action::Plot { exp, size }
        }
        "gnuplot" => {
            let mut script = String::new();
            for p in params {
                script.push_str(p);
                script.push('\n');
            }
            Action::Gnuplot { exp, script }
        }
        "video" => {
            let mut p = VideoParams::default();
            for (k, v) in pairs()? {
                match k {
                    "fps" => p.fps = Some(number(k, v).and_then(positive(k))?),
                    "loop" | "repeat" => p.repeat = Some(boolean(k, v)?),
                    "autoplay" => p.autoplay = Some(boolean(k, v)?),
                    "format" => p.format = Some(v.to_string()),
                    "file" => p.file = Some(file_name(v)?),
                    _ => return unknown(k),
                }
            }
            Action::Video { exp, params: p }
        }
        "audio" => {
            let mut p = AudioParams::default();
            for (k, v) in pairs()? {
                match k {
                    "sampling_frequency" => {
                        p.sampling_frequency = Some(number(k, v).and_then(positive(k))?)
                    }
                    "codec" => p.codec = Some(v.to_string()),
                    _ => return unknown(k),
                }
            }
            Action::Audio { exp, params: p }
        }
        other => return Err(format!("unknown directive `:{other}`")),
    };
    Ok(Parsed { show, action })
}

/// `s` without the word `w` at its start (and the spaces after it).
fn word<'a>(s: &'a str, w: &str) -> Option<&'a str> {
    let r = s.strip_prefix(w)?;
    (r.is_empty() || r.starts_with(char::is_whitespace)).then(|| r.trim_start())
}

fn number(key: &str, v: &str) -> Result<u32, String> {
    v.parse()
        .map_err(|_| format!("`{key}` must be a whole number, not `{v}`"))
}

fn positive(key: &str) -> impl Fn(u32) -> Result<u32, String> + '_ {
    move |n| match n {
        0 => Err(format!("`{key}` must be positive")),
        n => Ok(n),
    }
}

fn boolean(key: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("`{key}` must be true or false, not `{v}`")),
    }
}

/// `(w,h)`, both positive and at most 10000.
fn size_param(v: &str) -> Result<(u32, u32), String> {
    let bad = || format!("`size` must be `(width,height)` in pixels, not `{v}`");
    let inner = v
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(bad)?;
    let (w, h) = inner.split_once(',').ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if !(1..=10000).contains(&w) || !(1..=10000).contains(&h) {
        return Err(format!(
            "`size` must be between 1 and 10000 pixels each way, not `{v}`"
        ));
    }
    Ok((w, h))
}

/// A file name without a folder, spaces or leading dot.
fn file_name(v: &str) -> Result<String, String> {
    if v.is_empty() || v.contains(['/', '\\', ' ', '\t']) || v.starts_with('.') || v.contains(':') {
        return Err(format!(
            "`file` must be a plain file name (no folder, no spaces), not `{v}`"
        ));
    }
    Ok(v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(b: &Block) -> &Directive {
        match b {
            Block::Directive(d) => d,
            other => panic!("not a directive: {other:?}"),
        }
    }

    #[test]
    fn splits_prose_code_and_directives() {
        let text =
            "-- # Title\n--\n--text\n\ndef f (x: i32) = x\n\n\n-- > f 1\n\n-- ==\n--input { 1 }\n";
        let blocks = split(text);
        assert_eq!(
            blocks[..2],
            [
                Block::Prose("# Title\n\ntext\n".into()),
                Block::Code("def f (x: i32) = x\n".into()),
            ]
        );
        let d = dir(&blocks[2]);
        assert_eq!((d.line, d.text.as_str()), (8, "> f 1\n"));
        assert_eq!(
            d.parsed,
            Ok(Parsed {
                show: Show::Full,
                action: Action::Value { exp: "f 1".into() }
            })
        );
        assert_eq!(
            blocks[3..],
            [
                Block::Code(String::new()),
                Block::Code("-- ==\n-- input { 1 }\n".into())
            ]
        );
        assert_eq!(blocks.len(), 5);
    }

    #[test]
    fn a_directive_inside_prose_is_prose() {
        let blocks = split("-- a\n-- > f 1\n");
        assert_eq!(blocks, [Block::Prose("a\n> f 1\n".into())]);
    }

    #[test]
    fn parameters_follow_a_semicolon() {
        let blocks =
            split("-- > :video frames 3;\n-- fps: 5\n-- loop: false\n-- format: gif\n-- after\n");
        let d = dir(&blocks[0]);
        assert_eq!(
            d.text,
            "> :video frames 3;\nfps: 5\nloop: false\nformat: gif\nafter\n"
        );
        assert_eq!(
            d.parsed,
            Err("expected a parameter `key: value`, found `after`".into())
        );
        let blocks = split("-- > :plot2d f 1;\n-- size: (300,200)\n\n-- prose\n");
        assert_eq!(
            dir(&blocks[0]).parsed,
            Ok(Parsed {
                show: Show::Full,
                action: Action::Plot {
                    exp: "f 1".into(),
                    size: Some((300, 200))
                }
            })
        );
        assert_eq!(
            blocks[1..],
            [Block::Code(String::new()), Block::Prose("prose\n".into())]
        );
        let blocks = split("-- > :covert :img f 1;\n-- file: a.png\n");
        assert_eq!(
            dir(&blocks[0]).parsed,
            Ok(Parsed {
                show: Show::Covert,
                action: Action::Img {
                    exp: "f 1".into(),
                    file: Some("a.png".into())
                }
            })
        );
    }

    #[test]
    fn bad_directives_say_why() {
        let p = |s: &str| dir(&split(s)[0]).parsed.clone().unwrap_err();
        assert_eq!(p("-- > :nope f\n"), "unknown directive `:nope`");
        assert_eq!(p("-- > :img\n"), ":img needs an expression");
        assert_eq!(
            p("-- > :img f;\n-- file: ../x.png\n"),
            "`file` must be a plain file name (no folder, no spaces), not `../x.png`"
        );
        assert_eq!(
            p("-- > :plot2d f;\n-- size: 3\n"),
            "`size` must be `(width,height)` in pixels, not `3`"
        );
        assert_eq!(p("-- > :video f;\n-- fps: 0\n"), "`fps` must be positive");
    }
}
