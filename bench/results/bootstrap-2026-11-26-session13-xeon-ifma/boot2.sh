#!/bin/bash
set -x
cd /work/main
O=/tmp/m13
(cd /tmp/peers/lattigo_boot && GOMAXPROCS=1 /usr/bin/time -v ./lattigo-boot -logn 16 -reps 3) > $O/lattigo3.txt 2> $O/lattigo3.time
RNSFHE_NUM_THREADS=1 target/release/examples/ckks_bootstrap n16-h192 32768 3 1 > $O/h192_ifma_3.txt 2>&1
(cd /work/shared/peers && OMP_NUM_THREADS=1 /usr/bin/time -v /tmp/peers/venv310/bin/python bench_openfhe_boot.py --logn 16 --reps 1 --insecure) > $O/openfhe.txt 2> $O/openfhe.time
echo DONE2
