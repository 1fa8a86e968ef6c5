-- Nor can a local function.
-- ==
-- error: The result of function "pick" aliases the free variable "table"

def table : []i32 = [1, 2, 3]

def main (b: bool) : i32 =
  let pick (c: bool) = if c then table else [4]
  in (pick b)[0]
