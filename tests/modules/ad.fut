-- Differentiating functions built by parametric modules: `vjp` and
-- `jvp` of a model made by applying a functor to `f64`, whose body
-- applies another functor. Exact gradients, `jvp`/`vjp` agreement and
-- finite differences.
-- ==
-- entry: grad
-- input { [1.0, 2.0, -3.0] [0.5, 1.0, 2.0] }
-- output { [1.0, 4.0, -12.0] }
-- entry: dir
-- input { [1.0, 2.0, -3.0] [0.5, 1.0, 2.0] [1.0, 0.0, 1.0] }
-- output { -11.0 }
-- entry: checks
-- input { [0.3, -1.2, 2.5, 0.7] [1.5, 0.25, -0.5, 2.0] [0.1, 0.2, -0.3, 0.4] }
-- output { true true }

module mk_ops (T: real) = {
  def weighted [n] (w: [n]T.t) (x: [n]T.t) : T.t =
    T.sum (map2 (\a b -> T.(a * a * b)) x w)
}

module mk_model (T: real) = {
  module ops = mk_ops T
  -- Σ wᵢ xᵢ²: its gradient is 2 wᵢ xᵢ.
  def loss [n] (w: [n]T.t) (x: [n]T.t) : T.t = ops.weighted w x
  -- A smooth one without a simple gradient: log Σ exp (wᵢ xᵢ) + Σ sin xᵢ.
  def smooth [n] (w: [n]T.t) (x: [n]T.t) : T.t =
    T.(log (sum (map2 (\a b -> exp (a * b)) w x)) + sum (map sin x))
}

module m = mk_model f64

entry grad [n] (x: [n]f64) (w: [n]f64) : [n]f64 = vjp (m.loss w) x 1.0

entry dir [n] (x: [n]f64) (w: [n]f64) (u: [n]f64) : f64 = jvp (m.loss w) x u

entry checks [n] (x: [n]f64) (w: [n]f64) (u: [n]f64) : (bool, bool) =
  let g = vjp (m.smooth w) x 1.0
  let d = jvp (m.smooth w) x u
  let agree = f64.abs (f64.sum (map2 (*) g u) - d) < 1e-12
  let h = 1e-6
  let fd = (m.smooth w (map2 (\a b -> a + h * b) x u) - m.smooth w (map2 (\a b -> a - h * b) x u)) / (2 * h)
  in (agree, f64.abs (fd - d) < 1e-7)
