-- The sizes and the pattern of one `let` may not bind a name twice.
-- ==
-- error: 'n' is also bound

def main (x: []i32) =
  let [n] (n: [n]i32) = x
  in n
