-- A loop parameter's size cannot be a size that the body itself makes.
-- ==
-- error: existential size created inside the loop body

def hide [m] (xs: [m]i32) : ?[k].[k]i32 = filter (!= 0) xs

def main [n] (flags: [n]bool) =
  loop (ws, shp) = (flags, [i32.i64 n]) for _i < 2 do
    let hidden = hide shp
    let _ = zip hidden ws
    in (ws ++ ws, shp ++ shp)
