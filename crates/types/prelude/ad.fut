-- Automatic differentiation. `jvp2` gives the primal result and the
-- tangent, `vjp2` the primal result and the cotangent.

def jvp2 'a 'b (f: a -> b) (x: a) (dx: a) : (b, b) = __jvp2 f x dx

def vjp2 'a 'b (f: a -> b) (x: a) (dy: b) : (b, a) = __vjp2 f x dy

def jvp 'a 'b (f: a -> b) (x: a) (dx: a) : b = (__jvp2 f x dx).1

def vjp 'a 'b (f: a -> b) (x: a) (dy: b) : a = (__vjp2 f x dy).1

-- Several tangents or cotangents at once.
def jmp 'a 'b [n] (f: a -> b) (x: a) (dxs: [n]a) : [n]b = __map (\dx -> jvp f x dx) dxs

def mjp 'a 'b [n] (f: a -> b) (x: a) (dys: [n]b) : [n]a = __map (\dy -> vjp f x dy) dys

def jmp2 'a 'b [n] (f: a -> b) (x: a) (dxs: [n]a) : (b, [n]b) = (f x, jmp f x dxs)

def mjp2 'a 'b [n] (f: a -> b) (x: a) (dys: [n]b) : (b, [n]a) = (f x, mjp f x dys)

-- Custom reverse-mode derivatives: `f'` receives the result of `f` and the
-- result's cotangent and returns the argument's cotangent. Free variables
-- of `f` get no cotangent. Forward mode differentiates `f` itself.
def with_vjp 'a 'b (f: a -> b) (f': b -> b -> a) (x: a) : b = __with_vjp f f' x

-- As `with_vjp`, with the part of the result that only the adjoint needs
-- (the tape, `c`) kept apart from the result.
def with_vjp_tape 'a 'b 'c (f: a -> (c, b)) (f': (c, b) -> a) (x: a) : b =
  (__with_vjp f (\(tape, _) (_, adj) -> f' (tape, adj)) x).1
