-- The ADBench Gaussian Mixture Model objective and its gradient by vjp and
-- by jvp (jmp), on ADBench's unit-test instance and a second small one,
-- plus a central finite-difference check. The code after the test block is
-- benchmarks/gmm/gmm.fut's, copied by tests/realistic/ref/update.py.
-- Expected values: tests/realistic/ref/gmm.py (complex-step derivatives,
-- checked there against ADBench's published values).
-- ==
-- entry: objective
-- "ADBench test" input { [-0.649014f64, 1.181166f64, -0.758453f64] [[0.092339f64, 0.18626f64], [0.345561f64, 0.396767f64], [0.538817f64, 0.419195f64]] [[0.586443f64, -0.851887f64, 0.800321f64], [-1.509405f64, 0.875874f64, -0.24279f64], [0.166813f64, -1.965419f64, -1.270071f64]] [[1.175171f64, 2.02916f64]] 1.0f64 0i64 }
-- output { 8.073804080049724f64 }
-- entry: objective
-- "d=3 K=2 n=6 gamma=0.75 m=2" input { [-0.008f64, 0.773f64] [[-1.532f64, 0.81f64, 0.75f64], [0.822f64, 1.238f64, 1.818f64]] [[-0.455f64, -0.088f64, -0.0225f64, -0.283f64, -0.106f64, 0.3855f64], [-0.4035f64, -0.1615f64, 0.234f64, 0.4315f64, 0.321f64, -0.23f64]] [[1.9f64, -0.272f64, 1.056f64], [0.404f64, -0.918f64, 1.628f64], [0.722f64, 0.508f64, -0.062f64], [1.958f64, 0.74f64, 0.578f64], [0.47f64, -0.414f64, -0.97f64], [1.306f64, -1.63f64, 1.178f64]] 0.75f64 2i64 }
-- output { -2.9437085550402884f64 }
-- entry: gradient gradient_fwd
-- "ADBench test" input { [-0.649014f64, 1.181166f64, -0.758453f64] [[0.092339f64, 0.18626f64], [0.345561f64, 0.396767f64], [0.538817f64, 0.419195f64]] [[0.586443f64, -0.851887f64, 0.800321f64], [-1.509405f64, 0.875874f64, -0.24279f64], [0.166813f64, -1.965419f64, -1.270071f64]] [[1.175171f64, 2.02916f64]] 1.0f64 0i64 }
-- output { [0.10866285550865244f64, -0.7412700395238985f64, 0.6326071840152462f64] [[1.11692576532787f64, 0.16333301355145527f64], [-0.021998982407119318f64, 0.2277782922542361f64], [1.2096302561283219f64, -0.06063759207339564f64]] [[2.5852999405116224f64, 0.11263269452421376f64, 0.38574430984961183f64], [0.07351805731823055f64, 5.418363627155952f64, -0.3214944096774465f64], [1.7189230977500496f64, 0.8600910907908668f64, -0.9946409304663228f64]] }
-- entry: gradient gradient_fwd
-- "d=3 K=2 n=6 gamma=0.75 m=2" input { [-0.008f64, 0.773f64] [[-1.532f64, 0.81f64, 0.75f64], [0.822f64, 1.238f64, 1.818f64]] [[-0.455f64, -0.088f64, -0.0225f64, -0.283f64, -0.106f64, 0.3855f64], [-0.4035f64, -0.1615f64, 0.234f64, 0.4315f64, 0.321f64, -0.23f64]] [[1.9f64, -0.272f64, 1.056f64], [0.404f64, -0.918f64, 1.628f64], [0.722f64, 0.508f64, -0.062f64], [1.958f64, 0.74f64, 0.578f64], [0.47f64, -0.414f64, -0.97f64], [1.306f64, -1.63f64, 1.178f64]] 0.75f64 2i64 }
-- output { [-0.6845799930766475f64, 0.6845799930766481f64] [[1.7382199885948355f64, -2.365380550869307f64, -1.9235153733529766f64], [-2.7454902384824607f64, -3.9978965301265346f64, -4.76129184952263f64]] [[-2.8247830470549378f64, -2.08358371272453f64, -3.104165263691671f64, 3.5249452260067207f64, 4.036045322441699f64, -1.745487582774452f64], [1.7856027571712243f64, -7.535197909654474f64, -5.677509029324781f64, 1.1340095606425635f64, 1.1351601580602924f64, -3.8151496791791875f64]] }
-- entry: gradient_close
-- "ADBench test, to 1e-13" input { [-0.649014f64, 1.181166f64, -0.758453f64] [[0.092339f64, 0.18626f64], [0.345561f64, 0.396767f64], [0.538817f64, 0.419195f64]] [[0.586443f64, -0.851887f64, 0.800321f64], [-1.509405f64, 0.875874f64, -0.24279f64], [0.166813f64, -1.965419f64, -1.270071f64]] [[1.175171f64, 2.02916f64]] 1.0f64 0i64 [0.10866285550865246f64, -0.7412700395238985f64, 0.6326071840152461f64] [[1.1169257653278701f64, 0.16333301355145527f64], [-0.021998982407119314f64, 0.2277782922542361f64], [1.2096302561283219f64, -0.060637592073395634f64]] [[2.5852999405116224f64, 0.11263269452421379f64, 0.3857443098496118f64], [0.07351805731823055f64, 5.418363627155952f64, -0.32149440967744647f64], [1.7189230977500494f64, 0.8600910907908669f64, -0.9946409304663228f64]] 1e-13f64 }
-- output { true }
-- entry: fd_check
-- "ADBench test" input { [-0.649014f64, 1.181166f64, -0.758453f64] [[0.092339f64, 0.18626f64], [0.345561f64, 0.396767f64], [0.538817f64, 0.419195f64]] [[0.586443f64, -0.851887f64, 0.800321f64], [-1.509405f64, 0.875874f64, -0.24279f64], [0.166813f64, -1.965419f64, -1.270071f64]] [[1.175171f64, 2.02916f64]] 1.0f64 0i64 }
-- output { true }
-- entry: fd_check
-- "d=3 K=2 n=6 gamma=0.75 m=2" input { [-0.008f64, 0.773f64] [[-1.532f64, 0.81f64, 0.75f64], [0.822f64, 1.238f64, 1.818f64]] [[-0.455f64, -0.088f64, -0.0225f64, -0.283f64, -0.106f64, 0.3855f64], [-0.4035f64, -0.1615f64, 0.234f64, 0.4315f64, 0.321f64, -0.23f64]] [[1.9f64, -0.272f64, 1.056f64], [0.404f64, -0.918f64, 1.628f64], [0.722f64, 0.508f64, -0.062f64], [1.958f64, 0.74f64, 0.578f64], [0.47f64, -0.414f64, -0.97f64], [1.306f64, -1.63f64, 1.178f64]] 0.75f64 2i64 }
-- output { true }

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
