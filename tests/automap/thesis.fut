-- AUTOMAP: the examples of Schenck's thesis (ch. 4), each as an entry
-- point that relies on implicit maps, with its expected values.

-- `f64.sqrt xs` is `map f64.sqrt xs`.
-- ==
-- entry: sqrts
-- input { [1.0, 4.0, 9.0] } output { [1.0, 2.0, 3.0] }
-- input { empty([0]f64) } output { empty([0]f64) }
entry sqrts (xs: []f64) = f64.sqrt xs

-- `xs + 1` maps `+` over `xs`; the literal is captured.
-- ==
-- entry: plus_one
-- input { [1, 2, 3] } output { [2, 3, 4] }
entry plus_one (xs: []i32) = xs + 1

-- `[1,2,3] + [4,5,6]` is `map2 (+)`.
-- ==
-- entry: literals
-- input { } output { [5, 7, 9] }
entry literals = [1, 2, 3] + [4, 5, 6]

def lerp (v: f64) (w: f64) (t: f64) = v + (w - v) * t

-- lerp with every mix of scalars and vectors.
-- ==
-- entry: lerp_vvs
-- input { [0.0, 10.0] [2.0, 20.0] 0.5 } output { [1.0, 15.0] }
entry lerp_vvs (vs: []f64) (ws: []f64) (t: f64) = lerp vs ws t

-- ==
-- entry: lerp_ssv
-- input { 1.0 3.0 [0.0, 0.5, 1.0] } output { [1.0, 2.0, 3.0] }
entry lerp_ssv (v: f64) (w: f64) (ts: []f64) = lerp v w ts

-- ==
-- entry: lerp_vvv
-- input { [0.0, 1.0] [4.0, 3.0] [0.25, 0.5] } output { [1.0, 2.0] }
entry lerp_vvv (vs: []f64) (ws: []f64) (ts: []f64) = lerp vs ws ts

-- ==
-- entry: lerp_svs
-- input { 1.0 [3.0, 5.0] 0.5 } output { [2.0, 3.0] }
entry lerp_svs (v: f64) (ws: []f64) (t: f64) = lerp v ws t

-- A 3-D array times a scalar: three maps.
-- ==
-- entry: scale3
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 10 }
-- output { [[[10, 20], [30, 40]], [[50, 60], [70, 80]]] }
entry scale3 (a: [][][]i32) (c: i32) = a * c

-- A vector plus a matrix, either way round: the vector is added to each
-- row.
-- ==
-- entry: vec_mat
-- input { [10, 20] [[1, 2], [3, 4], [5, 6]] }
-- output { [[11, 22], [13, 24], [15, 26]] }
entry vec_mat (v: []i32) (m: [][]i32) = v + m

-- ==
-- entry: mat_vec
-- input { [10, 20] [[1, 2], [3, 4], [5, 6]] }
-- output { [[11, 22], [13, 24], [15, 26]] }
entry mat_vec (v: []i32) (m: [][]i32) = m + v

-- The outer product with one explicit map (the inner one is implicit);
-- with none it would be the element-wise product.
-- ==
-- entry: outer
-- input { [1, 2] [3, 4, 5] } output { [[3, 4, 5], [6, 8, 10]] }
entry outer (xs: []i32) (ys: []i32) = map (\x -> x * ys) xs

-- ==
-- entry: elementwise
-- input { [1, 2, 3] [3, 4, 5] } output { [3, 8, 15] }
entry elementwise (xs: []i32) (ys: []i32) = xs * ys
-- The X-matrix check with its parameter annotated (without the annotation
-- it is ambiguous: `errors/xmatrix_ambiguous.fut`).
def outerprod f xs ys = map (\x -> map (f x) ys) xs
def bidd A = outerprod (==) (indices A) (indices A)
def xmat A = bidd A || reverse (bidd A)

-- ==
-- entry: check
-- input { [[1, 0, 2], [0, 3, 0], [4, 0, 5]] } output { true }
-- input { [[1, 0, 2], [0, 3, 1], [4, 0, 5]] } output { false }
-- input { [[1, 0, 2], [0, 0, 0], [4, 0, 5]] } output { false }
entry check (A: [][]i32) = xmat A == (A != 0) |> flatten |> and
