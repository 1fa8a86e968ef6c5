-- Automatic differentiation. `jvp2` gives the primal result and the
-- tangent, `vjp2` the primal result and the cotangent.

def jvp2 'a 'b (f: a -> b) (x: a) (dx: a) : (b, b) = __jvp2 f x dx

def vjp2 'a 'b (f: a -> b) (x: a) (dy: b) : (b, a) = __vjp2 f x dy

def jvp 'a 'b (f: a -> b) (x: a) (dx: a) : b = (__jvp2 f x dx).1

def vjp 'a 'b (f: a -> b) (x: a) (dy: b) : a = (__vjp2 f x dy).1
