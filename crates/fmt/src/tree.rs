//! The layout tree: the parsed program reduced to what indentation needs.
//!
//! Every construct that can span lines becomes a [`Node`]: its byte range,
//! the start of its content (after parentheses that only group it), the
//! way it lays out lines that start inside it ([`Kind`]) and its children,
//! each with the [`Role`] that places a line starting with that child.

use parad_syntax::ast::*;
use parad_syntax::lexer::{Tok, Token};

/// How a node places the lines that start inside it (other than at the
/// start of one of its children, which the child's [`Role`] decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Continuation lines are indented two columns past the node's start;
    /// layout keywords (`in`, `then`, `else`, `do`, ...) line up with it.
    Block,
    /// A module body or signature in braces: items two columns past the
    /// indentation of the line holding the `{`.
    ModBlock,
}

/// Where a line that starts with a child goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Role {
    /// Two columns past the parent's start.
    Indented,
    /// In the parent's column (`let` bodies, operands of infix operators).
    Aligned,
    /// An argument (or parameter, or list element): in the column of the
    /// first one when that one is on the line where the parent starts
    /// (or, for lists, on the line of the opening bracket); otherwise two
    /// columns past the parent's start.
    Arg,
    /// An item of a [`Kind::ModBlock`].
    Item,
    /// The `else` branch of an `if`: an `if` there that follows `else` on
    /// the same line takes the outer `if`'s column, so that `else if`
    /// chains line up.
    ElseBranch,
}

/// One construct of the program.
#[derive(Debug)]
pub(crate) struct Node {
    /// Byte range, including grouping parentheses.
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
    pub role: Role,
    /// Start of the first [`Role::Arg`] child, if any.
    pub first_arg: Option<usize>,
    /// Whether the node is an `if` (for [`Role::ElseBranch`]).
    pub is_if: bool,
    /// Whether the node is a lambda: as an argument, its lines are placed
    /// relative to the application, not to its `\\`.
    pub is_lambda: bool,
    /// Whether the node is a sum type: on a line of its own it is indented
    /// four columns, so that the `|` of later lines stand two columns in.
    pub is_sum: bool,
    /// Whether the node is a module type's `{ specs }`.
    pub is_sig: bool,
    /// Whether lines in the node are placed from the indentation of the
    /// line where it starts rather than from its column (module
    /// expressions and module types).
    pub line_based: bool,
    /// Whether the node's own parentheses or brackets enclose it (tuples,
    /// sections): those are not stripped as grouping parentheses.
    pub own_parens: bool,
    pub children: Vec<Node>,
}

/// The tokens of the program, in order, without the end of file.
pub(crate) type Toks<'a> = &'a [Token];

/// Builds nodes from the syntax tree.
pub(crate) struct Builder<'a> {
    stack: Vec<Node>,
    toks: Toks<'a>,
    /// Byte ranges of the operators of infix applications.
    pub ops: Vec<(usize, usize)>,
}

impl<'a> Builder<'a> {
    fn open(&mut self, start: u32, end: u32, kind: Kind, role: Role) {
        self.stack.push(Node {
            start: start as usize,
            end: end as usize,
            kind,
            role,
            first_arg: None,
            is_if: false,
            is_lambda: false,
            is_sum: false,
            is_sig: false,
            line_based: false,
            own_parens: false,
            children: vec![],
        });
    }

    fn close(&mut self) {
        let n = self.stack.pop().expect("balanced open/close");
        let parent = self.stack.last_mut().expect("a root node");
        if n.role == Role::Arg && parent.first_arg.is_none() {
            parent.first_arg = Some(n.start);
        }
        parent.children.push(n);
    }

    /// The start of the token before the one at byte `at` (before the
    /// parentheses there too, if `skip_parens`).
    fn before(&self, at: u32, skip_parens: bool) -> u32 {
        let mut i = self.toks.partition_point(|t| t.span.start < at);
        while skip_parens && i > 1 && self.toks[i - 1].tok == Tok::LParen {
            i -= 1;
        }
        match i.checked_sub(1) {
            Some(j) => self.toks[j].span.start.min(at),
            None => at,
        }
    }

    fn top(&mut self) -> &mut Node {
        self.stack.last_mut().expect("a root node")
    }

    /// The tree of a whole program.
    /// The tree of a whole program (its root spans the whole text) and
    /// the byte ranges of its infix operators.
    pub(crate) fn program(p: &Program, len: usize, toks: Toks<'a>) -> (Node, Vec<(usize, usize)>) {
        let mut b = Builder {
            stack: vec![],
            toks,
            ops: vec![],
        };
        b.open(0, len as u32, Kind::ModBlock, Role::Item);
        for d in &p.decls {
            b.decl(d);
        }
        (b.stack.pop().expect("the root"), b.ops)
    }

