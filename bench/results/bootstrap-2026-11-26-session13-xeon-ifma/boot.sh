#!/bin/bash
# Quiet bootstrapping measurements, session 13. Run from /work/main after building the example.
set -x
cd /work/main
B=target/release/examples/ckks_bootstrap
O=/tmp/m13
grep -m1 'model name' /proc/cpuinfo > $O/cpu.txt
RNSFHE_NUM_THREADS=1 /usr/bin/time -v $B n16-h192 32768 2 1 > $O/h192_ifma_1t.txt 2> $O/h192_ifma_1t.time
RNSFHE_NUM_THREADS=1 $B n16-h192 4096 2 1 > $O/h192_ifma_4096.txt 2>&1
RNSFHE_NUM_THREADS=2 $B n16-h192 32768 2 2 > $O/h192_ifma_2t.txt 2>&1
RNSFHE_BACKEND=avx2 RNSFHE_NUM_THREADS=1 $B n16-h192 32768 1 1 > $O/h192_avx2_1t.txt 2>&1
RNSFHE_NUM_THREADS=1 /usr/bin/time -v $B n16 32768 2 1 > $O/n16_ifma_1t.txt 2> $O/n16_ifma_1t.time
(cd /tmp/peers/lattigo_boot && GOMAXPROCS=1 /usr/bin/time -v ./lattigo-boot -logn 16 -reps 1) > $O/lattigo.txt 2> $O/lattigo.time
RNSFHE_NUM_THREADS=1 $B n16-h192 32768 1 1 keys=expanded > $O/h192_ifma_expanded.txt 2>&1
RNSFHE_NUM_THREADS=1 /usr/bin/time -v $B n16-h192-meta 32768 1 1 > $O/h192_meta.txt 2> $O/h192_meta.time
