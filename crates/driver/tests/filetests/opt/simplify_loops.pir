-- pass: simplify
-- run: main 3i64 2.0 => 13.0 2.0
-- run: main 0i64 2.0 => 1.0 2.0
-- The product `y_5 * 3` depends on nothing the loop binds and cannot
-- fail: it moves before the loop. The division by `k_0` could fail and
-- stays. A loop of zero iterations is its initial values.

entry "main" = main : (i64, f64) -> (f64, f64)

fun main(k_0: i64, y_1: f64): (f64, f64) {
  let r_2: f64 = loop (acc_3: f64 = 1.0f64) for i_4: i64 < k_0 {
    let y_5: f64 = mul.f64(y_1, 3.0f64)
    let j_6: i64 = div.i64(7i64, k_0)
    let j_7: f64 = cast.i64.f64(j_6)
    let z_8: f64 = sub.f64(y_5, j_7)
    let t_9: f64 = add.f64(acc_3, z_8)
    in t_9
  }
  let s_10: f64 = loop (b_11: f64 = y_1) for i_12: i64 < 0i64 {
    let t_13: f64 = mul.f64(b_11, 2.0f64)
    in t_13
  }
  in (r_2, s_10)
}
-- expect:
entry "main" = main : (i64, f64) -> (f64, f64)

fun main(k_0: i64, y_1: f64): (f64, f64) {
  let y_5: f64 = mul.f64(y_1, 3.0f64)
  let r_2: f64 = loop (acc_3: f64 = 1.0f64) for i_4: i64 < k_0 {
    let j_6: i64 = div.i64(7i64, k_0)
    let j_7: f64 = cast.i64.f64(j_6)
    let z_8: f64 = sub.f64(y_5, j_7)
    let t_9: f64 = add.f64(acc_3, z_8)
    in t_9
  }
  in (r_2, y_1)
}
