-- pass: simplify
-- run: main 5i64 => 5i64 19i32 false 3.5f64 255u8
-- run: main 0i64 => error: division by zero
-- Scalar operations on constants are evaluated (integer wrapping, casts,
-- comparisons, floats); the division by the constant zero is not, since
-- it fails at run time.

entry "main" = main : (i64) -> (i64, i32, bool, f64, u8)

fun main(n_0: i64): (i64, i32, bool, f64, u8) {
  let a_1: i32 = add.i32(2147483647i32, 10i32)
  let b_2: i32 = sub.i32(a_1, 2147483638i32)
  let c_3: bool = lt.i32(b_2, 10i32)
  let d_4: f64 = mul.f64(1.75f64, 2.0f64)
  let e_5: u8 = cast.i32.u8(-1i32)
  let g_7: bool = eq.i64(n_0, 0i64)
  let r_8: i64 = if g_7 : i64 then {
    let f_6: i64 = div.i64(7i64, 0i64)
    in f_6
  } else {
    in n_0
  }
  in (r_8, b_2, c_3, d_4, e_5)
}
-- expect:
entry "main" = main : (i64) -> (i64, i32, bool, f64, u8)

fun main(n_0: i64): (i64, i32, bool, f64, u8) {
  let g_7: bool = eq.i64(n_0, 0i64)
  let r_8: i64 = if g_7 : i64 then {
    let f_6: i64 = div.i64(7i64, 0i64)
    in f_6
  } else {
    in n_0
  }
  in (r_8, 19i32, false, 3.5f64, 255u8)
}
