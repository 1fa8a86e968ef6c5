-- A hole whose array type has an unknown size (`[]`) is ambiguous too,
-- whether the size comes from a prelude function's parameter or from a
-- declared result type.
-- ==
-- error: Ambiguous size in the type '\[\]f32' of this hole, arising from its use as function argument.*size-polymorphic

def main = f32.sum ???
