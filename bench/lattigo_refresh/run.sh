#!/usr/bin/env bash
# Lattigo v6.2.0's refresh benchmarks at rnsfhe's multiparty anchor: N = 2^14, Q 7 x 55 bits, P 55 bits, one
# thread (GOMAXPROCS=1). BGV (mpbgv.BenchmarkInteger: a level-0 ciphertext, t = 0x101 and 0xffc001, noise Xe) and CKKS
# (mpckks.BenchmarkMultiPartyCKKS: the lowest level GetMinimumLevelForRefresh allows at 128 bits of mask security,
# scale 2^55). Prints ns/op of Refresh/Round1/Gen (GenShare), Refresh/Round1/Agg (AggregateShares(s, s, &s)) and
# Refresh/Finalize. The rnsfhe side: `RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty`.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
cd "$HERE"
BENCHTIME="${BENCHTIME:-20x}"
Q='"LogN":14,"LogQ":[55,55,55,55,55,55,55],"LogP":[55]'
GOMAXPROCS=1 go test -count=1 -run XXX -bench 'BenchmarkInteger' -benchtime="$BENCHTIME" \
  github.com/tuneinsight/lattigo/v6/multiparty/mpbgv -args -params "{$Q}" | grep 'Refresh'
GOMAXPROCS=1 go test -count=1 -run XXX -bench 'BenchmarkMultiPartyCKKS' -benchtime="$BENCHTIME" \
  github.com/tuneinsight/lattigo/v6/multiparty/mpckks -args -params "{$Q,\"LogDefaultScale\":55}" \
  | grep 'Refresh'
