-- Sum types with different constructors do not unify.
-- ==
-- error: Unshared constructors: #c, #d

def f (v: #a i32 | #b | #c) : #a i32 | #b | #d = v
