-- A size expression cannot consume.
-- ==
-- error: Consuming variable "ns", which is not consumable: a size expression cannot consume

def first (xs: *[]i64) : i64 = xs[0]

def f [n] (ns: *[n]i64) (xs: [first ns]f32) : f32 = xs[0]
