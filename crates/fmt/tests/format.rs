//! Exact expected output of the formatter for small programs of each
//! construct (input text → expected text), comments in awkward places,
//! idempotence, errors; and every `.fut` file of the repository's `tests/`
//! and `benchmarks/` folders as a fixed point with an unchanged tree.

use parad_base::FileId;
use parad_fmt::{format, is_formatted, FmtError};
use parad_syntax::{parse, sexp};
use std::path::{Path, PathBuf};

/// Formats `input`, expects `expected`, and checks that `expected` is a
/// fixed point and parses to the same tree as `input`.
#[track_caller]
fn check(input: &str, expected: &str) {
    let out = format(input, "test.fut").unwrap_or_else(|e| panic!("{e}\n--- input ---\n{input}"));
    assert_eq!(
        out, expected,
        "\n--- got ---\n{out}--- expected ---\n{expected}"
    );
    let again = format(&out, "test.fut").unwrap_or_else(|e| panic!("second run: {e}"));
    assert_eq!(again, out, "not idempotent");
    let a = parse(FileId(0), input).expect("input parses");
    let b = parse(FileId(0), &out).expect("output parses");
    assert_eq!(sexp::program(&a), sexp::program(&b));
}

#[test]
fn spacing_within_lines() {
    check("def f x=x+1", "def f x = x + 1\n");
    check(
        "def f  (x:i32)   (y :i32) = x*y-1",
        "def f (x:i32) (y :i32) = x * y - 1\n",
    );
    check("def t = (1 ,2,3)", "def t = (1, 2, 3)\n");
    check("def s = ( 1, )", "def s = ( 1, )\n");
    check("def g = \\x->x `max` 1", "def g = \\x -> x `max` 1\n");
    check("def h = a f32.+b", "def h = a f32.+ b\n");
    check("type^ u =i32->i32", "type^ u = i32 -> i32\n");
    check(
        "def x = let a[i]=v in a with [0]=1",
        "def x = let a[i] = v in a with [0] = 1\n",
    );
}

#[test]
fn whitespace_sensitive_tokens_are_kept() {
    // Indexing against application to an array literal, projection,
    // qualified names, local opens, negation, sections.
    check(
        "def f = g a[i] a [i] r.x (r).x t.0 M.(x) (-1) (- 1) f32.sqrt (+1) (1 +) (.x)",
        "def f = g a[i] a [i] r.x (r).x t.0 M.(x) (-1) (- 1) f32.sqrt (+1) (1 +) (.x)\n",
    );
    check("type~ t = []i32", "type~ t = []i32\n");
    check("def f = x-1", "def f = x - 1\n");
    check("def f = g -1", "def f = g - 1\n");
}

#[test]
fn declarations_and_blank_lines() {
    check(
        "\n\n\ndef a = 1\ndef b = 2\n\n\n\ndef c = 3\n\n\n",
        "def a = 1\ndef b = 2\n\ndef c = 3\n",
    );
    check(
        "def g [n] (xs: [n]i32)\n    (ys: [n]i32) : i32 =\n        xs[0]",
        "def g [n] (xs: [n]i32)\n      (ys: [n]i32) : i32 =\n  xs[0]\n",
    );
    check(
        "def f\n (x: i32)\n (y: i32) =\n x",
        "def f\n  (x: i32)\n  (y: i32) =\n  x\n",
    );
    check(
        "local\ndef x = 1\nlocal open M\nimport \"lib\"",
        "local\ndef x = 1\nlocal open M\nimport \"lib\"\n",
    );
    check(
        "type t =\n#a i32\n| #b\n| #c",
        "type t =\n    #a i32\n  | #b\n  | #c\n",
    );
    // Carriage returns and tabs.
    check("def f =\r\n\t1\r\n", "def f =\n  1\n");
    check("", "");
}

