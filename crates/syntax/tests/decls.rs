//! Types, patterns, declarations and modules.

use parad_base::FileId;
use parad_syntax::ast::{Decl, ModExp};
use parad_syntax::{parse, parse_type, parse_with_ids, sexp};

fn ty(src: &str) -> String {
    match parse_type(FileId(0), src) {
        Ok(t) => sexp::type_exp(&t),
        Err(d) => panic!("parse error in {src:?}: {}", d.message),
    }
}

fn prog(src: &str) -> String {
    match parse(FileId(0), src) {
        Ok(p) => sexp::program(&p).trim_end().to_string(),
        Err(d) => panic!("parse error in {src:?}: {}", d.message),
    }
}

#[track_caller]
fn check_ty(src: &str, expected: &str) {
    assert_eq!(ty(src), expected, "source: {src}");
}

#[track_caller]
fn check(src: &str, expected: &str) {
    assert_eq!(prog(src), expected, "source: {src}");
}

#[test]
fn types() {
    check_ty("i32", "i32");
    check_ty("[n]f32", "([n] f32)");
    check_ty("[]t", "([] t)");
    check_ty("*[]i32", "(* ([] i32))");
    check_ty("[n][m]f64", "([n] ([m] f64))");
    check_ty("[n+1]i32", "([(+ n 1)] i32)");
    check_ty("(i32, bool)", "(tuple i32 bool)");
    check_ty("()", "(tuple)");
    check_ty("(i32)", "i32");
    check_ty("{x: f32, y: [3]i32}", "(record (x f32) (y ([3] i32)))");
    check_ty("i32 -> i32 -> bool", "(-> i32 (-> i32 bool))");
    check_ty("(i32 -> i32) -> bool", "(-> (-> i32 i32) bool)");
    check_ty("(x: i64) -> [x]f32", "(-> (x: i64) ([x] f32))");
    check_ty("#a | #b i32", "(sum #a (#b i32))");
    check_ty(
        "#some (i32, f32) | #none",
        "(sum (#some (tuple i32 f32)) #none)",
    );
    check_ty("#c [n]i32 bool", "(sum (#c ([n] i32) bool))");
    check_ty("?[n].[n]i32", "(? [n] ([n] i32))");
    check_ty(
        "?[n][m].([n]i32, [m]i32)",
        "(? [n] [m] (tuple ([n] i32) ([m] i32)))",
    );
    check_ty("two_vecs [2] i32", "(two_vecs [2] i32)");
    check_ty("pt [n]t", "(pt [n] t)");
    check_ty("M.t [] f32", "(M.t [] f32)");
    check_ty("[n]opt i32", "([n] (opt i32))");
    check_ty("list (list i32)", "(list (list i32))");
}

#[test]
fn value_declarations() {
    check("def x = 1", "(def x () 1)");
    check("def x: i32 = 1", "(def x () : i32 1)");
    check("let x = 1", "(let x () 1)");
    check(
        "entry main (xs: []i32) = xs",
        "(entry main ((: xs ([] i32))) xs)",
    );
    check(
        "def reverse [n] 't (xs: [n]t): [n]t = xs[::-1]",
        "(def reverse [n] 't ((: xs ([n] t))) : ([n] t) (index xs (: _ _ (neg 1))))",
    );
    check("def f 'a '~b '^c x = x", "(def f 'a '~b '^c (x) x)");
    check(
        "def f (a, b) {x, y} _ = a",
        "(def f ((tuple a b) (record x y) _) a)",
    );
    check("def (+^) a b = a", "(def +^ (a b) a)");
    check(
        "def (a: i32, b: i32) +^ (c: i32, d: i32) = (a + c, b + d)",
        "(def +^ ((tuple (: a i32) (: b i32)) (tuple (: c i32) (: d i32))) (tuple (+ a c) (+ b d)))",
    );
    check("def x +^ y = x", "(def +^ (x y) x)");
    check("def g (+) x y = x + y", "(def g (+ x y) (+ x y))");
    check(
        "def f x =\n  let y = x\n  in y\ndef g = 2",
        "(def f (x) (let y x y))\n(def g () 2)",
    );
}

