-- pass: simplify acc_red
-- run: grad [[1.0,2.0,3.0],[4.0,5.0,6.0]] [[1.0,-1.0],[2.0,0.5],[0.0,3.0]] [[1.0,2.0],[3.0,-4.0]] => [[-1.0, 3.0, 6.0], [7.0, 4.0, -12.0]] [[13.0, -14.0], [17.0, -16.0], [21.0, -18.0]]
-- run: grad empty([0][3]f64) [[1.0,-1.0],[2.0,0.5],[0.0,3.0]] empty([0][2]f64)
-- run: grad [[1.0],[2.0]] empty([1][0]f64) empty([2][0]f64)
-- run: grad [[1.0,2.0]] [[1.0],[2.0]] [[1.0,2.0]] => error: size mismatch
-- run: grad empty([2][0]f64) empty([0][3]f64) [[1.0,2.0,3.0],[4.0,5.0,6.0]]
-- run: grad [[2.0]] [[3.0]] [[5.0]] => [[15.0]] [[10.0]]
-- run: grad [[0.5,-1.5],[2.0,0.25],[1.0,1.0],[-3.0,0.5]] [[1.0,2.0,3.0,4.0,5.0],[-1.0,0.5,0.0,2.0,1.5]] [[1.0,0.0,2.0,-1.0,0.5],[0.0,1.0,1.0,3.0,-2.0],[2.5,-0.5,1.0,0.0,1.0],[1.0,1.0,1.0,1.0,1.0]]
-- The adjoint of matmul as AD writes it: the adjoint of a row of `a`
-- is an accumulator updated at `[k]` inside `map j` (over the columns
-- of `b`), an index that does not depend on `j`. The `map j` is split
-- (the adjoints of `b`'s columns stay behind), the value map fuses into
-- the updating map, and `j` moves inside: `map k (reduce (+) 0 (map j
-- (b[k][j] * c[i][j])))`, one update per `k` -- `c · bᵀ`, with `b`
-- read directly (the two transposes cancel). The adjoint of `b` is a
-- per-row `[p][m]` array, transposed and added at `[k, j]` in a 2-D
-- updating nest inside `map i`: the `withacc` of the row adjoint lets
-- go of it, the updating nest interchanges so the transpose cancels and
-- takes in the map producing the array, the `map i` is split, and `i`
-- sinks two levels to become `map k (map j (reduce (+) 0 (map i (a[i][k]
-- * c[i][j]))))` -- `aᵀ · c`. The forward sweep (`map_123`, kept only
-- for the sizes the adjoint checks) is gone.
entry "grad" = entry_grad : ([][]f64, [][]f64, [][]f64) -> ([][]f64, [][]f64)

fun entry_grad(arg_0: [?][?]f64, arg_1: [?][?]f64, arg_2: [?][?]f64): ([?][?]f64, [?][?]f64) {
  let n_3: i64 = size(arg_0, 0)
  let n_4: i64 = size(arg_0, 1)
  let n_5: i64 = size(arg_1, 0)
  let t_6: bool = eq.i64(n_4, n_5)
  let () = assert(t_6, "size mismatch: dimension 1 of `b` must be `m`, as elsewhere in the type")
  let n_7: i64 = size(arg_1, 1)
  let n_8: i64 = size(arg_2, 0)
  let t_9: bool = eq.i64(n_3, n_8)
  let () = assert(t_9, "size mismatch: dimension 1 of `c` must be `n`, as elsewhere in the type")
  let n_10: i64 = size(arg_2, 1)
  let t_11: bool = eq.i64(n_7, n_10)
  let () = assert(t_11, "size mismatch: dimension 2 of `c` must be `p`, as elsewhere in the type")
  let x_55: [?][?]f64 = arg_0
  let x_56: [?][?]f64 = arg_1
  let n_57: i64 = size(x_55, 0)
  let n_58: i64 = size(x_55, 1)
  let n_59: i64 = size(x_56, 0)
  let t_60: bool = eq.i64(n_58, n_59)
  let () = assert(t_60, "size mismatch: dimension 1 of `b` must be `m`, as elsewhere in the type")
  let map_78: [n_57][?]f64 = map(n_57, [x_55], \(x_61: [?]f64): [?]f64 {
    let a_62: [?][?]f64 = rearrange([1, 0], x_56)
    let n_63: i64 = size(a_62, 0)
    let map_77: [n_63]f64 = map(n_63, [a_62], \(x_64: [?]f64): f64 {
      let n_65: i64 = size(x_61, 0)
      let n_66: i64 = size(x_64, 0)
      let t_67: bool = eq.i64(n_65, n_66)
      let () = assert(t_67, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
      let map_71: [n_65]f64 = map(n_65, [x_61, x_64], \(x_68: f64, x_69: f64): f64 {
        let t_70: f64 = mul.f64(x_68, x_69)
        in t_70
      })
      let n_72: i64 = size(map_71, 0)
      let red_76: f64 = reduce(n_72, [map_71], [0.0f64], \(x_73: f64, x_74: f64): f64 {
        let t_75: f64 = add.f64(x_73, x_74)
        in t_75
      })
      in red_76
    })
    in map_77
  })
  let n_79: i64 = size(arg_2, 0)
  let t_80: bool = eq.i64(n_79, n_57)
  let () = assert(t_80, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let n_81: i64 = size(arg_2, 1)
  let n_82: i64 = size(map_78, 1)
  let t_83: bool = eq.i64(n_81, n_82)
  let () = assert(t_83, "size mismatch: dimension 2 of the adjoint passed to vjp differs from the value's")
  let n_84: i64 = size(x_56, 1)
  let t_85: [n_84]f64 = replicate(n_84, 0.0f64)
  let n_86: i64 = size(x_56, 0)
  let t_87: [n_86][n_84]f64 = replicate(n_86, t_85)
  let (withacc_166: [n_86][n_84]f64, withacc_167: [n_57][?]f64) = withacc(
    {[n_86, n_84], [t_87], [0.0f64], \(x_88: f64, x_89: f64): f64 {
      let t_90: f64 = add.f64(x_88, x_89)
      in t_90
    }},
    \(x_91: acc([n_86][n_84], f64)): (acc([n_86][n_84], f64), [n_57][?]f64) {
      let (adj_164: [n_57][?]f64, adj_165: acc([n_86][n_84], f64)) = map(n_57, [x_55, arg_2, x_91], \(x_92: [?]f64, adj_93: [?]f64, acc_94: acc([n_86][n_84], f64)): ([?]f64, acc([n_86][n_84], f64)) {
        let a_95: [?][?]f64 = rearrange([1, 0], x_56)
        let n_96: i64 = size(a_95, 0)
        let map_110: [n_96]f64 = map(n_96, [a_95], \(x_97: [?]f64): f64 {
          let n_98: i64 = size(x_92, 0)
          let n_99: i64 = size(x_97, 0)
          let t_100: bool = eq.i64(n_98, n_99)
          let () = assert(t_100, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
          let map_104: [n_98]f64 = map(n_98, [x_92, x_97], \(x_101: f64, x_102: f64): f64 {
            let t_103: f64 = mul.f64(x_101, x_102)
            in t_103
          })
          let n_105: i64 = size(map_104, 0)
          let red_109: f64 = reduce(n_105, [map_104], [0.0f64], \(x_106: f64, x_107: f64): f64 {
            let t_108: f64 = add.f64(x_106, x_107)
            in t_108
          })
          in red_109
        })
        let n_111: i64 = size(x_92, 0)
        let t_112: [n_111]f64 = replicate(n_111, 0.0f64)
        let (withacc_149: [n_111]f64, withacc_150: [n_96][?]f64) = withacc(
          {[n_111], [t_112], [0.0f64], \(x_113: f64, x_114: f64): f64 {
            let t_115: f64 = add.f64(x_113, x_114)
            in t_115
          }},
          \(x_116: acc([n_111], f64)): (acc([n_111], f64), [n_96][?]f64) {
            let (adj_147: [n_96][?]f64, adj_148: acc([n_111], f64)) = map(n_96, [a_95, adj_93, x_116], \(x_117: [?]f64, adj_118: f64, acc_119: acc([n_111], f64)): ([?]f64, acc([n_111], f64)) {
              let n_120: i64 = size(x_92, 0)
              let n_121: i64 = size(x_117, 0)
              let t_122: bool = eq.i64(n_120, n_121)
              let () = assert(t_122, "size mismatch: dimension 1 of `ys` must be `n`, as elsewhere in the type")
              let map_126: [n_120]f64 = map(n_120, [x_92, x_117], \(x_123: f64, x_124: f64): f64 {
                let t_125: f64 = mul.f64(x_123, x_124)
                in t_125
              })
              let n_127: i64 = size(map_126, 0)
              let red_131: f64 = reduce(n_127, [map_126], [0.0f64], \(x_128: f64, x_129: f64): f64 {
                let t_130: f64 = add.f64(x_128, x_129)
                in t_130
              })
              let t_132: [n_127]f64 = replicate(n_127, adj_118)
              let (adj_139: [n_120]f64, adj_140: [n_120]f64) = map(n_120, [x_92, x_117, t_132], \(x_133: f64, x_134: f64, adj_135: f64): (f64, f64) {
                let t_136: f64 = mul.f64(x_133, x_134)
                let t_137: f64 = mul.f64(x_134, adj_135)
                let t_138: f64 = mul.f64(x_133, adj_135)
                in (t_137, t_138)
              })
              let t_141: [n_120]i64 = iota.i64(n_120, 0i64, 1i64)
              let map_146: acc([n_111], f64) = map(n_120, [t_141, adj_139, acc_119], \(x_142: i64, x_143: f64, x_144: acc([n_111], f64)): acc([n_111], f64) {
                let acc_145: acc([n_111], f64) = upd(x_144, [x_142], [x_143])
                in acc_145
              })
              in (adj_140, map_146)
            })
            in (adj_148, adj_147)
          }
        )
        let t_151: [?][n_96]f64 = rearrange([1, 0], withacc_150)
        let n_152: i64 = size(t_151, 0)
        let t_153: [n_152]i64 = iota.i64(n_152, 0i64, 1i64)
        let map_163: acc([n_86][n_84], f64) = map(n_152, [t_153, t_151, acc_94], \(x_154: i64, x_155: [n_96]f64, x_156: acc([n_86][n_84], f64)): acc([n_86][n_84], f64) {
          let t_157: [n_96]i64 = iota.i64(n_96, 0i64, 1i64)
          let map_162: acc([n_86][n_84], f64) = map(n_96, [t_157, x_155, x_156], \(x_158: i64, x_159: f64, x_160: acc([n_86][n_84], f64)): acc([n_86][n_84], f64) {
            let acc_161: acc([n_86][n_84], f64) = upd(x_160, [x_154, x_158], [x_159])
            in acc_161
          })
          in map_162
        })
        in (withacc_149, map_163)
      })
      in (adj_165, adj_164)
    }
  )
  let ad_52: [?][?]f64 = map_78
  let ad_53: [?][?]f64 = withacc_167
  let ad_54: [?][?]f64 = withacc_166
  in (ad_53, ad_54)
}
-- expect:
entry "grad" = entry_grad : ([][]f64, [][]f64, [][]f64) -> ([][]f64, [][]f64)

fun entry_grad(arg_0: [?][?]f64, arg_1: [?][?]f64, arg_2: [?][?]f64): ([?][?]f64, [?][?]f64) {
  let n_3: i64 = size(arg_0, 0)
  let n_4: i64 = size(arg_0, 1)
  let n_5: i64 = size(arg_1, 0)
  let t_6: bool = eq.i64(n_4, n_5)
  let () = assert(t_6, "size mismatch: dimension 1 of `b` must be `m`, as elsewhere in the type")
  let n_7: i64 = size(arg_1, 1)
  let n_8: i64 = size(arg_2, 0)
  let t_9: bool = eq.i64(n_3, n_8)
  let () = assert(t_9, "size mismatch: dimension 1 of `c` must be `n`, as elsewhere in the type")
  let n_10: i64 = size(arg_2, 1)
  let t_11: bool = eq.i64(n_7, n_10)
  let () = assert(t_11, "size mismatch: dimension 2 of `c` must be `p`, as elsewhere in the type")
  let t_80: bool = eq.i64(n_8, n_3)
  let () = assert(t_80, "size mismatch: dimension 1 of the adjoint passed to vjp differs from the value's")
  let nonempty_168: bool = lt.i64(0i64, n_3)
  let n_82: i64 = if nonempty_168 : i64 then {
    in n_7
  } else {
    in 0i64
  }
  let t_83: bool = eq.i64(n_10, n_82)
  let () = assert(t_83, "size mismatch: dimension 2 of the adjoint passed to vjp differs from the value's")
  let adj_164: [n_3][?]f64 = map(n_3, [arg_2], \(adj_93: [?]f64): [?]f64 {
    let t_178: [n_4]i64 = iota.i64(n_4, 0i64, 1i64)
    let withacc_149: [n_4]f64 = map(n_4, [arg_1, t_178], \(x_186: [?]f64, x_181: i64): f64 {
      let vals_187: [n_7]f64 = map(n_7, [adj_93, x_186], \(adj_176: f64, x_180: f64): f64 {
        let t_183: f64 = mul.f64(x_180, adj_176)
        in t_183
      })
      let sum_188: f64 = reduce_comm(n_7, [vals_187], [0.0f64], \(x_189: f64, x_190: f64): f64 {
        let t_191: f64 = add.f64(x_189, x_190)
        in t_191
      })
      in sum_188
    })
    in withacc_149
  })
  let t_258: [n_7]i64 = iota.i64(n_7, 0i64, 1i64)
  let iota_259: [n_4]i64 = iota.i64(n_4, 0i64, 1i64)
  let tr_273: [?][?]f64 = rearrange([1, 0], arg_0)
  let withacc_166: [n_5][n_7]f64 = map(n_4, [tr_273, arg_1, iota_259], \(x_274: [?]f64, x_261: [?]f64, x_262: i64): [n_7]f64 {
    let tr_278: [?][?]f64 = rearrange([1, 0], arg_2)
    let elems_289: [n_7]f64 = map(n_7, [t_258, tr_278], \(x_265: i64, adj_279: [?]f64): f64 {
      let vals_280: [n_3]f64 = map(n_3, [x_274, adj_279], \(x_260: f64, adj_266: f64): f64 {
        let t_269: f64 = mul.f64(x_260, adj_266)
        in t_269
      })
      let sum_281: f64 = reduce_comm(n_3, [vals_280], [0.0f64], \(x_282: f64, x_283: f64): f64 {
        let t_284: f64 = add.f64(x_282, x_283)
        in t_284
      })
      in sum_281
    })
    in elems_289
  })
  in (adj_164, withacc_166)
}