    fn decl(&mut self, d: &Decl) {
        match d {
            Decl::Val(v) => {
                self.open(v.span.start, v.span.end, Kind::Block, Role::Item);
                self.type_params(&v.type_params);
                for p in &v.params {
                    self.pat(p, Role::Arg);
                }
                if let Some(t) = &v.ret {
                    self.ty(t, Role::Indented);
                }
                self.exp(&v.body, Role::Indented);
                self.close();
            }
            Decl::Type(t) => {
                self.open(t.span.start, t.span.end, Kind::Block, Role::Item);
                self.type_params(&t.params);
                self.ty(&t.def, Role::Indented);
                self.close();
            }
            Decl::Module(m) => {
                self.open(m.span.start, m.span.end, Kind::Block, Role::Item);
                for p in &m.params {
                    self.open(p.span.start, p.span.end, Kind::Block, Role::Indented);
                    self.mod_type(&p.sig, Role::Indented);
                    self.close();
                }
                if let Some(s) = &m.sig {
                    self.mod_type(s, Role::Indented);
                }
                self.mod_exp(&m.body, Role::Indented);
                self.close();
            }
            Decl::ModType(m) => {
                self.open(m.span.start, m.span.end, Kind::Block, Role::Item);
                self.mod_type(&m.def, Role::Indented);
                self.close();
            }
            Decl::Open(m, s) => {
                self.open(s.start, s.end, Kind::Block, Role::Item);
                self.mod_exp(m, Role::Indented);
                self.close();
            }
            Decl::Import(_, s) => {
                self.open(s.start, s.end, Kind::Block, Role::Item);
                self.close();
            }
            Decl::Local(d, s) => {
                self.open(s.start, s.end, Kind::Block, Role::Item);
                self.decl(d);
                // `local` may stand on a line of its own above the
                // declaration.
                if let Some(c) = self.top().children.last_mut() {
                    c.role = Role::Aligned;
                }
                self.close();
            }
        }
    }

    /// Type parameters `[n]`, `'a`, as arguments: from the bracket or tick
    /// before the name.
    fn type_params(&mut self, ps: &[TypeParam]) {
        for p in ps {
            let (TypeParam::Size(n) | TypeParam::Type(n, _)) = p;
            let start = self.before(n.span.start, false);
            let end = n.span.end + u32::from(matches!(p, TypeParam::Size(_)));
            self.open(start, end, Kind::Block, Role::Arg);
            self.close();
        }
    }

    fn mod_exp(&mut self, m: &ModExp, role: Role) {
        let s = m.span();
        match m {
            ModExp::Var(_) | ModExp::Import(..) => {
                self.open(s.start, s.end, Kind::Block, role);
            }
            ModExp::Struct(ds, _) => {
                self.open(s.start, s.end, Kind::ModBlock, role);
                for d in ds {
                    self.decl(d);
                }
            }
            ModExp::Apply(f, a, _) => {
                self.open(s.start, s.end, Kind::Block, role);
                self.mod_exp(f, Role::Indented);
                self.mod_exp(a, Role::Arg);
            }
            ModExp::Ascribe(e, t, _) => {
                self.open(s.start, s.end, Kind::Block, role);
                self.mod_exp(e, Role::Indented);
                self.mod_type(t, Role::Indented);
            }
            ModExp::Lambda(p, t, e, _) => {
                self.open(s.start, s.end, Kind::Block, role);
                self.open(p.span.start, p.span.end, Kind::Block, Role::Indented);
                self.mod_type(&p.sig, Role::Indented);
                self.close();
                if let Some(t) = t {
                    self.mod_type(t, Role::Indented);
                }
                self.mod_exp(e, Role::Indented);
            }
        }
        self.top().line_based = true;
        self.close();
    }

    fn mod_type(&mut self, m: &ModTypeExp, role: Role) {
        match m {
            ModTypeExp::Var(q) => {
                self.open(q.span.start, q.span.end, Kind::Block, role);
            }
            ModTypeExp::Specs(specs, s) => {
                self.open(s.start, s.end, Kind::ModBlock, role);
                self.top().is_sig = true;
                for sp in specs {
                    self.spec(sp);
                }
            }
            ModTypeExp::With(t, _, _, te, s) => {
                self.open(s.start, s.end, Kind::Block, role);
                self.mod_type(t, Role::Indented);
                self.ty(te, Role::Indented);
            }
            ModTypeExp::Arrow(_, a, b, s) => {
                self.open(s.start, s.end, Kind::Block, role);
                self.mod_type(a, Role::Indented);
                self.mod_type(b, Role::Aligned);
            }
        }
        self.top().line_based = true;
        self.close();
    }

