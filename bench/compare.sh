#!/usr/bin/env bash
# rnsfhe against SEAL, OpenFHE, Lattigo and fhe.rs on this machine, every backend this CPU has, in one run.
#
# Peers come from the registries through ../shared/peers/setup.sh (into $PEERS, default /tmp/peers) and are
# timed by ../shared/peers' scripts; rnsfhe by `examples/peer_bench` with the same method (2 warm-ups, median
# of >= 20 runs) and the same sizes: NTT 2^14 (60-bit prime), BFV n = 8192 and 16384 (t = 65537), CKKS
# N = 2^15 with 60 + 40 x 10. One thing at a time (2 cores): never run two of these side by side.
# rnsfhe runs once per backend the CPU supports (scalar, avx2, avx512, avx512ifma) on one thread, then the
# default backend on two threads. Raw tables and the summary (README.md, with the CPU model, the date and
# the commit) go to $OUTDIR (default bench/results/compare/<cpu>, the CPU kind from $CPU_KIND, e.g.
# intel-xeon-icelake or amd-epyc-zen3, else a slug of the model name: it replaces the previous figures
# of that CPU kind, whose history git keeps).
# Usage: bash bench/compare.sh [seal openfhe lattigo fhers rnsfhe]   (default: all)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared/peers}"
export PEERS="${PEERS:-/tmp/peers}"
CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
SLUG="$(echo "$CPU" | tr 'A-Z' 'a-z' | tr -cs 'a-z0-9' '-' | sed 's/-$//' | cut -c1-40)"
OUTDIR="${OUTDIR:-$ROOT/bench/results/compare/${CPU_KIND:-$SLUG}}"
mkdir -p "$OUTDIR"
pieces=("$@"); [ ${#pieces[@]} -eq 0 ] && pieces=(seal openfhe lattigo fhers rnsfhe)
BFV=8192,16384; CKKS=32768:10; NTT=16384
run() { # name cmd...: stdout to $OUTDIR/name.md, stderr to name.err, capped at 8 minutes
  local name="$1"; shift
  echo "=== $name: $*" >&2
  timeout 480 "$@" > "$OUTDIR/$name.md" 2> "$OUTDIR/$name.err" || echo "$name failed (see $name.err)" >&2
}
needs_peers=0
for p in "${pieces[@]}"; do [ "$p" != rnsfhe ] && needs_peers=1; done
if [ $needs_peers = 1 ]; then
  if [ -f "$SHARED/setup.sh" ]; then bash "$SHARED/setup.sh" >&2 || echo "peer setup failed; running what is installed" >&2
  else echo "peer scripts not found at $SHARED (set SHARED=...)" >&2; fi
fi
for p in "${pieces[@]}"; do
  case "$p" in
    seal) run seal "$PEERS/venv/bin/python" "$SHARED/bench_seal.py" --backend seal-python \
            --bfv "$BFV" --ckks "$CKKS" --ntt "$NTT" ;;
    openfhe) run openfhe env OMP_NUM_THREADS=1 "$PEERS/venv310/bin/python" "$SHARED/bench_openfhe.py" \
            --bfv "$BFV" --mult HPSPOVERQLEVELED --ckks "$CKKS" ;;
    lattigo) run lattigo env GOMAXPROCS=1 "$PEERS/lattigo/lattigo-bench" -bfv "$BFV" -ckks "$CKKS" -ntt "$NTT" ;;
    fhers) run fhers "$PEERS/fhers/target-tfhe/release/fhers-bench" 8192 16384 ntt ;;
    rnsfhe)
      (cd "$ROOT" && cargo build --release --locked -q -p rnsfhe --example peer_bench) || exit 1
      mapfile -t backends < <(bash "$ROOT/.ci/backends.sh")
      for b in "${backends[@]}"; do
        run "rnsfhe_$b" env RNSFHE_BACKEND=$b RNSFHE_NUM_THREADS=1 "$ROOT/target/release/examples/peer_bench" \
            --bfv "$BFV" --ckks "$CKKS" --ntt "$NTT"
      done
      # On an IFMA CPU also the layout recommended there (every prime below 2^50; docs/tutorials/parameters.md).
      if [[ " ${backends[*]} " == *" avx512ifma "* ]]; then
        run rnsfhe_avx512ifma_narrow env RNSFHE_BACKEND=avx512ifma RNSFHE_NUM_THREADS=1 \
            "$ROOT/target/release/examples/peer_bench" --bfv "$BFV" --ckks "$CKKS" --ntt "" --layout narrow
      fi
      run rnsfhe_threads2 env RNSFHE_NUM_THREADS=2 "$ROOT/target/release/examples/peer_bench" \
          --bfv 16384 --ckks "$CKKS" --ntt "" ;;
    *) echo "unknown piece $p" >&2 ;;
  esac
done
{
  echo "# rnsfhe and its peers on one machine, one run"
  echo
  echo "CPU: $CPU ($(nproc) cores; $(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'avx2|avx512f|avx512ifma' | tr '\n' ' '))."
  echo "Date: $(date -u '+%F %H:%M UTC'). rnsfhe commit: $(git -C "$ROOT" rev-parse --short HEAD)."
  echo "Command: \`bash bench/compare.sh ${pieces[*]}\` (pieces one after another; medians in ms)."
  python3 "$ROOT/bench/compare_summary.py" "$OUTDIR"
} > "$OUTDIR/README.md"
echo "summary in $OUTDIR/README.md" >&2
