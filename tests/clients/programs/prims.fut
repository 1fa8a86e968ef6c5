-- Values of every primitive type and of ranks 0 to 3 through Futhark's
-- C API: the clients' tests (tests/clients/test_ffi.py, test_server.py)
-- pass numpy arrays in and check every element of the result. For each
-- type T: T_0 bumps a scalar, T_1 reverses a vector and bumps it, T_2
-- transposes a matrix and bumps it, T_3 transposes the inner matrices of a
-- rank-3 array and bumps it, and T_sum reduces a matrix to a scalar
-- (bumping is +1, and negation for bool). Integer arithmetic wraps.
-- ==
-- entry: i32_1
-- input { [1i32, 2i32, 3i32] } output { [4i32, 3i32, 2i32] }
-- entry: bool_2
-- input { [[true, false]] } output { [[false], [true]] }
-- entry: u8_sum
-- input { [[250u8, 10u8], [1u8, 2u8]] } output { 7u8 }

-- i8
entry i8_0 (x: i8) : i8 = x + 1
entry i8_1 (xs: []i8) : []i8 = map (+ 1) (reverse xs)
entry i8_2 [n][m] (xs: [n][m]i8) : [m][n]i8 = transpose (map (map (+ 1)) xs)
entry i8_3 [k][n][m] (xs: [k][n][m]i8) : [k][m][n]i8 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry i8_sum (xs: [][]i8) : i8 = reduce (+) 0 (flatten xs)

-- i16
entry i16_0 (x: i16) : i16 = x + 1
entry i16_1 (xs: []i16) : []i16 = map (+ 1) (reverse xs)
entry i16_2 [n][m] (xs: [n][m]i16) : [m][n]i16 = transpose (map (map (+ 1)) xs)
entry i16_3 [k][n][m] (xs: [k][n][m]i16) : [k][m][n]i16 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry i16_sum (xs: [][]i16) : i16 = reduce (+) 0 (flatten xs)

-- i32
entry i32_0 (x: i32) : i32 = x + 1
entry i32_1 (xs: []i32) : []i32 = map (+ 1) (reverse xs)
entry i32_2 [n][m] (xs: [n][m]i32) : [m][n]i32 = transpose (map (map (+ 1)) xs)
entry i32_3 [k][n][m] (xs: [k][n][m]i32) : [k][m][n]i32 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry i32_sum (xs: [][]i32) : i32 = reduce (+) 0 (flatten xs)

-- i64
entry i64_0 (x: i64) : i64 = x + 1
entry i64_1 (xs: []i64) : []i64 = map (+ 1) (reverse xs)
entry i64_2 [n][m] (xs: [n][m]i64) : [m][n]i64 = transpose (map (map (+ 1)) xs)
entry i64_3 [k][n][m] (xs: [k][n][m]i64) : [k][m][n]i64 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry i64_sum (xs: [][]i64) : i64 = reduce (+) 0 (flatten xs)

-- u8
entry u8_0 (x: u8) : u8 = x + 1
entry u8_1 (xs: []u8) : []u8 = map (+ 1) (reverse xs)
entry u8_2 [n][m] (xs: [n][m]u8) : [m][n]u8 = transpose (map (map (+ 1)) xs)
entry u8_3 [k][n][m] (xs: [k][n][m]u8) : [k][m][n]u8 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry u8_sum (xs: [][]u8) : u8 = reduce (+) 0 (flatten xs)

-- u16
entry u16_0 (x: u16) : u16 = x + 1
entry u16_1 (xs: []u16) : []u16 = map (+ 1) (reverse xs)
entry u16_2 [n][m] (xs: [n][m]u16) : [m][n]u16 = transpose (map (map (+ 1)) xs)
entry u16_3 [k][n][m] (xs: [k][n][m]u16) : [k][m][n]u16 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry u16_sum (xs: [][]u16) : u16 = reduce (+) 0 (flatten xs)

-- u32
entry u32_0 (x: u32) : u32 = x + 1
entry u32_1 (xs: []u32) : []u32 = map (+ 1) (reverse xs)
entry u32_2 [n][m] (xs: [n][m]u32) : [m][n]u32 = transpose (map (map (+ 1)) xs)
entry u32_3 [k][n][m] (xs: [k][n][m]u32) : [k][m][n]u32 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry u32_sum (xs: [][]u32) : u32 = reduce (+) 0 (flatten xs)

-- u64
entry u64_0 (x: u64) : u64 = x + 1
entry u64_1 (xs: []u64) : []u64 = map (+ 1) (reverse xs)
entry u64_2 [n][m] (xs: [n][m]u64) : [m][n]u64 = transpose (map (map (+ 1)) xs)
entry u64_3 [k][n][m] (xs: [k][n][m]u64) : [k][m][n]u64 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry u64_sum (xs: [][]u64) : u64 = reduce (+) 0 (flatten xs)

-- f16
entry f16_0 (x: f16) : f16 = x + 1
entry f16_1 (xs: []f16) : []f16 = map (+ 1) (reverse xs)
entry f16_2 [n][m] (xs: [n][m]f16) : [m][n]f16 = transpose (map (map (+ 1)) xs)
entry f16_3 [k][n][m] (xs: [k][n][m]f16) : [k][m][n]f16 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry f16_sum (xs: [][]f16) : f16 = reduce (+) 0 (flatten xs)

-- f32
entry f32_0 (x: f32) : f32 = x + 1
entry f32_1 (xs: []f32) : []f32 = map (+ 1) (reverse xs)
entry f32_2 [n][m] (xs: [n][m]f32) : [m][n]f32 = transpose (map (map (+ 1)) xs)
entry f32_3 [k][n][m] (xs: [k][n][m]f32) : [k][m][n]f32 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry f32_sum (xs: [][]f32) : f32 = reduce (+) 0 (flatten xs)

-- f64
entry f64_0 (x: f64) : f64 = x + 1
entry f64_1 (xs: []f64) : []f64 = map (+ 1) (reverse xs)
entry f64_2 [n][m] (xs: [n][m]f64) : [m][n]f64 = transpose (map (map (+ 1)) xs)
entry f64_3 [k][n][m] (xs: [k][n][m]f64) : [k][m][n]f64 = map (\x -> transpose (map (map (+ 1)) x)) xs
entry f64_sum (xs: [][]f64) : f64 = reduce (+) 0 (flatten xs)

-- bool: negation; the sum is exclusive or.
entry bool_0 (x: bool) : bool = !x
entry bool_1 (xs: []bool) : []bool = map (\b -> !b) (reverse xs)
entry bool_2 [n][m] (xs: [n][m]bool) : [m][n]bool = transpose (map (map (\b -> !b)) xs)
entry bool_3 [k][n][m] (xs: [k][n][m]bool) : [k][m][n]bool = map (\x -> transpose (map (map (\b -> !b)) x)) xs
entry bool_sum (xs: [][]bool) : bool = reduce (!=) false (flatten xs)
