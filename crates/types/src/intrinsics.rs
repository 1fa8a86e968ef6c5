//! The built-in functions known to the type checker. The prelude
//! (`prelude/*.fut`) builds every user-visible function on top of these,
//! and lowering implements each one. All intrinsics are curried functions;
//! an application may be partial.
//!
//! Array intrinsics (type parameters in brackets):
//!
//! | name             | type                                                   |
//! |------------------|--------------------------------------------------------|
//! | `__map [a b]`    | `(a -> b) -> []a -> []b`                               |
//! | `__reduce [a]`   | `(a -> a -> a) -> a -> []a -> a` (associative op)      |
//! | `__reduce_comm [a]` | as `__reduce`, operator also commutative            |
//! | `__scan [a]`     | `(a -> a -> a) -> a -> []a -> []a` (inclusive)         |
//! | `__hist [a]`     | `[]a -> (a -> a -> a) -> a -> []i64 -> []a -> []a` (reduce_by_index into a destination; out-of-range indices ignored) |
//! | `__scatter [a]`  | `[]a -> []i64 -> []a -> []a` (out-of-range ignored)    |
//! | `__iota`         | `i64 -> []i64`                                         |
//! | `__replicate [a]`| `i64 -> a -> []a`                                      |
//! | `__concat [a]`   | `[]a -> []a -> []a`                                    |
//! | `__transpose [a]`| `[][]a -> [][]a` (swaps the two outer dimensions)      |
//! | `__flatten [a]`  | `[][]a -> []a`                                         |
//! | `__unflatten [a]`| `i64 -> i64 -> []a -> [][]a` (n, m, array of n*m)      |
//! | `__zip [a b]`    | `[]a -> []b -> [](a, b)` (lengths must agree)          |
//! | `__unzip [a b]`  | `[](a, b) -> ([]a, []b)`                               |
//! | `__copy [a]`     | `a -> a` (a fresh, unshared copy)                      |
//! | `__jvp2 [a b]`   | `(a -> b) -> a -> a -> (b, b)` (primal, tangent)       |
//! | `__vjp2 [a b]`   | `(a -> b) -> a -> b -> (b, a)` (primal, cotangent)     |
//! | `__scatter_stream [a b]` | `[]a -> (acc([]a) -> b -> acc([]a)) -> []b -> []a` (the function writes through the accumulator, one call per element; later writes win) |
//! | `__hist_stream [a b]` | `[]a -> (a -> a -> a) -> a -> (acc([]a) -> b -> acc([]a)) -> []b -> []a` (as `__scatter_stream`, writes combined with the operator) |
//! | `__acc_write [a]` | `acc([]a) -> i64 -> a -> acc([]a)` (out-of-range ignored) |
//! | `__flatmap [a b c]` | `(a -> ([]b, c)) -> []a -> ([]i64, []bool, []i64, []b, []c)` (shapes, flags, offsets, data, values) |
//! | `__with_vjp [a b]` | `(a -> b) -> (b -> b -> a) -> a -> b` (custom adjoint: result, result's cotangent ↦ argument's cotangent) |
//!
//! Scalar intrinsics have one type parameter `t`, a primitive type
//! (`convert` has two: from, to). They are reached through operators
//! (`+` is `add`), negation (`neg`), `!` (`not`) and the numeric modules
//! (`f32.sqrt` is `sqrt [f32]`), never by name from source programs:
//!
//! - `t -> t -> t`, numeric: `add sub mul div mod pow min max`
//!   (`mod` is `%`: the result has the sign of the divisor for integers);
//!   integral: `quot` (`//`, truncating), `rem` (`%%`), `and or xor shl
//!   shr ushr mul_hi`; floating: `atan2 atan2pi hypot nextafter copysign`.
//! - `t -> t -> bool`: `lt le gt ge` (numeric), `eq neq` (any type
//!   without functions, compared structurally).
//! - `t -> t`: `neg abs sgn` (numeric), `not` (integral or bool), and the
//!   floating-point functions `recip sqrt rsqrt cbrt exp expm1 log log2
//!   log10 log1p sin cos tan sinpi cospi tanpi asin acos atan asinpi acospi
//!   atanpi sinh cosh tanh asinh acosh atanh gamma lgamma erf erfc ceil
//!   floor trunc round`.
//! - `t -> bool`: `isnan isinf` (floating).
//! - `t -> i32`: `popc clz ctz` (integral).
//! - `t -> t -> t -> t`: `fma mad lerp` (floating), `mad_hi` (integral).
//! - `ldexp: t -> i32 -> t`, `from_fraction: i64 -> i64 -> t` (floating).
//! - `get_bit: i32 -> t -> i32`, `set_bit: i32 -> t -> i32 -> t`.
//! - `to_bits: t -> uN`, `from_bits: uN -> t` (floating, N = t's width).
//! - `convert [f, t]: f -> t`: numeric conversion between any primitive
//!   types (bool converts to 0/1, numbers to bool by `!= 0`).

