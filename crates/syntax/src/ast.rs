//! The abstract syntax tree of Futhark source programs.
//!
//! Every node carries the [`Span`] of its source text. Expressions also
//! carry an [`ExpId`], unique within a parse, so that later stages (the type
//! checker, lowering) can attach information in side tables keyed by it.
//! The tree is kept close to the concrete syntax: parentheses are dropped,
//! but sugar (sections, ranges, `let a[i] = v`, backquoted operators) is
//! kept, so that diagnostics can speak of what the user wrote.

use parad_base::{FloatType, IntType, Span};

/// Identifies one expression node within a parsed program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExpId(pub u32);

/// A plain name with its location.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A possibly qualified name: `x`, `f32.sqrt`, `M.N.t`, or an operator
/// name such as `+` or `f32.+`.
#[derive(Clone, Debug, PartialEq)]
pub struct QualName {
    pub quals: Vec<String>,
    pub name: String,
    pub span: Span,
}

/// A whole source file: a sequence of declarations.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub decls: Vec<Decl>,
}

// ───────────────────────────── declarations ─────────────────────────────

#[derive(Clone, Debug, PartialEq)]
pub enum Decl {
    Val(ValDecl),
    Type(TypeDecl),
    Module(ModDecl),
    ModType(ModTypeDecl),
    Open(ModExp, Span),
    Import(String, Span),
    Local(Box<Decl>, Span),
}

/// Which keyword introduced a value declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValKind {
    Def,
    /// Deprecated top-level `let`.
    Let,
    Entry,
}

/// `def f [n] 'a (x: [n]a) (y: i32): t = e`, also `def (+++) x y = e`
/// (`name` is then the operator symbol) and `def x +++ y = e`.
#[derive(Clone, Debug, PartialEq)]
pub struct ValDecl {
    pub kind: ValKind,
    pub name: Ident,
    pub type_params: Vec<TypeParam>,
    pub params: Vec<Pat>,
    pub ret: Option<TypeExp>,
    pub body: Exp,
    pub attrs: Vec<Attr>,
    pub doc: Option<String>,
    pub span: Span,
}

/// How much a type or type parameter may hide (`'a`, `'~a`, `'^a`;
/// `type`, `type~`, `type^`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Liftedness {
    Unlifted,
    SizeLifted,
    Lifted,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeParam {
    /// `[n]`
    Size(Ident),
    /// `'a`, `'~a`, `'^a`
    Type(Ident, Liftedness),
}

impl TypeParam {
    /// The parameter as written: `[n]`, `'a`, `'~a`, `'^a`.
    pub fn source(&self) -> String {
        match self {
            TypeParam::Size(n) => format!("[{}]", n.name),
            TypeParam::Type(n, l) => {
                let tick = match l {
                    Liftedness::Unlifted => "'",
                    Liftedness::SizeLifted => "'~",
                    Liftedness::Lifted => "'^",
                };
                format!("{tick}{}", n.name)
            }
        }
    }
}

/// `type t [n] 'a = te`
#[derive(Clone, Debug, PartialEq)]
pub struct TypeDecl {
    pub name: Ident,
    pub liftedness: Liftedness,
    pub params: Vec<TypeParam>,
    pub def: TypeExp,
    pub attrs: Vec<Attr>,
    pub doc: Option<String>,
    pub span: Span,
}

/// `module m (p: mt) ... : mt = me`
#[derive(Clone, Debug, PartialEq)]
pub struct ModDecl {
    pub name: Ident,
    pub params: Vec<ModParam>,
    pub sig: Option<ModTypeExp>,
    pub body: ModExp,
    pub doc: Option<String>,
    pub span: Span,
}

/// `(p: mt)` as a parametric module's parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct ModParam {
    pub name: Ident,
    pub sig: ModTypeExp,
    pub span: Span,
}

