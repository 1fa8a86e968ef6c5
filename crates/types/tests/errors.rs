//! Word-for-word error messages with their locations.

mod common;
use common::error;

#[test]
fn unknown_variable() {
    assert_eq!(
        error("def f (x: i32) = x + xs"),
        "1:22: Unknown name \"xs\""
    );
}

#[test]
fn unify_prim_types() {
    assert_eq!(
        error("def f (x: i32) (y: f32) = x + y"),
        "1:31: cannot unify 'i32' with 'f32'"
    );
}

#[test]
fn operator_on_bool() {
    assert_eq!(
        error("def f (b: bool) = b + b"),
        "1:19: cannot apply \"+\" to the operand at test.fut:1:19-20, of type 'bool'"
    );
}

#[test]
fn bitwise_on_float() {
    assert_eq!(
        error("def f (x: f32) = x & x"),
        "1:18: cannot apply \"&\" to the operand at test.fut:1:18-19, of type 'f32'"
    );
}

#[test]
fn not_on_float() {
    assert_eq!(
        error("def f (x: f64) = !x"),
        "1:19: cannot apply '!' to type 'f64'"
    );
}

#[test]
fn missing_record_field() {
    assert_eq!(
        error("def f (r: {x: i32, y: i32}) = r.z"),
        "1:31: record has no field 'z'"
    );
}

#[test]
fn missing_tuple_component() {
    assert_eq!(
        error("def f (t: (i32, i32)) =\n  t.2"),
        "2:3: tuple of type '(i32, i32)' has no component 2"
    );
}

#[test]
fn undefined_type() {
    assert_eq!(error("def f (x: foo) = x"), "1:11: Unknown type \"foo\".");
}

#[test]
fn if_branches_differ() {
    assert_eq!(
        error("def f (c: bool) = if c then 1i32 else true"),
        "1:39: Cannot unify the types of the branches of 'if': 'i32' and 'bool'"
    );
}

#[test]
fn if_condition_not_bool() {
    assert_eq!(
        error("def f (x: i32) = if x then 1 else 2"),
        "1:21: condition of 'if' must be of type 'bool', but has type 'i32'"
    );
}

#[test]
fn literal_out_of_range() {
    assert_eq!(
        error("def f : u8 = 300"),
        "1:14: literal 300 is out of bounds for its inferred type 'u8'"
    );
}

#[test]
fn too_many_arguments() {
    assert_eq!(
        error("def g (x: i32) = x\ndef f = g 1 2"),
        "2:13: \"g\" is applied to 2 arguments, but its type 'i32 -> i32' takes only 1 argument"
    );
}

#[test]
fn argument_mismatch() {
    assert_eq!(
        error("def g (x: i32) = x\ndef f = g true"),
        "2:11: Cannot apply \"g\" to \"true\" (invalid type): cannot unify 'i32' with 'bool'"
    );
}

#[test]
fn index_non_array() {
    assert_eq!(
        error("def f (x: i32) = x[0]"),
        "1:18: cannot index into a value of type 'i32'"
    );
}

#[test]
fn too_many_indices() {
    assert_eq!(
        error("def f (x: []i32) = x[0, 1]"),
        "1:20: cannot index a value of type '[]i32' with 2 indices"
    );
}

#[test]
fn float_index() {
    assert_eq!(
        error("def f (x: []i32) = x[1.5]"),
        "1:22: array index must be an integer, but has type 'f64'"
    );
}

#[test]
fn module_errors() {
    assert_eq!(
        error("module m = { def x = 1 }\ndef y = m.z"),
        "2:9: module 'm' has no member 'z'"
    );
    assert_eq!(
        error("module m : { val x : i32 } = { def x = 1f32 }"),
        "1:30: value 'm.x' is specified as 'val x: i32', but has type 'f32'"
    );
    assert_eq!(
        error("module m : { type t } = { def x = 1 }"),
        "1:25: module type requires a type 'm.t', which the module does not define"
    );
    assert_eq!(
        error("module type s = { type t = i32 }\nmodule type u = s with t = i64"),
        "2:24: Cannot refine a type: 't' is not an abstract type of the module type"
    );
    assert_eq!(
        error("def y = q.z"),
        "1:9: Unknown name 'q.z': there is no module or variable 'q' in scope"
    );
}

#[test]
fn sum_type_errors() {
    assert_eq!(
        error("def f (v: #a | #b) : #a | #c = v"),
        "1:32: Function body does not have expected type: cannot unify '#a | #c' with '#a | #b': Unshared constructors: #b, #c."
    );
    assert_eq!(
        error("type t = #a | #b\ndef f (x: t) : i32 =\n  match x case #a -> 1"),
        "3:3: Unmatched cases in match expression: #b"
    );
    assert_eq!(
        error("def f (x: i32) : i32 =\n  match x case 0 -> 1 case 1 -> 2"),
        "2:3: Unmatched cases in match expression: _"
    );
    assert_eq!(
        error("def f (x: i32) : i32 = let 0 = x in 1"),
        "1:28: Refutable pattern not allowed here: a literal pattern"
    );
    assert!(
        error("def f (x: #a i32 | #b) = match x case #a -> 1 case #b -> 2")
            .contains("differ in arity")
    );
    assert!(error("def f = match #a case #a -> 1 case #b -> 2").contains("Type is ambiguous"));
    assert!(error("def f = #a 1 < #a 2").contains("sum type"));
}

