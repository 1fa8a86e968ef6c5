-- A module type's value specification says what is unique: a value that
-- consumes a parameter the specification does not cannot match it.
-- ==
-- error: value 'M.f' is specified as 'val f: \[1\]f32 -> bool', but has type '\*\[\]f32 -> bool': their uniqueness differs

module M : { val f : [1]f32 -> bool } = {
  def f (xs: *[1]f32) : bool = xs[0] > 0
}

def main (xs: [1]f32) : bool = M.f xs
