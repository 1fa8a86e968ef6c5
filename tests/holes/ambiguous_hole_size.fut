-- A hole whose type has a size nothing determines could never be filled.
-- ==
-- error: Ambiguous size in the type '\[\]i32' of this hole

def main (b: bool) : []i32 = if b then ??? else ???
