-- Imported by cycle/a.fut, which it imports in turn: checked on its own,
-- the cycle is found from this side.
-- ==
-- error: import cycle

import "a"

def g (x: i32) = x
