//! Size inference: what the size parameters of each use of a function
//! resolve to in the caller.

mod common;
use common::*;
use parad_types::tast::{Dim, SizeOp, TExp, TExpKind, TProgram};

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
        Dim::Infer(_) => "unresolved".into(),
        Dim::Const(c) => c.to_string(),
        Dim::Var(v) => p.var(*v).name.clone(),
        Dim::Op(o, a, b) => {
            let o = match o {
                SizeOp::Add => "+",
                SizeOp::Sub => "-",
                SizeOp::Mul => "*",
            };
            format!("({} {o} {})", show(p, a), show(p, b))
        }
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
    let src = "entry f (xs: []i32) : [][]i32 = unflatten xs";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["?", "?"]]);
}

#[test]
fn sizes_of_a_function_body_do_not_escape() {
    // `k` is local to `g`: its uses see an unknown size.
    let src = "def g (xs: []i32) = let k = length xs in replicate k 0i32
               entry f (xs: []i32) : [][]i32 = unflatten (g xs)";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["?", "?"]]);
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
      in unflatten xs";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["?", "?"]]);
}

#[test]
fn branches_that_disagree_give_unknown_sizes() {
    let src =
        "entry f (b: bool) = unflatten (if b then [1i32, 2, 3, 4] else [1i32, 2, 3, 4, 5, 6])";
    assert_eq!(uses(src, "f", "unflatten"), vec![vec!["?", "?"]]);
}
