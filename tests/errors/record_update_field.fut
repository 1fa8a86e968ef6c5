-- A record update with a value of the wrong type names the field.
-- ==
-- error: value for record field "f" has the wrong type

def main (x: i32) : i32 =
  let r = {f = x}
  in (r with f = true).f
