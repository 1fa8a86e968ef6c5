-- Arrays of records: built by map, reduced with a record operator,
-- projected with field sections, and updated per element.
-- ==
-- input { [1.0f32, 2.0f32, 3.0f32] [10i32, 20i32, 30i32] } output { [2.0f32, 4.0f32, 6.0f32] [10i32, 20i32, 30i32] 12.0f32 3i32 }
-- input { empty([0]f32) empty([0]i32) } output { empty([0]f32) empty([0]i32) 0.0f32 0i32 }

type particle = {mass: f32, id: i32}

def combine (a: {total: f32, count: i32}) (b: {total: f32, count: i32}) =
  {total = a.total + b.total, count = a.count + b.count}

def main [n] (masses: [n]f32) (ids: [n]i32) : ([]f32, []i32, f32, i32) =
  let ps : [n]particle = map2 (\m i -> {mass = m, id = i}) masses ids
  let heavier = map (\p -> p with mass = p.mass * 2.0) ps
  let s = reduce combine {total = 0.0, count = 0} (map (\p -> {total = p.mass, count = 1}) heavier)
  in (map (.mass) heavier, map (.id) ps, s.total, s.count)
