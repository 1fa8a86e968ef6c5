-- A keyword where an expression continues is named in quotes.
-- ==
-- error: Unexpected "def", expected 'in' after let binding

def f (x: i32) =
  let y = x + 2

def main (x: i32) = f x
