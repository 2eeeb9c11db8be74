#!/usr/bin/env bash
set -u
cd /work/main
OUT=/tmp/m14/out; mkdir -p $OUT
echo "mp start $(date -u +%H:%M:%S)"
RNSFHE_NUM_THREADS=1 target/release/rnsfhe bench multiparty > $OUT/mp_rnsfhe.txt 2>&1
echo "lattigo $(date -u +%H:%M:%S)"
bash ../shared/peers/lattigo_multiparty.sh > $OUT/mp_lattigo.txt 2>&1
echo "done $(date -u +%H:%M:%S)"
