#!/usr/bin/env bash
# BFV against the peer libraries on this machine, one benchmark at a time (2 cores: never in parallel).
#
# Installs SEAL (seal-python), OpenFHE (its wheel, Python 3.10), Lattigo v6.2.0 and fhe.rs into $PEERS
# with ../shared/peers/setup.sh, runs their BFV benchmarks with the parameters recorded there (t = 65537,
# n = 8192, 16384, 32768, one thread), then `rnsfhe bench bfv` at the same sizes, and writes every table
# to $OUTDIR (default bench/results). Usage: bash bench/compare_bfv.sh [seal openfhe1 lattigo fhers]
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared/peers}"
export PEERS="${PEERS:-/tmp/peers}"
export OUTDIR="${OUTDIR:-$ROOT/bench/results}"
mkdir -p "$OUTDIR"
pieces=("$@"); [ ${#pieces[@]} -eq 0 ] && pieces=(seal openfhe1 lattigo fhers)
if [ ! -f "$SHARED/setup.sh" ]; then
  echo "peer scripts not found at $SHARED (set SHARED=...)" >&2
  exit 1
fi
bash "$SHARED/setup.sh" >&2 || echo "setup failed; running what is installed" >&2
# The shared runner writes <piece>_bfv.md (and CKKS tables, which this script does not need).
for p in "${pieces[@]}"; do
  case "$p" in
    seal) timeout 480 "$PEERS/venv/bin/python" "$SHARED/bench_seal.py" --backend seal-python \
            --ckks "" --ntt "" > "$OUTDIR/seal_bfv.md" 2> "$OUTDIR/seal_bfv.err" ;;
    openfhe1) OMP_NUM_THREADS=1 timeout 480 "$PEERS/venv310/bin/python" "$SHARED/bench_openfhe.py" \
            --ckks "" > "$OUTDIR/openfhe_bfv_omp1.md" 2> "$OUTDIR/openfhe_bfv_omp1.err" ;;
    lattigo) GOMAXPROCS=1 timeout 480 "$PEERS/lattigo/lattigo-bench" -ckks "" -ntt "" \
            > "$OUTDIR/lattigo_bfv.md" 2> "$OUTDIR/lattigo_bfv.err" ;;
    fhers) timeout 480 "$PEERS/fhers/target/release/fhers-bench" 8192 16384 32768 \
            > "$OUTDIR/fhers_bfv.md" 2> "$OUTDIR/fhers_bfv.err" ;;
    *) echo "unknown piece $p" >&2 ;;
  esac
  echo "=== $p done" >&2
done
(cd "$ROOT" && cargo run --release --locked -q -p rnsfhe-cli -- bench bfv --paper) > "$OUTDIR/rnsfhe_bfv.md"
echo "tables in $OUTDIR" >&2
