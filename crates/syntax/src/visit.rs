//! A mutable walk over every expression node of a tree, including those
//! inside types (sizes) and patterns (ascriptions).

use crate::ast::*;

/// Calls `f` on `e` and then on every expression below it, in source order.
pub fn walk_exp_mut(e: &mut Exp, f: &mut dyn FnMut(&mut Exp)) {
    f(e);
    match &mut e.kind {
        ExpKind::Lit(_) | ExpKind::StringLit(_) | ExpKind::Var(_) | ExpKind::Hole => {}
        ExpKind::OpSection(_) => {}
        ExpKind::Tuple(es) | ExpKind::ArrayLit(es) => {
            es.iter_mut().for_each(|e| walk_exp_mut(e, f))
        }
        ExpKind::Record(fs) => {
            for fe in fs {
                if let FieldExp::Explicit(_, e) = fe {
                    walk_exp_mut(e, f);
                }
            }
        }
        ExpKind::Range {
            start, second, end, ..
        } => {
            walk_exp_mut(start, f);
            if let Some(s) = second {
                walk_exp_mut(s, f);
            }
            walk_exp_mut(end, f);
        }
        ExpKind::Project(e, _)
        | ExpKind::Negate(e)
        | ExpKind::Not(e)
        | ExpKind::OpSectionLeft(_, e)
        | ExpKind::OpSectionRight(_, e)
        | ExpKind::Attr(_, e)
        | ExpKind::QualParens(_, e) => walk_exp_mut(e, f),
        ExpKind::Index(a, idx) => {
            walk_exp_mut(a, f);
            walk_dims_mut(idx, f);
        }
        ExpKind::Update(a, idx, v) => {
            walk_exp_mut(a, f);
            walk_dims_mut(idx, f);
            walk_exp_mut(v, f);
        }
        ExpKind::RecordUpdate(a, _, v) | ExpKind::BinOp(_, a, v) | ExpKind::Assert(a, v) => {
            walk_exp_mut(a, f);
            walk_exp_mut(v, f);
        }
        ExpKind::Apply(h, args) => {
            walk_exp_mut(h, f);
            args.iter_mut().for_each(|e| walk_exp_mut(e, f));
        }
        ExpKind::If(c, t, e) => {
            walk_exp_mut(c, f);
            walk_exp_mut(t, f);
            walk_exp_mut(e, f);
        }
        ExpKind::Let { pat, rhs, body, .. } => {
            walk_pat_mut(pat, f);
            walk_exp_mut(rhs, f);
            walk_exp_mut(body, f);
        }
        ExpKind::LetFun {
            params,
            ret,
            rhs,
            body,
            ..
        } => {
            params.iter_mut().for_each(|p| walk_pat_mut(p, f));
            if let Some(t) = ret {
                walk_type_mut(t, f);
            }
            walk_exp_mut(rhs, f);
            walk_exp_mut(body, f);
        }
        ExpKind::Lambda { params, ret, body } => {
            params.iter_mut().for_each(|p| walk_pat_mut(p, f));
            if let Some(t) = ret {
                walk_type_mut(t, f);
            }
            walk_exp_mut(body, f);
        }
        ExpKind::ProjectSection(steps) => {
            for s in steps {
                if let SectionStep::Index(idx) = s {
                    walk_dims_mut(idx, f);
                }
            }
        }
        ExpKind::Loop {
            pat,
            init,
            form,
            body,
            ..
        } => {
            walk_pat_mut(pat, f);
            if let Some(i) = init {
                walk_exp_mut(i, f);
            }
            match form {
                LoopForm::For(_, n) => walk_exp_mut(n, f),
                LoopForm::ForIn(p, xs) => {
                    walk_pat_mut(p, f);
                    walk_exp_mut(xs, f);
                }
                LoopForm::While(c) => walk_exp_mut(c, f),
            }
            walk_exp_mut(body, f);
        }
        ExpKind::Ascribe(e, t) | ExpKind::Coerce(e, t) => {
            walk_exp_mut(e, f);
            walk_type_mut(t, f);
        }
        ExpKind::Match(e, cases) => {
            walk_exp_mut(e, f);
            for (p, b) in cases {
                walk_pat_mut(p, f);
                walk_exp_mut(b, f);
            }
        }
        ExpKind::Constr(_, args) => args.iter_mut().for_each(|e| walk_exp_mut(e, f)),
    }
}

fn walk_dims_mut(idx: &mut [DimIndex], f: &mut dyn FnMut(&mut Exp)) {
    for d in idx {
        match d {
            DimIndex::Fix(e) => walk_exp_mut(e, f),
            DimIndex::Slice { start, end, stride } => {
                for e in [start, end, stride].into_iter().flatten() {
                    walk_exp_mut(e, f);
                }
            }
        }
    }
}

