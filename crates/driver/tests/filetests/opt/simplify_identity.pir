-- pass: simplify
-- run: main 6i64 true 2.5f64 => 6i64 true 2.5f64 true 0.0f64 true
-- run: main -3i64 false -0.0f64 => -3i64 false -0.0f64 true 0.0f64 true
-- Exact identities on integers and booleans (x+0, x*1, x-x, x*0, x/1,
-- and/or with constants, x == x); on floats only those IEEE arithmetic
-- keeps: x*1, x/1, x-0, x+(-0), -(-x). x + 0.0 stays (it turns -0.0
-- into 0.0), and so do x * 0.0 (NaN and infinities) and x - x on floats.

entry "main" = main : (i64, bool, f64) -> (i64, bool, f64, bool, f64, bool)

fun main(n_0: i64, b_1: bool, x_2: f64): (i64, bool, f64, bool, f64, bool) {
  let a_3: i64 = add.i64(n_0, 0i64)
  let a_4: i64 = mul.i64(1i64, a_3)
  let a_5: i64 = sub.i64(a_4, a_4)
  let a_6: i64 = mul.i64(n_0, 0i64)
  let a_7: i64 = add.i64(a_5, a_6)
  let a_8: i64 = div.i64(a_4, 1i64)
  let a_9: i64 = add.i64(a_8, a_7)
  let c_10: bool = and.bool(b_1, true)
  let c_11: bool = or.bool(false, c_10)
  let c_12: bool = eq.i64(a_9, a_9)
  let c_13: bool = and.bool(c_11, c_12)
  let x_14: f64 = mul.f64(x_2, 1.0f64)
  let x_15: f64 = div.f64(x_14, 1.0f64)
  let x_16: f64 = sub.f64(x_15, 0.0f64)
  let x_17: f64 = add.f64(x_16, -0.0f64)
  let x_18: f64 = neg.f64(x_17)
  let x_19: f64 = neg.f64(x_18)
  let inf_20: f64 = div.f64(1.0f64, 0.0f64)
  let y_21: f64 = mul.f64(inf_20, 0.0f64)
  let y_26: bool = isnan.f64(y_21)
  let z_22: f64 = add.f64(x_19, 0.0f64)
  let w_23: f64 = sub.f64(x_19, x_19)
  let z_28: f64 = mul.f64(z_22, 0.0f64)
  let z_24: f64 = add.f64(z_28, w_23)
  let t_25: bool = eq.f64(x_19, x_19)
  in (a_9, c_13, x_19, y_26, z_24, t_25)
}
-- expect:
entry "main" = main : (i64, bool, f64) -> (i64, bool, f64, bool, f64, bool)

fun main(n_0: i64, b_1: bool, x_2: f64): (i64, bool, f64, bool, f64, bool) {
  let z_22: f64 = add.f64(x_2, 0.0f64)
  let w_23: f64 = sub.f64(x_2, x_2)
  let z_28: f64 = mul.f64(z_22, 0.0f64)
  let z_24: f64 = add.f64(z_28, w_23)
  let t_25: bool = eq.f64(x_2, x_2)
  in (n_0, b_1, x_2, true, z_24, t_25)
}
