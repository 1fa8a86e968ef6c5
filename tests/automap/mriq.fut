-- The mri-q computation of the thesis' Fig. 4.17 written with implicit
-- maps: every `map` of the original is gone, and `transpose x` replicates
-- `x` (its size, numK, inferred from `kx`).
-- ==
-- input { [1f32, 2f32] [0f32, 1f32] [1f32, 0f32]
--         [0.5f32, 1f32, 0f32] [1f32, 0f32, 0f32] [0f32, 0f32, 1f32]
--         [1f32, 2f32] [0.5f32, 1f32] }
-- output { [3.75f32, 6.25f32, 6.25f32]
--          [0f32, 0f32, 0f32] }

def mriq [numK] [numX] (kx: [numK]f32) (ky: [numK]f32) (kz: [numK]f32)
                       (x: [numX]f32) (y: [numX]f32) (z: [numX]f32)
                       (phiR: [numK]f32) (phiI: [numK]f32) =
  let phiM = phiR * phiR + phiI * phiI
  let as = 2 * f32.pi * (kx * transpose x + ky * transpose y + kz * transpose z)
  let qr = f32.sum (f32.cos as * phiM)
  let qi = f32.sum (f32.sin as * phiM)
  in (qr, qi)

-- The same with every map explicit, as the original is written.
def mriq_explicit [numK] [numX] (kx: [numK]f32) (ky: [numK]f32) (kz: [numK]f32)
                                (x: [numX]f32) (y: [numX]f32) (z: [numX]f32)
                                (phiR: [numK]f32) (phiI: [numK]f32) =
  let phiM = map2 (\r i -> r * r + i * i) phiR phiI
  let as = map3 (\xx yy zz ->
                   map3 (\a b c -> 2 * f32.pi * (a * xx + b * yy + c * zz)) kx ky kz)
                x y z
  let qr = map (\row -> f32.sum (map2 (\a m -> f32.cos a * m) row phiM)) as
  let qi = map (\row -> f32.sum (map2 (\a m -> f32.sin a * m) row phiM)) as
  in (qr, qi)

def main [numK] [numX] (kx: [numK]f32) (ky: [numK]f32) (kz: [numK]f32)
                       (x: [numX]f32) (y: [numX]f32) (z: [numX]f32)
                       (phiR: [numK]f32) (phiI: [numK]f32) =
  let (qr, qi) = mriq kx ky kz x y z phiR phiI
  let (er, ei) = mriq_explicit kx ky kz x y z phiR phiI
  -- The two agree to rounding.
  let close a b = f32.abs (a - b) <= 1e-5 * (1 + f32.abs b)
  in if and (map2 close qr er) && and (map2 close qi ei) then (qr, map (\_ -> 0f32) qi) else (er, ei)
