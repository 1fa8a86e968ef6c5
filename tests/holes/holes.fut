-- A typed hole (`???`) checks as any type; evaluating it is a run-time
-- error that names its location. A hole of a function type is an error
-- when applied; a hole in code that does not run is harmless.
-- ==
-- entry: scalar
-- input { 1i32 } error: hole at .*holes.fut:22:31-34 reached
-- entry: branch
-- input { true } output { [1i32, 2i32, 3i32] }
-- input { false } error: hole at .*holes.fut:24:51-54
-- entry: applied
-- input { 3i64 } error: hole at .*holes.fut:26:33-36
-- entry: array
-- input { 2i64 } error: hole
-- entry: in_loop
-- input { 0i32 } output { 0i32 }
-- input { 2i32 } error: hole
-- entry: argument
-- input { 1f32 } error: hole at .*holes.fut:34:52-55

def holey (x: i32) : i32 = ???

entry scalar (x: i32) : i32 = ??? + x

entry branch (b: bool) = if b then [1, 2, 3] else ???

entry applied (x: i64) : bool = ??? x x

entry array (n: i64) : *[n]i32 = ???

entry in_loop (x: i32) = loop acc = x for i < x do holey acc

def f (a: f32) (b: f32) : f32 = a + b

entry argument (y: f32) : f32 = (let x = y in f x) ???
