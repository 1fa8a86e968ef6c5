//! Reader for Futhark's text value format: scalars such as `1i32`, `2.5f32`,
//! `-f64.inf`, `true`, `'a'`; regular nested arrays `[[1, 2], [3, 4]]` whose
//! element type is that of their first element; `empty([2][0]f32)`; and
//! string literals, read as `[n]u8` arrays of their UTF-8 bytes.
//!
//! The reader works on byte offsets; offsets become line/column positions
//! only when an error is reported.

use std::borrow::Cow;

use half::f16;
use parad_base::{FloatType, IntType, PrimType};

use crate::error::{line_col, DataError};
use crate::value::{ArrayData, ArrayValue, Scalar, Value, ValueType};

/// The deepest array nesting accepted (the binary format's limit).
pub const MAX_RANK: usize = 255;

pub(crate) struct TextReader<'a> {
    input: &'a [u8],
}

/// How a numeric or other literal was written, before its type is fixed.
#[derive(Debug)]
enum LitKind<'a> {
    /// Integer literal; `digits` holds its decimal digits (no `_`) when it
    /// was written in decimal, so conversion to a float rounds exactly.
    Int {
        wrapped: u64,
        digits: Option<Cow<'a, str>>,
        /// The value does not fit in 64 bits (`wrapped` lost bits).
        overflow: bool,
    },
    /// Decimal float without sign or `_`, e.g. `1.5e3`.
    Dec(Cow<'a, str>),
    /// Hexadecimal float, already evaluated.
    HexFloat(f64),
    Inf,
    NaN,
    Bool(bool),
    Char(u32),
}

#[derive(Debug)]
struct Literal<'a> {
    kind: LitKind<'a>,
    neg: bool,
    /// Type fixed by a suffix or by the literal itself (`f32.inf`, `true`).
    typed: Option<PrimType>,
    offset: usize,
}

impl Literal<'_> {
    /// The literal's own type, with Futhark's defaults for unsuffixed numbers.
    fn own_type(&self) -> PrimType {
        self.typed.unwrap_or(match self.kind {
            LitKind::Int { .. } | LitKind::Char(_) => PrimType::Int(IntType::I32),
            LitKind::Bool(_) => PrimType::Bool,
            _ => PrimType::Float(FloatType::F64),
        })
    }

    fn describe(&self) -> &'static str {
        match self.kind {
            LitKind::Int { .. } => "an integer literal",
            LitKind::Dec(_) | LitKind::HexFloat(_) | LitKind::Inf | LitKind::NaN => {
                "a floating-point literal"
            }
            LitKind::Bool(_) => "a boolean literal",
            LitKind::Char(_) => "a character literal",
        }
    }

    /// The literal's value at type `t`; `Err` holds a message if it cannot
    /// have that type. An integer must be within `t`'s range: `300u8` is
    /// an error, not 44 (a silently wrapped input is a wrong result).
    fn to_scalar(&self, t: PrimType) -> Result<Scalar, String> {
        let mismatch = || format!("expected a value of type {t}, found {}", self.describe());
        match (&self.kind, t) {
            (
                LitKind::Int {
                    wrapped, overflow, ..
                },
                PrimType::Int(it),
            ) => self.int_in_range(it, *wrapped, *overflow),
            (LitKind::Char(c), PrimType::Int(it)) => self.int_in_range(it, u64::from(*c), false),
            (
                LitKind::Int {
                    wrapped, digits, ..
                },
                PrimType::Float(ft),
            ) => {
                let s = match digits {
                    Some(d) => parse_float(ft, d),
                    None => Scalar::from_float(ft, *wrapped as f64),
                };
                Ok(negate_if(s, self.neg))
            }
            (LitKind::Dec(text), PrimType::Float(ft)) => {
                Ok(negate_if(parse_float(ft, text), self.neg))
            }
            (LitKind::HexFloat(x), PrimType::Float(ft)) => {
                Ok(negate_if(Scalar::from_float(ft, *x), self.neg))
            }
            (LitKind::Inf, PrimType::Float(ft)) => {
                Ok(negate_if(Scalar::from_float(ft, f64::INFINITY), self.neg))
            }
            (LitKind::NaN, PrimType::Float(ft)) => Ok(Scalar::from_float(ft, f64::NAN)),
            (LitKind::Bool(b), PrimType::Bool) => Ok(Scalar::Bool(*b)),
            _ => Err(mismatch()),
        }
    }
}

