//! Reading the test blocks of a `.fut` file.
//!
//! A test block is a run of comment lines starting at column 0 (`--`) that
//! contains a line consisting of just `==`. The lines before `==` are a
//! free-form description; the lines after it hold directives, read as a
//! stream of words in which line breaks matter only for the directives
//! that take the rest of their line (`entry:`, `error:`, `property:`,
//! `warning:`):
//!
//! ```text
//! tags { name... }
//! entry: name...
//! ["dataset name"] [modifier...] input { values } | input @ file
//!                                | random input { types } | script input { expr }
//!     [output { values } | output @ file | auto output | error: regex]
//! error: regex                  (no input before it: compile-time error)
//! property: name...
//! structure [backend] { ... }   (ignored: about the optimiser's output)
//! warning: regex                (ignored)
//! ```
//!
//! Values are kept as text and parsed when a case runs, so that a file
//! with a malformed value still reports every other case.

use regex::Regex;
use std::fmt;
use std::path::{Path, PathBuf};

/// All test blocks of one file, in source order.
#[derive(Clone, Debug, Default)]
pub struct TestSpec {
    pub blocks: Vec<TestBlock>,
}

/// One `-- ==` comment block.
#[derive(Clone, Debug)]
pub struct TestBlock {
    /// 1-based line of the `==` line.
    pub line: usize,
    pub description: String,
    pub tags: Vec<String>,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    /// Cases run on each of `entries` (`main` when no `entry:` was given).
    Cases {
        entries: Vec<String>,
        cases: Vec<Case>,
    },
    /// The program must fail to compile with an error matching `regex`.
    CompileError { regex: Regex, line: usize },
    /// `property:` tests: entry points `t -> bool` with `#[prop]`, run by
    /// [`crate::property`] (one case per name).
    Property { names: Vec<String>, line: usize },
}

/// One input with its expectation.
#[derive(Clone, Debug)]
pub struct Case {
    /// 1-based line where the case starts.
    pub line: usize,
    /// The quoted dataset name, if any.
    pub name: Option<String>,
    /// Modifiers before `input`: `compiled`, `nobench`, `no_python`, ...
    pub modifiers: Vec<String>,
    pub input: Input,
    pub expect: Expect,
}

#[derive(Clone, Debug)]
pub enum Input {
    Values(Values),
    /// `random input { [100]f32 3i64 }`: one item per argument, each a
    /// type with sizes or a constant.
    Random {
        items: Vec<String>,
        line: usize,
    },
    /// `script input { expr }` or `script input @ file`.
    Script(Values),
}

/// Values written in the test block or stored in a data file.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// The text between the braces and the line of its opening brace.
    Inline { text: String, line: usize },
    /// A path resolved against the directory of the `.fut` file.
    File(PathBuf),
}

#[derive(Clone, Debug)]
pub enum Expect {
    /// No expectation: the run must succeed; results are not checked.
    Success,
    Output(Values),
    /// `auto output`: Futhark generates the expected values with its C
    /// compiler. parad has no second implementation to ask, so the run
    /// must only succeed.
    AutoOutput,
    /// A run-time error whose message matches the regex.
    RunError(Regex),
}

/// A malformed test block.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecError {
    /// 1-based line of the offending text.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SpecError {}

impl TestSpec {
    /// Tags of every block together (`disable` in any block disables the file).
    pub fn tags(&self) -> impl Iterator<Item = &str> {
        self.blocks
            .iter()
            .flat_map(|b| b.tags.iter().map(String::as_str))
    }
}

/// Reads the test blocks of the source text of `path` (used to resolve
/// `@ file` references).
pub fn parse_spec(path: &Path, source: &str) -> Result<TestSpec, SpecError> {
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut blocks = vec![];
    for comment in comments(source) {
        let Some(eq) = comment.iter().position(|(_, text)| text.trim() == "==") else {
            continue;
        };
        let description = comment[..eq]
            .iter()
            .map(|(_, t)| t.trim())
            .collect::<Vec<_>>()
            .join("\n");
        let body = &comment[eq + 1..];
        let mut p = BlockParser::new(body, comment[eq].0, &dir);
        let block = p.block(comment[eq].0, description.trim().to_string())?;
        blocks.push(block);
    }
    Ok(TestSpec { blocks })
}

