-- An inferred function's result has the size of its second parameter,
-- which the caller gives as l, not 10.
-- ==
-- error: Sizes "10" and "l" do not match

def get_at xs indices = map (\(i: i64) -> xs[i]) indices

def main [l] (xs: [l]i32) : [10]i32 = get_at xs (iota l)
