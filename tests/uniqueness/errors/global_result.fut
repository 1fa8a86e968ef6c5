-- A function cannot return a top-level array.
-- ==
-- error: aliases the free variable "table"

def table : []i32 = [1, 2, 3]

def main (b: bool) : []i32 = if b then table else [0]
