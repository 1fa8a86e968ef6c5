-- | The mean squared error of a two-layer perceptron on a batch.
entry loss [n][d][h] (w1: [h][d]f64) (w2: [h]f64) (xs: [n][d]f64) (ys: [n]f64) : f64 =
  let pred x = f64.sum (map2 (\w v -> v * f64.tanh (f64.sum (map2 (*) w x))) w1 w2)
  in f64.sum (map2 (\x y -> (pred x - y) ** 2) xs ys) / f64.i64 n
