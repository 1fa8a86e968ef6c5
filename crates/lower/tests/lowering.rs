//! Lowering Futhark source and running the core IR: the IR is well formed,
//! values are right, and the representation choices (inlining, tuples of
//! arrays, in-place updates) hold.

use parad_core::{check_program, Exp, Program};
use parad_core::{AdOp, Apply, If, Jvp, Map, Soac, Vjp};
use parad_interp::Interp;
use parad_lower::{lower, ErrorKind};
use parad_values::{read_values, Value};

fn compile(src: &str) -> Program {
    let (sources, checked) = parad_types::check_source("test.fut", src);
    let checked = checked.unwrap_or_else(|ds| {
        panic!(
            "{}",
            ds.iter().map(|d| d.render(&sources)).collect::<String>()
        )
    });
    let p = lower(&checked).unwrap_or_else(|e| panic!("{}", e.diagnostic().render(&sources)));
    check_program(&p).unwrap_or_else(|e| panic!("ill-formed IR: {e}\n{p}"));
    p
}

fn vals(text: &str) -> Vec<Value> {
    read_values(text.as_bytes()).unwrap()
}

fn run(p: &Program, entry: &str, args: &str) -> Result<Vec<Value>, String> {
    parad_interp::run(p, entry, vals(args)).map_err(|e| e.message)
}

/// Statements at any depth whose expression satisfies `pred`.
fn count_exps(p: &Program, pred: &dyn Fn(&Exp) -> bool) -> usize {
    parad_core::walk::count(p, |s| pred(&s.exp))
}

#[test]
fn higher_order_functions_are_inlined_away() {
    let p = compile(
        "def twice 'a (f: a -> a) (x: a) = f (f x)\n\
         def compose f g x = g (f x)\n\
         entry main (x: i32) = twice (compose (+1) (*2)) x\n",
    );
    assert_eq!(p.funs.len(), 1);
    assert_eq!(
        count_exps(&p, &|e| matches!(e, Exp::Apply(Apply { .. }))),
        0
    );
    // ((x+1)*2 + 1)*2
    assert_eq!(run(&p, "main", "3").unwrap(), vals("18"));
}

#[test]
fn arrays_of_tuples_are_tuples_of_arrays() {
    let p = compile(
        "entry main (xs: []i32) (ys: []f64) =\n\
           let ps = zip xs ys\n\
           let (a, b) = unzip (map (\\(x, y) -> (y, x + 1)) ps)\n\
           in (b, a)\n",
    );
    // zip/unzip cost nothing: one map with two inputs and two outputs.
    assert_eq!(
        count_exps(&p, &|e| matches!(e, Exp::Soac(Soac::Map(Map { .. })))),
        1
    );
    assert_eq!(
        run(&p, "main", "[1, 2] [0.5, 1.5]").unwrap(),
        vals("[2, 3] [0.5, 1.5]")
    );
}

#[test]
fn records_and_tuples_flatten() {
    let p = compile(
        "type pt = {x: f64, y: f64}\n\
         def add (a: pt) (b: pt) : pt = {x = a.x + b.x, y = a.y + b.y}\n\
         entry main (xs: []f64) (ys: []f64) : (f64, f64) =\n\
           let r = reduce add {x = 0, y = 0} (map2 (\\x y -> {x, y}) xs ys)\n\
           let r = r with y = r.y * 10\n\
           in (r.x, r.y)\n",
    );
    assert_eq!(
        run(&p, "main", "[1.0, 2.0] [3.0, 4.0]").unwrap(),
        vals("3.0 70.0")
    );
}

#[test]
fn size_parameters_are_checked_at_run_time() {
    let p = compile("entry main [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 = map2 (+) xs ys\n");
    assert_eq!(run(&p, "main", "[1, 2] [3, 4]").unwrap(), vals("[4, 6]"));
    let err = run(&p, "main", "[1, 2] [3]").unwrap_err();
    assert!(err.contains("size mismatch"), "{err}");
}

#[test]
fn sizes_come_from_wildcard_parameters() {
    let p = compile("entry main (xs: []f32) = length xs + length (zip xs xs)\n");
    assert_eq!(run(&p, "main", "[1f32, 2f32, 3f32]").unwrap(), vals("6i64"));
}

#[test]
fn loops_update_arrays_in_place() {
    // n updates of an n-element array: linear only if no update copies.
    let p = compile(
        "entry main (n: i64) : []i64 =\n\
           loop acc = replicate n 0 for i < n do acc with [i] = acc[i] + i * i\n",
    );
    let mut it = Interp::new(&p);
    let r = it.run_entry(&p, "main", vals("1000i64")).unwrap();
    assert_eq!(it.copy_count(), 0, "in-place updates copied the array");
    let squares: Vec<String> = (0..1000i64).map(|i| format!("{}i64", i * i)).collect();
    assert_eq!(r, vals(&format!("[{}]", squares.join(","))));
}

