-- Type parameters of one function must be distinct.
-- ==
-- error: 'a' is also bound

def id 'a 'a (x: a) : a = x

def main (x: i32) : i32 = id x