use crate::tast::{Type, TypeParamId};
use crate::unify::ClassSet;
use parad_base::{FloatType, IntType, PrimType};

/// What the checker needs to know about an intrinsic: the class of each
/// type parameter and the type at an instantiation.
pub(crate) struct Signature {
    pub name: &'static str,
    pub params: Vec<ClassSet>,
    pub build: fn(&[Type]) -> Type,
}

fn p(i: u32) -> Type {
    Type::Param(TypeParamId(i))
}

fn arr(t: Type, r: u32) -> Type {
    Type::array(t, r)
}

fn a(ts: &[Type]) -> Type {
    ts[0].clone()
}

fn b(ts: &[Type]) -> Type {
    ts[1].clone()
}

fn flat_index(t: &[Type], d: u32) -> Type {
    let mut ps = vec![arr(a(t), 1), Type::i64()];
    ps.extend((0..2 * d).map(|_| Type::i64()));
    f(&ps, arr(a(t), d))
}

fn flat_update(t: &[Type], d: u32) -> Type {
    let mut ps = vec![arr(a(t), 1), Type::i64()];
    ps.extend((0..d).map(|_| Type::i64()));
    ps.push(arr(a(t), d));
    f(&ps, arr(a(t), 1))
}

fn f(params: &[Type], ret: Type) -> Type {
    Type::arrows(params.to_vec(), ret)
}

const ARRAY_INTRINSICS: &[&str] = &[
    "__map",
    "__reduce",
    "__reduce_comm",
    "__scan",
    "__hist",
    "__scatter",
    "__iota",
    "__replicate",
    "__concat",
    "__transpose",
    "__flatten",
    "__unflatten",
    "__zip",
    "__unzip",
    "__copy",
    "__jvp2",
    "__vjp2",
    "__with_vjp",
    "__scatter_stream",
    "__hist_stream",
    "__acc_write",
    "__flatmap",
    "__flat_index_2d",
    "__flat_index_3d",
    "__flat_index_4d",
    "__flat_update_2d",
    "__flat_update_3d",
    "__flat_update_4d",
];

