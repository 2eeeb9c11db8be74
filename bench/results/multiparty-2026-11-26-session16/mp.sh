#!/usr/bin/env bash
# Session 16 multiparty campaign: 5 alternating triples, each rnsfhe on the default backend, rnsfhe with
# RNSFHE_BACKEND=avx2, then Lattigo v6.2.0 (its own benchmarks, 20x, the anchor parameters), one thread.
set -u
cd /work/main
OUT=${OUT:-/tmp/mp-campaign}
mkdir -p "$OUT"
for i in 1 2 3 4 5; do
  date -u +%T > $OUT/rnsfhe_run$i.txt
  RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out $OUT/report$i >> $OUT/rnsfhe_run$i.txt 2>&1
  date -u +%T > $OUT/rnsfhe_avx2_run$i.txt
  RNSFHE_BACKEND=avx2 RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out $OUT/report_avx2_$i >> $OUT/rnsfhe_avx2_run$i.txt 2>&1
  date -u +%T > $OUT/lattigo_run$i.txt
  (cd /tmp/peers/lattigo && GOMAXPROCS=1 go test -run XXX -bench BenchmarkMultiParty -benchtime=20x github.com/tuneinsight/lattigo/v6/multiparty -args -params '{"LogN":14,"LogQ":[55,55,55,55,55,55,55],"LogP":[55],"NTTFlag":true}') >> $OUT/lattigo_run$i.txt 2>&1
done
echo done > $OUT/DONE
