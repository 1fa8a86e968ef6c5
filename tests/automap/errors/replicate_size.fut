-- Only a replicate of `x`, whose size nothing determines, would make this
-- application well-typed: the checker's error, with a note saying so.
-- ==
-- error: nothing determines how many times

def rows [m] [n] (a: [m][n]i32) = m

def main (x: []i32) = rows x
