//! The checker never panics, and never leaves inference variables in its
//! output.

mod common;
use proptest::prelude::*;

/// True if a `Type::Var` (an inference variable) occurs in the debug
/// output of a typed program.
fn has_inference_var(s: &str) -> bool {
    s.match_indices("Var(")
        .any(|(i, _)| s[i + 4..].starts_with(|c: char| c.is_ascii_digit()))
}

#[test]
fn output_has_no_inference_variables() {
    let programs = [
        "def main (xs: []f32) = map (\\x -> x + 1) xs |> reduce (+) 0",
        "def f x = x\ndef main (n: i64) = let g y = (y, 1) in (f (g n), f [1, 2])",
        "def main = let xs = [] in length xs",
        "def main (r: {a: i32}) = let h p = p.a in h r",
        "def main (x: f64) = jvp (\\y -> f64.sin y * y) x 1",
    ];
    for p in programs {
        let c = common::check(p);
        assert!(
            !has_inference_var(&format!("{:?}", c.typed)),
            "inference variable left in {p}"
        );
    }
}

const WORDS: &[&str] = &[
    "def",
    "let",
    "in",
    "entry",
    "loop",
    "for",
    "while",
    "do",
    "if",
    "then",
    "else",
    "with",
    "type",
    "module",
    "match",
    "case",
    "x",
    "y",
    "xs",
    "f",
    "map",
    "reduce",
    "i32",
    "f32",
    "[]",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "=",
    ",",
    ":",
    "->",
    "\\",
    "+",
    "-",
    "*",
    "==",
    "<",
    "|>",
    "1",
    "2.0",
    "true",
    "'a",
    "[n]",
    ".",
    "0",
    "f32.sqrt",
    "x.0",
    "..<",
    "#[inline]",
    "assert",
    "(+)",
    "(+ 1)",
    "(.x)",
    "a",
    "b",
    "<",
    "u8",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn token_soup_never_panics(toks in proptest::collection::vec(0..WORDS.len(), 0..30)) {
        let text: Vec<&str> = toks.iter().map(|i| WORDS[*i]).collect();
        let text = format!("def main {}", text.join(" "));
        let _ = parad_types::check_source("soup.fut", &text);
    }

    #[test]
    fn expression_soup_never_panics(toks in proptest::collection::vec(0..WORDS.len(), 1..20)) {
        let text: Vec<&str> = toks.iter().map(|i| WORDS[*i]).collect();
        let text = format!("def main (x: i32) (xs: []f32) (y: f32) = {}", text.join(" "));
        let _ = parad_types::check_source("soup.fut", &text);
    }
}