#[test]
fn while_loops_and_for_in() {
    let p = compile(
        "entry collatz (n: i32) = (loop (n, k) = (n, 0) while n != 1 do\n\
           if n % 2 == 0 then (n / 2, k + 1) else (3 * n + 1, k + 1)).1\n\
         entry sum (xs: []i32) = loop s = 0 for x in xs do s + x\n",
    );
    assert_eq!(run(&p, "collatz", "27").unwrap(), vals("111"));
    assert_eq!(run(&p, "sum", "[1, 2, 3, 4]").unwrap(), vals("10"));
    assert_eq!(run(&p, "sum", "empty([0]i32)").unwrap(), vals("0"));
}

#[test]
fn slices_and_ranges_follow_futhark() {
    let p = compile(
        "entry sl (xs: []i32) = (xs[1:3], xs[::2], xs[::-1], xs[3:1:-1])\n\
         entry rg (n: i32) = (0..<n, 1..3...n, n..>0)\n",
    );
    assert_eq!(
        run(&p, "sl", "[1, 2, 3, 4, 5]").unwrap(),
        vals("[2, 3] [1, 3, 5] [5, 4, 3, 2, 1] [4, 3]")
    );
    assert_eq!(
        run(&p, "rg", "6").unwrap(),
        vals("[0, 1, 2, 3, 4, 5] [1, 3, 5] [6, 5, 4, 3, 2, 1]")
    );
    let err = run(&p, "sl", "empty([0]i32)").unwrap_err();
    assert!(err.contains("out of bounds"), "{err}");
    let err = run(&p, "rg", "-1").unwrap_err();
    assert!(err.contains("invalid"), "{err}");
}

#[test]
fn structural_equality() {
    let p =
        compile("entry main (xs: [][]i32) (ys: [][]i32) = (xs == ys, (1, [2.0]) != (1, [2.0]))\n");
    assert_eq!(
        run(&p, "main", "[[1, 2]] [[1, 2]]").unwrap(),
        vals("true false")
    );
    assert_eq!(
        run(&p, "main", "[[1, 2]] [[1, 3]]").unwrap(),
        vals("false false")
    );
    // `==` gives both arrays one type, sizes included (as in Futhark), so
    // arrays of different shapes are the entry point's error.
    let err = run(&p, "main", "[[1, 2]] [[1]]").unwrap_err();
    assert!(
        err.contains("entry point arguments have invalid sizes"),
        "{err}"
    );
}

#[test]
fn ad_intrinsics_become_ad_nodes_with_inlined_lambdas() {
    let p = compile(
        "def f (x: f64, y: f64) = x * y\n\
         entry main (x: f64) (y: f64) = (jvp f (x, y) (1, 0), vjp f (x, y) 1)\n",
    );
    assert_eq!(
        count_exps(&p, &|e| matches!(e, Exp::Ad(AdOp::Jvp(Jvp { .. })))),
        1
    );
    assert_eq!(
        count_exps(&p, &|e| matches!(e, Exp::Ad(AdOp::Vjp(Vjp { .. })))),
        1
    );
    for l in p.funs[0].body.stms.iter().filter_map(|s| match &s.exp {
        Exp::Ad(AdOp::Jvp(Jvp { lam, .. })) | Exp::Ad(AdOp::Vjp(Vjp { lam, .. })) => Some(lam),
        _ => None,
    }) {
        assert_eq!(l.params.len(), 2);
        assert_eq!(l.ret.len(), 1);
    }
}

#[test]
fn unsupported_constructs_are_reported_not_panicked() {
    let (sources, checked) =
        parad_types::check_source("t.fut", "def main (xs: []i32) : [][]i32 = unflatten xs\n");
    let e = lower(&checked.unwrap()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.diagnostic().render(&sources).contains("t.fut:1:"));
}

#[test]
fn sizes_from_the_context() {
    let p = compile("entry main (n: i64) (m: i64) (xs: []i32) : [n][m]i32 = unflatten xs\n");
    assert_eq!(
        run(&p, "main", "2i64 1i64 [1, 2]").unwrap(),
        vals("[[1], [2]]")
    );
    assert!(run(&p, "main", "2i64 2i64 [1, 2]").is_err());
    let p = compile("entry main (k: i64) (xs: []i32) : ([k]i32, [k]i32) = split xs\n");
    assert_eq!(run(&p, "main", "1i64 [1, 2]").unwrap(), vals("[1] [2]"));
    let err = run(&p, "main", "1i64 [1, 2, 3]").unwrap_err();
    assert!(err.contains("cannot match shape"), "{err}");
}

