//! The checker's state: inference variables, scopes of values and types,
//! global functions, and the output tables (variables, type parameters).

use crate::modules::{Files, ModEnv, Module};
use crate::print::{write_with, Names};
use crate::sig::Sig;
use crate::tast::{Dim, FunId, TFun, Type, TypeParamId, VarId, VarInfo};
use crate::unify::{Infer, SizeClash, UnifyError};
use crate::EntryPoint;
use parad_base::{Diagnostic, PrimType, Span};
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) type Res<T> = Result<T, Diagnostic>;

/// A value name in scope.
#[derive(Clone, Debug)]
pub(crate) struct Local {
    pub var: VarId,
    /// Type parameters to instantiate at each use (polymorphic local
    /// functions); empty for ordinary variables.
    pub poly: Vec<TypeParamId>,
    pub ty: Type,
}

/// A type name in scope.
#[derive(Clone, Debug)]
pub(crate) enum TypeName {
    /// A type parameter or an expanded abbreviation without parameters.
    Type(Type),
    /// A size parameter (`[n]`), usable in size expressions.
    Size,
    /// A type abbreviation with parameters (`type t 'a [n] = …`).
    Abbrev(Vec<AbbrevParam>, Type),
}

#[derive(Clone, Debug)]
pub(crate) enum AbbrevParam {
    Type(TypeParamId),
    /// A size parameter, which the definition mentions as
    /// `Dim::AbbrevParam` of this number (unique to the parameter).
    Size(u32),
}

/// How the sizes of a function's type are instantiated at each use.
#[derive(Clone, Debug, Default)]
pub(crate) struct SizeScheme {
    /// Size parameters, then parameters (`n: i64`) whose value appears in
    /// the function's type (`tabulate`'s `[n]a`).
    pub vars: Vec<VarId>,
    /// For each parameter position, the variable of `vars` it binds.
    pub params: Vec<Option<VarId>>,
}

#[derive(Clone, Debug)]
pub(crate) struct Global {
    pub id: FunId,
    pub type_params: Vec<TypeParamId>,
    pub ty: Type,
    /// The type a module type gives the value outside an ascription that
    /// made some of its types abstract: its own type parameters and the
    /// type in terms of them and of the abstract types
    /// ([`Checker::abstract_defs`]).
    pub view: Option<(Vec<TypeParamId>, Type)>,
}

/// Why a size is unknown: what produced it ([`Checker::fresh_unknown`]),
/// for the note that explains a mismatch.
#[derive(Clone, Debug)]
pub(crate) enum UnknownSource {
    /// A range other than `0..<n`, `0..1..<n`, `0...n`, `1..2...n`.
    Range,
    /// A slice other than `xs[:n]`, `xs[0:n]` (with stride 1).
    Slice,
    /// An `if` or `match` whose branches have these different types.
    Branches(String, String),
    /// A loop parameter whose size changes from one iteration to the
    /// next.
    Loop,
    /// The existential size of a function's result (`filter`), the
    /// function's name if it has one.
    Result(Option<String>),
    /// The value of an argument that is not a valid size expression,
    /// passed for a parameter that the result's size names.
    Argument(String),
    /// A size that named this variable, which went out of scope.
    OutOfScope(String),
}

