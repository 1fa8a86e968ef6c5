-- `import` of a file that imports a file this program also imports
-- (through a `./` and a `../` path).
-- ==
-- input { [1i32, 2i32, 3i32] }
-- output { [2i32, 4i32, 6i32] 4i32 }

import "./lib/twice"
import "../accs/lib/acc"

-- The imported `main` (a function may call itself, so inside this file's
-- `main` that name would be the function itself; a constant names the
-- imported one).
def imported_main = main

def main (xs: *[]i32) : ([]i32, i32) = (twice xs, imported_main 3)
