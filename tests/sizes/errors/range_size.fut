-- `0..<(n + 1)` has `n + 1` elements, not `n`.
-- ==
-- error: Sizes "n" and "n \+ 1" do not match

def main (n: i64) : [n]i64 = 0..<(n + 1)
