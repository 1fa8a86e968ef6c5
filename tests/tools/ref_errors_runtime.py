"""References for tests/errors-runtime/fixed.fut."""

REFS = {
    "errors-runtime/fixed.fut": {
        "empty_index": lambda x: x,
        "empty_update": lambda x: 2,
        "copies": lambda x, y: (x + 1, y),
        "shadowed": lambda x: x + 1,
        "strip_huge": lambda x, n: x ** (n + 1),
    },
}
