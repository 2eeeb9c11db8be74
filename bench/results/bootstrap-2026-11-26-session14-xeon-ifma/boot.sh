#!/usr/bin/env bash
# Quiet bootstrap runs, session 14. Pairs rnsfhe / Lattigo back to back.
set -u
cd /work/main
OUT=/tmp/m14/out; mkdir -p $OUT
run() { name=$1; shift; echo "== $name: $* ($(date -u +%H:%M:%S))"; /usr/bin/time -v "$@" > $OUT/$name.txt 2> $OUT/$name.time; grep -E 'Maximum resident|Elapsed' $OUT/$name.time; }
export RNSFHE_NUM_THREADS=1
run rn_full target/release/examples/ckks_bootstrap n16-h192 32768 2 1
(cd /tmp/peers/lattigo_boot && GOMAXPROCS=1 run lg_full ./lattigo-boot -logn 16 -reps 1)
run rn_sparse target/release/examples/ckks_bootstrap n16-h192 4096 2 1
(cd /tmp/peers/lattigo_boot_sparse && GOMAXPROCS=1 run lg_sparse ./lattigo-boot-sparse -logn 16 -reps 1 -logslots 12)
run rn_full2 target/release/examples/ckks_bootstrap n16-h192 32768 2 1
RNSFHE_BACKEND=avx2 run rn_avx2 target/release/examples/ckks_bootstrap n16-h192 32768 1 1
RNSFHE_NUM_THREADS=2 run rn_2t target/release/examples/ckks_bootstrap n16-h192 32768 2 2
run rn_meta target/release/examples/ckks_bootstrap n16-h192-meta 32768 1 1
