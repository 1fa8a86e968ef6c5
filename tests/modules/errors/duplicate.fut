-- A structure defines each name once.
-- ==
-- error: Duplicate definition of value 'f'

module m = {
  def f (x: i32) = x
  def f (x: i32) = x + 1
}