    fn spec(&mut self, sp: &Spec) {
        match sp {
            Spec::Val {
                ty,
                span,
                type_params,
                ..
            } => {
                self.open(span.start, span.end, Kind::Block, Role::Item);
                self.type_params(type_params);
                self.ty(ty, Role::Indented);
            }
            Spec::Type {
                def, span, params, ..
            } => {
                self.open(span.start, span.end, Kind::Block, Role::Item);
                self.type_params(params);
                if let Some(t) = def {
                    self.ty(t, Role::Indented);
                }
            }
            Spec::Module { sig, span, .. } => {
                self.open(span.start, span.end, Kind::Block, Role::Item);
                self.mod_type(sig, Role::Indented);
            }
            Spec::Include(t, span) => {
                self.open(span.start, span.end, Kind::Block, Role::Item);
                self.mod_type(t, Role::Indented);
            }
        }
        self.close();
    }

    fn ty(&mut self, t: &TypeExp, role: Role) {
        let s = t.span();
        self.open(s.start, s.end, Kind::Block, role);
        match t {
            TypeExp::Named { args, .. } => {
                for a in args {
                    match a {
                        TypeArg::Size(SizeExp::Exp(e)) => self.exp(e, Role::Arg),
                        TypeArg::Size(SizeExp::Any(_)) => {}
                        TypeArg::Type(t) => self.ty(t, Role::Arg),
                    }
                }
            }
            TypeExp::Tuple(ts, _) => {
                self.top().own_parens = true;
                for t in ts {
                    self.ty(t, Role::Arg);
                }
            }
            TypeExp::Record(fs, _) => {
                for (_, t) in fs {
                    self.ty(t, Role::Arg);
                }
            }
            TypeExp::Array(d, t, _) => {
                if let SizeExp::Exp(e) = &**d {
                    self.exp(e, Role::Indented);
                }
                self.ty(t, Role::Indented);
            }
            TypeExp::Unique(t, _) => self.ty(t, Role::Indented),
            TypeExp::Arrow(_, a, b, _) => {
                self.ty(a, Role::Indented);
                self.ty(b, Role::Aligned);
            }
            TypeExp::Sum(cs, _) => {
                self.top().is_sum = true;
                for (_, ts) in cs {
                    for t in ts {
                        self.ty(t, Role::Indented);
                    }
                }
            }
            TypeExp::Exists(_, t, _) => self.ty(t, Role::Indented),
        }
        self.close();
    }

    fn pat(&mut self, p: &Pat, role: Role) {
        let s = p.span();
        self.open(s.start, s.end, Kind::Block, role);
        match p {
            Pat::Id(_) | Pat::Wildcard(_) | Pat::Lit(..) | Pat::NegLit(..) => {}
            Pat::Tuple(ps, _) => {
                self.top().own_parens = true;
                for p in ps {
                    self.pat(p, Role::Arg);
                }
            }
            Pat::Record(fs, _) => {
                for (_, p) in fs {
                    if let Some(p) = p {
                        self.pat(p, Role::Arg);
                    }
                }
            }
            Pat::Ascribe(p, t, _) => {
                self.pat(p, Role::Indented);
                self.ty(t, Role::Indented);
            }
            Pat::Constr(_, ps, _) => {
                for p in ps {
                    self.pat(p, Role::Arg);
                }
            }
            Pat::Attr(_, p, _) => self.pat(p, Role::Aligned),
        }
        self.close();
    }

    fn dims(&mut self, ds: &[DimIndex]) {
        for d in ds {
            match d {
                DimIndex::Fix(e) => self.exp(e, Role::Arg),
                DimIndex::Slice { start, end, stride } => {
                    for e in [start, end, stride].into_iter().flatten() {
                        self.exp(e, Role::Indented);
                    }
                }
            }
        }
    }

