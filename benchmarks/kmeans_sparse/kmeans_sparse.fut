-- k-means on sparse points by Newton's method, as benchmarks/kmeans/kmeans.fut
-- does for dense ones: the clustering cost
--   f(C) = sum_i min_j |x_i - C_j|^2
-- of n points x_i given as the rows of a sparse matrix (CSR) for k dense
-- centres C_j, its gradient by vjp, and one Newton step C - g/h whose
-- Hessian diagonal h is computed as jvp of vjp in the direction of ones.
-- Each distance is expanded as |x|^2 - 2 x.C_j + |C_j|^2, so a point's
-- terms only read its nonzeros (and k dot products gather C_j at their
-- columns). With a_i the nearest centre of x_i and n_j the number of
-- points nearest to C_j:
--   df/dC_j = sum_{i: a_i = j} 2 (C_j - x_i),   h_j = 2 n_j (all coordinates),
-- so the Newton step is Lloyd's update (the mean of the points of each
-- centre); a centre with no points has h = 0 and stays where it is.
--
-- Inputs (every entry): values [nnz]f64, column indices [nnz]i64, row
-- offsets [n+1]i64 (row i is values[offsets[i]:offsets[i+1]]), centres
-- [k][d]f64. prepare.py generates them (a bag-of-words-like corpus; the
-- first k rows densified are the initial centres).
--
-- The test block checks a hand-computed example (with an empty row and a
-- centre that gets no points) and, on tests/small.in, compares the three
-- entries with their closed forms above and the gradient with a central
-- difference of the cost (`check`).
-- ==
-- entry: cost
-- input { [1.0, 2.0, 3.0] [0i64, 2i64, 1i64] [0i64, 2i64, 3i64, 3i64]
--         [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [10.0, 10.0, 10.0]] }
-- output { 4.0 }
-- entry: gradient
-- input { [1.0, 2.0, 3.0] [0i64, 2i64, 1i64] [0i64, 2i64, 3i64, 3i64]
--         [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [10.0, 10.0, 10.0]] }
-- output { [[2.0, 0.0, 0.0], [0.0, -2.0, 0.0], [0.0, 0.0, 0.0]] }
-- entry: newton_step
-- input { [1.0, 2.0, 3.0] [0i64, 2i64, 1i64] [0i64, 2i64, 3i64, 3i64]
--         [[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [10.0, 10.0, 10.0]] }
-- output { [[0.5, 0.0, 1.0], [0.0, 3.0, 0.0], [10.0, 10.0, 10.0]] }
-- entry: check
-- input @ tests/small.in output { true }

def sqnorm [d] (c: [d]f64) : f64 = f64.sum (map (\x -> x * x) c)

-- The squared distances of row i to the k centres (cn: their squared norms).
def row_dists [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                                 (centres: [k][d]f64) (cn: [k]f64) (i: i64) : [k]f64 =
  let m = offs[i + 1] - offs[i]
  let xv = vals[offs[i]:offs[i + 1]] :> [m]f64
  let xc = cols[offs[i]:offs[i + 1]] :> [m]i64
  let xn = f64.sum (map (\v -> v * v) xv)
  in map2 (\c cnj -> xn - 2 * f64.sum (map2 (\v col -> v * c[col]) xv xc) + cnj) centres cn

def kcost [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                             (centres: [k][d]f64) : f64 =
  let cn = map sqnorm centres
  in f64.sum (map (\i -> f64.minimum (row_dists vals cols offs centres cn i)) (iota (n1 - 1)))

def grad [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                            (centres: [k][d]f64) : [k][d]f64 =
  vjp (kcost vals cols offs) centres 1

entry cost [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                              (centres: [k][d]f64) : f64 =
  kcost vals cols offs centres

entry gradient [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                                  (centres: [k][d]f64) : [k][d]f64 =
  grad vals cols offs centres

entry newton_step [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                                     (centres: [k][d]f64) : [k][d]f64 =
  let (g, h) = jvp2 (grad vals cols offs) centres (replicate k (replicate d 1))
  in map3 (map3 (\c gi hi -> if hi == 0 then c else c - gi / hi)) centres g h

-- The closed forms, without AD: the nearest centre of each row, the row
-- of each nonzero, and from them the cost on densified rows, the
-- gradient and Lloyd's update; plus a central difference of the cost in
-- a fixed direction (exact up to rounding: f is quadratic while no
-- point changes centre).
entry check [nnz] [n1] [k] [d] (vals: [nnz]f64) (cols: [nnz]i64) (offs: [n1]i64)
                               (centres: [k][d]f64) : bool =
  let n = n1 - 1
  let cn = map sqnorm centres
  let nearest i =
    let ds = row_dists vals cols offs centres cn i
    in (reduce (\(a, ia) (b, ib) -> if b < a then (b, ib) else (a, ia)) (f64.inf, -1)
               (zip ds (iota k))).1
  let near = map nearest (iota n)
  let row_of = scan (+) 0 (reduce_by_index (replicate nnz 0i64) (+) 0 offs[1:n] (replicate (n - 1) 1))
  let dense = reduce_by_index (replicate (n * d) 0f64) (+) 0
                              (map2 (\r c -> r * d + c) row_of cols) vals
              |> unflatten
  let cost_dense = f64.sum (map2 (\x j -> f64.sum (map2 (\a b -> (a - b) * (a - b)) x centres[j]))
                                 dense near)
  let sums = reduce_by_index (replicate (k * d) 0f64) (+) 0
                             (map2 (\r c -> near[r] * d + c) row_of cols) vals
             |> unflatten
  let counts = hist (+) 0 k near (replicate n 1i64)
  let g_exact = map3 (\c s m -> map2 (\cj sj -> 2 * (f64.i64 m * cj - sj)) c s) centres sums counts
  let lloyd = map3 (\c s m -> if m == 0 then c else map (/ f64.i64 m) s) centres sums counts
  let close a b = f64.abs (a - b) <= 1e-10 * f64.max 1 (f64.abs b)
  let all_close a b = and (map2 (\x y -> and (map2 close x y)) a b)
  let f = kcost vals cols offs centres
  let g = gradient vals cols offs centres
  let dir = tabulate_2d k d (\j c -> f64.sin (f64.i64 (j * d + c) * 0.7 + 0.3))
  let at t = kcost vals cols offs (map2 (map2 (\c v -> c + t * v)) centres dir)
  let fd = (at 1e-4 - at (-1e-4)) / 2e-4
  let ad = f64.sum (map2 (\a b -> f64.sum (map2 (*) a b)) g dir)
  in close f cost_dense && all_close g g_exact
     && all_close (newton_step vals cols offs centres) lloyd
     && f64.abs (fd - ad) <= 1e-6 * f64.max 1 (f64.abs ad)