#[derive(Default)]
pub(crate) struct Checker {
    pub inf: Infer,
    /// When AUTOMAP runs ([`crate::automap::Mode`]).
    pub automap: Option<crate::automap::Mode>,
    /// Time spent checking the definitions outside the prelude, and the
    /// part of it spent in AUTOMAP (generating, solving, elaborating).
    pub check_time: std::time::Duration,
    pub automap_time: std::time::Duration,
    /// The ILP sizes of the definitions AUTOMAP ran on, by name.
    pub automap_stats: Vec<(String, Result<crate::automap::IlpStats, &'static str>)>,
    /// The definitions AUTOMAP elaborated: the id of the body as written
    /// and the body with its maps explicit.
    pub elaborated: Vec<(parad_syntax::ast::ExpId, parad_syntax::ast::Exp)>,
    pub vars: Vec<VarInfo>,
    pub tparam_names: Vec<String>,
    /// The definitions as written of the top-level type abbreviations
    /// without type parameters, latest last (C API names of their parts).
    pub type_defs: Vec<(String, parad_syntax::ast::TypeExp)>,
    pub scope: Vec<(String, Local)>,
    pub types: Vec<(String, TypeName)>,
    pub globals: HashMap<String, Global>,
    pub funs: Vec<TFun>,
    /// Numeric modules opened by `f32.(e)`, innermost last.
    pub opened: Vec<PrimType>,
    pub in_prelude: bool,
    /// Inside `#[unsafe]`: assertions are left out (as Futhark's compiler
    /// may; bounds checks stay, so that generated code never reads outside
    /// an array).
    pub in_unsafe: bool,
    /// Checking an imported file: its entry points are ordinary functions.
    pub in_import: bool,
    /// The prelude's `reduce`, used by `f32.sum` and friends.
    pub reduce_fun: Option<FunId>,
    /// The prelude's `replicate` (AUTOMAP's replicates get their sizes
    /// from its size instantiation).
    pub replicate_fun: Option<FunId>,
    /// The spans of the placeholders AUTOMAP writes for the sizes of its
    /// replicates (`replicate ??? x`) in the definition being checked.
    pub rep_size_spans: std::collections::HashSet<Span>,
    /// The error of the definition being finished as written, when AUTOMAP
    /// elaborated it (the error to report if a replicate's size is left
    /// unknown).
    pub automap_first: Option<Diagnostic>,
    /// The sizes put in those placeholders, by placeholder span.
    pub rep_sizes: Vec<(Span, Dim)>,
    /// Size schemes of top-level and local functions that have sizes.
    pub fun_sizes: HashMap<FunId, SizeScheme>,
    pub local_sizes: HashMap<VarId, SizeScheme>,
    /// Modules in scope, innermost last.
    pub mods: Vec<(String, Module)>,
    /// Module types in scope, innermost last.
    pub sigs: Vec<(String, Rc<Sig>)>,
    /// Structures opened by `M.(e)`: the length of `scope` when each was
    /// opened (locals bound after it shadow it) and its contents.
    pub opened_envs: Vec<(usize, Rc<ModEnv>)>,
    /// The names of the modules being checked, outermost first (for the
    /// names of their functions in dumps).
    pub mod_path: Vec<String>,
    /// The program's entry points, in order.
    pub entries: Vec<EntryPoint>,
    /// Imported files, checked once each.
    pub files: Files,
    /// The representation of each abstract type that an ascription made
    /// (a rigid type parameter while checking; replaced when finishing).
    pub abstract_defs: HashMap<TypeParamId, Type>,
    /// Values of stand-in modules made so far ([`Checker::stand_in`]).
    pub stand_ins: u32,
    /// Size parameters of type abbreviations numbered so far.
    pub abbrev_sizes: u32,
    /// While checking a parameter's type, unknown sizes are size
    /// variables ([`Checker::param_type_exp`]).
    pub anon_infer: bool,
    /// Where each unknown size ([`Checker::fresh_unknown`]) comes from.
    pub unknown_sources: HashMap<VarId, (UnknownSource, Span)>,
    /// The top-level functions whose results have existential sizes,
    /// with their result types (unknown sizes kept): each application
    /// gives them fresh unknown sizes.
    pub existential_funs: HashMap<FunId, Type>,
    /// The unknown sizes of pure expressions used as sizes, by
    /// expression ([`Checker::size_of_exp`]).
    pub exp_sizes: HashMap<String, Dim>,
    /// Parameters declared with a function type ([`Checker::note_declared_fns`]).
    pub declared_fns: std::collections::HashSet<VarId>,
    /// The typed holes (`???`) of the definition being checked: where,
    /// their type, and the use that gave it, if an argument.
    pub user_holes: Vec<(Span, Type, Option<String>)>,
    /// While checking a function's declared result type: its existential
    /// sizes (`?[k].`) are noted in `ret_pattern`.
    pub in_ret_type: bool,
    /// The declared result type of the function being checked with its
    /// existential sizes as unknown sizes, one per name.
    pub ret_pattern: Option<Type>,
    /// Which parameters and results of each function are unique.
    pub fun_uniq: HashMap<FunId, crate::unique::USig>,
    /// The same for local functions.
    pub local_uniq: HashMap<VarId, crate::unique::USig>,
    /// The name and id of the top-level function whose parameters are
    /// being checked: [`Checker::check_fun_parts`] binds it for its body.
    pub rec_pending: Option<(String, FunId)>,
    /// The top-level function whose body is being checked, which the
    /// body may call (direct recursion).
    pub rec_fun: Option<RecFun>,
    /// Type parameters declared lifted (`'^a`) or size-lifted (`'~a`).
    pub lifted_tparams: std::collections::HashSet<TypeParamId>,
    /// Inference variables that instantiate such parameters: a function
    /// whose result size depends on its argument may be passed for them.
    pub lifted_vars: std::collections::HashSet<u32>,
    /// Pattern variables under a type ascription (lambda and loop
    /// parameters among them): whether the declared type is unique.
    pub declared_uniq: HashMap<VarId, bool>,
    /// Pattern variables declared with a function type: the uniqueness
    /// of its parameters and result (`op: [k]f32 -> *[k]f32`).
    pub declared_fn: HashMap<VarId, (Vec<crate::unique::UShape>, crate::unique::UShape)>,
    /// The declared result uniqueness of each lambda with a return type,
    /// by the lambda's span.
    pub lambda_ret: HashMap<parad_base::Span, crate::unique::UShape>,
    /// How many functor applications are being checked: their bodies were
    /// checked once with abstract parameter types, where a constant of an
    /// abstract type is no array a result could alias.
    pub functor_apps: u32,
    /// The unknown types shown in messages so far, in order: each is shown
    /// as `t` and its position here from 1, never by its internal number.
    pub shown_vars: std::cell::RefCell<Vec<u32>>,
    /// Top-level functions whose types had overloaded numeric types
    /// defaulted (explained when a use does not fit them).
    pub defaulted: std::collections::HashSet<FunId>,
    /// Type abbreviations declared lifted (`type^`): their position in
    /// `types` and name.
    pub lifted_types: Vec<(usize, String)>,
    /// Type abbreviations declared size-lifted (`type~`), likewise.
    pub size_lifted_types: Vec<(usize, String)>,
}

/// A top-level function as seen from its own body: its type with its own
/// type parameters rigid (recursion is monomorphic in types) and its
/// sizes instantiated afresh at each use (size-polymorphic recursion).
#[derive(Clone, Debug)]
pub(crate) struct RecFun {
    pub name: String,
    pub id: FunId,
    pub type_params: Vec<TypeParamId>,
    pub ty: Type,
    pub sizes: Option<SizeScheme>,
    /// The body refers to the function.
    pub used: bool,
}

/// The note for a mismatch with a function whose type was defaulted.
pub(crate) fn default_note(name: &str) -> String {
    format!("Defaulting: the type of \"{name}\" had ambiguous numeric types, which were defaulted (integers to i32, floats to f64) where it is defined; add type annotations to it")
}

impl Checker {
    /// The defaulting note for `f`, if it is a use of such a function.
    pub(crate) fn defaulted_note(&self, f: &crate::tast::TExp) -> Option<String> {
        match &f.kind {
            crate::tast::TExpKind::Global(id, _, _) if self.defaulted.contains(id) => {
                let name = self.funs.get(id.0 as usize).map_or("", |f| f.name.as_str());
                Some(default_note(name))
            }
            _ => None,
        }
    }
}

impl Checker {
    pub fn new_var(&mut self, name: &str, ty: Type, span: Span) -> VarId {
        self.vars.push(VarInfo {
            name: name.to_string(),
            ty,
            span,
        });
        self.inf.var_count = self.vars.len() as u32;
        VarId(self.vars.len() as u32 - 1)
    }