impl Literal<'_> {
    /// The integer `magnitude` (negated if the literal is) as type `t`, or
    /// a message saying that it does not fit (`overflow`: the magnitude
    /// exceeds 64 bits). As Futhark's value reader does, a suffixed
    /// literal wraps to its type's width (`255i8` is `-1i8`, `-1u32` is
    /// `4294967295u32`, `32767i8` is `-1i8`); an unsuffixed literal outside
    /// the expected type is an error.
    fn int_in_range(&self, t: IntType, magnitude: u64, overflow: bool) -> Result<Scalar, String> {
        let v = i128::from(magnitude) * if self.neg { -1 } else { 1 };
        let bits = t.bits();
        let (lo, hi) = if t.signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        };
        let ok = self.typed.is_some() || (lo..=hi).contains(&v);
        if overflow || !ok {
            let shown = if overflow {
                "this integer".to_string()
            } else {
                format!("{v}")
            };
            let which = if self.typed.is_some() {
                "its type"
            } else {
                "the expected type"
            };
            return Err(format!(
                "{shown} does not fit in {which} {t} ({lo} to {hi})"
            ));
        }
        Ok(Scalar::from_int(t, v))
    }
}

/// Parses already-validated decimal text, rounding once to the target type
/// (f16 goes through f64, whose extra precision makes double rounding
/// practically impossible).
fn parse_float(t: FloatType, text: &str) -> Scalar {
    match t {
        FloatType::F16 => Scalar::F16(f16::from_f64(text.parse().unwrap_or(f64::NAN))),
        FloatType::F32 => Scalar::F32(text.parse().unwrap_or(f32::NAN)),
        FloatType::F64 => Scalar::F64(text.parse().unwrap_or(f64::NAN)),
    }
}