/// Looks up an array intrinsic by its source name (`__map`, …).
pub(crate) fn array_intrinsic(name: &str) -> Option<Signature> {
    let name: &'static str = ARRAY_INTRINSICS.iter().find(|n| **n == name)?;
    let any = ClassSet::ANY;
    let (params, build): (Vec<ClassSet>, fn(&[Type]) -> Type) = match name {
        "__map" => (vec![any, any], |t| {
            f(&[Type::arrow(a(t), b(t)), arr(a(t), 1)], arr(b(t), 1))
        }),
        "__reduce" | "__reduce_comm" => (vec![any], |t| f(&[op2(t), a(t), arr(a(t), 1)], a(t))),
        "__scan" => (vec![any], |t| {
            f(&[op2(t), a(t), arr(a(t), 1)], arr(a(t), 1))
        }),
        "__hist" => (vec![any], |t| {
            f(
                &[
                    arr(a(t), 1),
                    op2(t),
                    a(t),
                    arr(Type::i64(), 1),
                    arr(a(t), 1),
                ],
                arr(a(t), 1),
            )
        }),
        "__scatter" => (vec![any], |t| {
            f(
                &[arr(a(t), 1), arr(Type::i64(), 1), arr(a(t), 1)],
                arr(a(t), 1),
            )
        }),
        "__iota" => (vec![], |_| f(&[Type::i64()], arr(Type::i64(), 1))),
        "__replicate" => (vec![any], |t| f(&[Type::i64(), a(t)], arr(a(t), 1))),
        "__concat" => (vec![any], |t| {
            f(&[arr(a(t), 1), arr(a(t), 1)], arr(a(t), 1))
        }),
        "__transpose" => (vec![any], |t| f(&[arr(a(t), 2)], arr(a(t), 2))),
        "__flatten" => (vec![any], |t| f(&[arr(a(t), 2)], arr(a(t), 1))),
        "__unflatten" => (vec![any], |t| {
            f(&[Type::i64(), Type::i64(), arr(a(t), 1)], arr(a(t), 2))
        }),
        "__zip" => (vec![any, any], |t| {
            f(
                &[arr(a(t), 1), arr(b(t), 1)],
                arr(Type::Tuple(vec![a(t), b(t)]), 1),
            )
        }),
        "__unzip" => (vec![any, any], |t| {
            f(
                &[arr(Type::Tuple(vec![a(t), b(t)]), 1)],
                Type::Tuple(vec![arr(a(t), 1), arr(b(t), 1)]),
            )
        }),
        "__copy" => (vec![any], |t| f(&[a(t)], a(t))),
        "__jvp2" => (vec![any, any], |t| {
            f(
                &[Type::arrow(a(t), b(t)), a(t), a(t)],
                Type::Tuple(vec![b(t), b(t)]),
            )
        }),
        "__vjp2" => (vec![any, any], |t| {
            f(
                &[Type::arrow(a(t), b(t)), a(t), b(t)],
                Type::Tuple(vec![b(t), a(t)]),
            )
        }),
        "__with_vjp" => (vec![any, any], |t| {
            let adj = Type::arrow(b(t), Type::arrow(b(t), a(t)));
            f(&[Type::arrow(a(t), b(t)), adj, a(t)], b(t))
        }),
        "__scatter_stream" => (vec![any, any], |t| {
            f(&[arr(a(t), 1), acc_fn(t), arr(b(t), 1)], arr(a(t), 1))
        }),
        "__hist_stream" => (vec![any, any], |t| {
            f(
                &[arr(a(t), 1), op2(t), a(t), acc_fn(t), arr(b(t), 1)],
                arr(a(t), 1),
            )
        }),
        "__acc_write" => (vec![any], |t| {
            let acc = Type::Acc(Box::new(arr(a(t), 1)));
            f(&[acc.clone(), Type::i64(), a(t)], acc)
        }),
        "__flatmap" => (vec![any, any, any], |t| {
            let c = t[2].clone();
            let fun = Type::arrow(a(t), Type::Tuple(vec![arr(b(t), 1), c.clone()]));
            let i64s = arr(Type::i64(), 1);
            f(
                &[fun, arr(a(t), 1)],
                Type::Tuple(vec![
                    i64s.clone(),
                    arr(Type::bool(), 1),
                    i64s,
                    arr(b(t), 1),
                    arr(c, 1),
                ]),
            )
        }),
        // A d-dimensional view of a flat array: offset, then d (size,
        // stride) pairs; and the write of a d-dimensional array through
        // such a view (offset, d strides).
        "__flat_index_2d" => (vec![any], |t| flat_index(t, 2)),
        "__flat_index_3d" => (vec![any], |t| flat_index(t, 3)),
        "__flat_index_4d" => (vec![any], |t| flat_index(t, 4)),
        "__flat_update_2d" => (vec![any], |t| flat_update(t, 2)),
        "__flat_update_3d" => (vec![any], |t| flat_update(t, 3)),
        "__flat_update_4d" => (vec![any], |t| flat_update(t, 4)),
        _ => return None,
    };
    Some(Signature {
        name,
        params,
        build,
    })
}

/// `acc([]a) -> b -> acc([]a)`: the function of the stream intrinsics.
fn acc_fn(t: &[Type]) -> Type {
    let acc = Type::Acc(Box::new(arr(a(t), 1)));
    f(&[acc.clone(), b(t)], acc)
}

fn op2(t: &[Type]) -> Type {
    f(&[a(t), a(t)], a(t))
}

/// The generic signature of an array intrinsic, with type parameters
/// `Param(0)`, `Param(1)`, … (for documentation and tests).
pub fn array_intrinsic_type(name: &str) -> Option<Type> {
    let s = array_intrinsic(name)?;
    let ps: Vec<Type> = (0..s.params.len() as u32).map(p).collect();
    Some((s.build)(&ps))
}

/// All array intrinsic names.
pub fn array_intrinsic_names() -> &'static [&'static str] {
    ARRAY_INTRINSICS
}

