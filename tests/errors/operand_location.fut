-- An operand of the wrong type is named by its location in the text.
-- ==
-- error: cannot apply "/" to the operand at .*operand_location.fut:5:32-42, of type 'i32'

def main : f64 = (2.0 + 3.0) / (2 + 3i32)
