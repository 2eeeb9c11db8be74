#!/usr/bin/env bash
# The multiparty comparison with Lattigo (bench/results/multiparty/<cpu>/): five alternating triples,
# each rnsfhe on the default backend, rnsfhe with RNSFHE_BACKEND=avx2, then Lattigo v6.2.0's own
# multiparty benchmarks (20 iterations, the same parameters: N = 2^14, Q 7 x 55 bits, P 55 bits), one
# thread each. Run from the repository root after `cargo build --release -p rnsfhe-cli`, with a clone
# of Lattigo v6.2.0 in $LATTIGO (default /tmp/peers/lattigo); then summarise with
#   python3 bench/multiparty_summary.py "$OUT"
set -u
OUT=${OUT:-/tmp/mp-campaign}
LATTIGO=${LATTIGO:-/tmp/peers/lattigo}
mkdir -p "$OUT"
for i in 1 2 3 4 5; do
  date -u +%T > "$OUT/rnsfhe_run$i.txt"
  RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out "$OUT/report$i" >> "$OUT/rnsfhe_run$i.txt" 2>&1
  date -u +%T > "$OUT/rnsfhe_avx2_run$i.txt"
  RNSFHE_BACKEND=avx2 RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out "$OUT/report_avx2_$i" >> "$OUT/rnsfhe_avx2_run$i.txt" 2>&1
  date -u +%T > "$OUT/lattigo_run$i.txt"
  (cd "$LATTIGO" && GOMAXPROCS=1 go test -run XXX -bench BenchmarkMultiParty -benchtime=20x github.com/tuneinsight/lattigo/v6/multiparty -args -params '{"LogN":14,"LogQ":[55,55,55,55,55,55,55],"LogP":[55],"NTTFlag":true}') >> "$OUT/lattigo_run$i.txt" 2>&1
done
echo done > "$OUT/DONE"
