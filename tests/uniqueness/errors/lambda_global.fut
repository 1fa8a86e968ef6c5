-- A lambda cannot return a top-level array.
-- ==
-- error: The result of function "lambda" aliases the free variable "table"

def table : []i32 = [1, 2, 3]

def main (n: i64) : []i32 = (\(b: bool) -> if b then table else [1]) (n > 0)
