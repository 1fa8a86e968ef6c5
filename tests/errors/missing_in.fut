-- A `let` at the end of a body without `in` runs into the end of the file.
-- ==
-- error: Unexpected end of file, expected 'in' after let binding

def main (x: i32) : i32 =
  let y = x + 1
