-- Reverse AD of writes through an accumulator (scatter_stream): a written
-- value gets the adjoint of its cell, a cell that is written loses the
-- adjoint of the value it held, out-of-bounds writes change nothing.
-- ==
-- entry: writes
-- input { [5.0, 6.0, 7.0, 8.0] [2i64, 0i64, 9i64] [1.0, 4.0, 3.0] }
-- output { [0.0, 1.0, 0.0, 1.0] [2.0, 2.0, 0.0] }
-- entry: rows
-- input { [[1.0, 2.0], [3.0, 4.0]] [1i64, -1i64] [[1.0, 2.0], [3.0, 4.0]] }
-- output { [[1.0, 1.0], [0.0, 0.0]] [[3.0, 3.0], [0.0, 0.0]] }

-- out[is[i]] = 2 * ys[i] where in bounds; the gradient of the sum of out
entry writes [n] [m] (xs: [n]f64) (is: [m]i64) (ys: [m]f64) : ([n]f64, [m]f64) =
  vjp (\(xs, ys) ->
         intrinsics.scatter_stream (copy xs)
                                   (\c i -> intrinsics.acc_write c is[i] (2 * ys[i]))
                                   (iota m) :> [n]f64)
      (xs, ys) (replicate n 1)

-- whole rows written: row is[i] becomes 3 * ys[i]
entry rows [n] [m] [k] (xs: [n][k]f64) (is: [m]i64) (ys: [m][k]f64) : ([n][k]f64, [m][k]f64) =
  vjp (\(xs, ys) ->
         intrinsics.scatter_stream (copy xs)
                                   (\c i -> intrinsics.acc_write c is[i] (map (* 3) ys[i]))
                                   (iota m) :> [n][k]f64)
      (xs, ys) (replicate n (replicate k 1))
