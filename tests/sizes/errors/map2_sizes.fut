-- Two size parameters are different sizes: `map2` needs one.
-- ==
-- error: Cannot apply "map2" to "ys" \(invalid type\)\. Expected: \[n\]i32, actual: \[m\]i32\. Sizes "n" and "m" do not match\.

def main [n] [m] (xs: [n]i32) (ys: [m]i32) = map2 (+) xs ys
