-- A lambda may not consume what is bound outside it.
-- ==
-- error: Consuming variable "a", which is not consumable: it is free in this lambda or loop body

def main (n: i64) : []i64 =
  let a = iota n
  in map (\i -> let a[i] = 0 in i) (iota n)
