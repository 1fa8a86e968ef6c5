-- `copy`'s type parameter is not lifted ('t, not '^t): it cannot be a
-- function type.
-- ==
-- error: Cannot apply "copy" to "g" \(invalid type\): .*functional

def g (x: i32) : i32 = x + 1

def main (x: i32) : i32 = let h = copy g in h x
