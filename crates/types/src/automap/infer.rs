//! AUTOMAP's constraint generation (thesis §4.5, rules C-*): one walk over a
//! definition's body that gives every application chain its rank variables
//! and relaxes every type equality to a rank equality.
//!
//! # Types as rank and base
//!
//! A type is kept as `[]^r b`: a rank `r` (a [`RankExpr`]) and a *base* `b`
//! that is not an array: a primitive type, a tuple, a record or a function
//! type of such types, an opaque type (sums, accumulators, type parameters),
//! or a base variable. A type variable `α` of the checker becomes
//! `[]^ᾱ β`: its associated rank and a base variable. Unifying two types
//! equates their ranks (a linear equality for the ILP) and unifies their
//! bases syntactically, which recurses into tuples, records and function
//! types. So rank equalities are generated **structurally** for function
//! types (the digest's erratum of §4.7): `γ → δ ≐ i32 → i32` gives `γ̄ = 0`
//! and `δ̄ = 0`, not only `0 = 0`.
//!
//! A base mismatch (`i32` against a record) cannot be repaired by maps or
//! replicates, so inference stops ([`GiveUp`]) and the checker's own error
//! stands. A local function is monomorphic here (its type parameters stand
//! for one type each). A sum type met first through a constructor is known
//! by the constructors seen so far, and a record met first through a
//! projection by the fields projected so far.
//!
//! # Applications
//!
//! A chain `f a1 … an` (and `a op b`, `-a`, `!a`, `a |> f`, `f <| a`) gets
//! one application per argument (rule C-APP). With `Sᵢ` the frame after
//! argument `i` (`S₀ = 0`) and `f`'s type `p₁ → … → pₙ → t`:
//!
//! ```text
//!     Mᵢ + |Sᵢ₋₁| + |pᵢ|  =  Rᵢ + |aᵢ|,      Sᵢ = Sᵢ₋₁ + Mᵢ
//! ```
//!
//! and the chain's value is `[]^{Sₙ} t`: the frame is folded into the type
//! as soon as the value leaves the chain (rules C-ARRAY, C-FUN, a `let`…).
//! Operators are applications; so are explicit `map` and `replicate`, which
//! are ordinary functions here. Sections are not (their operand is applied
//! as written). Functions are never array elements: a type whose base is a
//! function type has rank 0, which also keeps a partially applied, mapped
//! chain from escaping (`let g = f xs` with `f : i32 → i32 → i32` is not
//! read as an array of functions).
//!
//! Type variables that stand only for scalars (the operands of `+`, unsuffixed
//! literals) have rank 0 (the solver's obligation; otherwise `xs + 1` could
//! read `+` at an array type).
//!
//! **Equality is scalar here.** Futhark's `==` and `!=` also compare whole
//! arrays, which AUTOMAP cannot tell from an implicit map: with `A: [][]i32`,
//! `A != 0` could be `map (map (!= 0)) A` or a whole-array comparison with
//! `replicate (replicate 0)`, and `xmat A == (A != 0)` could capture a single
//! `bool` in its maps for free. The thesis' operators are scalar, and so are
//! the built-in `==` and `!=` in the definitions AUTOMAP elaborates. A
//! definition that checks as written keeps its whole-array comparisons,
//! since AUTOMAP does not touch it.

use super::rtype::{Base, GiveUp, RType, Types, R};
use super::{AppId, RankExpr};
use crate::env::Checker;
use crate::tast::Type;
use parad_base::PrimType;
use parad_syntax::ast::*;
use std::collections::HashMap;

/// The rank variables of one application chain, one per argument in order.
pub(crate) type Chains = HashMap<ExpId, Vec<AppId>>;

/// The walk's state for one definition.
pub(crate) struct Ranks<'c> {
    ck: &'c mut Checker,
    /// The types and the rank system.
    pub(crate) t: Types,
    tyvars: HashMap<u32, RType>,
    scope: Vec<(String, RType)>,
    pub(crate) chains: Chains,
    /// Where each application is (for messages).
    pub(crate) app_spans: Vec<parad_base::Span>,
    /// Whether the built-in `==` and `!=` compare scalars only (module
    /// documentation).
    scalar_equality: bool,
    /// The length of `scope` when each structure opened by `M.(e)` was
    /// opened: its values shadow the locals bound before.
    open_marks: Vec<usize>,
    /// The definition's own name and type, for recursive calls.
    own: Option<(String, RType)>,
}

