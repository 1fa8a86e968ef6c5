-- Only top-level functions may be recursive: a local function does not
-- see itself.
-- ==
-- error: Unknown name "loop_"

entry main (n: i64) : i64 =
  let loop_ (k: i64) : i64 = if k <= 0 then 0 else loop_ (k - 1)
  in loop_ n
