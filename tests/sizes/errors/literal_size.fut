-- A four-element literal is not a `[3]i32`.
-- ==
-- error: Expression does not have expected type\. Expected: \[3\]i32, actual: \[4\]i32\. Sizes "3" and "4" do not match\.

def main (x: i32) = ([x, 2, 3, 4] : [3]i32)
