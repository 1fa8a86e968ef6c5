-- Run-time errors through Futhark's C API and the server protocol: an
-- out-of-bounds index and a failing assertion. tests/clients/test_ffi.py
-- and test_server.py check that the error names its source location and
-- that the context (or server) keeps working afterwards.
-- ==
-- entry: get
-- input { [10i64, 20i64, 30i64] 1i64 } output { 20i64 }
-- input { [10i64, 20i64, 30i64] 3i64 } error: out of bounds
-- entry: checked_sqrt
-- input { 4.0f64 } output { 2.0f64 }
-- input { -1.0f64 } error: .

entry get (xs: []i64) (i: i64) : i64 = xs[i]

entry checked_sqrt (x: f64) : f64 = assert (x >= 0) (f64.sqrt x)

entry total (xs: []i64) : i64 = i64.sum xs
