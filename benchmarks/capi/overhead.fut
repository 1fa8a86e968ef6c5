-- The per-call overhead of the C API: entry points that do next to
-- nothing, on 16 elements and on two scalars. `overhead.c` calls them
-- through a library (`parad c|multicore --library`); `parad bench` times
-- the same calls on the inputs below. See README.md.
-- ==
-- entry: add1
-- input { [0f32, 1f32, 2f32, 3f32, 4f32, 5f32, 6f32, 7f32,
--          8f32, 9f32, 10f32, 11f32, 12f32, 13f32, 14f32, 15f32] }
-- entry: scale
-- input { 1.5f64 4f64 }

entry add1 (xs: []f32) : []f32 = map (+ 1) xs

entry scale (a: f64) (b: f64) : f64 = a * b
