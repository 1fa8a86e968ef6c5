-- A record update with a value of the wrong type names the field.
-- ==
-- error: value of type .bool. given for record field "f" of type .i32.

def main (x: i32) : i32 =
  let r = {f = x}
  in (r with f = true).f
