-- Tuning parameters: `#[param(NAME)] e` is `e` unless the user sets NAME
-- (`--param NAME=INT`, a tuning file, the C API). `parad test` reads
-- tuning_params.fut.tuning, which sets `width` and `scale`, not `offset`;
-- the interpreter has no tuning parameters (as Futhark's), so the cases
-- that depend on the file are `compiled` ones.

-- ==
-- entry: set_and_unset
-- compiled input { 2i64 } output { 10i64 7i64 }
entry set_and_unset (x: i64) : (i64, i64) =
  (#[param(width)] (x + 5), #[param(offset)] (x + 5))

-- Read inside a parallel map, and in a function the entry point calls.
-- ==
-- entry: in_map
-- compiled input { [1i64, 2i64, 3i64] } output { [11i64, 12i64, 13i64] }
def shift (y: i64) = (#[param(width)] 0) + y

entry in_map (ys: []i64) : []i64 = map shift ys

-- Only `i64` values are tuning parameters (as in Futhark); on other
-- types the attribute is ignored.
-- ==
-- entry: other_type
-- input { 2i32 } output { 4i32 }
-- compiled input { 2i32 } output { 4i32 }
entry other_type (x: i32) : i32 = #[param(width)] (x + 2)

-- Derivatives go through: the parameter is an integer, with no tangent.
-- ==
-- entry: scaled_grad
-- compiled input { 1.5f64 } output { 6.0f64 }
entry scaled_grad (x: f64) : f64 =
  vjp (\x -> f64.i64 (#[param(scale)] 1) * x * x) x 1.0