const NUM_BINOPS: &[&str] = &["add", "sub", "mul", "div", "mod", "pow", "min", "max"];
const INT_BINOPS: &[&str] = &[
    "quot", "rem", "and", "or", "xor", "shl", "shr", "ushr", "mul_hi",
];
const FLOAT_BINOPS: &[&str] = &["atan2", "atan2pi", "hypot", "nextafter", "copysign"];
const CMP_OPS: &[&str] = &["lt", "le", "gt", "ge"];
const EQ_OPS: &[&str] = &["eq", "neq"];
const NUM_UNOPS: &[&str] = &["neg", "abs", "sgn"];
const FLOAT_UNOPS: &[&str] = &[
    "recip", "sqrt", "rsqrt", "cbrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin",
    "cos", "tan", "sinpi", "cospi", "tanpi", "asin", "acos", "atan", "asinpi", "acospi", "atanpi",
    "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "gamma", "lgamma", "erf", "erfc", "ceil",
    "floor", "trunc", "round",
];
const FLOAT_PREDS: &[&str] = &["isnan", "isinf"];
const INT_COUNTS: &[&str] = &["popc", "clz", "ctz"];
const FLOAT_TERNARY: &[&str] = &["fma", "mad", "lerp"];
const OTHER: &[&str] = &[
    "not",
    "mad_hi",
    "ldexp",
    "from_fraction",
    "get_bit",
    "set_bit",
    "to_bits",
    "from_bits",
];

fn find(list: &[&'static str], name: &str) -> Option<&'static str> {
    list.iter().find(|n| **n == name).copied()
}

/// The interned name and the class of the type parameter of a scalar
/// intrinsic.
pub(crate) fn scalar_intrinsic(name: &str) -> Option<(&'static str, ClassSet)> {
    let tables: [(&[&'static str], ClassSet); 10] = [
        (NUM_BINOPS, ClassSet::NUM),
        (INT_BINOPS, ClassSet::INT),
        (FLOAT_BINOPS, ClassSet::FLOAT),
        (CMP_OPS, ClassSet::NUM),
        (EQ_OPS, ClassSet::ANY),
        (NUM_UNOPS, ClassSet::NUM),
        (FLOAT_UNOPS, ClassSet::FLOAT),
        (FLOAT_PREDS, ClassSet::FLOAT),
        (INT_COUNTS, ClassSet::INT),
        (FLOAT_TERNARY, ClassSet::FLOAT),
    ];
    for (list, class) in tables {
        if let Some(n) = find(list, name) {
            return Some((n, class));
        }
    }
    let n = find(OTHER, name)?;
    let class = match n {
        "not" => ClassSet::INT_BOOL,
        "mad_hi" => ClassSet::INT,
        "get_bit" | "set_bit" => ClassSet::NUM,
        _ => ClassSet::FLOAT,
    };
    Some((n, class))
}

/// The type of scalar intrinsic `name` at type `t` (a primitive type, or
/// an inference variable of the right class). `to_bits`/`from_bits` need
/// a known float type.
pub(crate) fn scalar_intrinsic_type(name: &str, t: &Type) -> Option<Type> {
    let t = t.clone();
    let i32t = Type::i32();
    let ty =
        if NUM_BINOPS.contains(&name) || INT_BINOPS.contains(&name) || FLOAT_BINOPS.contains(&name)
        {
            f(&[t.clone(), t.clone()], t)
        } else if CMP_OPS.contains(&name) || EQ_OPS.contains(&name) {
            f(&[t.clone(), t], Type::bool())
        } else if NUM_UNOPS.contains(&name) || FLOAT_UNOPS.contains(&name) || name == "not" {
            f(&[t.clone()], t)
        } else if FLOAT_PREDS.contains(&name) {
            f(&[t], Type::bool())
        } else if INT_COUNTS.contains(&name) {
            f(&[t], i32t)
        } else if FLOAT_TERNARY.contains(&name) || name == "mad_hi" {
            f(&[t.clone(), t.clone(), t.clone()], t)
        } else {
            match name {
                "ldexp" => f(&[t.clone(), i32t], t),
                "from_fraction" => f(&[Type::i64(), Type::i64()], t),
                "get_bit" => f(&[i32t.clone(), t], i32t),
                "set_bit" => f(&[i32t.clone(), t.clone(), i32t], t),
                "to_bits" | "from_bits" => {
                    let Type::Prim(PrimType::Float(ft)) = t else {
                        return None;
                    };
                    let bits = Type::Prim(PrimType::Int(match ft {
                        FloatType::F16 => IntType::U16,
                        FloatType::F32 => IntType::U32,
                        FloatType::F64 => IntType::U64,
                    }));
                    if name == "to_bits" {
                        f(&[t], bits)
                    } else {
                        f(&[bits], t)
                    }
                }
                _ => return None,
            }
        };
    Some(ty)
}

/// `convert [from, to]`.
pub(crate) fn convert_type(from: PrimType, to: PrimType) -> Type {
    Type::arrow(Type::Prim(from), Type::Prim(to))
}
