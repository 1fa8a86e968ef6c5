-- An in-place update of a slice out of bounds is a run-time error; a test
-- may match the word Futhark starts such a message with ("Error").
-- ==
-- input { [1i32, 2i32, 3i32] [8i32, 9i32] 1i64 } output { [1i32, 8i32, 9i32] }
-- input { [1i32, 2i32, 3i32] [8i32, 9i32] 2i64 } error: Error
-- input { [1i32, 2i32, 3i32] [8i32, 9i32] -1i64 } error: ^Error: .*out of bounds

def main [n] [m] (xs: *[n]i32) (ys: [m]i32) (i: i64) : []i32 =
  let xs[i:i + m] = ys
  in xs
