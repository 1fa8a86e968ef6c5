-- A file that imports itself through cycle/b.fut is an error.
-- ==
-- error: import cycle

import "b"

def main (x: i32) = x
