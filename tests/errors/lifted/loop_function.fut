-- A loop parameter may not be a function.
-- ==
-- error: a loop parameter may not be of function type

def id 'a (x: a) : a = x

def main (n: i32) : i32 =
  let f = loop f = id for i < n do f
  in f n
