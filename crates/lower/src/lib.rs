//! Stage 3 of the pipeline: the typed AST to core IR (DESIGN §3).
//!
//! Lowering is a static evaluation of the program. Every call of a
//! non-recursive function is inlined; that monomorphises polymorphic
//! functions and defunctionalises higher-order ones at once: a function
//! value is a closure known at compile time ([`value::SV::Fun`]) and only
//! survives as the lambda of a SOAC or of `jvp`/`vjp`. Tuples and records
//! are flattened into their components and arrays of tuples become tuples
//! of arrays. Size parameters are bound to dimensions of the values they
//! come from, with run-time checks where one size is read from several;
//! size parameters that no argument determines (`unflatten`, `split`) take
//! the sizes the type checker inferred from the context at that use, and
//! the arguments are then checked against the parameters' sizes.
//!
//! - [`exp`]: expressions; [`apply`]: calls, patterns and sizes;
//! - [`index`]: indexing, slices, updates, ranges, array literals;
//! - [`loops`]: `loop`, with [`attrs`]: the source's attributes on core
//!   statements; [`intrinsics`]: built-in functions and SOACs;
//! - [`sums`]: sum types (constructors, `match`, their representation);
//! - [`recursion`]: recursive functions, which become core functions;
//! - [`value`]: static values and the flattening of types.

pub mod apply;
pub mod attrs;
pub mod error;
pub mod exp;
pub mod index;
pub mod intrinsics;
pub mod loops;
pub mod recursion;
pub mod sums;
pub mod value;

pub use error::{ErrorKind, LowerError};

use error::R;
use parad_core::builder::Ctx;
use parad_core::{Builder, EntryPoint, EntryType, FunDef, Program, Symbol};
use parad_types::tast::{Dim, TExpKind, TFun, TPat, TProgram, Type};
use parad_types::Checked;
use value::{from_names, types_of, Env};

/// Lowers a static evaluation context over one typed program.
pub struct Lowerer<'p> {
    pub prog: &'p TProgram,
    /// Current inlining depth (to stop runaway expansion).
    depth: usize,
    /// The files of the prelude: code inlined from them gets the location
    /// of the user's call (see [`apply`]).
    prelude_files: rustc_hash::FxHashSet<parad_base::FileId>,
    /// Specialisations of recursive functions being built, innermost last.
    specs: Vec<recursion::Spec>,
    /// The type parameters of each specialisation.
    spec_envs: rustc_hash::FxHashMap<Symbol, Env<'p>>,
    /// Specialisations without function values, by function and types.
    shared_specs: Vec<(parad_types::tast::FunId, Vec<Type>, Symbol)>,
    spec_count: usize,
    /// The finished specialisations.
    extra_funs: Vec<FunDef>,
    /// Binding an entry point's parameters: a shape that does not match
    /// the declared one is an invalid argument (as Futhark says it).
    binding_entry_params: bool,
}

/// Lowers every entry point of a checked program.
pub fn lower(checked: &Checked) -> Result<Program, LowerError> {
    lower_typed(&checked.typed)
}

/// Lowers every entry point of `prog` (on a thread with a large stack:
/// inlining recurses as deeply as the program's calls nest).
pub fn lower_typed(prog: &TProgram) -> Result<Program, LowerError> {
    let (p, skipped) = on_big_stack(|| lower_on_this_thread(prog, false))?;
    debug_assert!(skipped.is_empty());
    Ok(p)
}

/// Like [`lower`], but an entry point that needs a feature lowering does
/// not support yet is left out (returned with its error) while the others
/// are kept; any other error fails the whole program.
pub fn lower_each(checked: &Checked) -> Result<(Program, Vec<(String, LowerError)>), LowerError> {
    on_big_stack(|| lower_on_this_thread(&checked.typed, true))
}

type Lowered = (Program, Vec<(String, LowerError)>);

fn on_big_stack(
    f: impl FnOnce() -> Result<Lowered, LowerError> + Send,
) -> Result<Lowered, LowerError> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, f)
            .expect("cannot start the lowering thread")
            .join()
            .unwrap_or_else(|_| {
                Err(LowerError::bug(
                    parad_base::Span::default(),
                    "lowering panicked",
                ))
            })
    })
}