#[test]
fn attributes_and_docs_on_declarations() {
    let p = parse(
        FileId(0),
        "-- | Adds one.\n-- More text.\n#[inline]\ndef f x = x + 1\n-- plain\ndef g = 1",
    )
    .unwrap();
    let Decl::Val(f) = &p.decls[0] else { panic!() };
    assert_eq!(f.doc.as_deref(), Some("Adds one.\nMore text."));
    assert_eq!(f.attrs.len(), 1);
    let Decl::Val(g) = &p.decls[1] else { panic!() };
    assert_eq!(g.doc, None);
    let p = parse(FileId(0), "-- | A type.\ntype t = i32").unwrap();
    let Decl::Type(t) = &p.decls[0] else { panic!() };
    assert_eq!(t.doc.as_deref(), Some("A type."));
}

#[test]
fn type_declarations() {
    check("type t = i32", "(type t i32)");
    check("type~ t = ?[n].[n]i32", "(type~ t (? [n] ([n] i32)))");
    check("type^ f = i32 -> i32", "(type^ f (-> i32 i32))");
    check(
        "type two [n] 't = ([n]t, [n]t)",
        "(type two [n] 't (tuple ([n] t) ([n] t)))",
    );
    check(
        "type opt 'a = #some a | #none",
        "(type opt 'a (sum (#some a) #none))",
    );
}

#[test]
fn module_declarations() {
    check("import \"lib/foo\"", "(import \"lib/foo\")");
    check("open M", "(open M)");
    check("local def x = 1", "(local (def x () 1))");
    check(
        "module M = { def x = 1 }",
        "(module M (struct (def x () 1)))",
    );
    check("module M = import \"foo\"", "(module M (import \"foo\"))");
    check("module M = F N", "(module M (F N))");
    check(
        "module M = F (G N) { def x = 1 }",
        "(module M ((F (G N)) (struct (def x () 1))))",
    );
    check("module M: S = N", "(module M : S N)");
    check("module M = N : S", "(module M (: N S))");
    check(
        "module F (P: S) (Q: T): U = { open P }",
        "(module F (P: S) (Q: T) : U (struct (open P)))",
    );
    check(
        "module type S = { type t val f [n]: [n]t -> t val (+): t -> t -> t module M: T include U }",
        "(module-type S (sig (type t) (val f [n] (-> ([n] t) t)) (val + (-> t (-> t t))) (module M T) (include U)))",
    );
    check(
        "module type S = { type~ t 'a = [](a, i32) }",
        "(module-type S (sig (type~ t 'a ([] (tuple a i32)))))",
    );
    check(
        "module type S = T with t = i32",
        "(module-type S (with T t i32))",
    );
    check(
        "module type S = T with t 'a = [2]a",
        "(module-type S (with T t 'a ([2] a)))",
    );
    check("module type S = (P: T) -> U", "(module-type S (-> P: T U))");
    check("module type S = T -> U", "(module-type S (-> T U))");
    check(
        "module M = \\(P: S): (T with t = P.t) -> { def x = 1 }",
        "(module M (\\ (P: S) : (with T t P.t) (struct (def x () 1))))",
    );
}

#[test]
fn expression_ids_are_unique_and_continue_across_files() {
    let (p1, next) = parse_with_ids(FileId(0), "def x = 1 + 2", 0).unwrap();
    assert_eq!(next, 3);
    let (p2, next2) = parse_with_ids(FileId(1), "def y = f (x, 3)", next).unwrap();
    assert_eq!(next2, next + 5);
    let Decl::Val(a) = &p1.decls[0] else { panic!() };
    let Decl::Val(b) = &p2.decls[0] else { panic!() };
    assert!(a.body.id.0 < 3 && b.body.id.0 >= 3);
}

#[test]
fn mixed_update_paths_get_fresh_ids() {
    let (p, next) = parse_with_ids(FileId(0), "def f a = a with [i].x = v", 0).unwrap();
    let Decl::Val(f) = &p.decls[0] else { panic!() };
    let mut ids = vec![];
    let mut body = f.body.clone();
    parad_syntax::visit::walk_exp_mut(&mut body, &mut |e| ids.push(e.id.0));
    let n = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), n, "duplicate ids");
    assert!(ids.iter().all(|&i| i < next));
}

#[test]
fn spans_cover_source_text() {
    let src = "def f x = g (x + 1) y";
    let p = parse(FileId(0), src).unwrap();
    let Decl::Val(f) = &p.decls[0] else { panic!() };
    assert_eq!(&src[f.body.span.range()], "g (x + 1) y");
    assert_eq!(&src[f.span.range()], src);
    let p = parse(FileId(0), "module M = {}").unwrap();
    let Decl::Module(m) = &p.decls[0] else {
        panic!()
    };
    assert!(matches!(m.body, ModExp::Struct(..)));
}
