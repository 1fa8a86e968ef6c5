//! FutharkScript inputs (`script input { mkdata 100i64 }`): a small
//! expression language whose value is a test case's arguments. It has
//! values written as in data files, calls of the program's entry points,
//! `let` bindings, tuples, records and the built-ins `$loaddata` and
//! `$loadbytes`.
//!
//! A value is a flat list of values, as entry points take and return them
//! (tuples and records unpacked, record fields in name order), so the
//! result of one entry point can be passed to another whatever its type.
//! A literal takes its type from the parameter it is passed for when it
//! has no suffix (`foo 10` with `foo (n: i64)`).

use crate::spec::{Case, Input, Values};
use parad_driver::{DriverError, Loaded};
use parad_values::{ArrayData, ArrayValue, Value, ValueType};
use std::path::Path;

/// Why a case's arguments could not be produced.
pub enum InputError {
    /// Something this runner does not support (the case is skipped).
    Unsupported(String),
    /// The input is malformed, or a call it makes failed.
    Bad(String),
}

/// The arguments of a case of the program at `path` for an entry point
/// whose parameters have types `params`: its values, or what its
/// FutharkScript input computes with `program`.
pub fn case_args(
    path: &Path,
    case: &Case,
    program: &mut dyn Loaded,
    params: &[ValueType],
) -> Result<Vec<Value>, InputError> {
    let Input::Script(v) = &case.input else {
        return match crate::data::case_input(path, case, params) {
            Ok(Some(args)) => Ok(args),
            Ok(None) => Err(InputError::Unsupported("this input".into())),
            Err(e) => Err(InputError::Bad(e)),
        };
    };
    let dir = path.parent().unwrap_or(Path::new(""));
    let text = match v {
        Values::Inline { text, .. } => text.clone(),
        Values::File(f) => std::fs::read_to_string(f)
            .map_err(|e| InputError::Bad(format!("{}: {e}", f.display())))?,
    };
    eval(&text, dir, program, params).map_err(|e| match e {
        ScriptError::Unsupported(why) => InputError::Unsupported(why),
        ScriptError::Bad(m) => InputError::Bad(format!("script: {m}")),
        ScriptError::Call(f, e) => {
            InputError::Bad(format!("script: `{f}` failed:\n{}", e.render()))
        }
    })
}

/// Why a script produced no value.
pub enum ScriptError {
    /// The script is malformed or names something unknown.
    Bad(String),
    /// An entry point it called failed.
    Call(String, Box<DriverError>),
    /// Something this runner does not support (a built-in such as
    /// `$loadimg`, or an entry point the backend cannot run).
    Unsupported(String),
}

/// The arguments that script `text` denotes; `params` are the types of the
/// parameters of the entry point they are for; `dir` is where file names
/// are relative to.
pub fn eval(
    text: &str,
    dir: &Path,
    program: &mut dyn Loaded,
    params: &[ValueType],
) -> Result<Vec<Value>, ScriptError> {
    let e = parse(text)?;
    let mut ev = Eval {
        dir,
        program,
        env: vec![],
    };
    ev.eval(&e, params)
}

/// A script's value with the structure the script writes: the tuples and
/// records written in it (outside calls) as such; the value of a call,
/// name or literal as the flat list of values the entry point returns.
/// `futhark literate` needs this to label the series of a plot (a record
/// written in the directive) and to print values.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptValue {
    /// The values of a call, name or literal (several for an entry point
    /// that returns a tuple).
    Flat(Vec<Value>),
    /// A tuple written in the script.
    Tuple(Vec<ScriptValue>),
    /// A record written in the script, its fields in name order.
    Record(Vec<(String, ScriptValue)>),
}

impl ScriptValue {
    /// All the values, flat, in order (a record's fields in name order).
    pub fn flatten(self) -> Vec<Value> {
        match self {
            ScriptValue::Flat(vs) => vs,
            ScriptValue::Tuple(xs) => xs.into_iter().flat_map(ScriptValue::flatten).collect(),
            ScriptValue::Record(fs) => fs.into_iter().flat_map(|(_, v)| v.flatten()).collect(),
        }
    }
}

/// The value of the script `text` with its written structure (see
/// [`ScriptValue`]); literals without a suffix take their default type.
/// `dir` is where file names are relative to.
pub fn eval_structured(
    text: &str,
    dir: &Path,
    program: &mut dyn Loaded,
) -> Result<ScriptValue, ScriptError> {
    let e = parse(text)?;
    let mut ev = Eval {
        dir,
        program,
        env: vec![],
    };
    ev.structured(&e)
}

