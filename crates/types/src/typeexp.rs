//! Type expressions as written (`[n]f32`, `(a, b)`, `vec 3 f32`) → types.
//! Size expressions become dimensions ([`Dim`]) where they are variables,
//! constants, `+`, `-` or `*` of these; anything else is an unknown size.

use crate::env::{AbbrevParam, Checker, Res, TypeName};
use crate::tast::{Dim, SizeOp, Type, TypeParamId};
use parad_base::{Diagnostic, PrimType};
use parad_syntax::ast::{ExpKind, Lit, SizeExp, TypeArg, TypeExp};


impl Checker {
    /// A type name applied to its arguments (`t`, `vec 3 f32`, `M.t`).
    fn apply_type_name(&mut self, name: &str, tn: TypeName, args: &[TypeArg], span: parad_base::Span) -> Res<Type> {
        match tn {
            TypeName::Size => Err(Diagnostic::error(
                        span,
                        format!("'{}' is a size, not a type", name),
                    )),
                    TypeName::Type(t) => {
                        if !args.is_empty() {
                            return Err(Diagnostic::error(
                                span,
                                format!("type '{}' takes no arguments", name),
                            ));
                        }
                        Ok(t)
                    }
                    TypeName::Abbrev(params, body) => {
                        if params.len() != args.len() {
                            return Err(Diagnostic::error(
                                span,
                                format!(
                                    "type '{}' takes {} argument{} but is given {}",
                                    name,
                                    params.len(),
                                    if params.len() == 1 { "" } else { "s" },
                                    args.len()
                                ),
                            ));
                        }
                        let mut subst: Vec<(TypeParamId, Type)> = vec![];
                        for (p, a) in params.iter().zip(args) {
                            match (p, a) {
                                (AbbrevParam::Type(id), TypeArg::Type(t)) => {
                                    let t = self.type_exp(t)?;
                                    subst.push((*id, t));
                                }
                                (AbbrevParam::Size, TypeArg::Size(s)) => {
                                    self.size_exp(s)?;
                                }
                                (
                                    AbbrevParam::Size,
                                    TypeArg::Type(TypeExp::Named { name: n, args, .. }),
                                ) if args.is_empty() && n.quals.is_empty() => {
                                    // A bare name parses as a type; it is a size here.
                                    if self.lookup(&n.name).is_none()
                                        && !matches!(
                                            self.lookup_type(&n.name),
                                            Some(TypeName::Size)
                                        )
                                    {
                                        return Err(unknown_size(n.span, &n.name));
                                    }
                                }
                                (AbbrevParam::Type(_), TypeArg::Size(s)) => {
                                    return Err(Diagnostic::error(
                                        s.span(),
                                        "expected a type argument, found a size",
                                    ))
                                }
                                (AbbrevParam::Size, TypeArg::Type(t)) => {
                                    return Err(Diagnostic::error(
                                        t.span(),
                                        "expected a size argument, found a type",
                                    ))
                                }
                            }
                        }
                        Ok(body.subst(&|p| {
                            subst.iter().find(|(q, _)| *q == p).map(|(_, t)| t.clone())
                        }))
                    }
        }
    }

