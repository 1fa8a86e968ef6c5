//! Source attributes on core statements. The attributes the source gives
//! a loop (`#[unroll]`, `#[sequential]`, …) go on the statement that binds
//! the loop's results, so that later passes (and `parad dump`) see them
//! where Futhark would. `#[stripmine(k)]` is lowering's own: it is carried
//! out here ([`crate::loops`]) and not passed on, since a core loop marked
//! with it would be an instruction to strip-mine what already is.

use parad_core::Attr;
use parad_types::tast::Attr as SAttr;

/// The core form of the attributes in `attrs` that lowering passes on.
pub fn passed_on(attrs: &[SAttr]) -> Vec<Attr> {
    attrs
        .iter()
        .filter(|a| !is_stripmine(a))
        .map(core_attr)
        .collect()
}

fn is_stripmine(a: &SAttr) -> bool {
    matches!(a, SAttr::Atom(n, _) | SAttr::Comp(n, _, _) if n == "stripmine")
}

fn core_attr(a: &SAttr) -> Attr {
    match a {
        SAttr::Atom(n, _) => Attr::Name(n.clone()),
        SAttr::Int(i, _) => Attr::Int(*i),
        SAttr::Comp(n, args, _) => Attr::Call(n.clone(), args.iter().map(core_attr).collect()),
    }
}
