-- Integer division and remainder by zero are run-time errors for each of
-- / % // %%.
-- ==
-- entry: div
-- input { 7i32 2i32 } output { 3i32 }
-- input { 7i32 0i32 } error: [Dd]ivision by zero|[Dd]ivide by zero
-- entry: modulo
-- input { 7i64 0i64 } error: [Dd]ivision by zero|[Dd]ivide by zero
-- entry: quot
-- input { -7i32 0i32 } error: [Dd]ivision by zero|[Dd]ivide by zero
-- entry: remainder
-- input { 5u8 0u8 } error: [Dd]ivision by zero|[Dd]ivide by zero
-- entry: in_reduce
-- input { [1i32, 2i32, 0i32] } error: [Dd]ivision by zero|[Dd]ivide by zero

entry div (a: i32) (b: i32) : i32 = a / b

entry modulo (a: i64) (b: i64) : i64 = a % b

entry quot (a: i32) (b: i32) : i32 = a // b

entry remainder (a: u8) (b: u8) : u8 = a %% b

entry in_reduce (xs: []i32) : i32 = reduce (+) 0 (map (\x -> 100 / x) xs)
