-- The body makes the parameter square, which the initial value is not.
-- ==
-- error: Initial loop values do not have expected type.*Sizes "m" and "n" do not match

def main [n] [m] (x: [n][m]f32) =
  loop x for _i < 2 do map (\r -> map2 (*) r (x[0, :] :> [m]f32)) (transpose x)