#[test]
fn let_chains() {
    check(
        "def g =\n        let a = f 1 2\n            let b = a*2\n              in a+b",
        "def g =\n  let a = f 1 2\n  let b = a * 2\n  in a + b\n",
    );
    check(
        "def g =\nlet a =\nf 1\nin\na",
        "def g =\n  let a =\n    f 1\n  in\n  a\n",
    );
    check(
        "def g = let x = 1\nin x",
        "def g = let x = 1\n        in x\n",
    );
    check(
        "def g =\nlet f x y =\nx + y\nin f 1 2",
        "def g =\n  let f x y =\n    x + y\n  in f 1 2\n",
    );
}

#[test]
fn let_update_sugar() {
    check(
        "def f =\nlet a[i] =\nif c then 1 else 2\nin a",
        "def f =\n  let a[i] =\n    if c then 1 else 2\n  in a\n",
    );
}

#[test]
fn if_then_else() {
    check(
        "def h x =\n if x < 0\n      then 0\n   else if x > 10 then 10\n      else\n    x",
        "def h x =\n  if x < 0\n  then 0\n  else if x > 10 then 10\n  else\n    x\n",
    );
    check(
        "def h x = if x\nthen 1\nelse 2",
        "def h x = if x\n          then 1\n          else 2\n",
    );
    // `else` at the end of a line, `if` on the next: the chain lines up.
    check(
        "def h x =\n  if a then 1 else\n      if b then 2 else 3",
        "def h x =\n  if a then 1 else\n  if b then 2 else 3\n",
    );
}

#[test]
fn loops() {
    check(
        "def l (n: i64) =\n  loop acc = 0\n    for i < n do\n        acc + i",
        "def l (n: i64) =\n  loop acc = 0\n  for i < n do\n    acc + i\n",
    );
    check(
        "def l =\nloop (x, y) = (0, 1) while x < 10 do\n(y, x + y)",
        "def l =\n  loop (x, y) = (0, 1) while x < 10 do\n    (y, x + y)\n",
    );
    check(
        "def l =\n#[unroll]\n loop x for y in ys do\nx + y",
        "def l =\n  #[unroll]\n  loop x for y in ys do\n    x + y\n",
    );
}

#[test]
fn matches() {
    check(
        "def m (o: opt) =\n   match o\n     case #some x ->\n  x\n       case #none -> 0",
        "def m (o: opt) =\n  match o\n  case #some x ->\n    x\n  case #none -> 0\n",
    );
    check(
        "def m =\nmatch o\ncase (x: i32) ->\nx\ncase _ -> 0",
        "def m =\n  match o\n  case (x: i32) ->\n    x\n  case _ -> 0\n",
    );
}

#[test]
fn pipelines_lambdas_and_applications() {
    check(
        "entry main (xs: []i32) =\n      xs\n  |> map (\\x ->\n        x + 1)\n       |> reduce (+) 0",
        "entry main (xs: []i32) =\n  xs\n  |> map (\\x ->\n            x + 1)\n  |> reduce (+) 0\n",
    );
    check(
        "def f =\nmap2 (+)\nxs\n   ys",
        "def f =\n  map2 (+)\n       xs\n       ys\n",
    );
    check(
        "def f =\nmap2\n(+)\nxs",
        "def f =\n  map2\n    (+)\n    xs\n",
    );
    // A lambda as last argument without parentheses: its body is indented
    // from the application.
    check(
        "def f =\n  tabulate n \\i ->\n  i + 1",
        "def f =\n  tabulate n \\i ->\n    i + 1\n",
    );
    check(
        "def f =\na +\nb * c\n- d",
        "def f =\n  a +\n  b * c\n  - d\n",
    );
    check(
        "def f = (xs\n:> [n]i32)",
        "def f = (xs\n         :> [n]i32)\n",
    );
}

#[test]
fn records_arrays_tuples() {
    check(
        "def r = { a = 1\n  , b = [1,\n    2, 3]\n    }",
        "def r = { a = 1\n        , b = [1,\n               2, 3]\n        }\n",
    );
    check("def t =\n(\n1,\n2\n)", "def t =\n  (\n    1,\n    2\n  )\n");
    check(
        "def xs = [ [1, 2]\n, [3, 4]\n]",
        "def xs = [ [1, 2]\n         , [3, 4]\n         ]\n",
    );
}

