-- A package imported by its `futhark pkg` path, a file imported as a
-- module, and a module type used from the package.
-- ==
-- entry: cross_norm
-- input { 1.0f64 0.0f64 0.0f64 0.0f64 2.0f64 0.0f64 }
-- output { 0.0f64 0.0f64 2.0f64 2.0f64 }
-- entry: twice
-- input { 3.0f32 } output { 6.0f32 }

import "lib/github.com/parad-tests/vec3/vec3"

module v = mk_vec3 f64
module pkg = import "lib/github.com/parad-tests/vec3/vec3"
module w : pkg.vec3 with real = f32 = pkg.mk_vec3 f32

entry cross_norm (ax: f64) (ay: f64) (az: f64) (bx: f64) (by: f64) (bz: f64) =
  let c = v.cross {x = ax, y = ay, z = az} {x = bx, y = by, z = bz}
  in (c.x, c.y, c.z, v.norm c)

entry twice (k: f32) : f32 =
  let a : w.v = {x = k, y = 0, z = 0}
  in (w.(a + a)).x
