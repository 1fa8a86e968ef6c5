-- The X-matrix check of the thesis without a type for `A`: `A` may be a
-- scalar or a vector as cheaply as a matrix, so the program is ambiguous.
-- ==
-- error: ambiguous implicit maps in 'check'

def outerprod f xs ys = map (\x -> map (f x) ys) xs
def bidd A = outerprod (==) (indices A) (indices A)
def xmat A = bidd A || reverse (bidd A)
def check A = xmat A == (A != 0) |> flatten |> and

def main (A: [][]i32) = check A