    /// A fresh unknown size: a size that is distinct from every other
    /// (statically it equals only itself) and that is checked at run time
    /// where it meets a known one. `span` is where it arises.
    /// The prelude, whose definitions rest on intrinsics checked at run
    /// time, gets [`Dim::Any`] instead.
    pub(crate) fn fresh_unknown(&mut self, source: UnknownSource, span: Span) -> Dim {
        if self.in_prelude {
            return Dim::Any;
        }
        let name = format!("?{}", self.unknown_sources.len() + 1);
        let v = self.new_var(&name, Type::i64(), span);
        self.inf.unknowns.insert(v.0);
        self.unknown_sources.insert(v, (source, span));
        Dim::Var(v)
    }

    /// For each unknown size in `dims`, a sentence saying where it comes
    /// from.
    pub(crate) fn explain_unknowns(&self, dims: &[&Dim]) -> String {
        let mut vs = vec![];
        for d in dims {
            self.inf.zonk_dim(d).vars(&mut vs);
        }
        let mut out = String::new();
        let mut seen = vec![];
        for v in vs {
            let Some((source, span)) = self.unknown_sources.get(&v) else {
                continue;
            };
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            let at = self.loc_text(*span);
            let what = match source {
                UnknownSource::Range => format!("is the unknown length of range at {at}"),
                UnknownSource::Slice => format!("is the size of the slice at {at}"),
                UnknownSource::Branches(a, b) => format!(
                    "is unknown because the branches of the conditional at {at} differ in size: one returns {a}, the other {b}"
                ),
                UnknownSource::Loop => format!(
                    "is the size of a loop parameter that changes from one iteration to the next (an existential size created inside the loop body at {at})"
                ),
                UnknownSource::Result(Some(f)) => {
                    format!("is the unknown size of the result of \"{f}\" at {at}")
                }
                UnknownSource::Result(None) => {
                    format!("is the unknown size of the result of the function applied at {at}")
                }
                UnknownSource::Argument(a) => format!(
                    "is the value of the argument \"{a}\" at {at}, which is not a valid size"
                ),
                UnknownSource::OutOfScope(x) => format!(
                    "is unknown because \"{x}\", which it was, goes out of scope at {at}"
                ),
            };
            out.push_str(&format!(" \"{}\" {what}.", self.vars[v.0 as usize].name));
        }
        out
    }

