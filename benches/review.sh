#!/usr/bin/env bash
# Contract-review measurement: 5-fold cross-validation on the CUAD dev split
# scored by the benchmark's own scorer, and single-thread detection
# throughput of `lexstack review detect --jsonl` over the same contracts, and
# the p99 latency of the endpoint for a 200,000-char contract.
#   benches/review.sh [path/to/shared/eval/review]
set -euo pipefail
cd "$(dirname "$0")/.."
EVAL=${1:-../shared/eval/review}
OUT=${TMPDIR:-/tmp}/lexstack-review-bench
mkdir -p "$OUT"
cargo build --release --quiet
BIN=${CARGO_TARGET_DIR:-target}/release/lexstack
"$BIN" dev cv-review --cuad "$EVAL/cuad_dev.jsonl.gz" --folds 5 --predictions "$OUT/oof.jsonl"
python3 "$EVAL/score.py" --gold "$EVAL/cuad_dev.jsonl.gz" --pred "$OUT/oof.jsonl"
python3 - "$EVAL/cuad_dev.jsonl.gz" "$OUT/dev.jsonl" <<'PY'
import gzip, json, sys
with gzip.open(sys.argv[1], "rt") as src, open(sys.argv[2], "w") as dst:
    for line in src:
        r = json.loads(line)
        dst.write(json.dumps({"id": r["id"], "text": r["text"]}) + "\n")
PY
BYTES=$(python3 -c "import json,sys; print(sum(len(json.loads(l)['text'].encode()) for l in open(sys.argv[1])))" "$OUT/dev.jsonl")
START=$(date +%s.%N)
"$BIN" review detect --jsonl < "$OUT/dev.jsonl" > "$OUT/detect.jsonl"
END=$(date +%s.%N)
python3 -c "import sys; b,s,e=map(float,sys.argv[1:]); print(f'detect --jsonl: {b/1e6:.1f} MB in {e-s:.2f} s = {b/1e6/(e-s):.1f} MB/s (single thread, includes JSON I/O)')" "$BYTES" "$START" "$END"
python3 benches/review_latency.py "$BIN" "$EVAL/cuad_dev.jsonl.gz"
