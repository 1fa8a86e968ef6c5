-- Zipping and unzipping arrays. An array of tuples is represented as a
-- tuple of arrays, so these are cheap.

def zip [n] 'a 'b (xs: [n]a) (ys: [n]b) : *[n](a, b) = __zip xs ys

def zip2 [n] 'a 'b (xs: [n]a) (ys: [n]b) : *[n](a, b) = __zip xs ys

def zip3 [n] 'a 'b 'c (xs: [n]a) (ys: [n]b) (zs: [n]c) : *[n](a, b, c) =
  __map (\((x, y), z) -> (x, y, z)) (__zip (__zip xs ys) zs)

def zip4 [n] 'a 'b 'c 'd (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) : *[n](a, b, c, d) =
  __map (\(((x, y), z), w) -> (x, y, z, w)) (__zip (__zip (__zip xs ys) zs) ws)

def zip5 [n] 'a 'b 'c 'd 'e (xs: [n]a) (ys: [n]b) (zs: [n]c) (ws: [n]d) (vs: [n]e) : *[n](a, b, c, d, e) =
  __map (\((((x, y), z), w), v) -> (x, y, z, w, v)) (__zip (__zip (__zip (__zip xs ys) zs) ws) vs)

def unzip [n] 'a 'b (ps: [n](a, b)) : ([n]a, [n]b) = __unzip ps

def unzip2 [n] 'a 'b (ps: [n](a, b)) : ([n]a, [n]b) = __unzip ps

def unzip3 [n] 'a 'b 'c (ps: [n](a, b, c)) : ([n]a, [n]b, [n]c) =
  let (xys, zs) = __unzip (__map (\(x, y, z) -> ((x, y), z)) ps)
  let (xs, ys) = __unzip xys
  in (xs, ys, zs)

def unzip4 [n] 'a 'b 'c 'd (ps: [n](a, b, c, d)) : ([n]a, [n]b, [n]c, [n]d) =
  let (xyzs, ws) = __unzip (__map (\(x, y, z, w) -> ((x, y, z), w)) ps)
  let (xs, ys, zs) = unzip3 xyzs
  in (xs, ys, zs, ws)

def unzip5 [n] 'a 'b 'c 'd 'e (ps: [n](a, b, c, d, e)) : ([n]a, [n]b, [n]c, [n]d, [n]e) =
  let (wxyzs, vs) = __unzip (__map (\(x, y, z, w, v) -> ((x, y, z, w), v)) ps)
  let (xs, ys, zs, ws) = unzip4 wxyzs
  in (xs, ys, zs, ws, vs)
