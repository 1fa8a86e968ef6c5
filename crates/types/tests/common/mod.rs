//! Helpers shared by the checker's tests.
#![allow(dead_code)]

use parad_types::print::type_to_string;
use parad_types::tast::Type;
use parad_types::{check_source, Checked};

pub fn check(src: &str) -> Checked {
    let (sources, r) = check_source("test.fut", src);
    match r {
        Ok(c) => c,
        Err(ds) => panic!("unexpected error: {}", ds[0].render(&sources)),
    }
}

/// The type of top-level function `name`, as `param -> … -> result`.
pub fn fun_type(src: &str, name: &str) -> String {
    let c = check(src);
    let f = c.typed.fun_by_name(name).expect("function exists");
    let t = Type::arrows(f.params.iter().map(|p| p.ty()).collect(), f.ret.clone());
    type_to_string(&t, &c.typed.type_params)
}

/// The first error as `line:col: message`.
pub fn error(src: &str) -> String {
    let (sources, r) = check_source("test.fut", src);
    match r {
        Ok(_) => panic!("expected an error"),
        Err(ds) => {
            let d = &ds[0];
            let loc = sources.location(d.span.expect("error has a location"));
            format!("{}:{}: {}", loc.line, loc.col, d.message)
        }
    }
}