/// The expression of a whole script.
fn parse(text: &str) -> Result<Exp, ScriptError> {
    let toks = lex(text)?;
    let mut p = Parser { toks, pos: 0 };
    let e = p.exp()?;
    if p.pos < p.toks.len() {
        return Err(bad(format!("unexpected `{}`", p.toks[p.pos].text())));
    }
    Ok(e)
}

fn bad(msg: impl Into<String>) -> ScriptError {
    ScriptError::Bad(msg.into())
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Name(String),
    /// A value as written in a data file (number, array, `empty(…)`,
    /// `true`, `false`).
    Lit(String),
    Str(String),
    Builtin(String),
    Sym(char),
}

impl Tok {
    fn text(&self) -> String {
        match self {
            Tok::Name(s) | Tok::Lit(s) => s.clone(),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Builtin(s) => format!("${s}"),
            Tok::Sym(c) => c.to_string(),
        }
    }
}

fn lex(text: &str) -> Result<Vec<Tok>, ScriptError> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let mut i = 0;
    let word = |i: &mut usize, ok: &dyn Fn(char) -> bool| {
        let start = *i;
        while *i < cs.len() && ok(cs[*i]) {
            *i += 1;
        }
        cs[start..*i].iter().collect::<String>()
    };
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '-' && cs.get(i + 1) == Some(&'-') {
            while i < cs.len() && cs[i] != '\n' {
                i += 1;
            }
        } else if c == '"' {
            let end = cs[i + 1..]
                .iter()
                .position(|&d| d == '"')
                .ok_or_else(|| bad("unterminated string"))?;
            out.push(Tok::Str(cs[i + 1..i + 1 + end].iter().collect()));
            i += end + 2;
        } else if c == '$' {
            i += 1;
            out.push(Tok::Builtin(word(&mut i, &|c| {
                c.is_alphanumeric() || c == '_'
            })));
        } else if c == '[' || (c == 'e' && text_at(&cs, i, "empty(")) {
            // A whole array value: up to the matching bracket.
            let (open, close) = if c == '[' { ('[', ']') } else { ('(', ')') };
            let start = i;
            let mut depth = 0;
            while i < cs.len() {
                if cs[i] == open {
                    depth += 1;
                } else if cs[i] == close {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                i += 1;
            }
            if i == cs.len() {
                return Err(bad(format!("unclosed `{open}`")));
            }
            i += 1;
            out.push(Tok::Lit(cs[start..i].iter().collect()));
        } else if c.is_ascii_digit()
            || (c == '-' && cs.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            i += 1;
            while i < cs.len() {
                let d = cs[i];
                let exp_sign = (d == '-' || d == '+')
                    && matches!(cs[i - 1], 'e' | 'E')
                    && !text_at(&cs, start, "0x");
                if d.is_alphanumeric() || d == '.' || d == '_' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(Tok::Lit(cs[start..i].iter().collect()));
        } else if c.is_alphabetic() || c == '_' {
            let w = word(&mut i, &|c| c.is_alphanumeric() || c == '_' || c == '\'');
            if w == "true" || w == "false" {
                out.push(Tok::Lit(w));
            } else {
                out.push(Tok::Name(w));
            }
        } else if "(){},=".contains(c) {
            out.push(Tok::Sym(c));
            i += 1;
        } else {
            return Err(bad(format!("unexpected character `{c}`")));
        }
    }
    Ok(out)
}

fn text_at(cs: &[char], i: usize, s: &str) -> bool {
    s.chars()
        .enumerate()
        .all(|(k, c)| cs.get(i + k) == Some(&c))
}

enum Exp {
    Lit(String),
    Var(String),
    /// An entry point applied to arguments (at least one; a name alone
    /// is a `Var`, which is a call if no `let` binds it).
    Call(String, Vec<Exp>),
    Tuple(Vec<Exp>),
    Record(Vec<(String, Exp)>),
    Let(Vec<String>, Box<Exp>, Box<Exp>),
    Builtin(String, String),
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn next(&mut self) -> Result<Tok, ScriptError> {
        let t = self
            .peek()
            .cloned()
            .ok_or_else(|| bad("unexpected end of script"))?;
        self.pos += 1;
        Ok(t)
    }

