-- ADBench hand tracking: residuals between observed 3-D points and a
-- skinned hand model posed by 26 parameters, and their Jacobians by AD,
-- in ADBench's two variants (data README §3.3).
--
-- Model: B bones (22) in a hierarchy (parents[b] < b, -1 for the root),
-- each with a base-relative 4×4 transform R_b and an inverse base-absolute
-- transform A_b; M vertices with rest positions x_v and skinning weights
-- w[v][b]. The pose theta (26 values): theta[0..3) global rotation
-- (angle-axis), theta[3..6) global translation, then per finger f (0..4)
-- four angles: two for its second bone (b = 2+4f), one each for the third
-- and fourth bones. Every other bone keeps its base pose.
--
--   E_b      = Rz(e1) Rx(e0)   the bone's rotation from its angles (e0, e1)
--              (ADBench's Euler rotation Rz·Ry·Rx with the y angle 0)
--   rel_b    = R_b · [E_b 0; 0 1]
--   abs_b    = abs_parent(b) · rel_b              (abs_root = rel_root)
--   T_b      = abs_b · A_b
--   s(v)     = Σ_b w[v][b] · (T_b · (x_v, 1))[0..3)   linear blend skinning
--   V(v)     = G · s(v) + t,  G = rotation of the angle-axis theta[0..3)
--              (the identity when |theta[0..3)| < 1e-4), t = theta[3..6)
--
-- simple:       r_i = p_i − V(c_i)                       (c_i a vertex)
-- complicated:  r_i = p_i − (u_i0 V(k0) + u_i1 V(k1) + (1 − u_i0 − u_i1) V(k2))
--               with (k0, k1, k2) = triangles[c_i]
--
-- Only the vertices that points correspond to are skinned (the others do
-- not enter the residuals).
--
-- Entries (inputs as written by prepare.py, in this order):
--   simple_objective       parents base_rel inv_base_abs weights positions
--                          corr points theta                 → [N][3] residuals
--   simple_jacobian        same input → J [26][3N]: row k = ∂r/∂theta_k,
--                          residual 3i + j (the transpose of ADBench's J)
--   complicated_objective  parents base_rel inv_base_abs weights positions
--                          triangles corr points theta us     → [N][3]
--   complicated_jacobian   same input → J [28][3N]: rows 0, 1 = ∂r_i/∂u_i0,
--                          ∂r_i/∂u_i1 (each residual depends only on its own
--                          point's u, so the block-diagonal 3N × 2N part is
--                          packed into two rows), rows 2..27 = ∂r/∂theta.
--
-- The Jacobians are forward mode: one `jmp` (many jvps sharing the primal)
-- with the 26 unit directions of theta, plus, for complicated, two
-- directions that set every u_i0 (resp. every u_i1) to 1 at once, which
-- gives the packed u rows directly because of that block-diagonal
-- structure.
--
-- The `*_jacobian_vjp` entries compute the same matrices in reverse mode:
-- for each point, three vjps (one per coordinate of its residual) w.r.t.
-- theta (and its own u), which redo the bone transforms per point.
-- Forward mode is much the faster here (few parameters, many residuals):
-- with the C backend on 12800 points (2 cores, shared machine), simple
-- 32 ms (jmp) against 1.0 s (vjps), complicated 97 ms against 1.3 s.
--
-- futhark-ad's references for simple_small/hand1_t26_c100 (prepare.py
-- copies them as hand_simple_c100.{F,J}) differ from these residuals and
-- this Jacobian by up to 9e-7 (absolute, about 1e-6 relative), while
-- ADBench's own unit-test values below are matched to 1e-16: those
-- references come from slightly different inputs, so they are not used
-- as expectations.
--
-- Test data in tests/ (made by `prepare.py --tests`): ADBench's two unit
-- test instances, with the model cut down to the vertices they use, and
-- ADBench's expected residuals and Jacobians (transposed).
-- ==
-- entry: simple_objective
-- input @ tests/simple.in output @ tests/simple.F
-- entry: simple_jacobian simple_jacobian_vjp
-- input @ tests/simple.in output @ tests/simple.J
-- entry: simple_check
-- input @ tests/simple.in output { true }
-- entry: complicated_objective
-- input @ tests/complicated.in output @ tests/complicated.F
-- entry: complicated_jacobian complicated_jacobian_vjp
-- input @ tests/complicated.in output @ tests/complicated.J
-- entry: complicated_check
-- input @ tests/complicated.in output { true }

def matmul4 (a: [4][4]f64) (b: [4][4]f64) : *[4][4]f64 =
  tabulate_2d 4 4 (\r c -> a[r][0] * b[0][c] + a[r][1] * b[1][c]
                           + a[r][2] * b[2][c] + a[r][3] * b[3][c])

def matmul3 (a: [3][3]f64) (b: [3][3]f64) : [3][3]f64 =
  tabulate_2d 3 3 (\r c -> a[r][0] * b[0][c] + a[r][1] * b[1][c] + a[r][2] * b[2][c])

-- Rotation by the angles (e0 about x, then e1 about z): Rz(e1) · Rx(e0).
def bone_rotation (e0: f64) (e1: f64) : [3][3]f64 =
  let (cx, sx) = (f64.cos e0, f64.sin e0)
  let (cz, sz) = (f64.cos e1, f64.sin e1)
  let rx = [[1, 0, 0], [0, cx, -sx], [0, sx, cx]]
  let rz = [[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]]
  in matmul3 rz rx

-- Rodrigues' formula for the angle-axis vector (a0, a1, a2).
def angle_axis (a0: f64) (a1: f64) (a2: f64) : [3][3]f64 =
  let n = f64.sqrt (a0 * a0 + a1 * a1 + a2 * a2)
  in if n < 1e-4
     then [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
     else let (x, y, z) = (a0 / n, a1 / n, a2 / n)
          let (s, c) = (f64.sin n, f64.cos n)
          in [[x * x + (1 - x * x) * c, x * y * (1 - c) - z * s, x * z * (1 - c) + y * s],
              [x * y * (1 - c) + z * s, y * y + (1 - y * y) * c, y * z * (1 - c) - x * s],
              [x * z * (1 - c) - y * s, y * z * (1 - c) + x * s, z * z + (1 - z * z) * c]]

-- The two joint angles of bone b from theta (0 for bones without any).
def bone_angles [p] (theta: [p]f64) (b: i64) : (f64, f64) =
  if b < 1 || b > 20 then (0, 0)
  else let f = (b - 1) / 4
       let j = (b - 1) % 4
       in if j == 0 then (0, 0)
          else if j == 1 then (theta[6 + 4 * f], theta[7 + 4 * f])
          else (theta[6 + 4 * f + j], 0)

-- T_b = abs_b · A_b for every bone, rows 0..2 (row 3 is not used).
def bone_transforms [b] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                            (inv_base_abs: [b][4][4]f64) (theta: [p]f64)
                            : [b][3][4]f64 =
  let rels =
    map2 (\br i ->
            let (e0, e1) = bone_angles theta i
            let e = bone_rotation e0 e1
            in tabulate_2d 4 4 (\r c ->
                                  if c == 3 then br[r][3]
                                  else br[r][0] * e[0][c] + br[r][1] * e[1][c]
                                       + br[r][2] * e[2][c]))
         base_rel (iota b)
  let abss =
    loop abss = copy rels for i < b do
      let q = parents[i]
      in if q < 0 then abss else abss with [i] = matmul4 abss[q] rels[i]
  in map2 (\a ia -> (matmul4 a ia)[0:3]) abss inv_base_abs

-- The posed position of a vertex with weights w and rest position x.
def skin [b] (ts: [b][3][4]f64) (g: [3][3]f64) (t: [3]f64) (w: [b]f64) (x: [3]f64) : [3]f64 =
  let s = tabulate 3 (\r ->
                        f64.sum (map2 (\wb tb -> wb * (tb[r][0] * x[0] + tb[r][1] * x[1]
                                                       + tb[r][2] * x[2] + tb[r][3]))
                                      w ts))
  in tabulate 3 (\r -> g[r][0] * s[0] + g[r][1] * s[1] + g[r][2] * s[2] + t[r])

def pose [b] [p] (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
                 (theta: [p]f64) : ([b][3][4]f64, [3][3]f64, [3]f64) =
  ( bone_transforms parents base_rel inv_base_abs theta
  , angle_axis theta[0] theta[1] theta[2]
  , [theta[3], theta[4], theta[5]] )

def simple_residual [b] (ts: [b][3][4]f64) (g: [3][3]f64) (t: [3]f64)
                        (w: [b]f64) (x: [3]f64) (pt: [3]f64) : [3]f64 =
  map2 (-) pt (skin ts g t w x)

def complicated_residual [b] (ts: [b][3][4]f64) (g: [3][3]f64) (t: [3]f64)
                             (ws: [3][b]f64) (xs: [3][3]f64) (pt: [3]f64) (u: [2]f64)
                             : [3]f64 =
  let v0 = skin ts g t ws[0] xs[0]
  let v1 = skin ts g t ws[1] xs[1]
  let v2 = skin ts g t ws[2] xs[2]
  let u2 = 1 - u[0] - u[1]
  in tabulate 3 (\j -> pt[j] - (u[0] * v0[j] + u[1] * v1[j] + u2 * v2[j]))

def simple_residuals [b] [m] [n] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                                     (inv_base_abs: [b][4][4]f64) (weights: [m][b]f64)
                                     (positions: [m][3]f64) (corr: [n]i64)
                                     (points: [n][3]f64) (theta: [p]f64) : [n][3]f64 =
  let (ts, g, t) = pose parents base_rel inv_base_abs theta
  in map2 (\c pt -> simple_residual ts g t weights[c] positions[c] pt) corr points

def complicated_residuals [b] [m] [k] [n] [p]
    (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
    (weights: [m][b]f64) (positions: [m][3]f64) (triangles: [k][3]i64)
    (corr: [n]i64) (points: [n][3]f64) (theta: [p]f64) (us: [n][2]f64) : [n][3]f64 =
  let (ts, g, t) = pose parents base_rel inv_base_abs theta
  in map3 (\c pt u ->
             let tri = triangles[c]
             let ws = map (\v -> weights[v]) tri
             let xs = map (\v -> positions[v]) tri
             in complicated_residual ts g t ws xs pt u)
          corr points us

def unit (p: i64) (k: i64) : [p]f64 = tabulate p (\j -> f64.bool (j == k))

entry simple_objective [b] [m] [n] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                                       (inv_base_abs: [b][4][4]f64) (weights: [m][b]f64)
                                       (positions: [m][3]f64) (corr: [n]i64)
                                       (points: [n][3]f64) (theta: [p]f64) : [n][3]f64 =
  simple_residuals parents base_rel inv_base_abs weights positions corr points theta

entry simple_jacobian [b] [m] [n] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                                      (inv_base_abs: [b][4][4]f64) (weights: [m][b]f64)
                                      (positions: [m][3]f64) (corr: [n]i64)
                                      (points: [n][3]f64) (theta: [p]f64) : [p][n * 3]f64 =
  let f th = simple_residuals parents base_rel inv_base_abs weights positions corr points th
  in map flatten (jmp f theta (tabulate p (unit p)))

entry simple_jacobian_vjp [b] [m] [n] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                                          (inv_base_abs: [b][4][4]f64) (weights: [m][b]f64)
                                          (positions: [m][3]f64) (corr: [n]i64)
                                          (points: [n][3]f64) (theta: [p]f64)
                                          : [p][n * 3]f64 =
  let rows =
    map2 (\c pt ->
            let f th = let (ts, g, t) = pose parents base_rel inv_base_abs th
                       in simple_residual ts g t weights[c] positions[c] pt
            in tabulate 3 (\j -> vjp f theta (unit 3 j)))
         corr points
  in transpose (flatten rows)

entry complicated_objective [b] [m] [k] [n] [p]
    (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
    (weights: [m][b]f64) (positions: [m][3]f64) (triangles: [k][3]i64)
    (corr: [n]i64) (points: [n][3]f64) (theta: [p]f64) (us: [n][2]f64) : [n][3]f64 =
  complicated_residuals parents base_rel inv_base_abs weights positions triangles
                        corr points theta us

entry complicated_jacobian [b] [m] [k] [n] [p]
    (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
    (weights: [m][b]f64) (positions: [m][3]f64) (triangles: [k][3]i64)
    (corr: [n]i64) (points: [n][3]f64) (theta: [p]f64) (us: [n][2]f64)
    : [2 + p][n * 3]f64 =
  let f (th, u) = complicated_residuals parents base_rel inv_base_abs weights positions
                                        triangles corr points th u
  let dirs = tabulate (2 + p) (\d -> if d < 2
                                     then (replicate p 0, replicate n (unit 2 d))
                                     else (unit p (d - 2), replicate n [0, 0]))
  in map flatten (jmp f (theta, us) dirs)

entry complicated_jacobian_vjp [b] [m] [k] [n] [p]
    (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
    (weights: [m][b]f64) (positions: [m][3]f64) (triangles: [k][3]i64)
    (corr: [n]i64) (points: [n][3]f64) (theta: [p]f64) (us: [n][2]f64)
    : [2 + p][n * 3]f64 =
  let rows =
    map3 (\c pt u ->
            let tri = triangles[c]
            let ws = map (\v -> weights[v]) tri
            let xs = map (\v -> positions[v]) tri
            let f (th, uu) = let (ts, g, t) = pose parents base_rel inv_base_abs th
                             in complicated_residual ts g t ws xs pt uu
            in tabulate 3 (\j -> let (dth, du) = vjp f (theta, u) (unit 3 j)
                                  in du ++ dth :> [2 + p]f64))
         corr points us
  in transpose (flatten rows)

-- A pseudo-random direction in [-1, 1) from an index.
def dir (i: i64) : f64 =
  let h = (i * 2654435761 + 40503) % 1000003
  in f64.i64 h / 500001.5 - 1

def close [r] [c] (a: [r][c]f64) (b: [r][c]f64) (tol: f64) : bool =
  let scale = f64.max 1e-3 (f64.maximum (map f64.abs (flatten b)))
  in f64.maximum (map2 (\x y -> f64.abs (x - y)) (flatten a) (flatten b)) <= tol * scale

-- The forward and reverse Jacobians agree, and both agree with a central
-- finite difference of the residuals along a pseudo-random direction.
entry simple_check [b] [m] [n] [p] (parents: [b]i64) (base_rel: [b][4][4]f64)
                                   (inv_base_abs: [b][4][4]f64) (weights: [m][b]f64)
                                   (positions: [m][3]f64) (corr: [n]i64)
                                   (points: [n][3]f64) (theta: [p]f64) : bool =
  let jf = simple_jacobian parents base_rel inv_base_abs weights positions corr points theta
  let jr = simple_jacobian_vjp parents base_rel inv_base_abs weights positions corr points theta
  let d = tabulate p dir
  let f s = flatten (simple_residuals parents base_rel inv_base_abs weights positions corr points
                                      (map2 (\x v -> x + s * v) theta d))
  let h = 1e-6
  let fd = map2 (\x y -> (x - y) / (2 * h)) (f h) (f (-h))
  let ad = map (\col -> f64.sum (map2 (*) col d)) (transpose jf)
  in close jf jr 1e-12 && close [fd] [ad] 1e-7

entry complicated_check [b] [m] [k] [n] [p]
    (parents: [b]i64) (base_rel: [b][4][4]f64) (inv_base_abs: [b][4][4]f64)
    (weights: [m][b]f64) (positions: [m][3]f64) (triangles: [k][3]i64)
    (corr: [n]i64) (points: [n][3]f64) (theta: [p]f64) (us: [n][2]f64) : bool =
  let jf = complicated_jacobian parents base_rel inv_base_abs weights positions triangles
                                corr points theta us
  let jr = complicated_jacobian_vjp parents base_rel inv_base_abs weights positions triangles
                                    corr points theta us
  -- A direction for theta and one shared by every point's u (the packed
  -- u rows apply to it as to any direction that is the same for all points).
  let d = tabulate p (\i -> dir (i + 2))
  let du = [dir 0, dir 1]
  let f s = flatten (complicated_residuals parents base_rel inv_base_abs weights positions
                                           triangles corr points
                                           (map2 (\x v -> x + s * v) theta d)
                                           (map (map2 (\v x -> x + s * v) du) us))
  let h = 1e-6
  let fd = map2 (\x y -> (x - y) / (2 * h)) (f h) (f (-h))
  let ad = map (\col -> f64.sum (map2 (*) col (du ++ d))) (transpose jf)
  in close jf jr 1e-12 && close [fd] [ad] 1e-7
