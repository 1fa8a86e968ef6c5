-- Softmax and log-sum-exp computed stably by subtracting the maximum,
-- so that large inputs do not overflow.
-- ==
-- entry: softmax
-- input { [1.0f64, 2.0f64, 3.0f64] } output { [0.09003057317038043f64, 0.24472847105479759f64, 0.6652409557748217f64] }
-- input { [1000.0f64, 1001.0f64] } output { [0.2689414213699995f64, 0.7310585786300168f64] }
-- input { [0.0f64] } output { [1.0f64] }
-- entry: lse
-- input { [1.0f64, 2.0f64, 3.0f64] } output { 3.4076059644443806f64 }
-- input { [1000.0f64, 1001.0f64] } output { 1001.3132616875182f64 }
-- input { [-5.0f64, -5.0f64, -5.0f64, -5.0f64] } output { -3.613705638880109f64 }
-- entry: log_softmax_rows
-- input { [[0.0f64, 0.0f64], [1.0f64, -1.0f64]] } output { [[-0.6931471805599453f64, -0.6931471805599453f64], [-0.1269280110429727f64, -2.1269280110429727f64]] }
-- entry: softmax_f32
-- input { [0.5f32, -0.5f32, 2.0f32] } output { [0.1709528f32, 0.062890016f32, 0.7661572f32] }

def logsumexp [n] (xs: [n]f64) : f64 =
  let m = f64.maximum xs
  in m + f64.log (f64.sum (map (\x -> f64.exp (x - m)) xs))

entry softmax [n] (xs: [n]f64) : [n]f64 =
  let l = logsumexp xs
  in map (\x -> f64.exp (x - l)) xs

entry lse (xs: []f64) : f64 = logsumexp xs

entry log_softmax_rows (m: [][]f64) : [][]f64 =
  map (\r -> let l = logsumexp r in map (\x -> x - l) r) m

entry softmax_f32 [n] (xs: [n]f32) : [n]f32 =
  let m = f32.maximum xs
  let es = map (\x -> f32.exp (x - m)) xs
  let s = f32.sum es
  in map (/ s) es
