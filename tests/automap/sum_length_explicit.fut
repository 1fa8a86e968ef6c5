-- The ambiguity of `i64.sum (length xss)` resolved by an explicit map.
-- ==
-- input { [[1i64, 2i64], [3i64, 4i64], [5i64, 6i64]] } output { 6i64 }

def main (xss: [][]i64) = i64.sum (map length xss)
