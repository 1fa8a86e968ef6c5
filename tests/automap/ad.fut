-- AD of functions that use implicit maps: the derivatives of the
-- elaborated program, checked against the derivatives by hand.

-- f(xs, c) = sum (xs * xs * c); df/dxs = 2 c xs, df/dc = sum (xs * xs).
def f (xs: []f64) (c: f64) = f64.sum (xs * xs * c)

-- ==
-- entry: grad
-- input { [1.0, 2.0, 3.0] 0.5 } output { [1.0, 2.0, 3.0] 14.0 }
entry grad (xs: []f64) (c: f64) = vjp (\(xs, c) -> f xs c) (xs, c) 1.0

-- The directional derivative along (dxs, dc) is
-- sum (2 c xs dxs) + dc sum (xs * xs).
-- ==
-- entry: dir
-- input { [1.0, 2.0, 3.0] 0.5 [1.0, 0.0, -1.0] 2.0 } output { 26.0 }
entry dir (xs: []f64) (c: f64) (dxs: []f64) (dc: f64) = jvp (\(xs, c) -> f xs c) (xs, c) (dxs, dc)

-- The seed itself is computed with an implicit map, and the function is a
-- lambda whose body maps `f64.sin` implicitly: d/dx sin x = cos x. (With
-- `ys` unannotated, mapping `vjp` over the elements would be as cheap:
-- ambiguous.)
-- ==
-- entry: sin_vjp
-- input { [0.0, 1.0] } output { [2.0, 1.0806046117362795] }
entry sin_vjp (xs: []f64) = vjp (\(ys: []f64) -> f64.sin ys) xs (xs * 0 + 2)

-- ==
-- entry: sin_jvp
-- input { [0.0, 1.0] } output { [1.0, 0.5403023058681398] }
entry sin_jvp (xs: []f64) = jvp (\(ys: []f64) -> f64.sin ys) xs (xs * 0 + 1)
