-- Part of the package in this folder, imported by mini.fut.

def mean [n] (xs: [n]f64) : f64 = f64.sum xs / f64.i64 n
