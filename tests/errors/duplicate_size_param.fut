-- A size parameter and a parameter may not share a name.
-- ==
-- error: 'm' is also bound

def main [m] (m: [m]i64) : [m]i64 = m
