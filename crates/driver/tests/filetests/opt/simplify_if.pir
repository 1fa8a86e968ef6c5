-- pass: simplify
-- run: main true 1.0 => 2.0 1.0 7i64 false
-- run: main false 1.0 => 3.0 1.0 7i64 true
-- A constant condition picks its branch; equal branches (up to the names
-- they bind) are one branch; a result that is the same outside operand
-- in both branches leaves the if; `if c then false else true` is `not c`.

entry "main" = main : (bool, f64) -> (f64, f64, i64, bool)

fun main(c_0: bool, x_1: f64): (f64, f64, i64, bool) {
  let a_2: f64 = if true : f64 then {
    let t_3: f64 = add.f64(x_1, 1.0f64)
    in t_3
  } else {
    in x_1
  }
  let b_4: f64 = if c_0 : f64 then {
    let t_5: f64 = mul.f64(x_1, 1.5f64)
    in t_5
  } else {
    let t_6: f64 = mul.f64(x_1, 1.5f64)
    in t_6
  }
  let (d_7: f64, e_8: i64) = if c_0 : (f64, i64) then {
    let t_9: f64 = add.f64(a_2, 0.0f64)
    in (t_9, 7i64)
  } else {
    let t_10: f64 = add.f64(b_4, 1.5f64)
    in (t_10, 7i64)
  }
  let f_11: bool = if c_0 : bool then {
    in false
  } else {
    in true
  }
  let g_12: f64 = sub.f64(b_4, 0.5f64)
  in (d_7, x_1, e_8, f_11)
}
-- expect:
entry "main" = main : (bool, f64) -> (f64, f64, i64, bool)

fun main(c_0: bool, x_1: f64): (f64, f64, i64, bool) {
  let t_3: f64 = add.f64(x_1, 1.0f64)
  let t_5: f64 = mul.f64(x_1, 1.5f64)
  let d_7: f64 = if c_0 : f64 then {
    let t_9: f64 = add.f64(t_3, 0.0f64)
    in t_9
  } else {
    let t_10: f64 = add.f64(t_5, 1.5f64)
    in t_10
  }
  let f_11: bool = not.bool(c_0)
  in (d_7, x_1, 7i64, f_11)
}
