-- pass: fuse
-- run: main [1i64, 2i64, 3i64] => [1i64, 5i64, 14i64]
-- A map into a scan: a screma with one scan.

entry "main" = entry_main : ([]i64) -> []i64

fun entry_main(arg_0: [?]i64): [?]i64 {
  let n_1: i64 = size(arg_0, 0)
  let map_5: [n_1]i64 = map(n_1, [arg_0], \(x_3: i64): i64 {
    let t_4: i64 = mul.i64(x_3, x_3)
    in t_4
  })
  let n_6: i64 = size(map_5, 0)
  let scan_11: [n_6]i64 = scan(n_6, [map_5], [0i64], \(x_8: i64, x_9: i64): i64 {
    let t_10: i64 = add.i64(x_8, x_9)
    in t_10
  })
  in scan_11
}
-- expect:
entry "main" = entry_main : ([]i64) -> []i64

fun entry_main(arg_0: [?]i64): [?]i64 {
  let n_1: i64 = size(arg_0, 0)
  let n_6: i64 = n_1
  let scan_11: [n_6]i64 = screma(n_6, [arg_0],
    scan([0i64], \(x_8: i64, x_9: i64): i64 {
      let t_10: i64 = add.i64(x_8, x_9)
      in t_10
    }),
    \(x_3: i64): i64 {
      let t_4: i64 = mul.i64(x_3, x_3)
      in t_4
    }
  )
  in scan_11
}
