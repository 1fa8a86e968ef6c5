-- Referring to a name that is not bound is an error.
-- ==
-- error: [Uu]nknown|not in scope|[Uu]ndefined|[Uu]nbound|not defined

def main (x: i32) : i32 = x + y
