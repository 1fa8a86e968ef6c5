-- Opaque values through Futhark's C API and the server protocol: a record
-- holding an array, tuples (as results, as inputs and inside a record), a
-- sum type with payloads of several types, an array of records, and the
-- consumption of a unique input. The clients' tests
-- (tests/clients/test_ffi.py, test_server.py) pass these values between
-- entry points, project their fields, store and restore them.
-- No scalar here is an i32: futhark-ffi keys its table of array types by
-- the C type of the result of every `futhark_new_*` function, and the
-- record and sum constructors return `int`, the C type of i32, so an i32
-- scalar argument would be taken for an array (as with Futhark itself).
-- ==
-- entry: kinetic
-- input { 2.0f64 [1.0f64, 2.0f64, 3.0f64] } output { 14.0f64 }
-- entry: shape_area
-- input { 3.0f64 4.0f64 } output { 12.0f64 }

type particle = {mass: f64, vel: [3]f64, tag: i64}

type shape = #circle f64 | #rect f64 f64 | #poly []f64 bool | #dot

type pair = {p: particle, extra: (i64, bool)}

def energy (p: particle) : f64 =
  0.5 * p.mass * f64.sum (map (\v -> v * v) p.vel)

entry kinetic (mass: f64) (vel: [3]f64) : f64 =
  energy {mass, vel, tag = 0}

entry mk_particle (mass: f64) (vel: [3]f64) (tag: i64) : particle =
  {mass, vel, tag}

entry particle_energy (p: particle) : f64 = energy p

-- A record whose array field is updated: the result is a new record.
entry accelerate (p: particle) (dv: [3]f64) : particle =
  p with vel = map2 (+) p.vel dv

-- A tuple result is one opaque value whose fields are "0" and "1".
entry unpack (p: particle) : (f64, [3]f64) = (p.mass, p.vel)

-- A tuple as an input.
entry tuple_sum (t: (f64, [3]f64)) : f64 = t.0 + f64.sum t.1

-- A record holding a record and a tuple.
entry mk_pair (p: particle) (n: i64) (flag: bool) : pair =
  {p, extra = (n, flag)}

entry pair_score (q: pair) : i64 =
  if q.extra.1 then q.p.tag + q.extra.0 else q.p.tag - q.extra.0

entry circle (r: f64) : shape = #circle r

entry shape_area (w: f64) (h: f64) : f64 =
  match (#rect w h : shape)
  case #rect a b -> a * b
  case _ -> 0

entry area (s: shape) : f64 =
  match s
  case #circle r -> 3.0 * r * r
  case #rect w h -> w * h
  case #poly xs closed -> if closed then f64.sum xs else 0
  case #dot -> -1

entry scale (k: f64) (s: shape) : shape =
  match s
  case #circle r -> #circle (k * r)
  case #rect w h -> #rect (k * w) (k * h)
  case #poly xs closed -> #poly (map (* k) xs) closed
  case #dot -> #dot

-- An array of records, and one of its elements.
entry particles (ms: []f64) : []particle =
  map (\m -> {mass = m, vel = [m, 0, 0], tag = i64.f64 m}) ms

entry total_energy (ps: []particle) : f64 = f64.sum (map energy ps)

-- Consumes its input (the output of `output`/`inputs` marks it with `*`).
#[noinline]
entry bump (xs: *[]f64) : *[]f64 = xs with [0] = xs[0] + 1
