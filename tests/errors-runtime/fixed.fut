-- Programs that crashed the compiler before (found by fuzzing), now with
-- Futhark's meaning: `x[]` is `x`, `x with [] = v` is `v`, `copy` of a
-- scalar is itself, and a huge strip-mining factor is harmless. (Two
-- definitions of one name are an error:
-- tests/errors/duplicate_definition.fut; so is `copy` of a function, whose
-- type parameter is not lifted: tests/errors/lifted/copy_function.fut.)
-- ==
-- entry: empty_index
-- input { 7i32 } output { 7i32 }
-- entry: empty_update
-- input { 7i32 } output { 2i32 }
-- entry: copies
-- input { 7i32 1.5f64 } output { 8i32 1.5f64 }
-- entry: strip_huge
-- input { 1.5f64 3i64 } output { 5.0625f64 }

entry empty_index (x: i32) : i32 = x[]

entry empty_update (x: i32) : i32 = let y = x let y[] = 2 in y

entry copies (x: i32) (y: f64) : (i32, f64) = (copy (x + 1), copy y)

entry strip_huge (x: f64) (n: i64) : f64 =
  #[stripmine(2147483647)] loop y = x for _i < n do y * x