    fn expect(&mut self, want: Tok) -> Result<(), ScriptError> {
        let t = self.next()?;
        if t != want {
            return Err(bad(format!(
                "expected `{}`, found `{}`",
                want.text(),
                t.text()
            )));
        }
        Ok(())
    }

    /// Items separated by commas up to `close` (the opening bracket is
    /// already read; `close` is consumed; the list may be empty).
    fn list<T>(
        &mut self,
        close: char,
        mut item: impl FnMut(&mut Self) -> Result<T, ScriptError>,
    ) -> Result<Vec<T>, ScriptError> {
        let mut out = vec![];
        if self.peek() == Some(&Tok::Sym(close)) {
            self.pos += 1;
            return Ok(out);
        }
        loop {
            out.push(item(self)?);
            match self.next()? {
                Tok::Sym(',') => {}
                Tok::Sym(c) if c == close => return Ok(out),
                t => {
                    return Err(bad(format!(
                        "expected `,` or `{close}`, found `{}`",
                        t.text()
                    )))
                }
            }
        }
    }

    fn name(&mut self, what: &str) -> Result<String, ScriptError> {
        match self.next()? {
            Tok::Name(n) => Ok(n),
            t => Err(bad(format!("expected {what}, found `{}`", t.text()))),
        }
    }

    fn exp(&mut self) -> Result<Exp, ScriptError> {
        if self.peek() == Some(&Tok::Name("let".into())) {
            self.pos += 1;
            let names = match self.next()? {
                Tok::Name(n) => vec![n],
                Tok::Sym('(') => self.list(')', |p| p.name("a name"))?,
                t => return Err(bad(format!("expected a pattern, found `{}`", t.text()))),
            };
            self.expect(Tok::Sym('='))?;
            let rhs = self.exp()?;
            self.expect(Tok::Name("in".into()))?;
            let body = self.exp()?;
            return Ok(Exp::Let(names, Box::new(rhs), Box::new(body)));
        }
        match self.peek() {
            Some(Tok::Name(f)) if f != "in" => {
                let f = f.clone();
                self.pos += 1;
                let mut args = vec![];
                while let Some(a) = self.atom()? {
                    args.push(a);
                }
                Ok(match args.is_empty() {
                    true => Exp::Var(f),
                    false => Exp::Call(f, args),
                })
            }
            Some(Tok::Builtin(b)) => {
                let b = b.clone();
                self.pos += 1;
                match self.next()? {
                    Tok::Str(s) => Ok(Exp::Builtin(b, s)),
                    t => Err(bad(format!("${b} takes a file name, not `{}`", t.text()))),
                }
            }
            _ => self.atom()?.ok_or_else(|| bad("expected an expression")),
        }
    }

    /// An argument: a value, a name, or a parenthesised, tuple or record
    /// expression; `None` where none starts.
    fn atom(&mut self) -> Result<Option<Exp>, ScriptError> {
        let e = match self.peek() {
            Some(Tok::Lit(l)) => Exp::Lit(l.clone()),
            Some(Tok::Name(n)) if n != "in" && n != "let" => Exp::Var(n.clone()),
            Some(Tok::Sym('(')) => {
                self.pos += 1;
                let mut es = self.list(')', Self::exp)?;
                return Ok(Some(if es.len() == 1 {
                    es.pop().expect("one element")
                } else {
                    Exp::Tuple(es)
                }));
            }
            Some(Tok::Sym('{')) => {
                self.pos += 1;
                let fs = self.list('}', |p| {
                    let name = p.name("a field name")?;
                    p.expect(Tok::Sym('='))?;
                    Ok((name, p.exp()?))
                })?;
                return Ok(Some(Exp::Record(fs)));
            }
            _ => return Ok(None),
        };
        self.pos += 1;
        Ok(Some(e))
    }
}

struct Eval<'a> {
    dir: &'a Path,
    program: &'a mut dyn Loaded,
    env: Vec<(String, Vec<Value>)>,
}

