-- A loop parameter declared `[n]` cannot become three elements long.
-- ==
-- error: Loop body does not have expected type\. Expected: \[n\]bool, actual: \[3\]bool\. Sizes "n" and "3" do not match\.

def main (n: i64) =
  loop (arr: [n]bool) = replicate n true for _i < 10 do replicate 3 true
