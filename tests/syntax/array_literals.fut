-- Array literals built from variables and expressions, nested literals,
-- and an empty literal whose type comes from an ascription.
-- ==
-- input { 2i32 5i32 } output { [2i32, 5i32, 7i32] [[2i32, 0i32], [0i32, 5i32], [5i32, 2i32]] [[1.0f64, 2.5f64], [2.0f64, -0.5f64]] [true, true, false] 0i64 }
-- input { -1i32 -1i32 } output { [-1i32, -1i32, -2i32] [[-1i32, 0i32], [0i32, -1i32], [-1i32, -1i32]] [[1.0f64, 2.5f64], [-1.0f64, -0.5f64]] [false, true, true] 0i64 }

def main (x: i32) (y: i32) : ([]i32, [][]i32, [][]f64, []bool, i64) =
  let e : []i32 = []
  in ( [x, y, x + y]
     , [[x, 0], [0, y], [y, x]]
     , [[1.0, 2.5], [f64.i32 x, -0.5]]
     , [x < y, true, x == y]
     , length e
     )
