-- A module whose type is an abstract non-lifted type may not define it
-- with an anonymous size: its values' sizes would be hidden.
-- ==
-- error: type 'mapper.info' is defined as '\[\]f32', which contains anonymous sizes, but the module type requires a non-lifted type

module edge (mapper: {type info}) = {
  def handle (_: i32) (info: mapper.info) = info
}

module m = edge {type info = []f32}

def main (x: i32) = x
