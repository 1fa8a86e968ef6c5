-- The ADBench Gaussian Mixture Model objective (log-likelihood of n
-- points under K Gaussians with full covariances, plus a Wishart prior),
-- and its gradient by reverse-mode AD.
--
-- Parameters, as in ADBench's GMM files (see benchmarks/README.md):
--   alphas [K]       unnormalised log mixture weights
--   means  [K][d]    component means
--   icf    [K][m]    m = d(d+1)/2: the first d entries are log diagonal
--                    entries of the lower-triangular inverse-covariance
--                    factor Q_k, the remaining d(d-1)/2 its strictly lower
--                    entries in column-major order
--   x      [n][d]    the data points (constant)
--   gamma, wm        Wishart prior parameters
--
-- The datasets are made by `benchmarks/tools/adbench.py` into
-- benchmarks/data/ (git-ignored); `benchmarks/run.sh` does that first.
-- ==
-- entry: objective
-- input @ ../data/gmm_test.in output @ ../data/gmm_test.F
-- input @ ../data/gmm_d2_K10_1k.in output @ ../data/gmm_d2_K10_1k.F
-- input @ ../data/gmm_d10_K5_1k.in
-- entry: gradient
-- input @ ../data/gmm_test.in output @ ../data/gmm_test.J
-- input @ ../data/gmm_d2_K10_1k.in output @ ../data/gmm_d2_K10_1k.J
-- input @ ../data/gmm_d10_K5_1k.in
-- entry: gradient_fwd
-- input @ ../data/gmm_test.in output @ ../data/gmm_test.J
-- input @ ../data/gmm_d2_K10_1k.in output @ ../data/gmm_d2_K10_1k.J
-- entry: fd_check
-- input @ ../data/gmm_test.in output { true }
-- input @ ../data/gmm_d2_K10_1k.in output { true }
-- input @ ../data/gmm_d10_K5_1k.in output { true }

def logsumexp [n] (xs: [n]f64) : f64 =
  let mx = f64.maximum xs
  in mx + f64.log (f64.sum (map (\x -> f64.exp (x - mx)) xs))

-- Q from one row of icf: exp of the first d entries on the diagonal, the
-- rest below it, column by column.
def unpack_q [m] (d: i64) (icf: [m]f64) : [d][d]f64 =
  tabulate_2d d d (\r c ->
                     if r == c then f64.exp icf[r]
                     else if r > c then icf[d + c * d - c * (c + 1) / 2 + r - c - 1]
                     else 0)

def matvec [d] (a: [d][d]f64) (v: [d]f64) : [d]f64 =
  map (\row -> f64.sum (map2 (*) row v)) a

def sqnorm [d] (v: [d]f64) : f64 = f64.sum (map (\e -> e * e) v)

