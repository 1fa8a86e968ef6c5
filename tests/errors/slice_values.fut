-- A slice out of bounds is reported with the slice's values and the
-- array's shape, as Futhark does; a slice is valid when every element it
-- takes is in bounds (`7:9:2` of 8 elements is one element); a zero
-- stride is an invalid slice, not a division by zero; `iota` of a
-- negative size is an invalid range.
-- ==
-- entry: slice
-- input { [1, 2, 3, 4, 5] 1i64 0i64 } error: ^Error: Index \[1:0\] out of bounds for array of shape \[5\]\.
-- input { empty([0]i32) 0i64 1i64 } error: Index \[0:1\] out of bounds for array of shape \[0\]
-- entry: strided
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 7i64 9i64 2i64 } output { [7] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 6i64 10i64 2i64 } error: Index \[6:10:2\] out of bounds for array of shape \[8\]
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 7i64 -2i64 -3i64 } output { [7, 4, 1] }
-- input { [0, 1, 2, 3, 4, 5, 6, 7] 0i64 3i64 0i64 } error: Index \[0:3:0\] out of bounds
-- entry: rows
-- input { [[1, 2, 3], [4, 5, 6]] 1i64 } error: Index \[0:2, 1:0\] out of bounds for array of shape \[2\]\[3\]\.
-- entry: range
-- input { -2i64 } error: Range 0\.\.1\.\.<-2 is invalid\.

entry slice (xs: []i32) (i: i64) (j: i64) = xs[i:j]

entry strided (xs: []i32) (i: i64) (j: i64) (s: i64) = xs[i:j:s]

entry rows (xss: [][]i32) (i: i64) = xss[0:2, i:0]

entry range (n: i64) = iota n
