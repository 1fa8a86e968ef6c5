//! The C backend's matrix-multiply kernel (`parad_imp`'s tiled lowering
//! of map-reduce nests of matrix-multiply shape) against the interpreter,
//! on sizes that exercise every edge of its blocking (0, 1, primes,
//! partial register tiles, more rows than a cache block, products longer
//! than a block of the sum, more columns than a panel), in every layout
//! of the operands, in `f64` and `f32`, with threads over rows. The
//! elements are small multiples of 1/8, so every partial sum is exact and
//! any order of summation gives the interpreter's result bit for bit: the
//! comparison is exact. Skipped without a C compiler.

use parad_cgen::build::{compiler_version, BuildOptions};
use parad_driver::{compile_source, Config, Interpreted, Loaded, C};
use parad_values::{ArrayData, ArrayValue, Value};

const PROGRAM: &str = "\
def matmul [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 =
  map (\\row -> map (\\col -> f64.sum (map2 (*) row col)) (transpose b)) a
entry mm [n][m][p] (a: [n][m]f64) (b: [m][p]f64) : [n][p]f64 = matmul a b
entry mm_bt [n][m][p] (a: [n][m]f64) (bt: [p][m]f64) : [n][p]f64 =
  map (\\row -> map (\\col -> reduce (+) 0 (map2 (*) col row)) bt) a
entry mm_at [n][m][p] (at: [m][n]f64) (b: [m][p]f64) : [n][p]f64 = matmul (transpose at) b
entry mm_f32 [n][m][p] (a: [n][m]f32) (b: [m][p]f32) : [n][p]f32 =
  map (\\row -> map (\\col -> f32.sum (map2 (*) row col)) (transpose b)) a
entry mm_slices [n][m][p] (a: [n][m]f64) (b: [m][p]f64) = matmul a[1:, 1:] b[1:, :]
";

/// The product as one redomap (what fusion makes of `map` then `reduce`),
/// with the copies AD leaves, compiled without passes (which would split
/// the redomap and remove the copies).
const REDOMAP: &str = "\
entry \"mm\" = mm : ([][]f64, [][]f64) -> [][]f64

fun mm(a_1: [?][?]f64, b_2: [?][?]f64): [?][?]f64 {
  let n_3: i64 = size(a_1, 0)
  let m_4: i64 = size(a_1, 1)
  let p_5: i64 = size(b_2, 1)
  let bt_6: [?][?]f64 = rearrange([1, 0], b_2)
  let c_7: [n_3][p_5]f64 = map(n_3, [a_1], \\(row_8: [?]f64): [p_5]f64 {
    let r_9: [p_5]f64 = map(p_5, [bt_6], \\(col_10: [?]f64): f64 {
      let s_11: f64 = screma(m_4, [row_8, col_10],
        reduce([0.0f64], \\(x_12: f64, y_13: f64): f64 {
          let z_14: f64 = add.f64(x_12, y_13)
          in z_14
        }),
        \\(u_15: f64, v_16: f64): f64 {
          let v_18: f64 = v_16
          let w_17: f64 = mul.f64(v_18, u_15)
          let w_19: f64 = w_17
          in w_19
        })
      in s_11
    })
    in r_9
  })
  in c_7
}
";

/// Every map written as a screma without scans or reductions (as fusion
/// may leave them), B given transposed.
const SCREMA_MAPS: &str = "\
entry \"screma_maps\" = mm : ([][]f64, [][]f64) -> [][]f64

fun mm(a_1: [?][?]f64, bt_2: [?][?]f64): [?][?]f64 {
  let n_3: i64 = size(a_1, 0)
  let m_4: i64 = size(a_1, 1)
  let p_5: i64 = size(bt_2, 0)
  let c_7: [n_3][p_5]f64 = screma(n_3, [a_1], \\(row_8: [?]f64): [p_5]f64 {
    let r_9: [p_5]f64 = screma(p_5, [bt_2], \\(col_10: [?]f64): f64 {
      let t_11: [m_4]f64 = screma(m_4, [col_10, row_8], \\(u_15: f64, v_16: f64): f64 {
        let w_17: f64 = mul.f64(u_15, v_16)
        in w_17
      })
      let s_12: f64 = reduce_comm(m_4, [t_11], [0.0f64], \\(x_13: f64, y_14: f64): f64 {
        let z_18: f64 = add.f64(y_14, x_13)
        in z_18
      })
      in s_12
    })
    in r_9
  })
  in c_7
}
";

