-- Input values written without type suffixes (as data files often are):
-- a literal without a suffix is read at the type of the entry point's
-- parameter, for scalars and for the elements of arrays; a suffixed
-- element keeps its type. Unlike the other tests, the inputs here are
-- deliberately unsuffixed.
-- ==
-- entry: scalars
-- input { 49 2 -3 7 } output { 49i64 2f64 -3i8 7f32 }
-- input { 0x10 1.5 127 -0.25 } output { 16i64 1.5f64 127i8 -0.25f32 }
-- entry: arrays
-- input { [1, 2] [[1, -2], [3, 4.5]] [255, 0, 7] }
-- output { 3f32 6.5f64 262u32 }
-- input { [1f32, 2] [[0.5]] [1u8, 2] } output { 3f32 0.5f64 3u32 }

entry scalars (a: i64) (b: f64) (c: i8) (d: f32) : (i64, f64, i8, f32) = (a, b, c, d)

entry arrays (xs: []f32) (m: [][]f64) (bs: []u8) : (f32, f64, u32) =
  (f32.sum xs, f64.sum (flatten m), u32.sum (map u32.u8 bs))
