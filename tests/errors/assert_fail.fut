-- A failing assert stops the program with an error.
-- ==
-- input { 4.0f64 } output { 2.0f64 }
-- input { -1.0f64 } error: [Aa]ssert
-- entry: assert_in_map
-- input { [1i32, 2i32, 3i32] } output { [2i32, 4i32, 6i32] }
-- input { [1i32, -2i32, 3i32] } error: [Aa]ssert

def main (x: f64) : f64 = assert (x >= 0.0) (f64.sqrt x)

entry assert_in_map (xs: []i32) : []i32 = map (\x -> assert (x > 0) (x * 2)) xs
