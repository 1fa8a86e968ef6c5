-- flatmap inside a map (one irregular result per row, summed) and a
-- flatmap inside the function of a flatmap.
-- ==
-- entry: per_row
-- input { [[1i64, 2i64], [0i64, 3i64]] }
-- output { [4i64, 6i64] [3i64, 3i64] }
-- entry: inner
-- input { [2i64, 1i64] }
-- output { [2i64, 1i64] [0i64, 1i64, 0i64] [2i64, 1i64] }

entry per_row (kss: [][]i64) : ([]i64, []i64) =
  unzip (map (\ks ->
                let (_, _, _, d, _) = flatmap (\k -> (iota (k + 1), ())) ks
                in (i64.sum d, i64.sum (map (const 1) ks) + 1))
             kss)

entry inner (ks: []i64) : ([]i64, []i64, []i64) =
  let (s, _, _, d, v) =
    flatmap (\k ->
               let (_, _, _, e, w) = flatmap (\j -> (iota j, j)) [k]
               in (e, w[0]))
            ks
  in (s, d, v)
