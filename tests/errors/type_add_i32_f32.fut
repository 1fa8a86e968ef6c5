-- Arithmetic operands must have the same type: adding an i32 to an f32 is
-- a type error (there are no implicit conversions).
-- ==
-- error: [Tt]ype|[Mm]ismatch|[Uu]nify|[Ee]xpected|[Cc]annot

def main (x: i32) (y: f32) : f32 = x + y