impl<'c> Ranks<'c> {
    pub(crate) fn new(ck: &'c mut Checker, scalar_equality: bool) -> Self {
        Ranks {
            ck,
            t: Types::default(),
            tyvars: HashMap::new(),
            scope: vec![],
            chains: HashMap::new(),
            app_spans: vec![],
            scalar_equality,
            open_marks: vec![],
            own: None,
        }
    }

    // ───────────── types of the checker ─────────────

    /// A checker type (instantiated, possibly with inference variables).
    pub(crate) fn rtype_of(&mut self, t: &Type) -> RType {
        let t = self.ck.inf.zonk(t);
        self.convert(&t)
    }

    fn convert(&mut self, t: &Type) -> RType {
        match t {
            Type::Prim(p) => self.t.scalar(Base::Prim(*p)),
            Type::Array(e, ds) => {
                let mut inner = self.convert(e);
                inner.rank = inner.rank + ds.len() as i64;
                inner
            }
            Type::Tuple(ts) => {
                let ts = ts.iter().map(|t| self.convert(t)).collect();
                self.t.scalar(Base::Tuple(ts))
            }
            Type::Record(fs) => {
                let fs = fs
                    .iter()
                    .map(|(n, t)| (n.clone(), self.convert(t)))
                    .collect();
                self.t.scalar(Base::Record(fs))
            }
            Type::Arrow(a, b) => {
                let (a, b) = (self.convert(a), self.convert(b));
                self.t.scalar(Base::Fun(a, b))
            }
            Type::Var(v) => {
                if let Some(t) = self.tyvars.get(v) {
                    return t.clone();
                }
                let t = if self.ck.inf.class_of(*v).is_any() {
                    self.t.fresh()
                } else {
                    self.t.scalar(Base::Var)
                };
                self.tyvars.insert(*v, t.clone());
                t
            }
            Type::Acc(t) => {
                let t = self.convert(t);
                self.t.scalar(Base::Acc(t))
            }
            Type::Sum(cs) => {
                let cs = cs
                    .iter()
                    .map(|(n, ts)| (n.clone(), ts.iter().map(|t| self.convert(t)).collect()))
                    .collect();
                self.t.scalar(Base::Sum(cs))
            }
            Type::Param(p) => self.t.scalar(Base::Param(*p)),
        }
    }

    /// A type written in the program, with its sizes erased (they may name
    /// sizes bound inside the body, which the checker's scope lacks).
    fn type_exp(&mut self, te: &TypeExp) -> R<RType> {
        let t = self
            .ck
            .type_exp(&erase_sizes(te))
            .map_err(|_| GiveUp("type"))?;
        Ok(self.rtype_of(&t))
    }

    // ───────────── patterns and scope ─────────────

    /// Binds the names of pattern `p` at type `t`.
    fn bind_pat(&mut self, p: &Pat, t: &RType) -> R<()> {
        match p {
            Pat::Id(x) => {
                self.scope.push((x.name.clone(), t.clone()));
                Ok(())
            }
            Pat::Wildcard(_) => Ok(()),
            Pat::Tuple(ps, _) if ps.len() == 1 => self.bind_pat(&ps[0], t),
            Pat::Tuple(ps, _) => {
                let ts = self.t.as_tuple(t, ps.len())?;
                ps.iter()
                    .zip(&ts)
                    .try_for_each(|(p, t)| self.bind_pat(p, t))
            }
            Pat::Record(fs, _) => {
                for (name, p) in fs {
                    let ft = self.t.field(t, &name.name)?;
                    match p {
                        Some(p) => self.bind_pat(p, &ft)?,
                        None => self.scope.push((name.name.clone(), ft)),
                    }
                }
                Ok(())
            }
            Pat::Ascribe(p, te, _) => {
                let tt = self.type_exp(te)?;
                self.t.unify(t, &tt)?;
                self.bind_pat(p, t)
            }
            Pat::Lit(l, _) | Pat::NegLit(l, _) => {
                let lt = self.lit(l);
                self.t.unify(t, &lt)
            }
            Pat::Attr(_, p, _) => self.bind_pat(p, t),
            Pat::Constr(c, ps, _) => {
                self.t.sys.equate(t.rank.clone(), 0);
                let ts = self.t.constructor(t.base, &c.name, ps.len())?;
                ps.iter()
                    .zip(&ts)
                    .try_for_each(|(p, t)| self.bind_pat(p, t))
            }
        }
    }

