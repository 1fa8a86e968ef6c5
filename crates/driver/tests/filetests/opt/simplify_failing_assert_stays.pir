-- pass: simplify
-- run: main -1.0 => error: x must be positive
-- run: main 2.0 => 2.0
-- An assertion that can fail stays (once: the repeat is the same check).

entry "main" = main : (f64) -> f64

fun main(x_0: f64): f64 {
  let t_1: bool = gt.f64(x_0, 0.0f64)
  let () = assert(t_1, "x must be positive")
  let t_2: bool = gt.f64(x_0, 0.0f64)
  let () = assert(t_2, "x must be positive")
  in x_0
}
-- expect:
entry "main" = main : (f64) -> f64

fun main(x_0: f64): f64 {
  let t_1: bool = gt.f64(x_0, 0.0f64)
  let () = assert(t_1, "x must be positive")
  in x_0
}
