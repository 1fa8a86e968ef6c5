//! Type expressions as written (`[n]f32`, `(a, b)`, `vec 3 f32`) → types.
//! Size expressions become dimensions ([`Dim`]) where they are variables,
//! constants, `+`, `-` or `*` of these; anything else is an unknown size.

use crate::env::{AbbrevParam, Checker, Res, TypeName};
use crate::intrinsics::Intrinsic;
use crate::tast::{Dim, FunId, Literal, SizeOp, TExp, TExpKind, Type, TypeParamId};
use parad_base::{Diagnostic, PrimType};
use parad_syntax::ast::{ExpKind, Lit, SizeExp, TypeArg, TypeExp};

impl Checker {
    /// A type name applied to its arguments (`t`, `vec 3 f32`, `M.t`).
    fn apply_type_name(
        &mut self,
        name: &str,
        tn: TypeName,
        args: &[TypeArg],
        span: parad_base::Span,
    ) -> Res<Type> {
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
                let mut sizes: Vec<(u32, Dim)> = vec![];
                for (p, a) in params.iter().zip(args) {
                    match (p, a) {
                        (AbbrevParam::Type(id), TypeArg::Type(t)) => {
                            let t = self.type_exp(t)?;
                            subst.push((*id, t));
                        }
                        (AbbrevParam::Size(pos), TypeArg::Size(s)) => {
                            let d = self.size_exp(s)?;
                            sizes.push((*pos, d));
                        }
                        (
                            AbbrevParam::Size(pos),
                            TypeArg::Type(TypeExp::Named { name: n, args, .. }),
                        ) if args.is_empty() && n.quals.is_empty() => {
                            // A bare name parses as a type; it is a size here.
                            if self.lookup(&n.name).is_none()
                                && !matches!(self.lookup_type(&n.name), Some(TypeName::Size))
                            {
                                return Err(unknown_size(n.span, &n.name));
                            }
                            sizes.push((*pos, self.name_dim(&n.name)));
                        }
                        (AbbrevParam::Type(_), TypeArg::Size(s)) => {
                            return Err(Diagnostic::error(
                                s.span(),
                                "expected a type argument, found a size",
                            ))
                        }
                        (AbbrevParam::Size(_), TypeArg::Type(t)) => {
                            return Err(Diagnostic::error(
                                t.span(),
                                "expected a size argument, found a type",
                            ))
                        }
                    }
                }
                // Sizes first: the type arguments may mention
                // parameters of an enclosing abbreviation.
                let body = body.map_dims(&|d| subst_abbrev_params(d, &sizes));
                Ok(body.subst(&|p| subst.iter().find(|(q, _)| *q == p).map(|(_, t)| t.clone())))
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
                        format!("Unknown type \"{}\".", name.name),
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
                            format!("Duplicate field '{}' in record type", name.name),
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
                    return Err(crate::exp::lifted_array(elem.span(), &self.show(&e)));
                }
                if matches!(e, Type::Acc(..)) {
                    return Err(Diagnostic::error(
                        elem.span(),
                        "arrays of accumulators are not allowed",
                    ));
                }
                // A module's type declared lifted (`type^`) may be a function.
                if let TypeExp::Named { name, .. } = &**elem {
                    if name.quals.is_empty() {
                        let at = self.types.iter().rposition(|(n, _)| *n == name.name);
                        if at.is_some_and(|i| {
                            self.size_lifted_types.contains(&(i, name.name.clone()))
                        }) {
                            return Err(Diagnostic::error(
                                elem.span(),
                                format!(
                                    "Cannot create array with elements of size-lifted type \"{}\" (declared with 'type~', so its values may differ in size)",
                                    name.name
                                ),
                            ));
                        }
                        if at.is_some_and(|i| self.lifted_types.contains(&(i, name.name.clone()))) {
                            return Err(Diagnostic::error(
                                elem.span(),
                                format!(
                                    "Cannot create array with elements of lifted type \"{}\" (declared with 'type^', so it might contain functions)",
                                    name.name
                                ),
                            ));
                        }
                    }
                    if let Some(crate::modules::Module::Struct(env)) =
                        self.qualifier(&name.quals, name.span)?
                    {
                        if env.liftedness(&name.name) == parad_syntax::ast::Liftedness::Lifted {
                            return Err(Diagnostic::error(
                                elem.span(),
                                format!(
                                    "Cannot create array of type '{}': it is lifted ('type^') and might contain functions",
                                    name.full()
                                ),
                            ));
                        }
                    }
                }
                Ok(Type::array_dims(e, vec![d]))
            }
            TypeExp::Unique(t, _) => self.type_exp(t),
            TypeExp::Arrow(name, a, b, _) => {
                // The unknown sizes of a function type are its own.
                let prev = std::mem::replace(&mut self.anon_infer, false);
                let r = self.arrow_type(name.as_ref(), a, b);
                self.anon_infer = prev;
                r
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
                let outermost = std::mem::take(&mut self.in_ret_type);
                let t = self.type_exp(t);
                self.types.truncate(mark);
                let t = t?;
                if outermost {
                    // A function's result `?[k].([k]a, [k]b)`: which of its
                    // sizes are the same existential one.
                    let markers: Vec<Dim> = (0..names.len())
                        .map(|i| {
                            let v = self.new_var(&names[i].name, Type::i64(), names[i].span);
                            self.inf.unknowns.insert(v.0);
                            Dim::Var(v)
                        })
                        .collect();
                    self.ret_pattern = Some(t.map_dims(&|d| match d {
                        Dim::AbbrevParam(p) if *p as usize >= mark => {
                            markers[*p as usize - mark].clone()
                        }
                        d => d.clone(),
                    }));
                }
                Ok(forget_bound_sizes(&t, mark))
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

    fn arrow_type(
        &mut self,
        name: Option<&parad_syntax::ast::Ident>,
        a: &TypeExp,
        b: &TypeExp,
    ) -> Res<Type> {
        let a = self.type_exp(a)?;
        let mark = self.types.len();
        if let Some(n) = name {
            self.types.push((n.name.clone(), TypeName::Size));
        }
        let b = self.type_exp(b);
        self.types.truncate(mark);
        Ok(Type::arrow(a, forget_bound_sizes(&b?, mark)))
    }

    /// [`Checker::type_exp`] for the type of a function's parameter: each
    /// unknown size (`[]`) is a size variable that the function's body may
    /// determine (`(xs: []i32) : [2]i32 = xs`), as in Futhark.
    pub fn param_type_exp(&mut self, te: &TypeExp) -> Res<Type> {
        let prev = std::mem::replace(&mut self.anon_infer, true);
        let r = self.type_exp(te);
        self.anon_infer = prev;
        r
    }

    /// Checks that the names in a size expression are in scope, and
    /// returns the dimension it denotes (variables of `i64` type in scope,
    /// integer constants, `+`, `-` and `*` of these; anything else is
    /// [`Dim::Any`]).
    pub fn size_exp(&mut self, s: &SizeExp) -> Res<Dim> {
        match s {
            SizeExp::Any(_) if self.anon_infer => Ok(self.inf.fresh_dim()),
            SizeExp::Any(_) => Ok(Dim::Any),
            SizeExp::Exp(e) => {
                self.size_names(e)?;
                Ok(self.size_dim(e))
            }
        }
    }

    /// The dimension a name used as a size denotes: a size bound in a
    /// type (a parameter of the type abbreviation being defined, or one
    /// bound by `?[k].` or `(n: i64) ->`, which the binder makes unknown),
    /// an `i64` variable in scope, or a top-level constant whose value is
    /// known.
    fn name_dim(&self, name: &str) -> Dim {
        if let Some(p) = self.types.iter().rposition(|(n, _)| n == name) {
            if matches!(self.types[p].1, TypeName::Size) {
                return Dim::AbbrevParam(p as u32);
            }
        }
        match self.lookup(name) {
            Some(l) if l.poly.is_empty() => Dim::Var(l.var),
            Some(_) => Dim::Any,
            None => self.constant_dim(name),
        }
    }

    /// The value of top-level constant `name` if it is an `i64` computed
    /// from integer literals and other such constants by `+`, `-` and `*`
    /// (`def n = 3 * 4`), as a constant dimension; otherwise unknown.
    fn constant_dim(&self, name: &str) -> Dim {
        match self.globals.get(name).and_then(|g| self.constant(g.id, 0)) {
            Some(v) => Dim::Const(v),
            None => Dim::Any,
        }
    }

    /// The value of top-level constant `id` if it is known (see
    /// [`Checker::constant_dim`]).
    pub(crate) fn constant(&self, id: FunId, depth: u32) -> Option<i64> {
        let f = self.funs.get(id.0 as usize)?;
        if !f.params.is_empty() || !f.type_params.is_empty() || f.ret != Type::i64() || depth > 64 {
            return None;
        }
        self.fold_i64(&f.body, depth + 1)
    }

    fn fold_i64(&self, e: &TExp, depth: u32) -> Option<i64> {
        match &e.kind {
            TExpKind::Lit(Literal::Int(v)) => i64::try_from(*v).ok(),
            TExpKind::Global(id, _, _) => self.constant(*id, depth),
            TExpKind::Apply(f, args) if args.len() == 2 && e.ty == Type::i64() => {
                let TExpKind::Intrinsic(name, _) = &f.kind else {
                    return None;
                };
                let a = self.fold_i64(&args[0], depth)?;
                let b = self.fold_i64(&args[1], depth)?;
                match Intrinsic::from_name(name)? {
                    Intrinsic::Add => a.checked_add(b),
                    Intrinsic::Sub => a.checked_sub(b),
                    Intrinsic::Mul => a.checked_mul(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn size_dim(&self, e: &parad_syntax::ast::Exp) -> Dim {
        match &e.kind {
            // Sizes bound only in types (`?[k].`, `(n: i64) ->`, parameters
            // of type abbreviations) stand for no variable here.
            ExpKind::Var(q) if q.quals.is_empty() => self.name_dim(&q.name),
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

    /// Checks that the names in a size expression are in scope and that
    /// the size and the operands of its arithmetic are `i64`s; a call is
    /// checked as an expression, so its arguments have whatever types the
    /// function takes (`[i64.u32 (1 << k)]`, `[reduce (+) 0 xs]`).
    fn size_names(&mut self, e: &parad_syntax::ast::Exp) -> Res<()> {
        match &e.kind {
            ExpKind::Var(q) if q.quals.is_empty() => {
                if let Some(l) = self.lookup(&q.name).cloned() {
                    if l.poly.is_empty() {
                        self.unify_at(q.span, &Type::i64(), &l.ty)?;
                    }
                    return Ok(());
                }
                if matches!(self.lookup_type(&q.name), Some(TypeName::Size))
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
            // A call is checked as an expression (its arguments have the
            // types the function takes); its result is the size.
            ExpKind::Apply(f, args) => {
                // A size is never consumed: a function that consumes an
                // argument cannot compute one.
                if let ExpKind::Var(q) = &f.kind {
                    let consumes = self
                        .globals
                        .get(&q.name)
                        .and_then(|g| self.fun_uniq.get(&g.id));
                    if let Some(i) =
                        consumes.and_then(|u| u.params.iter().position(|p| p.any_unique()))
                    {
                        let what = match args.get(i).map(|a| &a.kind) {
                            Some(ExpKind::Var(v)) => format!("variable \"{}\"", v.name),
                            _ => format!("argument {} of \"{}\"", i + 1, q.name),
                        };
                        return Err(Diagnostic::error(
                            args.get(i).map_or(f.span, |a| a.span),
                            format!(
                                "Consuming {what}, which is not consumable: a size expression cannot consume."
                            ),
                        ));
                    }
                }
                let t = self.check_exp(e)?;
                self.unify_at(e.span, &Type::i64(), &t.ty)
            }
            _ => Ok(()),
        }
    }
}

/// Replaces the size parameters of a type abbreviation in its definition
/// by the arguments (`sizes`: number of the parameter, argument); any
/// other parameter is unknown.
fn subst_abbrev_params(d: &Dim, sizes: &[(u32, Dim)]) -> Dim {
    match d {
        Dim::AbbrevParam(p) => sizes
            .iter()
            .find(|(q, _)| q == p)
            .map(|(_, d)| d.clone())
            .unwrap_or(Dim::Any),
        Dim::Op(o, a, b) => match (subst_abbrev_params(a, sizes), subst_abbrev_params(b, sizes)) {
            (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
            (a, b) => Dim::Op(*o, Box::new(a), Box::new(b)),
        },
        d => d.clone(),
    }
}

/// `t` with the sizes bound from position `mark` of the type scope on
/// (`?[k].`, `(n: i64) ->`) made unknown.
fn forget_bound_sizes(t: &Type, mark: usize) -> Type {
    fn go(d: &Dim, mark: usize) -> Dim {
        match d {
            Dim::AbbrevParam(p) if *p as usize >= mark => Dim::Any,
            Dim::Op(o, a, b) => match (go(a, mark), go(b, mark)) {
                (Dim::Any, _) | (_, Dim::Any) => Dim::Any,
                (a, b) => Dim::Op(*o, Box::new(a), Box::new(b)),
            },
            d => d.clone(),
        }
    }
    t.map_dims(&|d| go(d, mark))
}

pub(crate) fn unknown_size(span: parad_base::Span, name: &str) -> Diagnostic {
    Diagnostic::error(span, format!("Unknown size \"{name}\""))
}
