//! Size inference: what the size parameters of each use of a function
//! resolve to in the caller.

mod common;
use common::*;
use parad_types::tast::{Dim, TExp, TExpKind, TProgram, Type};

/// The size instantiations of every use of top-level function `callee`
/// inside function `caller`, in order, with variables by name.
fn uses(src: &str, caller: &str, callee: &str) -> Vec<Vec<String>> {
    let c = check(src);
    let p = &c.typed;
    let id = p.fun_by_name(callee).expect("callee exists").id;
    let mut out = vec![];
    walk(
        &p.fun_by_name(caller).expect("caller exists").body,
        &mut |e| {
            if let TExpKind::Global(f, _, sizes) = &e.kind {
                if *f == id {
                    out.push(sizes.iter().map(|(_, d)| show(p, d)).collect());
                }
            }
        },
    );
    out
}

fn show(p: &TProgram, d: &Dim) -> String {
    match d {
        Dim::Any => "?".into(),
        Dim::Infer(_) | Dim::AbbrevParam(_) => "unresolved".into(),
        Dim::Const(c) => c.to_string(),
        Dim::Var(v) => p.var(*v).name.clone(),
        Dim::Op(o, a, b) => format!("({} {} {})", show(p, a), o.symbol(), show(p, b)),
    }
}

fn walk(e: &TExp, f: &mut dyn FnMut(&TExp)) {
    f(e);
    match &e.kind {
        TExpKind::Apply(g, args) => {
            walk(g, f);
            args.iter().for_each(|a| walk(a, f));
        }
        TExpKind::Let { rhs, body, .. } => {
            walk(rhs, f);
            walk(body, f);
        }
        TExpKind::LetFun(lf, body) => {
            walk(&lf.body, f);
            walk(body, f);
        }
        TExpKind::Lambda(_, body) | TExpKind::Coerce(body) => walk(body, f),
        TExpKind::Tuple(es) | TExpKind::ArrayLit(es) => es.iter().for_each(|x| walk(x, f)),
        TExpKind::If(c, t, g) => {
            walk(c, f);
            walk(t, f);
            walk(g, f);
        }
        _ => {}
    }
}

#[test]
fn unflatten_from_declared_result() {
    let src = "entry f [n] (xs: [n][4]f32) : [n][4]f32 = flatten xs |> unflatten";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["n", "4"]]);
}

#[test]
fn unflatten_from_argument_size_expression() {
    let src = "entry f (r: i64) (c: i64) (xs: []i32) = unflatten (xs :> [r * c]i32)";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["r", "c"]]);
    let src = "entry f (n: i64) (m: i64) = tabulate (n * m) (\\i -> i) |> unflatten";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["n", "m"]]);
}

#[test]
fn unflatten_from_later_use() {
    let src = "entry f (n: i64) (m: i64) (xs: []f64) = let ys = unflatten xs let zs: [n][m]f64 = ys in zs";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["n", "m"]]);
}

#[test]
fn nested_unflatten_through_sized_and_map() {
    let src = "entry f [n] [m] [k] (xs: [n][m][k]f32) : [n][m][k]f32 =
      unflatten (sized (n * (m * k)) (flatten_3d xs)) |> map unflatten";
    assert_eq!(
        uses(src, "f", "unflatten"),
        vec![vec!["n", "(m * k)"], vec!["m", "k"]]
    );
}

#[test]
fn split_from_pattern_and_concatenation() {
    let src =
        "entry f [n] (k: i64) (xs: [n]i32) = let (a: [k]i32, b: [n - k]i32) = split xs in (a, b)";
    assert_eq!(uses(src, "f", "split"), vec![vec!["k", "(n - k)"]]);
    let src = "entry f [n] [m] (a: [n]i32) (b: [m]i32) = split (a ++ b)";
    assert_eq!(uses(src, "f", "split"), vec![vec!["n", "m"]]);
}

#[test]
fn unknown_sizes_stay_unknown() {
    let src = "entry f (xs: []i32) : [][]i32 = reshape xs";
    assert_eq!(
        uses(&with_reshape(src), "f", "reshape"),
        vec![vec!["?", "?"]]
    );
}

#[test]
fn sizes_of_a_function_body_do_not_escape() {
    // `k` is local to `g`: its uses see an unknown size.
    let src = "def g (xs: []i32) = let k = length xs in replicate k 0i32
               entry f (xs: []i32) : [][]i32 = reshape (g xs)";
    assert_eq!(
        uses(&with_reshape(src), "f", "reshape"),
        vec![vec!["?", "?"]]
    );
}

#[test]
fn loops_keep_only_sizes_the_body_keeps() {
    // The body keeps the size: the result has the initial value's size.
    let src = "entry f (n: i64) (m: i64) =
      let xs = loop acc = replicate (n * m) 0i32 for i < 3 do map (+ 1) acc
      in unflatten xs : [n][m]i32";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["n", "m"]]);
    // The body doubles the size: nothing is known after the loop.
    let src = "entry f (n: i64) (m: i64) =
      let xs = loop acc = replicate (n * m) 0i32 for i < 3 do acc ++ acc
      in reshape xs";
    assert_eq!(
        uses(&with_reshape(src), "f", "reshape"),
        vec![vec!["?", "?"]]
    );
}

