-- Programs for the Python package's tests (python/tests).

-- | A two-layer perceptron's squared loss on one batch.
entry loss [n][d][h] (w1: [h][d]f64) (w2: [h]f64) (xs: [n][d]f64) (ys: [n]f64) : f64 =
  let pred x = f64.sum (map2 (\w v -> v * f64.tanh (f64.sum (map2 (*) w x))) w1 w2)
  in f64.sum (map2 (\x y -> (pred x - y) ** 2) xs ys) / f64.i64 n

-- | Element-wise: a tuple of results, and a parameter held fixed.
entry poly (xs: []f64) (k: i64) (c: f64) : ([]f64, f64) =
  let ys = map (\x -> c * x ** f64.i64 k + f64.sin x) xs
  in (ys, f64.sum ys * c)

entry scale32 (xs: []f32) (a: f32) : []f32 = map (* a) xs

entry matvec [n][m] (a: [n][m]f64) (x: [m]f64) : [n]f64 =
  map (\r -> f64.sum (map2 (*) r x)) a

type particle = {mass: f64, vel: [3]f64}
type shape = #circle f64 | #square f64

entry mk_particle (mass: f64) (vel: [3]f64) : particle = {mass, vel}
entry energy (p: particle) : f64 = 0.5 * p.mass * f64.sum (map (** 2) p.vel)
entry square (s: f64) : shape = #square s
entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #square a -> a * a

entry get (xs: []i64) (i: i64) : i64 = xs[i]
entry counts (xs: []u8) (flags: []bool) : (i32, u64) =
  (i32.sum (map2 (\x f -> if f then i32.u8 x else 0) xs flags), u64.sum (map u64.u8 xs))
entry halves (xs: []f16) : []f16 = map (/ 2) xs

-- | Long enough to see that calls release the GIL.
entry spin (n: i64) : f64 =
  loop acc = 0f64 for i < n do acc + f64.sin (f64.i64 i)

entry count_pos (xs: []f64) : i64 = i64.sum (map (\x -> i64.bool (x > 0)) xs)
