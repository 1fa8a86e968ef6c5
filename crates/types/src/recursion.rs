//! Futhark's restrictions on recursive functions. A top-level function
//! may call itself (names are bound in order, so there is no mutual
//! recursion); lowering then makes it a first-order core function per
//! instantiation, specialised to the function values it is given. That
//! works only when
//!
//! - its result is first-order (a function result would have to be
//!   returned from a core function), and
//! - if it has a higher-order parameter (a function, or a lifted type
//!   parameter `'^a`, which may stand for one), every reference to it
//!   inside its body is an application to all its arguments that passes
//!   each higher-order parameter on unchanged, so that all recursive
//!   calls use the same function values as the outer call.

use crate::env::{Checker, Res};
use crate::tast::*;
use parad_base::{Diagnostic, Span};
use parad_syntax::ast::{Liftedness, TypeParam, ValDecl};

impl Checker {
    /// Checks the restrictions above for function `id` (declared by `v`)
    /// whose body refers to itself.
    pub(crate) fn check_recursion(
        &self,
        v: &ValDecl,
        params: &[TPat],
        ret: &Type,
        type_params: &[TypeParamId],
        body: &TExp,
        id: FunId,
    ) -> Res<()> {
        let name = &v.name.name;
        if !first_order(ret) {
            let at = v.ret.as_ref().map_or(v.name.span, |t| t.span());
            return Err(Diagnostic::error(
                at,
                format!(
                    "The result type of the recursive function '{name}' is not first-order: '{}'.",
                    self.show(ret)
                ),
            )
            .with_note(
                "a recursive function must return a value without functions; take the function's arguments as further parameters instead",
            ));
        }
        let lifted: Vec<TypeParamId> = v
            .type_params
            .iter()
            .filter(|tp| matches!(tp, TypeParam::Type(..)))
            .zip(type_params)
            .filter(|(tp, _)| matches!(tp, TypeParam::Type(_, Liftedness::Lifted)))
            .map(|(_, p)| *p)
            .collect();
        let higher: Vec<bool> = params
            .iter()
            .map(|p| !first_order(&p.ty()) || mentions(&p.ty(), &lifted))
            .collect();
        if !higher.contains(&true) {
            return Ok(());
        }
        let mut uses = vec![];
        self_uses(body, id, &mut uses);
        for (span, args) in uses {
            let Some(args) = args else {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "'{name}' has a higher-order parameter, so inside its own definition it may only be applied to all its arguments, not used as a value."
                    ),
                ));
            };
            if args.len() < params.len() {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "Recursive application of '{name}' is not fully saturated: it takes {} arguments but is given {}.",
                        params.len(),
                        args.len()
                    ),
                )
                .with_note(
                    "a recursive function with a higher-order parameter must be applied to all its arguments",
                ));
            }
            for (i, ((p, a), ho)) in params.iter().zip(args).zip(&higher).enumerate() {
                let unchanged = match (p, &a.kind) {
                    (TPat::Var(x, _, _), TExpKind::Var(y, _, _)) => x == y,
                    _ => false,
                };
                if *ho && !unchanged {
                    let what = match p {
                        TPat::Var(x, _, _) => format!("'{}'", self.vars[x.0 as usize].name),
                        _ => format!("number {}", i + 1),
                    };
                    return Err(Diagnostic::error(
                        a.span,
                        format!(
                            "Argument {} of the recursive application of '{name}' must be the higher-order parameter {what} passed unchanged.",
                            i + 1
                        ),
                    )
                    .with_note(
                        "recursion is specialised to the function values of the outer call, so they cannot change between calls",
                    ));
                }
            }
        }
        Ok(())
    }
}

/// No function types inside `t`.
fn first_order(t: &Type) -> bool {
    match t {
        Type::Arrow(..) => false,
        Type::Prim(_) | Type::Param(_) | Type::Var(_) => true,
        Type::Array(e, _) | Type::Acc(e) => first_order(e),
        Type::Tuple(ts) => ts.iter().all(first_order),
        Type::Record(fs) => fs.iter().all(|(_, t)| first_order(t)),
        Type::Sum(cs) => cs.iter().all(|(_, ts)| ts.iter().all(first_order)),
    }
}

/// `t` mentions one of the type parameters `ps`.
fn mentions(t: &Type, ps: &[TypeParamId]) -> bool {
    let found = std::cell::Cell::new(false);
    t.subst(&|p| {
        if ps.contains(&p) {
            found.set(true);
        }
        None
    });
    found.get()
}

/// Every reference to function `id` in `e`: its location and, when it is
/// the function of an application, all the arguments given to it.
fn self_uses<'e>(e: &'e TExp, id: FunId, out: &mut Vec<(Span, Option<Vec<&'e TExp>>)>) {
    match &e.kind {
        TExpKind::Global(f, _, _) if *f == id => out.push((e.span, None)),
        TExpKind::Apply(..) => {
            let mut head = e;
            let mut groups = vec![];
            while let TExpKind::Apply(f, args) = &head.kind {
                groups.push(args);
                head = f;
            }
            let args: Vec<&TExp> = groups.into_iter().rev().flatten().collect();
            match &head.kind {
                TExpKind::Global(f, _, _) if *f == id => out.push((e.span, Some(args.clone()))),
                _ => self_uses(head, id, out),
            }
            for a in args {
                self_uses(a, id, out);
            }
        }
        _ => {
            for c in e.children() {
                self_uses(c, id, out);
            }
        }
    }
}
