-- A top-level polymorphic function instantiated at different types
-- within a single definition, and higher-order polymorphic functions.
-- ==
-- input { 3i32 1.5f32 } output { [3i32, 3i32] [1.5f32, 1.5f32] [[true, true], [true, true]] 4i32 2.0f32 }

def dup 't (x: t) : [2]t = [x, x]

def apply 'a 'b (f: a -> b) (x: a) : b = f x

def main (i: i32) (f: f32) : ([]i32, []f32, [][]bool, i32, f32) =
  ( dup i
  , dup f
  , dup (dup (i > 2))
  , apply (+ 1) i
  , apply (f32.max 2.0) f
  )
