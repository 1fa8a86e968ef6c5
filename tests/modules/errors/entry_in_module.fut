-- Entry points are declared at the top level only.
-- ==
-- error: Entry points may only be declared at the top level

module m = {
  entry f (x: i32) = x + 1
}
