-- `i64.sum (length xss)` has two cheapest readings, `i64.sum (map length
-- xss)` and a sum of replicated `length xss`: ambiguous.
-- ==
-- error: ambiguous implicit maps in 'main'

def main (xss: [][]i64) = i64.sum (length xss)
