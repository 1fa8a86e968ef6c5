//! Inferred types of functions and entry points.

mod common;
use common::*;

#[test]
fn prelude_checks() {
    let c = check("");
    assert!(c.typed.funs.iter().any(|f| f.name == "map"));
    assert!(c.entries.is_empty());
}

#[test]
fn map_reduce_entry() {
    let c = check("def main (xs: []f32) = reduce (+) 0 (map (\\x -> x * 2) xs)");
    assert_eq!(c.entries.len(), 1);
    assert_eq!(c.entries[0].params, vec!["[]f32"]);
    assert_eq!(c.entries[0].results, vec!["f32"]);
}

#[test]
fn literals_default_to_i32_and_f64() {
    assert_eq!(fun_type("def f = 1 + 2", "f"), "i32");
    assert_eq!(fun_type("def f = 1.5 * 2", "f"), "f64");
    assert_eq!(fun_type("def f (x: u8) = x + 1", "f"), "u8 -> u8");
    assert_eq!(fun_type("def f x y = x + y", "f"), "i32 -> i32 -> i32");
    assert_eq!(fun_type("def f (x: f32) = x < 1", "f"), "f32 -> bool");
}

#[test]
fn size_parameters_are_i64_values() {
    assert_eq!(fun_type("def f [n] (xs: [n]f32) = n", "f"), "[]f32 -> i64");
    assert_eq!(
        fun_type("def f n (xs: [n]i32) = xs", "f"),
        "i64 -> []i32 -> []i32"
    );
    let c = check("def f [n][m] (xss: [n][m]f32) = n * m");
    let f = c.typed.fun_by_name("f").unwrap();
    assert_eq!(f.size_params.len(), 2);
    assert_eq!(f.size_sources.len(), 2);
    assert_eq!(f.size_sources[1].dim, 1);
}

#[test]
fn polymorphism_and_generalisation() {
    assert_eq!(
        fun_type("def twice 'a (f: a -> a) (x: a) = f (f x)", "twice"),
        "(a -> a) -> a -> a"
    );
    assert_eq!(
        fun_type("def pair x y = (y, x)", "pair"),
        "t0 -> t1 -> (t1, t0)"
    );
    // As in Futhark, a local function is polymorphic only in the type
    // parameters it declares: its other types are fixed by its uses.
    assert_eq!(
        fun_type(
            "def f (x: i32) (b: bool) = let g 'a (y: a) = (y, y) in (g x, g b)",
            "f"
        ),
        "i32 -> bool -> ((i32, i32), (bool, bool))"
    );
    assert_eq!(
        fun_type("def f (x: i32) = let g y = (y, y) in g x", "f"),
        "i32 -> (i32, i32)"
    );
}

#[test]
fn higher_order_prelude_functions() {
    assert_eq!(
        fun_type(
            "def f (xs: []f32) (ys: []f32) = map2 (*) xs ys |> reduce (+) 0",
            "f"
        ),
        "[]f32 -> []f32 -> f32"
    );
    assert_eq!(
        fun_type("def f (xs: [][]i32) = transpose xs |> flatten", "f"),
        "[][]i32 -> []i32"
    );
    assert_eq!(
        fun_type(
            "def f (n: i64) = tabulate_2d n n (\\i j -> f64.i64 (i + j))",
            "f"
        ),
        "i64 -> [][]f64"
    );
    assert_eq!(
        fun_type("def f (xs: []i32) = filter (> 0) xs", "f"),
        "[]i32 -> []i32"
    );
    assert_eq!(
        fun_type("def f (xs: []i32) = unzip (zip xs (map f32.i32 xs))", "f"),
        "[]i32 -> ([]i32, []f32)"
    );
    assert_eq!(
        fun_type("def f (x: f64) = vjp (\\y -> y * y) x 1", "f"),
        "f64 -> f64"
    );
}

#[test]
fn records_tuples_and_projection() {
    assert_eq!(
        fun_type("def f (p: {x: f32, y: f32}) = p.x + p.y", "f"),
        "{x: f32, y: f32} -> f32"
    );
    assert_eq!(
        fun_type("def f (t: (i32, bool)) = t.1", "f"),
        "(i32, bool) -> bool"
    );
    assert_eq!(
        fun_type("def f (ps: []{a: i32, b: f64}) = map (\\p -> p.b) ps", "f"),
        "[]{a: i32, b: f64} -> []f64"
    );
    assert_eq!(
        fun_type("def f (r: {a: {b: i32}}) = r with a.b = 2", "f"),
        "{a: {b: i32}} -> {a: {b: i32}}"
    );
    assert_eq!(
        fun_type("def f (r: {a: {b: i32}}) = r.a.b", "f"),
        "{a: {b: i32}} -> i32"
    );
}

