-- Elementary functions of the f32 module.
-- ==
-- entry: unary_f32
-- input { 0.5f32 } output { 0.70710677f32 1.6487212f32 -0.6931472f32 0.47942555f32 0.87758255f32 0.5463025f32 0.4636476f32 0.7937005f32 0.4054651f32 0.6487213f32 }
-- input { 2.0f32 } output { 1.4142135f32 7.389056f32 0.6931472f32 0.9092974f32 -0.41614684f32 -2.1850398f32 1.1071488f32 1.2599211f32 1.0986123f32 6.389056f32 }
-- input { 10.0f32 } output { 3.1622777f32 22026.465f32 2.3025851f32 -0.5440211f32 -0.8390715f32 0.64836085f32 1.4711276f32 2.1544347f32 2.3978953f32 22025.465f32 }
-- entry: unit_interval_f32
-- input { 0.25f32 } output { 0.25268024f32 1.3181161f32 0.25261232f32 1.0314131f32 0.24491866f32 0.2763264f32 0.7236736f32 }
-- input { 0.5f32 } output { 0.5235988f32 1.0471976f32 0.5210953f32 1.127626f32 0.46211717f32 0.5204999f32 0.47950011f32 }
-- input { -0.9f32 } output { -1.1197695f32 2.6905658f32 -1.0265167f32 1.4330864f32 -0.71629786f32 -0.7969082f32 1.7969083f32 }
-- entry: special_f32
-- input { 0.5f32 } output { 0.5723649f32 1.7724539f32 -1.0f32 -0.30103f32 }
-- input { 3.0f32 } output { 0.6931472f32 2.0f32 1.5849625f32 0.47712126f32 }
-- input { 4.5f32 } output { 2.4537365f32 11.631728f32 2.169925f32 0.6532125f32 }
-- entry: binary_f32
-- input { 1.0f32 2.0f32 } output { 0.4636476f32 2.236068f32 3.0f32 1.0f32 1.0f32 2.0f32 }
-- input { -3.0f32 4.0f32 } output { -0.6435011f32 5.0f32 -11.0f32 81.0f32 -3.0f32 4.0f32 }
-- input { 0.5f32 -1.5f32 } output { 2.819842f32 1.5811388f32 0.25f32 2.828427f32 -1.5f32 0.5f32 }

entry unary_f32 (x: f32) : (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) =
  ( f32.sqrt x, f32.exp x, f32.log x, f32.sin x, f32.cos x, f32.tan x
  , f32.atan x, f32.cbrt x, f32.log1p x, f32.expm1 x )

entry unit_interval_f32 (x: f32) : (f32, f32, f32, f32, f32, f32, f32) =
  (f32.asin x, f32.acos x, f32.sinh x, f32.cosh x, f32.tanh x, f32.erf x, f32.erfc x)

entry special_f32 (x: f32) : (f32, f32, f32, f32) =
  (f32.lgamma x, f32.gamma x, f32.log2 x, f32.log10 x)

entry binary_f32 (x: f32) (y: f32) : (f32, f32, f32, f32, f32, f32) =
  (f32.atan2 x y, f32.hypot x y, f32.fma x y 1.0, x ** y, f32.min x y, f32.max x y)
