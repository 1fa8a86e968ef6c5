//! AUTOMAP's elaboration (thesis §4.7 and §4.8.4): the rank solution written
//! back into the source program as explicit `mapN` calls, so that the rest
//! of the compiler, and the user reading `parad dump --stage=elaborated`,
//! see ordinary Futhark.
//!
//! A chain `f a1 … an` whose solution has the frame `F = Sₙ > 0` becomes a
//! nest of `F` maps. Frame levels are numbered from the innermost (1) to the
//! outermost (`F`); argument `i` has the `kᵢ = Sᵢ − min(Rᵢ, Sᵢ₋₁)` innermost
//! levels (its own maps and the frame before it, less the replicates that
//! level induces), and is *captured* by the lambdas of the levels above:
//! that is rep fusion, an induced replicate costs nothing. At level `ℓ` the
//! arguments with `kᵢ ≥ ℓ` are mapped together by `mapN`:
//!
//! ```text
//!     xs + 1            ⇒  map (\x -> x + 1) xs
//!     A + v  (A: [][]t) ⇒  map (\r -> map2 (\a b -> a + b) r v) A
//! ```
//!
//! (the second: `v` has `k = 1` of `F = 2` levels, so it is captured by the
//! outer lambda.) An argument that is captured or mapped only at inner
//! levels is evaluated once, bound by a `let` outside the nest, unless it is
//! a variable or a literal; so is the function of the chain.
//!
//! Replicates beyond the frame (`max(0, R − Sᵢ₋₁)`, an argument of lower
//! rank than its parameter) become `replicate ??? x`, whose size is a
//! placeholder: checking the elaborated definition infers the size of
//! `replicate`'s result from its uses, and finishing puts that size in the
//! placeholder's place (`finish_rep_size`), or reports that nothing
//! determines it.

use super::infer::Chains;
use super::Solution;
use parad_base::Span;
use parad_syntax::ast::*;
use parad_syntax::visit::walk_exp_mut;

const NEW: ExpId = ExpId(u32::MAX);

/// `body` with the implicit maps of `sol` made explicit, and the spans of
/// the size placeholders of its replicates (distinct and empty, which no
/// `???` written in a program has, so they tell the placeholders apart). With `display`, replicates beyond
/// the frame are written `rep e` (the thesis' notation, for messages).
pub(crate) fn elaborate(
    body: &Exp,
    chains: &Chains,
    sol: &Solution,
    display: bool,
) -> (Exp, Vec<Span>) {
    let mut out = body.clone();
    let mut fresh = 0u32;
    let mut sizes = vec![];
    walk_exp_mut(&mut out, &mut |e: &mut Exp| {
        let Some(apps) = chains.get(&e.id) else {
            return;
        };
        let mut prev = 0;
        let mut ks = vec![];
        let mut reps = vec![];
        for &app in apps {
            let (m, s) = (sol.maps(app), sol.frame(app));
            debug_assert_eq!(s, prev);
            reps.push(sol.materialised_reps(app));
            ks.push(s + m - sol.induced_reps(app));
            prev = s + m;
        }
        if prev == 0 && reps.iter().all(|&r| r == 0) {
            return;
        }
        let kind = std::mem::replace(&mut e.kind, ExpKind::Tuple(vec![]));
        let rep = |a: Exp, j: i64| {
            if display {
                return exp(
                    ExpKind::Apply(Box::new(var("rep", a.span)), vec![a]),
                    e.span,
                );
            }
            // The size is a placeholder that checking fills in.
            let mut at = a.span.start as usize + j as usize;
            while sizes.iter().any(|s: &Span| s.start as usize == at) {
                at += 1;
            }
            let span = Span::new(a.span.file, at, at);
            sizes.push(span);
            let size = exp(ExpKind::Hole, span);
            let sp = a.span;
            exp(
                ExpKind::Apply(Box::new(var("replicate", sp)), vec![size, a]),
                sp,
            )
        };
        *e = nest_chain(kind, &ks, &reps, prev, e.span, &mut fresh, rep);
    });
    (out, sizes)
}

