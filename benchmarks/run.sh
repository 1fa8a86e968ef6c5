#!/usr/bin/env bash
# Benchmark parad (C backend, threads = cores) against JAX and PyTorch on
# every row of the benchmark folders' bench.json, in one run; check that
# the results agree; write benchmarks/RESULTS.md and benchmarks/results.png.
# See benchmarks/README.md.
#
#   benchmarks/run.sh [DATA_DIR]
#
# DATA_DIR (or $PARAD_DATA) is the benchmark data folder with adbench/ and
# kmeans/ inside; default: ../shared/data relative to the repository root.
# Environment:
#   PARAD   the parad binary (default: build with cargo and use
#           ${CARGO_TARGET_DIR:-target}/release/parad)
#   PARAD_BEFORE  another parad binary timed alongside (before/after figures)
#   RUNS    timed runs per entry point (default: 5, after one warm-up run)
#   PYTHON  a Python with JAX, PyTorch and matplotlib (default: python3;
#           a peer it cannot import is "not installed" in RESULTS.md)
#   NOPEERS set to 1 to time parad alone
#   ONLY    folders or input stems to run (e.g. "micro lstm_l2_c1024")
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
data=${1:-${PARAD_DATA:-$repo/../shared/data}}
runs=${RUNS:-5}
python=${PYTHON:-python3}
out=$here/data

if [ ! -d "$data/adbench/gmm" ] || [ ! -d "$data/kmeans" ]; then
  echo "no benchmark data in $data (pass the data folder as the first argument)" >&2
  exit 2
fi

if [ -z "${PARAD:-}" ]; then
  (cd "$repo" && cargo build --release -q -p parad)
  PARAD=${CARGO_TARGET_DIR:-$repo/target}/release/parad
fi

echo "== inputs into $out"
python3 "$here/tools/prepare_all.py" "$data" "$out"

echo "== correctness: parad test (interpreter and C backend)"
: > "$out/test.log"
progs=$(python3 "$here/tools/harness.py" --programs)
for b in interp c; do
  for p in $progs; do
    summary=$("$PARAD" test --backend "$b" "$here/$p" 2>&1 | tee -a "$out/test.log" | tail -1) || true
    echo "## \`parad test --backend $b benchmarks/$p\`: $summary" | tee -a "$out/test.log"
  done
done

if [ "${NOPEERS:-0}" = 1 ] || ! "$python" -c "import numpy" 2>/dev/null; then
  python=none
fi

echo "== timings and checks"
python3 "$here/tools/harness.py" "$PARAD" "$out" "$runs" "$python" > "$out/RESULTS.md"
cp "$out/RESULTS.md" "$here/RESULTS.md"
if [ "$python" != none ] && "$python" "$here/tools/plot.py" "$out/results.json" "$here/results.png"; then
  echo "== wrote $here/RESULTS.md and $here/results.png"
else
  echo "== wrote $here/RESULTS.md (no plot: matplotlib is missing)"
fi
