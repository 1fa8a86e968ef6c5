-- Combinators on functions.

def (|>) '^a '^b (x: a) (f: a -> b) : b = f x

def (<|) '^a '^b (f: a -> b) (x: a) : b = f x

def (>->) '^a '^b '^c (f: a -> b) (g: b -> c) (x: a) : c = g (f x)

def (<-<) '^a '^b '^c (g: b -> c) (f: a -> b) (x: a) : c = g (f x)

def flip '^a '^b '^c (f: a -> b -> c) (y: b) (x: a) : c = f x y

def curry '^a '^b '^c (f: (a, b) -> c) (x: a) (y: b) : c = f (x, y)

def uncurry '^a '^b '^c (f: a -> b -> c) ((x, y): (a, b)) : c = f x y

def const '^a '^b (x: a) (_: b) : a = x

def id '^a (x: a) : a = x

def iterate 'a (n: i32) (f: a -> a) (x: a) : a = loop x for _i < n do f x

def iterate_until 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while !(p x) do f x

def iterate_while 'a (p: a -> bool) (f: a -> a) (x: a) : a = loop x while p x do f x
