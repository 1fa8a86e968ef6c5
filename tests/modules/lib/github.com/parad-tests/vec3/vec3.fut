-- | A small package of our own, laid out as `futhark pkg` installs
-- packages: three-dimensional vectors over any real number type.

module type vec3 = {
  type real
  type v = {x: real, y: real, z: real}
  val + : v -> v -> v
  val - : v -> v -> v
  val dot : v -> v -> real
  val scale : real -> v -> v
  val cross : v -> v -> v
  val norm : v -> real
}

module mk_vec3 (R: real) : vec3 with real = R.t = {
  type real = R.t
  type v = {x: real, y: real, z: real}
  def (a: v) + (b: v) : v = R.({x = a.x + b.x, y = a.y + b.y, z = a.z + b.z})
  def (a: v) - (b: v) : v = R.({x = a.x - b.x, y = a.y - b.y, z = a.z - b.z})
  def dot (a: v) (b: v) : real = R.(a.x * b.x + a.y * b.y + a.z * b.z)
  def scale (k: real) (a: v) : v = R.({x = k * a.x, y = k * a.y, z = k * a.z})
  def cross (a: v) (b: v) : v =
    R.({x = a.y * b.z - a.z * b.y, y = a.z * b.x - a.x * b.z, z = a.x * b.y - a.y * b.x})
  def norm (a: v) : real = R.sqrt (dot a a)
}