    fn scoped<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let mark = self.scope.len();
        let r = f(self);
        self.scope.truncate(mark);
        r
    }

    // ───────────── expressions ─────────────

    fn lit(&mut self, l: &Lit) -> RType {
        let p = match l {
            Lit::Int { suffix: None, .. } | Lit::Float { suffix: None, .. } | Lit::Char(_) => {
                return self.t.scalar(Base::Var)
            }
            Lit::Int {
                suffix: Some(IntSuffix::Int(t)),
                ..
            } => PrimType::Int(*t),
            Lit::Int {
                suffix: Some(IntSuffix::Float(t)),
                ..
            }
            | Lit::Float {
                suffix: Some(t), ..
            } => PrimType::Float(*t),
            Lit::Bool(_) => PrimType::Bool,
        };
        self.t.scalar(Base::Prim(p))
    }

    /// The checker's type of a name not bound inside the definition.
    fn global(&mut self, q: &QualName) -> R<RType> {
        let te = self.ck.check_var(q).map_err(|_| GiveUp("name"))?;
        Ok(self.rtype_of(&te.ty))
    }

    fn operator(&mut self, op: &QualName) -> R<RType> {
        if op.quals.is_empty() {
            if let Some(t) = self.local(&op.name).or_else(|| self.own(&op.name)) {
                return Ok(t);
            }
        }
        let te = self.ck.op_fn(op).map_err(|_| GiveUp("operator"))?;
        let t = self.rtype_of(&te.ty);
        let builtin = matches!(te.kind, crate::tast::TExpKind::Intrinsic(..));
        if self.scalar_equality && builtin && matches!(op.name.as_str(), "==" | "!=") {
            let (p, _) = self.t.as_fun(&t)?;
            self.t.sys.equate(p.rank, 0);
        }
        Ok(t)
    }

    /// An application chain: `head` applied to arguments of types `args`
    /// (rule C-APP per argument); the value's type with its frame folded.
    fn chain(&mut self, at: &Exp, head: RType, args: Vec<RType>) -> R<RType> {
        let mut frame = RankExpr::zero();
        let mut f = head;
        let mut apps = vec![];
        for a in args {
            let (p, r) = self.t.as_fun(&f)?;
            let app = self.t.sys.add_app(frame.clone());
            self.app_spans.push(at.span);
            let (m, rep) = (self.t.sys.maps(app), self.t.sys.reps(app));
            self.t
                .sys
                .equate(frame.clone() + m + p.rank.clone(), a.rank.clone() + rep);
            self.t.unify_base(p.base, a.base)?;
            frame = frame + m;
            apps.push(app);
            f = r;
        }
        self.chains.insert(at.id, apps);
        let rank = frame + f.rank.clone();
        Ok(self.t.with_rank(&f, rank))
    }

    /// The type of `e`, its frame folded in.
    pub(crate) fn infer(&mut self, e: &Exp) -> R<RType> {
        match &e.kind {
            ExpKind::Lit(l) => Ok(self.lit(l)),
            ExpKind::StringLit(_) => {
                let u8t = self
                    .t
                    .scalar(Base::Prim(PrimType::Int(parad_base::IntType::U8)));
                Ok(self.t.with_rank(&u8t, RankExpr::constant(1)))
            }
            ExpKind::Var(q) => self.infer_var(q),
            ExpKind::Hole => Ok(self.t.fresh()),
            ExpKind::Tuple(es) if es.len() == 1 => self.infer(&es[0]),
            ExpKind::Tuple(es) => {
                let ts = es.iter().map(|e| self.infer(e)).collect::<R<Vec<_>>>()?;
                Ok(self.t.scalar(Base::Tuple(ts)))
            }
            ExpKind::Record(fields) => {
                let mut fs = vec![];
                for f in fields {
                    let (name, t) = match f {
                        FieldExp::Explicit(n, e) => (n.name.clone(), self.infer(e)?),
                        FieldExp::Implicit(n) => {
                            let q = QualName {
                                quals: vec![],
                                name: n.name.clone(),
                                span: n.span,
                            };
                            (n.name.clone(), self.infer_var(&q)?)
                        }
                    };
                    fs.push((name, t));
                }
                let names: Vec<&str> = fs.iter().map(|(n, _)| n.as_str()).collect();
                if let Some(order) = crate::tast::tuple_order(&names) {
                    // `{0 = a, 1 = b}` is the tuple `(a, b)`.
                    let ts = order.into_iter().map(|i| fs[i].1.clone()).collect();
                    return Ok(self.t.scalar(Base::Tuple(ts)));
                }
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                Ok(self.t.scalar(Base::Record(fs)))
            }
            ExpKind::ArrayLit(es) => {
                let elem = match es.first() {
                    Some(x) => self.infer(x)?,
                    None => self.t.fresh(),
                };
                for x in es.iter().skip(1) {
                    let t = self.infer(x)?;
                    self.t.unify(&elem, &t)?;
                }
                let rank = elem.rank.clone() + 1;
                Ok(self.t.with_rank(&elem, rank))
            }
            ExpKind::Range {
                start, second, end, ..
            } => {
                let t = self.t.scalar(Base::Var);
                for x in [Some(start), second.as_ref(), Some(end)]
                    .into_iter()
                    .flatten()
                {
                    let tx = self.infer(x)?;
                    self.t.unify(&t, &tx)?;
                }
                Ok(self.t.with_rank(&t, RankExpr::constant(1)))
            }
            ExpKind::Project(inner, field) => {
                let t = self.infer(inner)?;
                self.t.field(&t, &field.name)
            }
            ExpKind::Index(arr, idx) => {
                let t = self.infer(arr)?;
                self.index(&t, idx)
            }
            ExpKind::Update(arr, idx, v) => {
                let t = self.infer(arr)?;
                let elem = self.index(&t, idx)?;
                let tv = self.infer(v)?;
                self.t.unify(&elem, &tv)?;
                Ok(t)
            }
            ExpKind::RecordUpdate(r, path, v) => {
                let t = self.infer(r)?;
                let mut ft = t.clone();
                for f in path {
                    ft = self.t.field(&ft, &f.name)?;
                }
                let tv = self.infer(v)?;
                self.t.unify(&ft, &tv)?;
                Ok(t)
            }
            ExpKind::Apply(f, args) => {
                let head = self.infer(f)?;
                let args = args.iter().map(|a| self.infer(a)).collect::<R<Vec<_>>>()?;
                self.chain(e, head, args)
            }
            ExpKind::BinOp(..) => self.binop_chain(e),
            ExpKind::Negate(x) | ExpKind::Not(x) => {
                let t = self.t.scalar(Base::Var);
                let head = self.t.scalar(Base::Fun(t.clone(), t));
                let tx = self.infer(x)?;
                self.chain(e, head, vec![tx])
            }
            ExpKind::If(c, t, f) => {
                let tc = self.infer(c)?;
                let b = self.t.scalar(Base::Prim(PrimType::Bool));
                self.t.unify(&tc, &b)?;
                let tt = self.infer(t)?;
                let tf = self.infer(f)?;
                self.t.unify(&tt, &tf)?;
                Ok(tt)
            }
            ExpKind::Let {
                sizes,
                pat,
                rhs,
                body,
            } => {
                let tr = self.infer(rhs)?;
                self.scoped(|s| {
                    s.bind_sizes(sizes);
                    s.bind_pat(pat, &tr)?;
                    s.infer(body)
                })
            }
            ExpKind::LetFun {
                name,
                type_params,
                params,
                ret,
                rhs,
                body,
            } => {
                let sizes: Vec<Ident> = type_params
                    .iter()
                    .filter_map(|p| match p {
                        TypeParam::Size(id) => Some(id.clone()),
                        TypeParam::Type(..) => None,
                    })
                    .collect();
                // Type parameters stand for one type each: the function is
                // used at one type (a use at another fails to unify, and
                // inference gives up).
                let mark = self.ck.types.len();
                for p in type_params {
                    if let TypeParam::Type(id, _) = p {
                        let t = self.ck.inf.fresh();
                        self.ck
                            .types
                            .push((id.name.clone(), crate::env::TypeName::Type(t)));
                    }
                }
                let ft = self.scoped(|s| {
                    s.bind_sizes(&sizes);
                    s.function(params, ret.as_ref(), rhs)
                });
                self.ck.types.truncate(mark);
                let ft = ft?;
                self.scoped(|s| {
                    s.scope.push((name.name.clone(), ft));
                    s.infer(body)
                })
            }
            ExpKind::Lambda { params, ret, body } => {
                self.scoped(|s| s.function(params, ret.as_ref(), body))
            }
            ExpKind::OpSection(op) => self.op_section(op),
            ExpKind::OpSectionLeft(op, x) => {
                let ft = self.op_section(op)?;
                let (p, r) = self.t.as_fun(&ft)?;
                let tx = self.infer(x)?;
                self.t.unify(&p, &tx)?;
                Ok(r)
            }
            ExpKind::OpSectionRight(op, x) => {
                let ft = self.op_section(op)?;
                let (p1, r1) = self.t.as_fun(&ft)?;
                let (p2, r2) = self.t.as_fun(&r1)?;
                let tx = self.infer(x)?;
                self.t.unify(&p2, &tx)?;
                Ok(self.t.scalar(Base::Fun(p1, r2)))
            }
            ExpKind::Constr(c, args) => {
                let t = self.t.scalar(Base::Var);
                let ts = self.t.constructor(t.base, &c.name, args.len())?;
                for (a, pt) in args.iter().zip(&ts) {
                    let ta = self.infer(a)?;
                    self.t.unify(&ta, pt)?;
                }
                Ok(t)
            }
            ExpKind::Match(scrut, cases) => {
                let ts = self.infer(scrut)?;
                let result = self.t.fresh();
                for (p, body) in cases {
                    let tb = self.scoped(|s| {
                        s.bind_pat(p, &ts)?;
                        s.infer(body)
                    })?;
                    self.t.unify(&result, &tb)?;
                }
                Ok(result)
            }
            ExpKind::ProjectSection(steps) => {
                let arg = self.t.fresh();
                let mut t = arg.clone();
                for step in steps {
                    t = match step {
                        SectionStep::Field(f) => self.t.field(&t, &f.name)?,
                        SectionStep::Index(idx) => self.index(&t, idx)?,
                    };
                }
                Ok(self.t.scalar(Base::Fun(arg, t)))
            }
            ExpKind::QualParens(q, inner) => {
                let mut path = q.quals.clone();
                path.push(q.name.clone());
                match self.ck.lookup_mod_path(&path, q.span) {
                    Ok(Some(crate::modules::Module::Prim(p))) => {
                        self.ck.opened.push(p);
                        let r = self.infer(inner);
                        self.ck.opened.pop();
                        r
                    }
                    Ok(Some(crate::modules::Module::Struct(env))) => {
                        let mark = self.ck.types.len();
                        self.ck.types.extend(env.types.iter().cloned());
                        self.ck.opened_envs.push((self.ck.scope.len(), env));
                        self.open_marks.push(self.scope.len());
                        let r = self.infer(inner);
                        self.open_marks.pop();
                        self.ck.opened_envs.pop();
                        self.ck.types.truncate(mark);
                        r
                    }
                    _ => Err(GiveUp("M.(e) of a parametric module")),
                }
            }
            ExpKind::Loop {
                sizes,
                pat,
                init,
                form,
                body,
            } => self.scoped(|s| {
                let tp = match init {
                    Some(i) => s.infer(i)?,
                    None => s.infer(&pat_as_exp(pat).ok_or(GiveUp("loop pattern"))?)?,
                };
                s.bind_sizes(sizes);
                s.bind_pat(pat, &tp)?;
                match form {
                    LoopForm::For(i, n) => {
                        let tn = s.infer(n)?;
                        s.t.sys.equate(tn.rank.clone(), 0);
                        s.scope.push((i.name.clone(), tn));
                    }
                    LoopForm::ForIn(p, xs) => {
                        let txs = s.infer(xs)?;
                        let q = s.t.sys.assoc();
                        s.t.sys.equate(txs.rank.clone(), RankExpr::var(q) + 1);
                        let elem = s.t.with_rank(&txs, RankExpr::var(q));
                        s.bind_pat(p, &elem)?;
                    }
                    LoopForm::While(c) => {
                        let tc = s.infer(c)?;
                        let b = s.t.scalar(Base::Prim(PrimType::Bool));
                        s.t.unify(&tc, &b)?;
                    }
                }
                let tb = s.infer(body)?;
                s.t.unify(&tp, &tb)?;
                Ok(tp)
            }),
            ExpKind::Ascribe(x, te) | ExpKind::Coerce(x, te) => {
                let tx = self.infer(x)?;
                let tt = self.type_exp(te)?;
                self.t.unify(&tx, &tt)?;
                Ok(tx)
            }
            ExpKind::Assert(c, x) => {
                let tc = self.infer(c)?;
                self.t.sys.equate(tc.rank, 0);
                self.infer(x)
            }
            ExpKind::Attr(_, x) => self.infer(x),
        }
    }

    /// A name: a local of the definition (unless a structure opened since
    /// it was bound has a value of that name), `r.x.y` on a local record,
    /// or the checker's.
    fn infer_var(&mut self, q: &QualName) -> R<RType> {
        let Some(first) = q.quals.first() else {
            return match self.local(&q.name).or_else(|| self.own(&q.name)) {
                Some(t) => Ok(t),
                None => self.global(q),
            };
        };
        match self.local(first) {
            Some(mut t) => {
                for f in q.quals[1..].iter().chain([&q.name]) {
                    t = self.t.field(&t, f)?;
                }
                Ok(t)
            }
            None => self.global(q),
        }
    }

    fn local(&mut self, name: &str) -> Option<RType> {
        let i = self.scope.iter().rposition(|(n, _)| n == name)?;
        let shadowed =
            self.open_marks.last().is_some_and(|&m| i < m) && self.ck.opened_val(name).is_some();
        (!shadowed).then(|| self.scope[i].1.clone())
    }

    fn op_section(&mut self, op: &QualName) -> R<RType> {
        if op.quals.is_empty() && (op.name == "|>" || op.name == "<|") {
            return Err(GiveUp("pipe section"));
        }
        self.operator(op)
    }

    /// A binary-operator chain, its left spine walked with a loop (a long
    /// `x + 1 + 1 + …` must not exhaust the stack). `a |> f` and `f <| a`
    /// are the application `f a`.
    fn binop_chain(&mut self, e: &Exp) -> R<RType> {
        let mut spine = vec![];
        let mut leftmost = e;
        while let ExpKind::BinOp(op, a, b) = &leftmost.kind {
            spine.push((leftmost, op, &**b));
            leftmost = a;
        }
        let mut acc = self.infer(leftmost)?;
        for (at, op, b) in spine.into_iter().rev() {
            let tb = self.infer(b)?;
            acc = match (op.quals.is_empty(), op.name.as_str()) {
                (true, "|>") => self.chain(at, tb, vec![acc])?,
                (true, "<|") => self.chain(at, acc, vec![tb])?,
                _ => {
                    let head = self.operator(op)?;
                    self.chain(at, head, vec![acc, tb])?
                }
            };
        }
        Ok(acc)
    }

    /// `a[i, j:k]`: `a` has at least as many dimensions as indices; the
    /// result keeps the sliced ones.
    fn index(&mut self, t: &RType, idx: &[DimIndex]) -> R<RType> {
        let mut kept = 0;
        for d in idx {
            match d {
                DimIndex::Fix(i) => {
                    let ti = self.infer(i)?;
                    self.t.sys.equate(ti.rank, 0);
                }
                DimIndex::Slice { start, end, stride } => {
                    kept += 1;
                    for x in [start, end, stride].into_iter().flatten() {
                        let tx = self.infer(x)?;
                        self.t.sys.equate(tx.rank, 0);
                    }
                }
            }
        }
        let rest = RankExpr::var(self.t.sys.assoc());
        self.t
            .sys
            .equate(t.rank.clone(), rest.clone() + idx.len() as i64);
        Ok(self.t.with_rank(t, rest + kept))
    }

    /// `\p1 … pn : t -> body` (rule C-FUN: the body's frame is folded into
    /// the result).
    fn function(&mut self, params: &[Pat], ret: Option<&TypeExp>, body: &Exp) -> R<RType> {
        let mut pts = vec![];
        for p in params {
            let t = self.t.fresh();
            self.bind_pat(p, &t)?;
            pts.push(t);
        }
        let mut t = self.infer(body)?;
        if let Some(te) = ret {
            let tr = self.type_exp(te)?;
            self.t.unify(&t, &tr)?;
        }
        for p in pts.into_iter().rev() {
            t = self.t.scalar(Base::Fun(p, t));
        }
        Ok(t)
    }

    fn bind_sizes(&mut self, sizes: &[Ident]) {
        for n in sizes {
            let t = self
                .t
                .scalar(Base::Prim(PrimType::Int(parad_base::IntType::I64)));
            self.scope.push((n.name.clone(), t));
        }
    }

    /// Binds the definition's own name at its type (`fty`), for recursive
    /// calls (at that type only).
    pub(crate) fn bind_self(&mut self, name: &str, fty: &Type) {
        let t = self.rtype_of(fty);
        self.own = Some((name.to_string(), t));
    }

    /// The definition's own name, as the checker resolves it: after locals
    /// and the members of opened numeric modules, before other globals.
    fn own(&mut self, name: &str) -> Option<RType> {
        let (own, t) = self.own.as_ref()?;
        if own != name {
            return None;
        }
        let t = t.clone();
        // A parameter of the same name, or a value of an opened structure,
        // comes first.
        if self.ck.lookup(name).is_some() || self.ck.opened_val(name).is_some() {
            return None;
        }
        let span = parad_base::Span::new(parad_base::FileId(0), 0, 0);
        for p in self.ck.opened.clone() {
            if matches!(self.ck.numeric_member(p, name, span), Ok(Some(_))) {
                return None;
            }
        }
        Some(t)
    }

    /// The definition's body against its declared (or inferred) result type.
    pub(crate) fn body(&mut self, body: &Exp, ret: &Type) -> R<()> {
        let tb = self.infer(body)?;
        let tr = self.rtype_of(ret);
        self.t.unify(&tb, &tr)?;
        self.t.close();
        Ok(())
    }
}