#[test]
fn numeric_modules() {
    assert_eq!(
        fun_type("def f (x: f32) = f32.sqrt x + f32.pi", "f"),
        "f32 -> f32"
    );
    assert_eq!(fun_type("def f (x: i32) = f64.i32 x", "f"), "i32 -> f64");
    assert_eq!(fun_type("def f (xs: []u8) = u8.sum xs", "f"), "[]u8 -> u8");
    assert_eq!(
        fun_type("def f (x: f32) = f32.to_bits x", "f"),
        "f32 -> u32"
    );
    assert_eq!(
        fun_type("def f (x: f64) = f64.(sqrt x * 2)", "f"),
        "f64 -> f64"
    );
    assert_eq!(fun_type("def f = i64.highest", "f"), "i64");
}

#[test]
fn loops_updates_and_sections() {
    assert_eq!(
        fun_type("def f (n: i32) = loop acc = 0 for i < n do acc + i", "f"),
        "i32 -> i32"
    );
    assert_eq!(
        fun_type(
            "def f (xs: *[]f32) = loop xs for i < 3 do xs with [i] = 0",
            "f"
        ),
        "[]f32 -> []f32"
    );
    assert_eq!(
        fun_type("def f (xs: [][]f32) = map (.[0]) xs", "f"),
        "[][]f32 -> []f32"
    );
    assert_eq!(
        fun_type("def f (xs: []i32) = map (2 -) xs", "f"),
        "[]i32 -> []i32"
    );
    assert_eq!(
        fun_type("def f (x: i32) = x |> (+ 1) |> (* 2)", "f"),
        "i32 -> i32"
    );
    assert_eq!(
        fun_type("def f (xs: []i32) = xs[1:3]", "f"),
        "[]i32 -> []i32"
    );
}

#[test]
fn type_abbreviations() {
    let src = "type vec 'a = []a\ntype point = {x: f32, y: f32}\ndef f (v: vec point) : vec f32 = map (.x) v";
    assert_eq!(fun_type(src, "f"), "[]{x: f32, y: f32} -> []f32");
}

#[test]
fn entry_points_are_printed_types() {
    let c = check(
        "entry e (xs: [][]f64) (b: bool) : ([]f64, i64) = (xs[0], length xs)\ndef main = 1u16",
    );
    assert_eq!(c.entries.len(), 2);
    assert_eq!(c.entries[0].name, "e");
    assert_eq!(c.entries[0].params, vec!["[][]f64", "bool"]);
    assert_eq!(c.entries[0].results, vec!["[]f64", "i64"]);
    assert_eq!(c.entries[1].results, vec!["u16"]);
}

#[test]
fn literals_take_their_final_types() {
    use parad_types::tast::{Literal, TExpKind};
    let c = check("def f : f32 = 3\ndef g : i8 = -128");
    let f = c.typed.fun_by_name("f").unwrap();
    assert_eq!(f.body.kind, TExpKind::Lit(Literal::Float(3.0)));
    let g = c.typed.fun_by_name("g").unwrap();
    assert_eq!(g.body.kind, TExpKind::Lit(Literal::Int(-128)));
}

#[test]
fn operators_become_intrinsics() {
    use parad_types::tast::{TExpKind, Type};
    let c = check("def f (x: f32) (y: f32) = x * y");
    let f = c.typed.fun_by_name("f").unwrap();
    let TExpKind::Apply(op, args) = &f.body.kind else {
        panic!("not an application")
    };
    assert_eq!(args.len(), 2);
    assert_eq!(
        op.kind,
        TExpKind::Intrinsic(
            "mul",
            vec![Type::Prim(parad_base::PrimType::Float(
                parad_base::FloatType::F32
            ))]
        )
    );
}

#[test]
fn records_with_numeric_fields_are_tuples() {
    assert_eq!(
        fun_type("def f (r: {1: bool, 0: i32}) : (i32, bool) = r", "f"),
        "(i32, bool) -> (i32, bool)"
    );
    assert_eq!(fun_type("def f = {1 = true, 0 = 2i32}", "f"), "(i32, bool)");
}

#[test]
fn sum_types() {
    // Constructors sorted by name; a constructor alone defaults to the
    // sum of the constructors seen.
    assert_eq!(
        fun_type(
            "def f (x: #b i32 | #a) : i32 = match x case #a -> 0 case #b y -> y",
            "f"
        ),
        "(#a | #b i32) -> i32"
    );
    assert_eq!(
        fun_type("def f (x: i32) = #just x", "f"),
        "i32 -> #just i32"
    );
    assert_eq!(
        fun_type("def f (b: bool) = if b then #yes 1f32 else #no", "f"),
        "bool -> #no | #yes f32"
    );
    // Parameterised abbreviations, arrays of sums, irrefutable patterns.
    assert_eq!(
        fun_type(
            "type opt 'a = #some a | #none\ndef f (xs: []i32) : [](opt i32) = map (\\x -> #some x) xs",
            "f"
        ),
        "[]i32 -> [](#none | #some i32)"
    );
    assert_eq!(
        fun_type("type w = #w i32 f32\ndef f ((#w a b): w) = (a, b)", "f"),
        "(#w i32 f32) -> (i32, f32)"
    );
}
