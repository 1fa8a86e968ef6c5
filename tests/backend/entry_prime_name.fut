-- An entry point whose name has a prime gets a C function name without
-- it; both entry points stay callable.
-- ==
-- entry: step
-- input { 4i64 } output { 5i64 }

-- ==
-- entry: step'
-- input { 4i64 } output { 8i64 }

entry step (k: i64) : i64 = k + 1
entry step' (k: i64) : i64 = k * 2
