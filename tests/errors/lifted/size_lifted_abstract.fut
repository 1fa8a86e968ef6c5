-- A value of an abstract size-lifted type (`type~`) may not instantiate
-- an unlifted type parameter, here the element type of `tabulate`.
-- ==
-- error: type 'a' is lifted

module PM (P: {type~ a val f : i64 -> a}) = {
  def gen (n: i64) = tabulate n P.f
}

module M = PM {type~ a = ?[k].[k]i64 def f = iota}

entry main (n: i64) = length (M.gen n)
