-- A function applied to itself would have an infinite type; the unknown
-- types are numbered in the message, not shown by internal names.
-- ==
-- error: Occurs check: cannot unify 't1' with 't2 -> t1 -> t3'

def bad a f = f a f

def main (x: i32) : i32 = x
