-- `#[unsafe] e` leaves out the assertions written inside `e` (Futhark's
-- compiler may do so); those of the functions it calls stay, and so do
-- bounds checks.
-- ==
-- entry: inside
-- input { 4 } output { 2 }
-- input { 3 } output { 1 }
-- entry: called
-- input { 3 } error: Assertion is false
-- entry: bounds
-- input { 5i64 } error: Index \[5\] out of bounds for array of shape \[3\]

entry inside (x: i32) = #[unsafe] assert (x % 2 == 0) (x / 2)

def half (x: i32) = assert (x % 2 == 0) (x / 2)

entry called (x: i32) = #[unsafe] half x

entry bounds (i: i64) = #[unsafe] [1, 2, 3][i]