/// Maximal runs of lines starting with `--`, as (1-based line, text after
/// the dashes).
fn comments(source: &str) -> Vec<Vec<(usize, &str)>> {
    let mut out = vec![];
    let mut cur: Vec<(usize, &str)> = vec![];
    for (i, line) in source.lines().enumerate() {
        match line.strip_prefix("--") {
            Some(rest) => cur.push((i + 1, rest)),
            None => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A cursor over the lines of a block body.
struct BlockParser<'a> {
    lines: &'a [(usize, &'a str)],
    /// Index into `lines` and byte offset within that line.
    row: usize,
    col: usize,
    /// Line to blame at the end of the block.
    last_line: usize,
    dir: &'a Path,
}

impl<'a> BlockParser<'a> {
    fn new(lines: &'a [(usize, &'a str)], eq_line: usize, dir: &'a Path) -> Self {
        let last_line = lines.last().map_or(eq_line, |l| l.0);
        BlockParser {
            lines,
            row: 0,
            col: 0,
            last_line,
            dir,
        }
    }

    fn line(&self) -> usize {
        self.lines.get(self.row).map_or(self.last_line, |l| l.0)
    }

    fn err<T>(&self, message: impl Into<String>) -> Result<T, SpecError> {
        Err(SpecError {
            line: self.line(),
            message: message.into(),
        })
    }

    /// Skips whitespace and line breaks; the current character after it.
    fn peek(&mut self) -> Option<char> {
        while let Some(&(_, text)) = self.lines.get(self.row) {
            let rest = &text[self.col..];
            let trimmed = rest.trim_start();
            self.col += rest.len() - trimmed.len();
            if let Some(c) = trimmed.chars().next() {
                return Some(c);
            }
            self.row += 1;
            self.col = 0;
        }
        None
    }

    fn rest(&self) -> &'a str {
        &self.lines[self.row].1[self.col..]
    }

    /// The next word: a run of characters that are not whitespace or
    /// braces, or a single brace. Does not consume it.
    fn peek_word(&mut self) -> Option<&'a str> {
        let c = self.peek()?;
        let rest = self.rest();
        if c == '{' || c == '}' {
            return Some(&rest[..1]);
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{' || c == '}')
            .unwrap_or(rest.len());
        Some(&rest[..end])
    }

    fn advance(&mut self, bytes: usize) {
        self.col += bytes;
    }

    fn take_word(&mut self) -> Option<&'a str> {
        let w = self.peek_word()?;
        self.advance(w.len());
        Some(w)
    }

    fn expect_word(&mut self, w: &str) -> Result<(), SpecError> {
        match self.peek_word() {
            Some(x) if x == w => {
                self.advance(x.len());
                Ok(())
            }
            Some(x) => self.err(format!("expected `{w}`, found `{x}`")),
            None => self.err(format!("expected `{w}` before the end of the test block")),
        }
    }

    /// The rest of the current line, trimmed; moves to the next line.
    fn rest_of_line(&mut self) -> &'a str {
        let Some(&(_, text)) = self.lines.get(self.row) else {
            return "";
        };
        let r = text[self.col..].trim();
        self.row += 1;
        self.col = 0;
        r
    }

    /// `{ ... }` with nested braces, possibly over several lines; returns
    /// the text inside (lines joined with newlines) and the opening line.
    fn braced(&mut self, what: &str) -> Result<(String, usize), SpecError> {
        if self.peek() != Some('{') {
            let found = self
                .peek_word()
                .map_or("the end of the block".to_string(), |w| format!("`{w}`"));
            return self.err(format!("expected `{{` to start the {what}, found {found}"));
        }
        let line = self.line();
        self.advance(1);
        let mut depth = 1;
        let mut text = String::new();
        while let Some(&(_, l)) = self.lines.get(self.row) {
            let rest = &l[self.col..];
            for (i, c) in rest.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            text.push_str(&rest[..i]);
                            self.col += i + 1;
                            return Ok((text, line));
                        }
                    }
                    _ => {}
                }
            }
            text.push_str(rest);
            text.push('\n');
            self.row += 1;
            self.col = 0;
        }
        Err(SpecError {
            line,
            message: format!("unclosed `{{` in the {what}"),
        })
    }

    /// `{ values }` or `@ file`.
    fn values(&mut self, what: &str) -> Result<Values, SpecError> {
        if self.peek() == Some('@') {
            self.advance(1);
            match self.take_word() {
                Some(f) if f != "{" && f != "}" => Ok(Values::File(self.dir.join(f))),
                _ => self.err(format!("expected a file name after `@` in the {what}")),
            }
        } else {
            let (text, line) = self.braced(what)?;
            Ok(Values::Inline { text, line })
        }
    }

    /// An expected error's pattern. `.` matches newlines too, as in
    /// Futhark's tests: a pattern may span an error's backtrace.
    fn regex(&mut self, line: usize) -> Result<Regex, SpecError> {
        let text = self.rest_of_line();
        regex::RegexBuilder::new(text)
            .dot_matches_new_line(true)
            .build()
            .map_err(|e| SpecError {
                line,
                message: format!("invalid regular expression `{text}`: {e}"),
            })
    }

    fn block(&mut self, line: usize, description: String) -> Result<TestBlock, SpecError> {
        let mut block = TestBlock {
            line,
            description,
            tags: vec![],
            items: vec![],
        };
        let mut entries = vec!["main".to_string()];
        // Whether `entries` has had cases since it was set.
        let mut have_cases = false;
        while let Some(word) = self.peek_word() {
            let line = self.line();
            match word {
                "tags" => {
                    self.advance(word.len());
                    let (text, _) = self.braced("tag list")?;
                    block
                        .tags
                        .extend(text.split_whitespace().map(str::to_string));
                }
                "entry:" => {
                    self.advance(word.len());
                    let names: Vec<String> = self
                        .rest_of_line()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    if names.is_empty() {
                        return Err(SpecError {
                            line,
                            message: "`entry:` names no entry point".into(),
                        });
                    }
                    entries = names;
                    have_cases = false;
                }
                "error:" => {
                    self.advance(word.len());
                    if block.items.iter().any(|i| matches!(i, Item::Cases { .. })) {
                        return Err(SpecError {
                            line,
                            message: "`error:` must follow an input (a compile-time `error:` cannot be mixed with input cases)".into(),
                        });
                    }
                    let regex = self.regex(line)?;
                    block.items.push(Item::CompileError { regex, line });
                }
                "property:" => {
                    self.advance(word.len());
                    let names = self
                        .rest_of_line()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                    block.items.push(Item::Property { names, line });
                }
                "warning:" => {
                    self.advance(word.len());
                    self.rest_of_line();
                }
                "structure" => {
                    self.advance(word.len());
                    if self.peek() != Some('{') {
                        self.take_word();
                    }
                    self.braced("structure test")?;
                }
                "output" | "auto" => {
                    return self.err(format!("`{word}` without a preceding `input`"));
                }
                _ => {
                    if block
                        .items
                        .iter()
                        .any(|i| matches!(i, Item::CompileError { .. }))
                    {
                        return self.err("input cases cannot follow a compile-time `error:`");
                    }
                    let case = self.case()?;
                    match block.items.last_mut() {
                        Some(Item::Cases { cases, .. }) if have_cases => cases.push(case),
                        _ => block.items.push(Item::Cases {
                            entries: entries.clone(),
                            cases: vec![case],
                        }),
                    }
                    have_cases = true;
                }
            }
        }
        Ok(block)
    }

    fn case(&mut self) -> Result<Case, SpecError> {
        let line = self.line();
        let mut name = None;
        if self.peek() == Some('"') {
            let rest = self.rest();
            let Some(end) = rest[1..].find('"') else {
                return self.err("unterminated dataset name");
            };
            name = Some(rest[1..1 + end].to_string());
            self.advance(end + 2);
        }
        let mut modifiers = vec![];
        loop {
            match self.peek_word() {
                Some("input") => break,
                Some(w) if is_modifier(w) => {
                    modifiers.push(w.to_string());
                    self.advance(w.len());
                }
                Some(w) => {
                    return match modifiers.last() {
                        Some(m) => self.err(format!("expected `input` after `{m}`, found `{w}`")),
                        None => {
                            self.err(format!("expected `input` or a test directive, found `{w}`"))
                        }
                    }
                }
                None => return self.err("expected `input` before the end of the test block"),
            }
        }
        self.expect_word("input")?;
        let input = if modifiers.iter().any(|m| m == "random") {
            let (text, line) = self.braced("random input")?;
            Input::Random {
                items: text.split_whitespace().map(str::to_string).collect(),
                line,
            }
        } else if modifiers.iter().any(|m| m == "script") {
            Input::Script(self.values("script input")?)
        } else {
            Input::Values(self.values("input")?)
        };
        let expect = match self.peek_word() {
            Some("output") => {
                self.advance("output".len());
                Expect::Output(self.values("output")?)
            }
            Some("auto") => {
                self.advance("auto".len());
                self.expect_word("output")?;
                Expect::AutoOutput
            }
            Some("error:") => {
                let l = self.line();
                self.advance("error:".len());
                Expect::RunError(self.regex(l)?)
            }
            _ => Expect::Success,
        };
        Ok(Case {
            line,
            name,
            modifiers,
            input,
            expect,
        })
    }
}

