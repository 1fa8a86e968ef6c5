-- ADBench bundle adjustment (BA): the reprojection and weight errors of p
-- observations of m 3-D points by n cameras, and their Jacobian.
--
-- Data (entry parameters, in this order):
--   cams  [n][11]  camera i: Rodrigues angle-axis rotation r (0..2),
--                  centre C (3..5), focal length f (6), principal point
--                  (u0, v0) (7, 8), radial distortion k1, k2 (9, 10)
--   xs    [m][3]   the 3-D points
--   w     [p]      one weight per observation
--   obs   [p][2]   observation k sees point obs[k][1] from camera obs[k][0]
--   feats [p][2]   the observed 2-D feature of observation k
--
-- Objective, for observation k with (i, j) = obs[k]:
--   Xcam = R(r_i) (X_j - C_i)       R(r): rotation by |r| about r/|r|
--                                   (Rodrigues); x + r × x when r = 0
--   (px, py) = Xcam[0..1] / Xcam[2],  L = 1 + k1 ρ + k2 ρ²,  ρ = px² + py²
--   reproj[k] = w_k (f L (px, py) + (u0, v0) - feats[k])      [p][2]
--   werr[k]   = 1 - w_k²                                       [p]
--
-- Jacobian (ADBench's sparse BA Jacobian, 3p rows × 11n + 3m + p columns,
-- 31p nonzeros): row 2k + c (c = 0, 1) of reproj depends only on the 11
-- parameters of camera i, the 3 coordinates of point j and w_k, so it is
-- returned as the dense block J[k][c][0..15), columns in ADBench's order
-- (camera 0..10, point 0..2, weight); row 2p + k depends only on w_k, whose
-- derivative -2 w_k is dw[k]. Flattened, (J, dw) is exactly the value
-- array of ADBench's CSR matrix.
--
-- Derivative entries:
--   jacobian      reverse mode: per observation, vjp of the 2-valued
--                 residual with the 2 unit cotangents (mjp), 2 sweeps
--   jacobian_fwd  forward mode: per observation, jvp with the 15 unit
--                 tangents (jmp), 15 tangent passes sharing one primal
-- Both run inside a map over the observations, and both compute the
-- primal once per observation (it is hoisted out of the map over the
-- seeds). The reverse one is the default: it needs 2 adjoint sweeps per
-- observation instead of 15 tangent passes, and measured faster on the C
-- backend (one thread: 18 ms vs 56 ms on ba1, 0.45 s vs 0.62 s on ba8).
--
-- Inputs are made by prepare.py from ADBench's files, which each hold one
-- camera, point, weight and feature that are replicated (n cameras, m
-- points, p observations (k mod n, k mod m)). tests/ holds ADBench's unit
-- test instance (test.txt, n = 2, m = 10, p = 10) with its expected
-- objective and Jacobian values (tests/test_ref.in: the input followed by
-- both, for matches_reference's tight comparison), and a small generated instance with
-- distinct cameras and points (tests/small.in) for the derivative checks.
-- ==
-- entry: objective
-- input @ tests/test.in output @ tests/test.F
-- entry: jacobian jacobian_fwd
-- input @ tests/test.in output @ tests/test.J
-- entry: fd_check
-- input @ tests/small.in output { true }
-- input @ tests/test.in output { true }
-- entry: modes_agree
-- input @ tests/small.in output { true }
-- entry: matches_reference
-- input @ tests/test_ref.in output { true }

type v3 = (f64, f64, f64)

def dot3 ((a0, a1, a2): v3) ((b0, b1, b2): v3) : f64 = a0 * b0 + a1 * b1 + a2 * b2

def cross3 ((a0, a1, a2): v3) ((b0, b1, b2): v3) : v3 =
  (a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0)

-- Rotation of x by the angle-axis vector r: with θ = |r| and u = r/θ,
-- x cos θ + (u × x) sin θ + u (u·x)(1 - cos θ); to first order x + r × x
-- when θ = 0.
def rotate (r: v3) (x: v3) : v3 =
  let t2 = dot3 r r
  in if t2 != 0 then
       let t = f64.sqrt t2
       let (ct, st) = (f64.cos t, f64.sin t)
       let (r0, r1, r2) = r
       let u = (r0 / t, r1 / t, r2 / t)
       let (c0, c1, c2) = cross3 u x
       let s = dot3 u x * (1 - ct)
       let (x0, x1, x2) = x
       let (u0, u1, u2) = u
       in (x0 * ct + c0 * st + u0 * s, x1 * ct + c1 * st + u1 * s, x2 * ct + c2 * st + u2 * s)
     else
       let (c0, c1, c2) = cross3 r x
       let (x0, x1, x2) = x
       in (x0 + c0, x1 + c1, x2 + c2)

-- The weighted reprojection error of one observation.
def reproj (cam: [11]f64) (x: [3]f64) (w: f64) (fx: f64) (fy: f64) : (f64, f64) =
  let xo = (x[0] - cam[3], x[1] - cam[4], x[2] - cam[5])
  let (a, b, z) = rotate (cam[0], cam[1], cam[2]) xo
  let (px, py) = (a / z, b / z)
  let rho = px * px + py * py
  let l = 1 + cam[9] * rho + cam[10] * rho * rho
  in (w * (cam[6] * l * px + cam[7] - fx), w * (cam[6] * l * py + cam[8] - fy))

def werr (w: f64) : f64 = 1 - w * w

entry objective [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                            (obs: [p][2]i64) (feats: [p][2]f64)
                            : ([p][2]f64, [p]f64) =
  let r = map3 (\o wk ft -> let (ex, ey) = reproj cams[o[0]] xs[o[1]] wk ft[0] ft[1]
                            in [ex, ey])
               obs w feats
  in (r, map werr w)

-- The 15 parameters of one observation's residual, as one column block.
def block (gc: [11]f64) (gx: [3]f64) (gw: f64) : [15]f64 =
  tabulate 15 (\d -> if d < 11 then gc[d] else if d < 14 then gx[d - 11] else gw)

entry jacobian [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                           (obs: [p][2]i64) (feats: [p][2]f64)
                           : ([p][2][15]f64, [p]f64) =
  let jac = map3 (\o wk ft ->
                    let f (c, x, wv) = reproj c x wv ft[0] ft[1]
                    let rows = mjp f (cams[o[0]], xs[o[1]], wk) [(1, 0), (0, 1)]
                    in map (\(gc, gx, gw) -> block gc gx gw) rows)
                 obs w feats
  in (jac, map (\wk -> vjp werr wk 1) w)

-- The unit tangent along parameter d of (camera, point, weight).
def unit (d: i64) : ([11]f64, [3]f64, f64) =
  (tabulate 11 (\i -> f64.bool (i == d)), tabulate 3 (\i -> f64.bool (i + 11 == d)), f64.bool (d == 14))

entry jacobian_fwd [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                               (obs: [p][2]i64) (feats: [p][2]f64)
                               : ([p][2][15]f64, [p]f64) =
  let jac = map3 (\o wk ft ->
                    let f (c, x, wv) = reproj c x wv ft[0] ft[1]
                    let cols = jmp f (cams[o[0]], xs[o[1]], wk) (map unit (iota 15))
                    in [map (.0) cols, map (.1) cols])
                 obs w feats
  in (jac, map (\wk -> jvp werr wk 1) w)

-- Largest |a - b| over the largest |b| (or 1 when larger).
def rel_err [k] (a: [k]f64) (b: [k]f64) : f64 =
  f64.maximum (map2 (\u v -> f64.abs (u - v)) a b) / f64.max 1 (f64.maximum (map f64.abs b))

-- Central finite differences of every residual along each of its 15
-- parameters (and of each weight error along its weight), against the
-- reverse-mode Jacobian.
entry fd_check [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                           (obs: [p][2]i64) (feats: [p][2]f64) : bool =
  let (jac, dw) = jacobian cams xs w obs feats
  let fd = map3 (\o wk ft ->
                   let (c, x) = (cams[o[0]], xs[o[1]])
                   let col d =
                     let h = 1e-6 * f64.max 1 (f64.abs (if d < 11 then c[d] else if d < 14 then x[d - 11] else wk))
                     let (dc, dx, dwk) = unit d
                     let at t = reproj (map2 (\a v -> a + t * v) c dc) (map2 (\a v -> a + t * v) x dx)
                                       (wk + t * dwk) ft[0] ft[1]
                     let ((ax, ay), (bx, by)) = (at h, at (-h))
                     in ((ax - bx) / (2 * h), (ay - by) / (2 * h))
                   let cols = map col (iota 15)
                   in [map (.0) cols, map (.1) cols])
                obs w feats
  let fdw = map (\wk -> (werr (wk + 1e-6) - werr (wk - 1e-6)) / 2e-6) w
  in rel_err (flatten_3d jac) (flatten_3d fd) <= 1e-6 && rel_err dw fdw <= 1e-6

-- Forward and reverse mode give the same Jacobian.
entry modes_agree [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                              (obs: [p][2]i64) (feats: [p][2]f64) : bool =
  let (a, da) = jacobian cams xs w obs feats
  let (b, db) = jacobian_fwd cams xs w obs feats
  in rel_err (flatten_3d a) (flatten_3d b) <= 1e-12 && rel_err da db <= 1e-12

-- The objective and both Jacobians agree with expected values (ADBench's
-- unit test: er, ew its objective, ej, edw its Jacobian's CSR values) to
-- 1e-12 relative, much tighter than the test tool's comparison.
entry matches_reference [n] [m] [p] (cams: [n][11]f64) (xs: [m][3]f64) (w: [p]f64)
                                    (obs: [p][2]i64) (feats: [p][2]f64)
                                    (er: [p][2]f64) (ew: [p]f64) (ej: [p][2][15]f64) (edw: [p]f64)
                                    : bool =
  let (r, rw) = objective cams xs w obs feats
  let (a, da) = jacobian cams xs w obs feats
  let (b, db) = jacobian_fwd cams xs w obs feats
  let tol = 1e-12
  in rel_err (flatten r) (flatten er) <= tol && rel_err rw ew <= tol
     && rel_err (flatten_3d a) (flatten_3d ej) <= tol && rel_err da edw <= tol
     && rel_err (flatten_3d b) (flatten_3d ej) <= tol && rel_err db edw <= tol
