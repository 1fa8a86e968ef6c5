-- pass: simplify
-- run: main [0i32, 2i32, 0i32] [1i32, 1i32, 1i32] => [4i32, 0i32, 2i32] [0i32, 0i32, 0i32]
-- The withacc's second result is an array from outside: it leaves the
-- withacc; its third is unused: it goes. The map's input `w_3` is never
-- read: it goes.

entry "main" = main : ([]i32, []i32) -> ([]i32, []i32)

fun main(is_0: [?]i32, vs_1: [?]i32): ([?]i32, [?]i32) {
  let n_2: i64 = size(is_0, 0)
  let w_3: [n_2]i32 = replicate(n_2, 7i32)
  let z_4: [n_2]i32 = replicate(n_2, 0i32)
  let d_5: [n_2]i32 = replicate(n_2, 0i32)
  let (r_6: [n_2]i32, e_7: [n_2]i32, f_20: [n_2]i32) = withacc(
    {[n_2], [d_5], [0i32], \(x_8: i32, x_9: i32): i32 {
      let t_10: i32 = add.i32(x_8, x_9)
      in t_10
    }},
    \(a_11: acc([n_2], i32)): (acc([n_2], i32), [n_2]i32, [n_2]i32) {
      let a_17: acc([n_2], i32) = map(n_2, [is_0, vs_1, w_3, a_11], \(i_12: i32, v_13: i32, u_14: i32, b_15: acc([n_2], i32)): acc([n_2], i32) {
        let j_16: i64 = cast.i32.i64(i_12)
        let t_19: i32 = add.i32(v_13, 1i32)
        let b_18: acc([n_2], i32) = upd(b_15, [j_16], [t_19])
        in b_18
      })
      let g_21: [n_2]i32 = copy(vs_1)
      in (a_17, z_4, g_21)
    }
  )
  in (r_6, e_7)
}
-- expect:
entry "main" = main : ([]i32, []i32) -> ([]i32, []i32)

fun main(is_0: [?]i32, vs_1: [?]i32): ([?]i32, [?]i32) {
  let n_2: i64 = size(is_0, 0)
  let z_4: [n_2]i32 = replicate(n_2, 0i32)
  let d_5: [n_2]i32 = replicate(n_2, 0i32)
  let r_6: [n_2]i32 = withacc(
    {[n_2], [d_5], [0i32], \(x_8: i32, x_9: i32): i32 {
      let t_10: i32 = add.i32(x_8, x_9)
      in t_10
    }},
    \(a_11: acc([n_2], i32)): acc([n_2], i32) {
      let a_17: acc([n_2], i32) = map(n_2, [is_0, vs_1, a_11], \(i_12: i32, v_13: i32, b_15: acc([n_2], i32)): acc([n_2], i32) {
        let j_16: i64 = cast.i32.i64(i_12)
        let t_19: i32 = add.i32(v_13, 1i32)
        let b_18: acc([n_2], i32) = upd(b_15, [j_16], [t_19])
        in b_18
      })
      in a_17
    }
  )
  in (r_6, z_4)
}
