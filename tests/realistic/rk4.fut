-- Lotka–Volterra predator–prey dynamics integrated by classical RK4 in a
-- `loop`, differentiated w.r.t. the initial state (x0, y0) and the
-- parameters (alpha, beta, delta, gamma):
--   x' = alpha x - beta x y,   y' = delta x y - gamma y.
-- `jacobian_vjp` and `jacobian_jvp` build the 2x6 Jacobian of the final
-- state row by row (vjp) and column by column (jvp); `fit_grad` is the
-- gradient of a squared-error fit over the whole trajectory; `dot_check`
-- compares <ybar, J xdot> with <J^T ybar, xdot> in the program.
-- Expected values: tests/realistic/ref/rk4.py (complex-step derivatives).
-- ==
-- entry: final
-- input { [1.0f64, 0.5f64, 1.5f64, 1.0f64, 0.75f64, 1.0f64] 0.05f64 100i64 }
-- output { [0.5554183749065296f64, 0.6585493106097681f64] }
-- entry: jacobian_vjp
-- input { [1.0f64, 0.5f64, 1.5f64, 1.0f64, 0.75f64, 1.0f64] 0.05f64 100i64 }
-- output { [[0.6025513987284349f64, 1.0815541030891314f64, 0.21746168882898337f64, 0.5407770515445668f64, 0.06284403176254068f64, 1.422683028350827f64], [-0.29970812909634575f64, 0.6761073248104238f64, -0.39433958456411927f64, -0.32049564820455617f64, -0.399610838795128f64, -0.709393496555908f64]] }
-- entry: jacobian_jvp
-- input { [1.0f64, 0.5f64, 1.5f64, 1.0f64, 0.75f64, 1.0f64] 0.05f64 100i64 }
-- output { [[0.6025513987284349f64, -0.29970812909634575f64], [1.0815541030891314f64, 0.6761073248104238f64], [0.21746168882898337f64, -0.39433958456411927f64], [0.5407770515445668f64, -0.32049564820455617f64], [0.06284403176254068f64, -0.399610838795128f64], [1.422683028350827f64, -0.709393496555908f64]] }
-- entry: jacobian_vjp
-- "no steps" input { [2.0f64, 1.25f64, 0.5f64, 0.25f64, 0.125f64, 0.75f64] 0.1f64 0i64 }
-- output { [[1.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64], [0.0f64, 1.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64]] }
-- entry: fit_grad
-- "fit to 20 observations" input { [2.125f64, 1.0f64, 0.625f64, 0.25f64, 0.25f64, 0.5f64] 0.1f64 [[2.019f64, 1.199f64], [2.083f64, 1.112f64], [2.15f64, 1.078f64], [2.171f64, 1.048f64], [2.246f64, 0.97f64], [2.275f64, 0.945f64], [2.358f64, 0.874f64], [2.445f64, 0.854f64], [2.487f64, 0.837f64], [2.583f64, 0.772f64], [2.634f64, 0.76f64], [2.739f64, 0.7f64], [2.849f64, 0.691f64], [2.914f64, 0.685f64], [3.034f64, 0.63f64], [3.11f64, 0.627f64], [3.241f64, 0.576f64], [3.377f64, 0.576f64], [3.47f64, 0.578f64], [3.618f64, 0.531f64]] }
-- output { 10.740698957632036f64 [33.45392326715788f64, 0.04119281932354547f64, 88.1177961389229f64, -98.5969631043585f64, 65.77076449598415f64, -20.858029544240164f64] }
-- entry: fit_jvp
-- input { [2.125f64, 1.0f64, 0.625f64, 0.25f64, 0.25f64, 0.5f64] 0.1f64 [[2.019f64, 1.199f64], [2.083f64, 1.112f64], [2.15f64, 1.078f64], [2.171f64, 1.048f64], [2.246f64, 0.97f64], [2.275f64, 0.945f64], [2.358f64, 0.874f64], [2.445f64, 0.854f64], [2.487f64, 0.837f64], [2.583f64, 0.772f64], [2.634f64, 0.76f64], [2.739f64, 0.7f64], [2.849f64, 0.691f64], [2.914f64, 0.685f64], [3.034f64, 0.63f64], [3.11f64, 0.627f64], [3.241f64, 0.576f64], [3.377f64, 0.576f64], [3.47f64, 0.578f64], [3.618f64, 0.531f64]] [0.5f64, -1.0f64, 0.25f64, 2.0f64, -0.75f64, 1.5f64] }
-- output { -239.09382604807925f64 }
-- entry: dot_check
-- input { [1.0f64, 0.5f64, 1.5f64, 1.0f64, 0.75f64, 1.0f64] 0.05f64 100i64 [0.5f64, -1.0f64, 0.25f64, 2.0f64, -0.75f64, 1.5f64] [1.0f64, -2.0f64] }
-- output { true }