-- log of the Wishart normalising constant C (ADBench's definition).
def log_wishart_const (d: i64) (gamma: f64) (wm: i64) : f64 =
  let n' = d + wm + 1
  let lmgamma =
    0.25 * f64.i64 (d * (d - 1)) * f64.log f64.pi
    + f64.sum (map (\j -> f64.lgamma (0.5 * f64.i64 n' + 0.5 * f64.i64 (1 - j))) (1...d))
  in f64.i64 (n' * d) * (f64.log gamma - 0.5 * f64.log 2) - lmgamma

def log_wishart_prior [k] [d] [m] (qs: [k][d][d]f64) (sum_qs: [k]f64) (icf: [k][m]f64)
                                  (gamma: f64) (wm: i64) : f64 =
  let frob q = sqnorm (flatten q)
  let terms = map2 (\q s -> 0.5 * gamma * gamma * frob q - f64.i64 wm * s) qs sum_qs
  in f64.sum terms - f64.i64 k * log_wishart_const d gamma wm

def gmm_objective [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                                  (x: [n][d]f64) (gamma: f64) (wm: i64) : f64 =
  let qs = map (unpack_q d) icf
  let sum_qs = map (\row -> f64.sum row[0:d]) icf
  let point xi =
    logsumexp (map4 (\a s mu q -> a + s - 0.5 * sqnorm (matvec q (map2 (-) xi mu)))
                    alphas sum_qs means qs)
  let constant = -(f64.i64 (n * d) * 0.5 * f64.log (2 * f64.pi))
  in constant + f64.sum (map point x) - f64.i64 n * logsumexp alphas
     + log_wishart_prior qs sum_qs icf gamma wm

entry objective [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                                (x: [n][d]f64) (gamma: f64) (wm: i64) : f64 =
  gmm_objective alphas means icf x gamma wm

entry gradient [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                               (x: [n][d]f64) (gamma: f64) (wm: i64)
                               : ([k]f64, [k][d]f64, [k][m]f64) =
  vjp (\(a, mu, q) -> gmm_objective a mu q x gamma wm) (alphas, means, icf) 1

-- A pseudo-random direction in [-1, 1) from an element's index.
def dir (i: i64) : f64 =
  let h = (i * 2654435761 + 40503) % 1000003
  in f64.i64 h / 500001.5 - 1

-- Central finite difference of the objective along a pseudo-random
-- direction, against the directional derivative from the gradient.
entry fd_check [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                               (x: [n][d]f64) (gamma: f64) (wm: i64) : bool =
  let da = tabulate k dir
  let dmu = tabulate_2d k d (\i j -> dir (k + i * d + j))
  let dq = tabulate_2d k m (\i j -> dir (k + k * d + i * m + j))
  let f t = gmm_objective (map2 (\a v -> a + t * v) alphas da)
                          (map2 (map2 (\a v -> a + t * v)) means dmu)
                          (map2 (map2 (\a v -> a + t * v)) icf dq) x gamma wm
  let h = 1e-5
  let fd = (f h - f (-h)) / (2 * h)
  let (ga, gmu, gq) = gradient alphas means icf x gamma wm
  let dot2 a b = f64.sum (map2 (\u v -> f64.sum (map2 (*) u v)) a b)
  let ad = f64.sum (map2 (*) ga da) + dot2 gmu dmu + dot2 gq dq
  in f64.abs (fd - ad) <= 1e-6 * f64.max 1 (f64.abs ad)

-- The gradient by forward mode: one jvp per parameter (jmp over the unit
-- directions), so K(1 + d + d(d+1)/2) passes over the data.
entry gradient_fwd [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                                   (x: [n][d]f64) (gamma: f64) (wm: i64)
                                   : ([k]f64, [k][d]f64, [k][m]f64) =
  let p = k + k * d + k * m
  let unit j = ( tabulate k (\i -> f64.bool (i == j))
               , tabulate_2d k d (\i t -> f64.bool (k + i * d + t == j))
               , tabulate_2d k m (\i t -> f64.bool (k + k * d + i * m + t == j)) )
  let g = jmp (\(a, mu, q) -> gmm_objective a mu q x gamma wm) (alphas, means, icf)
              (map unit (iota p))
  in ( tabulate k (\i -> g[i])
     , tabulate_2d k d (\i t -> g[k + i * d + t])
     , tabulate_2d k m (\i t -> g[k + k * d + i * m + t]) )

-- Whether the reverse-mode gradient agrees with an expected one to
-- rtol * max(1, largest expected magnitude).
entry gradient_close [k] [d] [m] [n] (alphas: [k]f64) (means: [k][d]f64) (icf: [k][m]f64)
                                     (x: [n][d]f64) (gamma: f64) (wm: i64)
                                     (ea: [k]f64) (emu: [k][d]f64) (eq: [k][m]f64) (rtol: f64)
                                     : bool =
  let (ga, gmu, gq) = gradient alphas means icf x gamma wm
  let got = ga ++ flatten gmu ++ flatten gq
  let want = ea ++ flatten emu ++ flatten eq
  let scale = f64.max 1 (f64.maximum (map f64.abs want))
  in f64.maximum (map2 (\u v -> f64.abs (u - v)) got want) <= rtol * scale
