-- A program for the library's tests (crates/cli/tests/library.rs).

type particle = {mass: f64, vel: [3]f64}
type shape = #circle f64 | #rect f64 f64

-- | Scales each row of a matrix by a vector's dot product with it.
entry rows [n][m] (w: [n][m]f64) (x: [m]f64) : [n]f64 =
  map (\r -> f64.sum (map2 (*) r x) * f64.sum r) w

entry stats (xs: []f64) (k: i64) : (f64, []f64, i64) =
  let s = f64.sum xs
  in (s * f64.i64 k, map (\x -> x * x + s) xs, length xs)

entry moments (xs: []f64) (k: i64) : (f64, []f64) =
  let s = f64.sum xs
  in (s * f64.i64 k, map (\x -> x * x + s) xs)

entry mk_particle (mass: f64) (vel: [3]f64) : particle = {mass, vel}
entry energy (p: particle) : f64 = 0.5 * p.mass * f64.sum (map (**2) p.vel)

entry circle (r: f64) : shape = #circle r
entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect a b -> a * b

entry get (xs: []i64) (i: i64) : i64 = xs[i]
entry checked_sqrt (x: f64) : f64 = assert (x >= 0) (f64.sqrt x)

entry id_i8 (x: i8) : i8 = x
entry id_i16 (x: []i16) : []i16 = x
entry id_i32 (x: [][]i32) : [][]i32 = x
entry id_u8 (x: u8) : u8 = x
entry id_u16 (x: []u16) : []u16 = x
entry id_u32 (x: u32) : u32 = x
entry id_u64 (x: [][][]u64) : [][][]u64 = x
entry id_f16 (x: []f16) : []f16 = x
entry id_f32 (x: f32) : f32 = x
entry id_bool (x: []bool) : []bool = x
entry transpose_i64 (x: [][]i64) : [][]i64 = transpose x
