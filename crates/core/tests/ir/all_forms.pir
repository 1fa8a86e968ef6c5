entry "main" = entry_main : ([]f32, *[]i32, i64) -> ([]f32, f32, [][]f32, []i32, []f64)
entry "consts" = consts : () -> (i8, i16, i32, i64, u8, u16, u32, u64, f16, f16, f32, f32, f64, f64, f64, bool)

fun twice(x_1: f32): f32 {
  let t_2: f32 = mul.f32(x_1, 2.0f32)
  in t_2
}

fun consts(): (i8, i16, i32, i64, u8, u16, u32, u64, f16, f16, f32, f32, f64, f64, f64, bool) {
  let () = assert(true, "quote \" backslash \\ newline \n tab \t nul \0 bell \u{7} é")
  in (-128i8, 32767i16, -2147483648i32, -9223372036854775808i64, 255u8, 65535u16, 4294967295u32, 18446744073709551615u64, 0.0999755859375f16, f16.nan, 1e-7f32, -f32.inf, -0.0f64, 5e-324f64, 1.7976931348623157e308f64, false)
}

fun entry_main(xs_3: [?]f32, is_4: [?]i32, k_5: i64): ([?]f32, f32, [?][?]f32, [?]i32, [?]f64) {
  let n_6: i64 = size(xs_3, 0)
  #[unroll]
  #[stripmine(2)]
  #[tag(a, -3, b(c))]
  let (s_7: [n_6]f32, r_8: f32, m_9: [n_6]f32) = screma(n_6, [xs_3],
    scan([0.0f32], \(a_10: f32, b_11: f32): f32 {
      let t_12: f32 = add.f32(a_10, b_11)
      in t_12
    }),
    reduce_comm([-f32.inf], \(a_13: f32, b_14: f32): f32 {
      let t_15: f32 = max.f32(a_13, b_14)
      in t_15
    }),
    \(x_16: f32): (f32, f32, f32) {
      let t_17: f32 = apply twice(x_16)
      in (x_16, x_16, t_17)
    }
  )
  let r_18: [n_6]f32 = rotate(k_5, s_7)
  let v_19: [2][3]f32 = reshape([2i64, 3i64], r_18)
  let w_20: [?]f32 = flatten(v_19)
  let u_21: [3][2]f32 = rearrange([1, 0], v_19)
  let c_22: [?]f32 = concat(m_9, w_20)
  let q_23: [?]f32 = copy(c_22)
  let q_24: [?]f32 = reverse(q_23)
  let q_25: [?]f32 = q_24 with [0i64] = f32.nan
  let e_26: f32 = q_25[1i64]
  let z_27: [?]f32 = q_25[k_5:+3i64*-1i64]
  let g_28: [2][3]f32 = unflatten(2i64, 3i64, w_20)
  let h_29: [2]f32 = g_28[0i64:+2i64*1i64, 2i64]
  let io_30: [n_6]i32 = iota.i32(n_6, 0i32, 1i32)
  let sc_31: [n_6][2]i32 = scratch.i32([n_6, 2i64])
  let rep_32: [n_6]i32 = replicate(n_6, 7i32)
  let ok_33: bool = le.i64(k_5, n_6)
  let () = assert(ok_33, "k = {} is larger than {}", [k_5, n_6])
  let t_34: f32 = neg.f32(e_26)
  let t_35: f32 = fma.f32(t_34, e_26, r_8)
  let t_36: f64 = cast.f32.f64(t_35)
  let t_37: i64 = bitcast.f64.i64(t_36)
  let t_38: bool = isnan.f32(t_35)
  let (b_39: bool, p_40: f64) = if t_38 : (bool, f64) then {
    in (false, 0.0f64)
  } else {
    let t_41: f64 = sqrt.f64(t_36)
    in (true, t_41)
  }
  let (i_42: bool, acc_43: f64) = loop (i_44: bool = b_39, acc_45: f64 = p_40) while i_44 {
    let t_95: f64 = mul.f64(acc_45, 0.5f64)
    let t_96: bool = gt.f64(t_95, 1.0f64)
    in (t_96, t_95)
  }
  let cnt_46: u8 = loop (c_47: u8 = 0u8) for j_48: u8 < 10u8 {
    let t_49: u8 = add.u8(c_47, j_48)
    in t_49
  }
  let m2_50: [n_6]i32 = map(n_6, [io_30, rep_32], \(a_51: i32, b_52: i32): i32 {
    let t_53: i32 = add.i32(a_51, b_52)
    in t_53
  })
  let red_54: i32 = reduce(n_6, [m2_50], [0i32], \(a_55: i32, b_56: i32): i32 {
    let t_57: i32 = add.i32(a_55, b_56)
    in t_57
  })
  let sca_58: [n_6]i32 = scan(n_6, [m2_50], [0i32], \(a_59: i32, b_60: i32): i32 {
    let t_61: i32 = add.i32(a_59, b_60)
    in t_61
  })
  let idx_62: [n_6]i64 = iota.i64(n_6, 0i64, 1i64)
  let his_63: [?]i32 = hist(n_6, [is_4], [idx_62], [sca_58], [0i32], \(a_64: i32, b_65: i32): i32 {
    let t_66: i32 = add.i32(a_64, b_65)
    in t_66
  })
  let scv_97: [n_6][2]i32 = copy(sc_31)
  let (sa_67: [?]i32, sb_68: [n_6][2]i32) = scatter(n_6, his_63[idx_62] <- m2_50, sc_31[idx_62] <- scv_97)
  let ad_69: [?]f64 = scratch.f64([n_6])
  let ad_70: [?]f64 = scratch.f64([n_6])
  let (wa_71: [?]f64, wb_72: [?]f64, x_73: f64) = withacc(
    {[n_6], [ad_69]},
    {[n_6], [ad_70], [0.0f64], \(a_74: f64, b_75: f64): f64 {
      let t_76: f64 = add.f64(a_74, b_75)
      in t_76
    }},
    \(x_77: acc([n_6], f64), y_78: acc([n_6], f64)): (acc([?], f64), acc([?], f64), f64) {
      let x_79: acc([?], f64) = upd(x_77, [0i64], [1.0f64])
      let y_80: acc([?], f64) = upd(y_78, [0i64], [2.0f64])
      in (x_79, y_80, 3.0f64)
    }
  )
  let (jv_81: f64, jt_82: f64) = jvp(\(x_83: f64): f64 {
    let t_84: f64 = mul.f64(x_83, x_83)
    in t_84
  }, [x_73], [1.0f64])
  let (vv_85: f64, va_86: f64) = vjp(\(x_87: f64): f64 {
    let t_88: f64 = exp.f64(x_87)
    in t_88
  }, [jv_81], [1.0f64])
  let cv_89: f64 = with_vjp(\(x_90: f64): f64 {
    let t_91: f64 = mul.f64(x_90, 2.0f64)
    in t_91
  }, \(y_92: f64, a_93: f64): f64 {
    let t_94: f64 = mul.f64(a_93, 10.0f64)
    in t_94
  }, [va_86])
  in (z_27, t_35, g_28, sa_67, wa_71)
}
