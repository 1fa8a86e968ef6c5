//! The parser returns an error or a tree for any input; it never panics.

use parad_base::{FileId, SourceMap};
use parad_syntax::{parse, parse_exp, parse_type};
use proptest::prelude::*;

const TOKENS: &[&str] = &[
    "def",
    "let",
    "entry",
    "in",
    "if",
    "then",
    "else",
    "loop",
    "for",
    "while",
    "do",
    "match",
    "case",
    "with",
    "type",
    "type~",
    "type^",
    "module",
    "open",
    "import",
    "local",
    "val",
    "include",
    "assert",
    "true",
    "false",
    "x",
    "f",
    "M",
    "f32",
    "i64",
    "_",
    "'a",
    "'^b",
    "'~c",
    "1",
    "2.5f32",
    "0xFFu8",
    "1e-3",
    "'c'",
    "\"s\"",
    "#c",
    "#[",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ":>",
    ".",
    "..",
    "...",
    "..<",
    "..>",
    "=",
    "->",
    "\\",
    "`",
    "+",
    "-",
    "*",
    "**",
    "/",
    "//",
    "%",
    "%%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "&&",
    "||",
    "!",
    "|>",
    "<|",
    "|",
    "&",
    "^",
    "<<",
    ">>",
    "?",
    "???",
    "-- c\n",
    "-- | doc\n",
    "\n",
    "~",
];

fn soup() -> impl Strategy<Value = String> {
    prop::collection::vec((0..TOKENS.len(), prop::bool::ANY), 0..40).prop_map(|toks| {
        let mut s = String::new();
        for (i, space) in toks {
            s.push_str(TOKENS[i]);
            if space {
                s.push(' ');
            }
        }
        s
    })
}

fn check_all(src: &str) {
    let mut sm = SourceMap::new();
    let id = sm.add("p.fut", src);
    if let Err(d) = parse(id, src) {
        // Rendering must not panic either, whatever the span.
        let _ = d.render(&sm);
    }
    let _ = parse_exp(FileId(0), src);
    let _ = parse_type(FileId(0), src);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings(src in "\\PC{0,60}") {
        check_all(&src);
    }

    #[test]
    fn token_soup(src in soup()) {
        check_all(&src);
    }

    #[test]
    fn definitions_of_token_soup(body in soup()) {
        check_all(&format!("def main x = {body}"));
    }
}
