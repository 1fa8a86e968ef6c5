//! Expression parsing, checked through the S-expression rendering.

use parad_base::FileId;
use parad_syntax::{parse_exp, sexp};

fn p(src: &str) -> String {
    match parse_exp(FileId(0), src) {
        Ok(e) => sexp::exp(&e),
        Err(d) => panic!("parse error in {src:?}: {}", d.message),
    }
}

#[track_caller]
fn check(src: &str, expected: &str) {
    assert_eq!(p(src), expected, "source: {src}");
}

#[test]
fn literals() {
    check("1", "1");
    check("1i64", "1i64");
    check("0xFFu8", "255u8");
    check("0b101", "5");
    check("1_000", "1000");
    check("2.5f32", "2.5f32");
    check("1e-3f64", "0.001f64");
    check("1337e2", "133700.0");
    check("3f32", "3f32");
    check("0x1.fp3", "15.5");
    check("true", "true");
    check("false", "false");
    check("'a'", "(char 97)");
    check(r"'\n'", "(char 10)");
    check(r"'\''", "(char 39)");
    check("'λ'", "(char 955)");
    check(r#""ab\"c""#, r#""ab\"c""#);
    check("???", "???");
}

#[test]
fn negative_literals_are_negations() {
    check("-1", "(neg 1)");
    check("x - 1", "(- x 1)");
    check("f x -1", "(- (f x) 1)");
    check("f (-1)", "(f (neg 1))");
    check("-x * y", "(* (neg x) y)");
    check("-f x", "(neg (f x))");
    check("!a && b", "(&& (not a) b)");
    check("- -x", "(neg (neg x))");
}

#[test]
fn arrays_tuples_records() {
    check("[1, 2, 3]", "(array 1 2 3)");
    check("[1, 2,]", "(array 1 2)");
    check("[]", "(array)");
    check("(1, 2)", "(tuple 1 2)");
    check("()", "(tuple)");
    check("((1))", "1");
    check("{x = 1, y}", "(record (x 1) y)");
    check("{0 = a, 1 = b}", "(record (0 a) (1 b))");
    check("{}", "(record)");
}

#[test]
fn names_and_projections() {
    check("r.x.y", "r.x.y");
    check("f32.sqrt x", "(f32.sqrt x)");
    check("M.N.f", "M.N.f");
    check("t.0", "(. t 0)");
    check("t.0.1", "(. (. t 0) 1)");
    check("r.x.0.y", "(. (. r.x 0) y)");
    check("(f x).y", "(. (f x) y)");
    check("(a, b).1", "(. (tuple a b) 1)");
    check("a[i].x", "(. (index a i) x)");
    check("f x.y", "(f x.y)");
    check("M.(x + y)", "(open M (+ x y))");
    check("A.B.(x)", "(open A.B x)");
}

#[test]
fn indexing_versus_application() {
    check("a[i]", "(index a i)");
    check("f [1, 2]", "(f (array 1 2))");
    check("f a[i]", "(f (index a i))");
    check("a[i][j]", "(index (index a i) j)");
    check("a[i, j:k]", "(index a i (: j k _))");
    check("a[:, ::2]", "(index a (: _ _ _) (: _ _ 2))");
    check("a[i:]", "(index a (: i _ _))");
    check("a[::-1]", "(index a (: _ _ (neg 1)))");
    check("a[1:n:2]", "(index a (: 1 n 2))");
    check("(f x)[0]", "(index (f x) 0)");
    check("f (x)", "(f x)");
    check("f(x)", "(f x)");
    check("a[i+1]", "(index a (+ i 1))");
}

#[test]
fn operator_precedence() {
    check("1 + 2 * 3", "(+ 1 (* 2 3))");
    check("1 * 2 + 3", "(+ (* 1 2) 3)");
    check("a - b - c", "(- (- a b) c)");
    check("a ** b ** c", "(** (** a b) c)");
    check("a * b ** c", "(* a (** b c))");
    check("x & y == z", "(== (& x y) z)");
    check("a << 1 + b", "(<< a (+ 1 b))");
    check("a == b && c < d || e", "(|| (&& (== a b) (< c d)) e)");
    check("a // b %% c", "(%% (// a b) c)");
    check("x |> f |> g", "(|> (|> x f) g)");
    check("f <| g <| x", "(<| f (<| g x))");
    check("f <| x && y", "(<| f (&& x y))");
    check("xs |> map f", "(|> xs (map f))");
    check("a || b |> f", "(|> (|| a b) f)");
    check("f x + g y", "(+ (f x) (g y))");
    check("a >>> b", "(>>> a b)");
    check("a >>= b + c", "(>>= a (+ b c))");
    check("a +^ b * c", "(+^ a (* b c))");
    check("a *^ b + c", "(+ (*^ a b) c)");
    check("f >-> g", "(>-> f g)");
    check("f <-< g", "(<-< f g)");
    check("a != b", "(!= a b)");
    check("a `f` b + c", "(f a (+ b c))");
    check("a `M.f` b", "(M.f a b)");
    check("x f32.+ y * z", "(f32.+ x (* y z))");
    check("a ++ b", "(++ a b)");
}

#[test]
fn sections() {
    check("(+)", "(section +)");
    check("(+ 1)", "(section-right + 1)");
    check("(1 +)", "(section-left 1 +)");
    check("(-)", "(section -)");
    check("(- 1)", "(neg 1)");
    check("(-x)", "(neg x)");
    check("(.x)", "(section .x)");
    check("(.0)", "(section .0)");
    check("(.x.y)", "(section .x.y)");
    check("(.[i])", "(section [i])");
    check("(.x.[i])", "(section .x[i])");
    check("(f32.+)", "(section f32.+)");
    check("(`f`)", "(section f)");
    check("(`f` x)", "(section-right f x)");
    check("(x `f`)", "(section-left x f)");
    check("(a + b *)", "(section-left (+ a b) *)");
    check("(!= 0)", "(section-right != 0)");
    check("(++ [1])", "(section-right ++ (array 1))");
}

#[test]
fn ranges() {
    check("a..<b", "(..< a b)");
    check("a...b", "(... a b)");
    check("a..b...c", "(... a b c)");
    check("a..>b", "(..> a b)");
    check("a..b..<c", "(..< a b c)");
    check("0..<n+1", "(..< 0 (+ n 1))");
    check("1..2..>-1", "(..> 1 2 (neg 1))");
}

#[test]
fn ascriptions() {
    check("x : i32", "(: x i32)");
    check("x :> [n]f32", "(:> x ([n] f32))");
    check("f x : []i32", "(: (f x) ([] i32))");
}

#[test]
fn if_let_loop() {
    check("if a then b else c + 1", "(if a b (+ c 1))");
    check("1 + if a then b else c", "(+ 1 (if a b c))");
    check("let x = 1 in x + 1", "(let x 1 (+ x 1))");
    check("let (a, b) = p in a", "(let (tuple a b) p a)");
    check("let x: i32 = 1 in x", "(let (: x i32) 1 x)");
    check(
        "let [n] (xs: [n]i32) = ys in n",
        "(let [n] (: xs ([n] i32)) ys n)",
    );
    check(
        "let a = 1 let b = 2 in a + b",
        "(let a 1 (let b 2 (+ a b)))",
    );
    check("let {x, y = z} = r in x", "(let (record x (y z)) r x)");
    check("let _ = 1 in 2", "(let _ 1 2)");
    check("let a[i] = v in a", "(let a (update a (i) v) a)");
    check("let a[i, j] = v in a", "(let a (update a (i j) v) a)");
    check("let r.x.y = v in r", "(let r (with r x.y v) r)");
    check("let f x y = x + y in f", "(letfun f (x y) (+ x y) f)");
    check(
        "let f [n] 'a (xs: [n]a): a = xs[0] in f",
        "(letfun f [n] 'a ((: xs ([n] a))) : a (index xs 0) f)",
    );
    check(
        "loop acc = 0 for i < n do acc + i",
        "(loop acc 0 (for i n) (+ acc i))",
    );
    check(
        "loop (a, b) = (0, 1) for x in xs do (b, a + x)",
        "(loop (tuple a b) (tuple 0 1) (for-in x xs) (tuple b (+ a x)))",
    );
    check(
        "loop x while x < 10 do x * 2",
        "(loop x _ (while (< x 10)) (* x 2))",
    );
    check(
        "loop (xs: []i32) = [] for i < 3 do xs",
        "(loop (: xs ([] i32)) (array) (for i 3) xs)",
    );
}

#[test]
fn updates() {
    check("a with [i] = v", "(update a (i) v)");
    check("a with [i] = x + 1", "(update a (i) (+ x 1))");
    check("r with x = 1", "(with r x 1)");
    check("r with a.b = e", "(with r a.b e)");
    check("a with [i][j] = v", "(update a (i j) v)");
    check("a with [i].x = v", "(update a (i) (with (index a i) x v))");
    check(
        "let xs[1].f = y in xs",
        "(let xs (update xs (1) (with (index xs 1) f y)) xs)",
    );
}

#[test]
fn lambdas() {
    check(r"\x -> x + 1", r"(\ (x) (+ x 1))");
    check(r"\x y -> x", r"(\ (x y) x)");
    check(r"\(x: i32): i32 -> x", r"(\ ((: x i32)) : i32 x)");
    check(r"\(a, b) -> a", r"(\ ((tuple a b)) a)");
    check(r"map (\x -> x) xs", r"(map (\ (x) x) xs)");
    check(r"tabulate n \i -> i + 1", r"(tabulate n (\ (i) (+ i 1)))");
    check(r"\_ -> 0", r"(\ (_) 0)");
}

#[test]
fn match_constructors_asserts_attributes() {
    check("#foo", "#foo");
    check("#foo 1 x", "(#foo 1 x)");
    check("f #foo", "(f #foo)");
    check(
        "match x case #a y -> y case #b -> 0 case _ -> 1",
        "(match x (case (#a y) y) (case #b 0) (case _ 1))",
    );
    check(
        "match n case 0 -> a case -1 -> b",
        "(match n (case 0 a) (case -1 b))",
    );
    check(
        "match p case (1, 'x', true) -> 1",
        "(match p (case (tuple 1 (char 120) true) 1))",
    );
    check("match x case (y: i32) -> y", "(match x (case (: y i32) y))");
    check("assert (x > 0) x + 1", "(assert (> x 0) (+ x 1))");
    check("#[unsafe] a[i]", "(attr unsafe (index a i))");
    check("#[trace(a, 2)] x + 1", "(attr (trace a 2) (+ x 1))");
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
    let err = parse_exp(FileId(0), &deep).unwrap_err();
    assert_eq!(err.message, "expression nested too deeply");
    let neg = format!("{}x", "- ".repeat(3000));
    assert!(parse_exp(FileId(0), &neg).is_err());
    // Moderate nesting is fine.
    let ok = format!("{}1{}", "(".repeat(60), ")".repeat(60));
    assert!(parse_exp(FileId(0), &ok).is_ok());
}

#[test]
fn long_let_chains_and_operator_chains_parse() {
    let mut src = String::new();
    for i in 0..1000 {
        src.push_str(&format!("let x{i} = {i} in\n"));
    }
    src.push('0');
    assert!(parse_exp(FileId(0), &src).is_ok());
    let sum = vec!["1"; 2000].join(" + ");
    assert!(parse_exp(FileId(0), &sum).is_ok());
}
