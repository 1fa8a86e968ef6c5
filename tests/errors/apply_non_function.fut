-- Only functions can be applied.
-- ==
-- error: Cannot apply expression as function: it has type 'bool'

def main : i32 = true 3