impl Eval<'_> {
    /// The values of `e`; `types` are the types they are expected to have
    /// (for unsuffixed literals; may be empty or longer than needed).
    fn eval(&mut self, e: &Exp, types: &[ValueType]) -> Result<Vec<Value>, ScriptError> {
        match e {
            Exp::Lit(text) => {
                let want = types.get(..1).unwrap_or(&[]);
                let mut vs = parad_values::read_values_as(text.as_bytes(), want)
                    .map_err(|e| bad(format!("`{text}`: {}", e.message)))?;
                match vs.len() {
                    1 => Ok(vec![vs.pop().expect("one value")]),
                    _ => Err(bad(format!("`{text}` is not one value"))),
                }
            }
            Exp::Var(n) => {
                if let Some((_, v)) = self.env.iter().rev().find(|(m, _)| m == n) {
                    return Ok(v.clone());
                }
                self.call(n, &[])
            }
            Exp::Call(f, args) => self.call(f, args),
            Exp::Tuple(es) => self.concat(es.iter(), types),
            Exp::Record(fs) => {
                let mut sorted: Vec<&(String, Exp)> = fs.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                self.concat(sorted.into_iter().map(|(_, e)| e), types)
            }
            Exp::Let(names, rhs, body) => {
                let v = self.eval(rhs, &[])?;
                let mark = self.env.len();
                self.bind(names, v)?;
                let r = self.eval(body, types);
                self.env.truncate(mark);
                r
            }
            Exp::Builtin(b, file) => {
                if b != "loaddata" && b != "loadbytes" {
                    return Err(ScriptError::Unsupported(format!("the built-in ${b}")));
                }
                let path = self.dir.join(file);
                let bytes =
                    std::fs::read(&path).map_err(|e| bad(format!("${b} \"{file}\": {e}")))?;
                match b.as_str() {
                    "loaddata" => parad_values::read_values_as(&bytes, types)
                        .map_err(|e| bad(format!("${b} \"{file}\": {}", e.message))),
                    "loadbytes" => {
                        let n = bytes.len();
                        let a = ArrayValue::new(vec![n], ArrayData::U8(bytes))
                            .expect("one dimension of the data's length");
                        Ok(vec![Value::Array(a)])
                    }
                    _ => unreachable!("built-in checked above"),
                }
            }
        }
    }

    /// The value of `e` with the tuples and records it writes kept.
    fn structured(&mut self, e: &Exp) -> Result<ScriptValue, ScriptError> {
        match e {
            Exp::Tuple(es) => Ok(ScriptValue::Tuple(
                es.iter()
                    .map(|e| self.structured(e))
                    .collect::<Result<_, _>>()?,
            )),
            Exp::Record(fs) => {
                let mut sorted: Vec<&(String, Exp)> = fs.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                let mut out = vec![];
                for (name, e) in sorted {
                    out.push((name.clone(), self.structured(e)?));
                }
                Ok(ScriptValue::Record(out))
            }
            Exp::Let(names, rhs, body) => {
                let v = self.eval(rhs, &[])?;
                let mark = self.env.len();
                self.bind(names, v)?;
                let r = self.structured(body);
                self.env.truncate(mark);
                r
            }
            _ => Ok(ScriptValue::Flat(self.eval(e, &[])?)),
        }
    }

    /// Binds `names` to `v`: one name to all of it, or one name per value.
    fn bind(&mut self, names: &[String], v: Vec<Value>) -> Result<(), ScriptError> {
        if names.len() == 1 {
            self.env.push((names[0].clone(), v));
        } else if names.len() == v.len() {
            for (n, x) in names.iter().zip(v) {
                self.env.push((n.clone(), vec![x]));
            }
        } else {
            return Err(bad(format!(
                "a pattern of {} names cannot bind {} values",
                names.len(),
                v.len()
            )));
        }
        Ok(())
    }

    /// The values of `es` one after the other, each read at the types
    /// that follow those of the ones before.
    fn concat<'e>(
        &mut self,
        es: impl Iterator<Item = &'e Exp>,
        types: &[ValueType],
    ) -> Result<Vec<Value>, ScriptError> {
        let mut out = vec![];
        for e in es {
            let rest = types.get(out.len()..).unwrap_or(&[]);
            out.extend(self.eval(e, rest)?);
        }
        Ok(out)
    }

    fn call(&mut self, f: &str, args: &[Exp]) -> Result<Vec<Value>, ScriptError> {
        if !self.program.has_entry(f) {
            return Err(bad(format!("unknown name `{f}`")));
        }
        let params = self.program.param_types(f).unwrap_or_default();
        let vals = self.concat(args.iter(), &params)?;
        self.program
            .call(f, vals)
            .map_err(|e| match e.is_unsupported() {
                true => ScriptError::Unsupported(e.render()),
                false => ScriptError::Call(f.to_string(), Box::new(e)),
            })
    }
}