fn lower_on_this_thread(prog: &TProgram, skip_unsupported: bool) -> Result<Lowered, LowerError> {
    let mut ctx = Ctx::default();
    let prelude_files = prog
        .funs
        .iter()
        .filter(|f| f.prelude)
        .map(|f| f.span.file)
        .collect();
    let mut lw = Lowerer {
        prog,
        depth: 0,
        prelude_files,
        specs: vec![],
        spec_envs: Default::default(),
        shared_specs: vec![],
        spec_count: 0,
        extra_funs: vec![],
        binding_entry_params: false,
    };
    let mut funs = vec![];
    let mut entries = vec![];
    let mut skipped = vec![];
    for f in prog.funs.iter().filter(|f| f.entry && !f.prelude) {
        match lw.entry(&mut ctx, f) {
            Ok((def, entry)) => {
                // A later definition of an entry point shadows an earlier
                // one, as for other top-level definitions.
                if let Some(k) = entries
                    .iter()
                    .position(|e: &EntryPoint| e.name == entry.name)
                {
                    entries.remove(k);
                    funs.remove(k);
                }
                funs.push(def);
                entries.push(entry);
            }
            Err(e) if skip_unsupported && e.kind == ErrorKind::Unsupported => {
                lw.depth = 0;
                skipped.push((f.name.clone(), e));
            }
            Err(e) => return Err(e),
        }
    }
    funs.append(&mut lw.extra_funs);
    let mut p = Program {
        funs,
        entries,
        names: ctx.names,
        frames: ctx.frames,
    };
    // The front end does not check uniqueness: copy where the source
    // uses an array after updating it in place.
    parad_core::consume::insert_copies(&mut p);
    Ok((p, skipped))
}

impl<'p> Lowerer<'p> {
    /// An entry point: a core function whose parameters and results are
    /// the leaves of the source parameters and result.
    fn entry(&mut self, ctx: &mut Ctx, f: &'p TFun) -> R<(FunDef, EntryPoint)> {
        let mut b = Builder::new(ctx);
        b.set_span(f.span);
        let mut env = Env::default();
        let mut params = vec![];
        let mut param_types = vec![];
        // The leaves of a parameter of type `t`, as a value.
        let mut external = |b: &mut Builder, t: &Type, span| -> R<value::SV<'p>> {
            let names: Vec<_> = types_of(t, 0, span)?
                .into_iter()
                .map(|ty| {
                    let q = b.param("arg", ty.clone());
                    let n = q.name;
                    param_types.push(EntryType::of_type(&ty, false));
                    params.push(q);
                    n
                })
                .collect();
            from_names(t, 0, &names, span)
        };
        let mut args = vec![];
        for p in &f.params {
            let v = external(&mut b, &p.ty(), p.span())?;
            args.push(v.clone());
            self.bind_pat(&mut b, &mut env, p, v)?;
        }
        self.bind_sizes(&mut b, &mut env, &f.size_sources, f.span)?;
        // Arguments whose types share a size (`pair xs ys` made the two
        // `[]` of `main (xs: []t) (ys: []t)` one size) must agree on it.
        let types: Vec<Type> = f.params.iter().map(|p| env.resolve(&p.ty())).collect();
        let mut uses: rustc_hash::FxHashMap<Dim, usize> = Default::default();
        for t in &types {
            t.each_dim(&mut |d| {
                if matches!(d, Dim::Var(_)) {
                    *uses.entry(d.clone()).or_default() += 1
                }
            });
        }
        self.binding_entry_params = true;
        let checked = f
            .params
            .iter()
            .zip(&args)
            .zip(&types)
            .try_for_each(|((p, v), t)| {
                let shared = t.map_dims(&|d| match uses.get(d) {
                    Some(&n) if n > 1 => d.clone(),
                    _ => Dim::Any,
                });
                let what = match p {
                    TPat::Var(v, ..) => format!("`{}`", self.var_name(*v)),
                    _ => "argument".to_string(),
                };
                self.check_shape(&mut b, &env, v, &shared, &what, p.span())
                    .map(drop)
            });
        self.binding_entry_params = false;
        checked?;
        // The body starts with the checks that the arguments have their
        // declared sizes (`let _ = x :> [n]t in …`, see the type checker's
        // `check_params`).
        let mut body = &f.body;
        while let TExpKind::Let {
            pat: TPat::Wildcard(..),
            rhs,
            body: rest,
            ..
        } = &body.kind
        {
            if !matches!(rhs.kind, TExpKind::Coerce(_)) {
                break;
            }
            self.binding_entry_params = true;
            let checked = self.exp(&mut b, &env, rhs);
            self.binding_entry_params = false;
            checked?;
            body = rest;
        }
        let mut v = self.exp(&mut b, &env, body)?;
        // An entry point defined as a function value (`def main = map f`)
        // takes that function's parameters.
        let mut ret = &f.ret;
        while let Type::Arrow(a, r) = ret {
            let arg = external(&mut b, a, f.span)?;
            v = self.apply(&mut b, v, vec![arg], f.span)?;
            ret = r;
        }
        let result = v.leaves(f.body.span)?;
        let ret = types_of(ret, 0, f.span)?;
        let body = b.into_body(result);
        let name = Symbol::intern(&format!("entry_{}", f.name));
        let entry = EntryPoint {
            name: f.name.clone(),
            fun: name,
            params: param_types.into_iter().map(|t| t.expect("leaf")).collect(),
            results: ret
                .iter()
                .map(|t| EntryType::of_type(t, false).expect("leaf"))
                .collect(),
        };
        Ok((
            FunDef {
                name,
                params,
                ret,
                body,
                span: f.span,
            },
            entry,
        ))
    }
}
