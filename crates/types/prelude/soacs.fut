-- Second-order array combinators, on top of the checker's intrinsics
-- (see src/intrinsics.rs).

def map 'a [n] 'b (f: a -> b) (xs: [n]a) : *[n]b = __map f xs

def map1 'a [n] 'b (f: a -> b) (xs: [n]a) : *[n]b = __map f xs

def map2 'a 'b [n] 'c (f: a -> b -> c) (xs: [n]a) (ys: [n]b) : *[n]c =
  __map (\(x, y) -> f x y) (zip xs ys)

def map3 'a 'b 'c [n] 'd (f: a -> b -> c -> d) (xs: [n]a) (ys: [n]b) (zs: [n]c) : *[n]d =
  __map (\(x, y, z) -> f x y z) (zip3 xs ys zs)

def map4 'a 'b 'c 'd [n] 'e (f: a -> b -> c -> d -> e) (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) : *[n]e =
  __map (\(x, y, z, w) -> f x y z w) (zip4 xs ys zs ws)

def map5 'a 'b 'c 'd 'e [n] 'f (g: a -> b -> c -> d -> e -> f) (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) (vs: [n]e) : *[n]f =
  __map (\(x, y, z, w, v) -> g x y z w v) (zip5 xs ys zs ws vs)

-- `op` must be associative with neutral element `ne`.
def reduce [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a) : a = __reduce op ne xs

-- As `reduce`, and `op` must also be commutative.
def reduce_comm [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a) : a = __reduce_comm op ne xs

-- Inclusive prefix scan.
def scan [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a) : *[n]a = __scan op ne xs

def reduce_by_index 'a [k] [n] (dest: *[k]a) (op: a -> a -> a) (ne: a) (is: [n]i64) (vs: [n]a) : *[k]a =
  __hist dest op ne is vs

def reduce_by_index_2d 'a [k] [m] [n] (dest: *[k][m]a) (op: a -> a -> a) (ne: a) (is: [n](i64, i64)) (vs: [n]a) : *[k][m]a =
  let flat = __map (\(i, j) -> if i >= 0 && i < k && j >= 0 && j < m then i * m + j else -1) is
  in __unflatten k m (__hist (__flatten dest) op ne flat vs)

def hist 'a [n] (op: a -> a -> a) (ne: a) (k: i64) (is: [n]i64) (vs: [n]a) : *[k]a =
  __hist (__replicate k ne) op ne is vs

def scatter 't [k] [n] (dest: *[k]t) (is: [n]i64) (vs: [n]t) : *[k]t = __scatter dest is vs

def scatter_2d 't [k] [m] [n] (dest: *[k][m]t) (is: [n](i64, i64)) (vs: [n]t) : *[k][m]t =
  let flat = __map (\(i, j) -> if i >= 0 && i < k && j >= 0 && j < m then i * m + j else -1) is
  in __unflatten k m (__scatter (__flatten dest) flat vs)

def scatter_3d 't [k] [m] [l] [n] (dest: *[k][m][l]t) (is: [n](i64, i64, i64)) (vs: [n]t) : *[k][m][l]t =
  let inside (i: i64) (j: i64) (h: i64) = i >= 0 && i < k && j >= 0 && j < m && h >= 0 && h < l
  let flat = __map (\(i, j, h) -> if inside i j h then (i * m + j) * l + h else -1) is
  let res = __scatter (__flatten (__flatten dest)) flat vs
  in __map (\row -> __unflatten m l row) (__unflatten k (m * l) res)

def all [n] 'a (p: a -> bool) (xs: [n]a) : bool =
  __reduce (\x y -> x && y) true (__map p xs)

def any [n] 'a (p: a -> bool) (xs: [n]a) : bool =
  __reduce (\x y -> x || y) false (__map p xs)

-- The elements satisfying `p`, in order: each kept element is scattered
-- to its rank among the kept ones.
def filter [n] 'a (p: a -> bool) (xs: [n]a) : *[]a =
  let keep = __map (\x -> if p x then 1i64 else 0i64) xs
  let ends = __scan (+) 0i64 keep
  let m = if n == 0 then 0 else ends[n - 1]
  let pos = __map (\(k, e) -> if k == 1 then e - 1 else -1) (zip keep ends)
  in __scatter (__copy (xs[0:m])) pos xs

-- The elements satisfying `p` and those that do not, each in order.
def partition [n] 'a (p: a -> bool) (xs: [n]a) : ([]a, []a) =
  let flags = __map p xs
  let ends = __scan (+) 0i64 (__map (\b -> if b then 1i64 else 0i64) flags)
  let m = if n == 0 then 0 else ends[n - 1]
  let pos = __map (\(i, b, e) -> if b then e - 1 else m + i - e) (zip3 (__iota n) flags ends)
  let dest = __scatter (__copy xs) pos xs
  in (dest[0:m], dest[m:n])

-- Three-way partition: elements satisfying `p1`, then those satisfying
-- `p2` (but not `p1`), then the rest.
def partition2 [n] 'a (p1: a -> bool) (p2: a -> bool) (xs: [n]a) : ([]a, []a, []a) =
  let (ys, rest) = partition p1 xs
  let (zs, ws) = partition p2 rest
  in (ys, zs, ws)

-- Exclusive prefix scan: element `i` combines the elements before `i`.
def exscan [n] 'a (op: a -> a -> a) (ne: a) (xs: [n]a) : *[n]a =
  let inc = __scan op ne xs
  in __map (\i -> if i == 0 then ne else inc[i - 1]) (__iota n)

-- An array of `k` copies of `x`, with `vs` written at positions `is`.
def spread 't [n] (k: i64) (x: t) (is: [n]i64) (vs: [n]t) : *[k]t =
  __scatter (__replicate k x) is vs

def reduce_by_index_3d 'a [k] [m] [l] [n] (dest: *[k][m][l]a) (op: a -> a -> a) (ne: a) (is: [n](i64, i64, i64)) (vs: [n]a) : *[k][m][l]a =
  let inside (i: i64) (j: i64) (h: i64) = i >= 0 && i < k && j >= 0 && j < m && h >= 0 && h < l
  let flat = __map (\(i, j, h) -> if inside i j h then (i * m + j) * l + h else -1) is
  let res = __hist (__flatten (__flatten dest)) op ne flat vs
  in __map (\row -> __unflatten m l row) (__unflatten k (m * l) res)

-- Maps `f` over `xs`, where `f` gives each element a segment of any
-- length and a value. The result: the segments' lengths, flags marking
-- the first element of each non-empty segment, the segments' offsets, the
-- segments concatenated, and the values.
def flatmap [n] 'a 'b 'c (f: a -> ?[k].([k]b, c)) (xs: [n]a)
    : ?[m].([n]i64, [m]bool, [n]i64, [m]b, [n]c) =
  __flatmap f xs

-- `flatmap` of a function that gives only segments.
def flatmap' [n] 'a 'b (f: a -> ?[k].[k]b) (xs: [n]a) : ?[m].([n]i64, [m]bool, [n]i64, [m]b) =
  let (s, fl, o, d, _) = __flatmap (\x -> (f x, ())) xs
  in (s, fl, o, d)
