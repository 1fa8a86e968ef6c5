-- Forwards consistency: making one of the implicit maps of the examples in
-- `thesis.fut` explicit gives the same program (see `forwards.elab`: the
-- maps AUTOMAP adds are the ones left implicit) and the same values.

-- The lambda's parameter is annotated: with `\x -> x * c` the two inner
-- maps could as cheaply go around `map` itself (map over the rows of the
-- rows, then the lambda at scalars), an ambiguity the error shows.
-- ==
-- entry: scale3_outer
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 10 }
-- output { [[[10, 20], [30, 40]], [[50, 60], [70, 80]]] }
entry scale3_outer (a: [][][]i32) (c: i32) = map (\(x: [][]i32) -> x * c) a

-- ==
-- entry: scale3_inner
-- input { [[[1, 2], [3, 4]], [[5, 6], [7, 8]]] 10 }
-- output { [[[10, 20], [30, 40]], [[50, 60], [70, 80]]] }
entry scale3_inner (a: [][][]i32) (c: i32) = map (map (map (* c))) a

-- ==
-- entry: vec_mat_rows
-- input { [10, 20] [[1, 2], [3, 4], [5, 6]] }
-- output { [[11, 22], [13, 24], [15, 26]] }
entry vec_mat_rows (v: []i32) (m: [][]i32) = map (\(row: []i32) -> v + row) m

def lerp (v: f64) (w: f64) (t: f64) = v + (w - v) * t

-- ==
-- entry: lerp_map2
-- input { [0.0, 10.0] [2.0, 20.0] 0.5 } output { [1.0, 15.0] }
entry lerp_map2 (vs: []f64) (ws: []f64) (t: f64) = map2 (\v w -> lerp v w t) vs ws

-- An explicit replicate where AUTOMAP would capture the scalar.
-- ==
-- entry: plus_replicate
-- input { [1, 2, 3] } output { [2, 3, 4] }
entry plus_replicate [n] (xs: [n]i32) = xs + replicate n 1
