#!/usr/bin/env bash
# A 256 x 256 plaintext matrix on 128 encrypted vectors of 256 (one ciphertext of 2^15 slots, CKKS
# N = 2^16, q 60 + 10 x 40, P 4 x 49, 128-bit), one thread: `rnsfhe bench matmul` against Lattigo
# v6.2.0's circuits/ckks/lintrans (`bench/lattigo_lintrans -matrix 256`) on the same diagonal sets, in
# one run, one after the other (2 cores: run nothing else beside it). Prints the machine load, the CPU,
# the backend, both medians per layout and the ratio rnsfhe / Lattigo. Needs Go (the module proxy for
# Lattigo v6.2.0) and a release build of the CLI (built here if missing).
# Usage: bash bench/matmul_vs_lattigo.sh [reps]   (default 10; OUTDIR for the raw outputs)
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
REPS="${1:-10}"
OUTDIR="${OUTDIR:-$(mktemp -d /tmp/matmul-vs-lattigo.XXXXXX)}"
mkdir -p "$OUTDIR"
CLI="$ROOT/target/release/rnsfhe"
[ -x "$CLI" ] || (cd "$ROOT" && cargo build --release --locked -p rnsfhe-cli)
(cd "$ROOT/bench/lattigo_lintrans" && go build -o "$OUTDIR/lattigo-lintrans" .)
echo "load before: $(uptime)"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); RNSFHE_BACKEND=${RNSFHE_BACKEND:-default}"
RNSFHE_NUM_THREADS=1 "$CLI" bench matmul --reps "$REPS" --out "$OUTDIR/rnsfhe" > "$OUTDIR/rnsfhe.md"
for layout in interleaved rows; do
  GOMAXPROCS=1 "$OUTDIR/lattigo-lintrans" -logn 16 -logq 60,40,40,40,40,40,40,40,40,40,40 \
    -logp 49,49,49,49 -matrix 256 -layout "$layout" -reps "$REPS" > "$OUTDIR/lattigo-$layout.txt"
done
echo "load after: $(uptime)"
cat "$OUTDIR/rnsfhe.md"
python3 - "$OUTDIR" <<'PY'
import re, sys
out = sys.argv[1]
def seconds(text):
    v, unit = text.split()
    return float(v) * {"s": 1, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}[unit]
rows = {}
for line in open(f"{out}/rnsfhe.md"):
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 9 and cells[0] in ("interleaved", "rows"):
        rows[cells[0]] = (seconds(cells[6]), seconds(cells[7]), cells[2], cells[3])
print("\n| layout | rnsfhe median (min) | Lattigo median (min) | ratio of medians | n1 rnsfhe / Lattigo |")
print("|---|---|---|---|---|")
for layout, (med, low, n1, _) in rows.items():
    text = open(f"{out}/lattigo-{layout}.txt").read()
    lmed = float(re.search(r"evaluate_rescale_ms ([\d.]+)", text).group(1)) / 1e3
    lmin = float(re.search(r"evaluate_rescale_min_ms ([\d.]+)", text).group(1)) / 1e3
    ln1 = re.search(r"n1=(\d+)", text).group(1)
    print(f"| {layout} | {med*1e3:.1f} ({low*1e3:.1f}) ms | {lmed*1e3:.1f} ({lmin*1e3:.1f}) ms | "
          f"{med/lmed:.3f}x | {n1} / {ln1} |")
print(f"\nraw outputs: {out}")
PY
