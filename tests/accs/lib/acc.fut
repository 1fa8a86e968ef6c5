-- Helpers over the accumulator intrinsics, imported by the tests in this
-- folder (no test block of its own).

type~ acc 't = intrinsics.acc t

-- Every element of `xs` writes through the accumulator; later writes win.
def write_all [k] 'a 'x (dest: *[k]a) (f: *acc ([k]a) -> x -> acc ([k]a)) (xs: []x) : *[k]a =
  intrinsics.scatter_stream dest f xs :> *[k]a

-- As `write_all`, but writes are combined with `op` (neutral `ne`).
def combine_all [k] 'a 'x (dest: *[k]a) (op: a -> a -> a) (ne: a)
                (f: *acc ([k]a) -> x -> acc ([k]a)) (xs: []x) : *[k]a =
  intrinsics.hist_stream dest op ne f xs :> *[k]a

def put [k] 'a (c: *acc ([k]a)) (i: i64) (v: a) : *acc ([k]a) =
  intrinsics.acc_write c i v

-- An entry point of an imported file is an ordinary function of the
-- importer.
entry main (x: i32) : i32 = x + 1
