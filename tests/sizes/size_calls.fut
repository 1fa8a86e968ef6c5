-- Size expressions may call functions, whose arguments have the types the
-- functions take (not `i64`).
-- ==
-- entry: shifted
-- input { 3u32 } output { 8i64 }
-- entry: summed
-- input { [1i64, 2i64, 3i64] } output { 6i64 }

def pow2 (k: u32) : [i64.u32 (1u32 << k)]i64 = iota (i64.u32 (1u32 << k))

entry shifted (k: u32) = length (pow2 k)

def total [n] (reps: [n]i64) : [reduce (+) 0 reps]i64 = iota (reduce (+) 0 reps)

entry summed (reps: []i64) = length (total reps)
