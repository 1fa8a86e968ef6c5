-- | Comments in various positions and attributes on definitions and
-- expressions; neither may change the result.
-- ==
-- input { [1i32, 2i32, 3i32] } output { 14i32 [2i32, 10i32, 30i32] }
-- input { [-2i32] } output { 4i32 [-10i32] }

-- | A documented function.
#[inline]
def sq (x: i32) : i32 = x * x -- trailing comment

-- A comment between definitions.
#[noinline]
def cube (x: i32) : i32 =
  -- a comment inside a body
  x * sq x

def main (xs: []i32) : (i32, []i32) =
  let s = #[sequential] reduce (+) 0 (map sq xs) -- sum of squares
  let ys =
    #[unsafe]
    map (\i -> xs[i] + cube xs[i]) (iota (length xs))
  in (s, ys)
