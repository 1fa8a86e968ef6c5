-- `xs ++ xs` has `n + n` elements, not `n`.
-- ==
-- error: Sizes "n" and "n \+ n" do not match

def main [n] (xs: [n]i32) : [n]i32 = xs ++ xs