    pub fn new_tparam(&mut self, name: &str) -> TypeParamId {
        self.tparam_names.push(name.to_string());
        TypeParamId(self.tparam_names.len() as u32 - 1)
    }

    pub fn lookup(&self, name: &str) -> Option<&Local> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, l)| l)
    }

    pub fn lookup_type(&self, name: &str) -> Option<&TypeName> {
        self.types
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    pub fn bind(&mut self, name: &str, var: VarId, ty: Type) {
        self.scope.push((
            name.to_string(),
            Local {
                var,
                poly: vec![],
                ty,
            },
        ));
    }

    /// Prints a type for a diagnostic, with type parameters by their
    /// source names and unknown types as `t1`, `t2`, … in the order messages show them.
    pub fn show(&self, t: &Type) -> String {
        self.show_with(t, false)
    }

    /// [`Checker::show`] with the dimensions of arrays (`[n][10]f32`).
    pub fn show_sized(&self, t: &Type) -> String {
        self.show_with(t, true)
    }

    /// A dimension as written in a type (`n`, `10`, `n + 1`); an unknown
    /// one is empty.
    pub fn show_dim(&self, d: &Dim) -> String {
        let name = |v: VarId| self.vars[v.0 as usize].name.clone();
        self.inf.zonk_dim(d).show(&name, "")
    }

    fn show_with(&self, t: &Type, sized: bool) -> String {
        let t = self.inf.zonk(t);
        let mut s = String::new();
        let names = &self.tparam_names;
        let dim = |d: &Dim| self.show_dim(d);
        let _ = write_with(
            &mut s,
            &t,
            &Names {
                dim: sized.then_some(&dim as &dyn Fn(&Dim) -> String),
                param: &|p| {
                    names
                        .get(p.0 as usize)
                        .cloned()
                        .unwrap_or_else(|| format!("p{}", p.0))
                },
                // Overloaded literals are shown at the type they would
                // default to.
                var: &|v| {
                    let c = self.inf.class_of(v);
                    if self.inf.has_constrs(v) {
                        let mut cs = self.inf.constrs_of(v);
                        cs.sort_by(|a, b| a.0.cmp(&b.0));
                        format!("({} | ...)", self.show(&Type::Sum(cs)))
                    } else if c.is_any() {
                        let mut shown = self.shown_vars.borrow_mut();
                        let k = match shown.iter().position(|w| *w == v) {
                            Some(k) => k,
                            None => {
                                shown.push(v);
                                shown.len() - 1
                            }
                        };
                        format!("t{}", k + 1)
                    } else {
                        c.default_type().name().to_string()
                    }
                },
            },
        );
        s
    }

    /// Fails if unification met known sizes that differ since `mark`
    /// ([`Infer::mismatch_mark`]), where the sizes of `actual` must be
    /// those of `expected` statically. `lead` says what did not match.
    pub fn sizes_agree(
        &self,
        mark: usize,
        span: Span,
        lead: &str,
        expected: &Type,
        actual: &Type,
    ) -> Res<()> {
        let why = match self.inf.mismatch_since(mark) {
            None => return Ok(()),
            Some(SizeClash::Differ(a, b)) => format!(
                "Sizes \"{}\" and \"{}\" do not match.{}",
                self.show_dim(&a),
                self.show_dim(&b),
                self.explain_unknowns(&[&a, &b])
            ),
            Some(SizeClash::Occurs) => {
                "Occurs check: a size would have to be made of itself.".to_string()
            }
            Some(SizeClash::Scope(v)) => format!(
                "A size here would be \"{}\", which is bound at {}, inside the expression whose type must have it (scope-violation).",
                self.vars[v.0 as usize].name,
                self.loc_text(self.vars[v.0 as usize].span)
            ),
        };
        Err(Diagnostic::error(
            span,
            format!(
                "{lead} Expected: {}, actual: {}. {why}",
                self.show_sized(expected),
                self.show_sized(actual),
            ),
        ))
    }

    /// Unifies `actual` (the type of the thing at `span`) with `expected`,
    /// reporting a mismatch at `span`.
    pub fn unify_at(&mut self, span: Span, expected: &Type, actual: &Type) -> Res<()> {
        self.inf
            .unify(expected, actual)
            .map_err(|e| self.unify_error(span, expected, actual, e))
    }

    /// "cannot unify", or "Cannot unify type with constructors" when one
    /// side is only known to be a sum type with some constructors and the
    /// other is not a sum type.
    fn mismatch_head(&self, a: &Type, b: &Type) -> &'static str {
        let constrs =
            |t: &Type| matches!(self.inf.shallow(t), Type::Var(v) if self.inf.has_constrs(v));
        let sum = |t: &Type| matches!(self.inf.shallow(t), Type::Sum(_));
        if (constrs(a) && !sum(b) && !constrs(b)) || (constrs(b) && !sum(a) && !constrs(a)) {
            "Cannot unify type with constructors"
        } else {
            "cannot unify"
        }
    }

    /// For two tuples or records of the same shape, the first field whose
    /// types differ.
    fn mismatch_detail(&self, a: &Type, b: &Type) -> String {
        let fields = |t: Type| -> Option<Vec<(String, Type)>> {
            match t {
                Type::Tuple(ts) => Some(
                    ts.into_iter()
                        .enumerate()
                        .map(|(i, t)| (i.to_string(), t))
                        .collect(),
                ),
                Type::Record(fs) => Some(fs),
                _ => None,
            }
        };
        let (Some(xs), Some(ys)) = (fields(self.inf.zonk(a)), fields(self.inf.zonk(b))) else {
            return String::new();
        };
        if xs.len() != ys.len() || xs.iter().zip(&ys).any(|(x, y)| x.0 != y.0) {
            return String::new();
        }
        xs.iter()
            .zip(&ys)
            .find(|(x, y)| self.show(&x.1) != self.show(&y.1))
            .map(|(x, y)| {
                format!(
                    ": field {} differs ('{}' and '{}')",
                    x.0,
                    self.show(&x.1),
                    self.show(&y.1)
                )
            })
            .unwrap_or_default()
    }

    pub fn unify_error(
        &self,
        span: Span,
        expected: &Type,
        actual: &Type,
        e: UnifyError,
    ) -> Diagnostic {
        match e {
            UnifyError::Occurs => Diagnostic::error(
                span,
                format!(
                    "Occurs check: cannot unify '{}' with '{}', which contains it (the type would be infinite)",
                    self.show(expected),
                    self.show(actual)
                ),
            ),
            UnifyError::Mismatch => Diagnostic::error(
                span,
                format!(
                    "{} '{}' with '{}'{}",
                    self.mismatch_head(expected, actual),
                    self.show(expected),
                    self.show(actual),
                    self.mismatch_detail(expected, actual)
                ),
            )
            .with_label(span, format!("this has type '{}'", self.show(actual)))
            .with_note(format!("expected type '{}'", self.show(expected))),
            UnifyError::Class(t, c) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': type '{}' is not {}",
                    self.show(expected),
                    self.show(actual),
                    self.show(&t),
                    c.describe()
                ),
            ),
            UnifyError::NoField(t, f) => match self.inf.shallow(&t) {
                Type::Record(_) => Diagnostic::error(
                    span,
                    format!(
                        "Cannot unify record type '{}' with a type that must have field '{f}'",
                        self.show(&t)
                    ),
                ),
                _ => no_field(span, &self.show(&t), &f),
            },
            UnifyError::UnsharedFields(fs) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': unshared fields: {}.",
                    self.show(expected),
                    self.show(actual),
                    fs.join(", ")
                ),
            ),
            UnifyError::Lifted(t) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': '{}' is functional, but a type that is not a function type is required here",
                    self.show(expected),
                    self.show(actual),
                    self.show(&t)
                ),
            )
            .with_note(
                "array elements, loop parameters, branch results and instances of type parameters without '^' cannot be functions",
            ),
            UnifyError::Equality(t) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': type '{}' does not support equality, which is required here (the values are compared with '==')",
                    self.show(expected),
                    self.show(actual),
                    self.show(&t)
                ),
            ),
            UnifyError::LiftedParam(t) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': type '{}' is lifted (it may stand for arrays of different sizes or functions), but an unlifted type parameter (which may be an array element) is instantiated here",
                    self.show(expected),
                    self.show(actual),
                    self.show(&t)
                ),
            ),
            UnifyError::NotRecord(t, f) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with type that must be a record (with field '{f}')",
                    self.show(&t)
                ),
            ),
            UnifyError::Unshared(cs) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': Unshared constructors: {}.",
                    self.show(expected),
                    self.show(actual),
                    cs.iter()
                        .map(|c| format!("#{c}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ),
            UnifyError::Arity(c) => Diagnostic::error(
                span,
                format!(
                    "cannot unify '{}' with '{}': uses of constructor #{c} differ in arity",
                    self.show(expected),
                    self.show(actual)
                ),
            ),
        }
    }
}

pub(crate) fn no_field(span: Span, t: &str, f: &str) -> Diagnostic {
    if t.starts_with('(') {
        Diagnostic::error(span, format!("tuple of type '{t}' has no component {f}"))
    } else if t.starts_with('{') {
        Diagnostic::error(span, format!("record has no field '{f}'"))
            .with_note(format!("the record has type '{t}'"))
    } else {
        Diagnostic::error(span, format!("type '{t}' has no field '{f}'"))
    }
}