/// The parts of a chain node: its function (absent for an operator, whose
/// node is rebuilt around it) and its arguments.
type Rebuild = Box<dyn Fn(Option<Exp>, Vec<Exp>) -> ExpKind>;

fn split(kind: ExpKind) -> (Option<Exp>, Vec<Exp>, Rebuild, Option<QualName>) {
    let (head, args, rebuild): (_, _, Rebuild) = match kind {
        ExpKind::Apply(f, args) => (
            Some(*f),
            args,
            Box::new(|f, args| ExpKind::Apply(Box::new(f.unwrap()), args)),
        ),
        ExpKind::BinOp(op, a, b) if op.quals.is_empty() && op.name == "|>" => (
            Some(*b),
            vec![*a],
            Box::new(move |f, mut a| {
                ExpKind::BinOp(op.clone(), Box::new(a.remove(0)), Box::new(f.unwrap()))
            }),
        ),
        ExpKind::BinOp(op, a, b) if op.quals.is_empty() && op.name == "<|" => (
            Some(*a),
            vec![*b],
            Box::new(move |f, mut a| {
                ExpKind::BinOp(op.clone(), Box::new(f.unwrap()), Box::new(a.remove(0)))
            }),
        ),
        ExpKind::BinOp(op, a, b) => {
            let section = op.clone();
            return (
                None,
                vec![*a, *b],
                Box::new(move |_, mut a| {
                    let b = a.pop().unwrap();
                    ExpKind::BinOp(op.clone(), Box::new(a.pop().unwrap()), Box::new(b))
                }),
                Some(section),
            );
        }
        ExpKind::Negate(x) => (
            None,
            vec![*x],
            Box::new(|_, mut a| ExpKind::Negate(Box::new(a.remove(0)))),
        ),
        ExpKind::Not(x) => (
            None,
            vec![*x],
            Box::new(|_, mut a| ExpKind::Not(Box::new(a.remove(0)))),
        ),
        _ => unreachable!("only application chains get rank variables"),
    };
    (head, args, rebuild, None)
}

fn exp(kind: ExpKind, span: Span) -> Exp {
    Exp {
        id: NEW,
        kind,
        span,
    }
}

fn var(name: &str, span: Span) -> Exp {
    exp(
        ExpKind::Var(QualName {
            quals: vec![],
            name: name.to_string(),
            span,
        }),
        span,
    )
}

fn trivial(e: &Exp) -> bool {
    matches!(
        e.kind,
        ExpKind::Var(_) | ExpKind::Lit(_) | ExpKind::OpSection(_)
    )
}

/// The chain `kind` under `frame` levels of maps, argument `i` mapped at the
/// `ks[i]` innermost ones.
fn nest_chain(
    kind: ExpKind,
    ks: &[i64],
    reps: &[i64],
    frame: i64,
    span: Span,
    fresh: &mut u32,
    mut rep: impl FnMut(Exp, i64) -> Exp,
) -> Exp {
    let (head, mut args, rebuild, op) = split(kind);
    for (a, &r) in args.iter_mut().zip(reps) {
        for j in 0..r {
            let inner = std::mem::replace(a, exp(ExpKind::Tuple(vec![]), span));
            *a = rep(inner, j);
        }
    }
    let mut lets = vec![];
    let mut bind = |e: Exp, lets: &mut Vec<(String, Exp)>| {
        if trivial(&e) {
            return e;
        }
        *fresh += 1;
        let name = format!("am'{fresh}");
        let v = var(&name, e.span);
        lets.push((name, e));
        v
    };
    let head = head.map(|h| bind(h, &mut lets));
    let args: Vec<Exp> = args
        .into_iter()
        .zip(ks)
        .map(|(a, &k)| if k == frame { a } else { bind(a, &mut lets) })
        .collect();
    // Where the innermost map takes every argument in order, the function
    // itself is mapped (`map2 (+) xs ys`, `map f64.sqrt xs`).
    let eta = match (&head, op) {
        (Some(h), _) if trivial(h) => Some(h.clone()),
        (None, Some(op)) => Some(exp(ExpKind::OpSection(op), span)),
        _ => None,
    };
    let eta = eta.filter(|_| ks.iter().all(|&k| k >= 1));
    let shared = Nest {
        ks,
        head: &head,
        rebuild: &*rebuild,
        eta: eta.as_ref(),
        span,
    };
    let mut e = nest(&shared, frame, args, fresh);
    for (name, rhs) in lets.into_iter().rev() {
        e = exp(
            ExpKind::Let {
                sizes: vec![],
                pat: Pat::Id(Ident {
                    name,
                    span: rhs.span,
                }),
                rhs: Box::new(rhs),
                body: Box::new(e),
            },
            span,
        );
    }
    e
}

