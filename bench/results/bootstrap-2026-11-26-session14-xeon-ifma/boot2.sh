#!/usr/bin/env bash
set -u
cd /work/main
OUT=/tmp/m14/out
run() { name=$1; shift; echo "== $name: $* ($(date -u +%H:%M:%S))"; /usr/bin/time -v "$@" > $OUT/$name.txt 2> $OUT/$name.time; grep -E 'Maximum resident|Elapsed' $OUT/$name.time; }
export RNSFHE_NUM_THREADS=1
(cd /tmp/peers/lattigo_boot && GOMAXPROCS=1 run lg_full2 ./lattigo-boot -logn 16 -reps 1)
run rn_full3 target/release/examples/ckks_bootstrap n16-h192 32768 3 1
run showcase target/release/rnsfhe bench showcase --threads 2 --out /tmp/m14/rep_showcase
echo "all done $(date -u +%H:%M:%S)"