/// `module type mt = mte`
#[derive(Clone, Debug, PartialEq)]
pub struct ModTypeDecl {
    pub name: Ident,
    pub def: ModTypeExp,
    pub doc: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModExp {
    Var(QualName),
    /// `{ decls }`
    Struct(Vec<Decl>, Span),
    /// `import "file"` as a module expression.
    Import(String, Span),
    /// `me1 me2`
    Apply(Box<ModExp>, Box<ModExp>, Span),
    /// `me : mte`
    Ascribe(Box<ModExp>, ModTypeExp, Span),
    /// `\(p: mt) [: mt] -> me`
    Lambda(Box<ModParam>, Option<ModTypeExp>, Box<ModExp>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ModTypeExp {
    Var(QualName),
    /// `{ specs }`
    Specs(Vec<Spec>, Span),
    /// `mte with t 'a = te`
    With(Box<ModTypeExp>, QualName, Vec<TypeParam>, TypeExp, Span),
    /// `(p: mte1) -> mte2` or `mte1 -> mte2`
    Arrow(Option<Ident>, Box<ModTypeExp>, Box<ModTypeExp>, Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Spec {
    /// `val f [n] 'a: t` (also `val (+): t`)
    Val {
        name: Ident,
        type_params: Vec<TypeParam>,
        ty: TypeExp,
        doc: Option<String>,
        span: Span,
    },
    /// `type t 'a` (abstract) or `type t 'a = te`
    Type {
        name: Ident,
        liftedness: Liftedness,
        params: Vec<TypeParam>,
        def: Option<TypeExp>,
        doc: Option<String>,
        span: Span,
    },
    /// `module m: mte`
    Module {
        name: Ident,
        sig: ModTypeExp,
        doc: Option<String>,
        span: Span,
    },
    /// `include mte`
    Include(ModTypeExp, Span),
}

// ───────────────────────────── types ─────────────────────────────

/// A type expression as written.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeExp {
    /// A named type with its arguments: `i32`, `t`, `M.t [n] f32`.
    Named {
        name: QualName,
        args: Vec<TypeArg>,
        span: Span,
    },
    /// `(t1, t2)`; `()` is the empty tuple.
    Tuple(Vec<TypeExp>, Span),
    /// `{x: t1, y: t2}`
    Record(Vec<(Ident, TypeExp)>, Span),
    /// `[d]t`
    Array(Box<SizeExp>, Box<TypeExp>, Span),
    /// `*t`
    Unique(Box<TypeExp>, Span),
    /// `t1 -> t2` or `(x: t1) -> t2`
    Arrow(Option<Ident>, Box<TypeExp>, Box<TypeExp>, Span),
    /// `#a t | #b`
    Sum(Vec<(Ident, Vec<TypeExp>)>, Span),
    /// `?[n][m].t`
    Exists(Vec<Ident>, Box<TypeExp>, Span),
}

/// The size between brackets in an array type or size argument.
#[derive(Clone, Debug, PartialEq)]
pub enum SizeExp {
    /// `[]`
    Any(Span),
    /// `[n]`, `[3]`, `[n+1]`
    Exp(Exp),
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeArg {
    Size(SizeExp),
    Type(TypeExp),
}

// ───────────────────────────── patterns ─────────────────────────────

#[derive(Clone, Debug, PartialEq)]
pub enum Pat {
    Id(Ident),
    Wildcard(Span),
    /// `(p1, p2)`; `()` is the empty tuple pattern.
    Tuple(Vec<Pat>, Span),
    /// `{x, y = p}`: a field without `= p` binds the field's name.
    Record(Vec<(Ident, Option<Pat>)>, Span),
    /// `p : t`
    Ascribe(Box<Pat>, TypeExp, Span),
    /// A literal, in `match` cases: `1`, `-2.0`, `'a'`, `true`.
    Lit(Lit, Span),
    /// A negated numeric literal in a `match` case: `-1`, `-2.5f32`.
    NegLit(Lit, Span),
    /// `#c p1 p2`
    Constr(Ident, Vec<Pat>, Span),
    /// `#[attr] p`
    Attr(Attr, Box<Pat>, Span),
}

// ───────────────────────────── expressions ─────────────────────────────

#[derive(Clone, Debug, PartialEq)]
pub struct Exp {
    pub id: ExpId,
    pub kind: ExpKind,
    pub span: Span,
}

/// A numeric, boolean or character literal.
#[derive(Clone, Debug, PartialEq)]
pub enum Lit {
    /// An integer literal (decimal, `0x`, `0b`, with `_` separators) and its
    /// suffix. The magnitude is kept unreduced; negation is an operator.
    Int {
        value: u128,
        suffix: Option<IntSuffix>,
    },
    /// A decimal or hexadecimal float literal and its suffix.
    Float {
        value: f64,
        suffix: Option<FloatType>,
    },
    Bool(bool),
    /// `'a'`: a Unicode scalar value; typed as an integer.
    Char(u32),
}

/// Integer literals may carry an integer or a float suffix (`1f32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    Int(IntType),
    Float(FloatType),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeEnd {
    /// `a..<b`
    UpToExclusive,
    /// `a..>b`
    DownToExclusive,
    /// `a...b`
    Inclusive,
}

/// One component of a slice: `i` or `a:b:s` with optional parts.
#[derive(Clone, Debug, PartialEq)]
pub enum DimIndex {
    Fix(Exp),
    Slice {
        start: Option<Exp>,
        end: Option<Exp>,
        stride: Option<Exp>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub enum LoopForm {
    /// `for i < n`
    For(Ident, Box<Exp>),
    /// `for p in xs`
    ForIn(Pat, Box<Exp>),
    /// `while c`
    While(Box<Exp>),
}

/// A record field in a record literal.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldExp {
    /// `x = e`
    Explicit(Ident, Exp),
    /// `x` (short for `x = x`)
    Implicit(Ident),
}

/// `#[inline]`, `#[stripmine(2)]`, `#[noinline, unroll]`.
#[derive(Clone, Debug, PartialEq)]
pub enum Attr {
    Atom(String, Span),
    Int(i64, Span),
    Comp(String, Vec<Attr>, Span),
}

/// One path step of a section `(.x.[i])`.
#[derive(Clone, Debug, PartialEq)]
pub enum SectionStep {
    Field(Ident),
    Index(Vec<DimIndex>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExpKind {
    Lit(Lit),
    /// `"abc"`: an array of `u8` (UTF-8 bytes).
    StringLit(String),
    Var(QualName),
    /// `???`: a typed hole.
    Hole,
    /// `(e1, e2)`; `()` is the unit value.
    Tuple(Vec<Exp>),
    Record(Vec<FieldExp>),
    ArrayLit(Vec<Exp>),
    /// `a..b...c`, `a..<b`, `a..>b`; `second` is the optional `..b`.
    Range {
        start: Box<Exp>,
        second: Option<Box<Exp>>,
        end: Box<Exp>,
        kind: RangeEnd,
    },
    /// `e.x` on a record, `e.0` on a tuple (the field name is `"0"`).
    Project(Box<Exp>, Ident),
    /// `a[i, j:k]`
    Index(Box<Exp>, Vec<DimIndex>),
    /// `a with [i] = v` (the path is one slice) and `let a[i] = v`, after
    /// desugaring the latter into a `Let` of an `Update`.
    Update(Box<Exp>, Vec<DimIndex>, Box<Exp>),
    /// `r with x.y = v`
    RecordUpdate(Box<Exp>, Vec<Ident>, Box<Exp>),
    /// Function application `f a b`, arguments flattened.
    Apply(Box<Exp>, Vec<Exp>),
    /// `a op b`, including backquoted functions `` a `f` b ``.
    BinOp(QualName, Box<Exp>, Box<Exp>),
    /// `-e`
    Negate(Box<Exp>),
    /// `!e`
    Not(Box<Exp>),
    If(Box<Exp>, Box<Exp>, Box<Exp>),
    /// `let [n] p = e in body`
    Let {
        sizes: Vec<Ident>,
        pat: Pat,
        rhs: Box<Exp>,
        body: Box<Exp>,
    },
    /// `let f [n] 'a p1 p2 : t = e in body`
    LetFun {
        name: Ident,
        type_params: Vec<TypeParam>,
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        rhs: Box<Exp>,
        body: Box<Exp>,
    },
    /// `\p1 p2 : t -> e`
    Lambda {
        params: Vec<Pat>,
        ret: Option<TypeExp>,
        body: Box<Exp>,
    },
    /// `(+)`
    OpSection(QualName),
    /// `(e +)`
    OpSectionLeft(QualName, Box<Exp>),
    /// `(+ e)`
    OpSectionRight(QualName, Box<Exp>),
    /// `(.x.y)`, `(.[i])`, `(.x.[i])`
    ProjectSection(Vec<SectionStep>),
    /// `loop p = init for ... do body`; `init` is absent in `loop x for ...`
    /// (the pattern's variables are then their own initial values).
    Loop {
        sizes: Vec<Ident>,
        pat: Pat,
        init: Option<Box<Exp>>,
        form: LoopForm,
        body: Box<Exp>,
    },
    /// `e : t`
    Ascribe(Box<Exp>, TypeExp),
    /// `e :> t`
    Coerce(Box<Exp>, TypeExp),
    /// `assert c e`
    Assert(Box<Exp>, Box<Exp>),
    /// `match e case p -> e ...`
    Match(Box<Exp>, Vec<(Pat, Exp)>),
    /// `#c e1 e2`
    Constr(Ident, Vec<Exp>),
    /// `#[attr] e`
    Attr(Attr, Box<Exp>),
    /// `M.(e)`: `e` with module `M` opened.
    QualParens(QualName, Box<Exp>),
}

impl Pat {
    pub fn span(&self) -> Span {
        match self {
            Pat::Id(i) => i.span,
            Pat::Wildcard(s)
            | Pat::Tuple(_, s)
            | Pat::Record(_, s)
            | Pat::Ascribe(_, _, s)
            | Pat::Lit(_, s)
            | Pat::NegLit(_, s)
            | Pat::Constr(_, _, s)
            | Pat::Attr(_, _, s) => *s,
        }
    }
}

impl TypeExp {
    pub fn span(&self) -> Span {
        match self {
            TypeExp::Named { span, .. } => *span,
            TypeExp::Tuple(_, s)
            | TypeExp::Record(_, s)
            | TypeExp::Array(_, _, s)
            | TypeExp::Unique(_, s)
            | TypeExp::Arrow(_, _, _, s)
            | TypeExp::Sum(_, s)
            | TypeExp::Exists(_, _, s) => *s,
        }
    }
}

impl SizeExp {
    pub fn span(&self) -> Span {
        match self {
            SizeExp::Any(s) => *s,
            SizeExp::Exp(e) => e.span,
        }
    }
}

impl Attr {
    pub fn span(&self) -> Span {
        match self {
            Attr::Atom(_, s) | Attr::Int(_, s) | Attr::Comp(_, _, s) => *s,
        }
    }
}

impl ModExp {
    pub fn span(&self) -> Span {
        match self {
            ModExp::Var(q) => q.span,
            ModExp::Struct(_, s)
            | ModExp::Import(_, s)
            | ModExp::Apply(_, _, s)
            | ModExp::Ascribe(_, _, s)
            | ModExp::Lambda(_, _, _, s) => *s,
        }
    }
}

impl QualName {
    /// The name as written, `f32.sqrt`.
    pub fn full(&self) -> String {
        let mut s = String::new();
        for q in &self.quals {
            s.push_str(q);
            s.push('.');
        }
        s.push_str(&self.name);
        s
    }
}