/// What every level of one chain's map nest shares.
struct Nest<'a> {
    /// Per argument, the innermost levels it is mapped at.
    ks: &'a [i64],
    head: &'a Option<Exp>,
    rebuild: &'a dyn Fn(Option<Exp>, Vec<Exp>) -> ExpKind,
    /// The function the innermost map may take as it is.
    eta: Option<&'a Exp>,
    span: Span,
}

/// Levels `level` down to 1 of the nest, around the chain applied to
/// `args` (each an expression, or a lambda parameter of a level above).
fn nest(n: &Nest, level: i64, args: Vec<Exp>, fresh: &mut u32) -> Exp {
    let Nest {
        ks,
        head,
        rebuild,
        eta,
        span,
    } = *n;
    if level == 0 {
        return exp(rebuild(head.clone(), args), span);
    }
    if let (1, Some(f), true) = (level, eta, args.len() <= 5) {
        let map = match args.len() {
            1 => "map".to_string(),
            n => format!("map{n}"),
        };
        let mut all = vec![f.clone()];
        all.extend(args);
        return exp(ExpKind::Apply(Box::new(var(&map, span)), all), span);
    }
    let mut params = vec![];
    let mut mapped = vec![];
    let mut inner = vec![];
    for (a, &k) in args.into_iter().zip(ks) {
        if k >= level {
            *fresh += 1;
            let name = format!("am'{fresh}");
            inner.push(var(&name, a.span));
            params.push(Pat::Id(Ident { name, span: a.span }));
            mapped.push(a);
        } else {
            inner.push(a);
        }
    }
    let body = nest(n, level - 1, inner, fresh);
    // The prelude has `map` to `map5`: more arrays are zipped in groups of
    // five, and the lambda takes each group as a tuple.
    let (params, mapped) = if mapped.len() <= 5 {
        (params, mapped)
    } else {
        let mut ps = vec![];
        let mut ms = vec![];
        let mut params = params.into_iter();
        let mut mapped = mapped.into_iter().peekable();
        while mapped.peek().is_some() {
            let group: Vec<Exp> = mapped.by_ref().take(5).collect();
            let names: Vec<Pat> = params.by_ref().take(group.len()).collect();
            if group.len() == 1 {
                ps.extend(names);
                ms.extend(group);
            } else {
                ps.push(Pat::Tuple(names, span));
                let zip = var(&format!("zip{}", group.len()), span);
                ms.push(exp(ExpKind::Apply(Box::new(zip), group), span));
            }
        }
        (ps, ms)
    };
    let map = match mapped.len() {
        1 => "map".to_string(),
        n => format!("map{n}"),
    };
    let lambda = exp(
        ExpKind::Lambda {
            params,
            ret: None,
            body: Box::new(body),
        },
        span,
    );
    let mut all = vec![lambda];
    all.extend(mapped);
    exp(ExpKind::Apply(Box::new(var(&map, span)), all), span)
}