#[test]
fn modules() {
    check(
        "module M = {\n      -- A comment.\n      def x = 1\n        }",
        "module M = {\n  -- A comment.\n  def x = 1\n}\n",
    );
    check(
        "module type S = {\ntype t\nval f : t ->\nt\n}\nmodule F (P: S) : S = {\ntype t = P.t\ndef f = P.f\n}",
        "module type S = {\n  type t\n  val f : t ->\n          t\n}\nmodule F (P: S) : S = {\n  type t = P.t\n  def f = P.f\n}\n",
    );
    check(
        "module M = {\nmodule N = {\ndef x = 1\n}\n}",
        "module M = {\n  module N = {\n    def x = 1\n  }\n}\n",
    );
}

#[test]
fn module_headers_over_several_lines() {
    // A signature after a `:` that starts a line is laid out from its
    // brace; the body after `} = {` from the declaration.
    check(
        "module m2\n: {\ntype^ t\n} = {\ntype^ t = i32\n}",
        "module m2\n  : {\n      type^ t\n    } = {\n  type^ t = i32\n}\n",
    );
    check(
        "module mk (R: { type t })\n: S with t = R.t = {\ntype t = R.t\n}",
        "module mk (R: { type t })\n  : S with t = R.t = {\n  type t = R.t\n}\n",
    );
    check(
        "module twice = \\(P: op) ->\n{\ndef f = P.f\n}",
        "module twice = \\(P: op) ->\n  {\n    def f = P.f\n  }\n",
    );
    check(
        "module type mt = {\nmodule foo: {\nval x : i32\n}\n}",
        "module type mt = {\n  module foo: {\n    val x : i32\n  }\n}\n",
    );
}

#[test]
fn comments_in_awkward_places() {
    check(
        "-- ==\n-- input { 1 }\n-- output { 2 }\n\n-- | Doc.\n--   More.\ndef f (x: i32) = -- after =\n  -- before the body\n  x + -- inside\n      1 -- at the end",
        "-- ==\n-- input { 1 }\n-- output { 2 }\n\n-- | Doc.\n--   More.\ndef f (x: i32) = -- after =\n  -- before the body\n  x + -- inside\n      1 -- at the end\n",
    );
    // A comment after `then` at the end of a line: the branch goes where
    // it would have been without the comment.
    check(
        "def f x =\n  if x\n  then -- yes\n  1\n  else -- no\n  2",
        "def f x =\n  if x\n  then -- yes\n       1\n  else -- no\n       2\n",
    );
    // Comments glued to tokens, trailing whitespace, end of file without a
    // line break, a comment between `let` bindings and before `in`.
    check(
        "def f =\n  let x = 1--glued   \n      -- between\n  let y = 2\n        -- before in\n  in x+y\n   -- last",
        "def f =\n  let x = 1 --glued\n  -- between\n  let y = 2\n  -- before in\n  in x + y\n-- last\n",
    );
    check(
        "def f = g (-- why\n x)",
        "def f = g ( -- why\n            x)\n",
    );
    check("-- only a comment", "-- only a comment\n");
    // Aligned trailing comments keep their spacing.
    check(
        "def a = 1   -- one\ndef bb = 22 -- two",
        "def a = 1   -- one\ndef bb = 22 -- two\n",
    );
}

#[test]
fn parse_errors_are_located() {
    let e = format("def f = 1 +\n", "bad.fut").unwrap_err();
    let FmtError::Parse(msg) = &e else {
        panic!("{e:?}")
    };
    assert!(msg.contains("bad.fut:2:1"), "{msg}");
    assert!(msg.contains("Unexpected end of file"), "{msg}");
    let e = format("def f = \"abc\n", "s.fut").unwrap_err();
    assert!(
        matches!(&e, FmtError::Parse(m) if m.contains("s.fut:1:9")),
        "{e}"
    );
    assert!(is_formatted("def x = 1\n", "a.fut").unwrap());
    assert!(!is_formatted("def x=1\n", "a.fut").unwrap());
    assert!(is_formatted("def x =", "a.fut").is_err());
}

