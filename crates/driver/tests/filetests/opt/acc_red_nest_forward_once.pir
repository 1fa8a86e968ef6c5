-- pass: simplify acc_red
-- run: grad [[[1.0, 2.0], [0.5, -1.0]]] [[[1.0, 1.0], [2.0, -3.0]]]
-- run: grad empty([0][2][3]f64) empty([0][2][3]f64)
-- run: grad empty([2][0][3]f64) empty([2][0][3]f64)
-- run: grad [[[1.0]]] [[[1.0, 2.0]]] => error: size mismatch
-- A perfect nest of three maps: reverse AD re-runs the forward sweep on
-- entering every scope, and only the copies the return sweep reads may
-- stay. The copy at the outermost level (read only for its sizes, which
-- the adjoint's size checks compare) goes once its sizes come from the
-- input; the expectation has exactly one `sin`, in the innermost lambda
-- of the return sweep.
entry "grad" = entry_grad : ([][][]f64, [][][]f64) -> [][][]f64

fun entry_grad(arg_0: [?][?][?]f64, arg_1: [?][?][?]f64): [?][?][?]f64 {
  let n_2: i64 = size(arg_0, 0)
  let n_3: i64 = size(arg_0, 1)
  let n_4: i64 = size(arg_0, 2)
  let n_5: i64 = size(arg_1, 0)
  let t_6: bool = eq.i64(n_2, n_5)
  let () = assert(t_6, "size mismatch: dimension 1 of `adj` must be `a`, as elsewhere in the type")
  let n_7: i64 = size(arg_1, 1)
  let t_8: bool = eq.i64(n_3, n_7)
  let () = assert(t_8, "size mismatch: dimension 2 of `adj` must be `b`, as elsewhere in the type")
  let n_9: i64 = size(arg_1, 2)
  let t_10: bool = eq.i64(n_4, n_9)
  let () = assert(t_10, "size mismatch: dimension 3 of `adj` must be `c`, as elsewhere in the type")
  let x_28: [?][?][?]f64 = arg_0
  let n_29: i64 = size(x_28, 0)
  let map_39: [n_29][?][?]f64 = map(n_29, [x_28], \(x_30: [?][?]f64): [?][?]f64 {
    let n_31: i64 = size(x_30, 0)
    let map_38: [n_31][?]f64 = map(n_31, [x_30], \(x_32: [?]f64): [?]f64 {
      let n_33: i64 = size(x_32, 0)
      let map_37: [n_33]f64 = map(n_33, [x_32], \(x_34: f64): f64 {
        let t_35: f64 = sin.f64(x_34)
        let t_36: f64 = mul.f64(t_35, x_34)
        in t_36
      })
      in map_37
    })
    in map_38
  })
  let n_40: i64 = size(arg_1, 0)
  let t_41: bool = eq.i64(n_40, n_29)
  let () = assert(t_41, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let n_42: i64 = size(arg_1, 1)
  let n_43: i64 = size(map_39, 1)
  let t_44: bool = eq.i64(n_42, n_43)
  let () = assert(t_44, "size mismatch: dimension 2 of the adjoint passed to vjp differs from the value's")
  let n_45: i64 = size(arg_1, 2)
  let n_46: i64 = size(map_39, 2)
  let t_47: bool = eq.i64(n_45, n_46)
  let () = assert(t_47, "size mismatch: dimension 3 of the adjoint passed to vjp differs from the value's")
  let adj_76: [n_29][?][?]f64 = map(n_29, [x_28, arg_1], \(x_48: [?][?]f64, adj_49: [?][?]f64): [?][?]f64 {
    let n_50: i64 = size(x_48, 0)
    let map_57: [n_50][?]f64 = map(n_50, [x_48], \(x_51: [?]f64): [?]f64 {
      let n_52: i64 = size(x_51, 0)
      let map_56: [n_52]f64 = map(n_52, [x_51], \(x_53: f64): f64 {
        let t_54: f64 = sin.f64(x_53)
        let t_55: f64 = mul.f64(t_54, x_53)
        in t_55
      })
      in map_56
    })
    let adj_75: [n_50][?]f64 = map(n_50, [x_48, adj_49], \(x_58: [?]f64, adj_59: [?]f64): [?]f64 {
      let n_60: i64 = size(x_58, 0)
      let map_64: [n_60]f64 = map(n_60, [x_58], \(x_61: f64): f64 {
        let t_62: f64 = sin.f64(x_61)
        let t_63: f64 = mul.f64(t_62, x_61)
        in t_63
      })
      let adj_74: [n_60]f64 = map(n_60, [x_58, adj_59], \(x_65: f64, adj_66: f64): f64 {
        let t_67: f64 = sin.f64(x_65)
        let t_68: f64 = mul.f64(t_67, x_65)
        let t_69: f64 = mul.f64(x_65, adj_66)
        let t_70: f64 = mul.f64(t_67, adj_66)
        let t_71: f64 = cos.f64(x_65)
        let t_72: f64 = mul.f64(t_71, t_69)
        let t_73: f64 = add.f64(t_70, t_72)
        in t_73
      })
      in adj_74
    })
    in adj_75
  })
  let ad_26: [?][?][?]f64 = map_39
  let ad_27: [?][?][?]f64 = adj_76
  in ad_27
}
-- expect:
entry "grad" = entry_grad : ([][][]f64, [][][]f64) -> [][][]f64

fun entry_grad(arg_0: [?][?][?]f64, arg_1: [?][?][?]f64): [?][?][?]f64 {
  let n_2: i64 = size(arg_0, 0)
  let n_3: i64 = size(arg_0, 1)
  let n_4: i64 = size(arg_0, 2)
  let n_5: i64 = size(arg_1, 0)
  let t_6: bool = eq.i64(n_2, n_5)
  let () = assert(t_6, "size mismatch: dimension 1 of `adj` must be `a`, as elsewhere in the type")
  let n_7: i64 = size(arg_1, 1)
  let t_8: bool = eq.i64(n_3, n_7)
  let () = assert(t_8, "size mismatch: dimension 2 of `adj` must be `b`, as elsewhere in the type")
  let n_9: i64 = size(arg_1, 2)
  let t_10: bool = eq.i64(n_4, n_9)
  let () = assert(t_10, "size mismatch: dimension 3 of `adj` must be `c`, as elsewhere in the type")
  let t_41: bool = eq.i64(n_5, n_2)
  let () = assert(t_41, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let nonempty_77: bool = lt.i64(0i64, n_2)
  let n_43: i64 = if nonempty_77 : i64 then {
    in n_3
  } else {
    in 0i64
  }
  let t_44: bool = eq.i64(n_7, n_43)
  let () = assert(t_44, "size mismatch: dimension 2 of the adjoint passed to vjp differs from the value's")
  let n_80: i64 = min.i64(n_2, n_3)
  let nonempty_81: bool = lt.i64(0i64, n_80)
  let n_46: i64 = if nonempty_81 : i64 then {
    in n_4
  } else {
    in 0i64
  }
  let t_47: bool = eq.i64(n_9, n_46)
  let () = assert(t_47, "size mismatch: dimension 3 of the adjoint passed to vjp differs from the value's")
  let adj_76: [n_2][?][?]f64 = map(n_2, [arg_0, arg_1], \(x_48: [?][?]f64, adj_49: [?][?]f64): [?][?]f64 {
    let adj_75: [n_3][?]f64 = map(n_3, [x_48, adj_49], \(x_58: [?]f64, adj_59: [?]f64): [?]f64 {
      let adj_74: [n_4]f64 = map(n_4, [x_58, adj_59], \(x_65: f64, adj_66: f64): f64 {
        let t_67: f64 = sin.f64(x_65)
        let t_69: f64 = mul.f64(x_65, adj_66)
        let t_70: f64 = mul.f64(t_67, adj_66)
        let t_71: f64 = cos.f64(x_65)
        let t_72: f64 = mul.f64(t_71, t_69)
        let t_73: f64 = add.f64(t_70, t_72)
        in t_73
      })
      in adj_74
    })
    in adj_75
  })
  in adj_76
}
