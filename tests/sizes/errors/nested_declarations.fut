-- A parameter's inner declaration must agree with the outer one.
-- ==
-- error: does not match the enclosing declaration.*Sizes "n" and "m" do not match

def f [n] [m] ((_, elems: [n]i64): (i64, [m]i64)) : i64 = n + m + elems[0]

def main (x: i64, y: []i64) : i64 = f (x, y)
