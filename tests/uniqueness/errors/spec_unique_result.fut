-- Nor can a value whose result is not unique match a specification that
-- promises a unique one.
-- ==
-- error: is specified as 'val f: \[n\]i32 -> \*\[n\]i32', but has type

module M : { val f [n] : [n]i32 -> *[n]i32 } = {
  def f [n] (xs: [n]i32) : [n]i32 = xs
}

def main (xs: []i32) : []i32 = M.f xs