type state = (f64, f64)
type params = (f64, f64, f64, f64)

def lv ((alpha, beta, delta, gamma): params) ((x, y): state) : state =
  (alpha * x - beta * x * y, delta * x * y - gamma * y)

def axpy (a: f64) ((x, y): state) ((u, v): state) : state = (u + a * x, v + a * y)

def rk4_step (p: params) (h: f64) (s: state) : state =
  let k1 = lv p s
  let k2 = lv p (axpy (h / 2) k1 s)
  let k3 = lv p (axpy (h / 2) k2 s)
  let k4 = lv p (axpy h k3 s)
  let (x, y) = s
  in ( x + h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0)
     , y + h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1) )

def integrate (p: params) (h: f64) (steps: i64) (s0: state) : state =
  loop s = s0 for _i < steps do rk4_step p h s

-- The final state as a function of the six inputs.
def flow (h: f64) (steps: i64) (z: [6]f64) : [2]f64 =
  let (x, y) = integrate (z[2], z[3], z[4], z[5]) h steps (z[0], z[1])
  in [x, y]

entry final (z: [6]f64) (h: f64) (steps: i64) : [2]f64 = flow h steps z

entry jacobian_vjp (z: [6]f64) (h: f64) (steps: i64) : [2][6]f64 =
  map (\i -> vjp (flow h steps) z (tabulate 2 (\j -> f64.bool (i == j)))) (iota 2)

entry jacobian_jvp (z: [6]f64) (h: f64) (steps: i64) : [6][2]f64 =
  map (\i -> jvp (flow h steps) z (tabulate 6 (\j -> f64.bool (i == j)))) (iota 6)

-- Squared distance of the trajectory, sampled every step, from observed
-- states; the loop carries the state and the running sum.
def fit_loss [t] (h: f64) (obs: [t][2]f64) (z: [6]f64) : f64 =
  let p = (z[2], z[3], z[4], z[5])
  let (_, total) =
    loop (s, total) = ((z[0], z[1]), 0) for i < t do
      let s' = rk4_step p h s
      in (s', total + (s'.0 - obs[i][0]) ** 2 + (s'.1 - obs[i][1]) ** 2)
  in total

entry fit_grad [t] (z: [6]f64) (h: f64) (obs: [t][2]f64) : (f64, [6]f64) =
  vjp2 (fit_loss h obs) z 1

entry dot_check (z: [6]f64) (h: f64) (steps: i64) (xdot: [6]f64) (ybar: [2]f64) : bool =
  let jx = jvp (flow h steps) z xdot
  let jty = vjp (flow h steps) z ybar
  let lhs = f64.sum (map2 (*) ybar jx)
  let rhs = f64.sum (map2 (*) jty xdot)
  in f64.abs (lhs - rhs) <= 1e-12 * f64.max 1 (f64.abs lhs)

entry fit_jvp [t] (z: [6]f64) (h: f64) (obs: [t][2]f64) (v: [6]f64) : f64 =
  jvp (fit_loss h obs) z v
