-- pass: dce
-- run: main 5i64 => 10i64
-- Dead statements go inside loop and branch bodies too; the loop itself
-- is used and stays.

entry "main" = main : (i64) -> i64

fun main(n_0: i64): i64 {
  let unused_1: i64 = mul.i64(n_0, n_0)
  let r_2: i64 = loop (acc_3: i64 = 0i64) for i_4: i64 < n_0 {
    let dead_5: i64 = mul.i64(acc_3, 7i64)
    let t_6: i64 = add.i64(acc_3, 2i64)
    in t_6
  }
  let c_7: bool = gt.i64(r_2, 0i64)
  let s_8: i64 = if c_7 : i64 then {
    let dead_9: i64 = sub.i64(r_2, 1i64)
    in r_2
  } else {
    in 0i64
  }
  in s_8
}
-- expect:
entry "main" = main : (i64) -> i64

fun main(n_0: i64): i64 {
  let r_2: i64 = loop (acc_3: i64 = 0i64) for i_4: i64 < n_0 {
    let t_6: i64 = add.i64(acc_3, 2i64)
    in t_6
  }
  let c_7: bool = gt.i64(r_2, 0i64)
  let s_8: i64 = if c_7 : i64 then {
    in r_2
  } else {
    in 0i64
  }
  in s_8
}
