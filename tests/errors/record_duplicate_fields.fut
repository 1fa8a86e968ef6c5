-- A record expression may not define a field twice.
-- ==
-- error: field 'a' was previously defined in this record

def main (x: i32) : i32 =
  let r = {a = x, b = x + 1, a = x + 2}
  in r.a
