mod programs;

use programs::*;

#[test]
fn dot_product_text() {
    let expected = r#"entry "main" = dot : (i64, []f32, []f32) -> f32

fun dot(n_0: i64, xs_1: [n_0]f32, ys_2: [n_0]f32): f32 {
  let map_6: [n_0]f32 = map(n_0, [xs_1, ys_2], \(x_3: f32, x_4: f32): f32 {
    let t_5: f32 = mul.f32(x_3, x_4)
    in t_5
  })
  let red_10: f32 = reduce_comm(n_0, [map_6], [0.0f32], \(x_7: f32, x_8: f32): f32 {
    let t_9: f32 = add.f32(x_7, x_8)
    in t_9
  })
  in red_10
}"#;
    assert_eq!(dot().to_string(), expected);
}

#[test]
fn loops_and_ifs_text() {
    let expected = r#"entry "main" = collatz : (i64) -> i64

fun collatz(x_0: i64): i64 {
  let t_1: bool = gt.i64(x_0, 1i64)
  let (loopres_13: bool, loopres_14: i64, loopres_15: i64) = loop (p_2: bool = t_1, p_3: i64 = x_0, p_4: i64 = 0i64) while p_2 {
    let t_5: i64 = mod.i64(p_3, 2i64)
    let t_6: bool = eq.i64(t_5, 0i64)
    let t_10: i64 = if t_6 : i64 then {
      let t_7: i64 = div.i64(p_3, 2i64)
      in t_7
    } else {
      let t_8: i64 = mul.i64(p_3, 3i64)
      let t_9: i64 = add.i64(t_8, 1i64)
      in t_9
    }
    let t_11: i64 = add.i64(p_4, 1i64)
    let t_12: bool = gt.i64(t_10, 1i64)
    in (t_12, t_10, t_11)
  }
  in loopres_15
}"#;
    let got = collatz().to_string();
    assert_eq!(got, expected, "\n{got}");
}

#[test]
fn scan_hist_scatter_text() {
    let h = histogram().to_string();
    assert!(
        h.contains("let t_3: [m_0]f32 = replicate(m_0, 0.0f32)"),
        "{h}"
    );
    assert!(h.contains("let n_4: i64 = size(is_1, 0)"), "{h}");
    assert!(
        h.contains("hist(n_4, [t_3], [is_1], [vs_2], [0.0f32], \\(x_5: f32, x_6: f32): f32 {"),
        "{h}"
    );
    let s = scatter().to_string();
    assert!(s.contains("scatter(n_4, t_3[is_1] <- vs_2)"), "{s}");
    let a = affine_scan().to_string();
    assert!(a.contains("scan(n_2, [as_0, bs_1], [1i64, 0i64], \\(x_3: i64, x_4: i64, x_5: i64, x_6: i64): (i64, i64) {"), "{a}");
    let l = squares_loop().to_string();
    assert!(
        l.contains("loop (p_2: [n_0]i64 = t_1) for i_3: i64 < n_0 {"),
        "{l}"
    );
    assert!(
        l.contains("let t_5: [n_0]i64 = p_2 with [i_3] = t_4"),
        "{l}"
    );
}