#[test]
fn sizes_nothing_determines_are_reported() {
    // `resh`'s `m` is unknown at the call, so `unflatten` inside it cannot
    // be given its size: the error points at that call, not the prelude.
    let src = "def resh [n] [m] (xs: [n * m]i32) : [n][m]i32 = unflatten xs\n\
               entry main (k: i64) (xs: []i32) : [k][]i32 = resh xs\n";
    let (sources, checked) = parad_types::check_source("t.fut", src);
    let e = lower(&checked.unwrap()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let msg = e.diagnostic().render(&sources);
    assert!(msg.contains("determined by the context"), "{msg}");
    assert!(
        msg.contains("t.fut:1:") && !msg.contains("prelude"),
        "{msg}"
    );
}

#[test]
fn sum_types_are_tags_and_payloads() {
    let src = "type shape = #circle f64 | #rect f64 f64\n\
               def area (s: shape) : f64 =\n\
                 match s\n\
                 case #circle r -> 3 * r * r\n\
                 case #rect w h -> w * h\n\
               entry known (r: f64) = area (#rect r 2)\n\
               entry unknown (b: bool) (r: f64) = area (if b then #circle r else #rect r 2)\n\
               entry pass (b: bool) (r: f64) : shape = if b then #circle r else #rect r 2\n";
    let p = compile(src);
    let ifs_in = |name: &str| {
        let f = p.funs.iter().find(|f| f.name.as_str() == name).unwrap();
        let q = Program {
            funs: vec![f.clone()],
            entries: vec![],
            names: p.names.clone(),
            frames: vec![],
        };
        count_exps(&q, &|e| matches!(e, Exp::If(If { .. })))
    };
    // A constructor visible to static evaluation picks its case: no branch.
    assert_eq!(ifs_in("entry_known"), 0);
    // One `if` builds the value, one `if` matches it.
    assert_eq!(ifs_in("entry_unknown"), 2);
    assert_eq!(run(&p, "known", "1.5").unwrap(), vals("3.0"));
    assert_eq!(run(&p, "unknown", "true 2.0").unwrap(), vals("12.0"));
    assert_eq!(run(&p, "unknown", "false 2.0").unwrap(), vals("4.0"));
    // The value itself: an i8 tag (constructors sorted by name) and the
    // payloads of both constructors, blanks (zeros) where absent.
    assert_eq!(
        run(&p, "pass", "true 2.0").unwrap(),
        vals("0i8 2.0 0.0 0.0")
    );
    assert_eq!(
        run(&p, "pass", "false 2.0").unwrap(),
        vals("1i8 0.0 2.0 2.0")
    );
}

#[test]
fn loop_attributes_go_on_the_loop_statement() {
    use parad_core::Attr;
    let p = compile(
        "entry main (n: i64) (x: f64) =\n\
           let a = #[unroll] loop y = x for _i < 4 do y * x\n\
           let b = #[sequential] #[stripmine(2)] #[incremental_flattening(only_inner, 3)]\n\
                   loop y = x for _i < n do y + x\n\
           let (c, _) = #[stripmine(2)] loop (y, k) = (x, 0) while k < n do (y * 2, k + 1)\n\
           in (a, b, c)\n",
    );
    let mut loops = vec![];
    parad_core::walk::stms(&p, |s| {
        if matches!(s.exp, Exp::Loop(_)) {
            loops.push(s.attrs.clone())
        }
    });
    let name = |n: &str| Attr::Name(n.to_string());
    let flattening = Attr::Call(
        "incremental_flattening".to_string(),
        vec![name("only_inner"), Attr::Int(3)],
    );
    // The strip-mined loop is two nested loops; its attributes (in source
    // order, less the `stripmine` lowering carried out) are the outer
    // one's. The `while` loop is not strip-mined, and `stripmine` is
    // lowering's own, so it is not passed on either.
    assert_eq!(
        loops,
        vec![
            vec![name("unroll")],
            vec![name("sequential"), flattening],
            vec![],
            vec![],
        ]
    );
    let text = p.to_string();
    assert!(text.contains("#[unroll]\n"), "{text}");
    assert!(
        text.contains("#[sequential]\n")
            && text.contains("#[incremental_flattening(only_inner, 3)]\n"),
        "{text}"
    );
    assert!(!text.contains("stripmine"), "{text}");
    assert_eq!(run(&p, "main", "3i64 2.0").unwrap(), vals("32.0 8.0 16.0"));
}