/// (n, m, p): the product is n×m by m×p.
const SIZES: &[(usize, usize, usize)] = &[
    (0, 0, 0),
    (0, 3, 4),
    (3, 0, 4),
    (3, 4, 0),
    (1, 1, 1),
    (2, 3, 5),
    (6, 8, 8),
    (7, 11, 13),
    (12, 16, 16),
    (13, 17, 19),
    (41, 37, 43),
    (73, 5, 9),
    (5, 257, 7),
    (3, 4, 1030),
    (2, 3, 2053),
    (97, 40, 50),
    (151, 31, 37),
];

fn have_cc() -> bool {
    let ok = compiler_version(&BuildOptions::from_env().cc).is_ok();
    if !ok {
        eprintln!("note: no C compiler; the kernel's tests are skipped");
    }
    ok
}

/// A deterministic generator of multiples of 1/8 in [-2, 2).
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % 32) as f64 / 8.0 - 2.0
    }

    fn matrix(&mut self, rows: usize, cols: usize, f32: bool) -> Value {
        let xs: Vec<f64> = (0..rows * cols).map(|_| self.next()).collect();
        let data = if f32 {
            ArrayData::F32(xs.iter().map(|&x| x as f32).collect())
        } else {
            ArrayData::F64(xs)
        };
        Value::Array(ArrayValue::new(vec![rows, cols], data).unwrap())
    }
}

/// The arguments of `entry` for an n×m by m×p product.
fn args(entry: &str, (n, m, p): (usize, usize, usize), g: &mut Gen) -> Vec<Value> {
    match entry {
        "mm_at" => vec![g.matrix(m, n, false), g.matrix(m, p, false)],
        "mm_f32" => vec![g.matrix(n, m, true), g.matrix(m, p, true)],
        "mm_bt" | "screma_maps" => vec![g.matrix(n, m, false), g.matrix(p, m, false)],
        "mm_slices" => vec![g.matrix(n + 1, m + 1, false), g.matrix(m + 1, p, false)],
        _ => vec![g.matrix(n, m, false), g.matrix(m, p, false)],
    }
}

/// Runs every entry on every size on both backends; the results must be
/// equal.
fn agree(name: &str, text: &str, config: Config, entries: &[&str], calls: &[(&str, usize)]) {
    let compiled = compile_source(name, text, &config).unwrap_or_else(|e| panic!("{e:?}"));
    let source = parad_cgen::emit::emit(&compiled.program).unwrap().source;
    for (call, count) in calls {
        assert_eq!(
            source.matches(call).count(),
            *count,
            "the kernel is not called as expected ({call})"
        );
    }
    let again = compile_source(name, text, &config).unwrap();
    let mut interp = Interpreted(again);
    let mut c = C::new(config, Some(2)).load_compiled(compiled).unwrap();
    let mut g = Gen(1);
    for entry in entries {
        for &size in SIZES {
            let a = args(entry, size, &mut g);
            let want = interp.call(entry, a.clone()).unwrap();
            let got = c
                .call(entry, a)
                .unwrap_or_else(|e| panic!("{entry} {size:?}: {e:?}"));
            assert!(want == got, "{entry} {size:?}: the backends differ");
        }
    }
}

#[test]
fn kernel_agrees_with_the_interpreter() {
    if !have_cc() {
        return;
    }
    let entries = ["mm", "mm_bt", "mm_at", "mm_f32", "mm_slices"];
    let calls = [("parad_gemm_f64(m_", 4), ("parad_gemm_f32(m_", 1)];
    agree("mm.fut", PROGRAM, Config::default(), &entries, &calls);
}

#[test]
fn redomap_form_agrees_with_the_interpreter() {
    if !have_cc() {
        return;
    }
    let config = Config {
        passes: vec![],
        ..Config::default()
    };
    agree(
        "redomap.pir",
        REDOMAP,
        config,
        &["mm"],
        &[("parad_gemm_f64(m_", 1)],
    );
}

#[test]
fn screma_maps_agree_with_the_interpreter() {
    if !have_cc() {
        return;
    }
    let config = Config {
        passes: vec![],
        ..Config::default()
    };
    agree(
        "screma_maps.pir",
        SCREMA_MAPS,
        config,
        &["screma_maps"],
        &[("parad_gemm_f64(m_", 1)],
    );
}
