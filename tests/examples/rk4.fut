-- A classical fourth-order Runge–Kutta integrator for a damped harmonic
-- oscillator x'' = -k x - c x', written as a first-order system in
-- (x, v), and for exponential decay of many independent initial values.
-- ==
-- entry: oscillator
-- input { 1.0f64 0.0f64 4.0f64 0.0f64 0.01f64 100i32 } output { -0.41614683410420183f64 -1.8185948557896736f64 }
-- input { 0.0f64 1.0f64 1.0f64 0.5f64 0.1f64 50i32 } output { -0.2934495465945336f64 0.11017336924078654f64 }
-- entry: decay
-- input { [1.0f64, 2.0f64, -0.5f64] 0.5f64 0.1f64 20i32 } output { [0.36787946114753967f64, 0.7357589222950793f64, -0.18393973057376983f64] }

def rk4_step (f: (f64, f64) -> (f64, f64)) (h: f64) (x: f64, v: f64) : (f64, f64) =
  let (k1x, k1v) = f (x, v)
  let (k2x, k2v) = f (x + h / 2.0 * k1x, v + h / 2.0 * k1v)
  let (k3x, k3v) = f (x + h / 2.0 * k2x, v + h / 2.0 * k2v)
  let (k4x, k4v) = f (x + h * k3x, v + h * k3v)
  in ( x + h / 6.0 * (k1x + 2.0 * k2x + 2.0 * k3x + k4x)
     , v + h / 6.0 * (k1v + 2.0 * k2v + 2.0 * k3v + k4v) )

entry oscillator (x0: f64) (v0: f64) (k: f64) (c: f64) (h: f64) (steps: i32) : (f64, f64) =
  let f (x: f64, v: f64) : (f64, f64) = (v, -k * x - c * v)
  in loop s = (x0, v0) for _i < steps do rk4_step f h s

entry decay [n] (ys: [n]f64) (a: f64) (h: f64) (steps: i32) : [n]f64 =
  let f (y: f64, t: f64) : (f64, f64) = (-a * y, 1.0)
  in map (\y0 -> (loop s = (y0, 0.0) for _i < steps do rk4_step f h s).0) ys
