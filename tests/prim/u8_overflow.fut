-- u8 arithmetic wraps modulo 256; division and remainder are unsigned.
-- ==
-- input { 200u8 100u8 } output { 44u8 100u8 32u8 2u8 0u8 64u8 199u8 }
-- input { 3u8 5u8 } output { 8u8 254u8 15u8 0u8 3u8 9u8 2u8 }
-- input { 16u8 16u8 } output { 32u8 0u8 0u8 1u8 0u8 0u8 15u8 }
-- input { 255u8 255u8 } output { 254u8 0u8 1u8 1u8 0u8 1u8 254u8 }

def main (a: u8) (b: u8) : (u8, u8, u8, u8, u8, u8, u8) =
  (a + b, a - b, a * b, a / b, a % b, a ** 2, u8.highest + a)