/// Words allowed between a dataset name and `input`: `random`, `script`,
/// `compiled`, `nobench`, `no_<backend>` and other plain tags.
fn is_modifier(w: &str) -> bool {
    !w.is_empty()
        && !w.ends_with(':')
        && !matches!(w, "output" | "tags" | "structure" | "auto")
        && w.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<TestSpec, SpecError> {
        parse_spec(Path::new("dir/prog.fut"), src)
    }

    fn cases(item: &Item) -> (&[String], &[Case]) {
        match item {
            Item::Cases { entries, cases } => (entries, cases),
            other => panic!("expected cases, got {other:?}"),
        }
    }

    fn inline(v: &Values) -> &str {
        match v {
            Values::Inline { text, .. } => text.trim(),
            other => panic!("expected inline values, got {other:?}"),
        }
    }

    #[test]
    fn file_without_block_has_no_blocks() {
        let s = parse("-- just a comment\n-- with two lines\ndef main (x: i32) = x\n").unwrap();
        assert!(s.blocks.is_empty());
    }

    #[test]
    fn simple_input_output() {
        let src = "-- Adds one.\n-- ==\n-- input { 1 2 } output { 3 }\n-- input { [1,2] 0i64 }\n-- output { 4 }\ndef main = 0\n";
        let s = parse(src).unwrap();
        assert_eq!(s.blocks.len(), 1);
        let b = &s.blocks[0];
        assert_eq!(b.line, 2);
        assert_eq!(b.description, "Adds one.");
        assert_eq!(b.items.len(), 1);
        let (entries, cs) = cases(&b.items[0]);
        assert_eq!(entries, ["main"]);
        assert_eq!(cs.len(), 2);
        assert_eq!(cs[0].line, 3);
        let Input::Values(v) = &cs[0].input else {
            panic!()
        };
        assert_eq!(inline(v), "1 2");
        let Expect::Output(o) = &cs[0].expect else {
            panic!()
        };
        assert_eq!(inline(o), "3");
        assert_eq!(cs[1].line, 4);
        let Expect::Output(o) = &cs[1].expect else {
            panic!()
        };
        assert_eq!(inline(o), "4");
        assert_eq!(
            *o,
            Values::Inline {
                text: " 4 ".into(),
                line: 5
            }
        );
    }

    #[test]
    fn no_space_after_dashes() {
        let s = parse("--==\n--input {1} output {2}\n").unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        assert_eq!(cs.len(), 1);
    }

    #[test]
    fn empty_values() {
        let s = parse("-- ==\n-- input { } output { }\n-- input {} output {}\n").unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        assert_eq!(cs.len(), 2);
        let Input::Values(v) = &cs[1].input else {
            panic!()
        };
        assert_eq!(inline(v), "");
    }

    #[test]
    fn multi_line_values() {
        let src =
            "-- ==\n-- input {\n--   [[1, 2],\n--    [3, 4]]\n-- }\n-- output { [4,\n-- 6] }\n";
        let s = parse(src).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        let Input::Values(Values::Inline { text, line }) = &cs[0].input else {
            panic!()
        };
        assert_eq!(*line, 2);
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words, ["[[1,", "2],", "[3,", "4]]"]);
        let Expect::Output(o) = &cs[0].expect else {
            panic!()
        };
        assert_eq!(
            inline(o).split_whitespace().collect::<Vec<_>>(),
            ["[4,", "6]"]
        );
    }

    #[test]
    fn entries_and_tags() {
        let src = "-- ==\n-- tags { fast no_opencl }\n-- entry: f g\n-- input { 1 } output { 2 }\n-- entry: h\n-- input { 3 }\n-- input { 4 }\n";
        let s = parse(src).unwrap();
        let b = &s.blocks[0];
        assert_eq!(b.tags, ["fast", "no_opencl"]);
        assert_eq!(b.items.len(), 2);
        let (e0, c0) = cases(&b.items[0]);
        assert_eq!(e0, ["f", "g"]);
        assert_eq!(c0.len(), 1);
        let (e1, c1) = cases(&b.items[1]);
        assert_eq!(e1, ["h"]);
        assert_eq!(c1.len(), 2);
        assert!(matches!(c1[0].expect, Expect::Success));
    }

    #[test]
    fn several_blocks_each_with_entries() {
        let src = "def add x y = x + y\n\n-- ==\n-- entry: inc\n-- input { 1 } output { 2 }\nentry inc x = x + 1\n\n-- Second.\n-- ==\n-- entry: dec\n-- input { 1 } output { 0 }\nentry dec x = x - 1\n";
        let s = parse(src).unwrap();
        assert_eq!(s.blocks.len(), 2);
        assert_eq!(cases(&s.blocks[0].items[0]).0, ["inc"]);
        assert_eq!(cases(&s.blocks[1].items[0]).0, ["dec"]);
        assert_eq!(s.blocks[1].line, 9);
        assert_eq!(s.blocks[1].description, "Second.");
    }

    #[test]
    fn modifiers_and_names() {
        let src = "-- ==\n-- compiled input { 1 } output { 1 }\n-- \"big one\" no_python nobench compiled input { 2 }\n-- no_python no_wasm compiled random input { [10]f32 } auto output\n";
        let s = parse(src).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        assert_eq!(cs[0].modifiers, ["compiled"]);
        assert_eq!(cs[1].name.as_deref(), Some("big one"));
        assert_eq!(cs[1].modifiers, ["no_python", "nobench", "compiled"]);
        assert_eq!(
            cs[2].modifiers,
            ["no_python", "no_wasm", "compiled", "random"]
        );
        assert!(matches!(cs[2].expect, Expect::AutoOutput));
    }

    #[test]
    fn random_input() {
        let src = "-- ==\n-- random input { [100]f32 [10][2]i64 3i64 } output { 1 }\n-- random input {11264000000i64} auto output\n";
        let s = parse(src).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        let Input::Random { items, line } = &cs[0].input else {
            panic!()
        };
        assert_eq!(items, &["[100]f32", "[10][2]i64", "3i64"]);
        assert_eq!(*line, 2);
        let Input::Random { items, .. } = &cs[1].input else {
            panic!()
        };
        assert_eq!(items, &["11264000000i64"]);
    }

    #[test]
    fn files_resolve_against_program_dir() {
        let src = "-- ==\n-- input @ data/a.in output @ data/a.out.gz\n";
        let s = parse(src).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        let Input::Values(Values::File(i)) = &cs[0].input else {
            panic!()
        };
        assert_eq!(i, Path::new("dir/data/a.in"));
        let Expect::Output(Values::File(o)) = &cs[0].expect else {
            panic!()
        };
        assert_eq!(o, Path::new("dir/data/a.out.gz"));
    }

    #[test]
    fn run_time_error() {
        let src = "-- ==\n-- input { [1] 5i64 }\n-- error: Index \\[5\\] out of bounds\n-- input { [1] 0i64 } output { 1 }\n";
        let s = parse(src).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        assert_eq!(cs.len(), 2);
        let Expect::RunError(r) = &cs[0].expect else {
            panic!()
        };
        assert!(r.is_match("Error: Index [5] out of bounds for array of 1"));
    }

    #[test]
    fn compile_time_error() {
        let s =
            parse("-- Bad types.\n-- ==\n-- error: Couldn't match.*i32\n\ndef main = 1 + true\n")
                .unwrap();
        let b = &s.blocks[0];
        let Item::CompileError { regex, line } = &b.items[0] else {
            panic!()
        };
        assert_eq!(*line, 3);
        assert!(regex.is_match("Couldn't match expected type i32"));
    }

    #[test]
    fn script_input_and_property() {
        let s = parse("-- ==\n-- script input @ gen.futharkscript\n").unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        assert!(
            matches!(&cs[0].input, Input::Script(Values::File(f)) if f == Path::new("dir/gen.futharkscript"))
        );
        let src2 = "-- ==\n-- script input { mk {a=1} 10i64 } output { 1 }\n\n-- ==\n-- property: prop_a prop_b\n";
        let s = parse(src2).unwrap();
        let (_, cs) = cases(&s.blocks[0].items[0]);
        let Input::Script(v) = &cs[0].input else {
            panic!()
        };
        assert_eq!(inline(v), "mk {a=1} 10i64");
        let Item::Property { names, line } = &s.blocks[1].items[0] else {
            panic!()
        };
        assert_eq!(names, &["prop_a", "prop_b"]);
        assert_eq!(*line, 5);
    }

    #[test]
    fn structure_and_warning_are_ignored() {
        let src = "-- ==\n-- input { 1 } output { 1 }\n-- structure gpu {\n--   /If/True/SegMap 1\n--}\n-- structure { Map 2 }\n-- warning: unused\n";
        let s = parse(src).unwrap();
        assert_eq!(s.blocks[0].items.len(), 1);
        assert_eq!(cases(&s.blocks[0].items[0]).1.len(), 1);
        let s = parse("-- ==\n-- warning: ambiguous\n").unwrap();
        assert!(s.blocks[0].items.is_empty());
    }

    #[test]
    fn indented_comments_are_not_blocks() {
        let s = parse("def f =\n  -- ==\n  -- input { 1 }\n  1\n").unwrap();
        assert!(s.blocks.is_empty());
    }

    fn error_line(src: &str) -> (usize, String) {
        let e = parse(src).unwrap_err();
        (e.line, e.message)
    }

    #[test]
    fn errors_have_line_numbers() {
        let (l, m) = error_line("def x = 1\n-- ==\n-- input { 1 }\n-- outptu { 2 }\n");
        assert_eq!(l, 4);
        assert!(m.contains("outptu"), "{m}");

        let (l, m) = error_line("-- ==\n-- input { 1 \n-- output { 2 }\n");
        assert_eq!((l, m.contains("unclosed")), (2, true), "{m}");

        let (l, m) = error_line("-- ==\n-- output { 2 }\n");
        assert_eq!(l, 2);
        assert!(m.contains("without a preceding `input`"), "{m}");

        let (l, m) = error_line("-- ==\n-- input 1 2\n");
        assert_eq!(l, 2);
        assert!(m.contains("expected `{`"), "{m}");

        let (l, m) = error_line("-- ==\n--\n-- error: (unclosed\n");
        assert_eq!(l, 3);
        assert!(m.contains("invalid regular expression"), "{m}");

        let (l, _) = error_line("-- ==\n-- input { 1 } output { 2 }\n-- error: x\n");
        assert_eq!(l, 3);

        let (l, _) = error_line("-- ==\n-- error: x\n-- input { 1 }\n");
        assert_eq!(l, 3);

        let (l, m) = error_line("-- ==\n-- entry:\n-- input { 1 }\n");
        assert_eq!(l, 2);
        assert!(m.contains("entry"), "{m}");

        let (l, m) = error_line("-- ==\n-- compiled\n");
        assert_eq!(l, 2);
        assert!(m.contains("expected `input`"), "{m}");

        let (l, m) = error_line("-- ==\n-- input @\n");
        assert_eq!(l, 2);
        assert!(m.contains("file name"), "{m}");

        let (l, m) = error_line("-- ==\n-- random input { i32 } auto outptu\n");
        assert_eq!(l, 2);
        assert!(m.contains("outptu"), "{m}");
    }
}