#[test]
fn branches_that_disagree_give_unknown_sizes() {
    let src = "entry f (b: bool) = reshape (if b then [1i32, 2, 3, 4] else [1i32, 2, 3, 4, 5, 6])";
    assert_eq!(
        uses(&with_reshape(src), "f", "reshape"),
        vec![vec!["?", "?"]]
    );
}

/// `src` after a user-defined `unflatten`.
fn with_reshape(src: &str) -> String {
    format!("def reshape 't [n] [m] (xs: [n * m]t) : [n][m]t = unflatten xs\n{src}")
}

#[test]
fn prelude_sizes_nothing_determines_stay_unknown() {
    // Left to lowering, which reports them at the use, for each entry
    // point that needs one.
    assert_eq!(
        uses(
            "entry f (xs: []i32) : [][]i32 = unflatten xs",
            "f",
            "unflatten"
        ),
        vec![vec!["?", "?"]]
    );
    assert_eq!(
        uses(
            "entry f (k: i64) (xs: []i32) : [k][]i32 = unflatten xs",
            "f",
            "unflatten"
        ),
        vec![vec!["k", "?"]]
    );
}

#[test]
fn top_level_constants_are_known_sizes() {
    let src = "def A = 3i64
               def B: i64 = 2 * A - 2
               entry f (xs: [A * B]f64) : [A][B]f64 = unflatten xs
               entry g (xs: []f64) = unflatten (xs :> [A * B]f64)
               entry h (xs: []f64) : [A][B]f64 = unflatten (xs :> [A * B]f64)";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["3", "4"]]);
    assert_eq!(uses(src, "g", "unflatten"), vec![vec!["3", "4"]]);
    assert_eq!(uses(src, "h", "unflatten"), vec![vec!["3", "4"]]);
    // A constant whose value is not an arithmetic of literals is unknown.
    let src = "def k = i64.sum [1, 2]\nentry f (xs: [k * 2]f64) = unflatten xs";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["?", "?"]]);
}

#[test]
fn sizes_of_type_abbreviations_are_their_arguments() {
    let src = "type vec [n] = [n]f64
               type mat [n] [m] = [n](vec [m])
               type pair 't [k] = ([k]t, [k]t)
               def rows [r] [c] (a: mat [r] [c]) : i64 = r + c
               def both [k] (p: pair f64 [k]) : i64 = k
               entry f [a] (xs: [a * 2]f64) : mat [a] [2] = unflatten xs
               entry g (x: [][]f64) = rows x
               entry h (p: []f64) (q: []f64) = both (p, q)";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["a", "2"]]);
    assert_eq!(fun_type(src, "rows"), "[][]f64 -> i64");
    let c = check(src);
    let p = &c.typed;
    let rows = p.fun_by_name("rows").unwrap();
    let srcs: Vec<(String, u32)> = rows
        .size_sources
        .iter()
        .map(|s| (p.var(s.size).name.clone(), s.dim))
        .collect();
    assert_eq!(srcs, vec![("r".to_string(), 0), ("c".to_string(), 1)]);
    let both = p.fun_by_name("both").unwrap();
    let paths: Vec<Vec<String>> = both.size_sources.iter().map(|s| s.path.clone()).collect();
    assert_eq!(paths, vec![vec!["0".to_string()], vec!["1".to_string()]]);
}

#[test]
fn record_abbreviations_give_sizes_through_fields() {
    let src = "type model [b] [m] = {parents: [b]i32, verts: [m][3]f64}
               def f [b] [m] (x: model [b] [m]) : i64 = b + m
               entry g (p: []i32) (v: [][3]f64) = f {parents = p, verts = v}";
    let c = check(src);
    let p = &c.typed;
    let f = p.fun_by_name("f").unwrap();
    let srcs: Vec<(String, Vec<String>, u32)> = f
        .size_sources
        .iter()
        .map(|s| (p.var(s.size).name.clone(), s.path.clone(), s.dim))
        .collect();
    assert_eq!(
        srcs,
        vec![
            ("b".to_string(), vec!["parents".to_string()], 0),
            ("m".to_string(), vec!["verts".to_string()], 0)
        ]
    );
}

#[test]
fn sizes_bound_inside_an_abbreviation_stay_unknown() {
    // `k` is existential and `n` of the function type is bound there:
    // neither is a size of the abbreviation's uses.
    let src = "type ex [n] = ?[k].([n]f64, [k]f64)
               type^ fn [n] = (k: i64) -> [n][k]f64
               def first [n] (e: ex [n]) : i64 = n
               def app [n] (f: fn [n]) : [n][2]f64 = f 2
               entry g (x: []f64) (y: []f64) = first (x, y)";
    let c = check(src);
    let p = &c.typed;
    let first = p.fun_by_name("first").unwrap();
    assert_eq!(first.size_sources.len(), 1);
    let app = p.fun_by_name("app").unwrap();
    let Type::Arrow(_, res) = app.params[0].ty() else {
        panic!("a function parameter")
    };
    let Type::Array(_, dims) = *res else {
        panic!("an array result")
    };
    assert_eq!(show(p, &dims[0]), "n");
    assert_eq!(show(p, &dims[1]), "?");
}
