-- The inner size of an empty array literal cannot be read off its rows.
-- ==
-- error: Ambiguous size "m"

def main =
  let [n][m] (xss: [n][m]i64) = []
  in (n, m)