#[test]
fn random_spacing_and_breaks_are_undone_idempotently() {
    // The same program with its line breaks kept and the indentation and
    // spacing within lines scrambled formats to one text.
    let lines = [
        "def main [n] (xs: [n]i32) : i32 =",
        "let ys = map (\\x ->",
        "x * 2) xs",
        "let s = loop s = 0 for y in ys do",
        "if y > 2",
        "then s + y",
        "else s",
        "in s",
    ];
    let mut expected: Option<String> = None;
    let mut seed = 0x1234_5678_u64;
    for _ in 0..50 {
        let mut src = String::new();
        for l in lines {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            src.push_str(&" ".repeat((seed % 9) as usize));
            // Double some of the spaces inside the line.
            src.push_str(&l.replace(' ', if seed.is_multiple_of(2) { "  " } else { " " }));
            src.push('\n');
        }
        let out = format(&src, "r.fut").unwrap();
        assert_eq!(format(&out, "r.fut").unwrap(), out);
        match &expected {
            None => expected = Some(out),
            Some(e) => assert_eq!(&out, e, "from\n{src}"),
        }
    }
    assert_eq!(
        expected.unwrap(),
        "def main [n] (xs: [n]i32) : i32 =\n  let ys = map (\\x ->\n                  x * 2) xs\n  let s = loop s = 0 for y in ys do\n            if y > 2\n            then s + y\n            else s\n  in s\n"
    );
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.extension().is_some_and(|x| x == "fut") {
            out.push(p);
        }
    }
}

/// Every program of the repository that parses formats to a fixed point
/// (`format` itself checks that the tree, tokens and comments are kept),
/// and to the same text from its lines with their indentation removed.
#[test]
fn repository_programs_are_fixed_points() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![];
    collect(&root.join("tests"), &mut files);
    collect(&root.join("benchmarks"), &mut files);
    files.sort();
    let mut formatted = 0;
    for f in &files {
        let Ok(src) = std::fs::read_to_string(f) else {
            continue;
        };
        let name = f.display().to_string();
        let out = match format(&src, &name) {
            Ok(out) => out,
            Err(FmtError::Parse(_)) => continue,
            Err(e) => panic!("{e}"),
        };
        let again = format(&out, &name).unwrap_or_else(|e| panic!("{name}, second run: {e}"));
        assert_eq!(again, out, "{name}: formatting is not idempotent");
        // Indentation comes from the structure alone: the program with
        // every line's indentation removed formats to the same text.
        let flat: String = src
            .lines()
            .map(|l| l.trim_start().to_string() + "\n")
            .collect();
        let from_flat = format(&flat, &name).unwrap_or_else(|e| panic!("{name} unindented: {e}"));
        assert_eq!(from_flat, out, "{name}: indentation depends on the input's");
        formatted += 1;
    }
    assert!(formatted > 100, "only {formatted} programs formatted");
}

/// Long chains, which make deep trees, format in linear time and without
/// exhausting the stack (the test threads have small stacks).
#[test]
fn long_chains() {
    let mut src = String::from("def f =\n");
    for i in 0..20_000 {
        src.push_str(&format!("      let x{i} = {i}\n"));
    }
    src.push_str("  in 0\n");
    src.push_str("def g = ");
    src.push_str(&vec!["x"; 50_000].join("+"));
    let start = std::time::Instant::now();
    let out = format(&src, "long.fut").unwrap();
    assert!(out.starts_with("def f =\n  let x0 = 0\n  let x1 = 1\n"));
    assert!(out.contains("  let x19999 = 19999\n  in 0\ndef g = x + x + x"));
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}
