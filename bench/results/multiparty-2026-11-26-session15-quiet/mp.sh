#!/usr/bin/env bash
# Session 15 multiparty campaign: 5 alternating pairs (rnsfhe default backend, then Lattigo v6.2.0 20x), then 2 rnsfhe runs with AVX2 forced.
set -u
cd /work/main
OUT=${OUT:-/tmp/mp-campaign}
for i in 1 2 3 4 5; do
  date -u +%T > $OUT/rnsfhe_run$i.txt
  RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out $OUT/report$i >> $OUT/rnsfhe_run$i.txt 2>&1
  date -u +%T > $OUT/lattigo_run$i.txt
  (cd /tmp/peers/lattigo && GOMAXPROCS=1 go test -run XXX -bench BenchmarkMultiParty -benchtime=20x github.com/tuneinsight/lattigo/v6/multiparty -args -params '{"LogN":14,"LogQ":[55,55,55,55,55,55,55],"LogP":[55],"NTTFlag":true}') >> $OUT/lattigo_run$i.txt 2>&1
done
for i in 1 2; do
  date -u +%T > $OUT/rnsfhe_avx2_run$i.txt
  RNSFHE_BACKEND=avx2 RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty --out $OUT/report_avx2_$i >> $OUT/rnsfhe_avx2_run$i.txt 2>&1
done
echo done > $OUT/DONE
