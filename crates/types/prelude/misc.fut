-- Small conveniences.

def r32 (x: i32) : f32 = f32.i32 x

def t32 (x: f32) : i32 = i32.f32 x

def r64 (x: i32) : f64 = f64.i32 x

def t64 (x: f64) : i32 = i32.f64 x

def not (x: bool) : bool = !x

-- Identity functions that in Futhark steer the optimiser or debugging.
def opaque 't (x: t) : t = x

def trace 't (x: t) : t = x
