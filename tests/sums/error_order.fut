-- Sum types have equality but no ordering.
-- ==
-- error: sum type

def main (x: i32) : bool = (#foo x : #foo i32 | #bar) < #bar
