"""Python models of Futhark's primitive semantics, used by the reference
implementations that derive and check the expected test outputs."""

import math
import struct

INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64,
            "u8": 8, "u16": 16, "u32": 32, "u64": 64}
FLOATS = ("f16", "f32", "f64")


def wrap(x, t):
    """Two's-complement wrap-around of the integer x into type t."""
    bits = INT_BITS[t]
    x &= (1 << bits) - 1
    if t[0] == "i" and x >= 1 << (bits - 1):
        x -= 1 << bits
    return x


def fdiv(a, b):
    """Futhark `/` on integers: rounds towards negative infinity."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a // b


def fmod(a, b):
    """Futhark `%` on integers: result has the sign of the divisor."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a % b


def quot(a, b):
    """Futhark `//`: rounds towards zero."""
    if b == 0:
        raise ZeroDivisionError("division by zero")
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def rem(a, b):
    """Futhark `%%`: remainder of `//`, sign of the dividend."""
    return a - b * quot(a, b)


def f32(x):
    """Round a Python float to the nearest binary32 value."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def f16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("e", struct.pack("e", x))[0]
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def to_int(x, t):
    """Float-to-integer conversion (truncation towards zero), then wrap."""
    return wrap(int(x), t)


def popc(x, t):
    return bin(x & ((1 << INT_BITS[t]) - 1)).count("1")


def clz(x, t):
    bits = INT_BITS[t]
    u = x & ((1 << bits) - 1)
    return bits - u.bit_length()


def ctz(x, t):
    bits = INT_BITS[t]
    u = x & ((1 << bits) - 1)
    if u == 0:
        return bits
    return (u & -u).bit_length() - 1


def unsigned(x, t):
    return x & ((1 << INT_BITS[t]) - 1)


def mul_hi(a, b, t):
    """High half of the double-width product (signed or unsigned per t)."""
    bits = INT_BITS[t]
    if t[0] == "u":
        a, b = unsigned(a, t), unsigned(b, t)
    return wrap((a * b) >> bits, t)


def sgn(x):
    return (x > 0) - (x < 0)


def fsgn(x):
    if math.isnan(x):
        return x
    return float((x > 0) - (x < 0))


def conv(x, src, dst):
    """Integer-to-integer conversion as the prelude defines it: sign
    extension only when both types are signed, zero extension otherwise,
    then truncation to the destination width."""
    if src[0] == "i" and dst[0] == "i":
        return wrap(x, dst)
    return wrap(unsigned(x, src), dst)


class Empty:
    """An empty array together with its full shape, e.g. empty([0][3]i32)."""

    def __init__(self, shape, elem):
        self.shape, self.elem = shape, elem

    def __eq__(self, other):
        return isinstance(other, Empty) and self.shape[0] == other.shape[0]

    def as_lists(self):
        def build(shape):
            if len(shape) == 1:
                return []
            return [build(shape[1:]) for _ in range(shape[0])]
        return build(self.shape)


def plain(v):
    """Replace Empty markers by (nested) Python lists."""
    if isinstance(v, Empty):
        return v.as_lists()
    return v