/// Calls `f` on every expression inside a pattern's type ascriptions.
pub fn walk_pat_mut(p: &mut Pat, f: &mut dyn FnMut(&mut Exp)) {
    match p {
        Pat::Id(_) | Pat::Wildcard(_) | Pat::Lit(..) | Pat::NegLit(..) => {}
        Pat::Tuple(ps, _) | Pat::Constr(_, ps, _) => ps.iter_mut().for_each(|p| walk_pat_mut(p, f)),
        Pat::Record(fs, _) => fs
            .iter_mut()
            .flat_map(|(_, p)| p)
            .for_each(|p| walk_pat_mut(p, f)),
        Pat::Ascribe(p, t, _) => {
            walk_pat_mut(p, f);
            walk_type_mut(t, f);
        }
        Pat::Attr(_, p, _) => walk_pat_mut(p, f),
    }
}

/// Calls `f` on every size expression inside a type.
pub fn walk_type_mut(t: &mut TypeExp, f: &mut dyn FnMut(&mut Exp)) {
    let size = |d: &mut SizeExp, f: &mut dyn FnMut(&mut Exp)| {
        if let SizeExp::Exp(e) = d {
            walk_exp_mut(e, f);
        }
    };
    match t {
        TypeExp::Named { args, .. } => {
            for a in args {
                match a {
                    TypeArg::Size(d) => size(d, f),
                    TypeArg::Type(t) => walk_type_mut(t, f),
                }
            }
        }
        TypeExp::Tuple(ts, _) => ts.iter_mut().for_each(|t| walk_type_mut(t, f)),
        TypeExp::Record(fs, _) => fs.iter_mut().for_each(|(_, t)| walk_type_mut(t, f)),
        TypeExp::Array(d, t, _) => {
            size(d, f);
            walk_type_mut(t, f);
        }
        TypeExp::Unique(t, _) | TypeExp::Exists(_, t, _) => walk_type_mut(t, f),
        TypeExp::Arrow(_, a, b, _) => {
            walk_type_mut(a, f);
            walk_type_mut(b, f);
        }
        TypeExp::Sum(cs, _) => cs
            .iter_mut()
            .flat_map(|(_, ts)| ts)
            .for_each(|t| walk_type_mut(t, f)),
    }
}

/// Calls `f` on every expression of a program, including those in
/// parameter and return types and inside modules and module types.
pub fn walk_program_mut(p: &mut Program, f: &mut dyn FnMut(&mut Exp)) {
    p.decls.iter_mut().for_each(|d| walk_decl_mut(d, f));
}

pub fn walk_decl_mut(d: &mut Decl, f: &mut dyn FnMut(&mut Exp)) {
    match d {
        Decl::Val(v) => {
            v.params.iter_mut().for_each(|p| walk_pat_mut(p, f));
            if let Some(t) = &mut v.ret {
                walk_type_mut(t, f);
            }
            walk_exp_mut(&mut v.body, f);
        }
        Decl::Type(t) => walk_type_mut(&mut t.def, f),
        Decl::Module(m) => {
            for p in &mut m.params {
                walk_mod_type_mut(&mut p.sig, f);
            }
            if let Some(s) = &mut m.sig {
                walk_mod_type_mut(s, f);
            }
            walk_mod_exp_mut(&mut m.body, f);
        }
        Decl::ModType(m) => walk_mod_type_mut(&mut m.def, f),
        Decl::Open(m, _) => walk_mod_exp_mut(m, f),
        Decl::Import(..) => {}
        Decl::Local(d, _) => walk_decl_mut(d, f),
    }
}

fn walk_mod_exp_mut(m: &mut ModExp, f: &mut dyn FnMut(&mut Exp)) {
    match m {
        ModExp::Var(_) | ModExp::Import(..) => {}
        ModExp::Struct(ds, _) => ds.iter_mut().for_each(|d| walk_decl_mut(d, f)),
        ModExp::Apply(a, b, _) => {
            walk_mod_exp_mut(a, f);
            walk_mod_exp_mut(b, f);
        }
        ModExp::Ascribe(m, t, _) => {
            walk_mod_exp_mut(m, f);
            walk_mod_type_mut(t, f);
        }
        ModExp::Lambda(p, sig, body, _) => {
            walk_mod_type_mut(&mut p.sig, f);
            if let Some(s) = sig {
                walk_mod_type_mut(s, f);
            }
            walk_mod_exp_mut(body, f);
        }
    }
}

fn walk_mod_type_mut(t: &mut ModTypeExp, f: &mut dyn FnMut(&mut Exp)) {
    match t {
        ModTypeExp::Var(_) => {}
        ModTypeExp::Specs(specs, _) => {
            for s in specs {
                match s {
                    Spec::Val { ty, .. } => walk_type_mut(ty, f),
                    Spec::Type { def: Some(t), .. } => walk_type_mut(t, f),
                    Spec::Type { def: None, .. } => {}
                    Spec::Module { sig, .. } => walk_mod_type_mut(sig, f),
                    Spec::Include(t, _) => walk_mod_type_mut(t, f),
                }
            }
        }
        ModTypeExp::With(t, _, _, te, _) => {
            walk_mod_type_mut(t, f);
            walk_type_mut(te, f);
        }
        ModTypeExp::Arrow(_, a, b, _) => {
            walk_mod_type_mut(a, f);
            walk_mod_type_mut(b, f);
        }
    }
}
