-- The Lorenz-96 system integrated by classical RK4, differentiated through
-- the time loop, with and without strip-mining. The state x has d
-- variables on a ring (indices mod d):
--   dx_i/dt = (x_{i+1} - x_{i-2}) x_{i-1} - x_i + F,
-- T steps of size dt from x0; the loss is L(x0) = 1/2 |x_T|^2.
--   primal:              L(x0)
--   gradient:            dL/dx0 by vjp through the plain loop
--   gradient_stripmined: the same, the loop marked #[stripmine(2)]
-- Reverse AD keeps what the backward sweep needs of every step (at least
-- the d-vector state), so the plain gradient holds O(T d) values; the
-- strip-mined loop is two nested loops of about sqrt(T) steps whose outer
-- level alone is kept, the inner steps being recomputed strip by strip
-- during the backward sweep: O(sqrt(T) d) values, for one more forward
-- pass. Both compute the same numbers.
--
-- Inputs: x0 [d]f64, F f64, dt f64, T i64 (prepare.py: the timed input
-- starts near the equilibrium x = F with F = 4, and T dt = 4, a horizon
-- short enough for the derivative to stay well conditioned).
--
-- Tests: a reference value of the loss (computed independently in f64,
-- with a step-by-step RK4 over plain lists), exact values at T = 0 and
-- at the equilibrium, and `check`, which compares the two gradients
-- with each other, with a three-level strip-mining, with jvp (dot
-- product test) and with a central difference.
-- ==
-- entry: primal
-- input { [1.0, 2.0, -0.5, 0.25, 3.0] 8.0 0.01 100i64 }
-- output { 42.14681687107592 }
-- input { [1.0, 2.0, -0.5, 0.25, 3.0] 8.0 0.01 0i64 }
-- output { 7.15625 }
-- input { [8.0, 8.0, 8.0, 8.0, 8.0] 8.0 0.01 50i64 }
-- output { 160.0 }
-- entry: gradient gradient_stripmined
-- input { [1.0, 2.0, -0.5, 0.25, 3.0] 8.0 0.01 0i64 }
-- output { [1.0, 2.0, -0.5, 0.25, 3.0] }
-- entry: check
-- input { [1.0, 2.0, -0.5, 0.25, 3.0] 8.0 0.01 100i64 } output { true }
-- input { [1.0, 2.0, -0.5, 0.25, 3.0] 8.0 0.01 1i64 } output { true }
-- input @ tests/small.in output { true }

def l96 [d] (f: f64) (x: [d]f64) : [d]f64 =
  map4 (\xp xm2 xm1 xi -> (xp - xm2) * xm1 - xi + f)
       (rotate 1 x) (rotate (-2) x) (rotate (-1) x) x

def axpy [d] (a: f64) (k: [d]f64) (x: [d]f64) : [d]f64 = map2 (\ki xi -> xi + a * ki) k x

def rk4_step [d] (f: f64) (dt: f64) (x: [d]f64) : [d]f64 =
  let k1 = l96 f x
  let k2 = l96 f (axpy (dt / 2) k1 x)
  let k3 = l96 f (axpy (dt / 2) k2 x)
  let k4 = l96 f (axpy dt k3 x)
  in map5 (\xi a b c e -> xi + dt / 6 * (a + 2 * b + 2 * c + e)) x k1 k2 k3 k4

def half_sq [d] (x: [d]f64) : f64 = 0.5 * f64.sum (map (\v -> v * v) x)

def loss [d] (f: f64) (dt: f64) (t: i64) (x0: [d]f64) : f64 =
  half_sq (loop x = x0 for _i < t do rk4_step f dt x)

def loss_strip2 [d] (f: f64) (dt: f64) (t: i64) (x0: [d]f64) : f64 =
  half_sq (#[stripmine(2)] loop x = x0 for _i < t do rk4_step f dt x)

def loss_strip3 [d] (f: f64) (dt: f64) (t: i64) (x0: [d]f64) : f64 =
  half_sq (#[stripmine(3)] loop x = x0 for _i < t do rk4_step f dt x)

entry primal [d] (x0: [d]f64) (f: f64) (dt: f64) (t: i64) : f64 = loss f dt t x0

entry gradient [d] (x0: [d]f64) (f: f64) (dt: f64) (t: i64) : [d]f64 =
  vjp (loss f dt t) x0 1

entry gradient_stripmined [d] (x0: [d]f64) (f: f64) (dt: f64) (t: i64) : [d]f64 =
  vjp (loss_strip2 f dt t) x0 1

entry check [d] (x0: [d]f64) (f: f64) (dt: f64) (t: i64) : bool =
  let g = gradient x0 f dt t
  let close tol a b = f64.abs (a - b) <= tol * f64.max 1 (f64.abs b)
  let same a b = and (map2 (close 1e-12) a b)
  let v = tabulate d (\i -> f64.sin (f64.i64 i * 1.3 + 0.4))
  let along h = loss f dt t (axpy h v x0)
  let fd = (along 1e-6 - along (-1e-6)) / 2e-6
  let gv = f64.sum (map2 (*) g v)
  in same (gradient_stripmined x0 f dt t) g
     && same (vjp (loss_strip3 f dt t) x0 1) g
     && close 1e-10 (jvp (loss f dt t) x0 v) gv
     && close 1e-6 fd gv
