#!/usr/bin/env bash
# Benchmark parad (C backend with 2 threads and 1, the interpreter) against
# JAX on ADBench GMM, ADBench LSTM and k-means (objective and derivatives),
# check that the results agree, and write benchmarks/RESULTS.md.
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
#   RUNS    timed runs per entry point and dataset (default: 5)
#   PYTHON  a Python with JAX (default: python3; "not installed" in
#           RESULTS.md when it cannot import JAX)
#   NOJAX   set to 1 to skip JAX
#   ONLY    input stems to run (e.g. "lstm_l2_c1024"), for debugging
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

echo "== converting the data into $out"
python3 "$here/tools/adbench.py" prepare "$data" "$out" d2_K10_1k d10_K5_1k d32_K200_10k
python3 "$here/tools/prepare.py" lstm "$data" "$out" l2_c1024 l4_c4096
python3 "$here/tools/prepare.py" kmeans "$data" "$out"

echo "== correctness: parad test (interpreter and C backend)"
: > "$out/test.log"
for b in interp c; do
  for p in gmm/gmm.fut lstm/lstm.fut kmeans/kmeans.fut matmul/matmul.fut; do
    summary=$("$PARAD" test --backend "$b" "$here/$p" 2>&1 | tee -a "$out/test.log" | tail -1) || true
    echo "## \`parad test --backend $b benchmarks/$p\`: $summary" | tee -a "$out/test.log"
  done
done

if [ "${NOJAX:-0}" = 1 ] || ! "$python" -c "import jax" 2>/dev/null; then
  python=none
fi

echo "== timing and checks"
python3 "$here/tools/harness.py" "$PARAD" "$data" "$out" "$runs" "$python" > "$out/RESULTS.md"
cp "$out/RESULTS.md" "$here/RESULTS.md"
echo "== wrote $here/RESULTS.md"