    pub fn type_exp(&mut self, te: &TypeExp) -> Res<Type> {
        match te {
            TypeExp::Named { name, args, span } => {
                if !name.quals.is_empty() {
                    // `f32.t` names the numeric module's type.
                    if let ([q], "t") = (name.quals.as_slice(), name.name.as_str()) {
                        if let Some(p) = PrimType::from_name(q) {
                            return Ok(Type::Prim(p));
                        }
                    }
                    // `intrinsics.acc t`: an accumulator of the array type `t`.
                    if let ([q], "acc") = (name.quals.as_slice(), name.name.as_str()) {
                        if q == "intrinsics" && self.lookup_type(q).is_none() {
                            return self.acc_type(args, *span);
                        }
                    }
                    return match self.qual_type(name)? {
                        Some(tn) => self.apply_type_name(&name.full(), tn, args, *span),
                        None => Err(Diagnostic::error(
                            name.span,
                            format!("unknown module '{}'", name.quals.join(".")),
                        )),
                    };
                }
                if let Some(p) = PrimType::from_name(&name.name) {
                    if !args.is_empty() {
                        return Err(Diagnostic::error(
                            *span,
                            format!("type '{}' takes no arguments", name.name),
                        ));
                    }
                    return Ok(Type::Prim(p));
                }
                match self.lookup_type(&name.name).cloned() {
                    None => Err(Diagnostic::error(
                        name.span,
                        format!("type '{}' is not defined", name.name),
                    )),
                    Some(tn) => self.apply_type_name(&name.name, tn, args, *span),
                }
            }
            TypeExp::Tuple(ts, _) => {
                if ts.len() == 1 {
                    return self.type_exp(&ts[0]);
                }
                let ts = ts
                    .iter()
                    .map(|t| self.type_exp(t))
                    .collect::<Res<Vec<_>>>()?;
                Ok(Type::Tuple(ts))
            }
            TypeExp::Record(fs, _) => {
                let mut out: Vec<(String, Type)> = vec![];
                for (name, t) in fs {
                    if out.iter().any(|(n, _)| *n == name.name) {
                        return Err(Diagnostic::error(
                            name.span,
                            format!("field '{}' appears twice in record type", name.name),
                        ));
                    }
                    let t = self.type_exp(t)?;
                    out.push((name.name.clone(), t));
                }
                let names: Vec<&str> = out.iter().map(|(n, _)| n.as_str()).collect();
                if let Some(order) = crate::tast::tuple_order(&names) {
                    return Ok(Type::Tuple(
                        order.into_iter().map(|i| out[i].1.clone()).collect(),
                    ));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(Type::Record(out))
            }
            TypeExp::Array(size, elem, _) => {
                let d = self.size_exp(size)?;
                let e = self.type_exp(elem)?;
                if matches!(e, Type::Arrow(..)) {
                    return Err(Diagnostic::error(
                        elem.span(),
                        "arrays of functions are not allowed",
                    ));
                }
                if matches!(e, Type::Acc(..)) {
                    return Err(Diagnostic::error(
                        elem.span(),
                        "arrays of accumulators are not allowed",
                    ));
                }
                Ok(Type::array_dims(e, vec![d]))
            }
            TypeExp::Unique(t, _) => self.type_exp(t),
            TypeExp::Arrow(name, a, b, _) => {
                let a = self.type_exp(a)?;
                let mark = self.types.len();
                if let Some(n) = name {
                    self.types.push((n.name.clone(), TypeName::Size));
                }
                let b = self.type_exp(b);
                self.types.truncate(mark);
                Ok(Type::arrow(a, b?))
            }
            TypeExp::Sum(cs, span) => {
                if cs.len() > 256 {
                    return Err(Diagnostic::error(
                        *span,
                        format!(
                            "a sum type may have at most 256 constructors, this one has {}",
                            cs.len()
                        ),
                    ));
                }
                let mut out: Vec<(String, Vec<Type>)> = vec![];
                for (name, ts) in cs {
                    if out.iter().any(|(n, _)| *n == name.name) {
                        return Err(Diagnostic::error(
                            name.span,
                            format!("constructor #{} appears twice in sum type", name.name),
                        ));
                    }
                    let mut payload = vec![];
                    for t in ts {
                        let pt = self.type_exp(t)?;
                        if matches!(pt, Type::Acc(..)) {
                            return Err(Diagnostic::error(
                                t.span(),
                                "accumulators cannot be stored in sum types",
                            ));
                        }
                        payload.push(pt);
                    }
                    out.push((name.name.clone(), payload));
                }
                out.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(Type::Sum(out))
            }
            TypeExp::Exists(names, t, _) => {
                let mark = self.types.len();
                for n in names {
                    self.types.push((n.name.clone(), TypeName::Size));
                }
                let t = self.type_exp(t);
                self.types.truncate(mark);
                t
            }
        }
    }

    /// `intrinsics.acc t`: `t` must be an array type (or a type parameter
    /// that is instantiated with one).
    fn acc_type(&mut self, args: &[TypeArg], span: parad_base::Span) -> Res<Type> {
        let [TypeArg::Type(t)] = args else {
            return Err(Diagnostic::error(
                span,
                "type 'intrinsics.acc' takes one type argument",
            ));
        };
        let inner = self.type_exp(t)?;
        if matches!(
            inner,
            Type::Prim(_) | Type::Tuple(_) | Type::Record(_) | Type::Arrow(..)
        ) {
            return Err(Diagnostic::error(
                t.span(),
                format!(
                    "an accumulator must be of an array type, not '{}'",
                    self.show(&inner)
                ),
            ));
        }
        Ok(Type::Acc(Box::new(inner)))
    }

    /// Checks that the names in a size expression are in scope, and
    /// returns the dimension it denotes (variables of `i64` type in scope,
    /// integer constants, `+`, `-` and `*` of these; anything else is
    /// [`Dim::Any`]).
    pub fn size_exp(&mut self, s: &SizeExp) -> Res<Dim> {
        match s {
            SizeExp::Any(_) => Ok(Dim::Any),
            SizeExp::Exp(e) => {
                self.size_names(e)?;
                Ok(self.size_dim(e))
            }
        }
    }

    fn size_dim(&self, e: &parad_syntax::ast::Exp) -> Dim {
        match &e.kind {
            // Sizes bound only in types (`?[k].`, `(n: i64) ->`, parameters
            // of type abbreviations) stand for no variable here.
            ExpKind::Var(q) if q.quals.is_empty() => match self.lookup(&q.name) {
                Some(l)
                    if l.poly.is_empty()
                        && !matches!(self.lookup_type(&q.name), Some(TypeName::Size)) =>
                {
                    Dim::Var(l.var)
                }
                _ => Dim::Any,
            },
            ExpKind::Lit(Lit::Int { value, .. }) => match i64::try_from(*value) {
                Ok(v) => Dim::Const(v),
                Err(_) => Dim::Any,
            },
            ExpKind::BinOp(op, a, b) if op.quals.is_empty() => {
                let o = match op.name.as_str() {
                    "+" => SizeOp::Add,
                    "-" => SizeOp::Sub,
                    "*" => SizeOp::Mul,
                    _ => return Dim::Any,
                };
                if self.lookup(&op.name).is_some() || self.globals.contains_key(&op.name) {
                    return Dim::Any;
                }
                match (self.size_dim(a), self.size_dim(b)) {
                    (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                    (x, y) => Dim::Op(o, Box::new(x), Box::new(y)),
                }
            }
            _ => Dim::Any,
        }
    }

    fn size_names(&mut self, e: &parad_syntax::ast::Exp) -> Res<()> {
        match &e.kind {
            ExpKind::Var(q) if q.quals.is_empty() => {
                // A variable used as a size is an i64.
                if let Some(l) = self.lookup(&q.name).cloned() {
                    if l.poly.is_empty() {
                        self.unify_at(q.span, &Type::i64(), &l.ty)?;
                    }
                    return Ok(());
                }
                if self.lookup(&q.name).is_some()
                    || matches!(self.lookup_type(&q.name), Some(TypeName::Size))
                    || self.globals.contains_key(&q.name)
                {
                    Ok(())
                } else {
                    Err(unknown_size(q.span, &q.name))
                }
            }
            ExpKind::BinOp(_, a, b) => {
                self.size_names(a)?;
                self.size_names(b)
            }
            ExpKind::Negate(a) => self.size_names(a),
            ExpKind::Apply(f, args) => {
                self.size_names(f)?;
                args.iter().try_for_each(|a| self.size_names(a))
            }
            _ => Ok(()),
        }
    }
}

pub(crate) fn unknown_size(span: parad_base::Span, name: &str) -> Diagnostic {
    Diagnostic::error(span, format!("unknown size '{name}'"))
}
