-- The negative log-likelihood of data under a Gaussian mixture with
-- diagonal covariances, parametrised by unnormalised log-weights, means
-- and log standard deviations (the shape of the ADBench GMM objective,
-- without the prior term).
-- ==
-- entry: nll
-- input { [0.0f64, 0.0f64] [[0.0f64], [2.0f64]] [[0.0f64], [0.0f64]] [[0.0f64], [1.0f64], [2.5f64]] } output { 4.592594598117193f64 }
-- input { [1.0f64, -1.0f64] [[0.0f64, 1.0f64], [1.0f64, -1.0f64]] [[0.5f64, -0.5f64], [0.0f64, 0.25f64]] [[0.5f64, 0.5f64], [-1.0f64, 2.0f64]] } output { 5.787257371311801f64 }
-- entry: log_density
-- input { [[0.0f64, 0.0f64]] [[0.0f64, 0.0f64]] [1.0f64, -1.0f64] } output { [-2.8378770664093453f64] }

def logsumexp [n] (xs: [n]f64) : f64 =
  let m = f64.maximum xs
  in m + f64.log (f64.sum (map (\x -> f64.exp (x - m)) xs))

-- log N(x | mu, diag(exp(ls))^2)
def log_normal [d] (mu: [d]f64) (ls: [d]f64) (x: [d]f64) : f64 =
  let z = map3 (\m l v -> (v - m) / f64.exp l) mu ls x
  in -0.5 * f64.sum (map (\t -> t * t) z) - f64.sum ls - 0.5 * f64.i64 d * f64.log (2.0 * f64.pi)

entry nll [k] [d] [n] (alphas: [k]f64) (means: [k][d]f64) (log_sigmas: [k][d]f64) (xs: [n][d]f64) : f64 =
  let la = logsumexp alphas
  let per_point x = logsumexp (map3 (\a mu ls -> a + log_normal mu ls x) alphas means log_sigmas)
  in -(f64.sum (map per_point xs) - f64.i64 n * la)

entry log_density [k] [d] (means: [k][d]f64) (log_sigmas: [k][d]f64) (x: [d]f64) : [k]f64 =
  map2 (\mu ls -> log_normal mu ls x) means log_sigmas