/// `loop (x, y) for …`: the pattern's variables as the initial value.
fn pat_as_exp(p: &Pat) -> Option<Exp> {
    let kind = match p {
        Pat::Id(x) => ExpKind::Var(QualName {
            quals: vec![],
            name: x.name.clone(),
            span: x.span,
        }),
        Pat::Tuple(ps, _) => ExpKind::Tuple(ps.iter().map(pat_as_exp).collect::<Option<_>>()?),
        Pat::Ascribe(p, _, _) | Pat::Attr(_, p, _) => return pat_as_exp(p),
        _ => return None,
    };
    Some(Exp {
        id: ExpId(u32::MAX),
        kind,
        span: p.span(),
    })
}

/// `te` with every size made `[]` (and existential sizes dropped).
fn erase_sizes(te: &TypeExp) -> TypeExp {
    match te {
        TypeExp::Named { name, args, span } => TypeExp::Named {
            name: name.clone(),
            args: args
                .iter()
                .map(|a| match a {
                    TypeArg::Size(s) => TypeArg::Size(SizeExp::Any(size_span(s))),
                    TypeArg::Type(t) => TypeArg::Type(erase_sizes(t)),
                })
                .collect(),
            span: *span,
        },
        TypeExp::Tuple(ts, s) => TypeExp::Tuple(ts.iter().map(erase_sizes).collect(), *s),
        TypeExp::Record(fs, s) => TypeExp::Record(
            fs.iter()
                .map(|(n, t)| (n.clone(), erase_sizes(t)))
                .collect(),
            *s,
        ),
        TypeExp::Array(d, t, s) => TypeExp::Array(
            Box::new(SizeExp::Any(size_span(d))),
            Box::new(erase_sizes(t)),
            *s,
        ),
        TypeExp::Unique(t, s) => TypeExp::Unique(Box::new(erase_sizes(t)), *s),
        TypeExp::Arrow(_, a, b, s) => {
            TypeExp::Arrow(None, Box::new(erase_sizes(a)), Box::new(erase_sizes(b)), *s)
        }
        TypeExp::Sum(cs, s) => TypeExp::Sum(
            cs.iter()
                .map(|(c, ts)| (c.clone(), ts.iter().map(erase_sizes).collect()))
                .collect(),
            *s,
        ),
        TypeExp::Exists(_, t, _) => erase_sizes(t),
    }
}

fn size_span(s: &SizeExp) -> parad_base::Span {
    match s {
        SizeExp::Any(sp) => *sp,
        SizeExp::Exp(e) => e.span,
    }
}
