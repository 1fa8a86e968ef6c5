"""Reading and writing Futhark values (stdlib only): binary values of any
numeric type and the text values of the reference files (numbers in
brackets, with or without type suffixes)."""

import array
import os
import re
import struct
import sys

_TYPES = {"i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B", "u16": "H",
          "u32": "I", "u64": "Q", "f32": "f", "f64": "d", "bool": "B"}


def read_values(buf):
    """[(flat list of numbers, shape)] of every value in buf (bytes)."""
    out, pos = [], 0
    while pos < len(buf):
        if buf[pos:pos + 1].isspace():
            pos += 1
            continue
        if buf[pos:pos + 1] != b"b":
            out.extend(read_text(buf[pos:].decode()))
            break
        rank = buf[pos + 2]
        ty = buf[pos + 3:pos + 7].decode().strip()
        dims = list(struct.unpack_from("<%dQ" % rank, buf, pos + 7))
        pos += 7 + 8 * rank
        count = 1
        for d in dims:
            count *= d
        a = array.array(_TYPES[ty])
        a.frombytes(buf[pos:pos + a.itemsize * count])
        if sys.byteorder != "little":
            a.byteswap()
        pos += a.itemsize * count
        out.append((a.tolist() if rank else a[0], dims))
    return out


def read_file(path):
    with open(path, "rb") as f:
        return read_values(f.read())


_NUM = re.compile(r"-?[0-9][0-9_.eE+\-]*|-?f(?:32|64)\.(?:inf|nan)")


def read_text(text):
    """Text values, each flattened (shapes of nested brackets not kept)."""
    text = re.sub(r"--[^\n]*", "", text)
    out = []
    depth, cur = 0, []
    for tok in re.findall(r"\[|\]|[^\s\[\],]+", text):
        if tok == "[":
            depth += 1
        elif tok == "]":
            depth -= 1
            if depth == 0:
                out.append((cur, [len(cur)]))
                cur = []
        else:
            tok = re.sub(r"(i8|i16|i32|i64|u8|u16|u32|u64|f16|f32|f64)$", "", tok)
            v = float(tok.replace("_", "")) if tok not in ("true", "false") else float(tok == "true")
            if depth == 0:
                out.append((v, []))
            else:
                cur.append(v)
    return out


def flatten(values):
    flat = []
    for v, shape in values:
        flat.extend(v if shape else [v])
    return flat


def value(ty, dims, flat):
    """One value of numeric type ty ("f64", "i64", ...) in Futhark's binary
    format."""
    a = array.array(_TYPES[ty], flat)
    if sys.byteorder != "little":
        a.byteswap()
    return (b"b" + bytes([2, len(dims)]) + (" " * (4 - len(ty)) + ty).encode()
            + b"".join(struct.pack("<Q", d) for d in dims) + a.tobytes())


def f64_value(dims, flat):
    return value("f64", dims, flat)


def fresh(out, *srcs):
    """Whether the file out exists and is not older than any of srcs (a
    source may be stored gzipped, as X.gz): a prepared input that need not
    be made again."""
    if not os.path.exists(out):
        return False
    for src in srcs:
        if not os.path.exists(src) and os.path.exists(src + ".gz"):
            src += ".gz"
        if os.path.getmtime(out) < os.path.getmtime(src):
            return False
    return True
