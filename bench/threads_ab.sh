#!/usr/bin/env bash
# rnsfhe's rows at one thread against two under the same machine load: `examples/peer_bench` run
# alternately with RNSFHE_NUM_THREADS=1 and 2, ROUNDS times, and per row the median over the rounds
# of each count and their ratio (> 1: two threads faster). On a shared machine quote the load
# (`uptime`) beside the table: two threads cannot help while the other core is busy.
# Usage: bash bench/threads_ab.sh [ROUNDS] [peer_bench arguments]   (default: 3 --bfv 16384 --ckks 32768:10 --ntt "")
# The backend is the library's (RNSFHE_BACKEND).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
ROUNDS="${1:-3}"; shift || true
[ $# -eq 0 ] && set -- --bfv 16384 --ckks 32768:10 --ntt ""
(cd "$ROOT" && cargo build --release --locked -q -p rnsfhe --example peer_bench)
BIN="$ROOT/target/release/examples/peer_bench"
OUT="$(mktemp -d)"
for i in $(seq "$ROUNDS"); do
  for t in 1 2; do RNSFHE_NUM_THREADS=$t "$BIN" "$@" > "$OUT/t$t-$i.md"; done
done
python3 - "$OUT" "$ROUNDS" <<'PY'
import collections, statistics, sys
out, rounds = sys.argv[1], int(sys.argv[2])
rows, order = collections.defaultdict(lambda: {1: [], 2: []}), []
for t in (1, 2):
    for i in range(1, rounds + 1):
        for line in open(f"{out}/t{t}-{i}.md"):
            c = [x.strip() for x in line.split("|")]
            if len(c) < 8 or c[6] in ("median ms", "---"):
                continue
            key = (c[2], c[3], c[5])
            if key not in order:
                order.append(key)
            rows[key][t].append(float(c[6]))
print("| scheme | n | op | 1 thread ms | 2 threads ms | 1 / 2 |")
print("|---|---|---|---|---|---|")
for key in order:
    one, two = (statistics.median(rows[key][t]) for t in (1, 2))
    print(f"| {key[0]} | {key[1]} | {key[2]} | {one:.3f} | {two:.3f} | {one / two:.2f}x |")
PY
rm -rf "$OUT"
