-- Anonymous functions: several parameters, annotations, tuple results,
-- captured variables, tuple parameters.
-- ==
-- entry: multi
-- input { [1i32, 2i32, 3i32] [4i32, 5i32, 6i32] } output { [14i32, 25i32, 36i32] }
-- entry: annotated
-- input { [0.5f64, -2.0f64, 3.0f64] } output { [1.25f64, 5.0f64, 10.0f64] }
-- entry: tuple_ret
-- input { [7i32, -7i32, 8i32, 0i32] } output { [3i32, -4i32, 4i32, 0i32] [1i32, 1i32, 0i32, 0i32] }
-- entry: capture
-- input { 5i32 [1i32, 2i32, 3i32] } output { [55i32, 60i32, 65i32] }
-- input { -1i32 empty([0]i32) } output { empty([0]i32) }
-- entry: tuple_param
-- input { [10i32, 20i32] [1i32, 2i32] } output { [9i32, 18i32] }

entry multi [n] (xs: [n]i32) (ys: [n]i32) : []i32 =
  map2 (\x y -> x * 10 + y) xs ys

entry annotated (xs: []f64) : []f64 =
  map (\(x: f64) : f64 -> x * x + 1.0) xs

entry tuple_ret (xs: []i32) : ([]i32, []i32) =
  unzip (map (\x -> (x / 2, x % 2)) xs)

entry capture (k: i32) (xs: []i32) : []i32 =
  let f = \x -> x + k
  in map (\x -> f (f x) * k) xs

entry tuple_param [n] (xs: [n]i32) (ys: [n]i32) : []i32 =
  map (\(a, b) -> a - b) (zip xs ys)