#[test]
fn unknown_size() {
    assert_eq!(error("def f (xs: [n]i32) = xs"), "1:13: Unknown size \"n\"");
}

#[test]
fn loop_body_type() {
    assert_eq!(
        error("def f = loop x = 0i32 for i < 10 do true"),
        "1:37: loop body has type 'bool', but the loop parameter has type 'i32'"
    );
}

#[test]
fn polymorphic_entry() {
    assert_eq!(
        error("entry f 'a (x: a) = x"),
        "1:7: Entry point functions may not be polymorphic, but 'f' is."
    );
}

#[test]
fn rigid_type_parameter() {
    assert_eq!(
        error("def f 'a (x: a) : i32 = x"),
        "1:25: Function body does not have expected type: cannot unify 'i32' with 'a'"
    );
}

#[test]
fn array_elements_differ() {
    assert_eq!(
        error("def f = [1i32, 2i64]"),
        "1:16: array element of type 'i64' differs from earlier elements of type 'i32'"
    );
}

#[test]
fn not_a_function() {
    assert_eq!(
        error("def f (x: i32) = x 1"),
        "1:20: Cannot apply \"x\" as function: it has type 'i32'"
    );
}

#[test]
fn literals_out_of_bounds() {
    // Unsuffixed literals must lie in their inferred type's range.
    for (src, msg) in [
        (
            "def f : i8 = 128",
            "1:14: literal 128 is out of bounds for its inferred type 'i8'",
        ),
        (
            "def f : u8 = -4",
            "1:14: literal -4 is out of bounds for its inferred type 'u8'",
        ),
        (
            "def f : f32 = 9.7e42",
            "1:15: literal 9.7e42 is out of bounds for its inferred type 'f32'",
        ),
        (
            "def f : f64 = 1.8e308",
            "1:15: literal is out of bounds for its inferred type 'f64'",
        ),
    ] {
        assert_eq!(error(src), msg, "{src}");
    }
}

#[test]
fn names_bound_twice() {
    for (src, msg) in [
        (
            "def f (x: i32) (x: i32) = x",
            "1:17: 'x' is also bound earlier in the same binding",
        ),
        (
            "def f [m] (m: [m]i64) = m",
            "1:12: 'm' is also bound earlier in the same binding",
        ),
        (
            "def f 'a 'a (x: a) = x",
            "1:11: 'a' is also bound earlier in the same binding",
        ),
        (
            "def f (x: i32) = let (y, y) = (x, x) in y",
            "1:26: 'y' is also bound earlier in the same binding",
        ),
        (
            "def f (x: []i32) = let [n] (n: [n]i32) = x in n",
            "1:29: 'n' is also bound earlier in the same binding",
        ),
        (
            "def f = \\(x: i32) (x: i32) -> x",
            "1:20: 'x' is also bound earlier in the same binding",
        ),
    ] {
        assert_eq!(error(src), msg, "{src}");
    }
}

#[test]
fn underscore_names_are_not_used() {
    assert_eq!(
        error("def f (_x: i32) : i32 = _x"),
        "1:25: '_x' may not be used: names beginning with an underscore are for bindings that are never used"
    );
}

#[test]
fn record_field_errors() {
    for (src, msg) in [
        ("type t = {x: i32, x: i32}", "1:19: Duplicate field 'x' in record type"),
        ("def f (x: i32) = {a = x, a = x}", "1:26: field 'a' was previously defined in this record"),
        ("def f (r: {x: i32}) = let {x = a, x = b} = r in a + b", "1:35: Duplicate fields in record pattern: 'x' appears twice"),
        (
            "def f (v: {a: i32, b: i32, c: i32}) : {a: i32, b: i32, d: i32} = v",
            "1:66: Function body does not have expected type: cannot unify '{a: i32, b: i32, d: i32}' with '{a: i32, b: i32, c: i32}': unshared fields: c, d.",
        ),
        (
            "def f (r: {f: i32}) = r with f = true",
            "1:34: value of type 'bool' given for record field \"f\" of type 'i32': cannot unify 'i32' with 'bool'",
        ),
        (
            "def k '^a (_: a) (y: a) = y\ndef f (x: i64) = (k (\\s -> s.x < 0) (\\s -> s.y > 0)) {x}",
            "2:54: Cannot apply function to \"{x}\" (invalid type): Cannot unify record type '{x: i64}' with a type that must have field 'y'",
        ),
        (
            "def k '^a (_: a) (y: a) = y\ndef f (x: i64) = (k (\\s -> s.x < 0) (\\s -> s > 0)) {x}",
            "2:37: Cannot apply \"k\" to \"(\\s -> s > 0)\" (invalid type): cannot unify 'i32' with type that must be a record (with field 'x')",
        ),
        (
            "def f = (.a)",
            "1:1: type is ambiguous: cannot infer the record or tuple type that has field 'a'; add a type annotation",
        ),
    ] {
        assert_eq!(error(src), msg, "{src}");
    }
}

#[test]
fn local_functions_are_not_generalised() {
    assert_eq!(
        error("def f (x: i32) (b: bool) = let g y = (y, y) in (g x, g b)"),
        "1:56: Cannot apply \"g\" to \"b\" (invalid type): cannot unify 'i32' with 'bool'"
    );
}
