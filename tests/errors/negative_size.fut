-- Negative sizes for iota and replicate, and invalid ranges, are
-- run-time errors.
-- ==
-- entry: neg_iota
-- input { 3i64 } output { [0i64, 1i64, 2i64] }
-- input { -1i64 } error: [Nn]egative|[Ii]nvalid|[Ss]ize|[Rr]ange
-- entry: neg_replicate
-- input { -2i64 } error: [Nn]egative|[Ii]nvalid|[Ss]ize
-- entry: bad_range
-- input { 1i64 4i64 } output { [1i64, 2i64, 3i64] }
-- input { 5i64 2i64 } error: Range 5\.\.<2 is invalid
-- entry: zero_stride
-- input { 3i64 } error: Range 3\.\.3\.\.\.[0-9]+ is invalid

entry neg_iota (n: i64) : []i64 = iota n

entry neg_replicate (n: i64) : []f32 = replicate n 1.0

entry bad_range (a: i64) (b: i64) : []i64 = a..<b

entry zero_stride (a: i64) : []i64 = a..a...10
