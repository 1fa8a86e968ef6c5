-- A file (like a module) defines each name once, entry points included.
-- ==
-- error: Duplicate definition of value 'shadowed'

entry shadowed (x: i32) : i32 = x
entry shadowed (x: i32) : i32 = x + 1