    fn exp(&mut self, e: &Exp, role: Role) {
        let s = e.span;
        self.open(s.start, s.end, Kind::Block, role);
        match &e.kind {
            ExpKind::Lit(_)
            | ExpKind::StringLit(_)
            | ExpKind::Var(_)
            | ExpKind::Hole
            | ExpKind::OpSection(_) => {
                self.top().own_parens = matches!(e.kind, ExpKind::OpSection(_));
            }
            ExpKind::ProjectSection(steps) => {
                self.top().own_parens = true;
                for st in steps {
                    if let SectionStep::Index(ds) = st {
                        self.dims(ds);
                    }
                }
            }
            ExpKind::Tuple(es) | ExpKind::ArrayLit(es) => {
                self.top().own_parens = matches!(e.kind, ExpKind::Tuple(_));
                for x in es {
                    self.exp(x, Role::Arg);
                }
            }
            ExpKind::Record(fs) => {
                for f in fs {
                    match f {
                        FieldExp::Explicit(name, x) => {
                            self.open(name.span.start, x.span.end, Kind::Block, Role::Arg);
                            self.exp(x, Role::Indented);
                            self.close();
                        }
                        FieldExp::Implicit(name) => {
                            self.open(name.span.start, name.span.end, Kind::Block, Role::Arg);
                            self.close();
                        }
                    }
                }
            }
            ExpKind::Range {
                start, second, end, ..
            } => {
                self.exp(start, Role::Indented);
                if let Some(x) = second {
                    self.exp(x, Role::Indented);
                }
                self.exp(end, Role::Indented);
            }
            ExpKind::Project(x, _) => self.exp(x, Role::Indented),
            ExpKind::Index(x, ds) => {
                self.exp(x, Role::Indented);
                self.dims(ds);
            }
            ExpKind::Update(x, ds, v) => {
                self.exp(x, Role::Aligned);
                self.dims(ds);
                self.exp(v, Role::Indented);
            }
            ExpKind::RecordUpdate(x, _, v) => {
                self.exp(x, Role::Aligned);
                self.exp(v, Role::Indented);
            }
            ExpKind::Apply(f, args) => {
                self.exp(f, Role::Indented);
                for a in args {
                    self.exp(a, Role::Arg);
                }
            }
            ExpKind::Constr(_, args) => {
                for a in args {
                    self.exp(a, Role::Arg);
                }
            }
            ExpKind::BinOp(op, l, r) => {
                self.ops
                    .push((op.span.start as usize, op.span.end as usize));
                self.exp(l, Role::Aligned);
                self.exp(r, Role::Aligned);
            }
            ExpKind::Negate(x) | ExpKind::Not(x) => self.exp(x, Role::Indented),
            ExpKind::If(c, t, f) => {
                self.top().is_if = true;
                self.exp(c, Role::Indented);
                self.exp(t, Role::Indented);
                self.exp(f, Role::ElseBranch);
            }
            ExpKind::Let { pat, rhs, body, .. } => {
                self.pat(pat, Role::Indented);
                match &rhs.kind {
                    // `let a[i] = v`: the update's parts belong to the `let`.
                    ExpKind::Update(_, ds, v) if rhs.span.start == pat.span().start => {
                        self.dims(ds);
                        self.exp(v, Role::Indented);
                    }
                    _ => self.exp(rhs, Role::Indented),
                }
                self.exp(body, Role::Aligned);
            }
            ExpKind::LetFun {
                type_params,
                params,
                ret,
                rhs,
                body,
                ..
            } => {
                self.type_params(type_params);
                for p in params {
                    self.pat(p, Role::Arg);
                }
                if let Some(t) = ret {
                    self.ty(t, Role::Indented);
                }
                self.exp(rhs, Role::Indented);
                self.exp(body, Role::Aligned);
            }
            ExpKind::Lambda { params, ret, body } => {
                self.top().is_lambda = true;
                for p in params {
                    self.pat(p, Role::Arg);
                }
                if let Some(t) = ret {
                    self.ty(t, Role::Indented);
                }
                self.exp(body, Role::Indented);
            }
            ExpKind::OpSectionLeft(_, x) | ExpKind::OpSectionRight(_, x) => {
                self.top().own_parens = true;
                self.exp(x, Role::Indented);
            }
            ExpKind::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                self.pat(pat, Role::Indented);
                if let Some(i) = init {
                    self.exp(i, Role::Indented);
                }
                match form {
                    LoopForm::For(_, n) => self.exp(n, Role::Indented),
                    LoopForm::ForIn(p, xs) => {
                        self.pat(p, Role::Indented);
                        self.exp(xs, Role::Indented);
                    }
                    LoopForm::While(c) => self.exp(c, Role::Indented),
                }
                self.exp(body, Role::Indented);
            }
            ExpKind::Ascribe(x, t) | ExpKind::Coerce(x, t) => {
                self.exp(x, Role::Aligned);
                self.ty(t, Role::Indented);
            }
            ExpKind::Assert(c, x) => {
                self.exp(c, Role::Indented);
                self.exp(x, Role::Indented);
            }
            ExpKind::Match(x, cases) => {
                self.exp(x, Role::Indented);
                for (p, body) in cases {
                    // A case runs from its `case` keyword, which the
                    // layout finds as the token before the pattern.
                    let case = self.before(p.span().start, true);
                    self.open(case, body.span.end, Kind::Block, Role::Aligned);
                    self.pat(p, Role::Indented);
                    self.exp(body, Role::Indented);
                    self.close();
                }
            }
            ExpKind::Attr(_, x) => self.exp(x, Role::Aligned),
            ExpKind::QualParens(_, x) => self.exp(x, Role::Indented),
        }
        self.close();
    }
}