fn negate_if(s: Scalar, neg: bool) -> Scalar {
    match (s, neg) {
        (Scalar::F16(x), true) => Scalar::F16(-x),
        (Scalar::F32(x), true) => Scalar::F32(-x),
        (Scalar::F64(x), true) => Scalar::F64(-x),
        (s, _) => s,
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Removes `_` digit separators, borrowing when there are none.
fn strip_underscores(s: &str) -> Cow<'_, str> {
    if s.contains('_') {
        Cow::Owned(s.replace('_', ""))
    } else {
        Cow::Borrowed(s)
    }
}

/// Describes the input at `pos` for "found ..." messages.
fn found(input: &[u8], pos: usize) -> String {
    match input.get(pos) {
        None => "end of input".to_string(),
        Some(b'\n') => "end of line".to_string(),
        Some(&b) if b.is_ascii_whitespace() => "whitespace".to_string(),
        Some(&b) => match first_char(&input[pos..]) {
            Some(c) if !c.is_control() => format!("'{c}'"),
            _ => format!("byte 0x{b:02x}"),
        },
    }
}

/// The UTF-8 character at the start of `bytes`, if it is valid.
fn first_char(bytes: &[u8]) -> Option<char> {
    let head = &bytes[..bytes.len().min(4)];
    let valid = match std::str::from_utf8(head) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    valid.chars().next()
}

impl<'a> TextReader<'a> {
    pub(crate) fn new(input: &'a [u8]) -> TextReader<'a> {
        TextReader { input }
    }

    fn err(&self, offset: usize, msg: impl Into<String>) -> DataError {
        let (line, col) = line_col(self.input, offset);
        DataError::at_line(line, col, msg)
    }

    fn peek(&self, pos: usize) -> Option<u8> {
        self.input.get(pos).copied()
    }

    /// Skips whitespace and `--` line comments.
    pub(crate) fn skip_blank(&self, mut pos: usize) -> usize {
        loop {
            match self.peek(pos) {
                Some(b) if b.is_ascii_whitespace() => pos += 1,
                Some(b'-') if self.peek(pos + 1) == Some(b'-') => {
                    while self.peek(pos).is_some_and(|b| b != b'\n') {
                        pos += 1;
                    }
                }
                _ => return pos,
            }
        }
    }

    /// Reads one text value starting at `pos` (no leading blanks), where a
    /// value of type `expected` is wanted, if known: numeric literals
    /// without a suffix then get its element type (a scalar's, or an
    /// array's elements') when they fit in it. Returns the value and the
    /// offset just past it.
    pub(crate) fn read_value(
        &self,
        pos: usize,
        expected: Option<ValueType>,
    ) -> Result<(Value, usize), DataError> {
        let elem = |array: bool| {
            expected
                .filter(|t| (t.rank > 0) == array && t.elem != PrimType::Bool)
                .map(|t| t.elem)
        };
        match self.peek(pos) {
            Some(b'[') => self.read_array(pos, elem(true)),
            Some(b'"') => self.read_string(pos),
            _ if self.input[pos..].starts_with(b"empty") && !self.word_continues(pos + 5) => {
                self.read_empty(pos)
            }
            _ => {
                let (lit, end) = self.read_literal(pos)?;
                let s = match (lit.typed, elem(false)) {
                    (None, Some(t)) => lit.to_scalar(t),
                    _ => lit.to_scalar(lit.own_type()),
                };
                let s = s.map_err(|m| self.err(lit.offset, m))?;
                Ok((Value::Scalar(s), end))
            }
        }
    }

    fn word_continues(&self, pos: usize) -> bool {
        self.peek(pos).is_some_and(is_word_byte)
    }

    /// Reads a scalar literal, possibly preceded by `-`.
    fn read_literal(&self, start: usize) -> Result<(Literal<'a>, usize), DataError> {
        let mut pos = start;
        let neg = self.peek(pos) == Some(b'-');
        if neg {
            pos += 1;
        }
        if self.peek(pos) == Some(b'\'') {
            let (c, end) = self.read_char(pos)?;
            let lit = Literal {
                kind: LitKind::Char(c),
                neg,
                typed: None,
                offset: start,
            };
            return Ok((lit, end));
        }
        // A word runs over letters, digits, `_` and `.`, and over a sign
        // right after an exponent marker (`1e-3`, `0x1p+4`).
        let word_start = pos;
        while let Some(b) = self.peek(pos) {
            let exp_sign = (b == b'+' || b == b'-')
                && pos > word_start
                && matches!(self.input[pos - 1], b'e' | b'E' | b'p' | b'P')
                && self.input[word_start].is_ascii_digit();
            if is_word_byte(b) || exp_sign {
                pos += 1;
            } else {
                break;
            }
        }
        if pos == word_start {
            let what = if neg { "a number after '-'" } else { "a value" };
            return Err(self.err(
                pos,
                format!("expected {what}, found {}", found(self.input, pos)),
            ));
        }
        // Word bytes are all ASCII.
        let word = std::str::from_utf8(&self.input[word_start..pos]).unwrap_or_default();
        let (kind, typed) = if word.as_bytes()[0].is_ascii_digit() {
            self.parse_number(word, word_start)?
        } else {
            match word {
                "true" if !neg => (LitKind::Bool(true), Some(PrimType::Bool)),
                "false" if !neg => (LitKind::Bool(false), Some(PrimType::Bool)),
                _ => {
                    let special = word.split_once('.').and_then(|(t, what)| {
                        let ft = match t {
                            "f16" => FloatType::F16,
                            "f32" => FloatType::F32,
                            "f64" => FloatType::F64,
                            _ => return None,
                        };
                        let kind = match what {
                            "inf" => LitKind::Inf,
                            "nan" => LitKind::NaN,
                            _ => return None,
                        };
                        Some((kind, Some(PrimType::Float(ft))))
                    });
                    special.ok_or_else(|| {
                        self.err(
                            word_start,
                            format!("expected a value, found '{}'", truncate(word)),
                        )
                    })?
                }
            }
        };
        let lit = Literal {
            kind,
            neg,
            typed,
            offset: start,
        };
        Ok((lit, pos))
    }

    /// Parses a numeric word (starting with a digit) at offset `at`.
    fn parse_number(
        &self,
        word: &'a str,
        at: usize,
    ) -> Result<(LitKind<'a>, Option<PrimType>), DataError> {
        let b = word.as_bytes();
        let digits_end = |mut i: usize, ok: fn(u8) -> bool| {
            while i < b.len() && (ok(b[i]) || b[i] == b'_') {
                i += 1;
            }
            i
        };
        let lower = |i: usize| b.get(i).map(|c| c.to_ascii_lowercase());
        let (kind, suffix_at, is_float) = if b.len() > 1 && b[0] == b'0' && lower(1) == Some(b'x') {
            let int_end = digits_end(2, |c| c.is_ascii_hexdigit());
            let mut i = int_end;
            let mut frac = 2..2;
            if b.get(i) == Some(&b'.') {
                frac = i + 1..digits_end(i + 1, |c| c.is_ascii_hexdigit());
                i = frac.end;
            }
            if int_end == 2 && frac.is_empty() {
                return Err(self.err(at, "expected hexadecimal digits after '0x'"));
            }
            if lower(i) == Some(b'p') {
                let exp_start = i + 1;
                let mut j = exp_start;
                if matches!(b.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                let exp_end = digits_end(j, |c| c.is_ascii_digit());
                if exp_end == j {
                    return Err(self.err(at + j, "expected exponent digits after 'p'"));
                }
                let exp: i32 = strip_underscores(&word[exp_start..exp_end])
                    .parse()
                    .unwrap_or(if b[exp_start] == b'-' {
                        -100_000
                    } else {
                        100_000
                    });
                let x = hex_float(&word[2..int_end], &word[frac.clone()], exp);
                (LitKind::HexFloat(x), exp_end, true)
            } else if !frac.is_empty() || b.get(int_end) == Some(&b'.') {
                return Err(self.err(at, "hexadecimal float needs a 'p' exponent"));
            } else {
                let (v, overflow) = radix_value(&word[2..int_end], 16);
                (
                    LitKind::Int {
                        wrapped: v,
                        digits: None,
                        overflow,
                    },
                    int_end,
                    false,
                )
            }
        } else if b.len() > 1 && b[0] == b'0' && lower(1) == Some(b'b') {
            let end = digits_end(2, |c| c == b'0' || c == b'1');
            if end == 2 {
                return Err(self.err(at, "expected binary digits after '0b'"));
            }
            let (v, overflow) = radix_value(&word[2..end], 2);
            (
                LitKind::Int {
                    wrapped: v,
                    digits: None,
                    overflow,
                },
                end,
                false,
            )
        } else {
            let int_end = digits_end(0, |c| c.is_ascii_digit());
            let mut i = int_end;
            let mut is_float = false;
            if b.get(i) == Some(&b'.') {
                let frac_end = digits_end(i + 1, |c| c.is_ascii_digit());
                if frac_end == i + 1 {
                    return Err(self.err(at + i + 1, "expected digits after '.'"));
                }
                i = frac_end;
                is_float = true;
            }
            if lower(i) == Some(b'e') {
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'+' | b'-')) {
                    j += 1;
                }
                let exp_end = digits_end(j, |c| c.is_ascii_digit());
                if exp_end == j {
                    return Err(self.err(at + j, "expected exponent digits after 'e'"));
                }
                i = exp_end;
                is_float = true;
            }
            let text = strip_underscores(&word[..i]);
            if is_float {
                (LitKind::Dec(text), i, true)
            } else {
                let (v, overflow) = radix_value(&text, 10);
                (
                    LitKind::Int {
                        wrapped: v,
                        digits: Some(text),
                        overflow,
                    },
                    i,
                    false,
                )
            }
        };
        let suffix = &word[suffix_at..];
        if suffix.is_empty() {
            return Ok((kind, None));
        }
        let t = match PrimType::from_name(suffix) {
            Some(t @ PrimType::Float(_)) => t,
            Some(t @ PrimType::Int(_)) if !is_float => t,
            Some(t @ PrimType::Int(_)) => {
                return Err(self.err(
                    at + suffix_at,
                    format!("floating-point literal cannot have integer type suffix '{t}'"),
                ))
            }
            _ => {
                return Err(self.err(
                    at + suffix_at,
                    format!("invalid suffix '{}' on numeric literal", truncate(suffix)),
                ))
            }
        };
        Ok((kind, Some(t)))
    }

    /// Reads `'c'` at `pos`, returning the code point.
    fn read_char(&self, pos: usize) -> Result<(u32, usize), DataError> {
        let (c, after) = self.read_string_char(pos + 1, b'\'')?;
        let c = c.ok_or_else(|| self.err(pos, "empty character literal"))?;
        if self.peek(after) != Some(b'\'') {
            return Err(self.err(after, "expected ' to end the character literal"));
        }
        Ok((c as u32, after + 1))
    }

    /// Reads one (possibly escaped) character of a string or character
    /// literal; `None` at the closing quote.
    fn read_string_char(&self, pos: usize, quote: u8) -> Result<(Option<char>, usize), DataError> {
        match self.peek(pos) {
            None | Some(b'\n') => Err(self.err(pos, "unterminated literal")),
            Some(q) if q == quote => Ok((None, pos)),
            Some(b'\\') => {
                let c = match self.peek(pos + 1) {
                    Some(b'n') => '\n',
                    Some(b't') => '\t',
                    Some(b'r') => '\r',
                    Some(b'0') => '\0',
                    Some(b'\\') => '\\',
                    Some(b'\'') => '\'',
                    Some(b'"') => '"',
                    _ => {
                        return Err(self.err(
                            pos,
                            format!("unknown escape '\\{}'", found(self.input, pos + 1)),
                        ))
                    }
                };
                Ok((Some(c), pos + 2))
            }
            Some(_) => {
                let c = first_char(&self.input[pos..])
                    .ok_or_else(|| self.err(pos, "invalid UTF-8 in literal"))?;
                Ok((Some(c), pos + c.len_utf8()))
            }
        }
    }

    /// Reads `"..."` as a `[n]u8` array of its UTF-8 bytes.
    fn read_string(&self, start: usize) -> Result<(Value, usize), DataError> {
        let mut pos = start + 1;
        let mut bytes = Vec::new();
        loop {
            let (c, next) = self.read_string_char(pos, b'"')?;
            match c {
                None => break,
                Some(c) => {
                    let mut buf = [0; 4];
                    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    pos = next;
                }
            }
        }
        let n = bytes.len();
        let v = Value::Array(ArrayValue {
            shape: vec![n],
            data: ArrayData::U8(bytes),
        });
        Ok((v, pos + 1))
    }

    /// Reads `empty(<dims><type>)`, e.g. `empty([2][0]f32)`.
    fn read_empty(&self, start: usize) -> Result<(Value, usize), DataError> {
        let mut pos = self.skip_blank(start + 5);
        if self.peek(pos) != Some(b'(') {
            return Err(self.err(
                pos,
                format!(
                    "expected '(' after 'empty', found {}",
                    found(self.input, pos)
                ),
            ));
        }
        pos = self.skip_blank(pos + 1);
        let type_at = pos;
        let ((shape, t), end) = self.read_type(pos)?;
        pos = self.skip_blank(end);
        if self.peek(pos) != Some(b')') {
            return Err(self.err(
                pos,
                format!(
                    "expected ')' after the type in empty(...), found {}",
                    found(self.input, pos)
                ),
            ));
        }
        if shape.is_empty() || !shape.contains(&0) {
            return Err(self.err(
                type_at,
                "empty(...) needs an array type with at least one zero dimension, e.g. empty([0]i32)",
            ));
        }
        let v = Value::Array(ArrayValue {
            shape,
            data: ArrayData::empty(t),
        });
        Ok((v, pos + 1))
    }

    /// Reads a value type such as `[100][3]f32` or `i64` (blanks allowed
    /// between the parts).
    pub(crate) fn read_type(
        &self,
        mut pos: usize,
    ) -> Result<((Vec<usize>, PrimType), usize), DataError> {
        let mut shape = Vec::new();
        while self.peek(pos) == Some(b'[') {
            pos = self.skip_blank(pos + 1);
            let start = pos;
            while self
                .peek(pos)
                .is_some_and(|b| b.is_ascii_digit() || b == b'_')
            {
                pos += 1;
            }
            if pos == start || self.input[start] == b'_' {
                return Err(self.err(
                    start,
                    format!("expected an array size, found {}", found(self.input, start)),
                ));
            }
            let text = std::str::from_utf8(&self.input[start..pos]).unwrap_or_default();
            let d: usize = strip_underscores(text)
                .parse()
                .map_err(|_| self.err(start, format!("array size {text} is too large")))?;
            pos = self.skip_blank(pos);
            if self.peek(pos) != Some(b']') {
                return Err(self.err(
                    pos,
                    format!(
                        "expected ']' after array size, found {}",
                        found(self.input, pos)
                    ),
                ));
            }
            shape.push(d);
            if shape.len() > MAX_RANK {
                return Err(self.err(
                    pos,
                    format!("arrays of rank above {MAX_RANK} are not supported"),
                ));
            }
            pos = self.skip_blank(pos + 1);
        }
        let start = pos;
        while self.peek(pos).is_some_and(is_word_byte) {
            pos += 1;
        }
        let word = std::str::from_utf8(&self.input[start..pos]).unwrap_or_default();
        match PrimType::from_name(word) {
            Some(t) => Ok(((shape, t), pos)),
            None if word.is_empty() => Err(self.err(
                start,
                format!(
                    "expected a primitive type, found {}",
                    found(self.input, start)
                ),
            )),
            None => Err(self.err(
                start,
                format!("unknown primitive type '{}'", truncate(word)),
            )),
        }
    }

    /// Reads a bracketed array literal. Iterative, so deep nesting cannot
    /// overflow the stack.
    /// `elem`: the element type expected, if known.
    fn read_array(
        &self,
        start: usize,
        elem: Option<PrimType>,
    ) -> Result<(Value, usize), DataError> {
        // Per open bracket: elements completed so far, offset of the '['.
        let mut open: Vec<(usize, usize)> = Vec::new();
        // Size seen at each depth (0 = outermost), to enforce regularity.
        let mut dims: Vec<Option<usize>> = Vec::new();
        let mut deepest = 0;
        let mut rank: Option<usize> = None;
        let mut data: Option<ArrayData> = None;
        let mut pos = start;
        loop {
            // Expecting an element (or ']' right after '[').
            pos = self.skip_blank(pos);
            match self.peek(pos) {
                Some(b'[') => {
                    if rank == Some(open.len()) {
                        return Err(self.err(
                            pos,
                            "irregular array: this element is nested deeper than the first element",
                        ));
                    }
                    if open.len() >= MAX_RANK {
                        return Err(self.err(
                            pos,
                            format!("arrays of rank above {MAX_RANK} are not supported"),
                        ));
                    }
                    open.push((0, pos));
                    deepest = deepest.max(open.len());
                    pos += 1;
                    continue;
                }
                Some(b']') if open.last().is_some_and(|&(n, _)| n == 0) => {}
                Some(b']') => {
                    return Err(self.err(pos, "expected an array element after ','"));
                }
                _ => {
                    let depth = open.len();
                    match rank {
                        None if deepest > depth => return Err(self.err(
                            pos,
                            "irregular array: this element is less nested than an earlier array",
                        )),
                        None => rank = Some(depth),
                        Some(r) if r != depth => return Err(self.err(
                            pos,
                            "irregular array: this element is less nested than the first element",
                        )),
                        Some(_) => {}
                    }
                    if matches!(self.peek(pos), Some(b'"')) {
                        return Err(self.err(pos, "string literals cannot be array elements"));
                    }
                    if self.input[pos..].starts_with(b"empty") && !self.word_continues(pos + 5) {
                        return Err(self.err(
                            pos,
                            "empty(...) cannot be an array element; give the whole array as empty(...)",
                        ));
                    }
                    let (lit, end) = self.read_literal(pos)?;
                    self.push_element(&mut data, &lit, elem)?;
                    open.last_mut().expect("inside an array").0 += 1;
                    pos = end;
                }
            }
            // After an element (or at ']' of an empty array): ',' or ']'.
            loop {
                pos = self.skip_blank(pos);
                match self.peek(pos) {
                    Some(b',') if open.last().is_some_and(|&(n, _)| n > 0) => {
                        pos += 1;
                        break;
                    }
                    Some(b']') => {
                        let (n, at) = open.pop().expect("inside an array");
                        let d = open.len();
                        if dims.len() <= d {
                            dims.resize(d + 1, None);
                        }
                        match dims[d] {
                            None => dims[d] = Some(n),
                            Some(m) if m != n => {
                                return Err(self.err(
                                    at,
                                    format!(
                                        "irregular array: this array has {n} element{}, but an earlier one at the same depth has {m}",
                                        if n == 1 { "" } else { "s" }
                                    ),
                                ))
                            }
                            Some(_) => {}
                        }
                        pos += 1;
                        match open.last_mut() {
                            None => return self.finish_array(start, rank, dims, data, pos),
                            Some(parent) => parent.0 += 1,
                        }
                    }
                    _ => {
                        return Err(self.err(
                            pos,
                            format!(
                                "expected ']' or ',' after array element, found {}",
                                found(self.input, pos)
                            ),
                        ))
                    }
                }
            }
        }
    }

    /// Appends a literal to the array's storage; the first element fixes
    /// the element type (the expected one, `elem`, if it has no suffix).
    fn push_element(
        &self,
        data: &mut Option<ArrayData>,
        lit: &Literal,
        elem: Option<PrimType>,
    ) -> Result<(), DataError> {
        let data = data.get_or_insert_with(|| {
            ArrayData::empty(match (lit.typed, elem) {
                (None, Some(t)) => t,
                _ => lit.own_type(),
            })
        });
        let t = data.elem_type();
        if let Some(lt) = lit.typed {
            if lt != t {
                return Err(self.err(
                    lit.offset,
                    format!("array element has type {lt}, but the first element has type {t}"),
                ));
            }
        }
        let s = match (lit.typed, elem) {
            (None, Some(e)) if e == t => lit.to_scalar(t),
            (None, _) => lit
                .to_scalar(t)
                .map_err(|m| format!("{m} (the type of the first element)")),
            (Some(_), _) => lit.to_scalar(t),
        };
        let s = s.map_err(|m| self.err(lit.offset, m))?;
        data.push(s);
        Ok(())
    }

    fn finish_array(
        &self,
        start: usize,
        rank: Option<usize>,
        dims: Vec<Option<usize>>,
        data: Option<ArrayData>,
        end: usize,
    ) -> Result<(Value, usize), DataError> {
        let (Some(rank), Some(data)) = (rank, data) else {
            return Err(self.err(
                start,
                "an empty array literal has no element type; write it as empty([0]t), e.g. empty([0]i32)",
            ));
        };
        let shape: Option<Vec<usize>> = dims[..rank].iter().copied().collect();
        let arr = shape
            .and_then(|shape| ArrayValue::new(shape, data))
            .ok_or_else(|| self.err(start, "irregular array"))?;
        Ok((Value::Array(arr), end))
    }
}

/// Keeps error messages short when they quote a long word.
fn truncate(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(40) {
        Some((i, _)) => Cow::Owned(format!("{}...", &s[..i])),
        None => Cow::Borrowed(s),
    }
}

/// The value of digits (with `_`) in `radix`, modulo 2^64, and whether it
/// exceeds 64 bits.
fn radix_value(digits: &str, radix: u32) -> (u64, bool) {
    digits
        .chars()
        .filter_map(|c| c.to_digit(radix))
        .fold((0u64, false), |(acc, over), d| {
            let (m, o1) = acc.overflowing_mul(radix as u64);
            let (v, o2) = m.overflowing_add(d as u64);
            (v, over || o1 || o2)
        })
}

/// `0x<int>.<frac>p<exp>` as f64. Extra mantissa digits beyond what f64 can
/// hold only affect rounding in the last place.
fn hex_float(int: &str, frac: &str, exp: i32) -> f64 {
    let mut mant = 0f64;
    let mut shift: i64 = exp as i64;
    for c in int.chars().filter_map(|c| c.to_digit(16)) {
        mant = mant * 16.0 + c as f64;
    }
    for c in frac.chars().filter_map(|c| c.to_digit(16)) {
        mant = mant * 16.0 + c as f64;
        shift -= 4;
    }
    let shift = shift.clamp(-5000, 5000) as i32;
    // Split the scaling so intermediate powers of two stay finite.
    let half = shift / 2;
    mant * 2f64.powi(half) * 2f64.powi(shift - half)
}
