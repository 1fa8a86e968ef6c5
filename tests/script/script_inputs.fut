-- FutharkScript inputs: a case's arguments computed by calling other
-- entry points (their tuples and records passed on as they come), with
-- `let`, tuples, unsuffixed literals typed by the parameter they are
-- passed for, and the built-ins `$loaddata` and `$loadbytes`.
-- ==
-- entry: consume
-- script input { mkdata 4 } output { 10f32 }
-- script input { let (n, xs) = mkdata 3 in (n, xs) } output { 6f32 }
-- script input { (2, $loaddata "three.in") } output { 8f32 }
-- entry: use_record
-- script input { mkrecord 5 } output { 5i64 }
-- entry: count_bytes
-- script input { $loadbytes "three.in" } output { 19i64 }

entry mkdata (n: i64) = (n, map f32.i64 (iota n))

entry consume (n: i64) (xs: []f32) = f32.sum xs + f32.i64 n

entry mkrecord (n: i64) : {len: i64, flags: [n]bool} = {len = n, flags = replicate n true}

entry use_record [m] (r: {len: i64, flags: [m]bool}) = r.len * i64.bool (and r.flags)

entry count_bytes (bs: []u8) = length bs
