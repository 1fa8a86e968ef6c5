-- No maps or replicates can make a boolean an integer: the checker's own
-- error stands.
-- ==
-- error: cannot apply .\+. to the operand

def main (xs: []i32) = xs + [true]
