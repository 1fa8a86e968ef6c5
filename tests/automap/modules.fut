-- Implicit maps inside modules: a structure, a parametric module (checked
-- again at each application, at its argument's types) and `M.(e)`.
-- ==
-- entry: structure
-- input { [1.0, 4.0] } output { [2.0, 3.0] }
-- entry: functor64
-- input { [1.0, 2.0] 3.0 } output { [4.0, 5.0] }
-- entry: functor32
-- input { [1.0f32, 2.0f32] 3.0f32 } output { [4.0f32, 5.0f32] }
-- entry: opened
-- input { [0.0, 1.0] } output { [1.0, 1.718281828459045] }

module vec = {
  def sqrt_plus_one (xs: []f64) = f64.sqrt xs + 1
}

module shift (R: real) = {
  def by (xs: []R.t) (d: R.t) = R.(xs + d)
}

module s64 = shift f64
module s32 = shift f32

entry structure (xs: []f64) = vec.sqrt_plus_one xs
entry functor64 (xs: []f64) (d: f64) = s64.by xs d
entry functor32 (xs: []f32) (d: f32) = s32.by xs d
entry opened (xs: []f64) = f64.(exp xs - xs)
