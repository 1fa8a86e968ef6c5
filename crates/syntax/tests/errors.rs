//! Syntax errors: exact messages and locations.

use parad_base::{FileId, SourceMap};
use parad_syntax::{parse, parse_exp};

/// `line:col: message` of the error for a whole program.
fn err(src: &str) -> String {
    let mut sm = SourceMap::new();
    let id = sm.add("t.fut", src);
    match parse(id, src) {
        Ok(_) => panic!("expected a syntax error in {src:?}"),
        Err(d) => d.short(&sm).trim_start_matches("t.fut:").to_string(),
    }
}

#[track_caller]
fn check(src: &str, expected: &str) {
    assert_eq!(err(src), expected, "source: {src}");
}

#[test]
fn unexpected_tokens() {
    check(
        "def x = if then 1 else 2",
        "1:12: Unexpected \"then\", expected expression",
    );
    check(
        "def x = if a 1 else 2",
        "1:16: Unexpected \"else\", expected 'then'",
    );
    check(
        "def f x =\n  let y = x\n\ndef g = 1",
        "4:1: Unexpected \"def\", expected 'in' after let binding",
    );
    check(
        "def x = (1, 2",
        "1:14: Unexpected end of file, expected ',' or ')' after tuple element",
    );
    check(
        "def x = [1, , 2]",
        "1:13: Unexpected token: ',', expected expression",
    );
    check(
        "def = 1",
        "1:5: Unexpected token: '=', expected name of definition",
    );
    check(
        "def x = 1 +",
        "1:12: Unexpected end of file, expected expression",
    );
    check("x = 1", "1:1: Unexpected token: 'x', expected declaration");
    check(
        "def x = match y",
        "1:16: Unexpected end of file, expected 'case'",
    );
    check(
        "type t = #a | b",
        "1:15: Unexpected token: 'b', expected constructor",
    );
    check(
        "def x = loop y = 0 do y",
        "1:20: Unexpected \"do\", expected 'for' or 'while'",
    );
    check(
        "def x = a with = 1",
        "1:16: Unexpected token: '=', expected '[' or field name",
    );
    check(
        "def f (x: ) = x",
        "1:11: Unexpected token: ')', expected type",
    );
    check(
        "def x = (.)",
        "1:11: Unexpected token: ')', expected field name or '['",
    );
    check(
        "def x = {a = 1 = 2}",
        "1:16: Unexpected token: '=', expected ',' or '}' after record field",
    );
    check(
        "import foo",
        "1:8: Unexpected token: 'foo', expected string literal after 'import'",
    );
    check(
        "def x = a..b",
        "1:13: Unexpected end of file, expected '...', '..<' or '..>'",
    );
    check(
        "module type S = { def x = 1 }",
        "1:19: Unexpected \"def\", expected specification or '}'",
    );
}

#[test]
fn lexical_errors() {
    check("def x = 1 $ 2", "1:11: invalid character '$'");
    check("def x = \"abc", "1:9: unterminated string literal");
    check(
        "def x = 12abc",
        "1:11: invalid integer literal suffix 'abc'",
    );
    check("def x = 1.5i32", "1:12: invalid float literal suffix 'i32'");
    check(
        "def x = 0x1.8",
        "1:9: hexadecimal float literal needs an exponent 'p'",
    );
    check(
        "def x = 999999999999999999999999999999999999999999",
        "1:9: integer literal is too large",
    );
    check("def x = '\\q'", "1:10: invalid escape sequence");
}

#[test]
fn error_spans_point_at_the_token() {
    let src = "def x =\n  1 + then";
    let d = parse(FileId(0), src).unwrap_err();
    let span = d.span.unwrap();
    assert_eq!(&src[span.range()], "then");
    let d = parse_exp(FileId(0), "f x )").unwrap_err();
    assert_eq!(d.message, "Unexpected token: ')', expected end of file");
}

#[test]
fn nesting_limit() {
    let deep_type = format!("{}i32{}", "(".repeat(1000), ")".repeat(1000));
    let src = format!("def x: {deep_type} = 1");
    assert!(err(&src).ends_with("expression nested too deeply"));
    let deep_pat = format!("def f {}x{} = 1", "(".repeat(1000), ")".repeat(1000));
    assert!(err(&deep_pat).ends_with("expression nested too deeply"));
    let deep_mod = format!(
        "module M = {}{}",
        "{ module N = ".repeat(500),
        "}".repeat(500)
    );
    assert!(err(&deep_mod).ends_with("expression nested too deeply"));
    let deep_if = "def x = ".to_string() + &"if a then b else ".repeat(1000) + "c";
    assert!(err(&deep_if).ends_with("expression nested too deeply"));
}
