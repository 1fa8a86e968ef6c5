-- A mismatch of tuples names the first component that differs.
-- ==
-- error: field 0 differs \('i8' and 'i32'\)

def main (x: (i32, i8, i16)) : (i8, i16, i32) =
  (x.0, x.2, x.0)
