-- String literals are UTF-8 encoded arrays of u8.
-- ==
-- input { 0i64 } output { 14i64 104u8 }
-- input { 1i64 } output { 14i64 195u8 }
-- input { 2i64 } output { 14i64 169u8 }
-- input { 13i64 } output { 14i64 100u8 }

def main (i: i64) : (i64, u8) =
  let s = "héllo, wörld"
  in (length s, s[i])
