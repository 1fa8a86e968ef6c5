-- Array utilities.

def length [n] 't (_: [n]t) : i64 = n

def null [n] 't (_: [n]t) : bool = n == 0

def head [n] 't (xs: [n]t) : t = xs[0]

def last [n] 't (xs: [n]t) : t = xs[n - 1]

def tail [n] 't (xs: [n]t) : [n - 1]t = xs[1:]

def init [n] 't (xs: [n]t) : [n - 1]t = xs[0:n - 1]

def take [n] 't (i: i64) (xs: [n]t) : [i]t = xs[0:i]

def drop [n] 't (i: i64) (xs: [n]t) : [n - i]t = xs[i:]

def sized [m] 't (k: i64) (xs: [m]t) : [k]t = xs :> [k]t

-- The sizes of the two parts come from the context.
def split [n] [m] 't (xs: [n + m]t) : ([n]t, [m]t) = (xs[0:n], xs[n:n + m])

def reverse [n] 't (xs: [n]t) : [n]t = xs[::-1]

def (++) [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = __concat xs ys

def concat [n] [m] 't (xs: [n]t) (ys: [m]t) : *[n + m]t = __concat xs ys

def iota (n: i64) : *[n]i64 = __iota n

def indices [n] 't (_: [n]t) : *[n]i64 = __iota n

-- Element `i` of the result is element `(i + r) mod n` of `xs`.
def rotate [n] 't (r: i64) (xs: [n]t) : [n]t = __map (\i -> xs[(i + r) % n]) (__iota n)

def replicate 't (n: i64) (x: t) : *[n]t = __replicate n x

def copy 't (x: t) : *t = __copy x

def manifest 't (x: t) : *t = __copy x

def flatten [n] [m] 't (xs: [n][m]t) : [n * m]t = __flatten xs

def flatten_3d [n] [m] [l] 't (xs: [n][m][l]t) : [n * m * l]t = __flatten (__flatten xs)

def flatten_4d [n] [m] [l] [k] 't (xs: [n][m][l][k]t) : [n * m * l * k]t = __flatten (__flatten (__flatten xs))

-- The sizes of the result come from the context.
def unflatten 't [n] [m] (xs: [n * m]t) : [n][m]t = __unflatten n m xs

def unflatten_3d 't [n] [m] [l] (xs: [n * m * l]t) : [n][m][l]t =
  __map (\row -> __unflatten m l row) (__unflatten n (m * l) xs)

def transpose [n] [m] 't (xs: [n][m]t) : [m][n]t = __transpose xs

def and [n] (xs: [n]bool) : bool = all (\x -> x) xs

def or [n] (xs: [n]bool) : bool = any (\x -> x) xs

def foldl [n] 'a 'b (f: a -> b -> a) (acc: a) (xs: [n]b) : a =
  loop acc for x in xs do f acc x

def foldr [n] 'a 'b (f: b -> a -> a) (acc: a) (xs: [n]b) : a =
  loop acc for x in xs[::-1] do f x acc

def tabulate 'a (n: i64) (f: i64 -> a) : *[n]a = __map f (__iota n)

def tabulate_2d 'a (n: i64) (m: i64) (f: i64 -> i64 -> a) : *[n][m]a =
  __map (\i -> __map (f i) (__iota m)) (__iota n)

def tabulate_3d 'a (n: i64) (m: i64) (o: i64) (f: i64 -> i64 -> i64 -> a) : *[n][m][o]a =
  __map (\i -> __map (\j -> __map (f i j) (__iota o)) (__iota m)) (__iota n)

-- The size of the result comes from the context.
def rep 't [n] (x: t) : *[n]t = __replicate n x

def unflatten_4d 't [n] [m] [l] [k] (xs: [n * m * l * k]t) : [n][m][l][k]t =
  __map (\a -> __map (\row -> __unflatten l k row) (__unflatten m (l * k) a))
        (__unflatten n (m * l * k) xs)
