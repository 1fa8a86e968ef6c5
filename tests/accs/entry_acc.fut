-- An entry point cannot take an accumulator.
-- ==
-- error: cannot take or return accumulators

entry main (c: *intrinsics.acc ([]i32)) = c
