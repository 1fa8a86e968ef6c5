-- The new value of a consumed loop parameter must not alias what is bound
-- outside the loop.
-- ==
-- error: Return value for consuming loop parameter "arr" aliases "other".*consuming-loop-param-aliases

def main (n: i64) : i64 =
  let arr = iota n
  let other = iota n
  let arr = loop arr for i < n do
    let arr[i] = 0
    in other
  in arr[0]
