-- Nor can a consumed loop parameter's value alias a value returned for
-- an earlier one.
-- ==
-- error: Return value for consuming loop parameter "arr" aliases previously returned value

def main (n: i64) : ([]i64, [][]i64) =
  loop (row, arr) = (iota n, replicate n (iota n)) for i < n do
    let arr[i] = iota n
    in (arr[i], arr)
