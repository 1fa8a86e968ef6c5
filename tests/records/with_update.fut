-- Functional record updates with `with`, including nested fields, and
-- the `let r.f = v` shorthand; the original record is unchanged.
-- ==
-- input { 1i32 2i32 } output { 1i32 101i32 202i32 true 1i32 2i32 }
-- input { 10i32 -5i32 } output { 10i32 110i32 220i32 true -6i32 -5i32 }

type inner = {p: i32, q: i32}
type outer = {name: i32, inner: inner, flag: bool}

def main (x: i32) (y: i32) : (i32, i32, i32, bool, i32, i32) =
  let r : outer = {name = x, inner = {p = y, q = 0}, flag = false}
  let r2 = r with name = x + 100
  let r3 = r2 with inner.q = r2.name * 2
  let r4 = r3 with flag = true
  let r4.inner.p = r4.inner.p - 1
  in (r.name, r2.name, r3.inner.q, r4.flag, r4.inner.p, r.inner.p)
