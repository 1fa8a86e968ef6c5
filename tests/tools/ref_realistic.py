"""References for tests/realistic: the modules under tests/realistic/ref
(complex-step derivatives and hand-written formulas) in this checker's
format. This file is run by exec, without __file__: the tests folder is
found from the tools folder on sys.path."""
import importlib
import os
import sys

_tools = next(p for p in sys.path if os.path.basename(p) == "tools"
              and os.path.isfile(os.path.join(p, "check_expected.py")))
_ref_dir = os.path.join(os.path.dirname(_tools), "realistic", "ref")
if _ref_dir not in sys.path:
    sys.path.insert(0, _ref_dir)

REFS = {}
for _name in ("gmm", "kmeans", "lstm", "rk4"):
    REFS.update(importlib.import_module(_name).REFS)
