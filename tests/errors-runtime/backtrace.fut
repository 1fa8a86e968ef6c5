-- A run-time error in code inlined from function calls reports the calls,
-- innermost first, after its own location (Futhark's `Backtrace:`).

def get (xs: []i32) (i: i64) = xs[i]

def twice (xs: []i32) (i: i64) = get xs i + get xs (i + 1)

def sum_pairs (xs: []i32) = map (\i -> twice xs i) (indices xs)

-- ==
-- entry: nested
-- input { [1i32, 2i32] }
-- error: (?-s)Backtrace:\n-> #0 +\S*backtrace.fut:4:32-36\n +#1 +\S*backtrace.fut:6:45-58\n +#2 +\S*backtrace.fut:8:40-49\n +#3 +\S*backtrace.fut:16:28-39\n
-- input { [1i32] }
-- error: Index \[1\] out of bounds.*Backtrace:.*-> #0 +\S*backtrace.fut:4:32-36\n +#1 +\S*backtrace.fut:6:45-58\n
entry nested (xs: []i32) = sum_pairs xs

-- Through a local function and a function passed to a SOAC of the prelude.
-- ==
-- entry: through_local
-- input { 0i64 } error: Assertion is false.*Backtrace:.*#0 +\S*backtrace.fut:23:24-39.*#1 +\S*backtrace.fut:24:6-29
entry through_local (n: i64) =
  let check (k: i64) = assert (k > 0) k
  in map check (iota (n + 1))
