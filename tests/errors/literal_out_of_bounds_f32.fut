-- A float literal may not round to infinity in its inferred type.
-- ==
-- error: literal 9.7e42 is out of bounds for its inferred type 'f32'

def main (x: f32) : f32 = x + 9.7e42
