-- The declared result size is checked against the body's.
-- ==
-- error: Function body does not have expected type\. Expected: \[10\]i32, actual: \[n\]i32\. Sizes "10" and "n" do not match\.

def main [n] (xs: [n]i32) : [10]i32 = xs
